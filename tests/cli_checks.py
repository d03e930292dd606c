"""Checks the CLI tests share."""

from __future__ import annotations

from skatcore.cli.main import main


def refused(capsys, argv, *expected) -> str:
    """Run ``skat argv``: it must exit 2 with one line ``skat: error: ...``
    containing every ``expected`` text; the line."""
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 2, (rc, out, err)
    assert err.count("\n") == 1 and err.startswith("skat: error: "), err
    for text in expected:
        assert text in err, (text, err)
    return err
