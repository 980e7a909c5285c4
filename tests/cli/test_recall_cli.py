"""`reverie search` (one query and --batch) and `reverie context`, as scripts and people use them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner

from core.topics import add_marker
from tests.helpers.recall import NOW, ConceptEmbedder, conversation, indexed, turn
from tui_app.cli.main import cli

NOW_ISO = "2026-11-29T15:00:00+00:00"
RESULT_KEYS = ["id", "ts", "text", "session", "actor", "role", "kind", "reviewed", "score"]


@pytest.fixture
def home(paths):
    turns = [
        *conversation(datetime(2026, 11, 28, 20, tzinfo=UTC), [
            ("kate", "we decided to move the garden party to Sunday"),
            ("bot", "Noted: the garden party is on Sunday"),
        ], session="party", role_of={"bot": "assistant"}),
        turn(NOW - timedelta(days=10), "the garden was full of snails", session="old"),
        turn(NOW - timedelta(days=1, hours=3), "会議で予算を決めた", session="ja"),
    ]
    indexed(paths, turns).close()
    return paths


def run(*args: str, stdin: str | bytes | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)
    return result.exit_code, result.output


def search_json(*args: str) -> dict:
    code, out = run("search", *args, "--now", NOW_ISO, "--tz", "UTC", "--json")
    assert code == 0, out
    return json.loads(out)


def test_json_shape_exactly(home):
    data = search_json("garden", "yesterday")
    assert list(data) == ["range", "mode", "results", "notes", "index"]
    assert data["range"] == {"start": "2026-11-28T00:00:00+00:00", "end": "2026-11-29T00:00:00+00:00", "grain": "day"}
    assert data["mode"] == "exact"
    assert [r["text"] for r in data["results"]] == ["we decided to move the garden party to Sunday",
                                                     "Noted: the garden party is on Sunday"]
    assert all(list(r) == RESULT_KEYS and r["kind"] == "turn" for r in data["results"])
    assert list(data["index"]) == ["turns", "memories", "vectors", "documents", "pending_vectors", "embeddable",
                                   "caught_up_turns", "behind_bytes", "behind_days", "removed_days", "memories_synced",
                                   "busy", "shadow_model", "shadow_vectors", "shadow_pending"]
    assert data["index"]["turns"] == 4 and data["index"]["behind_bytes"] == 0 and data["index"]["busy"] is False


def test_unscoped_filters_and_limit(home):
    assert search_json("garden")["range"] is None
    assert len(search_json("garden", "--limit", "1")["results"]) == 1
    roles = {r["role"] for r in search_json("garden", "--role", "assistant")["results"]}
    assert roles == {"assistant"}
    sessions = {r["session"] for r in search_json("garden", "--session", "old")["results"]}
    assert sessions == {"old"}
    assert search_json("garden", "--tag", "x")["results"] == []  # tags select memories; there are none


def test_cjk_through_the_cli(home):
    assert search_json("会議")["results"][0]["text"] == "会議で予算を決めた"


def test_auto_without_vectors_says_so_in_text(home):
    code, out = run("search", "snowboarding", "--now", NOW_ISO, "--tz", "UTC")
    assert code == 0
    assert out.splitlines()[0].startswith("mode   exact — exact matched 0") and "nothing found" in out


def test_plain_text_shows_range_and_speaker(home):
    code, out = run("search", "garden", "last", "night", "--now", NOW_ISO, "--tz", "UTC")
    assert code == 0
    assert out.startswith("range  Sat 28 Nov 18:00 – Sun 29 Nov 04:00 (part_of_day)")
    assert "kate (user) · party" in out and "bot (assistant)" in out


def test_batch_one_answer_per_line_and_bad_lines_go_on(home, tmp_path):
    lines = [
        json.dumps({"query": "garden yesterday", "now": NOW_ISO, "tz": "UTC"}),
        "{not json",
        json.dumps({"query": "garden", "mode": "semantic", "now": NOW_ISO}),
        json.dumps(["a list"]),
        "",
        json.dumps({"query": "garden", "limit": 1, "now": NOW_ISO, "tz": "UTC", "mode": "exact"}),
        json.dumps({"query": "garden", "tz": "Mars/Olympus"}),
        json.dumps({"query": "garden", "colour": "red"}),
        json.dumps({"query": 42}),
        json.dumps({"query": "garden", "limit": "3"}),
    ]
    batch = tmp_path / "queries.jsonl"
    batch.write_bytes(("\n".join(lines) + "\n").encode() + b"\xff\xfe bad bytes\n")
    code, out = run("search", "--batch", str(batch))
    assert code == 0
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(lines) + 1
    assert list(answers[0]) == ["range", "mode", "results", "notes", "index"] and len(answers[0]["results"]) == 2
    assert list(answers[5]) == ["range", "mode", "results", "notes", "index"] and len(answers[5]["results"]) == 1
    for number in (2, 3, 4, 5, 7, 8, 9, 10, 11):
        err = answers[number - 1]
        assert list(err) == ["line", "error"] and err["line"] == number
        assert err["error"].startswith(f"line {number}: ") and "\n" not in err["error"]
    assert "reindex" in answers[2]["error"]
    assert "Mars/Olympus" in answers[6]["error"] and "colour" in answers[7]["error"]


def test_batch_reports_an_over_long_line_and_answers_the_next(home, tmp_path):
    from tui_app.cli.search_cmds import MAX_BATCH_LINE_BYTES

    longest = json.dumps({"query": "\U0001f600" * 2000, "now": NOW_ISO, "tz": "UTC"})  # 12 bytes a character
    huge = json.dumps({"query": "garden " * (MAX_BATCH_LINE_BYTES // 7)})
    lines = [longest, huge, json.dumps({"query": "snails", "now": NOW_ISO})]
    batch = tmp_path / "queries.jsonl"
    batch.write_bytes(("\n".join(lines) + "\n").encode() + huge.encode())  # the last one unterminated
    code, out = run("search", "--batch", str(batch))
    assert code == 0
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == 4
    assert list(answers[0]) == ["range", "mode", "results", "notes", "index"]  # the longest query a search takes fits
    limit = f"{MAX_BATCH_LINE_BYTES:,}-byte limit"
    assert answers[1] == {"line": 2, "error": f"line 2: line of {len(huge):,} bytes is over the {limit}"}
    assert answers[2]["results"][0]["text"] == "the garden was full of snails"
    assert answers[3] == {"line": 4, "error": f"line 4: line of {len(huge):,} bytes is over the {limit}"}


def test_batch_file_with_a_bom_is_read(home, tmp_path):
    batch = tmp_path / "queries.jsonl"
    batch.write_bytes(b"\xef\xbb\xbf" + json.dumps({"query": "snails", "now": NOW_ISO}).encode() + b"\n")
    code, out = run("search", "--batch", str(batch))
    assert code == 0 and json.loads(out)["results"][0]["text"] == "the garden was full of snails"


def test_batch_from_stdin(home):
    code, out = run("search", "--batch", "-", stdin=json.dumps({"query": "snails", "now": NOW_ISO}) + "\n")
    assert code == 0 and json.loads(out)["results"][0]["text"] == "the garden was full of snails"


def test_usage_errors(home):
    assert run("search")[0] == 2
    assert run("search", "x", "--mode", "fuzzy")[0] == 2
    assert run("search", "x", "--limit", "0")[0] == 2


def test_errors_are_one_line_with_exit_codes(home):
    env = {**os.environ}
    proc = subprocess.run([sys.executable, "-m", "tui_app.cli.main", "search", "x" * 3000],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "3,000 characters" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "tui_app.cli.main", "search", "garden", "--mode", "semantic"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2 and "reindex" in proc.stderr and proc.stderr.count("\n") == 1


def test_context_block(home):
    add_marker(home, "planning the garden party", now=NOW)
    code, out = run("context", "garden", "--now", NOW_ISO, "--tz", "UTC", "--budget", "200")
    assert code == 0
    assert out.index("## Where we are") < out.index("## From past conversations")
    assert "planning the garden party" in out
    code, out = run("context", "--now", NOW_ISO, "--tz", "UTC", "--json")
    data = json.loads(out)
    assert data["tokens"] <= data["budget"] == 2000 and data["markers"][0]["text"] == "planning the garden party"
    assert list(data) == ["text", "tokens", "budget", "markers", "memories", "turns", "cut", "left_out", "mode"]
    assert list(data["markers"][0]) == ["ts", "text", "id"]
    code, out = run("context", "garden", "--now", NOW_ISO, "--tz", "UTC", "--json")
    assert [list(item) for item in json.loads(out)["turns"]][:1] == [RESULT_KEYS]
    proc = subprocess.run([sys.executable, "-m", "tui_app.cli.main", "context", "garden", "--profile", "nobody"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "no sharing profile 'nobody'" in proc.stderr


def test_batch_loads_the_model_once(paths, tmp_path, monkeypatch):
    import core.embed

    embedder = ConceptEmbedder()
    indexed(paths, [turn(NOW - timedelta(days=1), "We went skiing on the slopes")], embedder).close()
    made: list[object] = []

    def make(config: object, **_: object) -> ConceptEmbedder:
        made.append(config)
        return embedder

    monkeypatch.setattr(core.embed, "make_embedder", make)
    queries = [json.dumps({"query": q, "mode": m, "now": NOW_ISO})
               for q, m in (("snowboarding", "auto"), ("snow", "semantic"), ("slopes", "hybrid"))]
    batch = tmp_path / "q.jsonl"
    batch.write_text("\n".join(queries) + "\n", encoding="utf-8")
    code, out = run("search", "--batch", str(batch))
    answers = [json.loads(line) for line in out.splitlines() if line.startswith("{")]  # stderr is mixed in
    assert code == 0 and [a["mode"] for a in answers] == ["semantic", "semantic", "hybrid"]
    assert all(a["results"][0]["text"] == "We went skiing on the slopes" for a in answers)
    assert len(made) == 1
