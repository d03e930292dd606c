"""Players: bots that see a :class:`~skatcore.engine.deal.SeatView` and answer
with one of its legal actions."""
