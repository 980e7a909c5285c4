"""The upstream examples and README code, with only the import line changed, run on ``core``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = Path(__file__).with_name("examples")


def run_example(name: str, folder: Path) -> str:
    """Run ``examples/<name>`` as a program in ``folder`` (also its HOME: nothing touches the real one)."""
    env = {**os.environ, "HOME": str(folder), "PYTHONPATH": str(ROOT), "REVERIE_CACHE": str(folder / "cache")}
    result = subprocess.run([sys.executable, str(EXAMPLES / name)], cwd=folder, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "run"
    path.mkdir()
    return path


def test_example_py(folder: Path) -> None:
    out = run_example("example.py", folder)
    assert out.count("verified=True") == 3
    assert "Modified record verified: False" in out
    assert "Restored record verified: True" in out
    assert "Shared memories: 1" in out  # the milestone memory; the private one is denied
    assert "Response verified: True" in out
    assert "RAG chunks: 3" in out


def test_review_workflow_py(folder: Path) -> None:
    out = run_example("review_workflow.py", folder).splitlines()
    assert out[0] == "State: open"
    assert out[1] == "Pending: ('suggestion-location', 'suggestion-title')"
    assert out[2] == "State: approved"
    assert out[3] == ("Resolved fields: {'content': 'She laughed when the dog sneezed.', 'tags': ['family'], "
                      "'location': 'Seoul Forest'}")
    assert out[4] == "Round trip equal: True"


def test_readme_v040_blocks(folder: Path) -> None:
    out = run_example("readme_v040.py", folder).splitlines()
    assert out[0].startswith("mem_") and len(out[1]) == 64  # id, then the SHA-256
    assert out[2] == "She laughed when the dog sneezed."  # shared by the second vault, verified
    exported = (folder / "family-memories.jsonl").read_text().splitlines()
    assert len(exported) == 1 and "She laughed" in exported[0]
    assert (folder / "family-memories.jsonl").stat().st_mode & 0o077 == 0
    # the README's storage_dir is an ordinary Reverie home
    assert (folder / "memory-data" / "vault.json").exists() and (folder / "memory-data" / "ledger.jsonl").exists()


def test_readme_v020_quick_start(folder: Path) -> None:
    out = run_example("readme_v020.py", folder).splitlines()
    assert out[:4] == ["2", "['preference', 'work']", "[]", "True"]
    assert sorted(out[4:]) == [
        "  [preference] I prefer morning meetings before 10am (verified=True)",
        "  [work] I work at a fintech startup in Seoul (verified=True)",
    ]
    assert (folder / ".diaryvault" / "memories" / "vault.json").exists()  # the upstream default storage_dir
