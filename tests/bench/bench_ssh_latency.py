"""Keystroke-to-screen latency of the TUI over SSH on loopback, against the same app without SSH.

    /work/venv/bin/python tests/bench/bench_ssh_latency.py [--rounds 3] [--cadence-ms 150] [--json]

A throwaway sshd on a free 127.0.0.1 port (``tests/e2e/remote.py``) and one private tmux server;
two panes of 100x30, TERM=screen-256color: ``ssh -t ... reverie`` and ``reverie`` directly (the
reference), each on its own demo home, unlocked through the app's own screen. Each measurement sends
one key with ``tmux send-keys`` and polls ``capture-pane`` until the screen shows its effect; the
time includes the send-keys call and a poll (its cost is printed, it bounds the resolution).

- search, echo: a character typed into the search field, until the field shows it. Characters go
  at a steady typing pace (``--cadence-ms``), as a person types.
- search, results: from the last character of a query until its results are on screen: the pause
  the search waits for (``tui.search_debounce_ms``, 300 by default) plus the search.
- search, no search while typing: how many searches ran before the last character (0 is right: each
  new character restarts the wait).
- review queue, next/previous: ↓ or ↑ in the queue (all 11 drafts), until the panel under the table
  shows the next draft.
- review queue, open / back: Enter until the draft's suggestions show; Esc until the queue is back.

Needs sshd (openssh-server), ssh and tmux; exits with a message where one is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.e2e.remote import Pane, SshServer, Tmux, missing_tools, reverie_command  # noqa: E402

QUERIES = ("what did we decide last tuesday night", "sqlite-vec fallback last month", "kate hakuba onsen")
SIZE = (100, 30)
ANSI = re.compile(r"\x1b\[[0-9;:?]*[ -/]*[@-~]")
RULE = re.compile(r"\n ─{20,}\n")
RESULTS = re.compile(r"\d+ results? (in time order|by relevance)|nothing found")
TIMEOUT = 30.0


@dataclass
class Samples:
    """Milliseconds per measurement, by what was measured."""

    ms: dict[str, list[float]] = field(default_factory=dict)
    counts: dict[str, list[int]] = field(default_factory=dict)

    def add(self, name: str, seconds: float) -> None:
        self.ms.setdefault(name, []).append(seconds * 1000)

    def count(self, name: str, value: int) -> None:
        self.counts.setdefault(name, []).append(value)


def timed(
    pane: Pane, send: Callable[[], None], done: Callable[[str], bool], *, colours: bool = False
) -> tuple[float, str]:
    """Send, then poll the screen (with its colour escapes when ``colours``: a moved cursor shows)
    until ``done``; the seconds it took and the screen."""
    read = pane.screen_with_colours if colours else pane.screen
    started = time.perf_counter()
    send()
    deadline = started + TIMEOUT
    while True:
        screen = read()
        if done(screen):
            return time.perf_counter() - started, screen
        if time.perf_counter() > deadline:
            raise TimeoutError(f"the screen did not change as expected:\n{screen}")


def search_line(screen: str) -> str:
    return next((line for line in screen.split("\n") if "Search ›" in line), "")


def below_rule(screen: str) -> str:
    return RULE.split(screen)[-1]


def unlock(pane: Pane, passphrase: str) -> None:
    pane.wait_for("Reverie is locked", timeout=TIMEOUT)
    pane.type(passphrase)
    pane.send("Enter")
    pane.wait_for("F3 Review", "drafts", timeout=TIMEOUT)


def bench_search(pane: Pane, samples: Samples, cadence: float) -> None:
    pane.send("F5")
    pane.wait_for("Search ›", "Index:", timeout=TIMEOUT)
    for query in QUERIES:
        searches_while_typing = 0
        last = 0.0
        for index, char in enumerate(query):
            typed = query[: index + 1]
            time.sleep(max(0.0, cadence - (time.perf_counter() - last)))
            last = time.perf_counter()
            before = search_line(pane.screen_with_colours())
            seconds, screen = timed(
                pane, lambda c=char: pane.type(c), lambda s, b=before, t=typed: echoed(s, b, t), colours=True
            )
            if index < len(query) - 1:
                samples.add("search, echo of a typed character", seconds)
                if "searching…" in screen or RESULTS.search(screen):
                    searches_while_typing += 1
            else:
                samples.add("search, echo of a typed character", seconds)
                waited, _ = timed(pane, lambda: None, lambda s: bool(RESULTS.search(s)))
                samples.add("search, results after the last character", seconds + waited)
        samples.count("search, searches started while typing", searches_while_typing)
        pane.send("C-u")
        pane.wait_for("Type a question", timeout=TIMEOUT)
        pane.wait_until(lambda s: not RESULTS.search(s), "the results to clear", timeout=TIMEOUT)


def echoed(screen: str, before: str, typed: str) -> bool:
    """The search field changed and shows ``typed`` (a typed space shows as the cursor moving on)."""
    line = search_line(screen)
    return line != before and ANSI.sub("", line).rstrip().endswith(typed.rstrip())


def bench_queue(pane: Pane, samples: Samples, moves: int) -> None:
    pane.send("F3")
    pane.wait_for("Drafts", timeout=TIMEOUT)
    pane.send("0")
    pane.wait_for(" 0 all ", timeout=TIMEOUT)
    pane.send("PPage", "PPage")  # the cursor to the first row, the newest draft
    # the newest draft: the idea, or early on a Wednesday the index decision's (its capture follows the clock)
    pane.wait_until(lambda s: "draft_demo_" in below_rule(s), "the first draft", timeout=TIMEOUT)
    rows = 11
    direction = "Down"
    position = 0
    for _ in range(moves):
        if position == rows - 1:
            direction = "Up"
        elif position == 0:
            direction = "Down"
        before = below_rule(pane.screen())
        seconds, _ = timed(pane, lambda d=direction: pane.send(d), lambda s, b=before: below_rule(s) != b)
        samples.add("review queue, next or previous draft (↓ ↑)", seconds)
        position += 1 if direction == "Down" else -1
    for _ in range(3):
        seconds, _ = timed(pane, lambda: pane.send("Enter"), lambda s: "Revision history" in s)
        samples.add("review queue, open the draft (Enter)", seconds)
        time.sleep(0.3)
        seconds, _ = timed(pane, lambda: pane.send("Escape"), lambda s: " Drafts " in s and "Revision" not in s)
        samples.add("draft, back to the queue (Esc)", seconds)
        time.sleep(0.3)


def poll_cost(pane: Pane, n: int = 50) -> float:
    started = time.perf_counter()
    for _ in range(n):
        pane.screen()
    return (time.perf_counter() - started) / n * 1000


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary(samples: Samples) -> dict[str, dict[str, float]]:
    out = {
        name: {
            "n": len(values),
            "p50_ms": round(statistics.median(values), 1),
            "p95_ms": round(percentile(values, 0.95), 1),
        }
        for name, values in samples.ms.items()
    }
    for name, counts in samples.counts.items():
        out[name] = {"n": len(counts), "total": sum(counts)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description="Keystroke-to-screen latency over SSH on loopback")
    parser.add_argument("--rounds", type=int, default=3, help="times each scenario runs per pane")
    parser.add_argument("--cadence-ms", type=float, default=150.0, help="time between typed characters")
    parser.add_argument("--moves", type=int, default=30, help="↓/↑ presses in the queue per round")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    missing = missing_tools()
    if missing:
        sys.exit(f"bench_ssh_latency: not installed: {', '.join(missing)}")

    from core.demo.build import build_demo_home
    from core.paths import CACHE_ENV

    results: dict[str, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="reverie-bench-ssh-") as tmp:
        folder = Path(tmp)
        os.environ[CACHE_ENV] = str(folder / "cache")  # the demo homes' indexes stay in here
        server = SshServer.start(folder / "sshd")
        tmux = Tmux(folder / "tmux")
        try:
            panes: dict[str, Pane] = {}
            poll: dict[str, float] = {}
            for name in ("over SSH", "local"):
                home = build_demo_home(folder / name.replace(" ", "-"))
                command = reverie_command(home.paths.root, home.paths.cache.parent)
                if name == "over SSH":
                    command = server.ssh_command(command)
                panes[name] = tmux.open(name.replace(" ", "-"), command, *SIZE)
                unlock(panes[name], home.passphrase)
            samples = {name: Samples() for name in panes}
            for _ in range(args.rounds):  # interleaved, so a busy moment of the machine hurts both alike
                for name, pane in panes.items():
                    bench_search(pane, samples[name], args.cadence_ms / 1000)
                    bench_queue(pane, samples[name], args.moves)
            for name, pane in panes.items():
                poll[name] = poll_cost(pane)
                results[name] = summary(samples[name])
        finally:
            tmux.kill()
            server.stop()

    if args.json:
        print(json.dumps({"results": results, "poll_ms": poll, "size": SIZE, "rounds": args.rounds}, indent=2))
        return
    print(f"keystroke to screen, ms, {SIZE[0]}x{SIZE[1]}, {args.rounds} rounds; typing every {args.cadence_ms:.0f} ms")
    print(f"{'':44}{'over SSH p50':>13}{'p95':>8}{'local p50':>11}{'p95':>8}{'n':>6}")
    for name, row in results["over SSH"].items():
        local = results["local"].get(name, {})
        if "total" in row:
            print(f"{name:44}{row['total']:>13.0f}{'':>8}{local.get('total', 0):>11.0f}{'':>8}{row['n']:>6.0f}")
            continue
        print(
            f"{name:44}{row['p50_ms']:>13.1f}{row['p95_ms']:>8.1f}"
            f"{local.get('p50_ms', 0):>11.1f}{local.get('p95_ms', 0):>8.1f}{row['n']:>6.0f}"
        )
    print(f"one capture-pane poll: {poll['over SSH']:.1f} ms (over SSH pane), {poll['local']:.1f} ms (local pane)")


if __name__ == "__main__":
    main()
