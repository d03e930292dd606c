"""How often a bot plays the card another bot (the teacher) plays, on fresh
seeded deals: tuning data that is not the ISS games.

The teacher (by default XSkat's computer player, which the ISS server's
"xskat" account runs) plays deal ``i`` of ``--seed`` at all three seats, as
``skat simulate`` deals it; each deal is then replayed move by move with
the bot under test at every seat, asked for every decision of its seat (so
it keeps the state it keeps in play), the teacher's move applied.  Counted
are the card decisions with more than one legal card, by the kinds of
``tools/iss_agreement.py`` (all, opening lead, defenders' leads after the
first trick, declarer, defenders).  Variants of the expert as in
``tools/iss_logo.py`` (``NAME=value[,NAME=value]``, ``base``); all of them
are replayed on the same decisions.  Choose on one seed, check on another.
``--ties FILE``: for the first player (an expert), each decision whose
level cards hold the teacher's card, described for
``tools/fit_conventions.py``.

    PYTHONPATH=../xskat python tools/bot_agreement.py expert heuristic --deals 200 --seed 9101
    PYTHONPATH=../xskat python tools/bot_agreement.py expert --variants base CONVENTIONS=0 --deals 200 --seed 9101
    PYTHONPATH=../xskat python tools/bot_agreement.py expert --deals 1000 --seed 9201 --ties ties9201.jsonl
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

from skatcore.bots import resolve_player
from skatcore.engine.actions import Play
from skatcore.engine.deal import Deal, Phase
from skatcore.errors import InputError
from skatcore.rules import get_rules
from skatcore.sim.play import play_seeded, seeded_deal

HERE = Path(__file__).resolve().parent


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


iss_agreement = _tool("iss_agreement")
iss_logo = _tool("iss_logo")


def teacher_deals(rules, teacher, seed: int, deals: int):
    """Yield ``(i, hands, skat, history)`` of the teacher's deals (every seat the teacher's)."""
    for i in range(deals):
        hands, skat, _ = seeded_deal(seed, i)
        deal, _ = play_seeded(rules, [teacher] * 3, seed, i)
        yield i, hands, skat, list(deal.history)


def decisions(rules, hands, skat, history, factory, seed: int, detail: list | None = None, ties: list | None = None):
    """Yield ``(kinds, bot's card, teacher's card)`` for each card decision of the replayed ``history``
    with more than one legal card (``detail``: a row per decision, as ``iss_agreement --breakdown``;
    ``ties``: for an expert, each decision whose level cards hold the teacher's, as
    ``{"where": situation, "cards": {card: features}, "teacher": card}``)."""
    deal = Deal(rules, hands, skat)
    bots = [factory(rules=rules, seed=seed * 3 + s) for s in range(3)]
    if ties is not None:
        for b in bots:
            b.record_ties = True
    for seat, action in history:
        if deal.phase is Phase.PLAY and isinstance(action, Play) and seat == deal.to_move:
            legal = deal.legal_actions()
            if len(legal) > 1:
                view = deal.view(seat)
                mine = bots[seat].act(view).card
                if detail is not None:
                    detail.append(iss_agreement.decision_row(view, bots[seat], mine, action.card, len(legal))
                                  | {"account": "teacher"})
                described = getattr(bots[seat], "last_ties", None)
                if ties is not None and described is not None and action.card in described[1]:
                    ties.append({"where": described[0], "cards": described[1], "teacher": action.card})
                yield iss_agreement.decision_kinds(view), mine, action.card
        elif seat == deal.to_move and deal.phase is not Phase.PLAY:
            bots[seat].act(deal.view(seat))  # the bot sees its other decisions too (it may plan its play there)
        deal.apply(action)


def agreement(recorded, factory, name: str, seed: int, rules, detail: list | None = None,
              ties: list | None = None) -> dict:
    hits, total = Counter(), Counter()
    for i, hands, skat, history in recorded:
        iss_agreement.count(decisions(rules, hands, skat, history, factory, seed + i, detail, ties), hits, total)
    return {"player": name, "seed": seed, "deals": len(recorded)} | iss_agreement.shares(hits, total)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("players", nargs="+", help="player names or module:factory")
    ap.add_argument("--teacher", default="xskat_player:factory", help="the player whose cards are matched")
    ap.add_argument("--variants", nargs="*", default=None, help="expert settings NAME=value[,NAME=value] or base")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--breakdown", action="store_true", help="agreement by role, place and how the bot chose")
    ap.add_argument("--ties", default=None, help="write the level cards of the first player's decisions here (JSON lines)")
    args = ap.parse_args(argv)
    try:
        rules = get_rules(args.ruleset)
        runs = []
        for p in args.players:
            base = resolve_player(p)
            for v in args.variants or ["base"]:
                runs.append((p if v == "base" else f"{p}:{v}", iss_logo.patched(base, iss_logo.parse(v))))
        recorded = list(teacher_deals(rules, resolve_player(args.teacher), args.seed, args.deals))
        results = []
        for n, (name, factory) in enumerate(runs):
            rows: list[dict] = []
            ties: list[dict] | None = [] if args.ties and n == 0 else None
            results.append(agreement(recorded, factory, name, args.seed, rules, rows if args.breakdown else None, ties))
            if args.breakdown:
                results[-1]["breakdown"] = iss_agreement.breakdown(rows)
            if ties is not None:
                Path(args.ties).write_text("".join(json.dumps(t) + "\n" for t in ties), encoding="utf-8")
    except (InputError, OSError) as e:
        print(f"bot_agreement: {e}", file=sys.stderr)
        return 2
    iss_agreement.report(results, args.json, width=32)
    return 0


if __name__ == "__main__":
    sys.exit(main())
