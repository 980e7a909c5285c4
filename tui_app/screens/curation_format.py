"""How curation reads on screen: tiers, signals and guards, a candidate's reasons, a cold item's story.

Every mark is a character as well as a colour (``+`` a signal, ``=`` a guard, ``✓`` approved, ``✗``
rejected), so nothing depends on truecolor: over SSH with 256 colours, or none, it reads the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

from textual.content import Content

from core.workbench.types import Candidate
from tui_app.widgets.format import local_time, plural, preview
from tui_app.widgets.humane import ago, size_text

if TYPE_CHECKING:
    from core.curate.cold import ColdItem

ContentPart = Content | tuple[str, str] | str

TIER_STYLE = {"high": "bold $text-error", "medium": "bold $text-warning", "low": "bold $text-success"}
TIER_MEANING = {
    "high": "moves automatically",
    "medium": "waits for your approval",
    "low": "stays",
}
SIGNAL_LABEL = {
    "superseded": "superseded",
    "expired": "expired",
    "finished_project": "finished",
    "orphaned": "orphan",
    "unused": "unused",
}
GUARD_LABEL = {  # short, for the table's column; the detail pane gives the full name and the reason
    "preference": "pref",
    "pinned": "pinned",
    "restored_recently": "restored",
    "indexed": "index",
    "persona": "persona",
    "rejected": "rejected",
}
DECISION_MARK = {"approved": ("✓", "bold $text-success"), "rejected": ("✗", "bold $text-error")}


def tilde(text: str) -> str:
    """``text`` with paths inside the person's home folder written ``~/…``, as :func:`short_path` does."""
    home = str(Path.home()).rstrip("/")
    return text.replace(home + "/", "~/") if home else text


def days(value: float) -> str:
    """An age in whole days, as the thresholds are measured: ``330d``, ``<1d``."""
    return "<1d" if value < 1 else f"{value:.0f}d"


def short_sha(sha256: str) -> str:
    return sha256[:12] + "…" if sha256 else "—"


def signal_list(names: Sequence[str]) -> str:
    return " ".join(SIGNAL_LABEL.get(n, n) for n in names)


def guard_list(names: Sequence[str]) -> str:
    return " ".join(GUARD_LABEL.get(n, n) for n in names) or "—"


def decision_mark(candidate: Candidate) -> Content:
    mark, style = DECISION_MARK.get(candidate.decision or "", ("·", "dim"))
    return Content.styled(mark, style)


def tier_meaning(tier: str, report_only_left: int = 0) -> str:
    """What a tier does now, short enough for a table cell. The high tier moves by itself only after
    its scope's first ``curation.report_only_runs`` apply runs: while some are left it says so."""
    if tier == "high" and report_only_left:
        return f"report-only, {plural(report_only_left, 'run')} left"
    return TIER_MEANING[tier]


def report_only_note(report_only_left: int) -> str:
    """Why a high-tier record has not moved, and how to change it (as ``reverie curate apply`` says)."""
    return (
        f"not yet: this scope's first apply runs only report ({plural(report_only_left, 'report-only run')} "
        "left, then high-tier records move; curation.report_only_runs in config.toml sets how many)"
    )


def tier_heading(tier: str, count: int, report_only_left: int = 0) -> tuple[Content, Content]:
    """The two cells of a tier's header row: its name and count, and what the tier means."""
    return Content.styled(f"{tier.upper()} · {count}", TIER_STYLE[tier]), Content.styled(
        tier_meaning(tier, report_only_left), "dim italic"
    )


def reasons(details: Mapping[str, str], names: Sequence[str], kind: str, style: str) -> list[ContentPart]:
    """One line per fired signal or guard, with the rubric's reason for it."""
    parts: list[ContentPart] = []
    mark = "+" if kind == "signal" else "="
    for name in names:
        parts += ["\n", (f"{mark} {kind:<6} ", style), (f"{name:<17} ", "bold"), details.get(name, "")]
    return parts


def candidate_detail(c: Candidate, width: int, report_only_left: int = 0) -> Content:
    """Everything the rubric said about one candidate, and the start of its text. ``report_only_left``:
    the report-only apply runs its scope still has (a high-tier record does not move during them)."""
    head: list[ContentPart] = [
        (c.title or c.rel, "bold"),
        (f"  {c.scope}:{c.rel}", "dim"),
        "\n",
        (c.tier.upper(), TIER_STYLE[c.tier]),
        f" {tier_meaning(c.tier, report_only_left if c.decision != 'approved' else 0)} · "
        f"{days(c.age_days)} since last change or use · {size_text(c.size)} · "
        f"rubric v{c.rubric_version} · sha256 {short_sha(c.sha256)}",
    ]
    if c.tier == "high" and report_only_left and c.decision != "approved":
        head += ["\n", ("! ", "bold $text-warning"), report_only_note(report_only_left)]
    if c.decision:
        mark, style = DECISION_MARK[c.decision]
        head += ["\n", (f"{mark} {c.decision} by you", style)]
        head.append(" · moves at the next move run" if c.decision == "approved" else " · stays where it is")
    if c.person_only:
        head += ["\n", ("= persona, identity or voice: never moved automatically, only by your approval", "bold")]
    head += reasons(c.details, c.signals, "signal", "$text-warning")
    head += reasons(c.details, c.guards, "guard", "$text-success")
    if "uncertain" in c.details:
        head += ["\n", ("? unsure  ", "bold $text-warning"), c.details["uncertain"]]
    if c.preview:
        head += ["\n", ("› ", "dim"), preview(c.preview, max(width * 2 - 4, 20))]
    return Content.assemble(*head)


def cold_detail(item: ColdItem, now: datetime, zone: tzinfo) -> Content:
    """Where a moved record went, when and why, and how it comes back."""
    s = item.stone
    how = "approved by you" if s.approved else f"{s.tier} tier, automatically"
    parts: list[ContentPart] = [
        (f"{s.scope}:{s.path}", "bold"),
        f"  moved {local_time(s.moved_at, zone)} ({ago(s.moved_at, now)}), {how}, rubric v{s.rubric_version}",
        "\n",
        ("sha256 ", "dim"),
        s.sha256,
        (f"  {size_text(s.size)}", "dim"),
    ]
    if item.intact is True:
        parts.append(("  ✓ cold copy intact", "$text-success"))
    elif item.intact is False:
        parts.append(("  ✗ cold copy does not match", "bold $text-error"))
    parts += reasons(s.details, s.signals, "signal", "$text-warning")
    if item.places is not None:
        parts += [
            "\n",
            ("tombstone ", "dim"),
            s.tombstone,
            (" beside where it was", "dim")
            if item.tombstone_present
            else (" is gone; the copy in cold storage still restores it", "$text-warning"),
            "\n",
            ("cold copy ", "dim"),
            s.cold_path,
            (" in the data home", "dim"),
        ]
    else:
        parts += ["\n", ("its scope is no longer configured: add it again to restore this record", "$text-error")]
    return Content.assemble(*parts)
