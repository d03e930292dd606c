"""skatcore: a small Skat engine whose every rule comes from pluggy plugins.

Typical use::

    from skatcore import get_rules, Deal, deal_cards
    rules = get_rules("official")          # compile a ruleset once
    deal = Deal(rules, *deal_cards(seed=1))
    while not deal.done:
        deal.apply(deal.legal_actions()[0])
    print(deal.result().explanation)
"""

from skatcore.engine.deal import Deal, deal_cards
from skatcore.errors import InputError
from skatcore.hookspecs import hookimpl
from skatcore.rules.compiler import CompiledRules, compile_rules, get_rules

__all__ = ["Deal", "deal_cards", "InputError", "hookimpl", "CompiledRules", "compile_rules", "get_rules"]
__version__ = "0.1.0"
