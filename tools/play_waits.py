"""How long a person waits for the bots at ``skat play`` (issue 26 item 3).

A scripted player sits at the table (the first option, the first cards to
put away, the first card allowed) for ``--deals`` deals; the table records
each bot decision's wall time (``TerminalGame.waits``).  Prints the expert's
card and other decisions (p50, p90, p99, max) and the time between two of
the player's answers, which is what a person feels.

    python tools/play_waits.py --ruleset official --seed 1 --deals 40 --opponents expert
"""

from __future__ import annotations

import argparse
import io
import re
import time

from skatcore.cli.play import TerminalGame, opponents
from skatcore.rules.compiler import get_rules
from skatcore.sim.solver_speed import quantiles


class Player(io.StringIO):
    """Answers the last question on ``out`` and times the gaps between answers."""

    def __init__(self, out: io.StringIO):
        super().__init__()
        self.out, self.back, self.gaps = out, None, []

    def readline(self, *_):
        now = time.perf_counter()
        if self.back is not None:
            self.gaps.append(now - self.back)
        text = self.out.getvalue().rstrip()
        answer = "1\n"
        if text.endswith("put away:"):
            k = int(re.findall(r"put (\d+) cards away", text)[-1])
            answer = " ".join(map(str, range(1, k + 1))) + "\n"
        self.back = time.perf_counter()
        return answer


def waits(secs: list[float]) -> str:
    """p50 / p90 / p99 / max in ms, by the bench's ranks (``solver_speed.quantiles``)."""
    if not secs:
        return "none"
    q = quantiles(secs)
    return f"n={len(secs)} p50={q['median']:.1f} ms p90={q['p90']:.1f} ms p99={q['p99']:.1f} ms max={q['max']:.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--opponents", default="expert")
    args = ap.parse_args()
    rules = get_rules(args.ruleset)
    out = io.StringIO()
    player = Player(out)
    game = TerminalGame(rules, args.seed, player, out, kinds=opponents(args.opponents, rules))
    start = time.perf_counter()
    game.run(args.deals)
    print(f"{args.ruleset}, seed {args.seed}, {args.deals} deals, opponents {args.opponents}: "
          f"{time.perf_counter() - start:.1f} s")
    for label, pick in (("cards", lambda p: p == "play"), ("other decisions", lambda p: p != "play")):
        secs = [s for kind, phase, s in game.waits if kind.startswith("expert") and pick(phase)]
        print(f"  expert, {label}: {waits(secs)}")
    print(f"  between two of your answers: {waits(player.gaps)}")


if __name__ == "__main__":
    main()
