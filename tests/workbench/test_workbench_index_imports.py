"""Opening the workbench's index imports the index alone: the recaller (and its time grammar) only
when a search needs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

OPEN_INDEX = """
import sys
from core.workbench.home import Workbench
with Workbench.open(sys.argv[1]) as workbench:
    print(workbench.index.status().turns)
    print(" ".join(sorted(m for m in sys.modules if m.startswith(("core.recall", "core.timeparse")))))
    recaller = workbench.recaller
    print(recaller.index is workbench.index)
"""


def test_opening_the_index_does_not_import_the_recaller(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-c", OPEN_INDEX, str(tmp_path / "home")], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    turns, loaded, shared = run.stdout.splitlines()
    assert turns == "0"
    assert loaded == "", f"opening the index imported {loaded.split()[:5]}"
    assert shared == "True", "the recaller searches another index than the workbench's"
