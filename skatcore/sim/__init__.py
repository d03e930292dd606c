"""Simulation and comparison of rulesets with bots, reports and benchmarks."""
