"""One model of each thing: no class name is defined twice across ``core`` and ``tui_app``.

Two classes with one name are two models of one thing that drift apart (the SDK's review objects and
the vault's did: different states, field names, argument order and errors). The SDK is a facade over
the vault's types; where it still holds a class of its own under a name the vault also uses, the name
is listed below with what keeps them apart. The list only shrinks: a new pair fails this test.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# name -> why two classes still carry it; remove the entry with the pair.
ALLOWED_TWICE: dict[str, str] = {}


def _classes(root: Path) -> dict[str, list[str]]:
    """Class name -> the modules (paths under ``root``) defining it, nested classes included."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                found[node.name].append(str(path.relative_to(root)))
    return found


def _defined_twice() -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for package in ("core", "tui_app"):
        for name, where in _classes(ROOT / package).items():
            found[name] += [f"{package}/{path}" for path in where]
    return {name: where for name, where in found.items() if len(where) > 1}


def test_no_class_name_is_defined_twice_in_core_or_the_interfaces() -> None:
    twice = _defined_twice()
    new = {name: where for name, where in twice.items() if name not in ALLOWED_TWICE}
    assert not new, f"defined more than once (one model of each thing): {new}"


def test_the_allow_list_names_only_pairs_that_still_exist() -> None:
    twice = set(_defined_twice())
    gone = sorted(set(ALLOWED_TWICE) - twice)
    assert not gone, f"no longer defined twice: remove {gone} from ALLOWED_TWICE"


def test_the_scan_finds_a_pair(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("class Thing:\n    pass\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("def f():\n    class Thing:\n        pass\n", encoding="utf-8")
    assert dict(_classes(tmp_path)) == {"Thing": ["a.py", "b.py"]}
