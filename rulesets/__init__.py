"""Shipped rulesets (YAML), installed as the package data of ``skatcore_rulesets``."""
