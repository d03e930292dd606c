"""The core's own fallback answers, registered before any ruleset plugin so
that every plugin is asked first (like pytest's default plugins).  They hold
no Skat rule, only "no change"."""

from __future__ import annotations

from .hookspecs import hookimpl


class CoreDefaults:
    @hookimpl
    def skat_base_value(self, contract, hand, announced):
        return contract.base

    @hookimpl
    def skat_sheet_entries(self, result, facts, entries):
        return dict(entries)
