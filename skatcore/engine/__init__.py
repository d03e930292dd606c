"""The engine: cards on a table, the :class:`~skatcore.engine.deal.Deal`
state machine, tricks and scoring.  It reads compiled tables only."""
