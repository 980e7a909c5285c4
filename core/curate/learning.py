"""Learning from restores: every restore is a misjudgment, recorded in ``curation/restores.jsonl``
with the signals that fired when the record was moved. When one signal has caused
``curation.tighten_after_restores`` restores that no earlier change accounted for, the rubric
tightens that signal, its version goes up, and ``curation/changelog.md`` says which restores caused
which change.

Only restores of records moved under the signal's current rule count toward tightening it again:
restoring a whole bad batch one by one tightens each signal once, not once per three records.

Everything here is recomputed from ``restores.jsonl`` and ``rubric.toml``, so running it twice, or
after a crash between any two writes, gives the same rubric and the same changelog.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

from core.config import Config
from core.curate.rubric import Rubric, RubricChange, load_rubric, save_rubric, tightened
from core.fsutil import append_line_durably, atomic_write_text, read_object_lines
from core.paths import HomePaths

RESTORES_FILE = "restores.jsonl"
CHANGELOG_FILE = "changelog.md"


def restores_path(paths: HomePaths) -> Path:
    return paths.curation / RESTORES_FILE


def changelog_path(paths: HomePaths) -> Path:
    return paths.curation / CHANGELOG_FILE


def read_restores(paths: HomePaths) -> list[dict[str, Any]]:
    # a torn last line from a crash is skipped; the restore is re-logged by recovery
    return [item for item in read_object_lines(restores_path(paths)) if isinstance(item.get("move_id"), str)]


def record_restore(paths: HomePaths, entry: dict[str, Any]) -> bool:
    """Append ``entry`` unless a restore of the same move is already there; True if appended."""
    if any(item["move_id"] == entry["move_id"] for item in read_restores(paths)):
        return False
    append_line_durably(restores_path(paths), json.dumps(entry, ensure_ascii=False, sort_keys=True))
    return True


def last_restored(restores: list[dict[str, Any]]) -> dict[tuple[str, str], float]:
    """(scope, path) → the time of its latest restore (seconds since the epoch)."""
    latest: dict[tuple[str, str], float] = {}
    for item in restores:
        try:
            when = datetime.fromisoformat(str(item["ts"])).timestamp()
        except (KeyError, ValueError):
            continue
        key = (str(item.get("scope")), str(item.get("path")))
        latest[key] = max(latest.get(key, 0.0), when)
    return latest


def _unaccounted(rubric: Rubric, restores: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Per signal, the restores that no change has accounted for yet and that still say something
    about the rubric in force: a record moved before the signal was last tightened was judged by the
    old rule, so restoring it (say, a whole bad batch, one by one) does not tighten the new rule again."""
    used: dict[str, set[str]] = defaultdict(set)
    since: dict[str, int] = defaultdict(int)
    for change in rubric.changes:
        used[change.signal].update(change.restores)
        since[change.signal] = max(since[change.signal], change.version)
    pending: dict[str, list[str]] = defaultdict(list)
    for item in restores:
        moved_under = item.get("rubric_version", 0)
        for signal in item.get("signals", []):
            if item["move_id"] not in used[signal] and isinstance(moved_under, int) and moved_under >= since[signal]:
                pending[signal].append(item["move_id"])
    return pending


def learn(paths: HomePaths, config: Config) -> list[RubricChange]:
    """Tighten every signal that has caused enough restores; write the rubric, then the changelog.
    The caller holds the curation lock."""
    rubric = load_rubric(paths)
    restores = read_restores(paths)
    need = config.curation.tighten_after_restores
    made: list[RubricChange] = []
    while True:
        pending = _unaccounted(rubric, restores)
        due = sorted(signal for signal, ids in pending.items() if len(ids) >= need)
        if not due:
            break
        signal = due[0]
        ids = pending[signal][:need]
        rubric = tightened(rubric, signal, ids,
                           f"{len(ids)} restores of records moved with `{signal}` firing")
        made.append(rubric.changes[-1])
    if made:
        save_rubric(paths, rubric)
    write_changelog(paths, rubric, restores)
    return made


def _describe_change(change: RubricChange) -> str:
    parts = []
    for key in ("weight", "min_age_days", "factor"):
        before, after = change.before.get(key), change.after.get(key)
        if before != after:
            parts.append(f"{key} {before:g} → {after:g}")
    meaning = ("the record must now stay unused that many times the measured threshold"
               if change.signal == "unused" else "the signal now fires only for records unchanged and unused "
               f"for at least {change.after.get('min_age_days', 0):g} days")
    return f"{', '.join(parts) or 'no parameter change'} ({meaning})"


def render_changelog(rubric: Rubric, restores: list[dict[str, Any]]) -> str:
    by_id = {item["move_id"]: item for item in restores}
    lines = [
        "# Curation rubric changelog",
        "",
        "Generated from `rubric.toml` and `restores.jsonl`: every rubric change caused by restores,",
        "which restores caused it, and what changed. Newest first.",
        "",
    ]
    if not rubric.changes:
        lines.append(f"Rubric version {rubric.version}: no change caused by restores yet.")
    for change in reversed(rubric.changes):
        lines += [f"## Version {change.version}: `{change.signal}` tightened ({change.at[:19]})", "",
                  f"Caused by {len(change.restores)} restores in which `{change.signal}` had fired:", ""]
        for move_id in change.restores:
            item = by_id.get(move_id, {})
            signals = ", ".join(item.get("signals", []))
            lines.append(f"- `{item.get('scope', '?')}:{item.get('path', '?')}`: "
                         f"moved {str(item.get('moved_at', '?'))[:10]} under rubric v{item.get('rubric_version', '?')} "
                         f"(signals: {signals}), restored {str(item.get('ts', '?'))[:10]} (move `{move_id}`)")
        lines += ["", f"Change: {_describe_change(change)}.", ""]
    return "\n".join(lines).rstrip() + "\n"


def write_changelog(paths: HomePaths, rubric: Rubric, restores: list[dict[str, Any]]) -> None:
    text = render_changelog(rubric, restores)
    path = changelog_path(paths)
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except FileNotFoundError:
        pass
    atomic_write_text(path, text)
