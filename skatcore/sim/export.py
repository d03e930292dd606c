"""``--per-deal FILE``: one row per deal and ruleset (the columns of
:func:`skatcore.sim.outcomes.row_keys`) as JSON Lines (``.jsonl``), CSV
(``.csv``) or Parquet (``.parquet``, with pyarrow installed), ready for
pandas or polars (each column and the code that reads it back:
docs/formats.md#per-deal-rows).  Rows are written as they come, into
``FILE.part``, renamed to ``FILE`` when the run is over: a failed run
leaves no half file."""

from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import Any, TextIO

from skatcore.errors import InputError, json_text, spreadsheet_cell
from skatcore.sim.outcomes import ROW_KEYS

SUFFIXES = (".jsonl", ".csv", ".parquet")
_INT = ("seed", "deal", "bid", "value", "score", "declarer_points", "forehand", "middlehand", "rearhand",
        "sheet_factor", "server_score")
_BOOL = ("all_pass", "hand", "won", "overbid", "ramsch_round")
#: each column's type (any value may also be missing: None); the Parquet schema is made from it
COLUMN_TYPES = {key: int if key in _INT else bool if key in _BOOL else str for key in ROW_KEYS}


class RowWriter:
    def __init__(self, path: str, columns=ROW_KEYS):
        self.path, self.columns = Path(path), tuple(columns)
        self.suffix = self.path.suffix.lower()
        if self.suffix not in SUFFIXES:
            raise InputError(f"expected a file ending in {', '.join(SUFFIXES)}", source=str(path), path="--per-deal")
        if self.suffix == ".parquet":
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise InputError("Parquet needs pyarrow (pip install pyarrow); .jsonl and .csv need nothing",
                                 source=str(path), path="--per-deal") from None
        if not self.path.parent.is_dir():
            raise InputError("no such folder", source=str(path), path="--per-deal")
        self.part = self.path.with_name(self.path.name + ".part")
        self.rows = 0
        self._file: TextIO | None = None
        self._csv: csv.DictWriter[str] | None = None
        if self.suffix != ".parquet":
            self._file = self.part.open("w", encoding="utf-8", newline="")
            if self.suffix == ".csv":
                self._csv = csv.DictWriter(self._file, self.columns)
                self._csv.writeheader()
        self._parquet: Any = None  # a pyarrow ParquetWriter from the first rows on (pyarrow has no type information)

    def write(self, rows: list[dict]) -> None:
        rows = [{k: typed(k, r.get(k)) for k in self.columns} for r in rows]
        self.rows += len(rows)
        if self._csv:  # a text cell a spreadsheet would run as a formula written as text (a ruleset's name)
            self._csv.writerows({k: spreadsheet_cell(v) for k, v in r.items()} for r in rows)
        elif self._file:  # .jsonl
            self._file.writelines(json_text(r) + "\n" for r in rows)
        elif rows:
            import pyarrow as pa
            import pyarrow.parquet as pq

            if self._parquet is None:
                self._schema = pa.schema([(k, _arrow_type(pa, k)) for k in self.columns])
                self._parquet = pq.ParquetWriter(self.part, self._schema)
            self._parquet.write_table(pa.Table.from_pylist(rows, schema=self._schema))

    def close(self, ok: bool = True) -> None:
        if self._file:
            self._file.close()
        if self._parquet:
            self._parquet.close()
        if ok:
            os.replace(self.part, self.path)
        elif self.part.exists():
            self.part.unlink()


def typed(key: str, value):
    """``value`` as its column's type (a NumPy integer or a 0/1 flag from the compiled
    engine as ``int``/``bool``), so a CSV holds ``3``, never ``3.0``, and ``True``/``False``;
    ``None`` stays (empty in a CSV).  The values are never renamed (the game ``null`` stays
    ``null``): docs/formats.md#per-deal-rows reads them back, types and missing values exact."""
    return None if value is None else COLUMN_TYPES.get(key, str)(value)


def _arrow_type(pa, key: str):
    # a settling declaration's column (``schenken``) holds what was said, as text
    return {int: pa.int64(), bool: pa.bool_(), str: pa.string()}[COLUMN_TYPES.get(key, str)]
