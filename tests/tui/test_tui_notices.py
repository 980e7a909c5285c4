"""The workbench's notices in the TUI ("loading the embedding model…", another process upgrading the
index), said from whatever worker thread waits: on the search screen in its status line, on any other
screen as a toast, so a wait is never silent where the person is looking."""

from __future__ import annotations

import threading

from textual.widgets import Static

from core.demo.build import DemoHome
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    settle,
)
from tui_app.app import ReverieApp
from tui_app.screens.search import SearchScreen

LOADING = "loading the embedding model…"


def said_from_a_worker_thread(app: ReverieApp, line: str) -> None:
    """What the workbench does when it waits: call its notice from the thread that waits."""
    thread = threading.Thread(target=app.workbench.notice, args=(line,))
    thread.start()
    thread.join(timeout=10)


def toasts(app: ReverieApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_a_notice_on_a_screen_without_a_status_line_is_a_toast(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        said_from_a_worker_thread(app, LOADING)
        await settle(pilot)
        assert "Loading the embedding model…" in toasts(app)


async def test_a_notice_on_the_search_screen_is_its_status_line_not_a_toast(demo: DemoHome) -> None:
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f5")
        assert isinstance(app.screen, SearchScreen)
        before = toasts(app)
        said_from_a_worker_thread(app, "index.db is being upgraded by another Reverie process (pid 4242); waiting…")
        await settle(pilot)
        status = str(app.screen.query_one("#search-mode", Static).render())
        assert "Index.db is being upgraded by another Reverie process (pid 4242); waiting…" in status
        assert toasts(app) == before
