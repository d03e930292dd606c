"""``skat compare --replay FILE``: run a recorded comparison again (the
rulesets, deals, seed, players, ``--games`` files and options of its
provenance, :mod:`skatcore.sim.provenance`) and say whether what it finds
now is what made the record: per ruleset its content hash, its plugins'
versions and files; the players; the games files; skatcore; the libraries;
after the run, the rows.

The record is untrusted input: read bounded, checked against
``skatcore/schemas/provenance.schema.json``, and it runs no code beyond what
its rulesets name (whose local code needs ``--trust`` as always) and the
registered players (a ``module:attr`` player needs ``--trust`` too)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skatcore.errors import InputError, json_text, shorten
from skatcore.sim.provenance import canonical, sha256_text

#: what a replay takes from the record: given with --replay, these are refused
RECORDED = ("rulesets", "deals", "seed", "players", "games", "until_ci", "max_deals", "verify", "deal")


@dataclass
class Check:
    """One thing the record pins, compared with now: ``differs`` says how
    (empty: the same).  ``strict``: ``--strict`` refuses to run when it differs."""

    kind: str
    name: str
    path: str
    differs: list[str] = field(default_factory=list)
    strict: bool = True
    pin: str = ""

    @property
    def same(self) -> bool:
        return not self.differs

    def text(self) -> str:
        if self.same:
            return f"{self.what()}: same{f' ({self.pin})' if self.pin else ''}"
        return f"{self.what()}: {'DIFFERS' if self.strict else 'differs'}: {'; '.join(self.differs)}"

    def what(self) -> str:
        return f"{self.kind} {self.name}" if self.name else self.kind

    def to_json(self) -> dict:
        return {"kind": self.kind, "name": self.name, "path": self.path, "same": self.same, "differs": self.differs}


@dataclass
class Replay:
    source: str
    record: dict
    prefix: str  # where the record is in its file: "" or "provenance" (a report's --json output)
    checks: list[Check] = field(default_factory=list)
    rows: dict | None = None

    @classmethod
    def read(cls, path: str) -> Replay:
        record, prefix = read_record(path)
        return cls(path, record, prefix)

    def at(self, path: str) -> str:
        return f"{self.prefix}.{path}" if self.prefix else path

    def apply(self, args) -> None:
        """``args`` set to the recorded comparison."""
        from skatcore.bots.registry import player_factories
        from skatcore.rules.compiler import get_rules
        from skatcore.rules.trust import trusts_all

        r = self.record
        args.rulesets = [x["ref"] for x in r["rulesets"]]
        for i, ref in enumerate(args.rulesets):
            where = self.at(f"rulesets[{i}].ref")
            if ("/" in ref and not Path(ref).is_absolute()) or "\\" in ref:  # else it would depend on where we stand
                raise InputError(f"expected a ruleset's name or an absolute path, got {shorten(ref)!r}",
                                 source=self.source, path=where)
            try:
                get_rules(ref)
            except InputError as exc:  # an error inside the ruleset names its file; an unknown one the record
                if exc.source:
                    raise
                raise exc.at(where, self.source) from None
        args.seed, args.deals = r["seed"], r["deals"] or 1000
        args.games = None if r["games"] is None else [g["file"] for g in r["games"]]
        args.until_ci, args.max_deals, args.verify = (r["options"][k] for k in ("until_ci", "max_deals", "verify"))
        players = [p["player"] for p in r["players"] or [{"player": "heuristic"}] * 3]
        factories = player_factories()
        for i, spec in enumerate(players):
            head, _, rest = spec.partition(":")
            registered = spec in factories or (head in factories and all("=" in p for p in rest.split(":")))
            if not registered and not trusts_all():  # module:attr would import what the record names
                raise InputError(f"player {shorten(spec)!r} is code outside the registered players: replay it with "
                                 "--trust (expected a registered player)", source=self.source, path=self.at(f"players[{i}]"))
            if "," in spec:
                raise InputError(f"expected one player, got {shorten(spec)!r}", source=self.source,
                                 path=self.at(f"players[{i}]"))
        args.players = ",".join(players)

    def compare(self, now: dict) -> list[Check]:
        """What the record pins against ``now`` (the pins of this run)."""
        r = self.record
        checks = [_ruleset(i, old, new) for i, (old, new) in enumerate(zip(r["rulesets"], now["rulesets"], strict=True))]
        for i, (old, new) in enumerate(zip(r["players"] or (), now["players"] or (), strict=True)):
            differs = _changed(old, new, ("settings", "distribution", "version", "sha256"))
            checks.append(Check("player", f"{i + 1} {old['player']}", f"players[{i}]", differs))
        for i, (old, new) in enumerate(zip(r["games"] or (), now["games"] or (), strict=True)):
            differs = [] if (old["sha256"], old["size"]) == (new["sha256"], new["size"]) else \
                [f"sha256 {old['sha256'][:12]} -> {new['sha256'][:12]}, {old['size']:,} -> {new['size']:,} bytes"]
            checks.append(Check("games file", Path(old["file"]).name, f"games[{i}]", differs, pin=f"sha256 {old['sha256'][:12]}"))
        old_core, new_core = r.get("skatcore") or {}, now["skatcore"]
        differs = _changed(old_core, new_core, ("version", "commit", "sources_sha256"))
        checks.append(Check("skatcore", new_core["version"], "skatcore", differs,
                            pin=f"commit {new_core['commit'][:12]}" if new_core.get("commit") else ""))
        soft = r.get("software") or {}
        checks.append(Check("Python and libraries", "", "software", _changed(soft, now["software"], sorted(soft)), strict=False))
        self.checks = checks
        return checks

    def strict_refusal(self) -> InputError | None:
        """``--strict``: the first thing that differs, as the one-line refusal."""
        for c in self.checks:
            if c.strict and not c.same:
                return InputError(f"{c.what()} differs from the record: {'; '.join(c.differs)} (expected the "
                                  "same with --strict; without it the replay runs and says so)",
                                  source=self.source, path=self.at(c.path))
        return None

    def check_rows(self, rows: int, sha256: str) -> dict | None:
        """The rows of this run against the recorded ones (``None``: the record has none)."""
        per_deal = self.record.get("per_deal") or {}
        if "rows_sha256" not in per_deal:
            return None
        self.rows = {"rows": rows, "sha256": sha256, "recorded_rows": per_deal.get("rows"),
                     "recorded_sha256": per_deal["rows_sha256"], "same": sha256 == per_deal["rows_sha256"]}
        return self.rows

    def rows_text(self) -> str:
        if self.rows is None:
            return "rows: the record holds none to compare (it was made without --per-deal)"
        r = self.rows
        if r["same"]:
            return f"rows: the same {r['rows']:,} rows as recorded (SHA-256 {r['sha256'][:12]})"
        recorded = f"{r['recorded_rows']:,}" if isinstance(r["recorded_rows"], int) else "?"
        return (f"rows: DIFFER from the record: {r['rows']:,} rows, SHA-256 {r['sha256'][:12]}; recorded "
                f"{recorded} rows, {r['recorded_sha256'][:12]}")

    def rows_refusal(self) -> InputError | None:
        if self.rows is None or self.rows["same"]:
            return None
        return InputError(f"the replay made other rows than recorded ({self.rows_text()[6:]}; expected the same "
                          "with --strict)", source=self.source, path=self.at("per_deal.rows_sha256"))

    def same(self) -> bool:
        return all(c.same for c in self.checks if c.strict) and (self.rows is None or self.rows["same"])

    def to_json(self) -> dict:
        return {"file": self.source, "same": self.same(), "recorded": {k: self.record.get(k) for k in ("command", "date")},
                "checks": [c.to_json() for c in self.checks], "rows": self.rows}

    def header(self) -> list[str]:
        r = self.record
        when = f", {r['date']}" if isinstance(r.get("date"), str) else ""
        command = r.get("command")
        what = command if isinstance(command, str) else "a comparison"
        return [f"replay of {self.source}: {shorten(what, 200)}{when}", *(f"  {c.text()}" for c in self.checks)]


# ---------------------------------------------------------------------------
# Reading the record
# ---------------------------------------------------------------------------


def read_record(path: str) -> tuple[dict, str]:
    """The provenance of ``path`` (``FILE.meta.json``, a report's ``--json``
    output, a Parquet per-deal file), checked; and where it is inside the file."""
    from skatcore.rules.ruleset import load_schema, read_document, validate

    suffix = Path(path).suffix.lower()
    if suffix == ".parquet":
        doc: Any = _parquet_record(path)
    elif suffix == ".json":
        doc = read_document(path)
    else:
        raise InputError("expected FILE.meta.json, a report's --json output (.json) or a Parquet per-deal file "
                         "(.parquet)", source=path, path="--replay")
    prefix = ""
    if isinstance(doc, dict) and "format" not in doc and isinstance(doc.get("provenance"), dict):
        doc, prefix = doc["provenance"], "provenance"
    if not isinstance(doc, dict):
        raise InputError("expected a provenance record (a mapping with format skat-provenance/1)", source=path)
    validate(doc, load_schema("provenance.schema.json"), path, prefix)
    dot = f"{prefix}." if prefix else ""
    for i, rs in enumerate(doc["rulesets"]):
        if sha256_text(canonical(rs["content"])) != rs["sha256"]:
            raise InputError("expected the SHA-256 of this ruleset's content as canonical JSON",
                             source=path, path=f"{dot}rulesets[{i}].sha256")
    if (doc["games"] is None) != (doc["deals"] is not None) or (doc["games"] is None) == (doc["players"] is None):
        raise InputError("expected either games (real games: deals and players null) or deals and players",
                         source=path, path=f"{dot}games")
    return doc, prefix


def _parquet_record(path: str) -> Any:
    from skatcore.rules.reading import max_bytes, read_json
    from skatcore.sim.export import PARQUET_KEY

    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError("reading a Parquet file needs pyarrow (pip install pyarrow)", source=path) from None
    try:
        meta = pq.read_metadata(path).metadata or {}
    except Exception as exc:  # pyarrow's errors on a file that is not Parquet (ArrowInvalid, OSError ...)
        raise InputError(f"not a readable Parquet file ({shorten(str(exc))})", source=path) from None
    value = meta.get(PARQUET_KEY.encode())
    if value is None:
        raise InputError(f"no key {PARQUET_KEY} in its metadata (expected a per-deal file skat compare wrote)",
                         source=path)
    if len(value) > max_bytes():
        raise InputError(f"its {PARQUET_KEY} is larger than {max_bytes():,} bytes", source=path)
    try:
        text = value.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"its {PARQUET_KEY} is not UTF-8 text", source=path) from None
    return read_json(text, path)


# ---------------------------------------------------------------------------
# Comparing
# ---------------------------------------------------------------------------


def _ruleset(i: int, old: dict, new: dict) -> Check:
    differs = []
    if old["sha256"] != new["sha256"]:
        differs.append(f"content sha256 {old['sha256'][:12]} -> {new['sha256'][:12]} "
                       f"({', '.join(_content_changes(old['content'], new['content']))})")
    recorded = {p["plugin"]: p for p in old["plugins"]}
    for p in new["plugins"]:
        o = recorded.get(p["plugin"])
        if o is None:  # added: the content says so
            continue
        if (o["distribution"], o["version"]) != (p["distribution"], p["version"]):
            differs.append(f"plugin {p['plugin']} version {_dist(o)} -> {_dist(p)}")
        elif o["sha256"] != p["sha256"]:
            differs.append(f"plugin {p['plugin']} file {Path(p['file'] or '?').name} changed "
                           f"(sha256 {(o['sha256'] or '-')[:12]} -> {(p['sha256'] or '-')[:12]})")
    return Check("ruleset", new["name"], f"rulesets[{i}]", differs, pin=f"sha256 {new['sha256'][:12]}")


def _dist(p: dict) -> str:
    return f"{p['distribution']} {p['version']}" if p["distribution"] else "local code"


def _content_changes(old: dict, new: dict, limit: int = 4) -> list[str]:
    """How two resolved contents differ, in a few words (the parameters by name)."""
    out = [f"{k} changed" for k in ("name", "description") if old.get(k) != new.get(k)]
    before = {p["plugin"]: p for p in old["plugins"]}
    after = {p["plugin"]: p for p in new["plugins"]}
    out += [f"plugin {k} added" for k in after if k not in before]
    out += [f"plugin {k} removed" for k in before if k not in after]
    for k in (k for k in after if k in before):
        a, b = before[k]["params"], after[k]["params"]
        for key in sorted(set(a) | set(b)):
            if a.get(key, "(unset)") != b.get(key, "(unset)"):
                out.append(f"{k}.{key} {_short(a.get(key, '(unset)'))} -> {_short(b.get(key, '(unset)'))}")
        if before[k]["layer"] != after[k]["layer"]:
            out.append(f"plugin {k} moved in the extends chain")
    if not out and [p["plugin"] for p in old["plugins"]] != [p["plugin"] for p in new["plugins"]]:
        out.append("plugins in another order")
    return out[:limit] + ([f"{len(out) - limit} more"] if len(out) > limit else []) or ["as canonical text"]


def _short(value: Any) -> str:
    return value if isinstance(value, str) and value == "(unset)" else shorten(json_text(value), 40)


def _changed(old: dict, new: dict, keys: Iterable[str]) -> list[str]:
    def show(k: str, v: Any) -> str:  # a hash or a commit by its first 12 digits, as git shows a commit
        return v[:12] if isinstance(v, str) and (k.endswith("sha256") or k == "commit") else _short(v)

    return [f"{k} {show(k, old.get(k))} -> {show(k, new.get(k))}" for k in keys if old.get(k) != new.get(k)]
