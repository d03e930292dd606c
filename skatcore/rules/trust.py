"""What a file may make us do: run code, and read other files.

A ruleset may name plugins that are code outside skatcore (``./house.py:X``,
``module:attr``).  Records, session records and sheets name rulesets, so a
file received from someone else could run their code.  Such code runs only
when the user says so: ``skat --trust ...`` (:func:`trusting` in Python), or
the ruleset file lies inside a directory listed in the environment variable
``SKAT_TRUSTED_PATHS`` (separated like ``PATH``).  Shipped plugins, plugins
installed as entry points (group ``skat``) and shipped or installed rulesets
need no trust: installing them was the user's choice.

A path one file names (``extends:``, a record's ``ruleset:``, a plugin file)
resolves inside the naming file's directory tree, never outside it.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from skatcore.errors import InputError, shorten

TRUST_ENV = "SKAT_TRUSTED_PATHS"
TRUST_HELP = ("run the code (local plugin files, module:attr) that rulesets name; without it only shipped and "
              f"installed plugins run, and code named by rulesets inside the directories of {TRUST_ENV}")
_trust_all: ContextVar[bool] = ContextVar("skat_trust_all", default=False)
_trust_paths: ContextVar[bool] = ContextVar("skat_trust_paths", default=True)


@contextmanager
def trusting(on: bool = True, *, paths: bool = True):
    """Within the block, rulesets may run the local code they name
    (``--trust``).  ``paths=False``: the directories of ``SKAT_TRUSTED_PATHS``
    count for nothing either (a file that came from elsewhere, such as an upload
    to ``skat serve``, earns no trust by where it was put)."""
    token, paths_token = _trust_all.set(on), _trust_paths.set(paths)
    try:
        yield
    finally:
        _trust_all.reset(token)
        _trust_paths.reset(paths_token)


def trusts_all() -> bool:
    """Whether ``--trust`` is in force here (:func:`trusting`)."""
    return _trust_all.get()


def trusted_paths() -> tuple[Path, ...]:
    """The directories of ``SKAT_TRUSTED_PATHS``, resolved (none inside ``trusting(paths=False)``)."""
    if not _trust_paths.get():
        return ()
    return tuple(Path(p).expanduser().resolve() for p in os.environ.get(TRUST_ENV, "").split(os.pathsep) if p)


def trust_key() -> tuple[object, ...]:
    """What decides trust now: part of the cache key of compiled rulesets."""
    return (_trust_all.get(), trusted_paths())


def check_code_allowed(ref: str, ruleset_file: Path | None) -> None:
    """Refuse to load plugin ``ref`` (local code) unless the user trusts it."""
    if _trust_all.get():
        return
    if ruleset_file is not None:
        where = ruleset_file.resolve()
        if any(where.is_relative_to(d) for d in trusted_paths()):
            return
    raise InputError(f"plugin {shorten(ref)!r} is code outside the shipped and installed plugins: "
                     f"run with --trust, or add the ruleset's directory to {TRUST_ENV}")


def inside(ref: str, base_dir: Path) -> Path:
    """``ref`` (a path a file names) resolved inside ``base_dir``'s tree."""
    root = base_dir.resolve()
    try:
        path = (root / ref).resolve()
    except (OSError, ValueError) as exc:
        raise InputError(f"unusable path {shorten(ref)!r} ({exc.__class__.__name__})") from None
    if not path.is_relative_to(root):
        raise InputError(f"path {shorten(ref)!r} leads outside the directory of the file naming it "
                         "(expected a path inside that directory)")
    return path
