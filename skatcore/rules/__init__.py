"""Rulesets: YAML loading and validation (:mod:`.ruleset`), plugin
resolution, and compilation into :class:`CompiledRules` (:mod:`.compiler`)."""



def __getattr__(name: str):  # the compiler (pluggy, the engine) loads when first used, not with skatcore.rules.trust
    if name in __all__:
        from skatcore.rules import compiler

        value = getattr(compiler, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'skatcore.rules' has no attribute {name!r}")


__all__ = ["CompiledRules", "TrickTable", "compile_rules", "get_rules", "rules_for"]
