"""TUI start to first frame: Reverie's app on a demo home against a bare Textual app.

    /work/venv/bin/python tests/bench/bench_tui_start.py [--runs 7]

Each run is a fresh interpreter (so imports count), headless at 100x30. Columns:
- import: importing the app module (Textual included);
- first frame: from interpreter start to the app being ready, its first screen composed and painted;
- data shown: for Reverie, until the home screen shows its counts and verification (a worker decrypts
  every draft and memory and verifies the ledger); for the bare app the same as the first frame;
- process: wall time of the whole subprocess, interpreter start and shutdown included.
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
    marks["first_frame"] = time.perf_counter()
    marks["data_shown"] = marks["first_frame"]
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
    marks["first_frame"] = time.perf_counter()
    app = pilot.app
    while getattr(app.screen, "summary", None) is None:
        await pilot.pause(0.005)
    marks["data_shown"] = time.perf_counter()
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
    columns = ("import", "first_frame", "data_shown", "process")
    print(f"median (min) of {args.runs} fresh processes, headless 100x30, milliseconds")
    print(f"{'':22}" + "".join(f"{c.replace('_', ' '):>18}" for c in columns))
    for name, runs in results.items():
        cells = []
        for column in columns:
            values = [r[column] * 1000 for r in runs]
            cells.append(f"{statistics.median(values):>9.0f} ({min(values):>5.0f})")
        print(f"{name:22}" + "".join(f"{c:>18}" for c in cells))
    print(
        f"deriving the keys with the default Argon2id (t=3, 64 MiB, p=4): {kdf * 1000:.0f} ms, before the first frame "
        "when REVERIE_PASSPHRASE is set, in a worker behind the unlock screen otherwise"
    )


if __name__ == "__main__":
    main()
