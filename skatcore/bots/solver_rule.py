"""Who takes a trick and what it counts where house rules decide it, as
the double-dummy solver reads it (:class:`TrickRule`): a plugin's trick
winners (``skat_trick_winner``, :mod:`skatcore.engine.trick_table`) and
the card points house rules add (``skat_card_points``,
:mod:`skatcore.engine.card_table`), per trick and leader, in one table."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .solver_table import NC


def split_alike(lo: int, size: int, alike_of: list[int]) -> list[tuple[int, int]]:
    """A run of equal cards (solver ids ``lo ..``) cut into runs whose cards a rule treats alike, pairwise."""
    runs, start = [], lo
    for i in range(lo + 1, lo + size + 1):
        if i == lo + size or any(not alike_of[i] >> j & 1 for j in range(start, i)):
            if i - start > 1:
                runs.append((start, i - start))
            start = i
    return runs


@dataclass(frozen=True)
class TrickRule:
    """Who takes a trick where a plugin decides it (``skat_trick_winner``),
    and what house rules' card points add to it (``skat_card_points``), for
    one contract and declarer: ``wins[rows[trick, leader]]`` is, by the
    trick's card ids, the index of the winning card (the table of
    :mod:`skatcore.engine.trick_table`, or the card order's) plus ``4 *``
    the card points added (:mod:`skatcore.engine.card_table`: for the
    declarer's side where it takes the trick, against it where a defender
    does), ``trick`` 0-based.  At the end of the deal ``ends[skat, taker]``
    changes the declarer's count by who takes the last trick (``skat``:
    ``lo << 5 | hi`` of its two cards; None: nothing).  The last trick
    counts ``offset`` more for the declarer's side, less against it
    (:meth:`last`): what the solver counts from any position is then never
    below 0; its answers take the offset off again."""

    wins: np.ndarray
    rows: np.ndarray
    alike: np.ndarray  # [a, b]: cards a and b, equal in the card order, are equal under the rule too
    offset: int = 0
    ends: np.ndarray | None = None

    def index(self, trick: tuple[int, ...], left: int, leader: int) -> int:
        """The winning card's index in ``trick``, ``left`` cards left in the hands after it."""
        return self._entry(trick, left, leader) & 3

    def last(self, declarer: int, skat: int | None) -> list[int]:
        """What the last trick adds (the offset included), by its taker, for the solver's table (``ENDS``)."""
        end = [0, 0, 0] if self.ends is None or not skat else \
            self.ends[((skat & -skat).bit_length() - 1) << 5 | (skat.bit_length() - 1)].tolist()
        return [e + self.offset if w == declarer else -e - self.offset for w, e in enumerate(end)]

    def counted(self, trick: tuple[int, ...], left: int, leader: int, declarer: int, points: int,
                skat: int | None = None) -> int:
        """What the finished ``trick`` (of ``points`` card points) adds to the declarer's count, house rules' included."""
        x = self._entry(trick, left, leader)
        w = (leader + (x & 3)) % 3
        extra = (x >> 2) + (self.last(declarer, skat)[w] if left == 0 else 0)
        off = self.offset if left == 0 else 0
        return points + extra - off if w == declarer else -extra - off

    def _entry(self, trick, left: int, leader: int) -> int:
        row = self.rows[9 - left // 3, leader]
        return int(self.wins[row, (trick[0] << 10) | (trick[1] << 5) | trick[2]])


def trick_rule(rules, game: str, declarer: int | None) -> TrickRule | str | None:
    """The plugin's trick winners in ``game`` and the house rules' card
    points (``None``: the card order decides, the cards' points count), or
    why they cannot be tabulated (then no solver plays them)."""
    contract = rules.contracts[game]
    counted = bool(rules.card_points) and contract.declarer and not contract.no_trick and declarer is not None
    if not rules.trick_hook and not counted:
        return None
    key = ("solver_trick_rule", game, declarer)
    if key not in rules.cache:
        rules.cache[key] = _trick_rule(rules, game, declarer, counted)
    return rules.cache[key]


def _trick_rule(rules, game: str, declarer: int | None, counted: bool) -> TrickRule | str:
    from skatcore.engine.trick_table import SLOT, SLOTS, order_winners, trick_wins

    table = rules.tricks[game]
    if rules.trick_hook:
        wins = trick_wins(rules)
        if isinstance(wins, str):
            return wins
        c = wins.contracts.index(game)
        d = wins.declarer[0 if declarer is None else declarer + 1]
        rows = np.array([[wins.row[c, wins.number[t] + wins.leader[lead] + d] for lead in range(3)] for t in range(10)],
                        dtype=np.int64)
        base = wins.wins
    else:  # the card order's winners, as a table the house rules' points join
        base = np.zeros((1, SLOTS), np.int8)
        base[0, SLOT] = order_winners(table)
        rows = np.zeros((10, 3), np.int64)
    if not counted:
        return TrickRule(base, rows, _alike(base[np.unique(rows)], table))
    got = _card_points(rules, game, declarer)  # type: ignore[arg-type]
    if isinstance(got, str):
        return got
    bonus, ends, offset = got
    wins = base.astype(np.int64) | (bonus[None, :] << 2)
    return TrickRule(wins, rows, _alike(wins[np.unique(rows)], table), offset, ends)


#: what the transposition table holds of a value (8 bits): the card points, and twice the offset (TrickRule)
_MOST = 255


def _card_points(rules, game: str, declarer: int):
    """The house rules' card points of ``game`` for the solver: what a trick
    adds for its taker (by slot), the end's by skat and taker (or None),
    the offset; or why the solver cannot count them."""
    from skatcore.engine.card_table import END_SHAPE, SKATS, card_tables
    from skatcore.engine.trick_table import C0, C1, C2, SLOT

    ct = card_tables(rules)
    if isinstance(ct, str):
        return f"{ct}: the double-dummy solver counts house rules' card points only from their tables"
    r_trick, r_end = ct.row[list(rules.contracts).index(game)]
    bonus = ct.trick[r_trick].astype(np.int64) if r_trick >= 0 else np.zeros(ct.trick.shape[1], np.int64)
    ends = None
    if r_end >= 0:
        grid = ct.end[r_end].reshape(END_SHAPE)[declarer]  # (taker, tricks, skat)
        ends = np.zeros((1 << 10, 3), np.int64)
        for w in range(3):
            taken = grid[w, 1:] if w == declarer else grid[w, :10]  # the tricks he can have taken with the last
            slots = [lo << 5 | hi for lo, hi in SKATS]
            if (taken[:, slots] != taken[:1, slots]).any():
                return ("card points at the end of the deal by the tricks each side took: the double-dummy solver "
                        "counts them only by who takes the last trick")
            ends[:, w] = taken[0]
    nonzero = np.nonzero(bonus[SLOT])[0]
    tricks = _most_tricks([set(x) for x in zip(C0[nonzero], C1[nonzero], C2[nonzero], strict=True)])
    offset = tricks * int(np.abs(bonus).max()) + (int(np.abs(ends).max()) if ends is not None else 0)
    if 120 + 2 * offset > _MOST:
        return f"house rules' card points of up to {offset} a deal: more than the double-dummy solver counts"
    return bonus, ends, offset


def _most_tricks(holding: list[set[int]]) -> int:
    """At most how many of a deal's ten tricks can be tricks of ``holding``
    (each a trick's cards): no more than cards it takes to meet every one of
    them (each card falls in one trick), picked greedily."""
    left, n = list(holding), 0
    while left and n < 10:
        counts: dict[int, int] = {}
        for h in left:
            for c in h:
                counts[c] = counts.get(c, 0) + 1
        top = max(counts, key=counts.__getitem__)
        left = [h for h in left if top not in h]
        n += 1
    return n


def _alike(wins: np.ndarray, table) -> np.ndarray:
    """``[a, b]``: whether every trick the rule (its table's rows ``wins``)
    gives against the card order goes alike with cards ``a`` and ``b``
    swapped.  Two such cards of a class with no card between them still in
    play are then one choice under the rule as under the card order (the
    solver's equal cards)."""
    from skatcore.engine.trick_table import C0, C1, C2, SLOT, SLOTS, order_winners

    order = np.zeros(SLOTS, np.int8)
    order[SLOT] = order_winners(table)
    got = wins[:, SLOT]
    moved = got != order[SLOT][None, :]
    alike = np.zeros((NC, NC), np.bool_)
    for k in range(5):
        members = [c for c in range(32) if table.follow[c] == k and table.class_mask[k] >> c & 1]
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                swap = np.arange(32)
                swap[a], swap[b] = b, a
                other = (swap[C0] << 10) | (swap[C1] << 5) | swap[C2]  # each trick's slot with a and b swapped
                swapped = wins[:, other]
                m = moved | (swapped != order[other][None, :])
                alike[a, b] = alike[b, a] = bool((got[m] == swapped[m]).all())
    return alike
