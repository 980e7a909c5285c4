"""The cold-storage screen driven by keys: what was moved, when and why; a restore that shows the
checksum first and is verified after; a refusal to overwrite a different file, said plainly with
nothing changed; re-hashing every copy; restoring several at once."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from textual.widgets import Button, Static

from core.config import load_config
from core.curate import engine
from core.curate.cold import ColdItem, list_cold
from core.curate.learning import read_restores
from core.demo.build import DEMO_STEPS, DemoHome, build_demo_home
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    SIZES,
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    on_screen,
    press,
)
from tests.helpers.tui_curation import (
    IN_COLD,
    SCOPE,
    assert_nothing_lost,
    highlight,
    records,
    row_keys,
    scope_root,
    sha,
    text_of,
)
from tui_app.screens.cold import ColdStorageScreen
from tui_app.widgets.dialogs import ConfirmDialog, DialogText, ErrorDialog

SIZE = (100, 30)


def cold(demo: DemoHome) -> list[ColdItem]:
    return list_cold(demo.paths, load_config(demo.paths.config))


def dialog_text(app: object) -> str:
    screen = app.screen  # type: ignore[attr-defined]
    return "\n".join(str(w.render()) for w in screen.query(".dialog-body, .dialog-warning").results(Static))


async def test_cold_storage_lists_what_moved_when_and_why(demo: DemoHome) -> None:
    (item,) = cold(demo)
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "k")  # from home
        assert isinstance(app.screen, ColdStorageScreen)
        assert row_keys(app, "cold-table") == [item.stone.move_id]
        assert "1 record in cold storage" in text_of(app, "#cold-summary")
        detail = text_of(app, "#cold-detail-text")
        assert f"{SCOPE}:{IN_COLD}" in detail
        assert "moved 2026-11-02 12:00 (8 days ago), approved by you, rubric v1" in detail
        assert item.stone.sha256 in detail and "+ signal expired" in detail and "+ signal orphaned" in detail
        assert f"tombstone {IN_COLD}.tombstone beside where it was" in detail
        assert item.stone.cold_path in detail


async def test_restore_shows_the_checksum_then_puts_the_bytes_back_verified(demo: DemoHome) -> None:
    root = scope_root(demo)
    (item,) = cold(demo)
    assert item.places is not None
    original = item.places.cold.read_bytes()
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f8", "r")
        assert isinstance(app.screen, ConfirmDialog)
        body = dialog_text(app)
        assert f"recorded  sha256 {item.stone.sha256}" in body
        assert f"cold copy sha256 {item.stone.sha256}\n          ✓ the same: the copy is intact" in body
        assert f"back to   {root / IN_COLD}" in body
        assert (root / f"{IN_COLD}.tombstone").exists()  # nothing happens before the answer
        await press(pilot, "y")
        assert isinstance(app.screen, ColdStorageScreen)
        assert (root / IN_COLD).read_bytes() == original
        assert sha(root / IN_COLD) == item.stone.sha256
        assert not (root / f"{IN_COLD}.tombstone").exists() and not item.places.cold.exists()
        assert cold(demo) == [] and row_keys(app, "cold-table") == []
        (logged,) = read_restores(demo.paths)
        assert logged["move_id"] == item.stone.move_id and logged["signals"] == ["expired", "orphaned"]
        assert "Cold storage is empty" in text_of(app, "#cold-summary")


async def test_restore_refuses_to_overwrite_a_different_file(demo: DemoHome) -> None:
    root = scope_root(demo)
    (item,) = cold(demo)
    (root / IN_COLD).write_text("a new note written since the move\n", encoding="utf-8")
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f8", "r")
        assert "A different file stands at that path now: the restore will be refused" in dialog_text(app)
        await press(pilot, "y")
        assert isinstance(app.screen, ErrorDialog)
        assert "Restore refused" in str(app.screen.query_one(".dialog-title", Static).render())
        message = dialog_text(app)
        assert "a different file now stands where the record was; nothing was changed" in message
        await press(pilot, "escape")
        assert isinstance(app.screen, ColdStorageScreen)
    assert (root / IN_COLD).read_text(encoding="utf-8") == "a new note written since the move\n"
    assert [i.stone.move_id for i in cold(demo)] == [item.stone.move_id]  # still restorable, untouched
    assert (root / f"{IN_COLD}.tombstone").exists() and read_restores(demo.paths) == []


async def test_verify_finds_a_damaged_copy_and_restore_refuses_it(demo: DemoHome) -> None:
    root = scope_root(demo)
    (item,) = cold(demo)
    assert item.places is not None
    item.places.cold.write_bytes(b"bit rot\n")
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f8", "v")
        table = app.screen.query_one("#cold-table")
        assert "✗ bad" in str(table.get_row_at(0)[-1])  # type: ignore[attr-defined]
        assert "cold copy does not match" in text_of(app, "#cold-detail-text")
        await press(pilot, "r")
        assert isinstance(app.screen, ErrorDialog)
        assert "no verified copy" in str(app.screen.query_one(".dialog-title", Static).render())
        await press(pilot, "escape")
    assert not (root / IN_COLD).exists() and (root / f"{IN_COLD}.tombstone").exists()


async def test_mark_several_and_restore_them_together(demo: DemoHome, frozen_clock: datetime) -> None:
    root = scope_root(demo)
    before = records(root)
    for rel in ("reference_conference_cfp.md", "project_tokenizer_spike.md"):
        engine.decide_candidate(demo.paths, f"{SCOPE}:{rel}", "approved", now=frozen_clock)
    config = load_config(demo.paths.config)
    report = engine.apply(demo.paths, config, unlock=lambda: demo.keys, now=frozen_clock)
    assert len(report.moved) == 2
    assert_nothing_lost(demo, before)
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f8")
        assert len(row_keys(app, "cold-table")) == 3
        moved_now = [i.stone.move_id for i in cold(demo) if i.stone.path != IN_COLD]
        highlight(app, "cold-table", moved_now[0])
        await press(pilot, "space")
        highlight(app, "cold-table", moved_now[1])
        await press(pilot, "space")
        assert "2 marked for restore" in text_of(app, "#cold-summary")
        await press(pilot, "r")
        assert dialog_text(app).count("✓ the same") == 2
        await press(pilot, "y")
        assert [i.stone.path for i in cold(demo)] == [IN_COLD]
    assert records(root) == before


async def test_empty_cold_storage_says_so(tmp_path: Path, frozen_clock: datetime) -> None:
    steps = [(name, step) for name, step in DEMO_STEPS if name != "curation"]
    demo = build_demo_home(tmp_path / "plain", now=frozen_clock, steps=steps)
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "f8")
        assert "Cold storage is empty" in text_of(app, "#cold-summary")
        assert row_keys(app, "cold-table") == []
        await press(pilot, "r")  # nothing to restore: nothing happens
        assert isinstance(app.screen, ColdStorageScreen)


def fits(app: object, dialog: ConfirmDialog | ErrorDialog) -> bool:
    """Title, text and buttons all inside the dialog's box and the box inside the terminal."""
    box = dialog.query_one(".dialog-box").region
    parts = [dialog.query_one(".dialog-title"), dialog.query_one(DialogText), *dialog.query(Button)]
    return on_screen(app, dialog.query_one(".dialog-box"), *parts) and all(  # type: ignore[arg-type]
        box.contains_region(part.region) for part in parts
    )


@pytest.mark.parametrize("size", SIZES)
async def test_the_restore_confirmation_fits_the_terminal(demo: DemoHome, size: tuple[int, int]) -> None:
    """At 80x24 the checksums, the long path and the warning need more rows than the box has left
    with bordered buttons: the buttons stay on screen (flat below 30 rows) and the text scrolls."""
    app = make_app(demo)
    async with app.run_test(size=size) as pilot:
        await press(pilot, "f8", "r")
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        assert fits(app, dialog), [(w, w.region) for w in dialog.query("Button, .dialog-box, DialogText")]
        assert {b.region.height for b in dialog.query(Button)} == ({1} if size[1] < 30 else {3})
        text = dialog.query_one(DialogText)
        await press(pilot, *["down"] * text.max_scroll_y)  # the end of the text, whatever the height
        assert text.scroll_y == text.max_scroll_y
        warning = dialog.query_one(".dialog-warning")
        assert text.region.contains_region(warning.region), (text.region, warning.region)
        assert app.screen.focused is dialog.query_one("#yes", Button)
        await press(pilot, "y")
        assert isinstance(app.screen, ColdStorageScreen) and cold(demo) == []


async def test_a_confirmation_longer_than_the_terminal_scrolls_between_title_and_buttons(demo: DemoHome) -> None:
    app = make_app(demo)
    answers: list[bool | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        body = "\n".join(f"line {n}" for n in range(1, 41))
        dialog = ConfirmDialog("Restore 40 records?", body, yes_label="Restore", warning="The last words.")
        await app.push_screen(dialog, answers.append)
        await pilot.pause()
        text = dialog.query_one(DialogText)
        assert fits(app, dialog) and text.max_scroll_y > 0
        await press(pilot, "down", "down")
        assert text.scroll_y == 2
        await press(pilot, *["down"] * text.max_scroll_y)
        assert text.scroll_y == text.max_scroll_y
        assert text.region.contains_region(dialog.query_one(".dialog-warning").region)
        await press(pilot, *["up"] * text.max_scroll_y)
        assert text.scroll_y == 0
        await press(pilot, "n")
    assert answers == [False]
