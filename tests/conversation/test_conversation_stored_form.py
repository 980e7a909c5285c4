"""The stored forms of the conversation log, byte for byte: a turn's line in a day file, a topic marker's
line, a quarantine entry (each kind of raw copy) and the reseal intents with the message their MAC
signs. Written from fixed instances and compared with the exact bytes an earlier version wrote; old
lines load back into equal objects."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

import pytest

import core.conversation.quarantine as quarantine_module
from core.conversation.items import Rejected
from core.conversation.pipeline import IngestReport
from core.conversation.quarantine import Quarantine, QuarantineEntry
from core.conversation.seals import (
    AppendPlan,
    Intent,
    SealReport,
    _intent_message,
    intent_signed,
    load_pending,
    note_appends,
)
from core.integrity import Problem
from core.paths import HomePaths
from core.topics import Marker
from core.turns import Turn
from core.typed import to_builtins
from core.vault.crypto import VaultKeys

QUARANTINE_FILE = (
    '{"bytes": 35, "line": 3, "quarantined_at": "2026-11-03T10:15:00+00:00", "raw": "{\\"role\\":'
    ' \\"robot\\", \\"text\\": \\"안녕\\"}", "reason": "role: must be one of user, assistant, system, g'
    'ot \'robot\'", "sha256": "5bf9f165a453e05f99e746f16345d7f26248b4dcad8a2cfd3f72fc25e8940745",'
    ' "source": "@SOURCE@"}\n'
    '{"bytes": 9, "line": 4, "quarantined_at": "2026-11-03T10:15:00+00:00", "raw_base64": "//4g'
    'YnJva2Vu", "reason": "not JSON", "sha256": "3db0703cfa9f31eb76cfed299d434759928201441e5ad7'
    '4d8a46829fb6b41fc0", "source": "@SOURCE@"}\n'
    '{"bytes": 50, "line": 2, "quarantined_at": "2026-11-03T10:15:00+00:00", "raw_file": "@SLUG'
    '@-L2-77cf12060d47.raw", "reason": "too long", "sha256": "77cf12060d47183ea8c40345e7389e7e0'
    '5cb0753cab374a5e74f9329815b4cb5", "source": "@SOURCE@"}\n'
    '{"line": 5, "quarantined_at": "2026-11-03T10:15:00+00:00", "reason": "empty", "sha256": "e'
    '3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "source": "@SOURCE@"}\n'
)

PENDING_FILE = (
    '{\n'
    ' "2026-11-01": {\n'
    '  "after_sha256": "efefefefefefefefefefefefefefefefefefefefefefefefefefefefefefefef",\n'
    '  "after_size": 180,\n'
    '  "mac": "83cce27667f5ca049caeb6daf3bd5d9d2718f3bd87312e5a409401b8852fd2ca",\n'
    '  "prior_sha256": "abababababababababababababababababababababababababababababababab",\n'
    '  "prior_size": 120,\n'
    '  "sha256": "abababababababababababababababababababababababababababababababab",\n'
    '  "size": 120\n'
    ' },\n'
    ' "2026-11-02": {\n'
    '  "after_sha256": "1212121212121212121212121212121212121212121212121212121212121212",\n'
    '  "after_size": 9,\n'
    '  "prior_sha256": "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",\n'
    '  "prior_size": 7,\n'
    '  "sha256": "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",\n'
    '  "size": 7\n'
    ' }\n'
    '}\n'
)

INTENT_MESSAGE = (
    b'reverie/v2/reseal-intent\x00{"after_sha256":"efefefefefefefefefefefefefefefefefefefefefefe'
    b'fefefefefefefefefef","after_size":180,"day":"2026-11-01","prior_sha256":"ababababababababa'
    b'bababababababababababababababababababababababab","prior_size":120,"sha256":"ababababababab'
    b'ababababababababababababababababababababababababab","size":120}'
)

# What an older version wrote: the state before only, under the v1 domain. It binds no appended bytes.
OLD_PENDING_FILE = (
    '{\n'
    ' "2026-11-01": {\n'
    '  "mac": "cad16c819efce68c6647804502640b07a49c9e55edba2d9e789c212046b6dc9e",\n'
    '  "sha256": "abababababababababababababababababababababababababababababababab",\n'
    '  "size": 120\n'
    ' }\n'
    '}\n'
)

TURN_LINE = (
    '{"actor": "Kate", "id": "t-1", "model": null, "role": "user", "session": "s-1", "source": '
    '"chatgpt", "text": "스키 타러 가자 \\"now\\"", "ts": "2026-11-03T10:15:00.123456Z", "type": "text"'
    '}'
)

MARKER_LINE = (
    '{"id": "k-0123", "text": "여행 계획 — 정리", "ts": "2026-11-03T10:15:00.000000Z"}'
)

TURN = Turn(id="t-1", ts="2026-11-03T10:15:00.123456Z", actor="Kate", role="user", type="text",
            text='스키 타러 가자 "now"', model=None, session="s-1", source="chatgpt")
MARKER = Marker(ts="2026-11-03T10:15:00.000000Z", text="여행 계획 — 정리", id="k-0123")
KEYS = VaultKeys(b"\x01" * 32, b"\x02" * 32)


def test_a_turn_line_is_unchanged_and_loads_back() -> None:
    assert TURN.to_json() == TURN_LINE
    assert Turn.from_json(TURN_LINE) == TURN


def test_a_marker_line_is_unchanged_and_loads_back() -> None:
    assert MARKER.to_json() == MARKER_LINE
    assert Marker.from_dict(json.loads(MARKER_LINE)) == MARKER


def _slug(source: Path) -> str:
    return f"{source.name}-{hashlib.sha256(str(source).encode()).hexdigest()[:12]}"


def test_quarantine_entries_are_unchanged(paths: HomePaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    quarantined_at = datetime(2026, 11, 3, 10, 15, 0, 123456, tzinfo=UTC)
    monkeypatch.setattr(quarantine_module.clock, "utc_now", lambda: quarantined_at)
    source = tmp_path / "in" / "chat.jsonl"
    source.parent.mkdir()
    source.write_bytes(b'{"ok": 1}\n' + b"x" * 50 + b"\n")
    box = Quarantine(paths)
    robot = '{"role": "robot", "text": "안녕"}'.encode()
    entries = [
        box.add(source, Rejected(3, "role: must be one of user, assistant, system, got 'robot'", raw=robot)),
        box.add(source, Rejected(4, "not JSON", raw=b"\xff\xfe broken")),
        box.add(source, Rejected(2, "too long", span=(10, 60))),
        box.add(source, Rejected(5, "empty")),
    ]
    expected = QUARANTINE_FILE.replace("@SOURCE@", json.dumps(str(source))[1:-1]).replace("@SLUG@", _slug(source))
    assert box.file_for(source).read_text(encoding="utf-8") == expected
    assert (paths.quarantine / f"{_slug(source)}-L2-77cf12060d47.raw").read_bytes() == b"x" * 50
    assert not any(entry.already for entry in entries)
    # an old quarantine file is read back: the same line again is known (nothing appended), also by a new reader
    again = Quarantine(paths).add(source, Rejected(3, "again", raw=robot))
    assert again.already
    assert box.file_for(source).read_text(encoding="utf-8") == expected
    assert again.to_dict() == {"file": str(source), "line": 3, "reason": "again"}


def test_reseal_intents_and_their_mac_are_unchanged(paths: HomePaths) -> None:
    intent = Intent(120, "ab" * 32, 120, "ab" * 32, 180, "ef" * 32)
    assert _intent_message("2026-11-01", intent) == INTENT_MESSAGE
    note_appends(paths, {"2026-11-01": AppendPlan(120, "ab" * 32, 180, "ef" * 32)}, KEYS)
    note_appends(paths, {"2026-11-02": AppendPlan(7, "cd" * 32, 9, "12" * 32)}, None)
    assert (paths.logs / ".pending-reseal.json").read_text(encoding="utf-8") == PENDING_FILE
    pending = load_pending(paths)
    assert intent_signed(KEYS, "2026-11-01", pending["2026-11-01"])
    assert not intent_signed(KEYS, "2026-11-02", pending["2026-11-02"])


def test_the_reports_keep_their_keys() -> None:
    problem = Problem("modified", "logs/2026/11/2026-11-01.jsonl", "changed")
    assert to_builtins(problem) == {"kind": "modified", "subject": "logs/2026/11/2026-11-01.jsonl",
                                    "detail": "changed"}
    seal = SealReport(sealed=["2026-11-01"], resealed=[], refused=[problem])
    # `reverie seal --json` prints it by dataclasses.asdict
    assert json.dumps(asdict(seal)) == ('{"sealed": ["2026-11-01"], "resealed": [], "refused": [{"kind": "modified", '
                                        '"subject": "logs/2026/11/2026-11-01.jsonl", "detail": "changed"}], '
                                        '"not_sealed": []}')
    report = IngestReport(files=2, added=5, duplicates=1,
                          quarantined=[QuarantineEntry("a.jsonl", 3, "bad", already=False)],
                          already_quarantined=[QuarantineEntry("a.jsonl", 9, "old", already=True)],
                          skipped={"zeta": 1, "alpha": 2}, sealed=["2026-11-01"], days={"2026-11-02", "2026-11-01"},
                          unsealed_reason="no passphrase available")
    assert report.to_dict() == {
        "files": 2, "added": 5, "duplicates": 1,
        "quarantined": [{"file": "a.jsonl", "line": 3, "reason": "bad"}],
        "already_quarantined": [{"file": "a.jsonl", "line": 9, "reason": "old"}],
        "skipped": {"alpha": 2, "zeta": 1}, "sealed": ["2026-11-01"], "resealed": [],
        "days": ["2026-11-01", "2026-11-02"], "unsealed": [], "unsealed_reason": "no passphrase available",
        "repaired": [], "not_read": [], "seal_problems": [], "not_sealed": [],
    }
    assert list(report.to_dict()["skipped"]) == ["alpha", "zeta"]


def test_an_old_intents_file_loads_and_a_broken_entry_explains_nothing(paths: HomePaths) -> None:
    (paths.logs / ".pending-reseal.json").write_text(OLD_PENDING_FILE[:-3] + (
        ',\n "2026-11-03": {"size": true, "sha256": "ef"},\n "2026-11-04": {"size": 5},\n'
        ' "2026-11-05": {"size": 5, "sha256": "ef", "mac": 7, "note": "x"}\n}\n'), encoding="utf-8")
    pending = load_pending(paths)
    assert sorted(pending) == ["2026-11-01", "2026-11-05"]
    assert pending["2026-11-01"].size == 120 and pending["2026-11-01"].after_sha256 is None
    assert not intent_signed(KEYS, "2026-11-01", pending["2026-11-01"])  # v1: it bound no appended bytes
    assert pending["2026-11-05"].mac is None and not intent_signed(KEYS, "2026-11-05", pending["2026-11-05"])
