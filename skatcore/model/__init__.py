"""Plain data the hooks exchange with the core (plugins import it from here):
contracts, card orders, decks and tables, multiplier items, thresholds, the
facts and result of a finished game (:mod:`skatcore.model.game`), and the
score sheet of a session - its state, lines, extra columns and settlement
(:mod:`skatcore.model.sheet`)."""

from skatcore.model.game import *  # noqa: F401,F403 - every public name of both
from skatcore.model.sheet import *  # noqa: F401,F403
