"""Plain data the hooks exchange with the core (plugins import it from here):
contracts, card orders, multiplier items, thresholds, the facts and result
of a finished game (:mod:`skatcore.model.game`), the deck and the table
(:mod:`skatcore.model.table`), and the score sheet of a session - its state,
lines, extra columns and settlement (:mod:`skatcore.model.sheet`)."""

from skatcore.model.game import *  # noqa: F403 - every public name of both
from skatcore.model.sheet import *  # noqa: F403
from skatcore.model.table import *  # noqa: F403
