"""ReverieApp: the Textual shell. It receives its core services (the home's paths, its settings, and
the vault keys if the caller already has them) and never imports the CLI.

Locked, the app shows one gate screen (unlock, or create a vault when the home has none). Unlocked,
it holds a :class:`Session` and one Textual mode per section of ``screens.registry.SECTIONS``, each
with its own screen stack, reached by its F-key from anywhere and by a letter from the home screen.
Locking (``ctrl+l``, or ``security.idle_lock_minutes`` without input) drops the session and every
section's screens, then shows the unlock screen again.

``run()`` refuses to start without a terminal (``ssh HOST reverie`` without ``-t``): nothing typed
would be hidden, and the app would outlive the connection (:func:`require_terminal`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import os
import re
import sys
import time
from asyncio import AbstractEventLoop, sleep
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, work
from textual.app import App, AutopilotCallbackType, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import LoadingIndicator
from textual.worker import get_current_worker

from core.errors import ReverieError, disk_full
from core.workbench import Workbench
from core.workbench.local import atomic_write_text
from tui_app.commands import ScreenCommands
from tui_app.offscreen import compose_offscreen, lay_out_offscreen, paint_now
from tui_app.screens.registry import HOME_SECTION, SECTIONS, Section
from tui_app.screens.registry import section as section_named
from tui_app.screens.unlock import UnlockScreen
from tui_app.stylesheet import ReusingStylesheet
from tui_app.ui_state import UiState, load_ui_state, save_ui_state, ui_state_path
from tui_app.widgets.editor import ExternalEditor, edit_in_terminal_editor
from tui_app.widgets.format import plural
from tui_app.widgets.section_bar import SectionBar

if TYPE_CHECKING:
    from textual.theme import Theme
    from textual.widget import AwaitMount

    from core.config import Config
    from core.embed import Embedder
    from core.paths import HomePaths
    from core.vault.crypto import KdfParams, VaultKeys
    from tui_app import messages
    from tui_app.screens.base import ReverieScreen
    from tui_app.screens.session import Session

GATE_MODE = "gate"
IDLE_CHECK_SECONDS = 1.0  # the idle lock fires within a second of ``security.idle_lock_minutes``
# Imported while the keys are derived (the derivation leaves the interpreter idle), in the order Home
# needs them: its counts and banner (the index opened after these), then its verification.
UNLOCK_PRELOAD = ("tui_app.screens.home", "tui_app.views.data", "core.vault.store", "tui_app.messages",
                  "core.workbench.curation", "tui_app.screens.curation_notice", "tui_app.views.imports")
VERIFY_PRELOAD = ("core.workbench.verify", "core.conversation.seals", "core.curate.integrity")
HOME = section_named(HOME_SECTION)
SCREENS_CSS = os.path.abspath(Path(__file__).with_name("app.tcss"))  # every screen's rules but the gate's
HOME_WAIT = 0.3  # seconds the gate stays at most after unlocking while Home composed ahead loads
PREPARE_PAUSE = 0.05  # seconds between two sections composed ahead: a key pressed meanwhile goes first


class StillLoadingIndicator(LoadingIndicator):
    """Textual's loading indicator, drawn once. With animations off it shows a word instead of moving
    dots, but still redraws itself 16 times a second: about 40 KB/s over SSH for a word that does not
    change. This one never sets up the timer."""

    @property
    def auto_refresh(self) -> float | None:
        return None

    @auto_refresh.setter
    def auto_refresh(self, interval: float | None) -> None:
        """Ignored: the word is drawn once."""


class NoTerminal(ReverieError):
    """The app was started with no terminal to draw on (``ssh HOST reverie`` without ``-t``)."""


def require_terminal() -> None:
    """Refuse to run the app into pipes. Without a terminal the person's own terminal stays in line
    mode and shows everything typed, the passphrase too, and the app never notices the connection
    closing (it would run on, orphaned). A driver chosen through ``TEXTUAL_DRIVER`` (textual-serve's
    web driver, for a browser tab) brings its own screen and keyboard."""
    if os.environ.get("TEXTUAL_DRIVER"):
        return
    streams = (sys.__stdin__, sys.__stdout__)
    if not all(stream is not None and stream.isatty() for stream in streams):
        raise NoTerminal("the app needs a terminal; over SSH, ask for one with -t: ssh -t HOST reverie")


def app_bindings() -> list[BindingType]:
    sections: list[BindingType] = [
        Binding(s.key, f"section('{s.name}')", s.title, id=f"section.{s.name}", tooltip=s.description, show=False)
        for s in SECTIONS
    ]
    return [
        *sections,
        Binding(
            "ctrl+l",
            "lock",
            "Lock",
            id="app.lock",
            tooltip="Forget the keys now and ask for the passphrase",
            show=False,
        ),
        Binding(
            "f1,question_mark",
            "keys",
            "Keys",
            id="app.keys",
            tooltip="Every key of every screen on one page, this screen's first",
            show=False,
        ),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", tooltip="Quit Reverie", show=False, priority=True),
        Binding("ctrl+c", "help_quit", show=False, system=True),
    ]


class ReverieApp(App[None], inherit_bindings=False):
    CSS_PATH = "gate.tcss"  # the first frame parses only the gate's rules; the rest: ``style_every_screen``
    TITLE = "Reverie"
    COMMANDS: ClassVar = App.COMMANDS | {ScreenCommands}
    BINDINGS = app_bindings()

    def __init__(
        self,
        paths: HomePaths,
        config: Config,
        keys: VaultKeys | None = None,
        *,
        kdf: KdfParams | None = None,
        editor: ExternalEditor | None = None,
        label: str = "",
        embedder: Callable[[], Embedder] | None = None,
        passphrase: str | None = None,
        prepare_sections: bool = True,
        gate_hint: str = "",
        vectors_in_background: bool = False,
    ) -> None:
        """``keys`` opens the vault straight away; without them the app asks for the passphrase (or for a
        new one when the home has no vault, created with ``kdf``). ``passphrase`` (one at hand without a
        prompt: ``REVERIE_PASSPHRASE``, the keyring) is tried by the unlock screen as soon as it shows,
        Argon2id running in its worker after the first frame. ``editor`` replaces $EDITOR and
        ``embedder`` the configured embedding model (tests). ``prepare_sections``: compose each
        section's screen in the idle time after Home shows its data (off: on its first switch).
        ``gate_hint``: a line the unlock screen shows (the demo's passphrase, which the demo prints
        before the app covers the terminal). ``vectors_in_background``: after unlocking, give every
        turn and memory its vector in a worker, with its progress in the section bar (the demo: its
        first semantic search then waits for nothing)."""
        if keys is None:  # the gate is the first mode: no blank default screen made, styled and switched from
            self.DEFAULT_MODE = GATE_MODE  # read by App.__init__ for the mode it starts in
        super().__init__()
        self.ui_state_file = ui_state_path(paths.root)
        self.ui_state, self.ui_state_problem = load_ui_state(self.ui_state_file)
        if self.ui_state.theme in self.available_themes:
            self.theme = self.ui_state.theme  # before the stylesheet: its variables come from the theme
        elif self.ui_state.theme:
            self.ui_state_problem = (f"{self.ui_state_file}: field 'theme': no theme named {self.ui_state.theme!r}; "
                                     "the default theme is used")
        self.stylesheet = ReusingStylesheet(variables=self.get_css_variables())
        self.css_state: tuple[object, ...] | None = None  # what the last full refresh_css saw
        # Everything imported so far lives as long as the process: out of the cyclic collector's sight,
        # whose full passes over it took 50-200 ms each, before the first frame and in section switches
        # (measured in bench_tui_start.py). Given back to it when the app closes (on_unmount).
        gc.freeze()
        self.paths = paths
        self.config = config
        self.kdf = kdf
        self.workbench = Workbench(paths, config, kdf=kdf, embedder=embedder, notice=self.post_workbench_notice)
        self.editor = editor or edit_in_terminal_editor
        self.label = label
        self.session: Session | None = None
        self.next_session: Session | None = None  # made while the keys are derived, for Home composed ahead
        self.open_sections: list[str] = []
        self.gate_open = False
        self.last_input = time.monotonic()
        self._initial_keys = keys
        self._initial_passphrase = passphrase  # the gate's, tried by the unlock screen; dropped once mounted
        self.unlocked_waiting: messages.Unlocked | None = None  # keys that came while Home was composed ahead
        self.home_ahead_pending = False  # Home to be composed ahead once the unlock screen's frame is painted
        self.resume_section = HOME_SECTION  # where unlocking returns: the section shown when the app locked
        self.sections_warm = False
        self.prepare_ahead = prepare_sections
        self.whole_screen = False  # switching to a screen already composed: no pause before painting it
        self.made_sections: set[str] = set()  # sections whose screen was made (shown, or composed ahead)
        self.ready_screens: dict[str, ReverieScreen] = {}  # composed ahead, not shown yet
        self.animation_level = "full" if config.tui.animations else "none"
        self.gate_hint = gate_hint
        self.vectors_in_background = vectors_in_background
        self.background_status = ""  # shown at the right of the section bar ("vectors 120/632")
        # What the person typed that outlives a lock (the search query): no key, no decrypted record.
        self.typed: dict[str, str] = {}
        if keys is None:
            self.add_gate(passphrase=passphrase)

    def run(
        self,
        *,
        headless: bool = False,
        inline: bool = False,
        inline_no_clear: bool = False,
        mouse: bool | None = None,
        size: tuple[int, int] | None = None,
        auto_pilot: AutopilotCallbackType | None = None,
        loop: AbstractEventLoop | None = None,
    ) -> Any:
        """The app's return value, as Textual's ``run`` gives it (snapshot tests read it). ``mouse``
        defaults to ``tui.mouse``: with it off the terminal is never asked to report the mouse, so
        moving the pointer over the window sends nothing over SSH."""
        if not headless:
            require_terminal()
        if mouse is None:
            mouse = self.config.tui.mouse
        return super().run(
            headless=headless,
            inline=inline,
            inline_no_clear=inline_no_clear,
            mouse=mouse,
            size=size,
            auto_pilot=auto_pilot,
            loop=loop,
        )

    def refresh_css(self, animate: bool = True) -> None:
        """Textual's when the theme's variables or the ANSI palette changed. Otherwise (the same
        variables; new rules only when a widget class is first mounted, with its default CSS) the app
        and its current screen are restyled, which ``ReusingStylesheet.apply`` skips for every widget
        whose rules and path are unchanged, and a restyled widget refreshes itself as its styles
        change. Textual calls this twice on each mode's first switch: the first time while the old
        screen is still current, which it then restyled and laid out again just before hiding it, and
        the second time with a full layout and repaint of the new screen, done again by the switch
        itself (together 30-90 ms under load, measured in bench_tui_start.py)."""
        sheet = self.stylesheet
        sheet.set_variables(self.get_css_variables())
        sheet.reparse()
        state = (sheet.variables_now, self.ansi_color, self.ansi_theme)
        last = self.css_state
        if last is not None and state[0] == last[0] and state[1] == last[1] and state[2] is last[2]:
            sheet.update(self, animate=animate)
            return
        self.css_state = state
        super().refresh_css(animate=animate)

    def style_every_screen(self) -> None:
        """Read and parse the rules of every screen but the gate (``app.tcss``), once. The first frame
        parses only the gate's (``gate.tcss``): this runs beside the key derivation, or before any
        other screen is made or shown (a section, the keymap page, a dialog, the palette)."""
        sheet = self.stylesheet
        if sheet.has_source(SCREENS_CSS):
            return
        sheet.read(SCREENS_CSS)
        sheet.reparse()
        sheet.update(self)

    def on_mount(self) -> None:
        self.set_keymap(dict(self.config.tui.keymap))
        self.call_after_refresh(self.use_language)  # humanize loads after the first frame, which says no age
        self.app_resume_signal.subscribe(self, lambda _app: self.touch())
        self.theme_changed_signal.subscribe(self, self.remember_theme)
        if self.ui_state_problem:
            self.notify(self.ui_state_problem, title="Settings of the app", severity="warning", markup=False)
        keys, self._initial_keys = self._initial_keys, None
        if keys is not None:
            self.start_session(keys)
        else:
            self._initial_passphrase = None
            self.gate_open = True  # the first mode (``add_gate``, in the constructor)
        if self.config.security.idle_lock_minutes:
            self.set_interval(IDLE_CHECK_SECONDS, self.check_idle_lock)

    def use_language(self) -> None:
        """Ages and sizes in the person's first language (``general.languages``), where humanize has it."""
        from tui_app.widgets.humane import use_language  # lazy: humanize, ~2 ms, after the first frame

        use_language(self.config.general.languages[0] if self.config.general.languages else "en")

    def on_unmount(self) -> None:
        gc.unfreeze()  # what the app held can be collected again (a test process runs many apps)

    # --- remembered between runs --------------------------------------------------------------------

    def remember_theme(self, theme: Theme) -> None:
        """A theme picked from the command palette (or set by a key) is the next start's theme too."""
        if theme.name != self.ui_state.theme and self.paths.root.is_dir():
            self.ui_state = replace(self.ui_state, theme=theme.name)
            self.write_ui_state(self.ui_state)

    @work(thread=True, exclusive=True, exit_on_error=False, group="ui-state", description="remember the theme")
    def write_ui_state(self, state: UiState) -> None:
        try:
            save_ui_state(self.ui_state_file, state)
        except OSError as exc:
            self.call_from_thread(self.notify, f"{self.ui_state_file}: not written ({exc.strerror or exc})",
                                  title="The theme is not remembered", severity="warning", markup=False)

    # --- locked and unlocked ------------------------------------------------------------------------

    @property
    def locked(self) -> bool:
        return self.session is None

    def start_session(self, keys: VaultKeys) -> None:
        """Open every section on the unlocked vault and show the one the app was locked on (Home at
        first). The vault itself opens in the first screen's worker (``Session.vault``)."""
        self.workbench.adopt_keys(keys)
        self.style_every_screen()
        self.session, self.next_session = self.next_session or self.new_session(), None
        for section in SECTIONS:
            self.add_mode(section.name, self.section_factory(section))
            self.open_sections.append(section.name)
        resume, self.resume_section = self.resume_section, HOME_SECTION
        target = resume if resume in self.open_sections else HOME_SECTION
        home = self.ready_screens.get(HOME_SECTION)
        self.touch()
        if target == HOME_SECTION and self.gate_open and home is not None:
            self.show_home_when_loaded(home)  # builds the vectors once Home shows
            return
        self.show_section(target)
        self.after_shown()

    def after_shown(self) -> None:
        """Once the first section is on screen: the demo's vectors (Home first, then the model)."""
        if self.vectors_in_background:
            self.call_after_refresh(self.build_vectors, self.session)

    def show_section(self, name: str) -> AwaitComplete:
        """Show the section ``name``, and drop the gate if it was showing (awaitable: the gate removed)."""
        self.switch_mode(name)
        if not self.gate_open:
            return AwaitComplete.nothing()
        self.gate_open = False
        return self.remove_mode(GATE_MODE)

    def show_home_when_loaded(self, home: ReverieScreen) -> None:
        """Unlocked, with Home composed ahead: Home loads off-screen while the gate stays ("Unlocking…"),
        and is shown once it has everything it shows, or after ``HOME_WAIT`` seconds with whatever it
        has then (its loading indicator at worst), whichever comes first. Shown whole, it is laid out
        and painted once rather than once empty and again as each part lands. Meanwhile the section
        keys wait (``action_section``). Its footer, composed while the app was locked (the section keys
        greyed), is composed again meanwhile, not after it shows (one more layout and paint)."""
        session = self.session
        whole = asyncio.Event()

        async def show() -> None:
            await home.refresh_footer()  # while Home loads in its workers
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(whole.wait(), HOME_WAIT)
            if self.session is session and self.current_mode == GATE_MODE:
                with self.batch_update():  # Home and the gate's removal in one paint
                    await self.show_section(HOME_SECTION)
                self.call_after_refresh(self.warm_up_sections_if_verified)
                self.after_shown()

        when_whole = getattr(home, "when_whole", None)
        if when_whole is not None:
            when_whole(whole.set)
        # A worker: the app's own messages are not held while the footer is composed and Home loads.
        self.run_worker(show(), group="show-home", exit_on_error=False, description="show Home")
        home.prepare()

    def warm_up_sections_if_verified(self) -> None:
        """After Home, verified before it was shown, is painted: the sections' warm-up it could not start
        itself (``HomeScreen.on_home_verified`` starts it only on screen)."""
        summary = getattr(self.screen, "summary", None)
        if summary is not None and summary.verification is not None:
            self.warm_up_sections()

    def new_session(self) -> Session:
        """What the section screens work with; it holds no keys (the workbench has them once unlocked)."""
        from tui_app.screens.session import Session  # lazy: ~1 ms, made beside the key derivation

        return Session(paths=self.paths, config=self.config, workbench=self.workbench, zone=self.config.zone(),
                       label=self.label, editor=self.editor)

    async def compose_home_ahead(self) -> None:
        """While the keys are derived: compose Home off-screen and lay it out, for the session the keys
        will open (``next_session``), so that unlocking only loads its data and shows it. Home reads
        nothing stored before the keys; keys that come while it is composed wait for it (``on_unlocked``)."""
        try:
            await self.compose_home(self.next_session or self.new_session())
        finally:
            waiting, self.unlocked_waiting = self.unlocked_waiting, None
            if waiting is not None:  # the keys came while Home was composed (``on_unlocked``)
                self.finish_unlock(waiting)

    async def compose_home(self, session: Session) -> None:
        if not self.locked or HOME_SECTION in self.ready_screens or not self.prepare_ahead:
            return
        self.next_session = session
        screen = HOME.load()(session)
        if not await compose_offscreen(self, screen):
            return
        if not self.locked or self.next_session is not session:  # unlocked meanwhile: Home was made anew
            screen.remove()
            return
        lay_out_offscreen(screen, self.size)
        self.ready_screens[HOME_SECTION] = screen

    # --- vectors built in the background ------------------------------------------------------------

    @property
    def building_vectors(self) -> bool:
        return any(w.group == "background-vectors" and w.is_running for w in self.workers)

    @work(thread=True, exclusive=True, exit_on_error=False, group="background-vectors",
          description="build vectors for semantic search")
    def build_vectors(self, session: Session) -> None:
        """Every turn and memory without a vector gets one; stops when the app locks (the build
        resumes at the next unlock, where it stopped). Progress and the end are posted as messages."""
        from tui_app import messages  # lazy: ~10 ms, off the first frame
        from tui_app.views.search_backend import SearchBackend  # heavy: the index, recall and embedding, ~200 ms

        worker = get_current_worker()
        backend = SearchBackend(self.workbench)
        if self.session is not session or not backend.needs_vectors():
            return
        self.post_message(messages.VectorProgress(0, 0))

        def progress(phase: str, done: int, total: int) -> None:
            if phase == "embed":
                self.post_message(messages.VectorProgress(done, total))

        state = backend.build_vectors(progress=progress,
                                      should_stop=lambda: worker.is_cancelled or self.session is not session)
        self.post_message(messages.VectorsBuilt(state))

    def on_vector_progress(self, message: messages.VectorProgress) -> None:
        if not self.background_status:
            self.notify("Building vectors for semantic search in the background; everything else works "
                        "meanwhile.", title="Semantic search", markup=False)
        done = f"{100 * message.done // message.total}%" if message.total else "…"
        self.show_background_status(f"vectors {done}")

    def on_vectors_built(self, message: messages.VectorsBuilt) -> None:
        """The background build ended: said once; a search screen on show searches again with them."""
        self.show_background_status("")
        if message.state.stopped or self.session is None:
            return
        screen = self.screen
        if type(screen).__name__ == "SearchScreen":
            screen.post_message(message)  # its own handler says it and asks the question again
        else:
            self.notify(f"{message.state.vectors:,} vectors ready: semantic search answers at once.",
                        title="Semantic search", markup=False)

    def show_background_status(self, status: str) -> None:
        self.background_status = status
        for bar in self.screen.query(SectionBar):
            bar.refresh_keys()

    def warm_up_sections(self) -> None:
        """Make every section ready while the person reads the home screen, so that a first switch only
        shows its screen: a worker imports the screen modules (half the core: the search screen's time
        grammar, curation's rubric), then each section's screen is composed off-screen and loads its
        data (:meth:`prepare_sections`). Started once, after the home screen has shown its data."""
        if not self.sections_warm:
            self.sections_warm = True
            self.import_sections()

    @work(thread=True, exclusive=True, exit_on_error=False, group="warm-up", description="prepare the sections")
    def import_sections(self) -> None:
        for section in SECTIONS:
            if self.locked:
                return
            try:
                section.load()
            except Exception:  # the switch to that section imports it again and says why
                continue
        gc.freeze()  # the modules just imported join the start-up's objects: out of the collector's sight
        self.call_from_thread(self.prepare_sections)

    def prepare_sections(self) -> None:
        if self.session is not None and self.prepare_ahead:
            self.run_worker(self.compose_sections(self.session), group="prepare", exclusive=True,
                            exit_on_error=False, description="prepare the sections")

    async def compose_sections(self, session: Session) -> None:
        """Compose each section's screen not made yet, off-screen, lay it out at the window's size and
        let it load what it shows, one screen at a time with a pause between (a key pressed meanwhile
        waits for one screen at most). Its mode's first switch then only paints it
        (``section_factory``); see :func:`tui_app.offscreen.compose_offscreen`."""
        for section in SECTIONS:
            if self.session is not session or section.name in self.made_sections:
                continue
            try:
                screen = section.load()(session)
            except Exception:  # the first switch makes it again and says why
                continue
            if not await compose_offscreen(self, screen):
                return  # this Textual cannot: each section is made on its first switch
            self.ready_screens[section.name] = screen
            if self.session is not session:
                return
            screen.prepare()
            await sleep(PREPARE_PAUSE)
            lay_out_offscreen(screen, self.size)
            await sleep(PREPARE_PAUSE)
        # A widget class mounted for the first time brings its default CSS, and Textual parses a
        # source again when a class nearer to Widget brings it, so the rules of the screens composed
        # first may have changed since: restyled now (only the widgets whose rules changed), not on
        # their first showing.
        for screen in (*self.ready_screens.values(), self.screen):
            self.stylesheet.update(screen)
        gc.freeze()  # what the screens hold now lives as long as the session

    def section_factory(self, section: Section) -> Callable[[], Screen[None]]:
        def make() -> Screen[None]:
            if self.session is None:
                raise RuntimeError("a section screen was requested while the app is locked")
            self.made_sections.add(section.name)
            ready = self.ready_screens.pop(section.name, None)
            return ready if ready is not None else section.load()(self.session)

        return make

    def drop_ready_screens(self) -> None:
        """The screens composed ahead and never shown go with the session (locked: they hold its data)."""
        ready, self.ready_screens = self.ready_screens, {}
        self.made_sections.clear()
        for screen in ready.values():
            if screen.is_attached:
                screen.remove()

    def show_gate(self, reason: str = "", *, passphrase: str | None = None) -> None:
        """Show the unlock screen (or create-vault when the home has none) and drop every section.
        ``passphrase``: one at hand, which the unlock screen tries at once."""
        self.add_gate(reason, passphrase=passphrase)
        self.gate_open = True
        self.switch_mode(GATE_MODE)
        for name in self.open_sections:
            self.remove_mode(name)
        self.open_sections.clear()

    def add_gate(self, reason: str = "", *, passphrase: str | None = None) -> None:
        """The gate's mode: the unlock screen, or create-vault when the home has none."""
        from tui_app.screens.create_vault import CreateVaultScreen  # lazy: only a new home shows it

        blink = self.config.tui.animations
        if self.paths.vault_header.exists():
            self.add_mode(GATE_MODE, lambda: UnlockScreen(self.paths, blink=blink, reason=reason,
                                                          passphrase=passphrase, hint=self.gate_hint))
        else:
            self.add_mode(GATE_MODE, lambda: CreateVaultScreen(self.paths, self.kdf, blink=blink))

    def lock(self, reason: str = "Locked. The keys were forgotten.") -> None:
        session, self.session = self.session, None
        if session is None:
            return
        if self.current_mode in self.open_sections:
            self.resume_section = self.current_mode
        self.clear_notifications()
        self.show_gate(reason)
        self.next_session = None
        self.drop_ready_screens()
        self.sections_warm = False
        self.workbench.lock()
        gc.unfreeze()  # what the sections held (decrypted records among it) can be collected now

    def post_workbench_notice(self, line: str) -> None:
        """The workbench's notice, posted to the app from the thread that waits (posting is thread-safe)."""
        from tui_app import messages  # lazy: ~10 ms, loaded with the first notice, not before the first frame

        self.post_message(messages.WorkbenchNotice(line[:1].upper() + line[1:]))

    def on_workbench_notice(self, message: messages.WorkbenchNotice) -> None:
        """Said where the person looks: the current screen's own status line if it has one (search),
        a toast otherwise (a capture's duplicate check waiting for the model on any screen)."""
        show = getattr(self.screen, "show_notice", None)
        if show is not None:
            show(message.line)
        else:
            self.notify(message.line, markup=False)

    def prepare_unlock(self) -> None:
        """The unlock screen has started deriving the keys: once its first frame is on the terminal (the
        derivation leaves the interpreter free), what Home's first load needs, Home itself composed
        off-screen, and every screen's rules parsed. Keys that come sooner wait for that Home."""
        self.home_ahead_pending = True
        self.call_after_refresh(self.prepare_home_ahead)

    def prepare_home_ahead(self) -> None:
        self.home_ahead_pending = False
        if not self.locked:
            return
        self.preload_for_home()
        self.style_every_screen()
        self.run_worker(self.compose_home_ahead(), group="prepare-home", exclusive=True, exit_on_error=False,
                        description="prepare Home")

    @work(thread=True, exclusive=True, exit_on_error=False, group="preload", description="prepare Home")
    def preload_for_home(self) -> None:
        """Best effort: whatever fails here fails again, and is said, where it is used."""
        for name in UNLOCK_PRELOAD:
            with contextlib.suppress(Exception):  # said by the real use
                importlib.import_module(name)
        with contextlib.suppress(Exception):
            _ = self.workbench.index  # opened now, not in Home's first load (numpy, sqlite-vec)
        for name in VERIFY_PRELOAD:
            with contextlib.suppress(Exception):
                importlib.import_module(name)

    def on_unlocked(self, message: messages.Unlocked) -> None:
        """Start the session on the keys; if Home is being composed ahead, once it is (sooner than
        composing it again: ``compose_home_ahead`` calls :meth:`finish_unlock`)."""
        if self.home_ahead_pending or any(w.group == "prepare-home" and not w.is_finished for w in self.workers):
            self.unlocked_waiting = message
            return
        self.finish_unlock(message)

    def finish_unlock(self, message: messages.Unlocked) -> None:
        self.start_session(message.vault.keys)
        if message.created:
            self.notify("Vault created. Capture a first draft with n.", title="Welcome")
            self.call_after_refresh(self.offer_import)

    def offer_import(self) -> None:
        """Once, after a vault is created: the import screen with what this machine holds (Esc skips)."""
        from tui_app.screens.importer import ImportScreen  # lazy: a screen shown later

        if self.session is not None:
            self.push_screen(ImportScreen(self.session, first_run=True))

    # --- idle lock ----------------------------------------------------------------------------------

    def touch(self) -> None:
        self.last_input = time.monotonic()

    def keep_typed(self, key: str, text: str) -> None:
        """Remember ``text`` the person typed (``search.query``) across a lock, for the next unlock."""
        self.typed[key] = text

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key | events.MouseDown | events.Paste):
            self.touch()
        await super().on_event(event)

    def check_idle_lock(self) -> None:
        minutes = self.config.security.idle_lock_minutes
        if self.session is not None and minutes and time.monotonic() - self.last_input >= minutes * 60:
            self.lock(f"Locked after {plural(minutes, 'minute')} without input. The keys were forgotten.")

    def get_loading_widget(self) -> Widget:
        return StillLoadingIndicator() if self.animation_level == "none" else super().get_loading_widget()

    def get_key_display(self, binding: Binding) -> str:
        """F-keys in capitals (F3, as printed on the keyboard); everything else as Textual shows it."""
        display = super().get_key_display(binding)
        return display.upper() if re.fullmatch(r"f\d{1,2}", display) else display

    # --- actions ------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The lock key works while unlocked; the section keys too, and already while the keys are
        derived for a session Home is composed for (``next_session``): Home's footer is composed once,
        with its keys as they will be, and the gate ignores them (``action_section``)."""
        if action == "lock":
            return not self.locked
        if action == "section":
            return not self.locked or self.next_session is not None
        return True

    def switch_mode(self, mode: str) -> AwaitMount:  # type: ignore[override]
        """Textual's, without its 50 ms pause before the next paint when the mode's screen is composed
        already (shown before, or composed ahead): the pause hides a screen still being built, and
        this one is whole (``delay_update``)."""
        if mode != GATE_MODE:
            self.style_every_screen()
        composed_ahead = mode in self.ready_screens
        self.whole_screen = composed_ahead or mode in self.made_sections
        try:
            mounted = super().switch_mode(mode)
        finally:
            self.whole_screen = False
        if composed_ahead:
            paint_now(self.screen, self.size)
        return mounted

    def push_screen(self, screen: Screen[Any] | str, *args: Any, **kwargs: Any) -> Any:
        """Textual's, with every screen's rules parsed first (the keymap page or a dialog over the gate)."""
        self.style_every_screen()
        return super().push_screen(screen, *args, **kwargs)

    def delay_update(self, delay: float = 0.05) -> None:
        """Textual's pause before painting a screen switched to, which keeps the old screen on the
        terminal while the new one is built: not for a screen already whole, nor when switching from
        Textual's blank default screen (the keys given: nothing is on the terminal yet to keep, and the
        pause only delays the first frame). Locked, the gate is the first mode: no switch at all."""
        if not self.whole_screen and type(self.screen) is not Screen:
            super().delay_update(delay)

    async def action_section(self, name: str) -> None:
        """Go to a section; pressed again inside it, go back to its first screen. Not while the gate still
        shows after unlocking (``show_home_when_loaded``)."""
        if self.locked or name not in self.open_sections or self.current_mode == GATE_MODE:
            return
        if self.current_mode != name:
            await self.switch_mode(name)
            return
        while len(self.screen_stack) > 1 and not isinstance(self.screen, ModalScreen):
            await self.pop_screen()

    def action_lock(self) -> None:
        if self.current_mode != GATE_MODE:
            self.lock()

    def action_passphrase(self) -> None:
        """The passphrase screen: change it, or make a recovery key (p on the home screen, or the palette)."""
        from tui_app.screens.passphrase import PassphraseScreen  # lazy: a screen shown later

        if self.session is not None and not isinstance(self.screen, PassphraseScreen):
            self.push_screen(PassphraseScreen(self.session))

    def action_keys(self) -> None:
        """The keymap page (F1 or ?), over the screen it was opened from."""
        from tui_app.screens.keymap import SUB_SCREENS, KeymapScreen, keymap_groups  # lazy: a screen shown later

        if isinstance(self.screen, KeymapScreen):
            self.screen.dismiss(None)
            return
        screen = self.screen
        by_section = {s.name: s.title for s in SECTIONS}
        title = by_section.get(getattr(screen, "SECTION", ""), "")
        sub = {path.rpartition(":")[2]: name for name, path in SUB_SCREENS}.get(type(screen).__name__)
        title = sub or title or type(screen).__name__.removesuffix("Screen")
        sections = [(s.title, s.screen) for s in SECTIONS] if not self.locked else []
        groups = keymap_groups(
            screen,
            title,
            Binding.make_bindings(self.BINDINGS),
            sections,
            dict(self.config.tui.keymap),
            self.get_key_display,
        )
        self.push_screen(KeymapScreen(groups))

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """The screen as SVG. It shows decrypted text, so in a terminal it is written 0600 into the
        data home's ``exports`` folder (0700), never the working directory, and the notice says where;
        in a browser (``reverie serve``) it is handed to the browser as Textual does."""
        if self.is_web:
            return super().deliver_screenshot(filename, path, time_format)
        stamp = datetime.now().astimezone().strftime(time_format or "%Y-%m-%dT%H_%M_%S_%f")
        target = self.paths.exports / Path(filename or f"reverie_{stamp}.svg").name
        try:
            atomic_write_text(target, self.export_screenshot())
        except OSError as exc:
            self.notify(disk_full(exc) or f"Screenshot not saved: {target}: {exc.strerror or exc}",
                        title="Screenshot", severity="error")
            return None
        self.notify(f"Saved to {target} (readable by you only: it shows what the screen showed)",
                    title="Screenshot")
        return None

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's commands, with "Keys" opening the keymap page instead of the narrow help panel."""
        for command in super().get_system_commands(screen):
            if command.title == "Keys":
                yield SystemCommand("Keys", "Every key of every screen on one page (F1 or ?)", self.action_keys)
            else:
                yield command
        if not self.locked:
            yield SystemCommand("Passphrase", "Change the passphrase, or make a recovery key (p on Home)",
                                self.action_passphrase)
