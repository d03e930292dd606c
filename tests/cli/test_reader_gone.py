"""A reader that goes away (``skat simulate | head -1``) is no error of
ours: exit 0 as for any closed pipe, not the 1 of an internal error that
rich's own handling of the broken pipe gave."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize(("args", "read"), [(["simulate", "--deals", "300", "--seed", "1"], 1),
                                            (["play", "--seed", "3", "--deals", "1"], 0), (["rulesets"], 0)])
def test_a_closed_pipe_is_exit_0(args, read):
    """``read``: the lines read before the reader goes (simulate: its first
    line, written before the deals are played; the table then meets the
    broken pipe, as under ``| head -1``)."""
    env = {**os.environ, "SKAT_NO_WARM": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "skatcore", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    for _ in range(read):
        proc.stdout.readline()
    proc.stdout.close()
    _out, err = proc.communicate(b"q\n", timeout=120)
    assert proc.returncode == 0, err.decode(errors="replace")[-500:]
    assert b"internal error" not in err
