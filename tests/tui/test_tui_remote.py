"""What makes the app safe and light over a remote link: no app without a terminal, the keys gone from
memory when it locks, a loading state that is drawn once instead of 16 times a second, and no mouse
tracking asked of the terminal when ``tui.mouse`` is off.

The end-to-end proofs over a real sshd and tmux are in ``tests/e2e/test_ssh.py``."""

from __future__ import annotations

import asyncio
import fcntl
import gc
import io
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
import weakref
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from textual.screen import Screen
from textual.widgets import LoadingIndicator

from core.config import load_config, parse_config, save_config
from core.demo.build import DEMO_PASSPHRASE, DemoHome, build_demo_home
from core.errors import ReverieError, VaultLocked
from core.vault.crypto import unlock
from core.vault.store import ForgottenKeys
from tui_app import app as app_module
from tui_app.app import NoTerminal, ReverieApp, StillLoadingIndicator, require_terminal
from tui_app.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
ANY_MOTION_TRACKING = b"\x1b[?1003h"  # the terminal reports every movement of the pointer
MOUSE_REPORTING = (b"\x1b[?1000h", ANY_MOTION_TRACKING, b"\x1b[?1006h")


@pytest.fixture
def demo(tmp_path: Path) -> DemoHome:
    return build_demo_home(tmp_path / "demo")


def no_tty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    monkeypatch.setattr(app_module.sys, "__stdin__", io.StringIO())
    monkeypatch.setattr(app_module.sys, "__stdout__", io.StringIO())


def test_without_a_terminal_the_app_does_not_start(demo: DemoHome, monkeypatch: pytest.MonkeyPatch) -> None:
    no_tty(monkeypatch)
    with pytest.raises(NoTerminal, match="ssh -t HOST reverie"):
        require_terminal()
    app = ReverieApp(demo.paths, load_config(demo.paths.config))
    with pytest.raises(NoTerminal):
        app.run()
    assert app.return_code is None  # it never ran
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")  # a browser tab
    require_terminal()


async def test_locking_takes_the_keys_out_of_memory(demo: DemoHome) -> None:
    app = ReverieApp(demo.paths, load_config(demo.paths.config), unlock(demo.paths.vault_header, DEMO_PASSPHRASE))
    async with app.run_test(size=(100, 30)) as pilot:
        for key in ("f3", "f4", "f8", "f2"):  # screens and workers that held the session
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert app.session is not None
        vault = app.session.vault
        keys = weakref.ref(vault.keys)
        draft_path = next(demo.paths.drafts.iterdir())
        await pilot.press("ctrl+l")
        await app.workers.wait_for_complete()
        await pilot.pause()
        gc.collect()
        assert app.locked and "Reverie is locked" in str(app.screen.query_one(".gate-title").render())
        assert keys() is None, "the vault's keys are still in memory after locking"
        assert isinstance(vault.keys, ForgottenKeys) and isinstance(vault.ledger.keys, ForgottenKeys)
        with pytest.raises(VaultLocked, match="locked"):
            vault.get_draft(draft_path.stem)  # whatever still holds the old vault cannot decrypt


async def drawings_in_a_second(app: ReverieApp) -> tuple[LoadingIndicator, int]:
    """Show the app's loading widget (what ``widget.loading = True`` covers a widget with) on a screen
    of its own and count how often it is drawn in a second."""
    indicator = app.get_loading_widget()
    assert isinstance(indicator, LoadingIndicator)
    drawn: list[float] = []
    draw = indicator.render

    def counting() -> object:
        drawn.append(0)
        return draw()

    indicator.render = counting  # type: ignore[method-assign]
    screen: Screen[None] = Screen()
    await app.push_screen(screen)
    await screen.mount(indicator)
    await asyncio.sleep(1.0)
    return indicator, len(drawn)


async def test_a_loading_state_is_drawn_once_with_animations_off(demo: DemoHome) -> None:
    app = ReverieApp(demo.paths, load_config(demo.paths.config), demo.keys)
    assert app.animation_level == "none"  # the default: tui.animations = false
    async with app.run_test(size=(100, 30)):
        indicator, drawn = await drawings_in_a_second(app)
        assert isinstance(indicator, StillLoadingIndicator)
        assert drawn <= 2, f"drawn {drawn} times in a second"
        assert "Loading" in str(indicator.render())


async def test_with_animations_on_the_loading_dots_move(demo: DemoHome) -> None:
    config = load_config(demo.paths.config)
    config.tui.animations = True
    app = ReverieApp(demo.paths, config, demo.keys)
    async with app.run_test(size=(100, 30)):
        indicator, drawn = await drawings_in_a_second(app)
        assert not isinstance(indicator, StillLoadingIndicator)
        assert drawn >= 5, f"drawn {drawn} times in a second"  # Textual's moving dots: 16 a second


# --- tui.mouse ----------------------------------------------------------------------------------------


def test_tui_mouse_is_read_from_config_toml_and_defaults_to_on() -> None:
    assert parse_config("").tui.mouse is True
    assert parse_config("[tui]\nmouse = false\n").tui.mouse is False
    with pytest.raises(ReverieError, match=r"tui\.mouse"):
        parse_config('[tui]\nmouse = "no"\n')


@pytest.mark.parametrize(
    ("setting", "flag", "expected"), [(True, None, True), (False, None, False), (True, False, False)]
)
def test_the_app_runs_textual_with_the_mouse_setting(
    demo: DemoHome, monkeypatch: pytest.MonkeyPatch, setting: bool, flag: bool | None, expected: bool
) -> None:
    """``tui.mouse`` (or ``--no-mouse``, passed as ``mouse=False``) reaches Textual's ``App.run``,
    which hands it to the driver: with False the driver never writes the mouse escape sequences."""
    seen: dict[str, Any] = {}
    monkeypatch.setattr(app_module.App, "run", lambda self, **kwargs: seen.update(kwargs))
    monkeypatch.setattr(app_module, "require_terminal", lambda: None)
    config = load_config(demo.paths.config)
    config.tui.mouse = setting
    ReverieApp(demo.paths, config, demo.keys).run(mouse=flag)
    assert seen["mouse"] is expected


@pytest.mark.parametrize(("args", "expected"), [([], None), (["--no-mouse"], False)])
def test_demo_no_mouse_flag(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: list[str], expected: bool | None
) -> None:
    """``reverie demo --no-mouse`` runs without the mouse; without the flag the app follows tui.mouse."""
    seen: dict[str, Any] = {}
    monkeypatch.setattr(ReverieApp, "run", lambda self, **kwargs: seen.update(kwargs))
    result = CliRunner().invoke(cli, ["demo", "--path", str(tmp_path / "demo"), *args])
    assert result.exit_code == 0, result.output
    assert seen["mouse"] is expected


@pytest.mark.parametrize(("args", "expected"), [([], None), (["--no-mouse"], False)])
def test_reverie_no_mouse_flag(demo: DemoHome, monkeypatch: pytest.MonkeyPatch, args: list[str],
                               expected: bool | None) -> None:
    """``reverie --no-mouse`` (the app on the home) runs without the mouse; without it, tui.mouse decides."""
    seen: dict[str, Any] = {}
    monkeypatch.setattr(ReverieApp, "run", lambda self, **kwargs: seen.update(kwargs))
    monkeypatch.setenv("REVERIE_PASSPHRASE", DEMO_PASSPHRASE)
    result = CliRunner().invoke(cli, ["--home", str(demo.paths.root), *args])
    assert result.exit_code == 0, result.output
    assert seen["mouse"] is expected


def escape_sequences_of_a_real_run(home: Path) -> bytes:
    """Run ``reverie`` on ``home`` in a pseudo-terminal of 80x24 (unlocked by REVERIE_PASSPHRASE), wait
    for the home screen, quit with ctrl+q, and return every byte the app wrote to the terminal."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "REVERIE_PASSPHRASE": DEMO_PASSPHRASE, "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}
    env.pop("TEXTUAL_DRIVER", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "tui_app.cli.main", "--home", str(home)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    written = b""
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and b"Activity" not in written:  # the home screen is drawn
            if select.select([master], [], [], 0.2)[0]:
                written += os.read(master, 65536)
        os.write(master, b"\x11")  # ctrl+q
        while process.poll() is None and time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    written += os.read(master, 65536)
                except OSError:  # the app closed its end
                    break
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    assert b"Activity" in written, written[-500:]
    return written


@pytest.mark.parametrize("mouse", [True, False])
def test_with_tui_mouse_false_the_terminal_is_never_asked_for_mouse_events(demo: DemoHome, mouse: bool) -> None:
    """A real run in a pseudo-terminal: by default Textual asks for any-motion tracking, so every move
    of the pointer sends an escape sequence over SSH; with ``tui.mouse = false`` nothing asks for it."""
    config = load_config(demo.paths.config)
    config.tui.mouse = mouse
    save_config(demo.paths.config, config)
    written = escape_sequences_of_a_real_run(demo.paths.root)
    assert b"\x1b[?1049h" in written  # the app did take over the screen
    for sequence in MOUSE_REPORTING:
        assert (sequence in written) is mouse, sequence
