"""core never imports the user interface, and nothing heavy is imported at start-up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UI_MODULES = ("textual", "click", "tui_app", "textual_serve")
HEAVY = ("sentence_transformers", "torch", "transformers")


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys\n{statement}\nprint('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return set(out.split())


def _core_modules() -> list[str]:
    return sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in (ROOT / "core").rglob("*.py")
    )


def test_importing_every_core_module_loads_no_ui() -> None:
    statement = "\n".join(f"import {name}" for name in _core_modules())
    loaded = _loaded_after(statement)
    leaked = sorted(m for m in loaded if m.split(".")[0] in UI_MODULES)
    assert not leaked, f"core pulls in UI modules: {leaked[:5]}"
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY)
    assert not heavy, f"core imports heavy modules at import time: {heavy[:5]}"


def test_the_cli_start_imports_nothing_heavy() -> None:
    loaded = _loaded_after("import tui_app.cli.main")
    heavy = sorted(m for m in loaded if m.split(".")[0] in (*HEAVY, "textual"))
    assert not heavy, f"`reverie --help` would import {heavy[:5]}"


def test_import_linter_contract_holds() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    if not lint_imports.exists():
        pytest.skip("import-linter is not installed in this environment")
    result = subprocess.run([str(lint_imports)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_cli_start_loads_no_subsystem() -> None:
    """`reverie --version` and `--help` import the command modules, which import their subsystems only
    when a command runs: option choices (search modes, input formats) are read lazily."""
    loaded = _loaded_after("import tui_app.cli.main")
    subsystems = sorted(m for m in loaded if m.startswith(("core.recall", "core.timeparse", "core.conversation",
                                                           "core.index", "core.workbench", "core.vault")))
    libraries = sorted(m for m in loaded if m.split(".")[0] in ("numpy", "dateparser", "apsw", "cryptography"))
    assert not subsystems and not libraries, (subsystems + libraries)[:5]


def test_the_layers_contract_is_declared() -> None:
    """The import-linter contracts state the order of the layers, so a cycle between packages fails."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    assert layers[:5] == ["tui_app", "core.sdk", "core.assist", "core.workbench", "core.demo"]
    assert layers.index("core.workbench") < layers.index("core.index") < layers.index("core.vault")


def test_interfaces_may_reach_only_the_workbench_and_no_cycle_is_allowed() -> None:
    """tui_app is forbidden every core package but the workbench, the assistant surface, errors, text
    safety, the home's paths, the log's turns and frozen values, with no exception listed (the result
    types, the clock and the file helpers come through core.workbench); sibling modules import no
    cycle."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    door = next(c for c in contracts if c["type"] == "forbidden" and c["source_modules"] == ["tui_app"])
    forbidden = set(door["forbidden_modules"])
    packages = {f"core.{p.stem if p.is_file() else p.name}" for p in (ROOT / "core").iterdir()
                if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()}
    allowed = {"core.workbench", "core.assist", "core.errors", "core.textsafe", "core.paths", "core.turns",
               "core.frozen"}
    assert forbidden == packages - allowed, sorted(forbidden ^ (packages - allowed))
    assert not door.get("ignore_imports"), f"the door lists exceptions: {door.get('ignore_imports')}"
    assert any(c["type"] == "acyclic_siblings" and set(c["ancestors"]) == {"core", "tui_app"} for c in contracts)
