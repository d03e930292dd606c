"""The one plugin manager: a subclass of :class:`pluggy.PluginManager` (in the
style of conda's ``plugins/manager.py``) that every user of plugins shares -
rulesets (:func:`skatcore.rules.compiler.compile_rules`), sessions
(:meth:`skatcore.model.SessionState.hook`), players
(:func:`skatcore.bots.registry.player_factories`) and ``skat plugins``.

It resolves a plugin reference (a built-in name, an entry point of group
``skat``, ``module:attr`` or ``file.py:Class``), registers plugins with their
parameters, calls hooks so that a plugin's exception becomes one line naming
that plugin, merges collected hooks (a name given twice names both plugins)
and checks first-result questions for conflicting answers.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import inspect
import json
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import pluggy

from skatcore import hookspecs
from skatcore.errors import InputError, PluginWarning, did_you_mean, json_path, shorten
from skatcore.model import Contract
from skatcore.rules.defaults import CoreDefaults
from skatcore.rules.trust import check_code_allowed, inside

ENTRY_POINT_GROUP = "skat"


@dataclass(frozen=True)
class PluginSpec:
    """A plugin as a ruleset selects it: its key, where it came from, the
    resolved factory and the validated parameters.  ``layer`` is the depth
    in the ``extends`` chain of the ruleset file that listed it first (0: the
    chain's root): a plugin of a deeper layer overrides the answers of the
    layers above it (see :meth:`SkatPluginManager.first`)."""

    key: str
    origin: str
    factory: Any
    params: dict = field(default_factory=dict)
    layer: int = 0


# ---------------------------------------------------------------------------
# Resolving a plugin reference
# ---------------------------------------------------------------------------


def builtin_plugins() -> dict[str, str]:
    """The built-in plugins: name -> ``module:attr``."""
    from skatcore_plugins import BUILTIN

    return dict(BUILTIN)


def entry_point_plugins(group: str = ENTRY_POINT_GROUP) -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=group)}


def import_attr(ref: str, what: str = "plugin") -> Any:
    """The object ``module:attr`` names (``attr`` may be dotted); a module
    alone without ``:attr``.  An import failure is an :class:`InputError`."""
    module_name, _, attr = ref.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in attr.split(".") if attr else ():
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise InputError(f"cannot load {what} {ref!r}: {exc}") from None
    except (TypeError, ValueError):  # a relative or empty name (./house.txt:X, :X): importlib refuses it so
        raise InputError(f"cannot load {what} {ref!r}: {module_name!r} is not a module name "
                         "(expected module:attr or a .py file)") from None
    return obj


def load_file(file: Path, attr: str) -> Any:
    """Attribute ``attr`` of the Python file ``file``, imported under a name
    of its own (two house rules in different folders may share a file name)."""
    if not file.is_file():
        raise InputError(f"plugin file {str(file)!r} not found")
    mod_name = f"skat_local_plugin_{abs(hash(str(file.resolve())))}"
    spec = importlib.util.spec_from_file_location(mod_name, file)
    if spec is None or spec.loader is None:
        raise InputError(f"plugin file {str(file)!r} is not a Python file (expected a .py file)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise InputError(f"plugin file {file}: {type(exc).__name__}: {exc}") from None
    if not hasattr(module, attr):
        raise InputError(f"plugin file {file} has no attribute {attr!r}")
    return getattr(module, attr)


def _warn_no_hooks(key: str, plugin: Any, where: str) -> None:
    """A plugin that answers no hook changes nothing: most likely its methods
    lack ``@hookimpl``."""
    import warnings

    unmarked = sorted(n for n in dir(plugin) if n.startswith("skat_") and callable(getattr(plugin, n)))
    hint = f": {', '.join(unmarked)} not marked @hookimpl" if unmarked else " (mark its methods with @hookimpl)"
    warnings.warn(PluginWarning(f"{where}: plugin {key!r} implements no hook{hint}; it changes nothing"), stacklevel=2)


def stale_entry_point(name: str) -> str:
    """A hint when an editable install declares entry point ``name`` in its
    pyproject.toml but its installed metadata does not yet (the entry point
    was added after ``pip install -e``)."""
    import tomllib

    for dist in metadata.distributions():
        try:
            url = json.loads(dist.read_text("direct_url.json") or "{}")
        except ValueError:
            continue
        if not url.get("dir_info", {}).get("editable") or not url.get("url", "").startswith("file://"):
            continue
        source = Path(url["url"].removeprefix("file://"))
        try:
            project = tomllib.loads((source / "pyproject.toml").read_text("utf-8")).get("project", {})
        except (OSError, tomllib.TOMLDecodeError):
            continue
        if name in project.get("entry-points", {}).get(ENTRY_POINT_GROUP, {}):
            return (f"{source / 'pyproject.toml'} declares it, but the installed metadata of "
                    f"{dist.metadata['Name']} is older: run pip install -e {source} again; ")
    return ""


def resolve_plugin_ref(ref: str, ruleset_file: Path | None = None) -> tuple[Any, str]:
    """Resolve a plugin reference to ``(factory, origin)``.

    Built-in names win, then entry points (group ``skat``), then
    ``module:attr``, then a ``.py`` file path (optionally ``file.py:attr``,
    default attribute ``Plugin``) inside the directory of ``ruleset_file``.
    The last two are code outside skatcore: loaded only when trusted
    (:mod:`skatcore.rules.trust`).
    """
    builtins = builtin_plugins()
    if ref in builtins:
        return import_attr(builtins[ref]), "built-in"
    eps = entry_point_plugins()
    if ref in eps:
        try:
            return eps[ref].load(), f"entry point {eps[ref].value}"
        except Exception as exc:  # a broken third-party package must not crash us
            raise InputError(f"plugin {ref!r}: entry point {eps[ref].value} failed to load: {exc}") from None
    local_file = ref.endswith(".py") or ".py:" in ref
    if not local_file and ":" not in ref:
        known = sorted(set(builtins) | set(eps))
        raise InputError(f"unknown plugin {shorten(ref)!r} ({stale_entry_point(ref)}{did_you_mean(ref, known)}"
                         f"expected one of: {', '.join(known)}; or module:attr or a .py file)")
    if local_file:
        file_part, _, attr = ref.partition(".py")
        file = inside(file_part + ".py", ruleset_file.parent) if ruleset_file is not None else Path(file_part + ".py")
        check_code_allowed(ref, ruleset_file)
        return load_file(file, attr.lstrip(":") or "Plugin"), f"file {file}"
    check_code_allowed(ref, ruleset_file)
    return import_attr(ref), f"module {ref}"


# ---------------------------------------------------------------------------
# The manager
# ---------------------------------------------------------------------------


class SkatPluginManager(pluggy.PluginManager):
    """pluggy's manager with skatcore's hookspecs, plus loading, calling and
    checking as every part of skatcore needs it.

    ``source`` is the file the plugins came from (a ruleset): errors name it.
    ``layers`` maps a plugin's name to its ruleset layer (:class:`PluginSpec`)
    for the conflict check of :meth:`first`.
    """

    def __init__(self, source: str | None = None):
        super().__init__(hookspecs.PROJECT)
        self.add_hookspecs(hookspecs)
        self.source = source
        self.layers: dict[str, int] = {}

    @classmethod
    def for_ruleset(cls, plugins: Iterable[PluginSpec], source: str) -> SkatPluginManager:
        """The manager of one ruleset: the core's defaults, then its plugins
        as parametrised instances, in the ruleset's order."""
        pm = cls(source)
        pm.register(CoreDefaults(), name="core-defaults")
        pm.load_plugins(plugins)
        return pm

    # -- loading --------------------------------------------------------------

    def load_plugins(self, plugins: Iterable[PluginSpec]) -> int:
        """Register each plugin (a class or factory called with its
        parameters; a module as it is) and check that every hook it
        implements exists.  Returns how many were registered."""
        count = 0
        for spec in plugins:
            where = json_path(["plugins", spec.key])
            try:
                plugin = spec.factory if inspect.ismodule(spec.factory) else spec.factory(**spec.params)
            except InputError as exc:
                raise exc.at(where, self.source) from None
            except Exception as exc:
                raise InputError(f"plugin {spec.key!r} failed to start: {type(exc).__name__}: {exc}",
                                 source=self.source, path=where) from None
            try:
                self.register(plugin, name=spec.key)
            except pluggy.PluginValidationError as exc:
                raise InputError(f"plugin {spec.key!r} is invalid: {exc}", source=self.source, path=where) from None
            self.layers[spec.key] = spec.layer
            if not self.get_hookcallers(plugin):
                _warn_no_hooks(spec.key, plugin, f"{self.source}: {where}" if self.source else where)
            count += 1
        self.check_hooks()
        return count

    def load_entrypoints(self, group: str) -> int:
        """Register every plugin of the entry-point ``group``; a broken one is
        an :class:`InputError`."""
        try:
            count = self.load_setuptools_entrypoints(group)
        except Exception as exc:
            raise InputError(f"a {group} entry point failed to load: {type(exc).__name__}: {exc}") from None
        self.check_hooks()
        return count

    def check_hooks(self) -> None:
        """Every implemented hook is a hook of :mod:`skatcore.hookspecs`."""
        try:
            self.check_pending()
        except pluggy.PluginValidationError as exc:  # it carries the plugin, not its name
            name = self.get_name(exc.plugin)
            hook = str(exc).split("'")[1] if str(exc).count("'") >= 2 else str(exc)
            raise InputError(f"plugin {name!r} implements {hook}, which is not a hook of skatcore.hookspecs",
                             source=self.source, path=json_path(["plugins", name]) if name else None) from None

    def hooks_of(self, plugin: Any) -> list[dict]:
        """The hooks a registered ``plugin`` implements: ``name``, ``kind``
        (``first result``, ``collected`` or ``unknown hook``) and ``wrapper``."""
        out = []
        for caller in sorted(self.get_hookcallers(plugin) or (), key=lambda c: c.name):
            impl = next(i for i in caller.get_hookimpls() if i.plugin is plugin)
            kind = "unknown hook" if caller.spec is None else (
                "first result" if caller.spec.opts.get("firstresult") else "collected")
            out.append({"name": caller.name, "kind": kind, "wrapper": bool(impl.wrapper or impl.hookwrapper)})
        return out

    # -- calling --------------------------------------------------------------

    def call(self, hook: str, **kwargs) -> Any:
        """Call ``hook``.  A plugin's :class:`InputError` passes unchanged (the
        caller knows which file it is about); any other exception is a bug of
        the plugin and becomes a one-line error naming it."""
        try:
            return getattr(self.hook, hook)(**kwargs)
        except InputError:
            raise
        except Exception as exc:
            culprit = self.raiser(hook, exc) or self._culprit(hook, kwargs)
            raise InputError(f"plugin {culprit!r} failed in {hook}: {type(exc).__name__}: {exc}",
                             source=self.source) from None

    def raiser(self, hook: str, exc: BaseException) -> str | None:
        """The plugin whose implementation of ``hook`` (plain or wrapper)
        raised ``exc``: the innermost traceback frame that runs one of them."""
        codes = {}
        for impl in self._impls(hook, wrappers=True):
            code = getattr(getattr(impl.function, "__func__", impl.function), "__code__", None)
            if code is not None:
                codes[code] = impl.plugin_name
        found, tb = None, exc.__traceback__
        while tb is not None:
            found = codes.get(tb.tb_frame.f_code, found)
            tb = tb.tb_next
        return found

    def _culprit(self, hook: str, kwargs) -> str:
        """The first plugin that raises when asked alone (a function without
        code of its own, e.g. a builtin, leaves no frame to find)."""
        for impl in self._impls(hook):
            try:
                impl.function(*[kwargs[a] for a in impl.argnames])
            except Exception:
                return impl.plugin_name
        return "?"

    def answerer(self, hook: str, kwargs, answer) -> str:
        """The plugin whose implementation of a first-result ``hook`` gave
        ``answer`` to ``kwargs`` (asked in pluggy's order); a wrapper's
        answer names the wrappers."""
        for impl in reversed(self._impls(hook)):
            try:
                got = impl.function(*[kwargs[a] for a in impl.argnames])
                same = got is answer or bool(type(got) is type(answer) and got == answer)
            except Exception:  # an answer that cannot be compared (an array) was not given twice alike
                break
            if got is not None:
                if same:
                    return impl.plugin_name
                break
        wrappers = [i.plugin_name for i in self._impls(hook, wrappers=True) if i.hookwrapper or i.wrapper]
        return " or ".join(wrappers) or "?"

    def _impls(self, hook: str, wrappers: bool = False) -> list:
        impls = getattr(self.hook, hook).get_hookimpls()
        return impls if wrappers else [i for i in impls if not (i.hookwrapper or i.wrapper)]

    def first(self, hook: str, **kwargs) -> Any:
        """A first-result question: the answer, after checking that no two
        plugins of the same ruleset layer answer it differently.

        A plugin with ``base = True`` (``official``, the core's defaults)
        gives defaults that every other plugin may override; a plugin listed
        in a ruleset that ``extends`` another overrides the parent's plugins.
        Two other answers that differ are a conflict: an error naming both
        plugins, the hook and the question (docs/hooks.md, "Conflicts").
        """
        answer = self.call(hook, **kwargs)
        if answer is not None:
            self._check_conflict(hook, kwargs)
        return answer

    def _check_conflict(self, hook: str, kwargs) -> None:
        impls = self._impls(hook)
        if len(impls) < 2:
            return
        answers = []
        for impl in reversed(impls):  # pluggy's calling order: the winner first
            try:
                a = impl.function(*[kwargs[name] for name in impl.argnames])
            except Exception:  # pluggy never asked it; its failure is not this question's
                continue
            if a is not None:
                answers.append((impl.plugin_name, impl.plugin, a))
        if len(answers) < 2 or _is_base(*answers[0][:2]):
            return
        winner, _, won = answers[0]
        for name, plugin, a in answers[1:]:
            if _is_base(name, plugin) or self.layers.get(name, -1) != self.layers.get(winner, -2):
                continue
            if _norm(a) != _norm(won):
                raise InputError(
                    f"plugins {name!r} and {winner!r} both answer {hook}({_describe_args(kwargs)}): "
                    f"{_show_answer(a)} and {_show_answer(won)} (a rule with one answer: drop one of them, or list the one "
                    f"that should win in a ruleset that extends this one)", source=self.source)

    def collect(self, hook: str, what: str, key=lambda x: x.name, **kwargs) -> dict[str, Any]:
        """Merge a collected hook's answers (mappings, or lists of objects
        named by ``key``) into one mapping; a name given twice is an error
        naming both plugins (``what``: "contract", "player" ...)."""
        merged: dict[str, Any] = {}
        for chunk in self.call(hook, **kwargs):
            items = chunk.items() if isinstance(chunk, Mapping) else ((key(x), x) for x in chunk or ())
            for name, item in items:
                if name in merged:
                    owners = self._owners(hook, name, key)
                    raise InputError(f"{what} {name!r} is defined twice, by plugins {' and '.join(map(repr, owners))} "
                                     f"({hook})", source=self.source)
                merged[name] = item
        return merged

    def owners(self, hook: str, name: str) -> list[str]:
        """The plugins whose answer to collected ``hook`` names ``name``."""
        return self._owners(hook, name, lambda x: x.name)

    def _owners(self, hook: str, name: str, key) -> list[str]:
        owners = []
        for impl in self._impls(hook):
            chunk = impl.function() or ()
            names = chunk.keys() if isinstance(chunk, Mapping) else [key(x) for x in chunk]
            if name in names:
                owners.append(impl.plugin_name)
        return owners


def _is_base(name: str, plugin) -> bool:
    """A plugin that gives default answers, overridden silently by any other."""
    return name == "core-defaults" or getattr(plugin, "base", False) is True


def _norm(answer):
    """An answer in a comparable form: iterables as tuples, functions by identity."""
    if isinstance(answer, (str, bytes, Mapping)) or dataclasses.is_dataclass(answer):
        return answer
    if callable(answer):
        return ("function", id(answer))
    if isinstance(answer, Iterable):
        return tuple(_norm(a) for a in answer)
    return answer


def _show_answer(answer) -> str:
    if callable(answer) and not dataclasses.is_dataclass(answer):
        return f"function {getattr(answer, '__qualname__', answer)!s}"
    if isinstance(answer, (str, bytes, Mapping)) or dataclasses.is_dataclass(answer):
        text = repr(answer)
    elif isinstance(answer, Iterable):
        text = repr(list(answer))
    else:
        text = repr(answer)
    return text if len(text) <= 60 else text[:57] + "..."


def _describe_args(kwargs) -> str:
    def show(v):
        if isinstance(v, Contract):
            return v.name
        if isinstance(v, (set, frozenset)):
            return "{" + ", ".join(sorted(map(str, v))) + "}"
        return json.dumps(v) if isinstance(v, (bool, int, str, type(None))) else type(v).__name__
    return ", ".join(f"{k}={show(v)}" for k, v in kwargs.items())
