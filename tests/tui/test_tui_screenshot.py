"""The command palette's "Screenshot" holds decrypted text: it is written 0600 into the data home's
exports folder (0700), never the working directory, and the notice says where."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from core.demo.build import DemoHome
from tests.helpers.tui import demo_fixture, frozen_clock_fixture, make_app, settle  # noqa: F401

pytestmark = pytest.mark.usefixtures("frozen_clock")


async def test_a_screenshot_is_private_in_the_exports_folder(demo: DemoHome, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    old = os.umask(0o022)  # what most shells hand a process: without care, files come out 0644
    try:
        app = make_app(demo)
        said: list[str] = []
        original = app.notify
        monkeypatch.setattr(app, "notify", lambda message, **kw: (said.append(str(message)), original(message, **kw)))
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            app.action_screenshot()
            await settle(pilot)
    finally:
        os.umask(old)
    assert not list(work.iterdir())  # nothing in the working directory
    saved = list(demo.paths.exports.glob("*.svg"))
    assert len(saved) == 1 and "<svg" in saved[0].read_text(encoding="utf-8")
    assert stat.S_IMODE(saved[0].stat().st_mode) == 0o600
    assert stat.S_IMODE(demo.paths.exports.stat().st_mode) == 0o700
    assert any(str(saved[0]) in line for line in said), said
