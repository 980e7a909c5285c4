"""Fuzz the queries a person types: ``reverie when`` and ``reverie search`` (and its ``--batch`` lines),
through the real CLI in this process. Any Unicode, control characters, very long text, odd ``--now`` and
``--tz``: the answer is JSON (exit 0) or one line on stderr (exit 2), never a traceback or a hang.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.conversation import ingest
from core.embed.hashing import HashingEmbedder
from core.index import HomeDayLogs, Reindexer, SearchIndex
from core.paths import HomePaths
from tests.faults.fuzzing import FUZZ, JSON, TEXT, within

WORDS = st.sampled_from(["yesterday", "last Tuesday night", "지난주 화요일 밤", "先週の火曜日の夜", "3 days ago",
                         "in March", "2026-11-03", "since Monday", "between the 3rd and the 5th", "may I", "we",
                         "Kate", "skiing",
                         "서울숲", "会議", "산책", "AND", "OR", "NOT", "NEAR", "\"", "*", "^", "(", ")", ":", "-", "+"])
QUERY = st.one_of(TEXT, st.lists(st.one_of(WORDS, TEXT), max_size=8).map(" ".join))
NOW = st.one_of(st.none(), st.sampled_from(["2026-11-05T12:00:00+09:00", "2026-03-29T02:30:00", "0001-01-01T00:00:00Z",
                                            "9999-12-31T23:59:59Z", "yesterday", ""]), TEXT)
TZ = st.one_of(st.none(), st.sampled_from(["Asia/Seoul", "UTC", "Australia/Lord_Howe", "Mars/Olympus", "../etc",
                                           ""]), TEXT)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("queries")
    paths = HomePaths(root=base / "home", cache=base / "cache")
    source = base / "turns.jsonl"
    rows = [{"ts": f"2026-11-0{1 + i % 4}T{10 + i % 12:02d}:00:00+09:00", "role": ("user", "assistant")[i % 2],
             "actor": ("kate", "assistant")[i % 2], "session": f"s{i % 3}",
             "text": ["어제 서울숲에서 산책했어", "会議の後で話そう", "Kate loves skiing in March", "we may go"][i % 4]}
            for i in range(40)]
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    ingest(paths, [source])
    with SearchIndex.open(paths) as index:
        Reindexer(index, HomeDayLogs(paths), embedder=lambda: HashingEmbedder()).run(embed=False)
    return paths.root


def run_cli(argv: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    from tui_app.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    code: Any = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), within(what=" ".join(argv[:3])):
        try:
            main(argv)
        except SystemExit as exc:
            code = exc.code
    return int(code or 0), out.getvalue(), err.getvalue()


def assert_answer(code: int, out: str, err: str) -> Any:
    assert "Traceback" not in out + err, err
    if code == 0:
        return json.loads(out)
    assert code == 2, (code, err)
    lines = [line for line in err.strip().splitlines() if line.strip()]
    if lines and lines[0].startswith("Usage:"):  # click's usage error: usage, hint, then the one error line
        lines = [line for line in lines if line.startswith("Error:")]
    assert len(lines) == 1, f"not one line: {err!r}"
    return None


@FUZZ
@given(QUERY, NOW, TZ)
def test_when(home: Path, query: str, now: str | None, tz: str | None) -> None:
    argv = ["--home", str(home), "when", "--json"]
    argv += ["--now", now] if now is not None else ["--now", "2026-11-05T12:00:00+09:00"]
    argv += ["--tz", tz] if tz is not None else []
    answer = assert_answer(*run_cli([*argv, "--", query]))
    if answer is not None:
        assert set(answer) >= {"range", "expression", "rest"}


@FUZZ
@given(QUERY, NOW, TZ, st.one_of(st.none(), st.integers(-3, 10**9)))
def test_search(home: Path, query: str, now: str | None, tz: str | None, limit: int | None) -> None:
    argv = ["--home", str(home), "search", "--json", "--mode", "exact", "--no-sync"]
    argv += ["--now", now] if now is not None else []
    argv += ["--tz", tz] if tz is not None else []
    argv += ["--limit", str(limit)] if limit is not None else []
    answer = assert_answer(*run_cli([*argv, "--", query]))
    if answer is not None:
        assert {"range", "mode", "results"} <= set(answer) and answer["mode"] == "exact"


BATCH_ITEM = st.one_of(
    st.fixed_dictionaries({"query": QUERY}, optional={"now": NOW, "tz": TZ, "limit": st.one_of(
        st.integers(-3, 10**6), JSON), "mode": st.sampled_from(["exact", "fuzzy", ""])}),
    st.dictionaries(TEXT, JSON, max_size=3), JSON)


@FUZZ
@given(st.lists(st.one_of(BATCH_ITEM.map(lambda v: json.dumps(v).encode("utf-8", "surrogatepass")),
                          st.binary(max_size=40)), min_size=1, max_size=5))
def test_search_batch_lines(home: Path, tmp_path_factory: pytest.TempPathFactory, lines: list[bytes]) -> None:
    batch = tmp_path_factory.mktemp("batch") / "queries.jsonl"
    batch.write_bytes(b"\n".join(line.replace(b"\n", b" ") for line in lines) + b"\n")
    code, out, err = run_cli(["--home", str(home), "search", "--batch", str(batch), "--mode", "exact", "--no-sync"])
    assert "Traceback" not in out + err and code == 0, (code, err)
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(lines)
    for answer in answers:
        assert ("results" in answer) != ("error" in answer), answer
        if "error" in answer:
            assert "\n" not in answer["error"]
