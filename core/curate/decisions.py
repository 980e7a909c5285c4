"""The person's decisions on candidates: ``curation/decisions.json``.

An approval or rejection is bound to the record's exact content (its SHA-256) and to the moment it
was made: if the record changes, or is restored after the decision, the decision no longer applies
and the record is judged afresh. An approval is consumed by the move it allowed (kept, marked with
that move's id, for the log).
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from core.errors import RecordError
from core.fsutil import atomic_write_text
from core.paths import HomePaths

DECISIONS_FILE = "decisions.json"
DECISIONS = ("approved", "rejected")


def decisions_path(paths: HomePaths) -> Path:
    return paths.curation / DECISIONS_FILE


def load_decisions(paths: HomePaths) -> dict[str, dict[str, Any]]:
    path = decisions_path(paths)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise RecordError(f"{path}: unreadable: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("decisions"), dict):
        raise RecordError(f"{path}: field 'decisions' missing or not an object")
    return data["decisions"]


def _save(paths: HomePaths, decisions: dict[str, dict[str, Any]]) -> None:
    text = json.dumps({"format": "reverie.curation.decisions", "decisions": decisions},
                      ensure_ascii=False, indent=1, sort_keys=True)
    atomic_write_text(decisions_path(paths), text + "\n")


def decide(paths: HomePaths, candidate: dict[str, Any], decision: str, at: str) -> tuple[dict[str, Any], bool]:
    """Record ``decision`` for ``candidate`` (its id, scope, rel, sha256); (entry, changed).
    Deciding the same thing twice changes nothing. The caller holds the curation lock."""
    if decision not in DECISIONS:
        raise ValueError(f"decision must be one of {DECISIONS}")
    decisions = load_decisions(paths)
    current = decisions.get(candidate["id"])
    if (current and is_open(current) and current.get("decision") == decision
            and current.get("sha256") == candidate["sha256"]):
        return current, False
    entry = {"decision": decision, "at": at, "scope": candidate["scope"], "rel": candidate["rel"],
             "sha256": candidate["sha256"], "tier": candidate.get("tier"),
             "signals": list(candidate.get("signals", []))}
    decisions[candidate["id"]] = entry
    _save(paths, decisions)
    return entry, True


def consume(paths: HomePaths, candidate_id: str, move_id: str) -> None:
    """Mark the approval of a record that has just been moved as used by that move."""
    decisions = load_decisions(paths)
    entry = decisions.get(candidate_id)
    if entry is not None and entry.get("consumed_by") != move_id:
        entry["consumed_by"] = move_id
        _save(paths, decisions)


def is_open(entry: dict[str, Any]) -> bool:
    return not entry.get("consumed_by")


def valid_decision(entry: dict[str, Any] | None, sha256: str, restored_at: float | None) -> dict[str, Any] | None:
    """``entry`` if it still applies to the record with ``sha256`` (and was made after its last restore).
    An entry of ``decisions.json`` as stored, returned as it is: it is written back whole when consumed."""
    if not entry or entry.get("sha256") != sha256 or not is_open(entry):
        return None
    if restored_at is not None:
        try:
            if datetime.fromisoformat(str(entry.get("at"))).timestamp() < restored_at:
                return None
        except ValueError:
            return None
    return entry
