"""Recall primitives at scale: exact index build and queries, vector store, incremental reindex.

    python tests/bench/bench_recall.py --turns 100000
    python tests/bench/bench_recall.py --turns 1000000 --json > recall-1m.json
    python tests/bench/bench_recall.py --turns 1000000 --model all-MiniLM-L6-v2   # the 384-d reference
    python tests/bench/bench_recall.py --turns 100000 --build-only --build-repeats 3   # step 2 alone

What it does, in one process, on one machine state (compare ratios, the machine is shared):

1. Writes N synthetic turns over five years as day files of a fresh home: sessions of 10–60 turns,
   English sentences drawn from the word frequencies of the LoCoMo conversations, Korean, Japanese
   and Chinese sentences from everyday words with particles, 15% tool ("action") turns, 1% of
   turns appended to their day file out of time order.
2. Builds the exact index with ``Reindexer`` (reading and checking day files, catalog, CJK bigrams,
   FTS5) as shipped (a build from empty of 16 MiB or more stages the day files in a worker process
   when there is a second core: core.index.bulkstage) and in one process (the reading timed), and
   the reference: a raw FTS5 table of the same turns' texts, already in memory (no
   parsing), with the index's own tokenizer (porter over unicode61, remove_diacritics 2), dense
   time-ordered rowids and a ``turns(id, ts)`` table with its ts index, in one transaction (WAL,
   synchronous=NORMAL, as the index). Ours also stores the catalog (every field, four indexes) and
   turns CJK runs into bigrams (more tokens). The raw table is also built with day-block rowids (our
   layout) and with microsecond-derived rowids (the layout core.index.rowids rejects), to compare
   index sizes.
3. Times exact queries (2–3 mid-frequency words OR-ed) in a week, a month and all time: ours
   (``SearchIndex.exact_search``: query building, time → doc range, bm25, ids) against raw SQLite
   (the same FTS5 query bounded by a rowid range looked up through a ts index) in the same run.
4. Vectors. Embedding 1M real sentences is too slow here (~100/s), so: the real model (``--model``,
   default the product's ``EmbeddingConfig().model``; ``--model all-MiniLM-L6-v2`` is the earlier
   384-d setup) embeds real text (LoCoMo turns and summary sentences; the questions in the query
   form searches use, ``core.embed.query_vectors``), and each synthetic turn's vector is a mixture of two
   of those real vectors (weights 0.5–1 and 0–0.5) plus a little noise, normalised: the cloud keeps
   the real embeddings' anisotropy and neighbourhoods. They are stored through the real store
   (``vectors.put``, int8), snapshotted, and queried with the real LoCoMo questions' vectors.
   recall@10 is against exact float32 cosine over the same synthetic float32 vectors. Quality on
   real text alone is measured on the real embeddings (no mixing).
5. Time-scoped search end to end: ``Recaller.search`` in auto mode of "k days ago, <question>" and
   "last week, <question>" on the same home (time parsing, the query embedded by the model, exact and
   vector search in the range, fusion, ranking), beside the query embedding alone.
6. Incremental reindex: a new day of 300 turns, an old day imported late (300 turns in the middle
   of the five years) and one late turn that renumbers its day; and a no-change pass (``watch``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import apsw
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from core.config import EmbeddingConfig  # noqa: E402
from core.embed.protocol import Embedder  # noqa: E402
from core.index import HomeDayLogs, Reindexer, SearchIndex, snapshot, vecsearch, vectors  # noqa: E402
from core.index.connection import write  # noqa: E402
from core.index.quantize import int8_norms, sign_words, to_int8  # noqa: E402
from core.index.rowids import day_block  # noqa: E402
from core.index.tokenize import STOPWORDS  # noqa: E402
from core.index.watch import Watcher  # noqa: E402
from core.paths import HomePaths  # noqa: E402
from core.turns import Turn, day_file  # noqa: E402

LOCOMO = ROOT.parent / "shared" / "data" / "locomo10.json"
START = datetime(2021, 11, 1, tzinfo=UTC)
YEARS = 5


def words(text: str) -> list[str]:
    return text.split()


KO_NOUNS = words(
    "서울숲 회의 예산 산책 커피 친구 가족 여행 주말 계획 프로젝트 점심 저녁 운동 영화 책 음악 학교 회사 병원 날씨 공원 "
    "바다 산 카페 시장 은행 공항 기차 버스 보고서 발표 일정 약속 선물 생일 강아지 고양이 요리 사진 전화 이메일 숙제 "
    "시험 면접 이사 청소 쇼핑 드라마 노래 축구 야구 등산 자전거 수영 도서관"
)
KO_PARTICLES = ("에서", "에", "을", "를", "이", "가", "은", "는", "와", "과", "으로", "로", "도", "의")
KO_VERBS = words(
    "갔다 했다 먹었다 만났다 봤다 샀다 읽었다 준비했다 이야기했다 결정했다 확인했다 보냈다 정리했다 시작했다 끝냈다 "
    "기다렸다 바꿨다 찾았다"
)
JA_NOUNS = words(
    "会議 予算 散歩 コーヒー 友達 家族 旅行 週末 計画 プロジェクト 昼ご飯 夕食 運動 映画 本 音楽 学校 会社 病院 天気 "
    "公園 海 山 カフェ 市場 銀行 空港 電車 バス 報告書 発表 予定 約束 誕生日 写真 電話 メール 宿題 試験 面接 引っ越し "
    "掃除 買い物 料理"
)
JA_PARTICLES = ("で", "に", "を", "が", "は", "と", "の", "へ", "も")
JA_VERBS = words("行った した 食べた 会った 見た 買った 読んだ 準備した 話した 決めた 確認した 送った 始めた 終わった")
ZH_WORDS = words("我们 明天 在 北京 上海 开会 讨论 预算 计划 项目 朋友 吃饭 咖啡 周末 旅行 报告 时间 问题 学习 工作")


def locomo_texts() -> tuple[list[str], list[str]]:
    """Real sentences (LoCoMo turns, observations and summaries) and the real questions."""
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))
    docs: list[str] = []
    questions: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, str):
            docs.extend(s for s in re.split(r"(?<=[.!?])\s+", value) if len(s) > 20)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for conversation in data:
        for key, session in conversation["conversation"].items():
            if key.startswith("session_") and isinstance(session, list):
                docs.extend(t["text"] for t in session if t.get("text"))
        questions.extend(q["question"] for q in conversation["qa"])
        for key in ("observation", "session_summary", "event_summary"):
            walk(conversation.get(key))
    return list(dict.fromkeys(docs)), questions


# -- synthetic log -------------------------------------------------------------------------------


class TextMaker:
    def __init__(self, english: Sequence[str], rng: np.random.Generator) -> None:
        counts = Counter(w for text in english for w in re.findall(r"[a-z']+", text.lower()) if len(w) > 1)
        self.words = np.array(list(counts))
        freq = np.array(list(counts.values()), dtype=np.float64)
        self.p = freq / freq.sum()
        self.rng = rng

    def english(self, n: int) -> list[str]:
        lengths = np.clip(self.rng.lognormal(2.6, 0.5, n).astype(int), 3, 60)
        words = self.rng.choice(self.words, size=int(lengths.sum()), p=self.p)
        out, at = [], 0
        for length in lengths:
            out.append(" ".join(words[at : at + length]).capitalize() + ".")
            at += length
        return out

    def korean(self) -> str:
        r = self.rng
        parts = [f"{r.choice(KO_NOUNS)}{r.choice(KO_PARTICLES)}" for _ in range(r.integers(2, 5))]
        return " ".join([*parts, str(r.choice(KO_VERBS))])

    def japanese(self) -> str:
        r = self.rng
        return (
            "".join(
                [
                    *(f"{r.choice(JA_NOUNS)}{r.choice(JA_PARTICLES)}" for _ in range(r.integers(2, 5))),
                    str(r.choice(JA_VERBS)),
                ]
            )
            + "。"
        )

    def chinese(self) -> str:
        return "".join(self.rng.choice(ZH_WORDS, size=self.rng.integers(4, 9))) + "。"


def make_turns(n: int, maker: TextMaker, rng: np.random.Generator) -> list[Turn]:
    """n turns over five years in sessions, sorted by time."""
    days = YEARS * 365
    weights = rng.gamma(2.0, 1.0, days) * (1 + 0.3 * (np.arange(days) % 7 < 5))
    per_day = rng.multinomial(n, weights / weights.sum())
    english = iter(maker.english(n))
    turns: list[Turn] = []
    serial = 0
    for day, count in enumerate(per_day):
        left = int(count)
        while left > 0:
            size = min(left, int(rng.integers(10, 61)))
            left -= size
            moment = START + timedelta(days=day, seconds=int(rng.integers(6 * 3600, 86000)))
            session, lang = f"s{serial}", rng.random()
            assistant = ("claude", "gpt-4o", "gemini")[serial % 3]
            for k in range(size):
                moment = min(
                    moment + timedelta(seconds=int(rng.integers(20, 600))), START + timedelta(days=day, seconds=86399)
                )
                kind = "action" if rng.random() < 0.15 else "text"
                text = next(english)
                if kind == "text":
                    if lang < 0.15:
                        text = maker.korean()
                    elif lang < 0.25:
                        text = maker.japanese()
                    elif lang < 0.28:
                        text = maker.chinese()
                role = "user" if k % 2 == 0 else "assistant"
                turns.append(
                    Turn(
                        id=f"b{serial:07d}-{k:02d}",
                        ts=moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                        actor="me" if role == "user" else assistant,
                        role=role,
                        type=kind,
                        text=text,
                        model=None if role == "user" else assistant,
                        session=session,
                        source="bench",
                    )
                )
            serial += 1
    turns.sort(key=lambda t: t.ts)
    return turns


def write_log(paths: HomePaths, turns: Sequence[Turn], rng: np.random.Generator) -> None:
    """Day files in append order: 1% of each day's turns moved to the end (out of time order)."""
    by_day: dict[str, list[Turn]] = {}
    for t in turns:
        by_day.setdefault(t.day, []).append(t)
    for day, items in by_day.items():
        late = rng.random(len(items)) < 0.01
        ordered = [t for t, x in zip(items, late, strict=True) if not x] + [
            t for t, x in zip(items, late, strict=True) if x
        ]
        path = day_file(paths.logs, day)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(t.to_json() + "\n" for t in ordered), encoding="utf-8")


# -- timing helpers ------------------------------------------------------------------------------


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    started = time.perf_counter()
    result = fn()
    return time.perf_counter() - started, result


def latencies(fn: Callable[[int], object], count: int, warm: int = 10) -> dict[str, float]:
    for i in range(warm):
        fn(i)
    samples = []
    for i in range(count):
        started = time.perf_counter()
        fn(i)
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return {"p50": statistics.median(samples), "p95": samples[min(len(samples) - 1, int(len(samples) * 0.95))]}


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def windows(rng: np.random.Generator, count: int, days: int) -> list[tuple[str, str]]:
    starts = rng.integers(0, YEARS * 365 - days, count)
    return [(iso(START + timedelta(days=int(s))), iso(START + timedelta(days=int(s) + days))) for s in starts]


def table_bytes(conn: apsw.Connection, *names: str) -> int:
    rows = conn.execute(
        f"SELECT sum(pgsize) FROM dbstat WHERE name IN ({','.join('?' * len(names))})", names
    ).fetchone()
    return int(rows[0] or 0)


def fts_bytes(conn: apsw.Connection, table: str) -> int:
    names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE name LIKE ?", (f"{table}_%",))]
    return table_bytes(conn, *names)


class TimedSource(HomeDayLogs):
    """The real log source, timing the reading and checking of day files (``HomeDayLogs.read``: the
    lean msgspec reader for clean files, core.conversation.read_day for the rest)."""

    def __init__(self, paths: HomePaths) -> None:
        super().__init__(paths)
        self.seconds = 0.0

    def read(self, path: Path, offset: int):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        try:
            return super().read(path, offset)
        finally:
            self.seconds += time.perf_counter() - started


# -- raw SQLite baselines ------------------------------------------------------------------------


def build_raw(path: Path, turns: Sequence[Turn], rowid: Callable[[int, Turn], int]) -> float:
    conn = apsw.Connection(str(path))
    conn.pragma("journal_mode", "wal")
    conn.pragma("synchronous", "normal")
    conn.execute(
        "CREATE TABLE turns(id INTEGER PRIMARY KEY, ts TEXT NOT NULL);"
        f"CREATE VIRTUAL TABLE fts USING fts5(text, content='', tokenize='{RAW_TOKENIZER}')"
    )
    started, cpu = time.perf_counter(), time.process_time()
    with write(conn):
        conn.executemany("INSERT INTO turns(id, ts) VALUES (?, ?)", ((rowid(i, t), t.ts) for i, t in enumerate(turns)))
        conn.execute("CREATE INDEX turns_ts ON turns(ts)")
        conn.executemany(
            "INSERT INTO fts(rowid, text) VALUES (?, ?)", ((rowid(i, t), t.text) for i, t in enumerate(turns))
        )
    seconds = time.perf_counter() - started
    conn.close()
    RAW_CPU.append(time.process_time() - cpu)
    return seconds


def children_cpu() -> float:
    """CPU seconds of this process's children that were waited for (the build's staging worker)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


RAW_TOKENIZER = "porter unicode61 remove_diacritics 2"  # the index's (core.index.migrations m005)
RAW_CPU: list[float] = []  # CPU seconds of each build_raw call (steadier than wall time on a shared machine)


def block_rowids(turns: Sequence[Turn]) -> Callable[[int, Turn], int]:
    """Our layout (core.index.rowids): day block + rank within the day (turns are in time order)."""
    first_of_day: dict[str, int] = {}
    for i, t in enumerate(turns):
        first_of_day.setdefault(t.day, i)
    return lambda i, t: day_block(t.day) + i - first_of_day[t.day]


def micro_rowid(i: int, t: Turn) -> int:
    moment = datetime.fromisoformat(t.ts.replace("Z", "+00:00"))
    return int(moment.timestamp() * 1_000_000) * 1024 + i % 1024


# -- the benchmark -------------------------------------------------------------------------------


def model_slug(model: str) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "-", model).strip("-")


def real_embeddings(
    workdir: Path, docs: list[str], questions: list[str], model: str, threads: int
) -> tuple[np.ndarray, np.ndarray, float, Embedder]:
    """The real model's vectors of the real texts (``embed``) and questions (``query_vectors``, the
    form searches use), its rate on the texts, and the embedder (loaded only if not cached)."""
    from core.config import EmbeddingConfig
    from core.embed import make_embedder, query_vectors

    embedder = make_embedder(EmbeddingConfig(model=model, threads=threads))
    cache = workdir / f"locomo-{model_slug(model)}-{len(docs)}-{len(questions)}.npz"
    if cache.exists():
        data = np.load(cache)
        return data["docs"], data["questions"], float(data["rate"]), embedder
    embedder.embed(["warm up"])
    seconds, doc_vectors = timed(lambda: embedder.embed(docs))
    question_vectors = query_vectors(embedder, questions)
    rate = len(docs) / seconds
    np.savez(cache, docs=doc_vectors, questions=question_vectors, rate=rate)
    return doc_vectors, question_vectors, rate, embedder  # type: ignore[return-value]


def recall_at_10(approx: Sequence[Sequence[int]], exact: Sequence[Sequence[int]]) -> float:
    return float(np.mean([len(set(a) & set(e)) / 10 for a, e in zip(approx, exact, strict=True)]))


def real_text_quality(doc_vectors: np.ndarray, question_vectors: np.ndarray) -> dict[str, object]:
    """recall@10 against exact float32 on real embeddings: int8 exact path, Hamming+int8 path by candidates."""
    n = len(doc_vectors)
    q = to_int8(doc_vectors)
    segment = vecsearch.Segment(np.arange(n, dtype=np.int64), q, int8_norms(q), sign_words(q))
    band = [vecsearch.Band(0, n)]
    exact = np.argsort(-(question_vectors @ doc_vectors.T), axis=1)[:, :10]
    out: dict[str, object] = {"rows": n, "queries": len(question_vectors)}
    saved = vecsearch.EXACT_MAX, vecsearch.CANDIDATES_MIN, vecsearch.CANDIDATES_PER_K, vecsearch.CANDIDATES_DIVISOR
    try:
        vecsearch.EXACT_MAX = n + 1
        out["int8"] = recall_at_10(
            [[d for d, _ in vecsearch.search([segment], v, band, 10)] for v in question_vectors], exact
        )
        vecsearch.EXACT_MAX, vecsearch.CANDIDATES_PER_K, vecsearch.CANDIDATES_DIVISOR = 0, 0, 1 << 40
        curve = {}
        for c in (50, 100, 200, 400):
            vecsearch.CANDIDATES_MIN = c
            curve[str(c)] = recall_at_10(
                [[d for d, _ in vecsearch.search([segment], v, band, 10)] for v in question_vectors], exact
            )
        out["hamming_int8_by_candidates"] = curve
    finally:
        vecsearch.EXACT_MAX, vecsearch.CANDIDATES_MIN, vecsearch.CANDIDATES_PER_K, vecsearch.CANDIDATES_DIVISOR = saved
    return out


def synthetic_vectors(base: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    i = rng.integers(0, len(base), count)
    j = rng.integers(0, len(base), count)
    w = rng.uniform(0.5, 1.0, (count, 1)).astype(np.float32)
    v = w * base[i] + (1 - w) * base[j] + rng.normal(0, 0.02, (count, base.shape[1])).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def exact_float32_top10(
    matrix: np.ndarray, docs: np.ndarray, queries: np.ndarray, lo: int | None = None, hi: int | None = None
) -> list[list[int]]:
    a = 0 if lo is None else int(np.searchsorted(docs, lo, "left"))
    b = len(docs) if hi is None else int(np.searchsorted(docs, hi, "right"))
    best_scores = np.full((len(queries), 10), -np.inf, dtype=np.float32)
    best_rows = np.zeros((len(queries), 10), dtype=np.int64)
    for start in range(a, b, 200_000):
        stop = min(start + 200_000, b)
        scores = queries @ np.asarray(matrix[start:stop]).T
        merged = np.concatenate([best_scores, scores], axis=1)
        rows = np.concatenate([best_rows, np.broadcast_to(np.arange(start, stop), scores.shape)], axis=1)
        keep = np.argpartition(-merged, 10, axis=1)[:, :10] if merged.shape[1] > 10 else np.argsort(-merged, axis=1)
        best_scores = np.take_along_axis(merged, keep, 1)
        best_rows = np.take_along_axis(rows, keep, 1)
    return [[int(docs[r]) for r in row] for row in best_rows]


def run(args: argparse.Namespace) -> dict[str, object]:
    rng = np.random.default_rng(args.seed)
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    home = workdir / f"home-{args.turns}"
    shutil.rmtree(home, ignore_errors=True)
    paths = HomePaths(root=home / "home", cache=home / "cache").ensure()
    result: dict[str, object] = {
        "turns": args.turns,
        "python": sys.version.split()[0],
        "sqlite": apsw.sqlite_lib_version(),
        "cpus": os.cpu_count(),
    }

    docs, questions = locomo_texts()
    maker = TextMaker(docs, rng)
    seconds, turns = timed(lambda: make_turns(args.turns, maker, rng))
    turns = list(turns)  # type: ignore[arg-type]
    write_log(paths, turns, rng)
    log_bytes = sum(p.stat().st_size for p in paths.logs.rglob("*.jsonl"))
    result["log"] = {
        "turns": len(turns),
        "days": len({t.day for t in turns}),
        "bytes": log_bytes,
        "generate_s": seconds,
    }

    # exact index build: ours (as shipped: a worker process stages the day files when there is a
    # second core, core.index.bulkstage), ours in one process (the reading timed), and raw FTS5, in
    # turns, ``--build-repeats`` times each (medians reported; the machine is shared, so the ratio is
    # what compares). CPU seconds of ours count the worker's too (its rusage, once it was waited for).
    ours_runs: list[float] = []
    ours_cpu: list[float] = []
    ours_worker_cpu: list[float] = []
    one_runs: list[tuple[float, float]] = []
    one_cpu: list[float] = []
    raw_runs: list[float] = []
    del RAW_CPU[:]
    raw_path = home / "raw.db"

    def fresh_cache() -> None:
        shutil.rmtree(paths.cache, ignore_errors=True)
        paths.cache.mkdir(parents=True)

    for attempt in range(args.build_repeats):
        for stale in home.glob("raw.db*"):
            stale.unlink()
        fresh_cache()
        with SearchIndex.open(paths) as index, Reindexer(index, TimedSource(paths)) as reindexer:
            cpu = time.process_time()
            seconds, _ = timed(lambda r=reindexer: r.run(embed=False))  # type: ignore[misc]
            one_cpu.append(time.process_time() - cpu)
            one_runs.append((seconds, reindexer.source.seconds))  # type: ignore[attr-defined]
        fresh_cache()
        index = SearchIndex.open(paths)
        reindexer = Reindexer(index, HomeDayLogs(paths))
        cpu, children = time.process_time(), children_cpu()
        seconds, report = timed(lambda r=reindexer: r.run(embed=False))  # type: ignore[misc]
        ours_cpu.append(time.process_time() - cpu + children_cpu() - children)
        ours_worker_cpu.append(children_cpu() - children)
        ours_runs.append(seconds)
        reindexer.close()
        if attempt < args.build_repeats - 1:
            index.close()
        raw_runs.append(build_raw(raw_path, turns, lambda i, t: i + 1))
    build_s = statistics.median(ours_runs)
    one_s, reading_s = sorted(one_runs)[len(one_runs) // 2]
    raw_s = statistics.median(raw_runs)
    ours_cpu_s = statistics.median(ours_cpu)
    raw_cpu_s = statistics.median(RAW_CPU[: len(raw_runs)])
    raw = apsw.Connection(str(raw_path))
    layouts = {}
    for name, rowid in (("micro", micro_rowid), ("block", block_rowids(turns))):
        build_raw(home / f"raw-{name}.db", turns, rowid)
        other = apsw.Connection(str(home / f"raw-{name}.db"))
        layouts[name] = fts_bytes(other, "fts")
        other.close()
    result["build"] = {
        "ours_s": build_s,
        "ours_worker_cpu_s": statistics.median(ours_worker_cpu),
        "one_process_s": one_s,
        "one_process_ratio": one_s / raw_s,
        "one_process_cpu_s": statistics.median(one_cpu),
        "one_process_reading_s": reading_s,
        "raw_fts5_s": raw_s,
        "ratio": build_s / raw_s,
        "repeats": args.build_repeats,
        "ours_cpu_s": ours_cpu_s,
        "raw_fts5_cpu_s": raw_cpu_s,
        "cpu_ratio": ours_cpu_s / raw_cpu_s,
        "ours_runs_s": ours_runs,
        "one_process_runs_s": [seconds for seconds, _ in one_runs],
        "raw_runs_s": raw_runs,
        "ours_fts_bytes": fts_bytes(index.conn, "fts"),
        "raw_fts_bytes": fts_bytes(raw, "fts"),
        "micro_rowid_fts_bytes": layouts["micro"],
        "block_rowid_fts_bytes": layouts["block"],
        "ours_catalog_bytes": table_bytes(index.conn, "turns", "turns_ts", "turns_session", "turns_file"),
        "ours_db_bytes": index.path.stat().st_size,
        "turns_indexed": report.turns_added,  # type: ignore[attr-defined]
    }
    if args.build_only:
        index.close()
        raw.close()
        if not args.keep:
            shutil.rmtree(home, ignore_errors=True)
        return result

    # exact queries
    df = Counter(w for t in turns[:: max(1, len(turns) // 50_000)] for w in set(re.findall(r"[a-z]+", t.text.lower())))
    sample = max(1, len(turns) // 50_000)
    # mid-frequency words: each in 0.5–2% of turns, so 2–3 of them OR-ed match ~3–6% of all turns
    mid = [w for w, c in df.items() if 0.005 <= c * sample / len(turns) <= 0.02 and w not in STOPWORDS and len(w) > 3]
    queries = [" ".join(rng.choice(mid, size=int(rng.integers(2, 4)), replace=False)) for _ in range(args.queries)]
    cjk_queries = [str(rng.choice(KO_NOUNS + JA_NOUNS)) for _ in range(args.queries)]

    def raw_query(q: str, lo_ts: str | None, hi_ts: str | None) -> list[tuple[int, float]]:
        match = " OR ".join(f'"{w}"' for w in q.split())
        if lo_ts is None:
            return raw.execute(
                "SELECT rowid, bm25(fts) s FROM fts WHERE fts MATCH ? ORDER BY s LIMIT 10", (match,)
            ).fetchall()
        lo = raw.execute("SELECT id FROM turns WHERE ts >= ? ORDER BY ts LIMIT 1", (lo_ts,)).fetchone()
        hi = raw.execute("SELECT id FROM turns WHERE ts < ? ORDER BY ts DESC LIMIT 1", (hi_ts,)).fetchone()
        if lo is None or hi is None:
            return []
        return raw.execute(
            "SELECT rowid, bm25(fts) s FROM fts WHERE fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY s LIMIT 10",
            (match, lo[0], hi[0]),
        ).fetchall()

    exact: dict[str, object] = {}
    for label, days in (("week", 7), ("month", 30), ("all time", None)):
        spans = windows(rng, args.queries + 10, days) if days else [(None, None)] * (args.queries + 10)
        ours = latencies(
            lambda i, s=spans: index.exact_search(queries[i % len(queries)], *s[i], limit=10), args.queries
        )
        base = latencies(lambda i, s=spans: raw_query(queries[i % len(queries)], *s[i]), args.queries)
        cjk = latencies(
            lambda i, s=spans: index.exact_search(cjk_queries[i % len(cjk_queries)], *s[i], limit=10), args.queries
        )
        hits = (
            statistics.mean(
                len(index.exact_search(queries[i], *spans[i], limit=10_000_000)) for i in range(min(20, args.queries))
            )
            if days
            else None
        )
        exact[label] = {
            "ours": ours,
            "raw": base,
            "ratio_p50": ours["p50"] / base["p50"],
            "ratio_p95": ours["p95"] / base["p95"],
            "cjk_ours": cjk,
            "matches_in_range": hits,
        }
    joined = windows(rng, 30, 7)

    def join_query(i: int) -> list[tuple[int, float]]:
        match = " OR ".join(f'"{w}"' for w in queries[i].split())
        return raw.execute(
            "SELECT f.rowid, bm25(fts) s FROM fts f JOIN turns t ON t.id = f.rowid WHERE fts MATCH ? "
            "AND t.ts >= ? AND t.ts < ? ORDER BY s LIMIT 10",
            (match, *joined[i]),
        ).fetchall()

    exact["week, raw FTS5 joined to ts (for reference)"] = latencies(join_query, 20, warm=3)
    result["exact"] = exact
    result["search"] = workbench_search(paths, queries, rng, args.queries)

    # vectors
    doc_vectors, question_vectors, rate, embedder = real_embeddings(workdir, docs, questions, args.model, args.threads)
    result["model"] = args.model
    result["model_dim"] = int(doc_vectors.shape[1])
    result["model_rate_per_s"] = rate
    result["real_text_quality"] = real_text_quality(doc_vectors, question_vectors)
    text_docs = np.fromiter(
        (d for (d,) in index.conn.execute("SELECT doc FROM turns WHERE type = 'text' ORDER BY doc")), dtype=np.int64
    )
    floats = np.lib.format.open_memmap(
        home / "float32.npy", mode="w+", dtype=np.float32, shape=(len(text_docs), doc_vectors.shape[1])
    )
    started = time.perf_counter()
    with write(index.conn):
        # recorded under the model's own name, so that a Recaller with that model searches them
        vectors.ensure_model(index.conn, vectors.VectorModel(embedder.name, doc_vectors.shape[1]))
    for start in range(0, len(text_docs), 50_000):
        block = synthetic_vectors(doc_vectors, min(50_000, len(text_docs) - start), rng)
        floats[start : start + len(block)] = block
        with write(index.conn):
            vectors.put(index.conn, text_docs[start : start + len(block)].tolist(), block)
    store_s = time.perf_counter() - started
    snap_s, snap_path = timed(lambda: snapshot.write(index.conn, index.snapshot_root))
    snap_bytes = sum(p.stat().st_size for p in Path(snap_path).iterdir())  # type: ignore[arg-type]
    vec_bytes = table_bytes(index.conn, "vectors", "vectors_gen")
    load_s, _ = timed(lambda: index.vector_search(question_vectors[0], k=10))
    result["vectors"] = {
        "count": len(text_docs),
        "store_s": store_s,
        "snapshot_s": snap_s,
        "first_query_s": load_s,
        "sqlite_bytes_per_vector": vec_bytes / len(text_docs),
        "snapshot_bytes_per_vector": snap_bytes / len(text_docs),
        "sqlite_bytes_per_turn": vec_bytes / len(turns),
        "float32_bytes_per_vector": 4 * doc_vectors.shape[1],
    }
    qv = question_vectors[: args.queries]
    semantic: dict[str, object] = {}
    for label, days in (("week", 7), ("month", 30), ("year", 365), ("all time", None)):
        spans = windows(rng, len(qv) + 10, days) if days else [(None, None)] * (len(qv) + 10)
        timing = latencies(lambda i, s=spans: index.vector_search(qv[i % len(qv)], *s[i], k=10), len(qv))
        sample_n = min(len(qv), 100)
        ours = [[d for d in docs_of(index, qv[i], *spans[i])] for i in range(sample_n)]
        if days is None:  # one pass over the matrix for every query
            truth = exact_float32_top10(floats, text_docs, qv[:sample_n])
        else:
            truth = []
            for i in range(sample_n):
                lo_hi = index_span(index, *spans[i])
                truth += exact_float32_top10(floats, text_docs, qv[i : i + 1], *lo_hi) if lo_hi else [[]]
        semantic[label] = {**timing, "recall@10": recall_at_10(ours, truth)}
    sql_spans = windows(rng, 30, 7)
    sql_q = [to_int8(v.reshape(1, -1))[0].tobytes() for v in qv[:30]]

    def sqlite_vec_week(i: int) -> object:
        lo_hi = index_span(index, *sql_spans[i])
        if lo_hi is None:
            return []
        return index.conn.execute(
            "SELECT doc FROM vectors WHERE doc BETWEEN ? AND ? ORDER BY "
            "vec_distance_cosine(vec_int8(v), vec_int8(?)) LIMIT 10",
            (*lo_hi, sql_q[i]),
        ).fetchall()

    semantic["week, sqlite-vec SQL scan of the same rows (for reference)"] = latencies(sqlite_vec_week, 20, warm=3)
    result["semantic"] = semantic
    result["recaller_search"] = recaller_search(paths, embedder, args, questions, rng)

    # incremental
    result["incremental"] = incremental(paths, index, maker, doc_vectors, rng)
    index.close()
    raw.close()
    if not args.keep:
        shutil.rmtree(home, ignore_errors=True)
    return result


def recaller_search(
    paths: HomePaths, embedder: Embedder, args: argparse.Namespace, questions: Sequence[str],
    rng: np.random.Generator,
) -> dict[str, object]:
    """Time-scoped search end to end: ``Recaller.search`` (auto mode) of "k days ago, <question>" and
    "last week, <question>" (real LoCoMo questions without digits), ``now`` a random evening of the
    five years: time parsing, the query embedded by the model, exact and vector search in the range,
    fusion and ranking, the original turns. Beside it, the query embedding alone (same texts)."""
    from core.config import Config, EmbeddingConfig
    from core.embed import query_vectors
    from core.recall import Recaller

    plain = [q for q in questions if not re.search(r"\d", q)]
    count = args.search_queries
    asks, nows = [], []
    for i in range(count):
        question = plain[int(rng.integers(0, len(plain)))]
        k = int(rng.integers(1, 7))
        asks.append(f"last week, {question}" if i % 2 else f"{k} days ago, {question}")
        nows.append(START + timedelta(days=int(rng.integers(14, YEARS * 365)), hours=20))
    config = Config(embedding=EmbeddingConfig(model=args.model, threads=args.threads))
    answers: dict[int, tuple[str, int]] = {}  # query → (the mode auto chose, results): one per query

    def search(i: int) -> object:
        answer = recaller.search(asks[i], now=nows[i], zone=UTC, mode="auto", limit=10)
        answers[i] = (answer.mode, len(answer.results))
        return answer

    with Recaller.open(paths, config, embedder=embedder) as recaller:
        timing = latencies(search, count)
    texts = [ask.split(", ", 1)[1] for ask in asks]
    embedding = latencies(lambda i: query_vectors(embedder, [texts[i]]), count)
    return {
        "queries": count,
        "auto, time-scoped, end to end": timing,
        "query embedding alone": embedding,
        "modes": dict(Counter(mode for mode, _ in answers.values())),
        "mean_results": statistics.mean(n for _, n in answers.values()) if answers else 0.0,
    }


def workbench_search(
    paths: HomePaths, queries: Sequence[str], rng: np.random.Generator, count: int
) -> dict[str, object]:
    """A whole search through the application layer (``Workbench.search``: freshness check, recall,
    the coverage note from the index's counts), a week in scope ("in the week of <date>"), exact mode.
    "counted every time" drops the index's cached counts before each search, as every search counted
    them before the cache (a bench-only reach into ``SearchIndex._counted``)."""
    from core.workbench import Workbench

    workbench = Workbench(paths)
    starts = rng.integers(0, YEARS * 365 - 7, count + 10)
    asks = [f"{queries[i % len(queries)]} between {(START + timedelta(days=int(d))).date()} and "
            f"{(START + timedelta(days=int(d) + 7)).date()}" for i, d in enumerate(starts)]
    out: dict[str, object] = {}
    try:
        out["cached"] = latencies(lambda i: workbench.search(asks[i], mode="exact"), count)

        def uncounted(i: int) -> object:
            workbench.index._counted = None
            return workbench.search(asks[i], mode="exact")

        out["counted every time"] = latencies(uncounted, count)
        out["status() counted"] = latencies(lambda i: workbench.index.status(cached=False), min(count, 50), warm=2)
        out["status() cached"] = latencies(lambda i: workbench.index.status(), min(count, 50), warm=2)
    finally:
        workbench.close()
    return out


def index_span(index: SearchIndex, start: str | None, end: str | None) -> tuple[int, int] | None:
    from core.index import catalog

    return catalog.doc_range(index.conn, start, end) if (start or end) else (0, (1 << 60) - 1)


def docs_of(index: SearchIndex, vector: np.ndarray, start: str | None, end: str | None) -> list[int]:
    hits = index.vector_search(vector, start, end, k=10)
    ids = [h.id for h in hits]
    rows = (
        dict(index.conn.execute(f"SELECT id, doc FROM turns WHERE id IN ({','.join('?' * len(ids))})", ids))
        if ids
        else {}
    )
    return [rows[i] for i in ids]


def incremental(
    paths: HomePaths, index: SearchIndex, maker: TextMaker, base: np.ndarray, rng: np.random.Generator
) -> dict[str, float]:
    reindexer = Reindexer(index, HomeDayLogs(paths))
    out: dict[str, float] = {}
    out["no_change_reindex_pass_ms"] = 1000 * timed(lambda: reindexer.run(embed=False))[0]
    watcher = Watcher(reindexer, embed=False)
    watcher.run_once()
    out["no_change_watch_poll_ms"] = 1000 * timed(watcher.run_once)[0]

    def day_of_turns(day: datetime, prefix: str) -> list[Turn]:
        texts = maker.english(300)
        return [
            Turn(
                id=f"{prefix}{k}",
                ts=iso(day + timedelta(seconds=60 * k + 30)),
                actor="me",
                role="user",
                type="text",
                text=texts[k],
                model=None,
                session=prefix,
                source="bench",
            )
            for k in range(300)
        ]

    def add(turns: Sequence[Turn]) -> None:
        for t in turns:
            path = day_file(paths.logs, t.day)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as handle:
                handle.write(t.to_json() + "\n")

    new_day = START + timedelta(days=YEARS * 365 + 1)
    add(day_of_turns(new_day, "new"))
    out["new_day_300_turns_ms"] = 1000 * timed(lambda: reindexer.run(embed=False))[0]
    vecs = synthetic_vectors(base, 300, rng)
    new_docs = [d for (d,) in index.conn.execute("SELECT doc FROM turns WHERE session = 'new' ORDER BY doc")]

    def store() -> None:
        with write(index.conn):
            vectors.put(index.conn, new_docs, vecs)

    out["new_day_vectors_store_ms"] = 1000 * timed(store)[0]
    out["query_after_new_day_ms"] = 1000 * timed(lambda: index.vector_search(vecs[0], k=10))[0]
    old_day = START + timedelta(days=400, hours=3)
    add(
        [
            Turn(
                id=f"old{k}",
                ts=iso(old_day + timedelta(days=0.5, seconds=k)),
                actor="me",
                role="user",
                type="text",
                text=f"imported late {k}",
                model=None,
                session="old",
                source="bench",
            )
            for k in range(1)
        ]
    )
    out["late_turn_renumbers_its_day_ms"] = 1000 * timed(lambda: reindexer.run(embed=False))[0]
    gap = START + timedelta(days=YEARS * 365 + 3)
    add(day_of_turns(gap - timedelta(days=YEARS * 365 // 2), "mid"))
    out["old_day_300_turns_imported_late_ms"] = 1000 * timed(lambda: reindexer.run(embed=False))[0]
    return out


def fmt_ms(d: dict[str, float]) -> str:
    return f"{d['p50']:.2f} / {d['p95']:.2f}"


def mb(n: float) -> str:
    return f"{n / 1e6:,.1f}"


def print_tables(r: dict) -> None:  # type: ignore[type-arg]
    b, log = r["build"], r["log"]
    print(
        f"Recall primitives at {r['turns']:,} synthetic turns ({log['days']:,} days, {mb(log['bytes'])} MB of day "
        f"files); SQLite {r['sqlite']}, Python {r['python']}, {r['cpus']} CPUs\n"
    )
    rows = [
        ("ours: read day files, catalog, CJK bigrams, FTS5", f"{b['ours_s']:.1f}", mb(b["ours_fts_bytes"])),
        ("ours in one process (no worker)", f"{b['one_process_s']:.1f}", ""),
        ("of which reading and checking day files (HomeDayLogs.read)", f"{b['one_process_reading_s']:.1f}", ""),
        ("raw FTS5 (same tokenizer), same rows from memory, dense rowids", f"{b['raw_fts5_s']:.1f}",
         mb(b["raw_fts_bytes"])),
        ("raw FTS5, day-block rowids (our layout)", "", mb(b["block_rowid_fts_bytes"])),
        ("raw FTS5, microsecond-derived rowids", "", mb(b["micro_rowid_fts_bytes"])),
        ("ratio ours / raw", f"{b['ratio']:.2f}×", ""),
        ("ratio ours in one process / raw", f"{b['one_process_ratio']:.2f}×", ""),
        (f"CPU seconds, ours (worker included: {b['ours_worker_cpu_s']:.1f}) / raw ({b['ours_cpu_s']:.1f} / "
         f"{b['raw_fts5_cpu_s']:.1f})", f"{b['cpu_ratio']:.2f}×", ""),
        (f"CPU seconds, ours in one process / raw ({b['one_process_cpu_s']:.1f} / {b['raw_fts5_cpu_s']:.1f})",
         f"{b['one_process_cpu_s'] / b['raw_fts5_cpu_s']:.2f}×", ""),
    ]
    print(f"| build (median of {b['repeats']}) | seconds | FTS5 MB |\n|---|---|---|")
    print("\n".join(f"| {a} | {s} | {m} |" for a, s, m in rows))
    catalog_mb, db_mb = mb(b["ours_catalog_bytes"]), mb(b["ours_db_bytes"])
    print(f"\ncatalog (turns + indexes) {catalog_mb} MB; index.db before vectors {db_mb} MB\n")
    if "exact" not in r:
        return
    print("| exact, p50 / p95 ms | ours | raw SQLite, rowid range | ratio p50 / p95 | CJK word, ours | matches |")
    print("|---|---|---|---|---|---|")
    for label, row in r["exact"].items():
        if "ours" not in row:
            print(f"| {label} | | {fmt_ms(row)} | | | |")
            continue
        hits = "all" if row["matches_in_range"] is None else f"{row['matches_in_range']:,.0f}"
        ratio = f"{row['ratio_p50']:.2f} / {row['ratio_p95']:.2f}"
        print(
            f"| {label} | {fmt_ms(row['ours'])} | {fmt_ms(row['raw'])} | {ratio} | {fmt_ms(row['cjk_ours'])} | {hits} |"
        )
    if "search" in r:
        print("\n| Workbench.search, a week, exact, p50 / p95 ms | |\n|---|---|")
        for label, row in r["search"].items():
            print(f"| {label} | {fmt_ms(row)} |")
    vec, q = r["vectors"], r["real_text_quality"]
    print(
        f"\nvectors: {vec['count']:,} text turns, stored in {vec['store_s']:.1f} s, snapshot written in "
        f"{vec['snapshot_s']:.1f} s, first query {vec['first_query_s'] * 1000:.0f} ms"
    )
    per_vector = f"SQLite {vec['sqlite_bytes_per_vector']:.0f}, snapshot {vec['snapshot_bytes_per_vector']:.0f}"
    float32, per_turn = vec["float32_bytes_per_vector"], vec["sqlite_bytes_per_turn"]
    print(f"bytes per vector: {per_vector} (float32: {float32}); SQLite vector bytes per turn {per_turn:.0f}\n")
    print("| semantic, k=10 | p50 ms | p95 ms | recall@10 vs exact float32 |\n|---|---|---|---|")
    for label, row in r["semantic"].items():
        recall = f"{row['recall@10']:.3f}" if "recall@10" in row else ""
        print(f"| {label} | {row['p50']:.2f} | {row['p95']:.2f} | {recall} |")
    curve = ", ".join(f"{c}: {v:.3f}" for c, v in q["hamming_int8_by_candidates"].items())
    print(
        f"\nreal text ({q['rows']:,} LoCoMo sentences, {q['queries']:,} LoCoMo questions; {r['model']} "
        f"({r['model_dim']}-d) embeds {r['model_rate_per_s']:.0f} sentences/s here): "
        f"recall@10 of int8 {q['int8']:.4f}; "
        f"of Hamming + int8 by candidates {curve}"
    )
    e2e = r["recaller_search"]
    modes = ", ".join(f"{mode} {n}" for mode, n in sorted(e2e["modes"].items()))
    print(f"\n| Recaller.search, {r['model']}, {e2e['queries']} queries | p50 ms | p95 ms |\n|---|---|---|")
    for label in ("auto, time-scoped, end to end", "query embedding alone"):
        print(f"| {label} | {e2e[label]['p50']:.2f} | {e2e[label]['p95']:.2f} |")
    print(f"\nmodes auto chose: {modes}; {e2e['mean_results']:.1f} results per query on average")
    print("\n| incremental | ms |\n|---|---|")
    for label, value in r["incremental"].items():
        print(f"| {label.removesuffix('_ms').replace('_', ' ')} | {value:.1f} |")


EMBEDDING_DEFAULT = EmbeddingConfig().model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1, help="threads of the embedding model (0: every core)")
    parser.add_argument("--model", default=EMBEDDING_DEFAULT,
                        help=f"embedding model of the real vectors and queries (default: {EMBEDDING_DEFAULT})")
    parser.add_argument("--search-queries", type=int, default=300,
                        help="Recaller.search queries timed end to end (time-scoped, auto mode)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workdir", default=str(Path(tempfile.gettempdir()) / "reverie-bench-recall"))
    parser.add_argument("--keep", action="store_true", help="keep the generated home and databases")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--build-only", action="store_true", help="stop after the exact index build (step 2)")
    parser.add_argument("--build-repeats", type=int, default=1, help="builds of each kind; medians are reported")
    args = parser.parse_args()
    if not LOCOMO.exists():
        sys.exit(f"bench_recall: {LOCOMO} not found (the shared data folder)")
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_tables(result)


if __name__ == "__main__":
    main()
