"""skatcore: a small Skat engine whose every rule comes from pluggy plugins.

Typical use::

    from skatcore import get_rules, Deal, deal_cards
    rules = get_rules("official")          # compile a ruleset once
    deal = Deal(rules, *deal_cards(seed=1))
    while not deal.done:
        deal.apply(deal.legal_actions()[0])
    print(deal.result().explanation)
"""

from skatcore.errors import InputError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: `skat --help` stays light
if TYPE_CHECKING:  # what __getattr__ below returns, for type checkers and editors
    from skatcore.engine.deal import Deal, deal_cards
    from skatcore.hookspecs import hookimpl
    from skatcore.rules.compiler import CompiledRules, compile_rules, get_rules

# imported when first used, so that `skat --help` and light tools do not load the engine and pluggy
_LAZY = {"Deal": "skatcore.engine.deal", "deal_cards": "skatcore.engine.deal", "hookimpl": "skatcore.hookspecs",
         "CompiledRules": "skatcore.rules.compiler", "compile_rules": "skatcore.rules.compiler",
         "get_rules": "skatcore.rules.compiler"}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'skatcore' has no attribute {name!r}")

__all__ = ["CompiledRules", "Deal", "InputError", "compile_rules", "deal_cards", "get_rules", "hookimpl"]
__version__ = "0.1.0"
