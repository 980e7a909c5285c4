"""`reverie ingest` and `reverie seal`: reports, exit codes, sealing only with keys at hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from core.vault.ledger import Ledger
from tests.conftest import TEST_PASSPHRASE
from tests.helpers.cli import in_process
from tui_app.cli import log_cmds

FIXTURES = Path(__file__).parents[1] / "fixtures" / "conversation"


run = in_process(log_cmds)


def test_clean_input_exits_zero_and_prints_a_summary(paths: HomePaths) -> None:
    subagents = FIXTURES / "claude-code" / "projects" / "-home-me-demo" / "11111111-1111-4111-8111-111111111111"
    code, out, err = run("ingest", str(subagents / "subagents"))
    assert code == 0, err
    # the subagent's 2 turns and its session header (core.conversation.claude_code)
    assert out.startswith("Read 1 file: 3 turns added, 0 duplicates, 0 quarantined.")
    assert "Left 1 closed day unsealed: no vault in this home yet" in out


def test_quarantined_lines_are_a_warning_named_on_stderr(paths: HomePaths) -> None:
    source = FIXTURES / "generic" / "chat.jsonl"
    code, out, err = run("ingest", str(source))
    assert code == 0
    assert "Read 1 file: 5 turns added" in out and "4 quarantined" in out
    assert f"{source}:4: ts: not an ISO-8601 time: 'yesterday'" in err.splitlines()
    assert err.splitlines()[-1] == "reverie: warning: 4 lines quarantined; the rest was imported"
    assert "  1  generic: unknown field 'mood' ignored" in out


def test_json_report(paths: HomePaths) -> None:
    code, out, _ = run("ingest", "--json", "--format", "chatgpt", str(FIXTURES / "chatgpt" / "conversations.json"))
    report = json.loads(out)
    assert code == 0  # one conversation quarantined beside ten turns imported: a warning
    assert {"files", "added", "duplicates", "quarantined", "skipped", "sealed"} <= set(report)
    assert (report["files"], report["added"], report["duplicates"]) == (1, 10, 0)
    assert report["quarantined"][0]["reason"] == "conversation 2: mapping: missing"
    assert set(report["quarantined"][0]) == {"file", "line", "reason"}
    again = json.loads(run("ingest", "--json", str(FIXTURES / "chatgpt"))[1])
    assert (again["added"], again["duplicates"]) == (0, 10)


def test_missing_path_and_unknown_format_are_one_line_errors(paths: HomePaths, tmp_path: Path) -> None:
    from core.errors import NotFound, ReverieError

    with pytest.raises(NotFound, match="no such file or folder"):
        run("ingest", str(tmp_path / "nope.jsonl"))
    odd = tmp_path / "odd.jsonl"
    odd.write_text('{"hello": "world"}\n')
    with pytest.raises(ReverieError, match=r"odd.jsonl: not a Claude Code transcript.*--format"):
        run("ingest", str(odd))
    assert not list(paths.logs.iterdir())


def test_ingest_seals_when_the_passphrase_is_in_the_environment(
    paths: HomePaths, keys: VaultKeys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REVERIE_PASSPHRASE", TEST_PASSPHRASE)
    _code, out, _ = run("ingest", "--json", str(FIXTURES / "generic" / "chat.jsonl"))
    report = json.loads(out)
    assert report["sealed"] == ["2026-03-01", "2026-03-03"] and report["unsealed"] == []
    assert [e.kind for e in Ledger(paths, keys).read().entries] == ["seal_day", "seal_day"]


def test_wrong_passphrase_writes_nothing(paths: HomePaths, keys: VaultKeys, monkeypatch: pytest.MonkeyPatch) -> None:
    from core.errors import WrongPassphrase

    monkeypatch.setenv("REVERIE_PASSPHRASE", "not it")
    with pytest.raises(WrongPassphrase):
        run("ingest", str(FIXTURES / "generic" / "chat.jsonl"))
    assert not list(paths.logs.iterdir())


def test_seal_command(paths: HomePaths, keys: VaultKeys, monkeypatch: pytest.MonkeyPatch) -> None:
    run("ingest", str(FIXTURES / "generic" / "chat.jsonl"))  # no passphrase: the days it wrote are unsigned
    monkeypatch.setenv("REVERIE_PASSPHRASE", TEST_PASSPHRASE)
    code, out, _ = run("seal")
    assert code == 0 and out.count("Not sealed: incomplete: ") == 2 and "--adopt 2026-03-01" in out, out
    code, out, err = run("seal", "--adopt", "2026-03-01", "--adopt", "2026-03-03", "--yes")
    assert code == 0 and out.strip() == "Sealed 2 days: 2026-03-01, 2026-03-03", out
    assert "logs/2026/03/2026-03-01.jsonl: " in err and "first  2026-03-01T" in err
    code, out, _ = run("seal", "--json")
    assert json.loads(out) == {"sealed": [], "resealed": [], "refused": [], "not_sealed": []}
