"""How often a bot plays the card a real ISS player played.

Every record of the given ``.sgf`` files is replayed move by move; one bot
per seat is asked for every decision of its seat (so it keeps the state it
keeps in play) and the player's real move is applied.  Counted are the card
decisions with more than one legal card: all of them, the opening lead (the
first card of the game), and the defenders' leads after the first trick.
Games that cannot be replayed under the ruleset (a player left before the
game was declared, ...) are skipped and counted.  ``--breakdown`` adds the
agreement by role, place in the trick and player account and, for a player that tells how
it chose (the expert's ``last``), why it differed: the layouts' votes put
the player's card below another, or left it level and a tie-break chose.

    python tools/iss_agreement.py expert heuristic random --seed 1
    python tools/iss_agreement.py expert --files more.sgf --json
    python tools/iss_agreement.py expert --breakdown
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from skatcore.bots import resolve_player
from skatcore.engine.deal import Deal, Phase
from skatcore.errors import InputError, printable
from skatcore.records.iss import ISS_CARDS, IssReplay, NotScorable, parse_sgf, replay_move
from skatcore.rules import get_rules

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "iss"
KINDS = ("all", "opening_lead", "defender_leads", "declarer", "defenders")


def decisions(record, rules, factory, seed: int, detail: list | None = None):
    """Yield ``(kinds, bot's card, player's card)`` for each card decision
    of ``record`` with more than one legal card (and, with ``detail``, add
    a row per decision: role, place in the trick, trick number, how the bot chose)."""
    deal = Deal(rules, record.hands, record.skat)
    state = IssReplay(deal)
    bots = [factory(rules=rules, seed=seed * 3 + s) for s in range(3)]
    for move in record.moves:
        seat = deal.to_move
        if move.who is not None and move.who == seat and not deal.done and move.token in ISS_CARDS \
                and deal.phase is Phase.PLAY:
            legal = deal.legal_actions()
            if len(legal) > 1:
                view = deal.view(seat)
                chosen = bots[seat].act(view).card
                theirs = ISS_CARDS[move.token]
                if detail is not None:
                    detail.append(decision_row(view, bots[seat], chosen, theirs, len(legal)) | {"account": record.players[seat]})
                yield decision_kinds(view), chosen, theirs
        elif move.who is not None and move.who == seat and not deal.done and deal.phase is not Phase.PLAY:
            bots[seat].act(deal.view(seat))  # the bot sees its other decisions too (it may plan its play there)
        replay_move(state, move)


def decision_kinds(view) -> list[str]:
    """The kinds (:data:`KINDS`) a card decision of ``view``'s seat counts in."""
    kinds = ["all", "declarer" if view.seat == view.declarer else "defenders"]
    if not view.tricks and not view.trick:
        kinds.append("opening_lead")
    elif view.tricks and not view.trick and view.seat != view.declarer:
        kinds.append("defender_leads")
    return kinds


def decision_row(view, bot, mine: int, theirs: int, choices: int) -> dict:
    """One decision for ``--breakdown``: role, place in the trick, trick, choices, agreement, and how the bot chose."""
    role = "declarer" if view.seat == view.declarer else "defender"
    row = {"role": role, "place": len(view.trick), "trick": len(view.tricks), "choices": choices,
           "agree": mine == theirs, "how": None, "theirs_level": None, "gap": None}
    last = getattr(bot, "last", None)
    if last is not None:
        row["how"] = last.how
        if last.scores and last.mass > 0:
            best = max(last.scores.values())
            row["theirs_level"] = theirs in last.tied
            row["gap"] = round((best - last.scores.get(theirs, 0.0)) / last.mass, 3)  # the share of layouts it lost by
    return row


def breakdown(rows: list[dict]) -> dict:
    """Agreement by role, place in the trick and account, and the disagreements by
    how the bot chose and whether the votes left the player's card level."""
    out: dict = {}
    for key in ("role", "place", "how", "account"):
        c, h = Counter(), Counter()
        for r in rows:
            c[r[key]] += 1
            h[r[key]] += r["agree"]
        out[key] = {str(k): f"{h[k]}/{c[k]}" for k in sorted(c, key=str)}
    by = Counter()
    for r in rows:
        if r["agree"]:
            continue
        if r["theirs_level"] is None:
            by["no votes"] += 1
        elif r["theirs_level"]:
            by["level, tie-break chose another"] += 1
        else:
            by[f"votes lost by <= {0.1 if r['gap'] <= 0.1 else 0.3 if r['gap'] <= 0.3 else 1.0}"] += 1
    out["disagreements"] = dict(sorted(by.items()))
    return out


def records(paths):
    """Yield ``(path, line index, record)`` for every non-empty line of the
    ``.sgf`` files, the record ``None`` where the line is no ISS record."""
    for path in paths:
        for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines()):
            if not line.strip():
                continue
            try:
                yield path, n, parse_sgf(line)
            except InputError:
                yield path, n, None


def agreement(paths, name: str, seed: int, ruleset: str = "official", detail: list | None = None) -> dict:
    rules = get_rules(ruleset)
    factory = resolve_player(name)
    hits, total, skipped = Counter(), Counter(), 0
    for _, n, record in records(paths):
        if record is None:
            skipped += 1
            continue
        try:
            count(decisions(record, rules, factory, seed + n, detail), hits, total)
        except (InputError, NotScorable):  # a move the rules refuse, a game they cannot score
            skipped += 1
    return {"player": name, "seed": seed, "skipped_games": skipped} | shares(hits, total)


def count(decided, hits: Counter, total: Counter) -> None:
    """Add ``(kinds, bot's card, player's card)`` decisions to the counts by kind."""
    for kinds, mine, theirs in decided:
        for k in kinds:
            total[k] += 1
            hits[k] += mine == theirs


def shares(hits: Counter, total: Counter) -> dict:
    """Each kind's decisions, agreements and share (None: no decision of the kind)."""
    return {k: {"decisions": total[k], "agree": hits[k], "share": round(hits[k] / total[k], 4) if total[k] else None}
            for k in KINDS}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("players", nargs="+", help="player names or module:factory")
    ap.add_argument("--files", nargs="*", default=None, help=f"ISS .sgf files (default: {DATA}/*.sgf)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--breakdown", action="store_true", help="agreement by role, place, how the bot chose and account")
    args = ap.parse_args(argv)
    paths = args.files if args.files else sorted(DATA.glob("*.sgf"))
    results = []
    for p in args.players:
        rows: list[dict] = []
        results.append(agreement(paths, p, args.seed, args.ruleset, rows if args.breakdown else None))
        if args.breakdown:
            results[-1]["breakdown"] = breakdown(rows)
    report(results, args.json)
    return 0


def report(results: list[dict], as_json: bool, width: int = 24) -> None:
    """Print each player's agreement by kind (and its breakdown), or the JSON of them."""
    if as_json:
        json.dump(results, sys.stdout, indent=1)
        print()
        return
    print(f"{'player':<{width}}" + "".join(f"{k:>22}" for k in KINDS))
    for r in results:
        cells = "".join(f"{r[k]['share'] or 0:>12.1%} of {r[k]['decisions']:>5}" for k in KINDS)
        print(f"{printable(r['player']):<{width}}{cells}")
    for r in results:
        for key, parts in r.get("breakdown", {}).items():
            print(f"{printable(r['player'])} by {key}: " + ", ".join(f"{printable(k)} {v}" for k, v in parts.items()))  # accounts: the file's


if __name__ == "__main__":
    sys.exit(main())
