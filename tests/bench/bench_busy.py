"""The development benchmark of recall that looks like real multi-person chats: busy days, names as
people write them, questions about traits, and paraphrases in Korean, Japanese and English.

    nice python tests/bench/bench_busy.py ../shared/data/locomo10.json \
        [--multilingual ../shared/data/multilingual] [--split tune|report] \
        [--modes auto,exact,semantic,hybrid] [--model NAME] [--backend NAME] \
        [--ranking NAME=VALUE ...] [--sample N] [--embed-cache DIR] [--json]

The home. LoCoMo's ten conversations are folded onto ``DAYS`` (13) calendar days from Monday
4 March 2024: session *i* of a conversation with *n* sessions is held on day ``i * DAYS // n``, at the
clock time LoCoMo gives it (a later session of the same conversation on the same day starts 10 min
after the one before ends), one turn every 20 s. Every conversation has at least 19 sessions, so
every day holds all ten conversations. Into the same home go the sentences the paraphrase questions
hide: the first sentence of every KorSTS (dev + test) and JSTS (valid + test) pair scored 4.0 or
more, and of every English pair in ``data/busy_paraphrases_en.json``, each on a day and at a clock time
drawn from a hash of its pair id, in a session of its language for that day. A day then holds
about 500-650 turns. Everything goes through the real path (a generic JSONL file →
``core.conversation.ingest`` → ``Reindexer`` with the configured embedding model).

The questions (LoCoMo's, with valid evidence; a question whose own text reads a time range, such
as "on 16 June, 2023", names a LoCoMo date this calendar does not have and is left out, counted):

- ``busy, time-scoped``: one evidence turn picked by a seed per question, its day D, k in 1..6,
  ``now`` = D + k days at 23:00 UTC; query "k days ago, <question>" ("yesterday, ", "the day before
  yesterday, " for k = 1, 2); hit = that turn in the top k.
- ``busy, plain``: as written, ``now`` = the day after the last day, 23:00; hit = any evidence turn.
- ``... all evidence``: the questions with two or more evidence turns (that day, for the
  time-scoped ones); hit = all of them in the top 10 (R@5 column: all in the top 5).
- ``names misspelled``: every question naming a speaker of its conversation, that name rewritten by
  one of three rules picked by the seed: a one-letter typo (drop, double, swap or a keyboard
  neighbour), all lower case, or a transliteration written by rule (``transliterate``: Caroline →
  Karoline, Melanie → Melany, Joanna → Johanna, John → Jon, ...); time-scoped and plain as above.
- ``two people``: questions naming both speakers of their conversation (several conversations
  share a first name: John speaks in three).
- ``traits``: LoCoMo category 3 questions (open: traits, tastes, what a person would do) and any
  other whose evidence turns share no content word stem with the question (``stems``: stop words
  and the conversation's speaker names removed, crude suffix stripping).
- ``paraphrase en/ko/ja``: each pair's second sentence asks for its first (hit = a turn with that
  exact text; pairs whose two sentences are equal are left out), as written and with the prefix of
  its language for k days after the sentence's day ("어제, ", "그저께, ", "k일 전에, ";
  "昨日、", ...; the English prefixes above).

Splits, fixed: LoCoMo by conversation (tune = conv-26/30/41/42/43, as bench_locomo_dev), paraphrases
by the first byte of sha256(pair id), even = tune. Methods in the same run: BM25 (FTS5 over "speaker:
text", English stop words out, the question's words OR-ed, no time), dense (cosine over every turn,
no time) and every Reverie mode asked the query with its prefix. The embedding model is
``EmbeddingConfig()``'s unless ``--model``/``--backend`` say otherwise; the run prints which. The
ranking is ``ranking_for(model)`` with ``--ranking`` fields applied. Embeddings are cached by text
in ``--embed-cache``, so a second run embeds only new texts.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench_locomo import CachingEmbedder, Conversation, Quirks, load
from bench_locomo_dev import (
    DEFAULT_CACHE,
    FIRST_DAY,
    MODES,
    PREFIXES,
    TUNE,
    TURN_GAP,
    Baselines,
    Turn,
    build_home,
    held,
    lower_first,
    parse_ranking,
)

from core.config import EmbeddingConfig, RecallConfig
from core.embed import make_embedder
from core.index.tokenize import STOPWORDS
from core.recall import Recaller, analyze
from core.recall.scoring import ranking_for

DAYS = 13
EN_PAIRS = Path(__file__).resolve().parent / "data" / "busy_paraphrases_en.json"
MIN_SCORE = 4.0
BASES = ("BM25", "dense")
LANGS = ("en", "ko", "ja")
SESSION_GAP = timedelta(minutes=10)
MISSPELLINGS = ("typo", "lower", "translit")
ROWS = (
    "busy, time-scoped",
    "busy, plain",
    "busy, time-scoped, all evidence",
    "busy, plain, all evidence",
    "names misspelled, time-scoped",
    "names misspelled, plain",
    "two people, time-scoped",
    "two people, plain",
    "traits, time-scoped",
    "traits, plain",
    *(f"paraphrase {lang}{how}" for lang in LANGS for how in (", plain", ", time-scoped")),
)

# Transliteration variants, the first rule that changes the name wins; the last doubles a final
# consonant so that every name has a variant.
TRANSLIT = (
    (r"^C(?=[aou])", "K"),
    (r"^K", "C"),
    (r"ie$", "y"),
    (r"y$", "ie"),
    (r"^Jo(?=[aeiu])", "Joh"),
    (r"ohn$", "on"),
    (r"ph", "f"),
    (r"ah$", "a"),
    (r"a(?=[^aeiou]es?$)", "ay"),
    (r"ene$", "een"),
    (r"a$", "ah"),
    (r"ew$", "u"),
    (r"i(?=[^aeiou]$)", "y"),
    (r"([bcdfgklmnprstvz])$", r"\1\1"),
)
KEYBOARD = {  # each letter's right-hand neighbour on a QWERTY row (the last one's left-hand)
    row[i]: row[i + 1] if i + 1 < len(row) else row[i - 1]
    for row in ("qwertyuiop", "asdfghjkl", "zxcvbnm")
    for i in range(len(row))
}


class BadInput(SystemExit):
    """A data file this benchmark cannot read: its one-line message on stderr, exit code 2."""

    def __init__(self, message: str) -> None:
        print(message, file=sys.stderr)
        super().__init__(2)


def transliterate(name: str) -> str:
    """Another way of writing ``name`` (see TRANSLIT)."""
    for pattern, repl in TRANSLIT:
        out = re.sub(pattern, repl, name)
        if out != name:
            return out
    return name + name[-1]


def typo(name: str, rng: random.Random) -> str:
    """``name`` with one deterministic slip of the finger past its first letter."""
    i = rng.randrange(1, len(name))
    kind = rng.choice(("drop", "double", "swap", "neighbour"))
    if kind == "drop" and len(name) > 3:
        return name[:i] + name[i + 1 :]
    if kind == "swap" and i < len(name) - 1 and name[i] != name[i + 1]:
        return name[:i] + name[i + 1] + name[i] + name[i + 2 :]
    if kind == "neighbour" and name[i].lower() in KEYBOARD:
        return name[:i] + KEYBOARD[name[i].lower()] + name[i + 1 :]
    return name[:i] + name[i] + name[i:]


def misspell(question: str, name: str, kind: str, rng: random.Random) -> str:
    """``question`` with every whole-word ``name`` written the ``kind`` way."""
    other = {"typo": lambda: typo(name, rng), "lower": name.lower, "translit": lambda: transliterate(name)}[kind]()
    return re.sub(rf"\b{re.escape(name)}\b", other, question)


def stems(text: str, drop: set[str]) -> set[str]:
    """Content word stems of ``text``: casefolded words minus stop words and ``drop``, crude suffixes off."""
    out = set()
    for word in re.findall(r"[^\W_]+", text.casefold().replace("'s", "")):
        if word in STOPWORDS or word in drop or word.isdigit():
            continue
        for suffix in ("ing", "ed", "es", "s", "ly"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
        out.add(word[:6])
    return out


def seeded(key: str) -> random.Random:
    return random.Random(int(hashlib.sha256(key.encode()).hexdigest()[:12], 16))


def at(day: date, hours: float) -> datetime:
    return datetime.combine(day, clock(), tzinfo=UTC) + timedelta(hours=hours)


def folded(conversations: list[Conversation], quirks: Quirks) -> list[Turn]:
    """LoCoMo's turns on DAYS busy days (see the module docstring)."""
    out: list[Turn] = []
    for conv in conversations:
        sessions: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for t in conv.turns:
            sessions[t["session"]].append(t)
        free: dict[date, datetime] = {}  # the day's first free moment for this conversation
        for rank, n in enumerate(sorted(sessions)):
            day = FIRST_DAY + timedelta(days=rank * DAYS // len(sessions))
            first = sessions[n][0]["ts"]
            start = max(
                datetime.combine(day, first.time().replace(second=0, microsecond=0), tzinfo=UTC),
                free.get(day, at(day, 0)),
            )
            end = start + (len(sessions[n]) - 1) * TURN_GAP
            if end.date() != day:
                quirks.add("session moved earlier to stay on its day", f"{conv.sample_id}: session_{n}")
                start = at(day, 24) - len(sessions[n]) * TURN_GAP
                end = start + (len(sessions[n]) - 1) * TURN_GAP
            out.extend(held(conv, t, start + i * TURN_GAP) for i, t in enumerate(sessions[n]))
            free[day] = end + SESSION_GAP
    return out


@dataclass(frozen=True)
class Pair:
    id: str  # "korsts-dev:0000", "jsts-test:12", "en:3"
    lang: str
    hidden: str  # the sentence held as a turn
    asked: str  # the paraphrase asked


def load_pairs(folder: Path | None, quirks: Quirks) -> list[Pair]:
    """The English fixture's pairs, and KorSTS/JSTS pairs scored MIN_SCORE or more from ``folder``
    (a malformed entry stops the run with one line naming its file and line)."""
    data = json.loads(EN_PAIRS.read_text(encoding="utf-8"))
    pairs = []
    for number, pair in enumerate(data.get("pairs", []) if isinstance(data, dict) else ()):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(s, str) and s.strip() for s in pair)):
            raise BadInput(f"{EN_PAIRS}: pairs[{number}]: expected [sentence, paraphrase], got {pair!r}")
        pairs.append(Pair(f"en:{number}", "en", pair[0].strip(), pair[1].strip()))
    if not pairs:
        raise BadInput(f"{EN_PAIRS}: expected an object with a non-empty list 'pairs'")
    if folder is None:
        return pairs
    for name in ("korsts-dev", "korsts-test", "jsts-valid", "jsts-test"):
        path = folder / (f"{name}.tsv" if name.startswith("korsts") else f"{name}-v1.3.json")
        try:
            rows = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise BadInput(f"{path}: cannot be read ({type(exc).__name__}: {exc})") from exc
        for line, row in enumerate(rows, 1):
            try:
                pair = sts_pair(name, row, line)
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise BadInput(f"{path}:{line}: not a {name} row ({type(exc).__name__}: {exc})") from exc
            if pair is not None:
                pairs.append(pair)
    seen: dict[str, Pair] = {}
    for p in pairs:
        if p.id in seen:  # a hidden turn's id: two pairs sharing one would leave one of them out of the home
            raise BadInput(f"paraphrase pair id {p.id!r} given twice ({seen[p.id].hidden!r}, {p.hidden!r})")
        seen[p.id] = p
    kept = [p for p in pairs if p.hidden != p.asked]
    for p in pairs:
        if p.hidden == p.asked:
            quirks.add("paraphrase pair with two equal sentences", f"{p.id}: left out")
    return kept


def sts_pair(name: str, row: str, line: int) -> Pair | None:
    """Line ``line`` of a KorSTS .tsv (header first) or JSTS .json-lines file as a pair, or None
    (the header, a blank line, a score under MIN_SCORE)."""
    if name.startswith("korsts"):
        if line == 1:
            return None
        fields = row.split("\t")
        if len(fields) != 7:
            raise ValueError(f"expected 7 tab-separated fields, got {len(fields)}")
        _genre, _file, _year, _number, score, first, second = fields
        # the file's own number restarts for each genre and source file: the line is the pair's id
        return Pair(f"{name}:{line}", "ko", first.strip(), second.strip()) if float(score) >= MIN_SCORE else None
    if not row.strip():
        return None
    item = json.loads(row)
    if float(item["label"]) < MIN_SCORE:
        return None
    return Pair(f"{name}:{item['sentence_pair_id']}", "ja", item["sentence1"].strip(), item["sentence2"].strip())


SPEAKER = {"en": "me", "ko": "나", "ja": "私"}


def hidden_turns(pairs: list[Pair]) -> list[Turn]:
    """Each pair's hidden sentence on a day and at a clock time drawn from its id (8:00-22:00)."""
    out = []
    for p in pairs:
        rng = seeded(p.id)
        day = FIRST_DAY + timedelta(days=rng.randrange(DAYS))
        ts = at(day, 8 + rng.randrange(14 * 3600) / 3600).replace(microsecond=0)
        out.append(Turn(f"para:{p.id}", f"para-{p.lang}", SPEAKER[p.lang], p.hidden, f"para-{p.lang}:{day}", ts))
    return out


def tune_pair(p: Pair) -> bool:
    return hashlib.sha256(p.id.encode()).digest()[0] % 2 == 0


@dataclass(frozen=True)
class Query:
    text: str  # what Reverie is asked
    now: datetime
    base: str  # what the baselines are asked (no time words)
    counts: tuple[tuple[str, frozenset[str], bool], ...]  # (row, wanted ids, all of them needed)
    label: str = ""  # the misspelling kind, for the stats


def night(day: date) -> datetime:
    return datetime.combine(day, clock(23), tzinfo=UTC)


def ask_first(text: str, names: set[str]) -> str:
    """``text`` after a time prefix: its first letter lowered unless it starts with a name."""
    first = re.match(r"[^\W_]+", text)
    return text if first and first.group() in names else lower_first(text)


def locomo_queries(
    conv: Conversation, turns: dict[str, Turn], last: date, quirks: Quirks, sample: int = 1
) -> list[Query]:
    """The busy, names, two-people and traits queries of one conversation (module docstring);
    ``sample`` > 1: of every ``sample``-th question only."""
    names = {t["speaker"] for t in conv.turns}
    drop = {n.casefold() for n in names}
    out = []
    for number, qa in enumerate(conv.qa):
        if number % sample:
            continue
        question = qa.get("question")
        valid = {e for e in (f"{conv.sample_id}:{e}" for e in qa.get("evidence") or []) if e in turns}
        if not isinstance(question, str) or not question.strip() or not valid:
            quirks.add("question without valid evidence", f"{conv.sample_id} q{number}: left out")
            continue
        question = question.strip()
        if analyze(question, night(last + timedelta(days=1)), UTC).range is not None:
            quirks.add("question reads a LoCoMo date: left out", f"{conv.sample_id} q{number}: {question}")
            continue
        rng = seeded(f"{conv.sample_id}:{number}")
        target = rng.choice(sorted(valid))
        k = rng.randint(1, 6)
        day = turns[target].ts.date()
        that_day = frozenset(e for e in valid if turns[e].ts.date() == day)
        named = sorted(n for n in names if re.search(rf"\b{re.escape(n)}\b", question))
        evidence_stems = set().union(*(stems(turns[e].text, drop) for e in valid))
        extra_ts: list[tuple[str, frozenset[str], bool]] = []
        extra_plain: list[tuple[str, frozenset[str], bool]] = []
        if len(named) >= 2:
            extra_ts.append(("two people, time-scoped", frozenset({target}), False))
            extra_plain.append(("two people, plain", frozenset(valid), False))
        if int(qa.get("category") or 0) == 3 or not stems(question, drop) & evidence_stems:
            extra_ts.append(("traits, time-scoped", frozenset({target}), False))
            extra_plain.append(("traits, plain", frozenset(valid), False))
        ts_counts = [("busy, time-scoped", frozenset({target}), False), *extra_ts]
        if len(that_day) >= 2:
            ts_counts.append(("busy, time-scoped, all evidence", that_day, True))
        plain_counts = [("busy, plain", frozenset(valid), False), *extra_plain]
        if len(valid) >= 2:
            plain_counts.append(("busy, plain, all evidence", frozenset(valid), True))
        prefix = PREFIXES["en"](k)
        now_ts, now_plain = night(day + timedelta(days=k)), night(last + timedelta(days=1))
        out.append(Query(prefix + ask_first(question, names), now_ts, question, tuple(ts_counts)))
        out.append(Query(question, now_plain, question, tuple(plain_counts)))
        if named:
            kind = rng.choice(MISSPELLINGS)
            wrong = misspell(question, rng.choice(named), kind, rng)
            out.append(
                Query(
                    prefix + ask_first(wrong, names),
                    now_ts,
                    wrong,
                    (("names misspelled, time-scoped", frozenset({target}), False),),
                    kind,
                )
            )
            out.append(Query(wrong, now_plain, wrong, (("names misspelled, plain", frozenset(valid), False),), kind))
    return out


def paraphrase_queries(pairs: list[Pair], hidden: list[Turn], last: date, quirks: Quirks) -> list[Query]:
    """Each pair asked by its paraphrase, as written and k days after its hidden sentence's day. A
    paraphrase whose own words read a time range ("어제 메릴이 말했다", a news sentence's weekday) is
    left out, as LoCoMo questions reading a date are: the person asking would mean that time."""
    by_text: dict[str, set[str]] = defaultdict(set)
    for t in hidden:
        by_text[t.text].add(t.id)
    day_of = {t.id: t.ts.date() for t in hidden}
    out = []
    for p in pairs:
        if analyze(p.asked, night(last + timedelta(days=1)), UTC).range is not None:
            quirks.add("paraphrase reads a time range: left out", f"{p.id}: {p.asked}")
            continue
        wanted = frozenset(by_text[p.hidden])
        k = seeded(f"{p.id}:k").randint(1, 6)
        day = day_of[f"para:{p.id}"]
        asked = lower_first(p.asked) if p.lang == "en" else p.asked
        out.append(
            Query(p.asked, night(last + timedelta(days=1)), p.asked, ((f"paraphrase {p.lang}, plain", wanted, False),))
        )
        out.append(
            Query(
                PREFIXES[p.lang](k) + asked,
                night(day + timedelta(days=k)),
                p.asked,
                ((f"paraphrase {p.lang}, time-scoped", wanted, False),),
            )
        )
    return out


@dataclass
class Tally:
    n: int = 0
    at5: int = 0
    at10: int = 0
    ms: list[float] = field(default_factory=list)

    def add(self, ranking: list[str], wanted: frozenset[str], every: bool, ms: float) -> None:
        self.n += 1
        self.ms.append(ms)
        for k in (5, 10):
            top = set(ranking[:k])
            hit = wanted <= top if every else bool(wanted & top)
            if k == 5:
                self.at5 += hit
            else:
                self.at10 += hit

    def row(self) -> dict[str, Any]:
        return {
            "R@5": round(self.at5 / self.n, 4) if self.n else 0.0,
            "R@10": round(self.at10 / self.n, 4) if self.n else 0.0,
            "questions": self.n,
            "median ms": round(statistics.median(self.ms), 2) if self.ms else 0.0,
        }


def run(
    queries: list[Query], modes: list[str], recaller: Recaller, base: Baselines
) -> tuple[dict[str, dict[str, Tally]], Counter[str]]:
    """Every query in every mode and baseline; the tallies by row and method, and counts of how
    auto answered and whether the time range read was the evidence day."""
    tallies: dict[str, dict[str, Tally]] = defaultdict(lambda: defaultdict(Tally))
    stats: Counter[str] = Counter()
    baseline_cache: dict[tuple[str, str], tuple[list[str], float]] = {}
    for number, q in enumerate(queries, 1):
        if number % 500 == 0:
            print(f"{number}/{len(queries)} queries asked", file=sys.stderr, flush=True)
        rankings: dict[str, tuple[list[str], float]] = {}
        for name in BASES:
            if (name, q.base) not in baseline_cache:
                started = time.perf_counter()
                ranking = base.bm25(q.base) if name == "BM25" else base.dense(q.base)
                baseline_cache[name, q.base] = (ranking, (time.perf_counter() - started) * 1000)
            rankings[name] = baseline_cache[name, q.base]
        for mode in modes:
            started = time.perf_counter()
            answer = recaller.search(q.text, now=q.now, zone=UTC, limit=10, mode=mode)
            ms = (time.perf_counter() - started) * 1000
            rankings[mode] = ([r.id for r in sorted(answer.results, key=lambda r: -r.score)], ms)
            if mode == "auto":
                stats[f"{q.counts[0][0]}: auto → {answer.mode}"] += 1
                if q.label:
                    stats[f"{q.counts[0][0]} ({q.label}): auto R@10 hits"] += bool(
                        q.counts[0][1] & set(rankings[mode][0][:10])
                    )
                    stats[f"{q.counts[0][0]} ({q.label}): questions"] += 1
        for row, wanted, every in q.counts:
            for name, (ranking, ms) in rankings.items():
                tallies[row][name].add(ranking, wanted, every, ms)
    return tallies, stats


def table(rows: dict[str, dict[str, Any]], methods: list[str]) -> str:
    """One line per row; each method's cell is R@5 / R@10."""
    head = "| questions | n | " + " | ".join(m if m in BASES else f"Reverie {m}" for m in methods) + " |"
    lines = [head, "|" + "---|" * (len(methods) + 2)]
    for name in ROWS:
        if name not in rows:
            continue
        cells = [f"{rows[name][m]['R@5']:.3f} / {rows[name][m]['R@10']:.3f}" for m in methods]
        lines.append(f"| {name} | {rows[name][methods[0]]['questions']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, help="locomo10.json")
    parser.add_argument(
        "--multilingual",
        type=Path,
        default=None,
        help="folder of korsts-*.tsv and jsts-*.json (default: multilingual/ beside the LoCoMo file)",
    )
    parser.add_argument("--split", choices=("tune", "report"), default="tune")
    parser.add_argument("--modes", default=",".join(MODES), help="auto,exact,semantic,hybrid (comma-separated)")
    parser.add_argument("--model", default=None, help="embedding.model (default: the configured default)")
    parser.add_argument("--backend", default=None, help="embedding.backend (default: the configured default)")
    parser.add_argument("--threads", type=int, default=None, help="embedding threads (default: the configured)")
    parser.add_argument(
        "--ranking",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a core.recall.scoring.Ranking field (repeatable)",
    )
    parser.add_argument("--sample", type=int, default=0, help="ask only every n-th question and pair (0: all)")
    parser.add_argument("--embed-cache", type=Path, default=DEFAULT_CACHE, help="embedding cache folder")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    if not args.data.is_file():
        parser.error(f"{args.data}: no such file")
    args.modes = [m for m in args.modes.split(",") if m]
    for m in args.modes:
        if m not in MODES:
            parser.error(f"--modes: unknown {m!r} (known: {', '.join(MODES)})")
    if args.multilingual is None:
        args.multilingual = args.data.parent / "multilingual"
    return args


def spread_of(turns: list[Turn]) -> dict[str, Any]:
    per_day = Counter(t.ts.date() for t in turns)
    convs = Counter(d for d, _ in {(t.ts.date(), t.conv) for t in turns if not t.conv.startswith("para-")})
    return {
        "turns": len(turns),
        "days": len(per_day),
        "turns per day": [min(per_day.values()), statistics.median(per_day.values()), max(per_day.values())],
        "LoCoMo conversations per day (min)": min(convs.values()),
    }


def main() -> None:
    args = arguments()
    quirks = Quirks()
    try:
        conversations = load(args.data, quirks)
    except (OSError, UnicodeDecodeError, ValueError, AttributeError, TypeError, KeyError) as exc:
        raise BadInput(f"{args.data}: not a LoCoMo file ({type(exc).__name__}: {exc})") from exc
    folder = args.multilingual if args.multilingual.is_dir() else None
    if folder is None:
        print(f"{args.multilingual}: not found, Korean and Japanese paraphrases left out", file=sys.stderr)
    pairs = load_pairs(folder, quirks)
    locomo = folded(conversations, quirks)
    hidden = hidden_turns(pairs)
    turns = sorted([*locomo, *hidden], key=lambda t: (t.ts, t.id))
    by_id = {t.id: t for t in locomo}
    last = max(t.ts.date() for t in turns)
    tune = args.split == "tune"
    queries = [
        q
        for c in conversations
        if (c.sample_id in TUNE) == tune
        for q in locomo_queries(c, by_id, last, quirks, max(args.sample, 1))
    ]
    chosen = [p for p in pairs if tune_pair(p) == tune][:: max(args.sample, 1)]
    queries += paraphrase_queries(chosen, hidden, last, quirks)
    overrides = {
        k: v for k, v in (("model", args.model), ("backend", args.backend), ("threads", args.threads)) if v is not None
    }
    config = dataclasses.replace(EmbeddingConfig(), **overrides)
    ranking = parse_ranking(args.ranking, ranking_for(config.model))
    embedder = CachingEmbedder(make_embedder(config), args.embed_cache)
    report: dict[str, Any] = {
        "model": os.path.basename(embedder.name),
        "backend": f"{config.backend}: {type(embedder.inner).__name__}",  # the engine that ran
        "split": args.split,
        "home": spread_of(turns),
        "LoCoMo conversations asked": sorted(c.sample_id for c in conversations if (c.sample_id in TUNE) == tune),
        "paraphrase pairs asked": dict(Counter(p.lang for p in chosen)),
        "paraphrase pairs hidden": dict(Counter(p.lang for p in pairs)),
        "ranking": dataclasses.asdict(ranking),
    }
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bench-busy-") as tmp:
        index, build_s = build_home(turns, Path(tmp), embedder)
        embedder.save()
        report["seconds to ingest + index + embed"] = round(build_s, 1)
        with index:
            recaller = Recaller(index, RecallConfig(), embedder=embedder, zone=UTC, ranking=ranking)
            base = Baselines(turns, embedder)
            tallies, stats = run(queries, args.modes, recaller, base)
            embedder.save()
    report["rows"] = {r: {m: t.row() for m, t in tallies[r].items()} for r in ROWS if r in tallies}
    report["stats"] = dict(sorted(stats.items()))
    report["seconds"] = round(time.perf_counter() - started, 1)
    report["embedded now"] = embedder.computed
    report["quirks"] = dict(quirks.counts)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return
    print_report(report, [*BASES, *args.modes])


def print_report(report: dict[str, Any], methods: list[str]) -> None:
    home = report["home"]
    tpd = home["turns per day"]
    print(
        f"model {report['model']} ({report['backend']}); {home['turns']} turns over {home['days']} days "
        f"(turns per day min {tpd[0]}, median {tpd[1]}, max {tpd[2]}; at least "
        f"{home['LoCoMo conversations per day (min)']} LoCoMo conversations a day)"
    )
    print(
        f"{report['split']} half: {', '.join(report['LoCoMo conversations asked'])}; paraphrase pairs asked "
        + ", ".join(f"{k} {v}" for k, v in report["paraphrase pairs asked"].items())
        + " (hidden: "
        + ", ".join(f"{k} {v}" for k, v in report["paraphrase pairs hidden"].items())
        + ")"
    )
    print("ranking " + ", ".join(f"{k}={v}" for k, v in report["ranking"].items()) + "\n")
    print(table(report["rows"], methods))
    print("\n" + "; ".join(f"{k} {v}" for k, v in report["stats"].items()))
    print(
        f"\n{report['seconds']} s (home built in {report['seconds to ingest + index + embed']} s; "
        f"{report['embedded now']} texts embedded now); quirks: "
        + (", ".join(f"{k} ×{v}" for k, v in sorted(report["quirks"].items())) or "none")
    )


if __name__ == "__main__":
    main()
