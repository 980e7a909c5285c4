"""Snapshots of the passphrase screen and its change dialog (after a wrong current passphrase), at
80x24 and 100x30: clock frozen, ids stable, cursor blink off. A new recovery key is random, so its
dialog is checked by the pilot tests in test_tui_passphrase.py, not here."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot

from core.demo.build import DemoHome
from tests.helpers.tui import (  # the *_fixture names are pytest fixtures
    frozen_clock_fixture,  # noqa: F401
    make_app,
    settle,
    snapshot_demo_fixture,  # noqa: F401
    stable_ids_fixture,  # noqa: F401
)

Snap = Callable[..., bool]


def typed(*steps: str) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """p on Home; then each step: a key name, or text typed and entered (after "=")."""

    async def run(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for step in ("p", *steps):
            if step.startswith("="):
                await pilot.press(*step[1:], "enter")
            else:
                await pilot.press(step)
            await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    return run


def test_passphrase_screen(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    assert snap_compare(make_app(snapshot_demo), terminal_size=(100, 30), run_before=typed())


def test_passphrase_change_refused_80x24(snap_compare: Snap, snapshot_demo: DemoHome) -> None:
    run = typed("c", "=not it", "=a new one", "=a new one")  # long enough: the refusal is the current one
    assert snap_compare(make_app(snapshot_demo), terminal_size=(80, 24), run_before=run)
