# One local entry for the checks CI runs (.ci/run runs the tests, which run all of these):
#   make check    ruff, mypy (the configured level and --strict on the plugin API), the docs site, the tests
#   make docs     the docs site into site/ (mkdocs build --strict)
# Uses the tools installed by: python3 -m venv .venv && .venv/bin/pip install -e '.[test]'
BIN ?= .venv/bin

.PHONY: check lint types docs test

check: lint types docs test

lint:
	$(BIN)/ruff check skatcore plugins examples tests tools

types:
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/test_typing.py

docs:
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

test:
	$(BIN)/python -m pytest -p no:cacheprovider --ignore=tests/test_lint.py --ignore=tests/test_typing.py --ignore=tests/test_docs_site.py
