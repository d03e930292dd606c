"""``--per-deal FILE``: one row per deal and ruleset (the columns of
:func:`skatcore.sim.outcomes.row_keys`) as JSON Lines (``.jsonl``), CSV
(``.csv``) or Parquet (``.parquet``, with pyarrow installed), ready for
pandas or polars (each column and the code that reads it back:
docs/formats.md#per-deal-rows).  Rows are written as they come, into
``FILE.part``, renamed to ``FILE`` when the run is over: a failed run
leaves no half file.  A run's provenance goes beside it, ``FILE.meta.json``
(and, in a Parquet file, into its key-value metadata ``skatcore.provenance``),
written only when the rows are (docs/formats.md#provenance)."""

from __future__ import annotations

import csv
import hashlib
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
META_SUFFIX = ".meta.json"
PARQUET_KEY = "skatcore.provenance"


class RowDigest:
    """The rows of a run, typed as the per-deal file holds them, counted and
    hashed: the SHA-256 of the rows as JSON Lines, whatever the file's format
    (for a ``.jsonl`` file its own hash), so a replay tells whether it made the same rows."""

    def __init__(self, columns=ROW_KEYS):
        self.columns = tuple(columns)
        self.rows = 0
        self._sha = hashlib.sha256()

    def write(self, rows: list[dict]) -> list[dict]:
        rows = [{k: typed(k, r.get(k)) for k in self.columns} for r in rows]
        self.rows += len(rows)
        self._sha.update("".join(json_text(r) + "\n" for r in rows).encode("utf-8"))
        return rows

    def hexdigest(self) -> str:
        return self._sha.hexdigest()


class RowWriter:
    def __init__(self, path: str, columns=ROW_KEYS):
        self.path, self.columns = Path(path), tuple(columns)
        self.digest = RowDigest(self.columns)
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
        if self.path.is_dir():  # (else the finished rows' renaming would fail, naming the .part file)
            raise InputError("a folder: expected a file to write", source=str(path), path="--per-deal")
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
        rows = self.digest.write(rows)
        self.rows += len(rows)
        if self._csv:  # a text cell a spreadsheet would run as a formula written as text (a ruleset's name)
            self._csv.writerows({k: spreadsheet_cell(v) for k, v in r.items()} for r in rows)
        elif self._file:  # .jsonl
            self._file.writelines(json_text(r) + "\n" for r in rows)
        elif rows:
            import pyarrow as pa

            if self._parquet is None:
                self._open_parquet()
            self._parquet.write_table(pa.Table.from_pylist(rows, schema=self._schema))

    def _open_parquet(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        self._schema = pa.schema([(k, _arrow_type(pa, k)) for k in self.columns])
        self._parquet = pq.ParquetWriter(self.part, self._schema)

    def close(self, ok: bool = True, provenance: dict | None = None) -> None:
        """Finish the file (``ok``) or remove it.  ``provenance``: the run's
        record, completed here with what the file holds (``per_deal``) and
        written beside it (and into a Parquet file); the old ``FILE.meta.json``
        goes before the new rows arrive, so no file is ever beside the wrong record."""
        meta = self.path.with_name(self.path.name + META_SUFFIX)
        meta_part = meta.with_name(meta.name + ".part")
        done = False
        try:
            if ok and self.suffix == ".parquet" and self._parquet is None:  # no rows: the columns still
                self._open_parquet()
            if ok and provenance is not None:
                provenance["per_deal"] = {"file": self.path.name, "format": self.suffix[1:], "rows": self.rows,
                                          "rows_sha256": self.digest.hexdigest()}
                if self._parquet:
                    self._parquet.add_key_value_metadata({PARQUET_KEY: json_text(provenance)})
        finally:
            if self._file:
                self._file.close()
            if self._parquet:
                self._parquet.close()
        try:
            if ok and provenance is not None:
                if self.suffix != ".parquet":  # (a Parquet file holds its record: its own hash cannot be in it)
                    provenance["per_deal"]["sha256"] = _sha256(self.part)
                meta_part.write_text(json_text(provenance, indent=1) + "\n", encoding="utf-8")
            if ok:
                meta.unlink(missing_ok=True)
                os.replace(self.part, self.path)
                if provenance is not None:
                    os.replace(meta_part, meta)
            done = True
        finally:
            for left in (self.part, meta_part) if not (done and ok) else ():
                left.unlink(missing_ok=True)


def _sha256(path: Path) -> str:
    from skatcore.sim.provenance import file_sha256

    return file_sha256(path)


def typed(key: str, value):
    """``value`` as its column's type (a NumPy integer or a 0/1 flag from the compiled
    engine as ``int``/``bool``), so a CSV holds ``3``, never ``3.0``, and ``True``/``False``;
    ``None`` stays (empty in a CSV).  The values are never renamed (the game ``null`` stays
    ``null``): docs/formats.md#per-deal-rows reads them back, types and missing values exact."""
    return None if value is None else COLUMN_TYPES.get(key, str)(value)


def _arrow_type(pa, key: str):
    # a settling declaration's column (``schenken``) holds what was said, as text
    return {int: pa.int64(), bool: pa.bool_(), str: pa.string()}[COLUMN_TYPES.get(key, str)]
