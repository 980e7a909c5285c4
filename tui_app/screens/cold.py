"""Cold storage: every record curation moved, newest first, with when, why (the signals and the
rubric version) and its checksum; restore puts it back byte for byte.

A restore shows the SHA-256 the tombstone recorded and the cold copy's checksum computed just
before, asks, then the core writes the bytes back (never over a different file: that is refused,
and said so, with nothing changed), checks them, and the screen hashes the file once more.
Space marks several records to restore at once; ``v`` hashes every cold copy again; ``/`` filters
the list by its text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.widgets import DataTable, Static

from tui_app import messages
from tui_app.screens.base import ReverieScreen
from tui_app.screens.curation_format import ContentPart, cold_detail, short_sha, signal_list, tilde
from tui_app.screens.session import Session
from tui_app.views import curation_data as data
from tui_app.widgets.dialogs import ConfirmDialog, ErrorDialog
from tui_app.widgets.format import local_time, plural, preview, short_path
from tui_app.widgets.list_filter import FILTER_BINDING, ListFilter
from tui_app.widgets.tables import cursor_key

if TYPE_CHECKING:
    from core.curate.cold import ColdItem

SHOWN_IN_DIALOG = 3
EMPTY = "Cold storage is empty. Records that curation (F7) moves appear here, each one restorable."


def intact_cell(item: ColdItem) -> Content:
    if item.intact is None:
        return Content("")
    return Content.styled("✓ ok", "$text-success") if item.intact else Content.styled("✗ bad", "bold $text-error")


def verify_message(items: list[ColdItem]) -> tuple[str, SeverityLevel]:
    """What a fresh hash of every cold copy found, worded for one copy and for many, and its severity."""
    bad = sum(1 for i in items if i.intact is False)
    if bad and len(items) == 1:
        return "The cold copy does not match its recorded checksum.", "error"
    if bad == 1:
        return f"1 of {len(items)} cold copies does not match its recorded checksum.", "error"
    if bad:
        return f"{bad} of {len(items)} cold copies do not match their recorded checksums.", "error"
    if not items:
        return "Cold storage is empty: nothing to check.", "information"
    if len(items) == 1:
        return "The cold copy matches its recorded checksum.", "information"
    return f"All {len(items)} cold copies match their recorded checksums.", "information"


def restore_body(checks: list[data.RestoreCheck]) -> str:
    """Where each record goes back to, the SHA-256 its tombstone recorded, and the cold copy's
    SHA-256 computed just now."""
    lines = []
    for check in checks[:SHOWN_IN_DIALOG]:
        stone, places = check.item.stone, check.item.places
        verdict = "✓ the same: the copy is intact" if check.copy_ok else "✗ NOT the same: the restore will be refused"
        if lines:
            lines.append("")
        lines += [
            f"{stone.scope}:{stone.path}",
            f"back to   {short_path(places.target) if places else stone.path}",
            f"recorded  sha256 {stone.sha256}",
            f"cold copy sha256 {check.cold_sha256 or '(missing)'}",
            f"          {verdict}",
        ]
        if check.occupied_by is not None and check.occupied_by != stone.sha256:
            lines.append("A different file stands at that path now: the restore will be refused, nothing changes.")
    if len(checks) > SHOWN_IN_DIALOG:
        lines.append(f"… and {plural(len(checks) - SHOWN_IN_DIALOG, 'more record')}, each checked the same way")
    return "\n".join(lines)


class ColdStorageScreen(ReverieScreen):
    SECTION = "cold"
    RESUME_ONLY_IF_CHANGED = True  # shown again, reloaded only when something in the data home changed
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "restore", "Restore…", id="cold.restore", tooltip="Put the marked or highlighted record back"),
        Binding("space", "mark", "Mark", id="cold.mark", tooltip="Mark the highlighted record to restore several"),
        Binding("v", "verify", "Verify", id="cold.verify", tooltip="Hash every cold copy again"),
        FILTER_BINDING,
        Binding("ctrl+r", "reload", "Refresh", id="refresh", tooltip="Read cold storage again"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.items: list[ColdItem] | None = None
        self.marked: set[str] = set()

    def compose_body(self) -> ComposeResult:
        with Vertical(id="cold"):
            yield Static(id="cold-summary")
            yield ListFilter("#cold-table", blink=self.blink, id="cold-find")
            yield DataTable(id="cold-table", cursor_type="row")
            with VerticalScroll(id="cold-detail"):
                yield Static(id="cold-detail-text")

    # --- loading -------------------------------------------------------------------------------------

    def reload(self) -> None:
        if self.items is None:
            self.set_busy(True, self.query_one(DataTable))
        self.load_items(verify=False)

    def action_verify(self) -> None:
        self.set_busy(True, self.query_one(DataTable))
        self.load_items(verify=True)

    @work(thread=True, exclusive=True, exit_on_error=False, group="load", description="read cold storage")
    def load_items(self, verify: bool) -> None:
        items = data.cold_items(self.session, verify=verify)
        if not self.cancelled():
            self.post_message(messages.ColdLoaded(items, verify))

    def on_cold_loaded(self, message: messages.ColdLoaded) -> None:
        self.set_busy(False)
        self.items = message.items
        self.marked &= {i.stone.move_id for i in message.items}
        self.fill()
        if message.verified:
            text, severity = verify_message(message.items)
            self.notify(text, severity=severity)

    # --- showing -------------------------------------------------------------------------------------

    def on_resize(self) -> None:
        if self.items is not None:
            self.fill()

    def fill(self) -> None:
        table = self.query_one(DataTable)
        keep = self.highlighted_id()
        table.clear(columns=True)
        fixed = (("", 1), ("Moved", 16), ("Why", 22), ("Copy", 5))
        record = max(self.size.width - sum(size for _, size in fixed) - 2 * (len(fixed) + 1) - 4, 16)
        for label, size in (*fixed[:2], ("Record", record), *fixed[2:]):
            table.add_column(label, width=size)
        shown = self.visible()
        for item in shown:
            s = item.stone
            mark = Content.styled("●", "bold $text-accent") if s.move_id in self.marked else Content("")
            table.add_row(
                mark,
                local_time(s.moved_at, self.session.zone),
                Content(preview(f"{s.scope}:{s.path}", record)),
                Content(signal_list(s.signals)),
                intact_cell(item),
                key=s.move_id,
            )
        ids = [i.stone.move_id for i in shown]
        if keep in ids:
            table.move_cursor(row=ids.index(keep))
        self.query_one(ListFilter).show_count(len(shown), len(self.items or []))
        self.query_one("#cold-summary", Static).update(self.summary())
        self.show_detail()

    def visible(self) -> list[ColdItem]:
        """The records the filter keeps (by what their row shows)."""
        found = self.query_one(ListFilter)
        zone = self.session.zone
        return [
            i
            for i in self.items or []
            if found.keeps(
                local_time(i.stone.moved_at, zone),
                f"{i.stone.scope}:{i.stone.path}",
                signal_list(i.stone.signals),
                intact_cell(i),
            )
        ]

    def action_filter(self) -> None:
        self.query_one(ListFilter).open()

    def on_list_filter_changed(self) -> None:
        if self.items is not None:
            self.fill()

    def summary(self) -> Content:
        items = self.items or []
        if not items:
            return Content.styled(EMPTY, "dim") if self.items is not None else Content("")
        parts: list[ContentPart] = [(plural(len(items), "record") + " in cold storage", "bold")]
        if self.marked:
            parts.append((f" · {len(self.marked)} marked for restore", "$text-accent"))
        typed = self.query_one(ListFilter).text.strip()
        if typed and not self.visible():
            parts.append((f" · none match “{typed}” (Esc clears the filter)", "$text-warning"))
        parts.append((" · nothing here was deleted: r puts one back", "dim"))
        return Content.assemble(*parts)

    def highlighted_id(self) -> str | None:
        return cursor_key(self.query_one(DataTable))

    def highlighted(self) -> ColdItem | None:
        move_id = self.highlighted_id()
        return next((i for i in self.items or [] if i.stone.move_id == move_id), None)

    @on(DataTable.RowHighlighted)
    def show_detail(self) -> None:
        item = self.highlighted()
        text = self.query_one("#cold-detail-text", Static)
        text.update(cold_detail(item, self.session.now(), self.session.zone) if item else "")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("restore", "mark"):
            return True if self.highlighted() is not None else None
        return True

    # --- restoring -----------------------------------------------------------------------------------------

    def action_mark(self) -> None:
        item = self.highlighted()
        if item is None:
            return
        self.marked ^= {item.stone.move_id}
        self.fill()
        table = self.query_one(DataTable)
        if table.cursor_row < table.row_count - 1:
            table.move_cursor(row=table.cursor_row + 1)

    def targets(self) -> list[ColdItem]:
        items = self.items or []
        marked = [i for i in items if i.stone.move_id in self.marked]
        highlighted = self.highlighted()
        return marked or ([highlighted] if highlighted else [])

    def action_restore(self) -> None:
        targets = self.targets()
        if targets:
            self.check_restores(targets)

    @work(thread=True, exclusive=True, exit_on_error=False, group="restore", description="check the cold copies")
    def check_restores(self, targets: list[ColdItem]) -> None:
        self.post_message(messages.RestoreChecked([data.check_restore(item) for item in targets]))

    def on_restore_checked(self, message: messages.RestoreChecked) -> None:
        checks = message.checks
        if not any(check.copy_ok for check in checks):
            lines = [
                f"{c.item.stone.scope}:{c.item.stone.path}: the cold copy is missing or does not match its "
                f"recorded sha256 {short_sha(c.item.stone.sha256)}"
                for c in checks
            ]
            self.app.push_screen(ErrorDialog("Cannot restore: no verified copy", "\n".join(lines)))
            return
        count = plural(len(checks), "record")
        dialog = ConfirmDialog(
            f"Restore {count}?",
            restore_body(checks),
            yes_label="Restore",
            warning="The bytes go back exactly and are checked against the sha256 above; the tombstone and "
            "the cold copy are removed after. A restore teaches the rubric that this move was a misjudgment.",
        )
        dialog.add_class("restore-dialog")
        items = [c.item for c in checks]
        self.app.push_screen(dialog, lambda yes: self.restore_items(items) if yes else None)

    @work(thread=True, exclusive=True, exit_on_error=False, group="restore", description="restore the records")
    def restore_items(self, items: list[ColdItem]) -> None:
        outcomes, errors = data.restore(self.session, items)
        self.post_message(messages.RestoresDone(outcomes, errors))

    def on_restores_done(self, message: messages.RestoresDone) -> None:
        self.marked.clear()
        for outcome in message.outcomes:
            check = "verified: the file hashes to it again" if outcome.verified else "✗ NOT verified"
            what = "Already back" if outcome.already else "Restored"
            self.notify(
                f"{short_path(outcome.path)}\nsha256 {short_sha(outcome.sha256)} · {check}",
                title=what,
                severity="information" if outcome.verified else "error",
                markup=False,
                timeout=8,
            )
        if message.errors:
            title = "Restore refused" if not message.outcomes else "Some records were not restored"
            self.app.push_screen(ErrorDialog(title, "\n".join(tilde(error) for error in message.errors)))
        self.reload()
