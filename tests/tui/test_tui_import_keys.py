"""The import screen's footer says what each key does now: Enter imports (not "Open"), Esc is "Stop"
while an import runs and "Back" otherwise, and the import keys are dimmed when nothing was found."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from core.demo.build import DemoHome
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures (demo, frozen_clock)
    demo_fixture,  # noqa: F401
    frozen_clock_fixture,  # noqa: F401
    make_app,
    press,
    settle,
)
from tui_app.screens.home import HomeScreen
from tui_app.screens.importer import ImportScreen

SESSION = "44444444-4444-4444-8444-444444444444"


def footer(screen: object) -> dict[str, tuple[str, bool]]:
    """Key → (label, enabled) as the footer shows them."""
    return {key: (b.binding.description, b.enabled) for key, b in screen.active_bindings.items()}  # type: ignore[attr-defined]


@pytest.fixture(name="machine")
def machine_fixture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "me"
    path = home / ".claude" / "projects" / "-home-me-app" / f"{SESSION}.jsonl"
    path.parent.mkdir(parents=True)
    line = {"type": "user", "uuid": f"{SESSION[:8]}-0000-4000-8000-000000000001", "sessionId": SESSION,
            "timestamp": "2026-11-03T10:00:00.000Z", "message": {"role": "user", "content": "a dirigible question"}}
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    return home


async def test_the_footer_names_enter_import_and_esc_back(demo: DemoHome, machine: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "i")
        screen = app.screen
        assert isinstance(screen, ImportScreen)
        keys = footer(screen)
        assert keys["enter"] == ("Import", True)
        assert keys["escape"] == ("Back", True)
        assert keys["a"] == ("All", True)
        await press(pilot, "escape")
        assert isinstance(app.screen, HomeScreen)


async def test_esc_reads_stop_while_an_import_runs(
    demo: DemoHome, machine: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "i")
        screen = app.screen
        assert isinstance(screen, ImportScreen)
        log = screen.session.workbench.log
        real_ingest = log.ingest
        release = threading.Event()
        seen: list[dict[str, tuple[str, bool]]] = []

        def slow_ingest(*args: object, **kwargs: object) -> object:
            release.wait(10)
            return real_ingest(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(log, "ingest", slow_ingest)
        await pilot.press("enter")
        await pilot.pause()
        seen.append(footer(screen))
        await pilot.press("escape")  # stops, does not leave
        await pilot.pause()
        release.set()
        await settle(pilot)
        assert seen[0]["escape"] == ("Stop", True)
        assert seen[0]["a"] == ("All", False)  # dimmed while it runs
        assert isinstance(app.screen, ImportScreen)
        assert footer(screen)["escape"] == ("Back", True)


async def test_nothing_found_dims_the_import_keys(demo: DemoHome, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "nobody"))
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "i")
        screen = app.screen
        assert isinstance(screen, ImportScreen)
        await settle(pilot)
        keys = footer(screen)
        assert keys["a"] == ("All", False)
        assert keys["o"] == ("Other…", True) and keys["r"] == ("Reindex", True)
