"""Coverage-guided fuzzing with atheris (libFuzzer) over the loaders, when atheris is installed (it is
not a dependency: ``pip install atheris``). A bounded number of runs; a crash leaves its input in the
test's folder and its traceback in the failure message.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNS = int(os.environ.get("REVERIE_ATHERIS_RUNS", "3000"))


@pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris is not installed")
def test_atheris_finds_no_crash_in_the_loaders(tmp_path: Path) -> None:
    seed = int(os.environ.get("REVERIE_FAULT_SEED", "7"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "faults" / "atheris_target.py"), f"-runs={RUNS}",
                           "-max_len=2048", f"-seed={seed}", "-timeout=10", "-rss_limit_mb=2048"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    crashes = sorted(p.name for p in tmp_path.glob("crash-*")) + sorted(p.name for p in tmp_path.glob("timeout-*"))
    assert done.returncode == 0 and not crashes, (
        f"atheris (seed {seed}) found {crashes} in {tmp_path}; replay: python tests/faults/atheris_target.py "
        f"{tmp_path}/<file>\n{done.stderr[-4000:]}")
    assert f"Done {RUNS} runs" in done.stderr or "DONE" in done.stderr, done.stderr[-2000:]
