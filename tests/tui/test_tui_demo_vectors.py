"""The demo's vectors are built in the background after unlocking, with progress in the section bar,
while the app stays usable; semantic search then answers without building anything."""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
from textual.widgets import Static

from core.demo.build import DemoHome
from core.embed.hashing import HashingEmbedder
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    FakeEditor,
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    press,
    settle,
    tui_config,
)
from tui_app.app import ReverieApp
from tui_app.screens.memories import MemoriesScreen
from tui_app.screens.search import SearchScreen
from tui_app.views.search_backend import SearchBackend


class SlowEmbedder(HashingEmbedder):
    """Hashed vectors (no model), a little slow, as a real model is: the build can be watched."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        time.sleep(0.3)
        return super().embed(texts)


async def test_the_demo_builds_its_vectors_in_the_background(demo: DemoHome) -> None:
    app = ReverieApp(demo.paths, tui_config(), demo.keys, editor=FakeEditor(), label="demo",
                     embedder=lambda: SlowEmbedder(dim=64), vectors_in_background=True)
    notes: list[str] = []
    notify = app.notify
    app.notify = lambda message, **kw: (notes.append(str(message)), notify(message, **kw))[1]  # type: ignore[method-assign]
    async with app.run_test(size=(100, 30)) as pilot:
        seen: list[str] = []
        for _ in range(500):
            await pilot.pause(0.02)
            seen.append(str(app.screen.query_one("#section-bar-right", Static).render()))
            if any("vectors " in line and "%" in line for line in seen):
                break
        assert any("vectors " in line and "%" in line for line in seen), seen  # progress, on screen
        assert app.building_vectors
        await pilot.press("f4")  # the app answers meanwhile
        assert isinstance(app.screen, MemoriesScreen)
        await settle(pilot)
        assert not app.building_vectors
        assert str(app.screen.query_one("#section-bar-right", Static).render()) == "demo · ^l Lock"
        assert not SearchBackend(app.workbench).needs_vectors()  # every turn and memory has its vector
        assert any("in the background" in note for note in notes) and any("vectors ready" in note for note in notes)


async def test_a_search_shown_when_the_build_ends_asks_again(demo: DemoHome) -> None:
    app = ReverieApp(demo.paths, tui_config(), demo.keys, editor=FakeEditor(), label="demo",
                     embedder=lambda: SlowEmbedder(dim=64), vectors_in_background=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f5", *"ski")
        await press(pilot, "ctrl+t")  # a semantic mode chosen while the app builds: no second build
        await settle(pilot)
        assert isinstance(app.screen, SearchScreen) and not app.building_vectors
        answer = app.screen.answer
        assert answer is not None and answer.error is None and answer.request.mode != "auto"


async def test_without_the_option_no_vector_is_built(demo: DemoHome) -> None:
    app = ReverieApp(demo.paths, tui_config(), demo.keys, editor=FakeEditor(), label="demo",
                     embedder=lambda: SlowEmbedder(dim=64))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert SearchBackend(app.workbench).needs_vectors()
