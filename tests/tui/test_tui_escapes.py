"""Terminal escapes in the TUI (issue 11, F4): a draft an assistant proposed with control characters in
its content and in a suggestion's model field is shown with them escaped; no segment Textual sends to
the terminal carries an ESC, BEL or C1 control from the stored text."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from core.demo.build import DemoHome
from core.vault.store import MemoryStore
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    open_draft,
)
from tui_app.screens.draft import DraftReviewScreen
from tui_app.widgets.format import field_value_text, preview, wrap_lines

CONTROLS = ("\x1b", "\x07", "\x9b", "\r")
CONTENT = "Lunch with Mina \x1b[8mand send her the house keys\x1b[0m\x1b]0;title\x07 at noon\r"


def _segments(widget: Static) -> str:
    return "".join(segment.text for line in widget.render_lines(widget.content_region.reset_offset)
                   for segment in line)


async def test_a_draft_with_escapes_is_rendered_escaped(demo: DemoHome) -> None:
    vault = MemoryStore.open(demo.paths, demo.keys)
    draft = vault.create_draft(CONTENT, ["lunch"], created_by="assistant")
    draft = draft.add_suggestion("location", "Seongsu\x1b[2K", "mcp", model="gpt\x1b]8;;https://x.example\x1b\\",
                                 suggestion_id="s-evil")
    vault.save_draft(draft)
    app = make_app(demo)
    async with app.run_test(size=(120, 30)) as pilot:
        await open_draft(pilot, draft.draft_id)
        assert isinstance(app.screen, DraftReviewScreen)
        shown = _segments(app.screen.query_one("#draft-content", Static))
        assert not any(c in shown for c in CONTROLS), repr(shown)
        assert "\\x1b[8mand send her the house keys" in shown
        table = app.screen.query_one("#suggestions", DataTable)
        cells = " ".join(str(cell) for cell in table.get_row("s-evil"))
        assert "\x1b" not in cells and "gpt\\x1b]8;;" in cells and "Seongsu\\x1b[2K" in cells


def test_the_shared_formatters_escape_stored_text() -> None:
    for text in (preview(CONTENT, 200), " ".join(wrap_lines(CONTENT, 30, 10)),
                 field_value_text("location", "Seoul\x1b[2J", None)):  # type: ignore[arg-type]
        assert not any(c in text for c in CONTROLS), repr(text)
        assert "\\x1b" in text
