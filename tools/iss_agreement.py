"""How often a bot plays the card a real ISS player played.

Every record of the given ``.sgf`` files is replayed move by move; one bot
per seat is asked for every decision of its seat (so it keeps the state it
keeps in play) and the player's real move is applied.  Counted are the card
decisions with more than one legal card: all of them, the opening lead (the
first card of the game), and the defenders' leads after the first trick.
Games that cannot be replayed under the ruleset (a player left before the
game was declared, ...) are skipped and counted.

    python tools/iss_agreement.py expert heuristic random --seed 1
    python tools/iss_agreement.py expert --files more.sgf --json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from skatcore.bots import resolve_player
from skatcore.engine.deal import Deal, Phase
from skatcore.errors import InputError
from skatcore.records.iss import _CARD, NotScorable, _Replay, _step, parse_sgf
from skatcore.rules import get_rules

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "iss"
KINDS = ("all", "opening_lead", "defender_leads", "declarer", "defenders")


def decisions(record, rules, factory, seed: int):
    """Yield ``(kinds, bot's card, player's card)`` for each card decision
    of ``record`` with more than one legal card."""
    deal = Deal(rules, record.hands, record.skat)
    state = _Replay(deal)
    bots = [factory(rules=rules, seed=seed * 3 + s) for s in range(3)]
    for move in record.moves:
        seat = deal.to_move
        if move.who is not None and move.who == seat and not deal.done and move.token in _CARD \
                and deal.phase is Phase.PLAY:
            legal = deal.legal_actions()
            if len(legal) > 1:
                view = deal.view(seat)
                chosen = bots[seat].act(view).card
                kinds = ["all", "declarer" if seat == view.declarer else "defenders"]
                if not view.tricks and not view.trick:
                    kinds.append("opening_lead")
                elif view.tricks and not view.trick and seat != view.declarer:
                    kinds.append("defender_leads")
                yield kinds, chosen, _CARD[move.token]
        elif move.who is not None and move.who == seat and not deal.done and deal.phase is not Phase.PLAY:
            bots[seat].act(deal.view(seat))  # the bot sees its other decisions too (it may plan its play there)
        _step(state, move)


def agreement(paths, name: str, seed: int, ruleset: str = "official") -> dict:
    rules = get_rules(ruleset)
    factory = resolve_player(name)
    hits, total, skipped = Counter(), Counter(), 0
    for path in paths:
        for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines()):
            if not line.strip():
                continue
            try:
                record = parse_sgf(line)
                for kinds, mine, theirs in decisions(record, rules, factory, seed + n):
                    for k in kinds:
                        total[k] += 1
                        hits[k] += mine == theirs
            except (InputError, NotScorable):
                skipped += 1
    out = {"player": name, "seed": seed, "skipped_games": skipped}
    for k in KINDS:
        out[k] = {"decisions": total[k], "agree": hits[k],
                  "share": round(hits[k] / total[k], 4) if total[k] else None}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("players", nargs="+", help="player names or module:factory")
    ap.add_argument("--files", nargs="*", default=None, help=f"ISS .sgf files (default: {DATA}/*.sgf)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    paths = args.files if args.files else sorted(DATA.glob("*.sgf"))
    results = [agreement(paths, p, args.seed, args.ruleset) for p in args.players]
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        print()
        return 0
    print(f"{'player':<24}" + "".join(f"{k:>22}" for k in KINDS))
    for r in results:
        cells = "".join(f"{r[k]['share'] or 0:>12.1%} of {r[k]['decisions']:>5}" for k in KINDS)
        print(f"{r['player']:<24}{cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
