"""The runnable example of ``docs/sdk.md`` runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "sdk.md"


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_the_migration_page_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    blocks = python_blocks(DOC.read_text(encoding="utf-8"))
    assert len(blocks) == 1
    exec(compile(blocks[0], str(DOC), "exec"), {"__name__": "__docs__"})
    out = capsys.readouterr().out
    assert "refused:" in out and "already finalized" in out


def test_the_page_names_every_public_name() -> None:
    import core.sdk

    text = DOC.read_text(encoding="utf-8")
    missing = [name for name in core.sdk.__all__ if f"`{name}`" not in text]
    assert not missing, f"docs/sdk.md does not name {missing}"
