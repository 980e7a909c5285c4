"""Import and reindex from the TUI (``i`` on the home screen, and offered once a vault is created).

The screen lists what there is to import on this machine (Claude Code's and Codex's transcript
folders) with file counts and sizes, and the index's state (turns and memories indexed, vector
coverage, how far the log is ahead). Enter imports the highlighted source, ``a`` every one, ``o``
an export the person points at (a ChatGPT ``conversations.json``, any file or folder), ``r``
reindexes. Long work shows a progress bar; Esc stops between two batches and keeps what was
imported. The report lists quarantined lines with their file and line number.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, DirectoryTree, Input, ProgressBar, Static

from tui_app import messages
from tui_app.screens.base import ReverieScreen
from tui_app.screens.session import Session
from tui_app.views.imports import (
    KNOWN_SOURCES,
    FoundSource,
    check_path,
    find_sources,
    index_status_line,
    run_import,
    run_reindex,
)
from tui_app.widgets.humane import size_text
from tui_app.widgets.tables import RecordTable


class ExportPathDialog(ModalScreen[Path | None]):
    """Point at an export: type a path, or browse the folders under the home folder (ctrl+b; the tree
    is made only then: it keeps a loader running while it is shown)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="import.path_cancel", tooltip="Back without choosing"),
        Binding("ctrl+b", "browse", "Browse", id="import.path_browse", tooltip="Pick the file in a folder tree"),
    ]

    def __init__(self, home: Path, *, blink: bool = False) -> None:
        super().__init__(id="import-path-dialog")
        self.home = home
        self.blink = blink

    def compose(self) -> ComposeResult:
        with Vertical(id="import-path-box"):
            yield Static(
                "Import an export: a ChatGPT conversations.json, a .jsonl, or a folder", id="import-path-title"
            )
            field = Input(placeholder="~/Downloads/conversations.json", id="import-path", compact=True)
            field.cursor_blink = self.blink
            yield field
            yield Static(id="import-path-error")
            yield Static("Enter imports the path · ctrl+b browses the folders (Enter on a file picks it) · Esc "
                         "cancels", id="import-path-help")

    def on_mount(self) -> None:
        self.query_one("#import-path", Input).focus()

    def action_browse(self) -> None:
        trees = self.query("#import-path-tree")
        if trees:
            trees.first().focus()
            return
        tree = DirectoryTree(self.home, id="import-path-tree")
        self.query_one("#import-path-box").mount(tree, before="#import-path-help")
        tree.focus()

    @on(DirectoryTree.FileSelected)
    def picked(self, event: DirectoryTree.FileSelected) -> None:
        field = self.query_one("#import-path", Input)
        field.value = str(event.path)
        field.focus()

    @on(Input.Submitted, "#import-path")
    def submitted(self, event: Input.Submitted) -> None:
        try:
            path = check_path(event.value, self.home)
        except ValueError as exc:
            self.query_one("#import-path-error", Static).update(str(exc))
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)


class SourceTable(RecordTable):
    """The sources found: Enter imports the highlighted one (and says so in the footer, not "Open")."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Import", id="import.one", tooltip="Import the highlighted source"),
    ]


class ImportScreen(ReverieScreen):
    SECTION = "home"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "import_highlighted", "Import", id="import.one", tooltip="Import the highlighted source"),
        Binding("a", "import_all", "All", id="import.all", tooltip="Import every source found on this machine"),
        Binding("o", "import_other", "Other…", id="import.other", tooltip="Import an export you point at"),
        Binding("r", "reindex", "Reindex", id="import.reindex", tooltip="Bring the index up to date with the log"),
        Binding("escape", "stop", "Stop", id="import.stop",
                tooltip="Stop after the current batch (what was imported stays)"),
        Binding("escape", "back", "Back", id="back", tooltip="Back to the home screen"),
    ]

    def __init__(self, session: Session, *, home: Path | None = None, first_run: bool = False) -> None:
        super().__init__(session)
        self.home = home if home is not None else Path.home()
        self.first_run = first_run
        self.sources: list[FoundSource] = []
        self.running = False
        self.stop = threading.Event()  # Esc: the import stops between two batches, the reindex between files

    def compose_body(self) -> ComposeResult:
        with Vertical(id="import"):
            intro = (
                "New vault. Bring in the conversations found on this machine now, or Esc to start empty "
                "(i on the home screen comes back here)."
                if self.first_run
                else "Import conversations into the log: every turn kept as it was, then indexed before the "
                "import ends."
            )
            yield Static(intro, id="import-intro")
            yield Static(id="import-status")
            yield SourceTable(id="import-sources", cursor_type="row", zebra_stripes=True)
            with Horizontal(id="import-progress"):
                yield Static(id="import-progress-label")
                yield ProgressBar(id="import-progress-bar", show_eta=False)
            yield Static(id="import-report")

    def on_mount(self) -> None:
        self.query_one("#import-progress").display = False
        table = self.query_one("#import-sources", DataTable)
        for label, width in (("Source", 14), ("Path", 36), ("Files", 7), ("Size", 10)):
            table.add_column(label, width=width)
        table.focus()

    # --- what there is ----------------------------------------------------------------------------

    def reload(self) -> None:
        if not self.running:
            self.look()

    @work(thread=True, exclusive=True, exit_on_error=False, group="load", description="look for conversations")
    def look(self) -> None:
        workbench = self.session.workbench
        sources = find_sources(workbench, self.home)
        status = index_status_line(workbench.freshness())
        if not self.cancelled():
            self.post_message(messages.ImportSourcesFound(sources, status))

    def on_import_sources_found(self, message: messages.ImportSourcesFound) -> None:
        # A folder that exists but holds nothing to read is not a source: "0 · 0 Bytes" read as broken
        self.sources = [source for source in message.sources if source.files]
        empty = [self.shown_path(source.path) for source in message.sources if not source.files]
        status = f"Index: {message.status}"
        if empty and self.sources:
            status += f"\nNothing to import in {' or '.join(empty)}."
        self.query_one("#import-status", Static).update(status)
        table = self.query_one("#import-sources", DataTable)
        table.clear()
        for source in self.sources:
            table.add_row(source.label, self.shown_path(source.path), f"{source.files:,}", size_text(source.bytes),
                          key=str(source.path))
        self.refresh_bindings()
        if not self.sources:
            where = " or ".join(f"~/{relative}" for _, relative in KNOWN_SOURCES)
            self.query_one("#import-report", Static).update(
                f"Nothing found in {where}. Press o to import an export (a ChatGPT conversations.json…)."
            )

    def shown_path(self, path: Path) -> str:
        try:
            return f"~/{path.relative_to(self.home)}"
        except ValueError:
            return str(path)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("import_highlighted", "import_all"):
            return True if self.sources and not self.running else None  # dimmed: nothing found, or running
        if action in ("import_other", "reindex"):
            return None if self.running else True  # shown dimmed while an import runs
        if action == "stop":
            return self.running  # Esc is "Stop" while an import runs, "Back" otherwise
        if action == "back":
            return not self.running
        return True

    # --- importing --------------------------------------------------------------------------------

    @on(DataTable.RowSelected, "#import-sources")
    def row_chosen(self) -> None:
        """Enter on a source (the table's own Enter)."""
        self.action_import_highlighted()

    def action_import_highlighted(self) -> None:
        table = self.query_one("#import-sources", DataTable)
        if self.running or not table.row_count:
            return
        self.start_import([self.sources[table.cursor_row].path])

    def action_import_all(self) -> None:
        if not self.running and self.sources:
            self.start_import([source.path for source in self.sources])

    def action_import_other(self) -> None:
        if not self.running:
            self.app.push_screen(ExportPathDialog(self.home, blink=self.blink), self.other_chosen)

    def other_chosen(self, path: Path | None) -> None:
        if path is not None:
            self.start_import([path])

    def start_import(self, paths: list[Path]) -> None:
        self.show_running("Importing… Esc stops after the current batch")
        self.import_paths(paths)

    def show_running(self, label: str) -> None:
        self.running = True
        self.stop.clear()
        self.query_one("#import-report", Static).update("")
        self.query_one("#import-progress").display = True
        self.query_one("#import-progress-label", Static).update(label)
        bar = self.query_one("#import-progress-bar", ProgressBar)
        bar.update(total=None, progress=0)
        self.refresh_bindings()

    @work(thread=True, exclusive=True, exit_on_error=False, group="import", description="import conversations")
    def import_paths(self, paths: list[Path]) -> None:
        totals = run_import(
            self.session.workbench,
            paths,
            progress=lambda done, total: self.post_message(messages.ImportProgress(done, total)),
            should_stop=self.stop.is_set,
        )
        self.post_message(messages.ImportFinished(totals.lines(), stopped=totals.stopped))

    def action_reindex(self) -> None:
        if not self.running:
            self.show_running("Reindexing… Esc stops")
            self.reindex()

    @work(thread=True, exclusive=True, exit_on_error=False, group="import", description="reindex")
    def reindex(self) -> None:
        line = run_reindex(
            self.session.workbench,
            progress=lambda done, total: self.post_message(messages.ImportProgress(done, total)),
            should_stop=self.stop.is_set,
        )
        self.post_message(messages.ImportFinished([line], stopped=self.stop.is_set()))

    def on_import_progress(self, message: messages.ImportProgress) -> None:
        bar = self.query_one("#import-progress-bar", ProgressBar)
        bar.update(total=message.total or None, progress=message.done)

    def on_import_finished(self, message: messages.ImportFinished) -> None:
        self.running = False
        self.query_one("#import-progress").display = False
        self.query_one("#import-report", Static).update("\n".join(message.lines))
        self.refresh_bindings()
        self.look()

    def work_failed(self, worker: object) -> None:
        self.running = False
        self.query_one("#import-progress").display = False
        self.refresh_bindings()

    def action_stop(self) -> None:
        if self.running:
            self.query_one("#import-progress-label", Static).update("Stopping after the current batch…")
            self.stop.set()

    def action_back(self) -> None:
        if not self.running:
            self.dismiss()

