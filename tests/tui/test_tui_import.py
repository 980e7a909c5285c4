"""Import and reindex from the TUI: the sources found on this machine with counts, importing one with
progress, stopping with Esc between batches (a second import adds nothing twice), an export pointed
at through the path dialog with a quarantined line reported by file and line, the home's index line
(lag and vector coverage), and the offer after a new vault is created."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Static

from core.demo.build import DemoHome
from core.index import SearchIndex
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    settle,
)
from tui_app.screens.home import HomeScreen
from tui_app.screens.importer import ExportPathDialog, ImportScreen
from tui_app.views import imports
from tui_app.views.imports import batches, check_path

SESSION = "33333333-3333-4333-8333-333333333333"


def claude_transcript(path: Path, session: str, turns: int, word: str) -> None:
    lines = []
    for n in range(turns):
        kind = "user" if n % 2 == 0 else "assistant"
        message = {"role": kind, "content": f"{word} question {n}"} if kind == "user" else {
            "role": "assistant", "model": "claude-opus-4", "content": [{"type": "text", "text": f"{word} answer {n}"}]}
        lines.append(json.dumps({"type": kind, "uuid": f"{session[:8]}-0000-4000-8000-{n:012d}", "sessionId": session,
                                 "timestamp": f"2026-11-0{1 + n % 5}T10:{n % 60:02d}:00.000Z", "message": message}))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture(name="machine")
def machine_fixture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder with a Claude Code projects tree of three transcripts (HOME points at it)."""
    home = tmp_path / "me"
    for i in range(3):
        session = f"{i}{SESSION[1:]}"
        path = home / ".claude" / "projects" / "-home-me-app" / f"{session}.jsonl"
        claude_transcript(path, session, 6, f"zeppelin{i}")
    monkeypatch.setenv("HOME", str(home))
    return home


def report(app: object) -> str:
    return str(app.screen.query_one("#import-report", Static).render())  # type: ignore[attr-defined]


def indexed_turns(demo: DemoHome, word: str) -> int:
    with SearchIndex.open(demo.paths) as index:
        return sum(1 for _ in index.conn.execute("SELECT 1 FROM turns WHERE text LIKE ?", (f"%{word}%",)))


def test_batches_group_files_by_size() -> None:
    assert batches([3, 3, 3, 10, 1], limit=6) == [[0, 1], [2], [3], [4]]
    assert batches([]) == []


def test_a_typed_path_must_exist(tmp_path: Path) -> None:
    (tmp_path / "export.json").write_text("[]")
    assert check_path("~/export.json", tmp_path) == tmp_path / "export.json"
    with pytest.raises(ValueError, match=r"nowhere\.json: no such file or folder"):
        check_path("~/nowhere.json", tmp_path)
    with pytest.raises(ValueError, match="path: type the path"):
        check_path("  ", tmp_path)


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
async def test_import_the_found_source_with_progress(
    demo: DemoHome, machine: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(demo)
    seen: list[tuple[int, int]] = []
    async with app.run_test(size=size) as pilot:
        await press(pilot, "i")
        screen = app.screen
        assert isinstance(screen, ImportScreen)
        await settle(pilot)
        table = screen.query_one("#import-sources", DataTable)
        assert table.row_count == 1
        row = [str(cell) for cell in table.get_row_at(0)]
        assert row[0] == "Claude Code" and row[1] == "~/.claude/projects" and row[2] == "3"
        assert "turns and" in str(screen.query_one("#import-status", Static).render())
        original = ImportScreen.on_import_progress

        def spy(self: ImportScreen, message: object) -> None:
            seen.append((message.done, message.total))  # type: ignore[attr-defined]
            original(self, message)  # type: ignore[arg-type]

        monkeypatch.setattr(ImportScreen, "on_import_progress", spy)
        await press(pilot, "enter")
        text = report(app)
        assert "Imported 3 files: 21 turns added" in text  # 18 turns and a header per session
        assert "Searchable now" in text
        assert seen and seen[-1][0] == seen[-1][1] > 0
        assert indexed_turns(demo, "zeppelin1") == 6  # searchable when the import returns
        await press(pilot, "enter")  # again: nothing twice
        assert "0 turns added, 21 already in the log" in report(app)
        await press(pilot, "escape")
        assert isinstance(app.screen, HomeScreen)


async def test_escape_stops_between_batches_and_keeps_what_was_imported(
    demo: DemoHome, machine: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(imports, "BATCH_BYTES", 1)  # one file per batch
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "i")
        screen = app.screen
        assert isinstance(screen, ImportScreen)
        log = screen.session.workbench.log
        real_ingest = log.ingest
        calls: list[int] = []

        def ingest_then_escape(*args: object, **kwargs: object) -> object:
            outcome = real_ingest(*args, **kwargs)  # type: ignore[arg-type]
            calls.append(1)
            if len(calls) == 1:
                app.call_from_thread(screen.action_stop)  # Esc while the first batch runs
            return outcome

        monkeypatch.setattr(log, "ingest", ingest_then_escape)
        await press(pilot, "enter")
        assert screen.running or "Stopped after 1 of 3 files" in report(app)
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert "Stopped after 1 of 3 files: 7 turns added" in report(app), report(app)
        assert "Run the import again" in report(app) and len(calls) == 1
        assert isinstance(app.screen, ImportScreen)  # Esc stopped the import, it did not leave
        await press(pilot, "a")
        assert "Imported 3 files: 14 turns added, 7 already in the log" in report(app)


async def test_an_export_through_the_path_dialog_reports_quarantined_lines(
    demo: DemoHome, machine: Path
) -> None:
    export = machine / "Downloads" / "chats.jsonl"
    export.parent.mkdir(parents=True)
    good = {"ts": "2026-11-02T09:00:00Z", "role": "user", "actor": "me", "text": "quokka sighting", "session": "x"}
    export.write_text(json.dumps(good) + "\n{not json\n", encoding="utf-8")
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "i", "o")
        dialog = app.screen
        assert isinstance(dialog, ExportPathDialog)
        field = dialog.query_one("#import-path", Input)
        field.value = "~/Downloads/missing.json"
        await press(pilot, "enter")
        assert "missing.json: no such file or folder" in str(dialog.query_one("#import-path-error", Static).render())
        field.value = "~/Downloads/chats.jsonl"
        await press(pilot, "enter")
        assert isinstance(app.screen, ImportScreen)
        text = report(app)
        assert "1 turn added" in text
        assert "1 line quarantined" in text and "chats.jsonl:2:" in text
        assert indexed_turns(demo, "quokka") == 1


async def test_reindex_from_the_import_screen(demo: DemoHome, machine: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "i", "r")
        assert report(app).startswith("Reindexed: ")


async def test_home_shows_the_index_line(demo: DemoHome, machine: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        notices = str(app.screen.query_one("#home-notices", Static).render())
        assert "Index:" in notices and "up to date with the log" in notices and "vectors for" in notices


async def test_browsing_picks_a_file_into_the_path(demo: DemoHome, machine: Path) -> None:
    from textual.widgets import DirectoryTree

    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "i", "o")
        dialog = app.screen
        assert isinstance(dialog, ExportPathDialog)
        await pilot.press("ctrl+b")  # the tree keeps a loader worker: pause, do not wait for workers
        await pilot.pause(0.3)
        tree = dialog.query_one("#import-path-tree", DirectoryTree)
        assert app.focused is tree and tree.path == machine
        picked = machine / ".claude" / "projects" / "-home-me-app" / f"0{SESSION[1:]}.jsonl"
        dialog.post_message(DirectoryTree.FileSelected(tree.root, picked))
        await pilot.pause(0.1)
        assert dialog.query_one("#import-path", Input).value == str(picked)
        assert app.focused is dialog.query_one("#import-path", Input)
        await pilot.press("enter")
        await pilot.pause(0.1)
        assert isinstance(app.screen, ImportScreen)
        await settle(pilot)
        assert "Imported 1 file: 7 turns added" in report(app)


async def test_an_empty_claude_folder_is_nothing_found_not_zero_bytes(
    demo: DemoHome, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """~/.claude/projects exists but holds no transcript: no "0 · 0 Bytes" row; it says nothing was found."""
    home = tmp_path / "empty-me"
    (home / ".claude" / "projects" / "-home-me-app").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "i")
        screen = app.screen
        assert isinstance(screen, ImportScreen)
        assert screen.query_one("#import-sources", DataTable).row_count == 0
        assert screen.sources == []
        text = report(app)
        assert "Nothing found in ~/.claude/projects or ~/.codex/sessions" in text and "Bytes" not in text
        await press(pilot, "a", "enter")  # nothing to import: neither key starts an import
        assert not screen.running and "Imported" not in report(app)


async def test_an_empty_folder_beside_a_full_one_is_named_once_not_listed(
    demo: DemoHome, machine: Path
) -> None:
    (machine / ".codex" / "sessions").mkdir(parents=True)
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "i")
        screen = app.screen
        table = screen.query_one("#import-sources", DataTable)
        assert table.row_count == 1 and str(table.get_row_at(0)[0]) == "Claude Code"
        status = str(screen.query_one("#import-status", Static).render())
        assert "Nothing to import in ~/.codex/sessions." in status
        assert "Nothing found" not in report(app)
