"""Crash trials: a real subprocess (``crashchild``) killed with SIGKILL at a seeded moment, then checks.

Per operation (ingest, draft save, finalize, curation move, restore, reindex) a template home is built
once and the operation is run once to its end on a copy: that run counts the operation's file-system
mutations and gives the reference end state. A trial copies the template, kills the operation at a
seeded mutation (``kill_at`` in 1..count; reindex, whose writes happen inside SQLite, is killed after a
seeded delay instead), then checks:

1. after the kill: ``verify`` reports nothing but ``incomplete`` problems; no draft or memory is
   half-written; day logs hold only whole lines apart from an unterminated last line;
2. the next run (the same command run again, and the app's start-up completion) finishes the work:
   ``verify`` reports nothing at all, and the end state equals the reference (every turn once, every
   approved draft finalized once, every chosen record moved or restored, the index gives the same
   answers);
3. nothing is lost: every record of the template, and every step the killed process acknowledged
   (``DONE`` lines), is still there.

Replay: ``python tests/bench/bench_faults.py --crashes --seed SEED --only OP --trial N``.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.conversation import list_day_files, read_day
from core.paths import HomePaths
from core.workbench.verify import verify_home
from tests.faults.homebuild import PASSPHRASE, BuiltHome, build_home, clone_home, open_vault

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "conversation"
OPS = ("ingest", "draft", "finalize", "move", "restore", "reindex")
TIMER_OPS = ("reindex",)
QUERIES = ("ski trip", "cabin lake kids", "budget spreadsheet rental", "recital", "산책", "会議", "turn 7")
CHILD_TIMEOUT = 120.0


def cache_for(home: Path, cache_root: Path) -> Path:
    """The cache folder ``HomePaths.at`` gives ``home`` when ``REVERIE_CACHE`` is ``cache_root``."""
    return cache_root / f"home-{hashlib.sha256(str(home).encode('utf-8')).hexdigest()[:12]}"


def trial_paths(base: Path) -> HomePaths:
    home = base / "home"
    return HomePaths(root=home, cache=cache_for(home, base / "cacheroot"))


@dataclass
class ChildRun:
    returncode: int
    lines: list[str]
    stderr: str
    seconds: float  # from READY to the end

    @property
    def killed(self) -> bool:
        return self.returncode == -signal.SIGKILL

    def done(self, what: str) -> list[str]:
        return [line.split(" ", 2)[2] for line in self.lines if line.startswith(f"DONE {what} ")]

    @property
    def events(self) -> int:
        found = [int(line.split()[1]) for line in self.lines if line.startswith("IO_EVENTS ")]
        return found[-1] if found else 0


def run_child(op: str, base: Path, spec: dict[str, Any], *, kill_at: int = 0, seed: int = 0,
              kill_after: float | None = None) -> ChildRun:
    paths = trial_paths(base)
    env = {**os.environ, "REVERIE_PASSPHRASE": PASSPHRASE, "REVERIE_KDF": "test",
           "REVERIE_CACHE": str(base / "cacheroot"), "PYTHONPATH": str(ROOT)}
    env.pop("REVERIE_HOME", None)
    payload = {**spec, "op": op, "home": str(paths.root), "cache": str(paths.cache), "kill_at": kill_at, "seed": seed}
    child = subprocess.Popen([sys.executable, "-m", "tests.faults.crashchild", json.dumps(payload)], cwd=ROOT,
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    lines: list[str] = []
    ready = time.monotonic()
    first = child.stdout.readline()
    if first:
        lines.append(first.strip())
        ready = time.monotonic()
    if kill_after is not None:
        deadline = ready + kill_after
        while child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        if child.poll() is None:
            child.send_signal(signal.SIGKILL)
    try:
        out, err = child.communicate(timeout=CHILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
        err += "\n(timeout: the child hung)"
    lines += [line.strip() for line in out.splitlines() if line.strip()]
    return ChildRun(child.returncode, lines, err, time.monotonic() - ready)


# ------------------------------------------------------------------------------------- templates


@dataclass
class CrashTemplate:
    op: str
    built: BuiltHome
    spec: dict[str, Any]
    events: int = 0  # file-system mutations of one whole run
    seconds: float = 0.0  # duration of one whole run
    reference: dict[str, Any] = field(default_factory=dict)  # the end state of one whole run


def _write_sources(base: Path) -> list[str]:
    """New closed days, late turns for a day that is already sealed, and the Claude Code and ChatGPT
    samples: everything an ingest does (append, reseal, quarantine a bad line)."""
    folder = base / "sources"
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for day in ("2025-03-03", "2025-04-10", "2025-04-11"):
        for n in range(40):
            lines.append(json.dumps({"ts": f"{day}T{n % 24:02d}:{n % 60:02d}:30Z", "role": ("user", "assistant")[n % 2],
                                     "text": f"crash trial turn {n} on {day}: the recital and the ski trip",
                                     "session": f"s-{day}", "id": f"c-{day}-{n}"}, ensure_ascii=False))
    lines.insert(17, '{"ts": "not a time", "role": "user", "text": "a malformed line"}')
    (folder / "more.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    shutil.copytree(FIXTURES / "claude-code", folder / "claude-code")
    shutil.copyfile(FIXTURES / "chatgpt" / "conversations.json", folder / "conversations.json")
    return [str(folder / "more.jsonl"), str(folder / "claude-code"), str(folder / "conversations.json")]


def _reindex_turns(base: Path, built: BuiltHome) -> None:
    """Enough turns over enough days that a reindex takes a measurable while."""
    from core.conversation import ingest

    source = base / "many.jsonl"
    with source.open("w", encoding="utf-8") as handle:
        for n in range(3000):
            day = f"2024-{1 + (n // 500) % 12:02d}-{1 + (n // 20) % 28:02d}"
            handle.write(json.dumps({"ts": f"{day}T{n % 24:02d}:{n % 60:02d}:{(n * 7) % 60:02d}Z",
                                     "role": ("user", "assistant")[n % 2], "session": f"m{n // 40}",
                                     "text": f"{QUERIES[n % len(QUERIES)]} number {n} and turn {n % 13} of the story",
                                     "id": f"many-{n}"}, ensure_ascii=False) + "\n")
    ingest(built.paths, [source], keys=built.keys)


def prepare(op: str, base: Path) -> CrashTemplate:
    """Build the template for ``op`` and run the operation once to its end for the reference."""
    built = build_home(base / "template", apply_curation=op != "move", approved_drafts=3 if op == "finalize" else 0)
    spec: dict[str, Any] = {"later": built.later.isoformat() if built.later else None}
    if op == "ingest":
        spec["sources"] = _write_sources(base)
    if op == "reindex":
        _reindex_turns(base, built)
    if op == "restore":
        spec["moves"] = sorted(p.name for p in built.paths.cold.glob("*/m-*"))
    template = CrashTemplate(op, built, spec)
    reference = clone_home(built, base / "reference")
    run = run_child(op, reference.base, spec)
    if run.returncode != 0:
        raise AssertionError(f"{op}: a whole run failed ({run.returncode}):\n{run.stderr[-3000:]}")
    template.events, template.seconds = run.events, run.seconds
    template.reference = end_state(op, reference, run)
    return template


# ------------------------------------------------------------------------------------- states


def _turns(paths: HomePaths) -> dict[str, list[str]]:
    return {d.day: sorted(t.id for t in read_day(d.path).turns) for d in list_day_files(paths)}


def _answers(paths: HomePaths) -> dict[str, list[str]]:
    from core.embed.hashing import HashingEmbedder
    from core.index import SearchIndex
    from core.recall import Recaller

    now = datetime(2026, 1, 1, tzinfo=UTC)
    with Recaller(SearchIndex.open(paths), embedder=lambda: HashingEmbedder()) as recaller:
        return {q: [r.id for r in recaller.search(q, now=now, zone=UTC, mode="exact", limit=20).results]
                for q in QUERIES}


def end_state(op: str, built: BuiltHome, run: ChildRun) -> dict[str, Any]:
    paths = built.paths if op != "reindex" else trial_paths(built.base)
    vault = open_vault(built)
    state: dict[str, Any] = {}
    if op == "ingest":
        state["turns"] = _turns(paths)
    elif op == "finalize":
        finalized = [e.data.get("draft_id") for e in vault.ledger.read().entries if e.kind == "finalize"]
        state["finalized"] = sorted(str(d) for d in finalized)
    elif op in ("move", "restore"):
        state["cold"] = sorted(str(p.relative_to(paths.cold).parts[0]) + ":" + p.name
                               for p in paths.cold.glob("*/m-*/record/*"))
    elif op == "reindex":
        state["answers"] = _answers(paths)
    return state


# ------------------------------------------------------------------------------------- trials


@dataclass
class CrashResult:
    op: str
    seed: int
    trial: int
    kill_at: int = 0
    events: int = 0
    killed: bool = False
    after_kill: list[str] = field(default_factory=list)  # serious problems right after the kill
    incomplete: list[str] = field(default_factory=list)  # what verify named as interrupted
    after_recovery: list[str] = field(default_factory=list)  # any problem left after the next run
    half_written: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    differs: list[str] = field(default_factory=list)  # the end state is not the reference's
    crash: str | None = None  # a traceback from Reverie (in the child or in a check)

    @property
    def ok(self) -> bool:
        return not (self.after_kill or self.after_recovery or self.half_written or self.lost or self.differs
                    or self.crash)

    def explain(self) -> str:
        return (f"[seed {self.seed} op {self.op} trial {self.trial}] kill at {self.kill_at}/{self.events} "
                f"(killed={self.killed})\n  after kill: {self.after_kill}\n  incomplete: {self.incomplete}\n"
                f"  after recovery: {self.after_recovery}\n  half-written: {self.half_written}\n"
                f"  lost: {self.lost}\n  differs: {self.differs}\n  crash: {self.crash}\n"
                f"  replay: python tests/bench/bench_faults.py --crashes --seed {self.seed} --only {self.op} "
                f"--trial {self.trial}")


def _half_written(paths: HomePaths, built: BuiltHome, *, tail_ok: bool) -> list[str]:
    found = [str(p) for p in open_vault(built).scan_drafts().problems]
    for day in list_day_files(paths):
        reading = read_day(day.path)
        for bad in reading.bad_lines:
            if not (tail_ok and reading.incomplete_tail and bad is reading.bad_lines[-1]):
                found.append(str(bad))
    return found


def _lost(op: str, template: CrashTemplate, trial: BuiltHome, runs: list[ChildRun]) -> list[str]:
    lost: list[str] = []
    vault = open_vault(trial)
    present = {m.memory_id for m in vault.list_memories()}
    cold = {p.stem for p in trial.paths.cold.glob("*/m-*/record/mem_*.json")}
    for memory_id in template.built.memory_ids + template.built.archived_ids:
        if memory_id not in present and memory_id not in cold:
            lost.append(f"memory {memory_id}")
    drafts = {d.draft_id: d for d in vault.list_drafts()}
    for draft_id in template.built.draft_ids:
        if draft_id not in drafts:
            lost.append(f"draft {draft_id}")
    turns = _turns(trial.paths)
    for day, ids in _turns(template.built.paths).items():
        missing = set(ids) - set(turns.get(day, []))
        if missing:
            lost.append(f"{day}: turns {sorted(missing)[:5]}")
    notes = {str(p.relative_to(template.built.notes_root)): p.read_bytes()
             for p in template.built.notes_root.rglob("*.md")}
    for rel, data in notes.items():
        back = trial.notes_root / rel
        copies = [p for p in trial.paths.cold.glob(f"notes/m-*/record/{Path(rel).name}") if p.read_bytes() == data]
        if not (back.is_file() and back.read_bytes() == data) and not copies:
            lost.append(f"note {rel}")
    acknowledged = [item for run in runs for item in run.done("finalized")]
    ledger = vault.ledger.read().entries
    for item in acknowledged:
        draft_id, memory_id = item.split()
        if memory_id not in present and memory_id not in cold:
            lost.append(f"finalized memory {memory_id}")
        if sum(1 for e in ledger if e.kind == "finalize" and e.data.get("draft_id") == draft_id) != 1:
            lost.append(f"draft {draft_id}: not finalized exactly once")
    for memory_id in (item for run in runs for item in run.done("added")):
        if memory_id not in present:
            lost.append(f"added memory {memory_id}")
    for what in ("open", "suggested", "accepted", "approved"):
        for draft_id in (item for run in runs for item in run.done(what)):
            draft = drafts.get(draft_id)
            if draft is None:
                lost.append(f"draft {draft_id} (acknowledged {what})")
            elif what == "approved" and draft.state not in ("approved", "finalized"):
                lost.append(f"draft {draft_id}: acknowledged approved, now {draft.state}")
            elif what in ("suggested", "accepted") and not draft.suggestions:
                lost.append(f"draft {draft_id}: acknowledged {what}, the suggestion is gone")
    return lost


def run_crash_trial(template: CrashTemplate, workdir: Path, seed: int, trial: int,
                    kill_at: int | None = None) -> CrashResult:
    """One trial; ``kill_at`` (1..events) replaces the seeded choice of the moment (``--exhaustive``)."""
    op = template.op
    result = CrashResult(op=op, seed=seed, trial=trial, events=template.events)
    rng = random.Random(f"{seed}:{op}:{trial}")
    base = workdir / f"{op}-{trial}"
    if base.exists():
        shutil.rmtree(base)
    copy = clone_home(template.built, base)
    runs: list[ChildRun] = []
    try:
        if op in TIMER_OPS:
            delay = rng.uniform(0.0, template.seconds)
            result.kill_at = int(delay * 1000)
            runs.append(run_child(op, base, template.spec, kill_after=delay))
        else:
            result.kill_at = rng.randint(1, max(1, template.events)) if kill_at is None else kill_at
            runs.append(run_child(op, base, template.spec, kill_at=result.kill_at, seed=rng.randrange(2**32)))
        first = runs[0]
        result.killed = first.killed
        if not first.killed and first.returncode != 0:
            result.crash = f"the child exited {first.returncode}: {first.stderr.strip()[-2000:]}"
        elif "Traceback" in first.stderr:
            result.crash = first.stderr.strip()[-2000:]
        report = verify_home(copy.paths, copy.keys)
        result.after_kill = [str(p) for p in report.problems if p.kind != "incomplete"]
        result.incomplete = [str(p) for p in report.problems if p.kind == "incomplete"]
        result.half_written = _half_written(copy.paths, copy, tail_ok=True)
        # The next run: the app's start-up completion, then the same command again, to its end.
        open_vault(copy).complete_interrupted()
        again = run_child(op, base, template.spec)
        runs.append(again)
        if again.returncode != 0 or "Traceback" in again.stderr:
            result.crash = f"the next run exited {again.returncode}: {again.stderr.strip()[-2000:]}"
        final = verify_home(copy.paths, copy.keys)
        result.after_recovery = [str(p) for p in final.problems]
        result.half_written += _half_written(copy.paths, copy, tail_ok=False)
        result.lost = _lost(op, template, copy, runs)
        state = end_state(op, copy, again)
        result.differs = [f"{key}: {_diff(template.reference[key], state.get(key))}"
                          for key in template.reference if template.reference[key] != state.get(key)]
    except Exception as exc:
        result.crash = "".join(traceback.format_exception(exc))[-3000:]
    if result.ok:
        shutil.rmtree(base, ignore_errors=True)
    return result


def _diff(expected: Any, got: Any) -> str:
    if isinstance(expected, dict) and isinstance(got, dict):
        keys = [k for k in sorted(set(expected) | set(got)) if expected.get(k) != got.get(k)]
        return "; ".join(f"{k}: expected {expected.get(k)!r}, got {got.get(k)!r}" for k in keys[:3])
    return f"expected {expected!r}, got {got!r}"


@dataclass
class OpTally:
    trials: int = 0
    killed: int = 0
    recovered: int = 0  # verify clean and the reference end state after the next run
    incomplete_named: int = 0  # trials where verify named the interrupted operation
    lost: int = 0
    half_written: int = 0
    crashes: int = 0

    def add(self, result: CrashResult) -> None:
        self.trials += 1
        self.killed += result.killed
        self.recovered += not (result.after_recovery or result.differs or result.after_kill)
        self.incomplete_named += bool(result.incomplete)
        self.lost += len(result.lost)
        self.half_written += len(result.half_written)
        self.crashes += result.crash is not None


def crash_table(tallies: dict[str, OpTally]) -> str:
    header = (f"{'operation':<10} {'trials':>6} {'killed':>6} {'recovered':>9} {'incomplete':>10} {'lost':>5} "
              f"{'half-written':>12} {'crashes':>7}")
    lines = [header, "-" * len(header)]
    for op, t in tallies.items():
        lines.append(f"{op:<10} {t.trials:>6} {t.killed:>6} {t.recovered:>9} {t.incomplete_named:>10} {t.lost:>5} "
                     f"{t.half_written:>12} {t.crashes:>7}")
    return "\n".join(lines)
