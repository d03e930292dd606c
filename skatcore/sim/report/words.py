"""The report's words: what each statistic means and how its interval is
made (the glossary), where the people's figures come from, and the
provenance of a run."""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from skatcore.sim.outcomes import Metric
from skatcore.sim.stats import REPLICATES

#: how people play (official rules, 17,967,106 online tournament games; data/human-play.md,
#: skatblog.com "Skat in Zahlen"): passed 4.9% of deals, of the played games grand 32.2%,
#: suit 61.4%, null 6.4%; as shares of all deals
HUMAN_MIX = {"passed": 0.049, "grand": 0.951 * 0.322, "suit": 0.951 * 0.614, "null": 0.951 * 0.064}
HUMAN_SOURCE = ('skatblog.com, series "Skat in Zahlen" (tag "statistik"): 17,967,106 online tournament games '
                "under the official rules (Seeger-Fabian): passed in 4.9% of deals; of the played games grand 32.2%, "
                "suit 61.4%, null 6.4% (shown as shares of all deals)")

METHODS = {
    "closed form": "mean ± 1.96 sd / √n of the per-deal values (a difference: of the paired per-deal "
              "differences), a normal approximation",
    "bootstrap": f"seeded Poisson bootstrap over the deals ({REPLICATES:,} replicates, the same weights for every "
                 "ruleset so the deals stay paired), 2.5% and 97.5% percentiles",
}

_FIXED = {
    "win_rate": "share of declarer games the declarer won",
    "hand_rate": "share of declarer games played without picking up the skat",
    "overbid_rate": "share of declarer games lost because the game was worth less than the bid",
    "all_pass_rate": "share of all deals that everybody passed although they could bid (thrown in, or a Ramsch); "
                     "the deals of a Ramsch round, where passing is forced, are not counted (Ramsch-round deals)",
    "mean_value": "average value of a declarer game, as scored (also when lost)",
    "mean_abs_entry": "how many points change hands per deal: the deal's sheet entries, without sign, added up",
    "classic_per_36": "a player's score over a 36-deal series on the classic sheet: the seats' entries added up, "
                      "over the persons at the table",
    "seeger_fabian_per_36": "the same in tournament points: the sheet entries, +50 per won and -50 per lost game "
                            "to the declarer, +40 to each defender of a lost game",
    "session.bock_share": "share of all deals whose sheet entries count double (or more): Bock",
    "session.ramsch_round_share": "share of all deals in a Ramsch round of the session, where everybody must pass "
                                  "and a Ramsch is played (or a grand hand announced)",
}

_BY_PREFIX = {
    "contract_mix.": "share of all deals played as {x}",
    "win_rate_by_contract.": "share of {x} games the declarer won",
    "mean_value_by_contract.": "average value of a {x} game, as scored (also when lost)",
    "per_seat_per_36.": "what goes on the sheet for the person in the {x} seat per 36 deals",
    "settlement_per_36.": "what the person in the {x} seat receives (or pays) per 36 deals when everybody settles "
                          "with everybody the difference of their sheet totals",
}

BOCK = {" (with Bock)": "with Bock: the entries as written on the sheet, Bock doubling included",
        " (without Bock)": "without Bock: the game's own entries, before any Bock doubling"}

TERMS = {
    "deals": "deals played under every ruleset (the same cards, the same players)",
    "n": "the deals or games an estimate is made from: declarer games for a rate over declarer games; for a "
         "difference the smaller of the two",
    "Δ": "ruleset minus the baseline (the first ruleset), from the paired per-deal values",
    "95% interval": "where the difference lies with 95% confidence; each statistic says how its interval is made",
    "ns": "not significant: the 95% interval contains 0",
    "people online (official)": HUMAN_SOURCE,
}


def explain(m: Metric) -> str:
    """What statistic ``m`` measures, with Bock where its label says, and how its interval is made."""
    if m.key in _FIXED:
        text = _FIXED[m.key]
    elif m.key == "contract_mix.passed":
        text = "share of all deals thrown in: everybody passed and the ruleset throws the cards in"
    elif m.key.startswith("calls.") and m.key.endswith("_accepted_rate"):
        text = f"share of declarer games settled before the first card by {m.key[6:-14]} being accepted"
    elif m.key.startswith("calls.") and m.key.endswith("_win_rate"):
        text = f"share of the games with {m.key[6:-9]} that the declarer won"
    elif m.key.startswith("calls.") and m.key.endswith("_rate"):
        text = f"share of declarer games in which {m.key[6:-5]} was said"
    else:
        prefix = next((p for p in _BY_PREFIX if m.key.startswith(p)), None)
        text = _BY_PREFIX[prefix].format(x=m.key[len(prefix):]) if prefix else m.label
    bock = next((words for tail, words in BOCK.items() if m.label.endswith(tail)), None)
    return f"{text}{f'; {bock}' if bock else ''}"


@dataclass(frozen=True)
class Provenance:
    """Where a report comes from: enough to make it again."""

    version: str
    commit: str | None
    argv: tuple[str, ...] | None
    date: str
    machine: str
    seconds: float | None = None
    #: what pins the results (:func:`skatcore.sim.provenance.pins`): rulesets' content and hashes, plugins, players ...
    pins: dict | None = field(default=None, compare=False)

    @classmethod
    def now(cls, argv=None, seconds: float | None = None, pins: dict | None = None) -> Provenance:
        import skatcore

        machine = (f"{platform.system()} {platform.release()} {platform.machine()}, {os.cpu_count()} CPUs, "
                   f"Python {platform.python_version()}")
        return cls(skatcore.__version__, git_commit(Path(skatcore.__file__).resolve().parent.parent),
                   None if argv is None else tuple(argv), datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
                   machine, seconds, pins)

    def to_json(self) -> dict:
        """The whole record (docs/formats.md#provenance): the pins, then skatcore, the command, date and machine."""
        from skatcore.sim.provenance import sources_sha256

        return {**(self.pins or {}),
                "skatcore": {"version": self.version, "commit": self.commit, "sources_sha256": sources_sha256()},
                "command": self.command(), "argv": None if self.argv is None else list(self.argv),
                "date": self.date, "machine": self.machine,
                "seconds": None if self.seconds is None else round(self.seconds, 1)}

    def command(self) -> str | None:
        import shlex

        return None if self.argv is None else shlex.join(["skat", *self.argv])


def git_commit(root: Path) -> str | None:
    """The commit checked out at ``root`` (the source tree skatcore runs from), read
    from ``.git`` without running git; ``None`` for an installed package."""
    try:
        git = root / ".git"
        if git.is_file():  # a worktree: "gitdir: PATH"
            git = (root / git.read_text(encoding="utf-8")[:4096].split(":", 1)[1].strip()).resolve()
        head = (git / "HEAD").read_text(encoding="utf-8")[:4096].strip()
        if not head.startswith("ref:"):
            return head[:40] or None
        ref = head[4:].strip()
        common = git / (git / "commondir").read_text(encoding="utf-8").strip() if (git / "commondir").is_file() else git
        for base in (git, common):
            if (base / ref).is_file():
                return (base / ref).read_text(encoding="utf-8")[:40]
        packed = common / "packed-refs"
        for line in packed.read_text(encoding="utf-8").splitlines() if packed.is_file() else ():
            if line.endswith(f" {ref}"):
                return line[:40]
    except (OSError, IndexError, UnicodeDecodeError):
        return None
    return None
