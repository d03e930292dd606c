"""The core's own fallback answers, registered before any ruleset plugin so
that every plugin is asked first (like pytest's default plugins).  They hold
no Skat rule, only "no change" - and the one money settlement every table
knows (docs/rules/official.md#a9: pairwise differences x stake), which a plugin may replace."""

from __future__ import annotations

from skatcore.hookspecs import hookimpl
from skatcore.records.money import pairwise


class CoreDefaults:
    @hookimpl
    def skat_base_value(self, contract, hand, announced):
        return contract.base

    @hookimpl
    def skat_sheet_entries(self, result, facts, entries):
        return dict(entries)

    @hookimpl
    def skat_session_settlement(self, state, final):
        # docs/rules/official.md#a9, the settlement every table knows: pairwise differences x stake
        if state.stake is None:
            return None
        return pairwise(dict(final), state.stake)
