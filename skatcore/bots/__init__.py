"""Players: bots that see a :class:`~skatcore.engine.deal.SeatView` and answer
with one of its legal actions (see :mod:`.registry` for the protocol and how
third-party players register)."""

from skatcore.bots.heuristic import HeuristicPlayer
from skatcore.bots.random import RandomPlayer
from skatcore.bots.registry import (
                                    PLAYER_ENTRY_POINT_GROUP,
                                    Factory,
                                    Player,
                                    call_view,
                                    make_player,
                                    player_factories,
                                    resolve_player,
)

__all__ = [
                                    "PLAYER_ENTRY_POINT_GROUP",
                                    "Factory",
                                    "HeuristicPlayer",
                                    "Player",
                                    "RandomPlayer",
                                    "call_view",
                                    "make_player",
                                    "player_factories",
                                    "resolve_player",
]
