"""A full disk (ENOSPC, EDQUOT, SQLite's FULL) anywhere is one line naming what could not be written,
exit 2, and nothing stored is lost: injected into the commands a reviewer filled the disk under."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from pathlib import Path

import apsw
import pytest

from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from tests.conftest import TEST_PASSPHRASE
from tests.helpers.curate import loose_notes

NEW = "a new passphrase, long enough"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from tui_app.cli.main import main

    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out, err = capsys.readouterr()
    return int(done.value.code or 0), out, err


def _fsync_full(monkeypatch: pytest.MonkeyPatch, code: int = errno.ENOSPC) -> None:
    def full(fd: int) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "fsync", full)


def _index_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every index connection stops growing where it stands (SQLite answers SQLITE_FULL)."""
    from core.index import connection

    class Capped(connection.IndexConnection):  # type: ignore[misc, name-defined]
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            pages = self.execute("PRAGMA page_count").fetchone()[0]
            self.execute(f"PRAGMA max_page_count = {max(int(pages), 1)}")

    monkeypatch.setattr(connection, "IndexConnection", Capped)


@pytest.fixture
def home(paths: HomePaths, keys: VaultKeys, monkeypatch: pytest.MonkeyPatch) -> HomePaths:
    monkeypatch.setenv("REVERIE_PASSPHRASE", TEST_PASSPHRASE)
    monkeypatch.setenv("REVERIE_NEW_PASSPHRASE", NEW)
    return paths


def _one_line(code: int, err: str, *names: str) -> None:
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "could not be written" in err or "could not write" in err, err
    assert all(name in err for name in names), (err, names)


def _intact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "verify", "--json")
    assert code == 0, (out, err)


FAULTS: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "enospc": _fsync_full,
    "edquot": lambda m: _fsync_full(m, errno.EDQUOT),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_passphrase_change_and_recovery_key(home: HomePaths, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    header = home.vault_header.read_bytes()
    for args in (("passphrase", "change"), ("passphrase", "recovery-key")):
        with pytest.MonkeyPatch.context() as faulty:
            FAULTS[fault](faulty)
            code, out, err = run(capsys, *args)
        _one_line(code, err, "vault.json")
        assert "disk quota exceeded" in err if fault == "edquot" else "no space left on device" in err
        assert home.vault_header.read_bytes() == header and not out
    _intact(capsys)


def test_draft_new_with_a_full_disk_and_a_full_index(home: HomePaths, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(capsys, "draft", "new", "first, written", "--json")[0] == 0
    with pytest.MonkeyPatch.context() as faulty:
        _fsync_full(faulty)
        code, _, err = run(capsys, "draft", "new", "the disk is full", "--json")
    _one_line(code, err, str(home.drafts))
    with pytest.MonkeyPatch.context() as faulty:
        _index_full(faulty)
        code, out, err = run(capsys, "draft", "new", "the index is full")
    assert code in (0, 2), err
    if code == 2:
        _one_line(code, err, "index")
    _intact(capsys)
    code, out, _ = run(capsys, "draft", "list", "--json")
    assert "first, written" in out


def test_reindex_with_a_full_index(home: HomePaths, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    day = home.logs / "2026" / "11" / "2026-11-29.jsonl"
    day.parent.mkdir(parents=True)
    turn = {"ts": "2026-11-29T10:00:00.000000Z", "actor": "me", "role": "user", "type": "text",
            "text": "a turn to index " * 40, "session": "s"}
    day.write_text("".join(json.dumps({**turn, "ts": f"2026-11-29T10:{i:02d}:00.000000Z"}) + "\n"
                           for i in range(50)), encoding="utf-8")
    with pytest.MonkeyPatch.context() as faulty:
        _index_full(faulty)
        code, _, err = run(capsys, "reindex", "--no-embed")
    _one_line(code, err, "search index", "database or disk is full")
    assert day.read_text(encoding="utf-8").count("\n") == 50  # the log, the source of truth, untouched


def test_curate_apply_with_a_full_disk(home: HomePaths, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from core.config import load_config, save_config

    notes = loose_notes(tmp_path)
    config = load_config(home.config)
    config.curation.report_only_runs = 0
    save_config(home.config, config)
    assert run(capsys, "curate", "scope", "add", "notes", "--kind", "markdown", "--path", str(notes))[0] == 0
    before = {p: p.read_bytes() for p in notes.rglob("*.md")}
    with pytest.MonkeyPatch.context() as faulty:
        _fsync_full(faulty)
        code, _, err = run(capsys, "curate", "apply", "--json")
    _one_line(code, err)
    after = {p: p.read_bytes() for p in notes.rglob("*.md")}
    for path, data in before.items():  # each record is where it was, or verified in cold storage
        assert after.get(path) == data or any(c.read_bytes() == data for c in home.cold.rglob(path.name))


def test_the_tui_error_dialog_line_names_what_could_not_be_written() -> None:
    from core.errors import disk_full
    from tui_app.widgets.format import one_line

    named = OSError(errno.ENOSPC, "No space left on device", "/home/me/drafts/d.json")
    assert one_line(named).startswith("/home/me/drafts/d.json: could not be written: no space left on device")
    try:
        try:
            raise apsw.FullError("database or disk is full")
        except apsw.FullError as exc:
            raise RuntimeError("while indexing") from exc
    except RuntimeError as wrapped:  # found through the chain, whatever wraps it
        assert one_line(wrapped).startswith("the search index (index.db) could not be written: database or disk")
    assert disk_full(OSError(errno.EACCES, "Permission denied", "/x")) is None
    assert disk_full(ValueError("no")) is None and "\n" not in one_line(named)
    assert one_line("a reason already in words") and disk_full("text") is None  # type: ignore[arg-type]
