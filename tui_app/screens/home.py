"""Home: what waits for review, what the vault holds and whether it verifies, activity over time.

Above the panels sits a banner of notices (approved drafts waiting to be finalized, verification
problems, and later an overdue curation review): providers listed in ``registry.HOME_NOTICES``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Sparkline, Static

from tui_app.screens.base import ReverieScreen
from tui_app.screens.registry import SECTIONS, notice_providers
from tui_app.widgets.activity import ACTIVITY_WEEKS, ActivityChart, turns_per_day
from tui_app.widgets.format import plural

if TYPE_CHECKING:
    from tui_app import messages
    from tui_app.screens.session import Session
    from tui_app.views.data import HomeSummary

NOTICE_MARK = {"error": ("✗", "bold $text-error"), "warning": ("!", "bold $text-warning"), "info": ("·", "")}


def _home_bindings() -> list[Binding]:
    bindings = [
        Binding(s.home_key, f"app.section('{s.name}')", s.title, id=f"home.{s.name}", tooltip=s.description)
        for s in SECTIONS
        if s.home_key
    ]
    return [
        *bindings,
        Binding("n", "capture", "New draft", id="capture", tooltip="Capture a new draft for review"),
        Binding(
            "i",
            "import",
            "Import",
            id="home.import",
            tooltip="Import conversations (Claude Code, Codex, an export) or reindex, with progress",
        ),
        Binding(
            "p",
            "app.passphrase",
            "Passphrase",
            id="home.passphrase",
            tooltip="Change the passphrase, or make a recovery key (shown once)",
        ),
        Binding("ctrl+r", "reload", "Refresh", id="refresh", tooltip="Count again and re-verify the home"),
    ]


def review_panel(summary: HomeSummary) -> Content:
    return Content.assemble(
        (plural(summary.open_drafts, "open draft"), "bold"),
        f" · {summary.pending_suggestions} to decide",
        "\n",
        (plural(summary.approved_drafts, "approved draft"), "bold" if summary.approved_drafts else ""),
        " · to finalize" if summary.approved_drafts else "",
        "\n",
        f"{summary.finalized_drafts} finalized",
    )


def vault_panel(summary: HomeSummary) -> Content:
    state = summary.verification
    unreviewed = summary.memories - summary.reviewed_memories
    parts: list[Content | tuple[str, str] | str] = [
        (plural(summary.memories, "memory", "memories"), "bold"),
        f" · {summary.reviewed_memories} reviewed · {unreviewed} not",
        "\n",
    ]
    if state is None:  # counted; the verification runs in its own worker and fills this line
        parts.append(("… verifying the records and the ledger", "dim"))
    elif state.ok:
        parts += [("✓ ", "bold $text-success"), state.headline]
    else:
        parts += [("✗ ", "bold $text-error"), (state.headline, "bold $text-error")]
        parts += [f"\n{problem}" for problem in state.problems[:3]]
    return Content.assemble(*parts)


def notices_text(summary: HomeSummary) -> Content:
    lines: list[Content | tuple[str, str] | str] = []
    for notice in summary.notices:
        mark, style = NOTICE_MARK.get(notice.level, NOTICE_MARK["info"])
        if lines:
            lines.append("\n")
        lines += [(f"{mark} ", style), notice.text]
        if notice.key_hint:
            lines.append((f"  (press {notice.key_hint})", "dim"))
    return Content.assemble(*lines)


class HomeScreen(ReverieScreen):
    SECTION = "home"
    RESUME_ONLY_IF_CHANGED = True  # counts, verification and notices all come from the home and its index
    BINDINGS: ClassVar[list[BindingType]] = _home_bindings()

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="home"):
            yield Static(id="home-notices")
            with Horizontal(id="home-panels"):
                review = Static(id="home-review", classes="panel")
                review.border_title = "Review"
                yield review
                vault = Static(id="home-vault", classes="panel")
                vault.border_title = "Vault"
                yield vault
            with Vertical(id="home-activity", classes="panel") as activity:
                activity.border_title = f"Activity · last {ACTIVITY_WEEKS} weeks"
                yield Sparkline([0] * ACTIVITY_WEEKS, id="activity-spark")
                yield Static(id="activity-caption")
                yield ActivityChart(id="activity-turns")  # replaces the two above once turns are indexed

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.summary: HomeSummary | None = None
        self.interrupted_checked = False
        self.activity_loaded = False
        self.on_whole: Callable[[], None] | None = None  # see :meth:`when_whole`

    def when_whole(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once the first load has everything Home shows (the counts, the verification
        and the activity): the app shows Home composed ahead then, so that it is painted once, whole,
        instead of once empty and again for each part (``ReverieApp.show_home_when_loaded``)."""
        self.on_whole = callback
        self.check_whole()

    def check_whole(self) -> None:
        summary = self.summary
        if self.on_whole is not None and summary is not None and summary.verification is not None \
                and self.activity_loaded:
            callback, self.on_whole = self.on_whole, None
            callback()

    def on_screen_resume(self) -> None:
        """Shown while its first load, started off-screen, still runs: the loading indicator now (it is
        not mounted on a screen nobody sees). ``ReverieScreen.on_screen_resume`` runs after this."""
        if self.summary is None and self.loading_now():
            self.set_busy(True, self.query_one("#home-panels"))

    @work(thread=True, exclusive=True, exit_on_error=False, group="finish", description="finish interrupted work")
    def complete_interrupted(self) -> None:
        """A finalization a crash cut short is completed (and said) when the vault is opened."""
        from tui_app import messages  # lazy: ~10 ms, off the first frame when Home is the first screen

        lines = self.session.workbench.review.complete_interrupted()
        if lines:
            self.post_message(messages.InterruptedCompleted(lines))

    def on_interrupted_completed(self, message: messages.InterruptedCompleted) -> None:
        self.notify("\n".join(message.lines), title="Completed after an interruption", timeout=15, markup=False)
        self.reload()

    def scheduled_reload(self) -> None:
        """The first showing loads at once, its worker taking the home's stamp before it reads (there is
        nothing to compare it with yet: one worker instead of two in a row); later showings compare
        stamps first (``ReverieScreen.check_stamp``)."""
        if self.loaded_stamp is None and not self.interrupted_checked:
            self.reload_scheduled = False
            self.reload()
            return
        super().scheduled_reload()

    def reload(self) -> None:
        """Count, then verify (:meth:`verify_summary`). Home may be composed while the keys are derived
        (``ReverieApp.compose_home_ahead``), so it reads nothing before this first load, which also
        completes what a crash interrupted."""
        first = not self.interrupted_checked
        if first:
            self.interrupted_checked = True
            self.complete_interrupted()
        if self.summary is None and self.is_current:  # an indicator only while there is nothing to show yet
            self.set_busy(True, self.query_one("#home-panels"))
        self.load_summary(stamp_first=first and self.loaded_stamp is None)

    def action_import(self) -> None:
        from tui_app.screens.importer import ImportScreen  # lazy: a screen shown later (~100 ms)

        self.app.push_screen(ImportScreen(self.session))

    @work(thread=True, exclusive=True, exit_on_error=False, group="load", description="load the home summary")
    def load_summary(self, stamp_first: bool = False) -> None:
        """The counts first, without the verification (its own worker, started when they show).
        ``stamp_first``: take the home's stamp before reading (:meth:`scheduled_reload`)."""
        # lazy: messages and loaders, ~15 ms, off the first frame when Home is the first screen
        from tui_app import messages
        from tui_app.views.data import home_stamp, load_home_summary  # lazy: as above

        stamp = home_stamp(self.session.paths) if stamp_first else None
        summary = load_home_summary(self.session, notice_providers(), verify=False)
        if not self.cancelled():
            self.post_message(messages.HomeLoaded(summary, stamp))

    def on_home_loaded(self, message: messages.HomeLoaded) -> None:
        if message.stamp is not None:
            self.loaded_stamp = message.stamp
        self.show_summary(message.summary)
        self.set_busy(False)
        self.verify_summary(message.summary)
        self.load_turn_activity()

    @work(thread=True, exclusive=True, exit_on_error=False, group="verify", description="verify the home")
    def verify_summary(self, base: HomeSummary) -> None:
        from tui_app import messages  # lazy: as in load_summary
        from tui_app.views.data import with_verification

        summary = with_verification(self.session, base)
        if not self.cancelled():
            self.post_message(messages.HomeVerified(base, summary))

    def on_home_verified(self, message: messages.HomeVerified) -> None:
        if message.base is not self.summary:  # counted again since: that count's verification follows
            return
        self.show_summary(message.summary)
        self.check_whole()
        if self.is_current:  # else the app starts it once Home is shown
            self.app.warm_up_sections()  # type: ignore[attr-defined]

    def show_summary(self, summary: HomeSummary) -> None:
        self.summary = summary
        notices = self.query_one("#home-notices", Static)
        notices.update(notices_text(summary))
        notices.display = bool(summary.notices)
        self.query_one("#home-review", Static).update(review_panel(summary))
        self.query_one("#home-vault", Static).update(vault_panel(summary))
        self.query_one("#activity-spark", Sparkline).data = list(summary.activity)
        total = sum(summary.activity)
        self.query_one("#activity-caption", Static).update(
            Content.assemble(
                (f"{plural(total, 'draft or memory', 'drafts and memories')}", ""),
                (f" · busiest week {max(summary.activity)} · this week on the right", "dim"),
            )
        )

    @work(thread=True, exclusive=True, exit_on_error=False, group="activity", description="count turns per day")
    def load_turn_activity(self) -> None:
        from tui_app import messages  # lazy: as in load_summary

        today = self.session.now().astimezone(self.session.zone).date()
        days = turns_per_day(self.session.workbench, self.session.zone, today)
        if not self.cancelled():
            self.post_message(messages.TurnActivityLoaded(days))

    def on_turn_activity_loaded(self, message: messages.TurnActivityLoaded) -> None:
        """With conversation turns in the index, the activity picture shows turns per day instead."""
        turns = any(count for _, count in message.days)
        self.query_one("#activity-turns", ActivityChart).days = tuple(message.days)
        self.query_one("#activity-turns").display = turns
        self.query_one("#activity-spark").display = self.query_one("#activity-caption").display = not turns
        panel = self.query_one("#home-activity")
        panel.border_title = "Activity · turns per day" if turns else f"Activity · last {ACTIVITY_WEEKS} weeks"
        self.activity_loaded = True
        self.check_whole()
