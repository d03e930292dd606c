"""Rulesets: YAML loading and validation (:mod:`.ruleset`), plugin
resolution, and compilation into :class:`CompiledRules` (:mod:`.compiler`)."""

from skatcore.rules.compiler import CompiledRules, TrickTable, compile_rules, get_rules, rules_for

__all__ = ["CompiledRules", "TrickTable", "compile_rules", "get_rules", "rules_for"]
