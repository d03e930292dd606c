"""The report's record of what pins its results (docs/formats.md#provenance):
the rulesets' content hashes and plugins, the players and their settings,
the games files, the software, the per-deal file; hashes shortened in view
(the full one in the title and in the whole record below)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from skatcore.errors import json_text
from skatcore.sim.report.charts import esc

# a long path or hash scrolls in its box, never the page; the box takes the keyboard's focus to be scrolled
_BOX = ' style="overflow-x:auto;max-width:100%" tabindex="0"'


def pins_html(record: dict) -> str:
    """The tables of a provenance record (``Provenance.to_json()``); empty without rulesets."""
    if not record.get("rulesets"):
        return ""
    parts = [_table("The rulesets: their resolved content (after extends, every parameter) and its SHA-256",
                    ["ruleset", "content SHA-256", "file", "plugins"],
                    [[esc(r["name"]), _hash(r["sha256"]), esc(r.get("file") or ""),
                      esc(", ".join(f"{p['plugin']} ({_from(p)})" for p in r["plugins"]))]
                     for r in record["rulesets"]])]
    for r in record["rulesets"]:
        plugins = _table(None, ["plugin", "found as", "distribution", "file", "file SHA-256"],
                         [[esc(p["plugin"]), esc(p["origin"]), esc(_from(p)), esc(p["file"] or ""), _hash(p["sha256"])]
                          for p in r["plugins"]])
        parts.append(f"<details><summary>{esc(r['name'])}: its plugins, and its resolved content: the text its SHA-256 is taken of</summary>{plugins}"
                     f"<pre{_BOX}>{_lines(_canonical(r['content']))}</pre></details>")
    if record.get("players"):
        parts.append(_table("The players (the --players slots)", ["slot", "player", "settings", "code", "file SHA-256"],
                            [[str(i + 1), esc(p["player"]), esc(_settings(p["settings"])), esc(_from(p)),
                              _hash(p["sha256"])] for i, p in enumerate(record["players"])]))
    if record.get("games"):
        parts.append(_table("The games files", ["file", "bytes", "SHA-256"],
                            [[esc(g["file"]), f"{g['size']:,}", _hash(g["sha256"])] for g in record["games"]]))
    core = record.get("skatcore") or {}
    software = [["skatcore", esc(f"{core.get('version')}, commit {core.get('commit') or 'none (installed)'}"),
                 _hash(core.get("sources_sha256"), "sources ")]]
    software += [[esc(k), esc(v or "not installed"), ""] for k, v in (record.get("software") or {}).items()]
    parts.append(_table("The software", ["software", "version", "SHA-256"], software))
    per_deal = record.get("per_deal")
    if per_deal:
        parts.append(_table("The per-deal file", ["file", "rows", "rows SHA-256 (as JSON Lines)", "file SHA-256"],
                            [[esc(per_deal["file"]), f"{per_deal['rows']:,}", _hash(per_deal["rows_sha256"]),
                              _hash(per_deal.get("sha256"))]]))
    name = f"{Path(per_deal['file']).name}.meta.json" if per_deal else "skat compare --json (provenance)"
    parts.append(f"<details><summary>The whole record, as {esc(name)} holds it (full hashes; "
                 f"<code>skat compare --replay FILE</code> runs it again)</summary>"
                 f"<pre{_BOX}>{_lines(json_text(record, indent=1))}</pre></details>")
    return "".join(parts)


def _lines(text: str) -> str:
    """Text for a ``<pre>``: each line escaped (its line breaks kept, any other control character shown escaped)."""
    return "\n".join(esc(line) for line in text.split("\n"))


def _hash(value: str | None, lead: str = "") -> str:
    if not value:
        return "-"
    return f'<code title="{esc(value)}">{esc(lead)}{esc(value[:12])}…</code>'


def _from(p: dict) -> str:
    return f"{p['distribution']} {p['version']}" if p.get("distribution") else "local code"


def _settings(settings: dict) -> str:
    return ", ".join(f"{k}={json_text(v)}" for k, v in settings.items()) or "none"


def _canonical(content: dict) -> str:
    from skatcore.sim.provenance import canonical

    return canonical(content)


def _table(caption: str | None, columns: Sequence[str], rows: list[list[str]]) -> str:
    """A table of cells already escaped, in its own scrolling box."""
    head = "".join(f"<th>{esc(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    return f'<div{_BOX}><table class="words">{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'
