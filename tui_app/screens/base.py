"""The base classes every screen of the app derives from.

:class:`WorkerScreen` holds the one ``Worker.StateChanged`` handler: every worker in the app runs on
a screen, and when one fails the person sees a modal with one clear line, and anything the screen
marked busy is released. :class:`ReverieScreen` adds the session, the section bar and the footer,
reloading when the screen comes back into view, and capturing a new draft (offered by any screen
that binds ``capture``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.worker import Worker, WorkerState, get_current_worker

from tui_app.offscreen import lay_out_offscreen
from tui_app.screens.registry import SECTIONS
from tui_app.widgets.footer import WrappingFooter
from tui_app.widgets.format import one_line, preview
from tui_app.widgets.section_bar import SectionBar

if TYPE_CHECKING:
    from core.workbench.capture import DuplicateChoice
    from tui_app import messages
    from tui_app.screens.capture import Capture
    from tui_app.screens.session import Session


FOOTER_WAIT = 1.0  # seconds ``refresh_footer`` waits at most for a footer composed again


class WorkerScreen(Screen[None]):
    BUSY_CLASS = "-busy"
    resume_quietly = False  # the next showing does not load: it is the return from a failed load's dialog

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The app's one handler for failed workers: release busy widgets, then say what failed."""
        worker = event.worker
        if worker.state is not WorkerState.ERROR:
            return
        self.set_busy(False)
        if self.failed_unseen(worker):
            return
        self.work_failed(worker)
        from tui_app.widgets.dialogs import ErrorDialog  # lazy: a screen shown only when something failed

        what = worker.description or worker.name or "finish"
        # Closing the dialog shows this screen again: a load started by that showing would fail the
        # same way and open the same dialog, forever. It is skipped once; the screen's own keys retry.
        self.resume_quietly = worker.group == "load" and self.is_current  # the dialog then covers this screen
        self.app.push_screen(ErrorDialog(f"Could not {what}", one_line(worker.error)))

    def work_failed(self, worker: Worker[object]) -> None:
        """Hook for a screen that must undo more than its busy marks when a worker fails."""

    def failed_unseen(self, worker: Worker[object]) -> bool:
        """True when the failure is kept for later: a screen composed ahead and not shown yet says
        nothing now (the person is elsewhere) and loads again when shown, which says it then."""
        return False

    def set_busy(self, busy: bool, *widgets: Widget) -> None:
        """Show a loading indicator on ``widgets`` (or clear every one this screen set)."""
        targets = widgets if busy else tuple(self.query(f".{self.BUSY_CLASS}"))
        for widget in targets:
            widget.loading = busy
            widget.set_class(busy, self.BUSY_CLASS)

    @staticmethod
    def cancelled() -> bool:
        """In a worker: was it cancelled (a newer load replaced it)? Then its result must not be posted."""
        return get_current_worker().is_cancelled


class ReverieScreen(WorkerScreen):
    """A screen of the unlocked app. Subclasses set ``SECTION`` (the section bar's marked entry),
    implement :meth:`compose_body` and, if they show stored data, :meth:`reload`."""

    SECTION: ClassVar[str] = ""
    RELOAD_ON_RESUME: ClassVar[bool] = True  # reload whenever the screen comes back into view
    # Only when something stored changed since the last load (``views.data.home_stamp``: stat calls in a
    # worker). For screens whose data all lives in the data home and its index; a screen that also
    # reads elsewhere (curation scopes) keeps reloading on every resume.
    RESUME_ONLY_IF_CHANGED: ClassVar[bool] = False
    # Composed ahead (``prepare``), load what the screen shows before its first showing. Off for a
    # screen whose load writes to the data home: it loads when shown (or overrides ``prepare`` with a
    # read-only load, as Curation judges its scopes without recording a scan).
    PREPARE_LOADS: ClassVar[bool] = True

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.reload_scheduled = False
        self.loaded_stamp: tuple[object, ...] | None = None  # the home's stamp when the last resume load began
        self.composed_ahead = False  # by ``ReverieApp.compose_sections``, before any showing
        self.shown_once = False  # composed ahead (``prepare``) and never shown yet: failures wait for the showing

    def compose(self) -> ComposeResult:
        yield SectionBar(self.SECTION, SECTIONS, self.session.label)
        yield from self.compose_body()
        yield WrappingFooter()

    def compose_body(self) -> ComposeResult:
        raise NotImplementedError(f"{type(self).__name__} must implement compose_body")

    def toggle_full_screen(self, box: Widget) -> None:
        """``box`` on the full screen and focused; when something is already there, back from it."""
        if self.maximized is not None:
            self.minimize()
            return
        self.maximize(box, container=False)
        box.focus()
        self.refresh_bindings()

    def set_busy(self, busy: bool, *widgets: Widget) -> None:
        """As :meth:`WorkerScreen.set_busy`; on a screen composed ahead and not shown, a cleared loading
        indicator also lays the screen out again: the widget it covered had no size while covered, and
        nothing lays out a screen that is not shown (``ReverieApp.compose_sections`` laid it out once,
        and on a busy machine the data can come after that)."""
        covered = bool(self.query(f".{self.BUSY_CLASS}")) if not busy else False
        super().set_busy(busy, *widgets)
        if covered and self.composed_ahead and not self.is_current:
            lay_out_offscreen(self, self.app.size)

    async def refresh_footer(self) -> None:
        """Compose the footer again now if its keys changed since it was (composed ahead while locked,
        the section keys greyed): before the screen is first shown rather than after."""
        for footer in self.query(WrappingFooter):
            if footer.composed_keys is None or footer.keys_on_show() == footer.composed_keys:
                continue
            done = asyncio.Event()

            async def recompose(footer: WrappingFooter = footer, done: asyncio.Event = done) -> None:
                try:
                    await footer.recompose()
                finally:
                    done.set()

            if footer.call_later(recompose):  # in the footer's own message loop, as Textual composes it
                with contextlib.suppress(TimeoutError):  # a footer removed meanwhile never answers
                    await asyncio.wait_for(done.wait(), FOOTER_WAIT)

    def failed_unseen(self, worker: Worker[object]) -> bool:
        if self.shown_once or not self.composed_ahead:
            return False
        self.loaded_stamp = None  # shown: load again (the stamp check alone would find nothing new)
        return True

    def on_screen_resume(self) -> None:
        self.shown_once = True
        if self.resume_quietly:
            self.resume_quietly = False
            return
        # Textual resumes a mode's first screen twice; one load in flight is enough.
        if self.RELOAD_ON_RESUME and not self.reload_scheduled and not self.loading_now():
            self.reload_scheduled = True
            self.call_after_refresh(self.scheduled_reload)  # paint first: a worker would compete for the GIL

    def prepare(self) -> None:
        """Composed ahead, off-screen (``ReverieApp.compose_sections``): load what the screen shows now,
        as its first showing would, so that showing it finds its data there."""
        self.composed_ahead = True
        if self.PREPARE_LOADS and self.RELOAD_ON_RESUME and not self.reload_scheduled and not self.loading_now():
            self.reload_scheduled = True
            self.scheduled_reload()

    def scheduled_reload(self) -> None:
        if self.RESUME_ONLY_IF_CHANGED:
            self.check_stamp()
            return
        self.reload_scheduled = False
        self.reload()

    @work(thread=True, exclusive=True, exit_on_error=False, group="stamp", description="look for changes")
    def check_stamp(self) -> None:
        from tui_app.views.data import home_stamp  # lazy: ~5 ms, off the first frame (the gate's base too)

        try:
            stamp: tuple[object, ...] | None = home_stamp(self.session.paths)
        except Exception:  # no stamp: load, as a screen without this check would
            stamp = None
        if not self.cancelled():
            self.app.call_from_thread(self.stamp_checked, stamp)

    def stamp_checked(self, stamp: tuple[object, ...] | None) -> None:
        self.reload_scheduled = False
        if stamp is None or stamp != self.loaded_stamp:
            self.loaded_stamp = stamp
            self.reload()

    def loading_now(self) -> bool:
        return any(w.node is self and w.group == "load" and w.is_running for w in self.app.workers)

    def reload(self) -> None:
        """Load what the screen shows, in a worker. The default shows nothing stored."""

    def action_reload(self) -> None:
        """The screen's refresh key: load what it shows again."""
        self.reload()

    @property
    def blink(self) -> bool:
        """Cursor blink follows ``tui.animations`` (off by default: steadier over SSH, stable snapshots)."""
        return self.session.config.tui.animations

    # --- capture a new draft (bound as ``capture`` on the screens that offer it) ---------------------

    def action_capture(self) -> None:
        from tui_app.screens.capture import CaptureScreen  # lazy: a screen shown later (TextArea, ~25 ms)

        self.app.push_screen(CaptureScreen(self.session.editor, blink=self.blink), self.capture_done)

    def capture_done(self, capture: Capture | None) -> None:
        if capture is not None:
            self.save_capture(capture)

    @work(thread=True, exclusive=True, exit_on_error=False, group="capture", description="save the new draft")
    def save_capture(self, capture: Capture, choice: DuplicateChoice = "ask") -> None:
        """The workbench's capture: near-duplicate check, then the draft and the local suggesters."""
        from tui_app import messages  # lazy: ~10 ms, loaded with the first worker that posts one

        outcome = self.session.workbench.review.capture(capture.content, capture.tags, on_duplicate=choice,
                                                        suggest=True, created_by=self.session.reviewer)
        self.post_message(messages.CaptureDone(capture.content, capture.tags, outcome))

    def on_capture_done(self, message: messages.CaptureDone) -> None:
        outcome = message.outcome
        if outcome.needs_choice:
            from tui_app.screens.capture import NearDuplicateDialog  # lazy: a screen shown later

            assert outcome.duplicate is not None
            self.app.push_screen(NearDuplicateDialog(outcome.duplicate),
                                 lambda choice: self.duplicate_chosen(message, choice))
            return
        if outcome.draft is None:
            self.notify("Nothing was written.", title="Capture cancelled")
            return
        added = f" · {len(outcome.suggestions)} suggestion(s) attached" if outcome.suggestions else ""
        self.notify(preview(outcome.draft.content, 60) + added, title="Draft captured, open for review",
                    markup=False)
        self.reload()

    def duplicate_chosen(self, asked: messages.CaptureDone, choice: str | None) -> None:
        from tui_app.screens.capture import Capture  # lazy: with the capture screen, shown later

        if choice is None:
            self.notify("Nothing was written.", title="Capture cancelled")
        else:
            self.save_capture(Capture(asked.content, asked.tags), "replace" if choice == "replace" else "keep_both")
