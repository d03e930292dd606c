"""Seeded random sessions for a score sheet, entered twice: with ``skat
sheet add/edit/void/undo`` (the CLI's flags, in process) and by tapping
through the sheet pages in a browser.  A deal is drawn from what the
ruleset allows at that point of the session (a Ramsch round, who sits
out), not from the form: suit, grand and null with every announcement and
matador count, hand, ouvert, overbids at any rung, Kontra and Re, all
pass, Ramsch with pushes (seen, blind, declined), Jungfrau and
Durchmarsch, a grand hand instead of pushing.  A deal the CLI refuses
must be refused by the page too (and nothing saved)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from skatcore.engine.table import people, seating
from skatcore.records import sheet_live as live
from skatcore.web import entry as form_entry


@dataclass
class Deal:
    """One deal as a scorer has it from the table."""

    game: str  # a contract, "ramsch", "instead" (a grand hand instead of pushing) or "passed"
    declarer: str | None = None
    bid: int | None = None
    hand: bool = False
    schneider: bool = False
    schwarz: bool = False
    ouvert: bool = False
    points: int | None = None
    tricks: int | None = None  # declarer's tricks when they matter (null; schwarz)
    matadors: str | None = None  # with2, without3
    calls: list[str] = field(default_factory=list)
    decl: list[str] = field(default_factory=list)  # key=value
    ramsch: list[int] = field(default_factory=list)  # per seat of the deal, forehand first
    ramsch_tricks: list[int] = field(default_factory=list)
    last_trick: str | None = None
    pushes: list[str] = field(default_factory=list)

    @property
    def kind(self) -> str:
        """suit, grand, null, ramsch, instead or passed."""
        return self.game if self.game in ("grand", "null", "ramsch", "instead", "passed") else "suit"

    def plain(self) -> bool:
        """Nothing but declarer, game, matadors (up to 4) and card points: a plain game, or a Ramsch without pushes."""
        extra = self.hand or self.ouvert or self.schneider or self.calls or self.decl or self.pushes
        beyond = self.kind in ("suit", "grand") and (self.tricks is not None or
                                                     int("".join(filter(str.isdigit, str(self.matadors)))) > 4)
        return not (extra or beyond or self.bid not in (None, 18))

    def cli(self) -> list[str]:
        """The deal as ``skat sheet add`` options."""
        if self.game == "passed":
            return ["--passed"]
        args: list[str] = []
        if self.game == "ramsch":
            args += ["--ramsch", ",".join(map(str, self.ramsch)), "--ramsch-tricks", ",".join(map(str, self.ramsch_tricks)),
                     "--last-trick", str(self.last_trick)]
        else:
            args += ["--declarer", str(self.declarer), "--game", "grand" if self.game == "instead" else self.game]
            if self.game == "instead":
                args.append("--instead")
            elif self.bid is not None:
                args += ["--bid", str(self.bid)]
            for flag in ("hand", "schneider", "schwarz", "ouvert"):
                if getattr(self, flag) and not (flag == "hand" and self.game == "instead"):
                    args.append(f"--{flag}")
            if self.points is not None:
                args += ["--points", str(self.points)]
            if self.tricks is not None:
                args += ["--tricks", str(self.tricks)]
            if self.matadors:
                args += ["--matadors", self.matadors]
            for c in self.calls:
                args += ["--call", c]
            for d in self.decl:
                args += ["--decl", d]
        if self.pushes:
            args += ["--pushes", ",".join(self.pushes)]
        return args


@dataclass
class Step:
    """What the scorer does next: enter a deal, correct or void deal ``n``, or take back the last one."""

    action: str  # add, edit, void, undo
    deal: Deal | None = None
    n: int | None = None


def outlook(path) -> tuple:
    """(offer, seat -> player) of the next deal of the sheet at ``path``."""
    snap = live.snapshot(path)
    st = snap.session.state
    seats = {seat: st.players[i] for seat, i in seating(len(st.players), st.dealer, people(st.rules)).items()}
    return form_entry.offer(st.rules, bidding=snap.result.outlook.bidding), seats, snap


def deal_seats(snap, n: int) -> dict[str, str]:
    st = snap.result.state
    line = next(x for x in st.sheet_lines if x.index == n)
    return {seat: st.players[i] for seat, i in line.seating.items()}


def draw_step(rng: random.Random, path) -> Step:
    """The next step of a session on the CLI's sheet at ``path``."""
    offer, seats, snap = outlook(path)
    n = len(snap.deals)
    roll = rng.random()
    if n >= 2 and roll < 0.08:
        k = rng.randint(1, n)
        record = snap.deals[k - 1][1]
        kind = form_entry.values_of_record(record, None)["game"]  # a correction keeps the kind of deal: what the form offers
        return Step("edit", draw_deal(rng, form_entry.offer(snap.session.state.rules, bidding=True), deal_seats(snap, k),
                                      same=kind), n=k)
    if n >= 2 and roll < 0.12:
        return Step("void", n=rng.randint(1, n))
    if n >= 1 and roll < 0.15:
        return Step("undo", n=n)
    return Step("add", draw_deal(rng, offer, seats))


def draw_deal(rng: random.Random, offer: form_entry.Offer, seats: dict[str, str], same: str | None = None) -> Deal:
    """A deal of the kinds ``offer`` has; ``same``: a correction of a deal of that kind (Ramsch, instead, passed, a game)."""
    kinds = [] if offer.ramsch_only else list(offer.games)
    if same is None:
        weights = [3.0] * len(kinds)
        if offer.ramsch:
            kinds.append("ramsch")
            weights.append(12.0 if offer.ramsch_only else 1.5)
        if offer.instead and offer.ramsch:
            kinds.append("instead")
            weights.append(0.6)
        if offer.thrown_in:
            kinds.append("passed")
            weights.append(0.6)
        kind = rng.choices(kinds, weights)[0]
    elif same in ("ramsch", "instead", "passed"):
        kind = same
    else:
        kind = rng.choice(offer.games)
    if kind == "ramsch":
        return _ramsch(rng, offer, seats)
    if kind == "passed":
        return Deal("passed")
    order = list(seats)
    deal = Deal(kind, declarer=seats[rng.choice(order)])
    if kind == "instead":
        before = order[:order.index(next(s for s in order if seats[s] == deal.declarer))]
        deal.pushes = [rng.choice([p for p in offer.pushes if p != "pass"] or ["seen"]) for _ in before]
        deal.hand = True
    else:
        deal.hand = rng.random() < 0.3
        if offer.ladder:
            deal.bid = offer.ladder[min(int(rng.expovariate(0.35)), len(offer.ladder) - 1)]
    game = "null" if kind == "null" else "grand" if kind in ("grand", "instead") else "suit"
    level = rng.random()
    deal.ouvert = level < 0.08
    if game != "null":
        deal.schneider = deal.hand and level < 0.2
        deal.schwarz = deal.schneider and level < 0.12
        jacks = 4 if game == "grand" else 11
        count = rng.randint(1, 4) if rng.random() < 0.9 else rng.randint(1, jacks)
        deal.matadors = f"{rng.choice(['with', 'without'])}{min(count, jacks)}"
        end = rng.random()
        if end < 0.06:
            deal.points, deal.tricks = 120, offer.tricks
        elif end < 0.1:
            deal.points, deal.tricks = 0, 0
        else:
            deal.points = rng.choice([rng.randint(0, 120), 60, 61, 30, 31, 90, 91, 89])
    else:
        deal.tricks = 0 if rng.random() < 0.6 else 1
    if offer.calls and rng.random() < 0.25:
        deal.calls = offer.calls[:rng.randint(1, len(offer.calls))]
    for key, choices in offer.declarations:
        if rng.random() < 0.2:
            deal.decl.append(f"{key}={rng.choice(choices)}")
    for key in offer.flags:
        if rng.random() < 0.2:
            deal.calls.append(key)
    return deal


def _ramsch(rng: random.Random, offer: form_entry.Offer, seats: dict[str, str]) -> Deal:
    """Card points and tricks per player that a deal can have: no trick no points; a Jungfrau or a Durchmarsch now and then."""
    n, tricks = len(seats), offer.tricks
    shape = rng.random()
    if shape < 0.08:  # Durchmarsch
        winner = rng.randrange(n)
        won = [tricks if i == winner else 0 for i in range(n)]
    else:
        won = [0] * n
        for _ in range(tricks):
            won[rng.randrange(n)] += 1
    points = [0] * n
    left = 120
    takers = [i for i in range(n) if won[i]]
    for i in takers[:-1]:
        points[i] = rng.randint(0, min(left, 11 * won[i] * 3))
        left -= points[i]
    points[takers[-1]] = left
    deal = Deal("ramsch", ramsch=points, ramsch_tricks=won, last_trick=list(seats)[rng.choice(takers)])
    if offer.pushes:
        deal.pushes = [rng.choice(offer.pushes) for _ in range(3)]
        if all(p == form_entry.PUSHES[0] for p in deal.pushes):
            deal.pushes = []
    return deal
