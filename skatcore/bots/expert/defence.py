"""The leads a strong defender plays, as a ranking the expert uses among the
cards its layouts cannot tell apart (or nearly so).

A Skat defender's lead follows rules any club player names: cash a master
(an ace, or a ten whose ace is gone) before the declarer discards on it;
lead a suit the partner showed void in so he trumps it; force the declarer:
lead a suit he showed void in, so he must trump and has fewer trumps left
to draw ours with; bring back the suit the partner led; lead through the
declarer - a long suit when he plays second ("short way, long suit"), a
short one when the partner plays second ("long way, short suit"); lead no
trumps; never lead a ten into an ace still out.  The partner's signals read
are his leads and the voids his discards show.

Following a trick the rules are three: second hand low behind the partner's
lead (no points on it before the declarer has played); a defender who
cannot follow and whose partner is not winning the trick discards from his
shortest side suit (to get void and trump it later), keeping his aces and
tens; the last to play onto the partner's trick smears the most points.
"""

from __future__ import annotations

from dataclasses import dataclass

from skatcore.bots.heuristic.play import CardPlay
from skatcore.bots.heuristic.tables import GameTables
from skatcore.rules.compiler import TRUMP

# the classes of a defender's lead, best first
MASTER, PARTNER_RUFFS, FORCE, PARTNER_SUIT, THROUGH, SIDE, TRUMP_LEAD, BAD = range(8)


@dataclass(frozen=True)
class Table:
    """What a defender on lead reads from the tricks so far."""

    me: int
    declarer: int
    partner: int
    hand: int
    unseen: int          # cards still out that I cannot see (in the other hands or the skat)
    declarer_void: int   # cards of the classes the declarer showed void in
    partner_void: int
    partner_led: frozenset  # follow classes the partner led

    @classmethod
    def of(cls, view, kn, g: GameTables) -> Table:
        me, decl = view.seat, view.declarer
        partner = 3 - me - decl
        led = frozenset(g.follow[cards[0]] for leader, cards, _ in view.tricks if leader == partner)
        return cls(me, decl, partner, view.hand, kn.unseen | kn.known[decl] & ~view.hand,
                   kn.void[decl], kn.void[partner], led)


def lead_class(g: GameTables, t: Table, card: int) -> int:
    """The rule a defender's lead of ``card`` follows (:data:`MASTER` ... :data:`BAD`)."""
    k = g.follow[card]
    if k == TRUMP:
        return TRUMP_LEAD
    suit = g.class_mask[k]
    trumps_out = g.trump & t.unseen
    declarer_ruffs = bool(t.declarer_void & suit) and bool(trumps_out)
    if not g.higher[card] & t.unseen and g.points[card] and not declarer_ruffs:
        return MASTER
    if g.points[card] >= 10 and g.higher[card] & t.unseen:
        return BAD  # a ten led into an ace still out
    if t.partner_void & suit and not declarer_ruffs and trumps_out and g.family != "grand":
        return PARTNER_RUFFS
    if declarer_ruffs:
        return FORCE  # the declarer trumps it: one trump fewer to draw the defenders' with
    if k in t.partner_led:
        return PARTNER_SUIT
    lengths = {j: (t.hand & g.class_mask[j]).bit_count() for j in range(4) if t.hand & g.class_mask[j] & ~g.trump}
    declarer_second = (t.me + 1) % 3 == t.declarer
    pick = max(lengths, key=lambda j: (lengths[j], j)) if declarer_second else min(lengths, key=lambda j: (lengths[j], j))
    return THROUGH if k == pick or lengths[k] == lengths[pick] else SIDE


def lead_key(g: GameTables, t: Table, card: int) -> tuple:
    """Sort key of a defender's lead, best first: its class, then a master
    with the most points, any other card as low as the suit allows."""
    cls = lead_class(g, t, card)
    if cls == MASTER:
        return cls, -g.points[card], 0
    return cls, g.points[card], g.power[card]


def cheapest_key(g: GameTables, card: int) -> tuple:
    """The rule for any other choice the layouts leave open: give away as
    few card points as possible, a side card before a trump, the lower of two."""
    return g.points[card], g.follow[card] == TRUMP, g.power[card]


def discard_key(g: GameTables, hand: int, card: int) -> tuple:
    """Sort key of a defender's discard, best first: no ace or ten while
    another card will do, a side card from the shortest suit of ``hand`` (to
    get void), then the fewest points, the lower of two."""
    k = g.follow[card]
    return g.points[card] >= 10, k == TRUMP, (hand & g.class_mask[k]).bit_count(), g.points[card], g.power[card]


def smear_key(g: GameTables, card: int) -> tuple:
    """Sort key of a card put on the partner's won trick, best first: the
    most points, a side card before a trump, the lower of two."""
    return -g.points[card], g.follow[card] == TRUMP, g.power[card]


def follow_rule(view, kn, g: GameTables) -> str | None:
    """``"smear"``: a defender last to a trick his partner wins; ``"discard"``: one who cannot follow a
    trick the partner is not winning; ``"second"``: one following the partner's lead, the declarer to play."""
    trick = view.trick
    if not trick or view.declarer is None or view.seat == view.declarer:
        return None
    partner_wins = holder(kn, g, trick) != view.declarer
    if partner_wins and len(trick) == 2:
        return "smear"
    led = g.follow[trick[0]]
    follows = any(g.follow[a.card] == led for a in view.legal)
    if not partner_wins and not follows:
        return "discard"
    return "second" if partner_wins and follows and len(trick) == 1 else None


def holder(kn, g: GameTables, trick) -> int:
    """The seat holding the trick in progress so far (``trick``: its cards, led by ``kn.leader``; three seats, as
    the solver plays)."""
    return (kn.leader + CardPlay.winning(g, trick)[0]) % 3
