"""Format detection, folder walking and progress reporting."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.conversation import FormatError, collect_sources, detect_format, ingest
from core.paths import HomePaths

FIXTURES = Path(__file__).parents[1] / "fixtures" / "conversation"
MAIN = FIXTURES / "claude-code" / "projects" / "-home-me-demo" / "11111111-1111-4111-8111-111111111111.jsonl"


@pytest.mark.parametrize(("path", "expected"), [
    (MAIN, "claude-code"),
    (MAIN.with_suffix("") / "subagents" / "agent-a1b2c3.jsonl", "claude-code"),
    (FIXTURES / "chatgpt" / "conversations.json", "chatgpt"),
    (FIXTURES / "generic" / "chat.jsonl", "generic"),
    (MAIN.parent / "settings.json", None),
])
def test_detect_format(path: Path, expected: str | None) -> None:
    assert detect_format(path) == expected


@pytest.mark.shared_data
def test_detect_every_shared_sample(shared_data: Path) -> None:
    for sample in (shared_data / "claude-code").glob("*.jsonl"):
        assert detect_format(sample) == "claude-code", sample
    assert detect_format(shared_data / "chatgpt" / "mitkury_example-conversation.json") == "chatgpt"
    assert detect_format(shared_data / "claude-code" / "agent-schemas_session.schema.v2.1.144.json") is None


def test_folder_walk_skips_hidden_entries_and_other_files(tmp_path: Path) -> None:
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.jsonl").write_text('{"ts": "2026-01-01T00:00:00Z", "role": "user", "text": "x"}\n')
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "notes.md").write_text("# notes")
    (tmp_path / "a.jsonl").write_text('{"ts": "2026-01-01T00:00:00Z", "role": "user", "text": "x"}\n')
    plan = collect_sources([tmp_path, tmp_path / "a.jsonl"])
    assert [(s.path.name, s.format) for s in plan.sources] == [("a.jsonl", "generic")]  # listed once
    assert plan.skipped == {"empty file": 1}
    assert plan.total_bytes == (tmp_path / "a.jsonl").stat().st_size


def test_forced_format_and_unknown_format(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="--format: must be auto or one of"):
        collect_sources([tmp_path], "csv")
    plan = collect_sources([FIXTURES / "generic" / "chat.jsonl"], "claude-code")
    assert plan.sources[0].format == "claude-code"


@pytest.mark.parametrize("source", [
    MAIN.parent.parent, FIXTURES / "chatgpt" / "conversations.json", FIXTURES / "generic" / "chat.jsonl",
])
def test_progress_adds_up_to_the_bytes_read(paths: HomePaths, source: Path) -> None:
    plan = collect_sources([source])
    steps: list[int] = []
    ingest(paths, plan=plan, progress=steps.append)
    assert sum(steps) == plan.total_bytes and all(step >= 0 for step in steps)


def test_core_conversation_never_imports_click() -> None:
    import subprocess
    import sys

    code = "import sys, core.conversation, core.topics; print('click' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parents[2], check=True)
    assert result.stdout.strip() == "False"
