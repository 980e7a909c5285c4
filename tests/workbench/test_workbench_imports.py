"""The workbench's services import what they use at their top; an import inside a function is kept only
when it keeps something heavy off a start-up path, and says so."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REASONS = ("# lazy:", "# heavy:", "# cycle:")
# What the TUI imports before its first paint (core.workbench.home, access, freshness, when) must not load.
OFF_THE_START = ("cryptography", "apsw", "numpy", "core.index", "core.recall", "core.timeparse", "core.vault.crypto",
                 "core.vault.store", "core.curate", "core.conversation")


def _function_level_imports(path: Path) -> list[tuple[int, str]]:
    """(line, text of the import's last line) of each import inside a function of ``path``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: set[tuple[int, str]] = set()
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for sub in ast.walk(node):
                if isinstance(sub, (ast.Import, ast.ImportFrom)):
                    first = lines[sub.lineno - 1]
                    found.add((sub.lineno, first if "#" in first else lines[(sub.end_lineno or sub.lineno) - 1]))
    return sorted(found)


def test_every_import_inside_a_workbench_function_says_why_it_is_there() -> None:
    unexplained = [f"{path.relative_to(ROOT)}:{line}: {text.strip()}"
                   for path in sorted((ROOT / "core" / "workbench").glob("*.py"))
                   for line, text in _function_level_imports(path) if not any(r in text for r in REASONS)]
    assert not unexplained, "imports inside functions without a reason:\n" + "\n".join(unexplained)


def test_what_the_tui_imports_of_the_workbench_at_start_loads_no_subsystem() -> None:
    code = ("import sys\nimport core.workbench.home, core.workbench.access, core.workbench.freshness, "
            "core.workbench.when\nprint('\\n'.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    heavy = sorted(m for m in loaded if m.startswith(OFF_THE_START))
    assert not heavy, f"the workbench's start-up modules import {heavy[:6]}"


ADD_SCOPE = """
import sys
from core.workbench.home import Workbench
bench = Workbench.open(sys.argv[1])
bench.paths.ensure()
bench.curation.add_scope("memories", "vault", None)
"""
OVERDUE = """
import subprocess, sys
from core.workbench.home import Workbench
bench = Workbench.open(sys.argv[1])
bench.paths.ensure()
before = bench.curation_overdue()  # the settings are read now: no scope yet
subprocess.run([sys.executable, "-c", sys.argv[2], sys.argv[1]], check=True)  # `reverie curate scope add`
stale, live = bench.curation_overdue(), bench.curation_overdue(live=True)
print("core.curate.engine" in sys.modules)
print(before is None and stale is None and live is not None)
print(live == bench.curation.overdue(config=bench.curation.live_config()))
"""


def test_the_overdue_reminder_reads_the_runs_without_the_curation_engine(tmp_path: Path) -> None:
    """Every CLI command and the app's Home say when a curation review is overdue; that check must not
    load the curation engine, says what the curation service says, and with ``live`` sees a scope added
    while the workbench is open (a new scope was never reviewed)."""
    run = subprocess.run([sys.executable, "-c", OVERDUE, str(tmp_path / "home"), ADD_SCOPE], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    engine_loaded, sees_new_scope, same = run.stdout.split()
    assert engine_loaded == "False"
    assert sees_new_scope == "True"
    assert same == "True"
