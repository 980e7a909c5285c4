"""TUI start to first frame, and each section's first and second switch: Reverie's app on a demo
home against a bare Textual app (and against an older tree of Reverie, ``--against REV``).

    nice .venv/bin/python tests/bench/bench_tui_start.py [--runs 7] [--against REV]

Each run is a fresh interpreter (so imports count, from bytecode written first for every tree, as an
install has it: ``compile_tree``), headless at 100x30; the apps take turns within
a run, so a busy moment hurts each alike. Columns:
- import: importing the app module (Textual included);
- first paint: from interpreter start to the first frame the app hands to the terminal (``App._display``
  with something to draw, outside a ``batch_update``, which makes ``_display`` drop the frame: the
  moment the person sees the screen);
- first frame: from interpreter start to the pilot's next refresh once it runs (the auto-pilot
  waits for the screen's next refresh, ``Screen.wait_for_refresh``; the same wait for both apps).
  Textual starts the pilot after the first paint for Reverie and before it for the bare app, so for
  Reverie this also counts what runs after the first paint (its data workers starting, the loading
  indicator drawn): the figure of the earlier rounds, kept for comparison;
- data shown: for Reverie, until the home screen shows its counts and verification (a worker decrypts
  every draft and memory and verifies the ledger); for the bare app the same as the first frame;
- idle: for Reverie, until the start's background work is done too (the turn activity, and the
  section screens made ready ahead of a first switch); the switches below start from there;
- process: wall time of the whole subprocess, interpreter start and shutdown included;
- ratios: Reverie's first paint and first frame over the bare app's, medians of the same run (the
  target is at most 2).

Then, for Reverie, each section's switch by its F-key, the first time and the second time (Home
again is the second switch to Home): from the key event sent to the app's first paint of the new
screen ("drawn") and to its last paint once everything the switch started is done ("shown": its
workers finished and nothing painted for 0.1 s). The paints are the compositor's updates handed to
the terminal (``App._display``, wrapped in the child, and ``App._batch_count``: this bench's only uses
of private names); the
waits that tell the switch is over (``pilot.pause``) are not counted, unlike the figures before
2026-12-02, which timed ``pilot.press`` plus those waits (each at least 20 ms: about 50-70 ms on
every switch, counted in "settled (as before)"). Targets: shown under 150 ms, Topics under 300 ms.
The vault is opened with its keys already derived (the demo home's cheap Argon2id); deriving them
with the default parameters is a separate cost, measured on its own in the last line.

``--unlock`` measures the start as a person with ``REVERIE_PASSPHRASE`` set meets it instead, headless
at 80x24: the demo home re-keyed with the default Argon2id, the app given the passphrase at hand (the
unlock screen tries it in its worker after the first paint), each run idle and then with one other
process keeping a core busy. Columns: first paint (the unlock screen), unlock (the key derivation,
timed around ``Workbench.unlock``: what runs beside it in the app lengthens it), Home counts (Home
shows its counts: usable), Home stable (Home's last paint once its loads, the verification among
them, are done and nothing painted for 0.1 s), the rest (Home stable less the unlock), with the bare
app's first paint at the same size; the target is the rest at most 2x the bare app's first paint.
Argon2id alone is the same derivation in a process of its own in the same condition, run after each
app: "stable - alone" (Home stable less it) is the stricter figure, as it does not let the work done
beside the derivation hide in it. Two parts of the rest apart: paint→KDF (the first paint to the
derivation's start) and keys→stable (the keys derived to Home stable).
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
SECTIONS = {"f3": "Review", "f4": "Memories", "f5": "Search", "f6": "Topics", "f7": "Curation",
            "f8": "Cold storage", "f2": "Home"}

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

app = Bare()
display = app._display
def counted(screen, renderable):
    if renderable is not None and not app._batch_count:  # handed to the terminal, not held by a batch
        marks.setdefault("first_paint", time.perf_counter())
    return display(screen, renderable)
app._display = counted
app.run(headless=True, size=(100, 30), auto_pilot=auto)
print(json.dumps({"import": T_IMPORT - T0, **{k: v - T0 for k, v in marks.items()}}))
"""
)

REVERIE = (
    CHILD_COMMON
    + """
sys.path.insert(0, sys.argv[2])  # the tree under test
from tui_app.app import ReverieApp
T_IMPORT = time.perf_counter()
from textual import events
from core.config import load_config
from core.vault.crypto import unlock
from core.paths import HomePaths

paths = HomePaths.at(sys.argv[1])
keys = unlock(paths.vault_header, "reverie-demo")
marks = {}
switches = {}
paints = []  # (time, screen) of each compositor update handed to the terminal
QUIET = 0.1
TIMEOUT = 10.0

async def switch(pilot, key):
    app = pilot.app
    old = app.screen
    del paints[:]
    started = time.perf_counter()
    app._driver.send_message(events.Key(key, None))  # as pilot.press sends it, without its waits
    while True:
        await pilot.pause()
        if time.perf_counter() - started > TIMEOUT:
            print(f"{key}: not settled after {TIMEOUT} s (screen {type(app.screen).__name__}, "
                  f"running {[w.description for w in app.workers if w.is_running]}, "
                  f"{len(paints)} paints)", file=sys.stderr)
            return None
        screen = app.screen
        if screen is old or any(worker.is_running for worker in app.workers):
            continue
        mine = [at for at, painted in paints if painted is screen]
        if mine and time.perf_counter() - paints[-1][0] >= QUIET:
            settled = time.perf_counter() - started - QUIET
            return mine[0] - started, mine[-1] - started, max(settled, mine[-1] - started)

async def auto(pilot):
    app = pilot.app
    await app.screen.wait_for_refresh()  # as for the bare app: the home screen composed and painted
    marks["first_frame"] = time.perf_counter()
    while getattr(app.screen, "summary", None) is None:
        await pilot.pause(0.005)
    marks["data_shown"] = time.perf_counter()
    quiet = 0
    while quiet < 5:  # the start's background work (turn activity, the sections made ready) is done
        await app.workers.wait_for_complete()
        await pilot.pause(0.02)
        quiet = 0 if any(worker.is_running for worker in app.workers) else quiet + 1
    marks["idle"] = time.perf_counter() - 5 * 0.02
    await pilot.pause(0.2)
    for round in ("first", "second"):
        for key in ("f3", "f4", "f5", "f6", "f7", "f8", "f2"):  # each section, then Home again
            switches[f"{round} {key}"] = await switch(pilot, key)
    app.exit()

app = ReverieApp(paths, load_config(paths.config), keys)
display = app._display
def counted(screen, renderable):
    if renderable is not None and not app._batch_count:  # handed to the terminal, not held by a batch
        now = time.perf_counter()
        marks.setdefault("first_paint", now)
        paints.append((now, screen))
    return display(screen, renderable)
app._display = counted
app.run(headless=True, size=(100, 30), auto_pilot=auto)
print(json.dumps({"import": T_IMPORT - T0, **{k: v - T0 for k, v in marks.items()}, "switches": switches}))
"""
)

DEMO = """
import sys
sys.path.insert(0, sys.argv[2])
from pathlib import Path
from core.demo.build import build_demo_home
build_demo_home(Path(sys.argv[1]))
"""

AT_HAND = (
    CHILD_COMMON
    + """
sys.path.insert(0, sys.argv[2])  # the tree under test
from tui_app.app import ReverieApp
T_IMPORT = time.perf_counter()
from core.config import load_config
from core.paths import HomePaths

paths = HomePaths.at(sys.argv[1])
marks = {}
paints = []  # (time, screen) of each compositor update handed to the terminal
QUIET = 0.1

app = ReverieApp(paths, load_config(paths.config), None, passphrase="reverie-demo")
derive = app.workbench.unlock
def timed_unlock(*args, **kwargs):  # the first call derives the keys; later ones return them
    started = time.perf_counter()
    try:
        return derive(*args, **kwargs)
    finally:
        if "unlock_start" not in marks:
            marks["unlock_start"], marks["unlock_end"] = started, time.perf_counter()
app.workbench.unlock = timed_unlock

async def auto(pilot):
    app = pilot.app
    while getattr(app.screen, "summary", None) is None:  # unlocked, and Home shows its counts
        await pilot.pause(0.005)
        if time.perf_counter() - T0 > 60:  # a failed load shows a dialog instead: say it, and stop
            shown = [str(s.render())[:200] for s in app.screen.query("Static")]
            print(f"no Home after 60 s: {type(app.screen).__name__}: {shown}", file=sys.stderr)
            app.exit()
            return
    marks["home_counts"] = time.perf_counter()
    home = app.screen
    while True:  # Home's own loads done and nothing painted on it for QUIET
        await pilot.pause(0.01)
        mine = [at for at, screen in paints if screen is home]
        busy = any(w.is_running and w.node is home for w in app.workers)
        if not busy and mine and time.perf_counter() - mine[-1] >= QUIET:
            marks["home_stable"] = mine[-1]
            break
    app.exit()

display = app._display
def counted(screen, renderable):
    if renderable is not None and not app._batch_count:  # handed to the terminal, not held by a batch
        now = time.perf_counter()
        marks.setdefault("first_paint", now)
        paints.append((now, screen))
    return display(screen, renderable)
app._display = counted
app.run(headless=True, size=(80, 24), auto_pilot=auto)
if "home_stable" not in marks:
    sys.exit(1)
print(json.dumps({"import": T_IMPORT - T0, **{k: v - T0 for k, v in marks.items()}}))
"""
)

REKEY = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from core.paths import HomePaths
from core.vault.crypto import KdfParams, change_passphrase
change_passphrase(HomePaths.at(Path(sys.argv[1])).vault_header, "reverie-demo", passphrase="reverie-demo",
                  params=KdfParams())
"""

BUSY = "while True: pass"

KDF_ALONE = """
import json, sys, time
sys.path.insert(0, sys.argv[2])
from pathlib import Path
from core.paths import HomePaths
from core.vault.crypto import unlock
header = HomePaths.at(Path(sys.argv[1])).vault_header
started = time.perf_counter()
unlock(header, "reverie-demo")
print(json.dumps({"kdf": time.perf_counter() - started}))
"""

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


def run_child(code: str, *args: str) -> dict:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the child for {args[1:] or 'the bare app'} failed:\n{done.stderr[-3000:]}")
    for line in done.stderr.splitlines():
        if "not settled" in line:
            print(f"{args[1:] or 'bare'}: {line}", file=sys.stderr)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["process"] = time.perf_counter() - started
    return result


def worktree(rev: str) -> Path:
    """A checkout of ``rev`` under the temporary folder (``git worktree``), made once and reused."""
    commit = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.strip()
    tree = Path(tempfile.gettempdir()) / f"reverie-bench-{commit}"
    if not (tree / "tui_app").is_dir():
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), commit], cwd=ROOT, check=True,
                       capture_output=True)
    return tree


def compile_tree(tree: Path) -> None:
    """Write the bytecode of ``tree``'s packages, as installing them does. Without it every module
    edited since its last ``.pyc`` (every module of a fresh worktree) is compiled again in each run
    when ``PYTHONDONTWRITEBYTECODE`` is set, and that compiling (10-15 ms on the first paint's path
    after a day's edits, more for a worktree) would count as start-up; the bare app's Textual has its
    bytecode from the install."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "core", "tui_app"], cwd=tree, check=True,
                   capture_output=True)


def cell(values: list[float]) -> str:
    return f"{statistics.median(values):>6.0f} ({max(values):>4.0f})"


def unlock_start(runs: int, trees: dict[str, Path]) -> None:
    """First paint, unlock and a stable Home apart, with the passphrase at hand, idle and with one
    core busy (see the module notes, ``--unlock``), for each tree (``--against``)."""
    bare_code = BARE.replace("size=(100, 30)", "size=(80, 24)")
    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
        homes = {}
        for number, (name, tree) in enumerate(trees.items()):
            homes[name] = home = Path(tmp) / f"demo-{number}"
            subprocess.run([sys.executable, "-c", DEMO, str(home), str(tree)], cwd=tree, check=True,
                           capture_output=True)
            subprocess.run([sys.executable, "-c", REKEY, str(home), str(tree)], cwd=tree, check=True,
                           capture_output=True)
        results: dict[str, dict[str, list[dict]]] = {}
        for condition in ("idle", "one core busy"):
            busy = subprocess.Popen([sys.executable, "-c", BUSY]) if condition != "idle" else None
            try:
                results[condition] = {"bare": [], **{name: [] for name in trees}}
                for _ in range(runs):  # interleaved, so a busy moment hurts each alike
                    results[condition]["bare"].append(run_child(bare_code))
                    for name, tree in trees.items():
                        run = run_child(AT_HAND, str(homes[name]), str(tree))
                        run["alone"] = run_child(KDF_ALONE, str(homes[name]), str(tree))["kdf"]
                        results[condition][name].append(run)
            finally:
                if busy is not None:
                    busy.kill()
                    busy.wait()
    print(f"passphrase at hand (default Argon2id), headless 80x24, median (max) of {runs} fresh processes, ms")
    heads = ("first paint", "paint→KDF", "unlock", "keys→stable", "Home counts", "Home stable", "the rest", "alone",
             "stable-alone")
    print(f"{'':36}" + "".join(f"{h:>14}" for h in heads) + f"{'rest / bare':>12}{'s-a / bare':>12}")
    for condition, runs_of in results.items():
        bare = [r["first_paint"] * 1000 for r in runs_of["bare"]]
        print(f"{condition + ', bare Textual app':36}{cell(bare):>14}")
        for name in trees:
            mine = runs_of[name]

            def column(key: str, mine: list[dict] = mine) -> list[float]:
                return [r[key] * 1000 for r in mine]

            unlock = [(r["unlock_end"] - r["unlock_start"]) * 1000 for r in mine]
            gap = [(r["unlock_start"] - r["first_paint"]) * 1000 for r in mine]
            after = [(r["home_stable"] - r["unlock_end"]) * 1000 for r in mine]
            stable, alone = column("home_stable"), column("alone")
            rest = [s - u for s, u in zip(stable, unlock, strict=True)]
            strict = [s - a for s, a in zip(stable, alone, strict=True)]
            shown = (column("first_paint"), gap, unlock, after, column("home_counts"), stable, rest, alone, strict)
            ratios = [statistics.median(v) / statistics.median(bare) for v in (rest, strict)]
            print(f"{condition + ', ' + name:36}" + "".join(f"{cell(v):>14}" for v in shown)
                  + "".join(f"{r:>12.2f}" for r in ratios))


def main() -> None:
    parser = argparse.ArgumentParser(description="TUI start to first frame and section switches")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--against", metavar="REV", help="also run the app of this git revision (a worktree in /tmp)")
    parser.add_argument("--unlock", action="store_true",
                        help="only the start with the passphrase at hand: first paint, unlock, Home stable, "
                        "idle and with one core busy")
    args = parser.parse_args()
    trees = {"Reverie (this tree)": ROOT}
    if args.against:
        trees[f"Reverie ({args.against})"] = worktree(args.against)
    for tree in trees.values():
        compile_tree(tree)
    if args.unlock:
        unlock_start(args.runs, trees)
        return
    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
        homes = {}
        for number, (name, tree) in enumerate(trees.items()):  # each tree's own demo home (its own config)
            homes[name] = Path(tmp) / f"demo-{number}"
            subprocess.run([sys.executable, "-c", DEMO, str(homes[name]), str(tree)], cwd=tree, check=True,
                           capture_output=True)
        results: dict[str, list[dict]] = {"bare Textual app": [], **{name: [] for name in trees}}
        for _ in range(args.runs):  # interleaved, so a busy moment hurts each alike
            results["bare Textual app"].append(run_child(BARE))
            for name, tree in trees.items():
                results[name].append(run_child(REVERIE, str(homes[name]), str(tree)))
        kdf = float(subprocess.run([sys.executable, "-c", KDF, tmp], cwd=ROOT, capture_output=True, text=True,
                                   check=True).stdout)
    columns = ("import", "first_paint", "first_frame", "data_shown", "idle", "process")
    print(f"median (min) of {args.runs} fresh processes, headless 100x30, milliseconds")
    print(f"{'':22}" + "".join(f"{c.replace('_', ' '):>16}" for c in columns))
    for name, runs in results.items():
        cells = []
        for column in columns:
            values = [r[column] * 1000 for r in runs]
            cells.append(f"{statistics.median(values):>9.0f} ({min(values):>5.0f})")
        print(f"{name:22}" + "".join(f"{c:>16}" for c in cells))
    for column, label in (("first_paint", "first paint"), ("first_frame", "first frame (the pilot's refresh)")):
        bare = statistics.median(r[column] for r in results["bare Textual app"])
        for name in trees:
            mine = statistics.median(r[column] for r in results[name])
            print(f"{label} ratio, {name} / bare Textual: {mine / bare:.2f}")
    print("\nsection switches, key to the screen drawn / shown / settled (as before), median (max) ms")
    print(f"{'':14}{'':22}" + f"{'first switch':^42}" + f"{'second switch':^42}")
    print(f"{'':36}" + "".join(f"{h:>14}" for h in ("drawn", "shown", "settled") * 2))
    for key, label in SECTIONS.items():
        for name in trees:
            row = []
            for round in ("first", "second"):
                for index in range(3):
                    timed = [r["switches"][f"{round} {key}"] for r in results[name]]
                    values = [t[index] * 1000 for t in timed if t is not None]
                    row.append(cell(values) if values else "timed out")
            print(f"{label:14}{name:22}" + "".join(f"{c:>14}" for c in row))
    print(
        f"\nderiving the keys with the default Argon2id (t=3, 64 MiB, p=4): {kdf * 1000:.0f} ms, before the first "
        "frame when REVERIE_PASSPHRASE is set, in a worker behind the unlock screen otherwise"
    )


if __name__ == "__main__":
    main()
