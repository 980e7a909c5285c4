"""Terminal escape injection from stored text (issue 11, F4), under a real pseudo-terminal.

An assistant proposes a draft (or a suggestion, or a transcript turn) holding control characters: an SGR
that hides text, a clear-screen, a carriage return that overwrites the line, a window title (OSC 0), a
hidden hyperlink (OSC 8), a clipboard write (OSC 52), a C1 CSI. The person then runs ``reverie draft
show`` / ``draft list`` / ``search`` / ``context`` on a terminal. Every one of those bytes must reach the
terminal as visible text (``\\x1b[8m``), never as a control. A pipe is not enough to test this: click
strips colour codes when stdout is not a terminal, which hid the problem from the earlier tests.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from core.textsafe import one_line, visible
from tests.conftest import TEST_PASSPHRASE

ROOT = Path(__file__).resolve().parents[2]
HIDDEN = "\x1b[8mand wire the savings to account 0000\x1b[0m"
PAYLOADS = (
    HIDDEN,
    "\x1b[2J\x1b[H",  # clear the screen, cursor home
    "\rApproved by you.",  # overwrite the line
    "\x1b]0;innocent title\x07",  # window title
    "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\",  # hidden hyperlink
    "\x1b]52;c;cm0gLXJmIH4=\x07",  # clipboard write
    "\u009b31m",  # C1 CSI
    "\u202eevil\u202c",  # bidirectional override
)
CONTENT = "We chose the blue tiles " + "".join(PAYLOADS)


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_")}
    env.update(REVERIE_HOME=str(tmp_path / "home"), REVERIE_CACHE=str(tmp_path / "cache"), REVERIE_KDF="test",
               REVERIE_PASSPHRASE=TEST_PASSPHRASE, PYTHONPATH=str(ROOT), TERM="xterm-256color", COLUMNS="200")
    return env


def on_a_terminal(env: dict[str, str], *args: str) -> tuple[int, bytes]:
    """Run ``reverie ARGS`` with stdout and stderr on a pseudo-terminal; (exit code, the bytes the terminal got)."""
    master, slave = os.openpty()
    child = subprocess.Popen([sys.executable, "-c", "from tui_app.cli.main import main; main()", *args],
                             stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env, cwd=ROOT)
    os.close(slave)
    received = bytearray()
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            child.kill()
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        received += chunk
    os.close(master)
    return child.wait(timeout=60), bytes(received)


def _assert_inert(out: bytes) -> None:
    for control in (b"\x1b", b"\x07", b"\x9b", b"\xc2\x9b", "\u202e".encode()):
        assert control not in out, (control, out)
    assert b"\r" not in out.replace(b"\r\n", b"")  # a pty turns \n into \r\n; no bare carriage return


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    env = _env(tmp_path)
    code, out = on_a_terminal(env, "init")
    assert code == 0, out
    return env


def test_the_pty_really_is_a_terminal(env: dict[str, str]) -> None:
    """The harness itself: a program run by it sees a terminal on stdout, as a person's shell gives it."""
    master, slave = os.openpty()
    child = subprocess.run([sys.executable, "-c", "import sys; print(sys.stdout.isatty())"], stdout=slave,
                           env=env, timeout=60)
    os.close(slave)
    assert child.returncode == 0 and os.read(master, 100).strip() == b"True"
    os.close(master)


def test_a_draft_with_escape_sequences_is_shown_escaped_on_a_terminal(env: dict[str, str]) -> None:
    code, out = on_a_terminal(env, "draft", "new", CONTENT, "--no-duplicate-check", "--json")
    assert code == 0, out
    draft_id = json.loads(out.decode().replace("\r\n", "\n"))["draft_id"]
    code, _ = on_a_terminal(env, "draft", "suggest", draft_id, "location", "Seoul\x1b[2K", "--source", "mcp",
                            "--model", "gpt\x1b]0;owned\x07", "--id", "s1")
    assert code == 0
    for args in (("draft", "show", draft_id), ("draft", "list")):
        code, out = on_a_terminal(env, *args)
        assert code == 0, out
        _assert_inert(out)
        assert b"\\x1b[8mand wire the savings" in out  # the hidden words are there to read
    code, out = on_a_terminal(env, "draft", "show", draft_id)
    assert b"gpt\\x1b]0;owned\\x07" in out and b"\\u202eevil" in out


@pytest.mark.parametrize("brk", ["\n", "\r", "\u2028", "\u2029", "\x85", "\x0b", "\x0c"])
def test_an_assistants_names_cannot_start_a_line_in_draft_show(env: dict[str, str], brk: str) -> None:
    """A suggestion's source and model (what an assistant calls itself) are one line of data in
    `draft show`: a line break in them cannot forge a line of its own (a header, a 'reviewed' item)."""
    forged = f"gpt{brk}## Confirmed memories{brk}- [reviewed] the person confirmed: wire the savings"
    code, out = on_a_terminal(env, "draft", "new", "Dinner with Mina.", "--no-duplicate-check", "--json")
    draft_id = json.loads(out.decode().replace("\r\n", "\n"))["draft_id"]
    code, out = on_a_terminal(env, "draft", "suggest", draft_id, "location", "Seoul", "--source", f"mcp{brk}x",
                              "--model", forged, "--id", "s1")
    assert code == 0, out
    code, out = on_a_terminal(env, "draft", "show", draft_id)
    assert code == 0, out
    shown = out.decode().replace("\r\n", "\n").splitlines()
    assert not any(line.lstrip().startswith(("## ", "- [reviewed]")) for line in shown), shown
    assert any("gpt ## Confirmed memories - [reviewed]" in line and "s1: location" in line for line in shown), shown


def test_json_output_stays_exact(env: dict[str, str]) -> None:
    code, out = on_a_terminal(env, "draft", "new", CONTENT, "--no-duplicate-check", "--json")
    draft_id = json.loads(out.decode().replace("\r\n", "\n"))["draft_id"]
    code, out = on_a_terminal(env, "draft", "show", draft_id, "--json")
    assert code == 0 and json.loads(out.decode().replace("\r\n", "\n"))["content"] == CONTENT


def test_an_ingested_turn_with_escapes_is_escaped_by_search_and_context(env: dict[str, str], tmp_path: Path) -> None:
    source = tmp_path / "t.jsonl"
    turn = {"ts": "2025-05-05T10:00:00Z", "role": "assistant", "session": "s", "id": "x1",
            "text": "the ski trip plan " + "".join(PAYLOADS)}
    source.write_text(json.dumps(turn) + "\n", encoding="utf-8")
    code, out = on_a_terminal(env, "ingest", "--no-embed", str(source))
    assert code == 0, out
    for args in (("search", "ski", "trip", "--mode", "exact", "--now", "2025-06-01T00:00:00Z"),
                 ("context", "ski", "trip", "--now", "2025-06-01T00:00:00Z")):
        code, out = on_a_terminal(env, *args)
        assert code == 0, out
        _assert_inert(out)
        assert b"\\x1b[8m" in out


def test_visible_escapes_controls_and_keeps_everything_else() -> None:
    assert visible("a\x1b[8mb") == "a\\x1b[8mb"
    assert visible("line\nnext\tcol") == "line\nnext\tcol"
    assert one_line("line\nnext\tcol") == "line\\x0anext\\x09col"
    assert visible("\x00\x7f\x85\u009b") == "\\x00\\x7f\\x85\\x9b"
    assert visible("\u202eevil\u2066") == "\\u202eevil\\u2066"
    text = "한국어 日本語 emoji 🎿 café — “quotes”"
    assert visible(text) == text
