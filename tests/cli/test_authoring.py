"""Plugin authoring: `skat plugins`, `skat plugin new` (installed and tested
in a temp dir), `skat hooks` and docs/hooks.md, the testing kit
(skatcore.testing), conflicts between plugins, broken plugins, and the deck
and soloist hooks the example plugins needed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

from skatcore import hookspecs
from skatcore.cli.authoring import hooks_markdown, hookspec_functions
from skatcore.cli.main import main
from skatcore.engine.deal import Deal, deal_cards
from skatcore.errors import InputError
from skatcore.rules.compiler import compile_rules, get_rules
from skatcore.rules.ruleset import load_ruleset
from skatcore.testing import VectorFailure, check_vectors, compile_with, play_random, score


@pytest.fixture(autouse=True)
def trust_tmp_path(tmp_path, monkeypatch):
    """The house rules these tests write into tmp_path are trusted code (SKAT_TRUSTED_PATHS)."""
    monkeypatch.setenv("SKAT_TRUSTED_PATHS", str(tmp_path))


ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

HOUSE = textwrap.dedent('''
    from skatcore.engine.deal import Declare
    from skatcore.engine.steps import Step
    from skatcore.hookspecs import hookimpl
    from skatcore.model import CardOrder, Deck


    class Grand20:
        @hookimpl
        def skat_base_value(self, contract, hand, announced):
            return 20 if contract.family == "grand" else None


    class Grand16:
        @hookimpl
        def skat_base_value(self, contract, hand, announced):
            return 16 if contract.family == "grand" else None


    class AlsoGrand20:
        @hookimpl
        def skat_base_value(self, contract, hand, announced):
            return 20 if contract.family == "grand" else None


    class MinBid20:
        params_schema = {"type": "object", "properties": {"bid": {"type": "integer", "default": 20}}}

        def __init__(self, bid=20):
            self.bid = bid

        @hookimpl
        def skat_min_bid(self):
            return self.bid


    class BoomPerDeal:
        @hookimpl
        def skat_sheet_entries(self, result, facts, entries):
            raise RuntimeError("sheet on fire")


    class Sixes:
        """A 36-card deck, but no card order that ranks the sixes."""
        @hookimpl
        def skat_deck(self):
            return Deck(ranks="AKQJT9876", hand=11, skat=3, packets=(3, "skat", 4, 4))


    class BadDeck:
        @hookimpl
        def skat_deck(self):
            return Deck(ranks="AKQJT9876", hand=10, skat=2)


    class FirstFive(Step):
        """Instead of bidding forehand declares a hand game, having seen 5 cards."""

        name, at = "first-five", "start"

        def enter(self, deal):
            deal.declarer = deal.to_move = 0
            later = deal.state[self.name] = deal.hands[0] & ~sum(1 << c for c in deal.dealt[0][:5])
            deal.hands[0] ^= later

        def legal(self, deal):
            return [Declare(d) for d in deal.rules.options["hand"]]

        def apply(self, deal, action):
            deal.hands[0] |= deal.state[self.name]
            deal.declare(0, action.declaration)


    class Soloist5:
        @hookimpl
        def skat_register_steps(self):
            return [FirstFive()]
''')

GRAND = {"declarer": "forehand", "bid": 18, "game": {"type": "grand"},
         "outcome": {"declarer_points": 70, "matadors": {"with": 1}}}


def write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


def ruleset(tmp_path, *plugins, extends="official", name="t") -> str:
    write(tmp_path / "house.py", HOUSE)
    lines = "".join(f"  ./house.py:{p}: {{}}\n" for p in plugins)
    return write(tmp_path / f"{name}.yaml", f"name: {name}\nextends: {extends}\nplugins:\n{lines}")


def one_line_error(capsys, *argv) -> str:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert rc == 2, (rc, out, err)
    assert err.count("\n") == 1 and err.startswith("skat: error: "), err
    return err.rstrip("\n")


# ---------------------------------------------------------------------------
# Conflicts: a first-result question with two different answers
# ---------------------------------------------------------------------------


def test_two_house_rules_answering_the_same_question_differently(tmp_path, capsys):
    rs = ruleset(tmp_path, "Grand20", "Grand16")
    line = one_line_error(capsys, "validate", rs)
    assert f"{rs}: " in line
    assert "plugins './house.py:Grand20' and './house.py:Grand16' both answer skat_base_value(contract=grand" in line
    assert ": 20 and 16 " in line


def test_equal_answers_are_no_conflict(tmp_path):
    rules = compile_rules(load_ruleset(ruleset(tmp_path, "Grand20", "AlsoGrand20")))
    assert rules.base[("grand", False, frozenset())] == 20


def test_a_house_rule_overrides_the_base_plugin_official(tmp_path):
    # official answers skat_min_bid (18) too, but it is `base = True`
    rules = compile_rules(load_ruleset(ruleset(tmp_path, "MinBid20")))
    assert rules.min_bid == 20


def test_a_child_ruleset_overrides_its_parent_without_conflict(tmp_path):
    parent = ruleset(tmp_path, "Grand20", name="parent")
    write(tmp_path / "child.yaml", "name: child\nextends: parent.yaml\nplugins:\n  ./house.py:Grand16: {}\n")
    rules = compile_rules(load_ruleset(tmp_path / "child.yaml"))
    assert rules.base[("grand", False, frozenset())] == 16
    assert [p.layer for p in rules.plugins] == [0, 1, 2]
    assert compile_rules(load_ruleset(parent)).base[("grand", False, frozenset())] == 20


def test_every_shipped_ruleset_is_free_of_conflicts():
    from skatcore.rules.ruleset import shipped_rulesets

    for name in shipped_rulesets():
        compile_rules(load_ruleset(name))  # raises on a conflict


def test_testing_kit_plugins_override_the_ruleset(tmp_path):
    write(tmp_path / "house.py", HOUSE)
    rs = ruleset(tmp_path, "Grand20")
    rules = compile_with(rs, plugins={"g16": f"{tmp_path / 'house.py'}:Grand16"})
    assert rules.base[("grand", False, frozenset())] == 16


# ---------------------------------------------------------------------------
# Broken plugins are reported with the plugin's name and the ruleset file
# ---------------------------------------------------------------------------


def test_plugin_raising_in_a_per_deal_hook(tmp_path, capsys):
    rs = ruleset(tmp_path, "BoomPerDeal")
    rec = write(tmp_path / "grand.yaml", json.dumps({"format": "skat-deal/1", **GRAND}))
    line = one_line_error(capsys, "score", "--ruleset", rs, rec)
    assert f"{rs}: " in line
    assert "plugin './house.py:BoomPerDeal' failed in skat_sheet_entries: RuntimeError: sheet on fire" in line


def test_plugin_raising_while_compiling_names_plugin_and_file(tmp_path):
    write(tmp_path / "boom.py", "from skatcore.hookspecs import hookimpl\n\nclass Boom:\n"
                                "    @hookimpl\n    def skat_deck(self):\n        raise KeyError('deck')\n")
    rs = write(tmp_path / "b.yaml", "name: b\nextends: official\nplugins:\n  ./boom.py:Boom: {}\n")
    with pytest.raises(InputError) as exc:
        compile_rules(load_ruleset(rs))
    assert str(exc.value).startswith(f"{rs}: plugin './boom.py:Boom' failed in skat_deck: KeyError")


def test_hookimpl_with_an_argument_the_spec_lacks_is_rejected_at_load(tmp_path):
    write(tmp_path / "bad.py", "from skatcore.hookspecs import hookimpl\n\nclass Bad:\n"
                               "    @hookimpl\n    def skat_series(self, players, colour):\n        return None\n")
    rs = write(tmp_path / "b.yaml", "name: b\nextends: official\nplugins:\n  ./bad.py:Bad: {}\n")
    with pytest.raises(InputError) as exc:
        compile_rules(load_ruleset(rs))
    text = str(exc.value)
    assert text.startswith(f'{rs}: plugins["./bad.py:Bad"]: plugin \'./bad.py:Bad\' is invalid')
    assert "colour" in text and "skat_series" in text


# ---------------------------------------------------------------------------
# Deck and soloist hooks
# ---------------------------------------------------------------------------


def test_a_deck_whose_ranks_no_card_order_knows(tmp_path, capsys):
    rs = ruleset(tmp_path, "Sixes")
    line = one_line_error(capsys, "validate", rs)
    assert "contract 'clubs': the card order ranks no 6" in line and "skat_card_order" in line


def test_a_deck_that_cannot_be_dealt(tmp_path, capsys):
    line = one_line_error(capsys, "validate", ruleset(tmp_path, "BadDeck"))
    assert "skat_deck: 36 cards do not make 3 hands of 10 and a skat of 2" in line


def test_the_standard_deck_is_unchanged():
    rules = get_rules("official")
    assert len(rules.deck.cards) == 32 and rules.deck.hand == 10
    hands, skat = deal_cards(7)
    assert (hands, skat) == deal_cards(7, rules.deck)  # the same seeded deals as before the deck hook


def test_a_six_is_not_in_the_official_deck(capsys, tmp_path):
    doc = {"format": "skat-deal/1", "declarer": "forehand", "bid": 18,
           "hands": {"forehand": ["CJ", "DJ", "HA", "HT", "HK", "H8", "H7", "D9", "D8", "D6"],
                     "middlehand": ["C9", "H9", "C8", "CA", "S8", "HQ", "CT", "CK", "DA", "ST"],
                     "rearhand": ["S9", "SK", "SJ", "S7", "CQ", "C7", "DQ", "DT", "DK", "HJ"]},
           "skat": ["SA", "SQ"], "game": {"type": "hearts", "discard": ["SA", "SQ"]}, "outcome": {"declarer_points": 70}}
    rec = write(tmp_path / "six.yaml", json.dumps(doc))
    line = one_line_error(capsys, "score", rec)
    assert "hands.forehand[9]: D6 is not in the deck of this ruleset (32 cards" in line


def test_soloist_and_skip_bidding_exclude_each_other(tmp_path, capsys):
    write(tmp_path / "house.py", HOUSE)
    rs = write(tmp_path / "s.yaml", "name: s\nextends: official\nplugins:\n  ramsch: {every_deal: true}\n"
                                    "  ./house.py:Soloist5: {}\n")
    line = one_line_error(capsys, "validate", rs)
    assert "skat_skip_bidding, skat_register_steps" in line


def test_a_soloist_declares_after_seeing_some_cards(tmp_path):
    rules = compile_rules(load_ruleset(ruleset(tmp_path, "Soloist5")))
    deal = Deal(rules, *deal_cards(1))
    assert deal.declarer == 0 and len(deal.hand_of(0)) == 5
    assert {a.declaration.game for a in deal.legal_actions()} == {"clubs", "spades", "hearts", "diamonds", "grand", "null"}
    for d in play_random(rules, seed=2, deals=30):
        assert d.done and d.bid == 0


# ---------------------------------------------------------------------------
# The testing kit
# ---------------------------------------------------------------------------


def test_score_takes_yaml_text_a_mapping_or_a_file(tmp_path):
    text = "declarer: forehand\nbid: 18\ngame: {type: grand}\noutcome: {declarer_points: 70, matadors: {with: 1}}\n"
    assert score(text).value == 48
    assert score(GRAND, "official").value == 48
    f = write(tmp_path / "g.yaml", "format: skat-deal/1\n" + text)
    assert score(f).value == 48


def test_check_vectors_reports_the_breakdown(tmp_path):
    f = write(tmp_path / "official.yaml", textwrap.dedent('''
        - name: "a wrong expectation"
          declarer: forehand
          bid: 18
          game: {type: spades, hand: true}
          outcome: {declarer_points: 95, matadors: {with: 2}}
          expect: {value: 99}
    '''))
    with pytest.raises(VectorFailure) as exc:
        check_vectors(f)
    text = str(exc.value)
    assert "1 of 1 vectors failed under ruleset 'official'" in text
    assert "value: expected 99, got 55" in text and "breakdown: with 2, game 3, hand 4, schneider 5" in text


def test_the_fixtures_are_registered_as_a_pytest_plugin(request):
    for name in ("skat_rules", "skat_score", "skat_vectors", "skat_play"):
        assert request.getfixturevalue(name) is not None
    assert request.config.pluginmanager.has_plugin("skatcore")


# ---------------------------------------------------------------------------
# skat plugins, skat hooks, docs/hooks.md
# ---------------------------------------------------------------------------


def test_skat_plugins_lists_builtins_with_params_and_hooks(capsys):
    assert main(["plugins", "--json"]) == 0
    infos = {i["name"]: i for i in json.loads(capsys.readouterr().out)}
    official = infos["official"]
    assert official["origin"] == "built-in"
    assert "grand_base" in official["params"]["properties"]
    hooks = {h["name"]: h for h in official["hooks"]}
    assert hooks["skat_card_order"]["kind"] == "first result" and not hooks["skat_card_order"]["wrapper"]
    assert hooks["skat_register_contracts"]["kind"] == "collected"
    assert {"ramsch", "schieberamsch", "tournee"} <= set(infos)


def test_skat_plugins_shows_a_rulesets_local_file(tmp_path, capsys):
    rs = ruleset(tmp_path, "MinBid20")
    assert main(["plugins", "./house.py:MinBid20", "--ruleset", rs]) == 0
    out = capsys.readouterr().out
    assert out.startswith("./house.py:MinBid20  [file ")
    assert "bid: an integer, default 20" in out and "hooks: skat_min_bid" in out


def test_skat_plugins_unknown_name(capsys):
    line = one_line_error(capsys, "plugins", "nosuch")
    assert "unknown plugin 'nosuch'" in line and "official" in line


def test_skat_hooks_lists_every_hookspec(capsys):
    assert main(["hooks"]) == 0
    out = capsys.readouterr().out
    specs = [n for n in dir(hookspecs) if n.startswith("skat_") and hasattr(getattr(hookspecs, n), "skat_spec")]
    assert specs and all(n in out for n in specs)


def test_every_hookspec_is_documented_in_docs_hooks_md():
    text = (DOCS / "hooks.md").read_text(encoding="utf-8")
    specs = [n for n in dir(hookspecs) if n.startswith("skat_") and hasattr(getattr(hookspecs, n), "skat_spec")]
    missing = [n for n in specs if f"### `{n}`" not in text]
    assert not missing, f"undocumented in docs/hooks.md: {missing} (run: skat hooks --markdown > docs/hooks.md)"


def test_docs_hooks_md_is_up_to_date():
    text = (DOCS / "hooks.md").read_text(encoding="utf-8")
    assert text == hooks_markdown(), "docs/hooks.md is out of date: run `skat hooks --markdown > docs/hooks.md`"


def test_every_hookspec_has_a_docstring_with_an_example():
    for _, fn, _ in hookspec_functions():
        assert fn.__doc__ and "**Example" in fn.__doc__, fn.__name__


def test_docs_exist_and_link_up():
    for name in ("writing-plugins.md", "hooks.md", "rulesets.md"):
        assert (DOCS / name).is_file(), name
    guide = (DOCS / "writing-plugins.md").read_text(encoding="utf-8")
    for needle in ("skat plugin new", "skat_base_value", "wrapper=True", "skat_register_declarations", "hooks.md"):
        assert needle in guide, needle


# ---------------------------------------------------------------------------
# skat plugin new
# ---------------------------------------------------------------------------


def test_scaffold_refuses_a_bad_name_or_a_used_folder(tmp_path, capsys):
    assert "expected lower-case letters" in one_line_error(capsys, "plugin", "new", "Grand 20", "--dir", str(tmp_path / "x"))
    write(tmp_path / "used" / "file.txt", "x")
    assert "is not an empty folder" in one_line_error(capsys, "plugin", "new", "g20", "--dir", str(tmp_path / "used"))
    assert "expected an action: new" in one_line_error(capsys, "plugin")


def test_scaffold_writes_the_whole_package_or_nothing(tmp_path, capsys, monkeypatch):
    """A name too long for the file system once wrote pyproject.toml and the
    README, then stopped at src/: half a package under the chosen folder."""
    long = "x" * 300
    assert "at most 40 characters" in one_line_error(capsys, "plugin", "new", long, "--dir", str(tmp_path / "p"))
    assert list(tmp_path.iterdir()) == []
    real, calls = Path.write_text, []

    def fails_third(self, *args, **kwargs):  # a full disk at the third file
        calls.append(self)
        if len(calls) == 3:
            raise OSError(28, "No space left on device", str(self))
        return real(self, *args, **kwargs)
    monkeypatch.setattr(Path, "write_text", fails_third)
    assert "No space left on device" in one_line_error(capsys, "plugin", "new", "g20", "--dir", str(tmp_path / "a" / "b"))
    assert list(tmp_path.iterdir()) == []  # nor the folders --dir named
    (tmp_path / "empty").mkdir()
    monkeypatch.setattr(Path, "write_text", real)
    assert main(["plugin", "new", "g20", "--dir", str(tmp_path / "empty")]) == 0  # an empty folder is filled
    capsys.readouterr()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]
    assert (tmp_path / "empty" / "src" / "skat_g20" / "__init__.py").is_file()


def test_scaffold_installs_and_its_tests_pass(tmp_path):
    """`skat plugin new`, then `pip install -e D && pytest D` straight away
    (installed into this environment under a unique name, uninstalled after)."""
    name = f"house-{uuid.uuid4().hex[:8]}"
    target = tmp_path / "plugin"
    rc = main(["plugin", "new", name, "--dir", str(target)])
    assert rc == 0
    dist = f"skat-{name}"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    try:
        proc = subprocess.run([*pip, "install", "--quiet", "--no-deps", "--no-build-isolation", "-e", str(target)],
                              capture_output=True, text=True, env=env)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(target)],
                              capture_output=True, text=True, cwd=target, env=env)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
        assert "6 passed" in proc.stdout  # three vectors, one test each, and three tests
        snake = name.replace("-", "_")
        proc = subprocess.run([sys.executable, "-c", "import sys; from skatcore.cli.main import main; sys.exit(main())", "rules", snake],
                              capture_output=True, text=True, env=env)
        assert proc.returncode == 0, proc.stderr
        assert f"entry point skat_{snake}:" in proc.stdout and re.search(r"grand +matadors up to 4 +skat 20 ", proc.stdout)
    finally:
        subprocess.run([*pip, "uninstall", "--quiet", "--yes", dist], capture_output=True, text=True, env=env)


@pytest.mark.parametrize("kind", ["value", "card-points", "win-condition"])
def test_each_kind_of_scaffold_passes_its_own_vectors_and_tests(kind, tmp_path, monkeypatch):
    """`skat plugin new --kind K` without installing it: the plugin class
    under its ruleset's parameters passes the package's vectors (real deals
    counted by hand) and its parameter test (the install is tested above)."""
    import importlib

    from skatcore.rules.reading import read_yaml

    name = f"my-{kind}"
    assert main(["plugin", "new", name, "--dir", str(tmp_path / "p"), "--kind", kind]) == 0
    snake = name.replace("-", "_")
    monkeypatch.syspath_prepend(str(tmp_path / "p" / "src"))
    monkeypatch.syspath_prepend(str(tmp_path / "p" / "tests"))
    module = importlib.import_module(f"skat_{snake}")
    cls = next(v for k, v in vars(module).items() if isinstance(v, type) and k.lower() == snake.replace("_", ""))
    params = read_yaml(tmp_path / "p" / "src" / f"skat_{snake}" / f"{snake}.yaml")["plugins"][snake]
    rules = compile_with("official", {snake: (cls, params)})
    outcomes = check_vectors(tmp_path / "p" / "tests" / "vectors" / f"{snake}.yaml", rules)
    assert len(outcomes) == 3
    tests = importlib.import_module(f"test_{snake}")
    tests.test_parameter(compile_with, score)


def test_scaffold_refuses_an_unknown_kind(capsys):
    assert "invalid choice: 'trick'" in one_line_error(capsys, "plugin", "new", "g20", "--kind", "trick")


# ---------------------------------------------------------------------------
# docs/writing-plugins.md works as written
# ---------------------------------------------------------------------------


def _guide_files() -> dict[str, str]:
    """The code blocks of the guide marked ``<!-- file: NAME -->``."""
    import re

    text = (DOCS / "writing-plugins.md").read_text(encoding="utf-8")
    return {m.group(1): m.group(2) for m in re.finditer(r"<!-- file: (\S+) -->\n```\w*\n(.*?)```", text, re.S)}


def test_the_guides_house_rules_work_as_written(tmp_path, capsys):
    files = _guide_files()
    assert set(files) == {"house.py", "house.yaml", "house-vectors.yaml", "test_house.py", "late-kontra.yaml",
                          "cardhouse.py", "black-jacks.yaml", "last-trick.yaml", "black-jacks-vectors.yaml",
                          "last-trick-vectors.yaml"}
    for name, text in files.items():
        write(tmp_path / name, text)
    assert main(["validate", str(tmp_path / "house.yaml")]) == 0
    assert "valid ruleset 'house' (4 plugins, 6 contracts)" in capsys.readouterr().out
    assert main(["validate", str(tmp_path / "late-kontra.yaml")]) == 0  # section 10: Kontra until the second trick
    check_vectors(tmp_path / "house-vectors.yaml", tmp_path / "house.yaml")
    for rule in ("black-jacks", "last-trick"):  # section 11: a card-point rule and a win condition
        assert len(check_vectors(tmp_path / f"{rule}-vectors.yaml", tmp_path / f"{rule}.yaml")) == 3
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_house.py"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "7 passed" in proc.stdout  # four vectors, one test each, and three tests
