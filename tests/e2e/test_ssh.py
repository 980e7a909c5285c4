"""The TUI over a real SSH connection, inside tmux, driven with send-keys and read with capture-pane.

A throwaway sshd listens on a free 127.0.0.1 port (``conftest.sshd``); each test opens
``ssh -t ... reverie --home DEMO`` in a tmux pane whose TERM is ``screen-256color`` and whose
environment has no COLORTERM (ssh does not forward it anyway). The demo home is built in the test's
temporary folder; the passphrase is typed into the app's own unlock screen. Afterwards the home is
checked through the CLI, not through the app.

Skips, with the reason, where sshd, ssh or tmux is not installed.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest
from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode

from core.config import load_config, save_config
from core.demo.build import DEMO_PASSPHRASE, DemoHome, build_demo_home
from tests.e2e.remote import Pane, SshServer, Tmux, reverie_command, tmux_key

pytestmark = pytest.mark.e2e

HOME_READY = ("F2 Home", "open drafts")  # the section bar (current section in full) and the review panel
IDLE_MINUTES = 1
IDLE_CHECK_SLACK = 15 + 15  # the app checks every 15 s; tmux, ssh and a loaded machine add the rest
WHEN = re.compile(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\d{1,2}) ([A-Z][a-z]{2}) (\d\d:\d\d)")


def cli(home: DemoHome, *args: str) -> subprocess.CompletedProcess[str]:
    """``reverie --home DEMO ARGS`` as a separate process, the passphrase from the environment."""
    env = {**os.environ, "REVERIE_PASSPHRASE": home.passphrase}
    return subprocess.run(
        [sys.executable, "-m", "tui_app.cli.main", "--home", str(home.paths.root), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def open_reverie(sshd: SshServer, tmux: Tmux, name: str, home: DemoHome, width: int = 80, height: int = 24) -> Pane:
    remote = reverie_command(home.paths.root, home.paths.cache.parent)
    return tmux.open(name, sshd.ssh_command(remote), width, height)


def unlock(pane: Pane, passphrase: str = DEMO_PASSPHRASE) -> float:
    """Type the passphrase on the unlock screen, check it is never shown, press Enter and wait for the
    home screen. Returns when Enter was sent: the app's last input is no earlier than that."""
    pane.wait_for("Reverie is locked")
    pane.type(passphrase)
    typed = pane.wait_for("•" * len(passphrase))
    assert passphrase not in typed, "the passphrase was echoed on the unlock screen"
    entered = time.monotonic()
    pane.send("Enter")
    home = pane.wait_for(*HOME_READY)
    assert passphrase not in home
    return entered


def below_rule(screen: str) -> str:
    """What a screen shows under its last horizontal rule (the detail panel under a table)."""
    return re.split(r"\n ─{20,}\n", screen)[-1]


def demo_home(folder: Path, idle_minutes: int | None = None) -> DemoHome:
    home = build_demo_home(folder)
    if idle_minutes is not None:
        config = load_config(home.paths.config)
        config.security.idle_lock_minutes = idle_minutes
        save_config(home.paths.config, config)
    return home


# --- idle lock: started first, checked last, so that its minute of waiting overlaps the other tests ---


@dataclass
class IdleSession:
    pane: Pane
    last_key_at: float


@pytest.fixture(scope="module", autouse=True)
def idle_session(sshd: SshServer, tmux: Tmux, tmp_path_factory: pytest.TempPathFactory) -> Iterator[IdleSession]:
    """A second session, on its own home with ``security.idle_lock_minutes = 1``, unlocked and then left
    alone while the other tests run."""
    folder = tmp_path_factory.mktemp("idle")
    with pytest.MonkeyPatch.context() as patch:  # its index goes to this folder, never the real cache
        patch.setenv("REVERIE_CACHE", str(folder / "cache"))
        home = demo_home(folder / "demo", idle_minutes=IDLE_MINUTES)
    pane = open_reverie(sshd, tmux, "idle", home)
    yield IdleSession(pane, unlock(pane))


# --- the review, a time-scoped search and a restore, at 80x24 -------------------------------------------


def test_review_search_and_restore_over_ssh(sshd: SshServer, tmux: Tmux, tmp_path: Path) -> None:
    home = demo_home(tmp_path / "demo")
    pane = open_reverie(sshd, tmux, "main", home)
    unlock(pane)

    # 256 colours only: TERM=screen-256color and no COLORTERM reach the app, and it draws with them.
    colours = pane.screen_with_colours()
    assert "38;5;" in colours
    assert not re.search(r"[34]8;2;\d", colours), "truecolor escapes sent to a 256-colour terminal"

    # Review: open the dentist draft, accept one suggestion, reject the other, approve, finalize.
    pane.send("F3")
    pane.wait_for("Drafts", "Dentist moved")
    for _ in range(6):  # down the queue until the panel under the table shows the dentist draft
        if "Dentist moved" in below_rule(pane.screen()):
            break
        pane.send("Down")
        time.sleep(0.2)
    pane.wait_until(lambda s: "Dentist moved" in below_rule(s), "the dentist draft highlighted")
    pane.send("Enter")
    pane.wait_for("2 of 2 pending", "occurred_at =")
    pane.send("a")
    pane.wait_for("Accept this suggestion?")
    pane.send("y")
    pane.wait_for("1 of 2 pending", "title = Dentist appointment moved")
    pane.send("r")
    pane.wait_for("Reject this suggestion?")
    pane.send("y")
    pane.wait_for("0 of 2 pending")
    pane.send("A")
    pane.wait_for("Approve this draft?")
    pane.send("y")
    pane.wait_for("Approved by me · ready to finalize")
    pane.send("f")
    pane.wait_for("Finalize this draft as a memory?")
    pane.send("y")
    pane.wait_for("Finalized · sealed as memory")

    # A time-scoped search, typed as a person types it.
    pane.send("F5")
    pane.wait_for("Search ›")
    query = "what did we decide last tuesday night"
    pane.type(query)
    screen = pane.wait_for("last tuesday night →", "results in time order")
    tui_times = set(WHEN.findall(screen.split("When", 1)[1]))

    # Curation: restore the record the demo moved to cold storage.
    pane.send("F8")
    pane.wait_for("1 record in cold storage", "reference_meetup_talk.md")
    pane.send("r")
    pane.wait_for("Restore 1 record?", "the copy is intact")
    pane.send("y")
    pane.wait_for("Cold storage is empty")

    # The same session at 200x60: every section in the bar, the footer on the last line.
    pane.resize(200, 60)
    wide = pane.wait_for("F7 Curation", "F8 Cold storage")
    rows = wide.rstrip("\n").split("\n")
    assert len(rows) == 60 and max(len(row) for row in rows) > 150
    assert "palette" in rows[-1]

    pane.send("C-q")
    pane.wait_until(lambda _: pane.dead(), "the app to quit and ssh to end")
    assert pane.exit_status() == 0

    # The home, read back through the CLI.
    shown = cli(home, "draft", "show", "draft_demo_dentist", "--json")
    assert shown.returncode == 0, shown.stderr
    draft = json.loads(shown.stdout)
    assert draft["state"] == "finalized" and draft["finalized_memory_id"]
    assert {d["suggestion_id"]: d["action"] for d in draft["decisions"]} == {
        "sug_dentist_when": "accepted",
        "sug_dentist_title": "rejected",
    }
    memory = cli(home, "memory", "show", draft["finalized_memory_id"], "--json")
    assert memory.returncode == 0, memory.stderr
    assert "Dentist moved my appointment" in memory.stdout

    verified = cli(home, "verify", "--json")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert json.loads(verified.stdout)["ok"] is True

    cold = cli(home, "curate", "cold", "--json")
    assert cold.returncode == 0, cold.stderr
    assert json.loads(cold.stdout)["cold"] == []
    log = json.loads(cli(home, "curate", "log", "--json").stdout)
    restored = [e for e in log["events"] if e["event"] == "restored"]
    assert any(e.get("path") == "reference_meetup_talk.md" for e in restored), log
    record = home.paths.root / "claude/projects/-home-me-code-reverie/memory/reference_meetup_talk.md"
    assert record.is_file() and not record.with_name(record.name + ".tombstone").exists()

    # The search the TUI showed is the search the CLI answers: the same turns, in the same range.
    answer = json.loads(cli(home, "search", query, "--json", "--no-sync").stdout)
    assert answer["range"] is not None
    zone = load_config(home.paths.config).zone()
    cli_times = {when_cells(r["ts"], zone) for r in answer["results"]}
    assert tui_times and tui_times <= cli_times, (tui_times, cli_times)


def when_cells(stamp: str, zone: object) -> tuple[str, str, str, str]:
    """A result's time as the search screen's When column shows it: ("Tue", "24", "Nov", "18:05")."""
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(zone)  # type: ignore[arg-type]
    return (f"{moment:%a}", str(moment.day), f"{moment:%b}", f"{moment:%H:%M}")


# --- without -t: no terminal, so no app (the person's terminal would show the passphrase as typed) ----------


def test_without_a_terminal_the_app_refuses_to_start(sshd: SshServer, tmp_path: Path) -> None:
    home = demo_home(tmp_path / "demo")
    started = time.monotonic()
    done = sshd.run(reverie_command(home.paths.root, home.paths.cache.parent), timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip() == (
        "reverie: the app needs a terminal; over SSH, ask for one with -t: ssh -t HOST reverie"
    )
    assert "\x1b[" not in done.stdout  # nothing was drawn
    assert time.monotonic() - started < 30


# --- every key the app binds reaches it over SSH and tmux --------------------------------------------------


def bound_keys() -> list[str]:
    """Every key bound anywhere in the app (the app, each screen and widget of ``tui_app``), with
    the command palette's key and the keys of the tables and fields the screens move through."""
    import tui_app.screens
    import tui_app.widgets
    from tui_app.app import ReverieApp

    keys: list[str] = [App.COMMAND_PALETTE_BINDING, "tab", "shift+tab", "pageup", "pagedown", "backspace"]
    classes: list[type[DOMNode] | type[App[None]]] = [ReverieApp]
    for package in (tui_app.screens, tui_app.widgets):
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            classes += [
                obj
                for obj in vars(module).values()
                if isinstance(obj, type) and issubclass(obj, DOMNode) and obj.__module__ == module.__name__
            ]
    for cls in classes:
        for binding in cls.__dict__.get("BINDINGS", []):
            key = binding.key if isinstance(binding, Binding) else binding[0]
            keys += [k.strip() for k in key.split(",")]
    return list(dict.fromkeys(keys))


def test_every_bound_key_survives_ssh_and_tmux(sshd: SshServer, tmux: Tmux, tmp_path: Path) -> None:
    keys = bound_keys()
    assert {"f2", "f8", "ctrl+l", "ctrl+o", "ctrl+p", "ctrl+q", "escape", "A"} <= set(keys)
    unknown = [key for key in keys if tmux_key(key) is None]
    assert not unknown, f"bound keys with no tmux name (check that they survive SSH, then add them): {unknown}"

    received = tmp_path / "keys.txt"
    echo = Path(__file__).with_name("keyecho.py")
    remote = f"exec {sys.executable} {echo} {received}"
    pane = tmux.open("keys", sshd.ssh_command(remote), 100, 30)
    pane.wait_for("keyecho ready")
    for count, key in enumerate(keys, start=1):
        name = tmux_key(key)
        assert name is not None
        if len(name) == 1:
            pane.type(name)
        else:
            pane.send(name)
        pane.wait_for(f" · {count} keys · last {key}", timeout=10)
    assert received.read_text().split("\n")[:-1] == keys


# --- the idle lock (its session was unlocked before the tests above ran) -----------------------------------


def test_idle_lock_over_ssh(idle_session: IdleSession) -> None:
    pane = idle_session.pane
    limit = IDLE_MINUTES * 60
    if time.monotonic() - idle_session.last_key_at < limit - 5:
        assert "Reverie is locked" not in pane.screen(), "locked before the idle time was up"
    remaining = idle_session.last_key_at + limit + IDLE_CHECK_SLACK - time.monotonic()
    locked = pane.wait_for("Reverie is locked", f"after {IDLE_MINUTES} minute without input", timeout=max(remaining, 1))
    assert time.monotonic() - idle_session.last_key_at >= limit
    assert "drafts" not in locked  # the home screen is gone with the keys
    unlock(pane)  # and the passphrase opens it again
