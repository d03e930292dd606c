"""Whether a trick-winner hook answers from its arguments alone: the proof
behind :mod:`skatcore.engine.trick_table`.

A table asks the hook once per key when the ruleset is compiled; a hook
whose answer also depends on something that changes later (a global a
per-deal hook rewrites, the clock, a random draw, a counter on the plugin)
would answer the deals differently from the table.  Three checks, each of
which refuses the table (the ruleset then plays through ``Deal``):

* asked again: a sample of the keys (every one whose answer differs from
  the card order, up to a few hundred per contract and variant, and some
  others) is asked a second time, shuffled, and must answer as the table;
* what it calls: during that second asking a profiler sees every function
  the hook runs; a function of a module that reads the world (``random``,
  ``time``, ``os`` ...), or a method of such a module's objects (a
  ``random.Random``), or a builtin such as ``id``, ``hash`` or ``open``,
  refuses it;
* what its code reads: the code of every plugin function it ran (all its
  branches, not only those taken) may load a global only where that is a
  module, class, function or constant no plugin code rebinds; it may set no
  attribute and no global, nor read an attribute that a method of the
  plugin's class other than ``__init__`` sets.

skatcore's own code and pluggy's are trusted (the cards, the model); the
standard library's is judged by its module's name.  A hook that hides its
state past all three (a dictionary it fills on a global object, read back
in a branch the sample never takes) is not caught: docs/hooks.md asks a
trick-winner hook, like every scoring hook, to answer from its arguments.
"""

from __future__ import annotations

import dis
import enum
import inspect
import os
import sys
import sysconfig

import numpy as np
import pluggy

import skatcore
from skatcore.cards import name

#: modules whose functions and objects read the world or keep state
IMPURE = frozenset({"random", "_random", "time", "datetime", "os", "posix", "nt", "sys", "secrets", "uuid",
                    "threading", "socket", "io", "_io", "builtins.open", "numpy.random", "gc", "signal",
                    "tempfile", "shutil", "pathlib", "subprocess", "select"})
IMPURE_BUILTINS = frozenset({"id", "hash", "open", "input", "print", "globals", "locals", "vars", "exec", "eval",
                             "compile", "__import__", "breakpoint", "setattr", "delattr"})
_TRUSTED = tuple(os.path.normcase(os.path.dirname(m.__file__)) + os.sep for m in (skatcore, pluggy) if m.__file__)
_STDLIB = tuple({os.path.normcase(sysconfig.get_paths()[k]) + os.sep for k in ("stdlib", "platstdlib")})
_SITE = tuple({os.path.normcase(sysconfig.get_paths()[k]) + os.sep for k in ("purelib", "platlib")})


def impure(rules, impls, sample: list) -> str | None:
    """Why the hook's table cannot be trusted (``"calls random.random
    (house.py:12)"``), or None; see the module's text.  ``sample``: the keys
    to ask again, each ``(arguments, cards, the card order's winner, the
    table's answer)``."""
    hook = rules.pm.hook.skat_trick_winner

    def ask(key):
        base, cards, w, _ = key
        answer = hook(**base, cards=cards, winner=w)
        return w if answer is None else answer

    def where(key):
        base, cards, _, _ = key
        return f"{' '.join(name(c) for c in cards)} (trick {base['number']} of {base['contract'].name})"

    fns = [getattr(i.function, "__func__", i.function) for i in impls]
    return answers_alone([(k, k[3]) for k in sample], ask, where, fns, [type(i.plugin) for i in impls])


def answers_alone(sample: list, ask, where, fns, classes: list[type]) -> str | None:
    """Why functions ``fns`` (of plugin ``classes``) cannot be trusted to
    answer from their arguments alone, or None: each ``(key, expected)`` of
    ``sample`` asked again (``ask(key)``, in a shuffled order, under the
    profiler) must answer ``expected``; then what their code reads (see the
    module's text).  ``where(key)`` names a key in the reason."""
    rng = np.random.default_rng(20240537)
    seen = _Seen()
    sys.setprofile(seen.event)
    try:
        for k in rng.permutation(len(sample)):
            key, expected = sample[k]
            try:
                answer = ask(key)
            except Exception as exc:
                return f"raises {type(exc).__name__} when asked again"
            if seen.why:
                break
            if answer != expected:
                return f"answers {where(key)} differently when asked again: it reads more than its arguments"
    finally:
        sys.setprofile(None)
    if seen.why:
        return seen.why
    for fn in fns:
        if getattr(fn, "__code__", None) is not None:
            seen.code.setdefault(fn.__code__, fn.__globals__)
    return _reads(seen.code, classes)


class _Seen:
    """What the profiled calls ran: the plugin code (with its globals), and the first call to the world."""

    def __init__(self):
        self.code: dict = {}
        self.why: str | None = None

    def event(self, frame, event, arg):
        if self.why:
            return
        if event == "c_call":
            if _kind(frame.f_code.co_filename) != "trusted":
                self.why = _c_function(arg, frame)
        elif event == "call":
            code = frame.f_code
            kind = _kind(code.co_filename)
            if kind == "plugin":
                self.code.setdefault(code, frame.f_globals)
            elif kind == "stdlib" and _impure_module(frame.f_globals.get("__name__", "")):
                self.why = f"calls {frame.f_globals.get('__name__')}.{code.co_name}{_at(frame.f_back)}"


def _at(frame) -> str:
    return f" ({os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno})" if frame is not None else ""


_KINDS: dict[str, str] = {}


def _kind(filename: str) -> str:
    """``trusted`` (skatcore's, pluggy's), ``stdlib`` or ``plugin`` code."""
    got = _KINDS.get(filename)
    if got is None:
        path = os.path.normcase(os.path.abspath(filename))
        got = _KINDS[filename] = "trusted" if path.startswith(_TRUSTED) else "stdlib" if (
            (path.startswith(_STDLIB) and not path.startswith(_SITE)) or filename.startswith("<frozen")) else "plugin"
    return got


def _impure_module(module: str) -> bool:
    return module in IMPURE or module.split(".")[0] in IMPURE


def _c_function(fn, frame) -> str | None:
    """Why calling the builtin ``fn`` reads the world (None: it does not)."""
    owner = getattr(fn, "__self__", None)
    what = getattr(fn, "__qualname__", getattr(fn, "__name__", "?"))
    if inspect.ismodule(owner):
        module = owner.__name__
        if (module == "builtins" and what in IMPURE_BUILTINS) or (module != "builtins" and _impure_module(module)):
            return f"calls {module}.{what}{_at(frame)}"
        return None
    if owner is not None and _impure_module(type(owner).__module__ or ""):
        return f"calls {type(owner).__module__}.{what}{_at(frame)}"
    return None


def _reads(codes: dict, classes: list[type]) -> str | None:
    """The first read of something that can change in the plugin code ``codes`` (code -> its globals)."""
    stored: dict[str, str] = {}  # attribute -> where a method other than __init__ sets it
    for cls in classes:
        for meth_name, meth in inspect.getmembers(cls, inspect.isfunction):
            if meth_name != "__init__":
                for code in _nested(meth.__code__):
                    for ins in dis.get_instructions(code):
                        if ins.opname == "STORE_ATTR":
                            stored.setdefault(ins.argval, f"{meth_name} ({_line(code, ins)})")
    rebound: dict[tuple[int, str], str] = {}  # (module globals id, name) -> where plugin code rebinds it
    for glob in {id(g): g for g in codes.values()}.values():
        for fn in [v for v in glob.values() if inspect.isfunction(v) or inspect.isclass(v)]:
            for sub in _functions_of(fn):
                for ins in dis.get_instructions(sub):
                    if ins.opname in ("STORE_GLOBAL", "DELETE_GLOBAL"):
                        rebound.setdefault((id(glob), ins.argval), _line(sub, ins))
    for code, glob in codes.items():
        for ins in dis.get_instructions(code):
            op, arg = ins.opname, ins.argval
            if op in ("STORE_GLOBAL", "DELETE_GLOBAL"):
                return f"changes the global {arg} ({_line(code, ins)}): state kept between calls"
            if op in ("STORE_ATTR", "DELETE_ATTR"):
                return f"sets the attribute {arg} ({_line(code, ins)}): state kept between calls"
            if op == "LOAD_ATTR" and arg in stored:
                return f"reads the attribute {arg} ({_line(code, ins)}), which {stored[arg]} changes"
            if op in ("LOAD_GLOBAL", "LOAD_NAME"):
                if (id(glob), arg) in rebound:
                    return f"reads the global {arg} ({_line(code, ins)}), which {rebound[id(glob), arg]} rebinds"
                why = _global(arg, glob)
                if why:
                    return f"{why} ({_line(code, ins)})"
    return None


def _global(gname: str, glob: dict) -> str | None:
    """Why reading the global ``gname`` reads something that can change (None: it cannot)."""
    builtins = glob.get("__builtins__", {})
    builtins = builtins if isinstance(builtins, dict) else vars(builtins)
    if gname not in glob:
        return f"calls {gname}" if gname in IMPURE_BUILTINS and gname in builtins else None
    v = glob[gname]
    if inspect.ismodule(v):
        return f"uses the module {v.__name__}" if _impure_module(v.__name__) else None
    if isinstance(v, type) or inspect.isfunction(v) or _constant(v):
        return None
    if inspect.isbuiltin(v) or inspect.ismethod(v):
        owner = getattr(v, "__self__", None)
        module = owner.__name__ if inspect.ismodule(owner) else type(owner).__module__ if owner is not None else ""
        return f"uses {module}.{v.__name__}" if _impure_module(module or "") else None
    return f"reads the global {gname}, a {type(v).__name__} that can change"


def _constant(v) -> bool:
    if v is None or isinstance(v, (bool, int, float, complex, str, bytes, range, enum.Enum)):
        return True
    return isinstance(v, (tuple, frozenset)) and all(_constant(x) for x in v)


def _functions_of(obj) -> list:
    """The code objects of a function or of a class's functions, nested ones included."""
    fns = [obj] if inspect.isfunction(obj) else [f for _, f in inspect.getmembers(obj, inspect.isfunction)]
    return [c for f in fns for c in _nested(f.__code__)]


def _nested(code) -> list:
    out = [code]
    for const in code.co_consts:
        if inspect.iscode(const):
            out += _nested(const)
    return out


def _line(code, ins) -> str:
    line = ins.positions.lineno if ins.positions and ins.positions.lineno else code.co_firstlineno
    return f"{os.path.basename(code.co_filename)}:{line}"
