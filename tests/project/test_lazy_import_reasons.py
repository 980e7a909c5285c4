"""An import inside a function body says why it is not at the module's top (heavy, a cycle, ...)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Every package and top-level module of core and tui_app, one parameter each so a failure names it.
REVIEWED = tuple(sorted(
    str(path.relative_to(ROOT)) for top in ("core", "tui_app") for path in (ROOT / top).iterdir()
    if (path.is_dir() and any(path.rglob("*.py"))) or path.suffix == ".py"
))
REASONS = ("# heavy:", "# lazy:", "# cycle:", "# late-bound:")


def _files(place: str) -> list[Path]:
    path = ROOT / place
    return [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))


def unexplained_imports(source: str) -> list[int]:
    """Line numbers of imports inside function bodies with no reason comment on their line or the
    line just above."""
    lines = source.splitlines()
    found: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, (ast.Import, ast.ImportFrom)):
                near = lines[inner.lineno - 2 : inner.end_lineno]
                if not any(reason in line for line in near for reason in REASONS):
                    found.add(inner.lineno)
    return sorted(found)


def test_the_check_finds_an_unexplained_import_and_accepts_a_reason() -> None:
    bare = "def f():\n    import json\n    return json\n"
    said = "def f():\n    import numpy as np  # heavy: numpy, ~50 ms\n    return np\n"
    above = "def f():\n    # lazy: the grammar compiles at import\n    from x import y\n    return y\n"
    assert unexplained_imports(bare) == [2]
    assert unexplained_imports(said) == [] and unexplained_imports(above) == []


@pytest.mark.parametrize("place", REVIEWED)
def test_every_function_level_import_says_why(place: str) -> None:
    missing = [f"{path.relative_to(ROOT)}:{line}" for path in _files(place)
               for line in unexplained_imports(path.read_text(encoding="utf-8"))]
    assert not missing, f"imports inside functions with no reason (move them to the top or say why): {missing}"
