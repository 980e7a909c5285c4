"""TUI start to first frame: Reverie's app on a demo home against a bare Textual app.

    /work/venv/bin/python tests/bench/bench_tui_start.py [--runs 7]

Each run is a fresh interpreter (so imports count), headless at 100x30. Columns:
- import: importing the app module (Textual included);
- first frame: from interpreter start to the first screen composed and painted once (the auto-pilot
  waits for the screen's next refresh, ``Screen.wait_for_refresh``; the same wait for both apps);
- data shown: for Reverie, until the home screen shows its counts and verification (a worker decrypts
  every draft and memory and verifies the ledger); for the bare app the same as the first frame;
- idle: for Reverie, until the start's background work is done too (the turn activity, and the
  section screens' modules imported ahead of a first switch); the switches below start from there;
- process: wall time of the whole subprocess, interpreter start and shutdown included;
- ratio: Reverie's first frame over the bare app's, medians of the same run (the target is at most 2).
Then, for Reverie, each section's first switch (F-key to the screen shown with its loads done), and
Home again: the targets are under 150 ms, Topics under 300 ms.
The vault is opened with its keys already derived (the demo home's cheap Argon2id); deriving them
with the default parameters is a separate cost, measured on its own in the last line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD_COMMON = """
import asyncio, json, sys, time
T0 = time.perf_counter()
"""

BARE = (
    CHILD_COMMON
    + """
from textual.app import App
from textual.widgets import Footer, Static
T_IMPORT = time.perf_counter()

class Bare(App):
    def compose(self):
        yield Static("hello")
        yield Footer()

marks = {}
async def auto(pilot):
    await pilot.app.screen.wait_for_refresh()  # the first screen composed and painted once
    marks["first_frame"] = time.perf_counter()
    marks["data_shown"] = marks["idle"] = marks["first_frame"]
    pilot.app.exit()

Bare().run(headless=True, size=(100, 30), auto_pilot=auto)
print(json.dumps({"import": T_IMPORT - T0, **{k: v - T0 for k, v in marks.items()}}))
"""
)

REVERIE = (
    CHILD_COMMON
    + """
from tui_app.app import ReverieApp
T_IMPORT = time.perf_counter()
from core.config import load_config
from core.vault.crypto import unlock
from core.paths import HomePaths

paths = HomePaths.at(sys.argv[1])
keys = unlock(paths.vault_header, "reverie-demo")
marks = {}
async def auto(pilot):
    await pilot.app.screen.wait_for_refresh()  # as for the bare app: the home screen composed and painted
    marks["first_frame"] = time.perf_counter()
    app = pilot.app
    while getattr(app.screen, "summary", None) is None:
        await pilot.pause(0.005)
    marks["data_shown"] = time.perf_counter()
    await app.workers.wait_for_complete()  # the start's background work (turn activity, section warm-up)
    marks["idle"] = time.perf_counter()
    for key in ("f3", "f4", "f5", "f6", "f7", "f8", "f2"):  # each section once, then Home again
        started = time.perf_counter()
        await pilot.press(key)
        for _ in range(400):  # until the screen is shown and its loads are done
            await app.workers.wait_for_complete()
            await pilot.pause()
            if not any(worker.is_running for worker in app.workers):
                break
        marks[f"took {key}"] = time.perf_counter() - started + T0  # printed less T0: the switch's duration
    app.exit()

ReverieApp(paths, load_config(paths.config), keys).run(headless=True, size=(100, 30), auto_pilot=auto)
print(json.dumps({"import": T_IMPORT - T0, **{k: v - T0 for k, v in marks.items()}}))
"""
)

KDF = """
import time
from core.vault.crypto import KdfParams, create_header, unlock
from pathlib import Path
import sys
header = Path(sys.argv[1]) / "vault.json"
create_header(header, "a passphrase for timing", KdfParams())
t = time.perf_counter()
unlock(header, "a passphrase for timing")
print(time.perf_counter() - t)
"""


def run_child(code: str, *args: str) -> dict[str, float]:
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    result = json.loads(out.strip().splitlines()[-1])
    result["process"] = time.perf_counter() - started
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description="TUI start to first frame, Reverie against a bare Textual app")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
        sys.path.insert(0, str(ROOT))
        from core.demo.build import build_demo_home

        home = build_demo_home(Path(tmp) / "demo").paths.root
        rows = {"bare Textual app": BARE, "Reverie (demo home)": REVERIE}
        results: dict[str, list[dict[str, float]]] = {name: [] for name in rows}
        for _ in range(args.runs):  # interleaved, so a busy moment hurts both alike
            for name, code in rows.items():
                results[name].append(run_child(code, str(home)))
        kdf = float(
            subprocess.run(
                [sys.executable, "-c", KDF, tmp], cwd=ROOT, capture_output=True, text=True, check=True
            ).stdout
        )
    columns = ("import", "first_frame", "data_shown", "idle", "process")
    print(f"median (min) of {args.runs} fresh processes, headless 100x30, milliseconds")
    print(f"{'':22}" + "".join(f"{c.replace('_', ' '):>16}" for c in columns))
    for name, runs in results.items():
        cells = []
        for column in columns:
            values = [r[column] * 1000 for r in runs]
            cells.append(f"{statistics.median(values):>9.0f} ({min(values):>5.0f})")
        print(f"{name:22}" + "".join(f"{c:>16}" for c in cells))
    bare, mine = (statistics.median(r["first_frame"] for r in results[name]) for name in rows)
    print(f"first frame ratio, Reverie / bare Textual: {mine / bare:.2f}")
    names = {"f2": "Home again", "f3": "Review", "f4": "Memories", "f5": "Search", "f6": "Topics",
             "f7": "Curation", "f8": "Cold storage"}
    print("first switch to each section, median (max) ms: " + ", ".join(
        f"{label} {statistics.median(values):.0f} ({max(values):.0f})"
        for key, label in names.items()
        for values in [[r[f"took {key}"] * 1000 for r in results["Reverie (demo home)"]]]
    ))
    print(
        f"deriving the keys with the default Argon2id (t=3, 64 MiB, p=4): {kdf * 1000:.0f} ms, before the first frame "
        "when REVERIE_PASSPHRASE is set, in a worker behind the unlock screen otherwise"
    )


if __name__ == "__main__":
    main()
