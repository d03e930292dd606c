"""The one source every game interface of :mod:`skatcore.env` numbers a
deal by: the fixed action catalogue of a ruleset and the driver of a deal by
its indices (:mod:`skatcore.env.catalogue`), and what a seat may see as
numbers (:mod:`skatcore.env.observation`).  numpy only: no PettingZoo,
Gymnasium or OpenSpiel."""

from skatcore.env.catalogue import ActionCatalogue, Turns, declaration_key, sections_table
from skatcore.env.observation import CARD_MARKS, ObservationEncoder, layout_table

__all__ = ["CARD_MARKS", "ActionCatalogue", "ObservationEncoder", "Turns", "declaration_key", "layout_table",
           "sections_table"]
