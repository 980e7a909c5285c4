"""The stored forms of curation, byte for byte: a tombstone (beside the record and its mirror in cold
storage, whose SHA-256 the ledger's archive entries record), the pending-move journal and the last
scan's candidates. Written from fixed instances and compared with the exact bytes an earlier version
wrote; the same old documents load back into equal objects."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path

import msgspec
import pytest

from core.curate.cold.journal import write_journal
from core.curate.engine import load_candidates_file, stored_form
from core.curate.model import Candidate, Thresholds
from core.curate.tombstone import Tombstone
from core.errors import RecordError
from core.paths import HomePaths

TOMBSTONE_BYTES = (
    '{\n'
    ' "approved": false,\n'
    ' "cold_path": "cold/notes/m-20261103T101500-0123456789ab/record/old plan.md",\n'
    ' "details": {\n'
    '  "expired": "ended 2026-01-01",\n'
    '  "unused": "untouched for 400 days — 정리"\n'
    ' },\n'
    ' "format": "reverie.tombstone",\n'
    ' "format_version": 1,\n'
    ' "kind": "markdown",\n'
    ' "mode": 384,\n'
    ' "move_id": "m-20261103T101500-0123456789ab",\n'
    ' "moved_at": "2026-11-03T10:15:00+00:00",\n'
    ' "mtime_ns": 1762164900123456789,\n'
    ' "note": "Moved to cold storage by Reverie (nothing was deleted). Bring it back with: reve'
    'rie curate restore <this file>",\n'
    ' "path": "proj/old plan.md",\n'
    ' "rubric_version": 3,\n'
    ' "scope": "notes",\n'
    ' "sha256": "abababababababababababababababababababababababababababababababab",\n'
    ' "signals": [\n'
    '  "expired",\n'
    '  "unused"\n'
    ' ],\n'
    ' "size": 1234,\n'
    ' "tier": "high",\n'
    ' "tombstone": "proj/old plan.md.tombstone"\n'
    '}\n'
)

JOURNAL_LINE = (
    '{"op": "move", "tombstone": {"format": "reverie.tombstone", "format_version": 1, "move_id"'
    ': "m-20261103T101500-0123456789ab", "scope": "notes", "kind": "markdown", "path": "proj/ol'
    'd plan.md", "tombstone": "proj/old plan.md.tombstone", "cold_path": "cold/notes/m-20261103'
    'T101500-0123456789ab/record/old plan.md", "sha256": "ababababababababababababababababababa'
    'bababababababababababababab", "size": 1234, "mode": 384, "mtime_ns": 1762164900123456789, '
    '"moved_at": "2026-11-03T10:15:00+00:00", "rubric_version": 3, "tier": "high", "approved": '
    'false, "signals": ["expired", "unused"], "details": {"expired": "ended 2026-01-01", "unuse'
    'd": "untouched for 400 days — 정리"}, "note": "Moved to cold storage by Reverie (nothing was'
    ' deleted). Bring it back with: reverie curate restore <this file>"}}\n'
)

CANDIDATE_JSON = (
    '{\n'
    ' "id": "c-0123456789",\n'
    ' "scope": "notes",\n'
    ' "path": "/home/me/notes/proj/old plan.md",\n'
    ' "tier": "medium",\n'
    ' "signals": [\n'
    '  "unused"\n'
    ' ],\n'
    ' "guards": [\n'
    '  "pinned"\n'
    ' ],\n'
    ' "rubric_version": 3,\n'
    ' "rel": "proj/old plan.md",\n'
    ' "kind": "markdown",\n'
    ' "details": {\n'
    '  "unused": "untouched for 400 days"\n'
    ' },\n'
    ' "age_days": 400.12,\n'
    ' "sha256": "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",\n'
    ' "size": 99,\n'
    ' "title": "Old plan",\n'
    ' "preview": "The old plan…",\n'
    ' "decision": "approved",\n'
    ' "person_only": true,\n'
    ' "thresholds": {\n'
    '  "unused_days": 91.23,\n'
    '  "clearly_old_days": 365.0,\n'
    '  "measured": true,\n'
    '  "source": "measured 2026-03-01 (n=412, jenks)"\n'
    ' }\n'
    '}'
)

VAULT_CANDIDATE_JSON = (
    '{\n'
    ' "id": "c-0123456789",\n'
    ' "scope": "notes",\n'
    ' "path": "/home/me/notes/proj/old plan.md",\n'
    ' "tier": "medium",\n'
    ' "signals": [\n'
    '  "unused"\n'
    ' ],\n'
    ' "guards": [\n'
    '  "pinned"\n'
    ' ],\n'
    ' "rubric_version": 3,\n'
    ' "rel": "proj/old plan.md",\n'
    ' "kind": "vault",\n'
    ' "details": {\n'
    '  "unused": "(vault memory: see the scan)"\n'
    ' },\n'
    ' "age_days": 400.12,\n'
    ' "sha256": "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",\n'
    ' "size": 99,\n'
    ' "title": "",\n'
    ' "preview": "",\n'
    ' "decision": "approved",\n'
    ' "person_only": true,\n'
    ' "thresholds": {\n'
    '  "unused_days": 91.23,\n'
    '  "clearly_old_days": 365.0,\n'
    '  "measured": true,\n'
    '  "source": "measured 2026-03-01 (n=412, jenks)"\n'
    ' }\n'
    '}'
)

STONE = Tombstone(
    move_id="m-20261103T101500-0123456789ab", scope="notes", kind="markdown", path="proj/old plan.md",
    tombstone="proj/old plan.md.tombstone", cold_path="cold/notes/m-20261103T101500-0123456789ab/record/old plan.md",
    sha256="ab" * 32, size=1234, mode=0o600, mtime_ns=1_762_164_900_123_456_789,
    moved_at="2026-11-03T10:15:00+00:00", rubric_version=3, tier="high", approved=False,
    signals=("expired", "unused"), details={"expired": "ended 2026-01-01", "unused": "untouched for 400 days — 정리"},
)
THRESHOLDS = Thresholds(unused_days=91.234567, clearly_old_days=365.0, measured=True,
                        source="measured 2026-03-01 (n=412, jenks)")
CANDIDATE = Candidate(
    id="c-0123456789", scope="notes", kind="markdown", rel="proj/old plan.md",
    path=Path("/home/me/notes/proj/old plan.md"), tier="medium", signals=("unused",), guards=("pinned",),
    details={"unused": "untouched for 400 days"}, rubric_version=3, age_days=400.123456, sha256="cd" * 32,
    size=99, title="Old plan", preview="The old plan…", decision="approved", person_only=True,
    thresholds=THRESHOLDS.to_dict(),
)


def test_tombstone_bytes_are_unchanged() -> None:
    assert STONE.to_bytes() == TOMBSTONE_BYTES.encode("utf-8")
    # what an archive ledger entry records as ``tombstone_sha256`` (computed on the old bytes)
    assert hashlib.sha256(STONE.to_bytes()).hexdigest() == hashlib.sha256(TOMBSTONE_BYTES.encode()).hexdigest()


def test_an_old_tombstone_loads_back() -> None:
    loaded = Tombstone.from_bytes(TOMBSTONE_BYTES.encode("utf-8"), "t")
    assert loaded == STONE
    assert isinstance(loaded.signals, tuple)
    assert loaded.to_bytes() == TOMBSTONE_BYTES.encode("utf-8")


def test_a_tombstone_without_signals_or_details_loads_with_none() -> None:
    obj = json.loads(TOMBSTONE_BYTES)
    del obj["signals"], obj["details"]
    loaded = Tombstone.from_bytes(json.dumps(obj).encode(), "t")
    assert loaded.signals == () and dict(loaded.details) == {}


@pytest.mark.parametrize(("change", "field"), [
    ({"size": "1234"}, "size"), ({"size": True}, "size"), ({"approved": 1}, "approved"),
    ({"move_id": None}, "move_id"), ({"signals": "expired"}, "signals"), ({"details": []}, "details"),
])
def test_a_wrong_field_is_named(change: dict[str, object], field: str) -> None:
    obj = {**json.loads(TOMBSTONE_BYTES), **change}
    with pytest.raises(RecordError, match=f"t: field '{field}'"):
        Tombstone.from_bytes(json.dumps(obj).encode(), "t")


def test_a_missing_field_is_named() -> None:
    obj = json.loads(TOMBSTONE_BYTES)
    del obj["mtime_ns"]
    with pytest.raises(RecordError, match="t: field 'mtime_ns'"):
        Tombstone.from_bytes(json.dumps(obj).encode(), "t")


def test_the_move_journal_is_unchanged(paths: HomePaths) -> None:
    journal = write_journal(paths, "move", STONE)
    assert journal.read_bytes() == JOURNAL_LINE.encode("utf-8")


def test_stored_candidates_are_unchanged() -> None:
    assert json.dumps(stored_form(CANDIDATE), ensure_ascii=False, indent=1) == CANDIDATE_JSON
    vault = Candidate.from_dict({**json.loads(CANDIDATE_JSON), "kind": "vault"})
    assert json.dumps(stored_form(vault), ensure_ascii=False, indent=1) == VAULT_CANDIDATE_JSON


def test_an_old_candidate_loads_back() -> None:
    loaded = Candidate.from_dict(json.loads(CANDIDATE_JSON))
    assert loaded.path == CANDIDATE.path and isinstance(loaded.path, Path)
    assert loaded.signals == ("unused",) and loaded.guards == ("pinned",)
    assert loaded.age_days == 400.12  # stored rounded
    assert json.dumps(stored_form(loaded), ensure_ascii=False, indent=1) == CANDIDATE_JSON


def test_a_candidate_from_an_older_scan_gets_the_defaults() -> None:
    loaded = Candidate.from_dict({"id": "c-1", "scope": "notes", "rel": "a.md", "path": "/n/a.md", "tier": "low"})
    assert (loaded.kind, loaded.signals, loaded.guards, dict(loaded.details)) == ("", (), (), {})
    assert (loaded.rubric_version, loaded.age_days, loaded.size, loaded.decision, loaded.person_only) == (
        0, 0.0, 0, None, False)


def test_the_candidates_file_round_trips(paths: HomePaths) -> None:
    paths.curation.mkdir(parents=True, exist_ok=True)
    document = {"format": "reverie.curation.candidates",
                "scopes": {"notes": {"scanned_at": "2026-11-03T10:00:00+00:00", "rubric_version": 3,
                                     "thresholds": THRESHOLDS.to_dict(), "candidates": [json.loads(CANDIDATE_JSON)]}}}
    (paths.curation / "candidates.json").write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n")
    data = load_candidates_file(paths)
    assert [stored_form(Candidate.from_dict(c)) for c in data["scopes"]["notes"]["candidates"]] == [
        json.loads(CANDIDATE_JSON)]


def test_thresholds_keep_their_rounded_form() -> None:
    assert THRESHOLDS.to_dict() == {"unused_days": 91.23, "clearly_old_days": 365.0, "measured": True,
                                    "source": "measured 2026-03-01 (n=412, jenks)"}


REMOVED_SCOPES_JSON = (
    '[\n {\n  "name": "old-notes",\n  "kind": "markdown",\n  "path": "@ROOT@/노트"\n },\n'
    ' {\n  "name": "notes",\n  "kind": "markdown",\n  "path": "@ROOT@/notes"\n }\n]\n'
)


def test_removed_scopes_are_unchanged_and_load_back(paths: HomePaths, tmp_path: Path) -> None:
    from core.curate.scopes import remove_scope, removed_scopes
    from tests.helpers.curate import configure

    for name in ("노트", "notes"):
        (tmp_path / name).mkdir()
    configure(paths, ("old-notes", "markdown", tmp_path / "노트"), ("notes", "markdown", tmp_path / "notes"))
    remove_scope(paths, "old-notes")
    remove_scope(paths, "notes")
    expected = REMOVED_SCOPES_JSON.replace("@ROOT@", str(tmp_path))
    assert (paths.curation / "removed_scopes.json").read_text(encoding="utf-8") == expected
    assert [(s.name, s.kind, s.path) for s in removed_scopes(paths)] == [
        ("old-notes", "markdown", f"{tmp_path}/노트"), ("notes", "markdown", f"{tmp_path}/notes")]


@pytest.mark.parametrize("document", ['[{"name": "a", "kind": "markdown"}]', '{"name": "a"}',
                                      '[{"name": "a", "kind": "markdown", "path": 3}]'])
def test_a_damaged_removed_scopes_file_is_one_error(paths: HomePaths, document: str) -> None:
    from core.curate.scopes import removed_scopes
    from core.errors import ConfigError

    paths.curation.mkdir(parents=True, exist_ok=True)
    (paths.curation / "removed_scopes.json").write_text(document)
    with pytest.raises(ConfigError, match=r"removed_scopes\.json: not a list of removed scopes"):
        removed_scopes(paths)


def test_the_curation_reports_keep_their_keys(tmp_path: Path) -> None:
    from core.curate.cold import Recovery, Restored
    from core.curate.schedule import Installed

    restored = Restored(tmp_path / "a.md", "ab" * 32, "notes", "a.md", "m-1", already=True)
    assert msgspec.to_builtins(restored.form()) == {
        "restored": str(tmp_path / "a.md"), "sha256": "ab" * 32, "scope": "notes", "rel": "a.md", "move_id": "m-1",
        "already_restored": True}
    assert next(iter(msgspec.to_builtins(restored.form()))) == "restored"
    # `curate recover --json` and `curate schedule --install --json` print them by dataclasses.asdict
    assert json.dumps(asdict(Recovery("m-1", "move", "finished", "done"))) == (
        '{"move_id": "m-1", "op": "move", "outcome": "finished", "detail": "done"}')
    assert json.dumps(asdict(Installed("cron", [], ["crontab -"], False))) == (
        '{"method": "cron", "written": [], "commands": ["crontab -"], "already": false}')


ARCHIVE_ENTRY_DATA = (
    '{"approved": false, "cold_path": "cold/notes/m-20261103T101500-0123456789ab/record/old plan.md", '
    '"move_id": "m-20261103T101500-0123456789ab", "path": "proj/old plan.md", "rubric_version": 3, '
    '"scope": "notes", "signals": ["expired", "unused"], "tier": "high", "tombstone": "proj/old plan.md.tombstone", '
    '"tombstone_sha256": "727b797856d549abb65eb85f6e8589ec692ab5d41a6374ca548e2f24ad767a89"}'
)


def test_an_archive_ledger_entry_records_the_same_data() -> None:
    """The ledger signs its entries' canonical JSON (sorted keys): the data of an archive entry, with the
    SHA-256 of the tombstone's bytes, must not change, or old entries would no longer match their moves."""
    from core.curate.cold.ledger_entries import archive_data

    assert json.dumps(archive_data(STONE), ensure_ascii=False, sort_keys=True) == ARCHIVE_ENTRY_DATA


def test_the_schedule_files_are_unchanged() -> None:
    from core.curate.schedule import cron_line, systemd_units

    home = HomePaths.at(Path("/home/me/.local/share/reverie"))
    command = "/usr/bin/reverie --home /home/me/.local/share/reverie curate apply --scheduled"
    assert systemd_units(home, "/usr/bin/reverie") == {
        "reverie-curate.service": (
            "[Unit]\nDescription=Reverie weekly curation (moves only what the tier rules allow; never deletes)\n\n"
            f"[Service]\nType=oneshot\nExecStart={command}\n"),
        "reverie-curate.timer": (
            "[Unit]\nDescription=Run Reverie's curation once a week\n\n[Timer]\nOnCalendar=weekly\n"
            "Persistent=true\nRandomizedDelaySec=1h\n\n[Install]\nWantedBy=timers.target\n"),
    }
    assert cron_line(home, "/usr/bin/reverie") == (
        f"17 9 * * 1 {command} >> /home/me/.local/share/reverie/curation/scheduled.log 2>&1 "
        "# reverie weekly curation /home/me/.local/share/reverie")
