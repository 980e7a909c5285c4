"""Tamper classes and the seeded trial runner (shared by the test suite and ``bench_faults.py``).

A trial copies a built home, applies one damage chosen by a seeded RNG, runs ``verify_home`` with
the checkpoint the person kept, and records:

- ``detected``: verify is not ok (a problem other than ``incomplete``);
- ``named``: every damaged record is named by a problem (its file, ledger line or id in the subject);
  a rollback must be reported as ``rolled_back``;
- ``lost``: records the damage did not touch that no longer load (memories, cold copies, drafts,
  turns of day logs);
- ``crash``: an exception that escaped ``verify_home`` or a loader (a traceback a person would see).

Replay one trial: ``python tests/bench/bench_faults.py --seed SEED --only CLASS --trial N``, or set
``REVERIE_FAULT_SEED`` for the suite. Every failure message carries its seed, class and trial.
"""

from __future__ import annotations

import json
import random
import shutil
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from core.conversation import read_day
from core.curate.tombstone import MOVE_ID
from core.errors import ReverieError
from core.integrity import Problem
from core.vault.canonical import canonical_json, sha256_hex
from core.vault.crypto import KdfParams, VaultKeys, create_header
from core.vault.records import MemoryRecord, RecordMetadata, open_memory, seal_memory
from core.vault.review import draft_from_capture
from core.vault.sealed import seal
from core.vault.store import DRAFT_FORMAT
from core.workbench.verify import verify_home
from tests.faults.homebuild import BuiltHome, copy_home, open_vault

CLASSES = ("flip", "truncate", "delete", "duplicate", "reorder", "swap", "forge", "rollback")


@dataclass(frozen=True)
class Named:
    """One damaged record, and the ways a problem may name it: an exact subject, or an id (a memory
    id, a move id) that appears in the subject."""

    exact: frozenset[str] = frozenset()
    tokens: frozenset[str] = frozenset()

    def named_by(self, problem: Problem) -> bool:
        return problem.subject in self.exact or any(token in problem.subject for token in self.tokens)

    def __str__(self) -> str:
        return " | ".join(sorted(self.exact | self.tokens))


def named(*exact: str, tokens: tuple[str, ...] = ()) -> Named:
    return Named(frozenset(exact), frozenset(tokens))


@dataclass
class Damage:
    target: str  # the kind of record damaged (memory, draft, ledger, head, day, cold, mirror, tombstone, home)
    description: str
    expected: list[Named]  # each damaged record must be named by some problem
    touched: set[str] = field(default_factory=set)  # ids / subjects of every record the damage touched
    require_kind: str | None = None  # the problem kind that must be reported (rolled_back for a rollback)


@dataclass
class TrialResult:
    seed: int
    cls: str
    trial: int
    target: str = ""
    description: str = ""
    detected: bool = False
    named: bool = False
    lost: int = 0
    lost_detail: list[str] = field(default_factory=list)
    crash: str | None = None
    problems: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # expected records no problem named

    @property
    def ok(self) -> bool:
        return self.detected and self.named and not self.lost and self.crash is None

    def replay(self) -> str:
        return f"python tests/bench/bench_faults.py --seed {self.seed} --only {self.cls} --trial {self.trial}"

    def explain(self) -> str:
        return (f"[seed {self.seed} class {self.cls} trial {self.trial}] {self.target}: {self.description}\n"
                f"  detected={self.detected} named={self.named} lost={self.lost} {self.lost_detail} "
                f"crash={self.crash}\n  not named: {self.missing}\n  problems: {self.problems}\n"
                f"  replay: {self.replay()}")


# ------------------------------------------------------------------------------------- targets


@dataclass(frozen=True)
class FileTarget:
    kind: str
    path: Path
    names: Named
    ids: frozenset[str]


def _rel(home: BuiltHome, path: Path) -> str:
    return str(path.relative_to(home.paths.root))


def _move_dirs(home: BuiltHome) -> list[Path]:
    return sorted(p for p in home.paths.cold.glob("*/m-*") if p.is_dir())


def file_targets(home: BuiltHome) -> dict[str, list[FileTarget]]:
    """Every integrity-protected file of the home, by kind."""
    root = home.paths.root
    found: dict[str, list[FileTarget]] = {k: [] for k in
                                          ("memory", "draft", "ledger", "head", "day", "cold", "mirror", "tombstone")}
    for path in sorted(home.paths.vault.glob("mem_*.json")):
        found["memory"].append(FileTarget("memory", path, named(tokens=(path.stem,)), frozenset({path.stem})))
    for path in sorted(home.paths.drafts.glob("*.json")):
        found["draft"].append(FileTarget("draft", path, named(f"drafts/{path.name}"), frozenset({path.stem})))
    found["ledger"].append(FileTarget("ledger", home.paths.ledger, named("ledger"), frozenset({"ledger"})))
    found["head"].append(FileTarget("head", home.paths.ledger_head, named("ledger.head.json", "ledger"),
                                    frozenset({"ledger"})))
    for record_id in home.day_ids:
        found["day"].append(FileTarget("day", root / record_id, named(record_id), frozenset({record_id})))
    for folder in _move_dirs(home):
        move_id = folder.name
        for record in sorted((folder / "record").glob("*")):
            ids = {move_id, record.name[: -len(".json")] if record.name.startswith("mem_") else record.name}
            found["cold"].append(FileTarget("cold", record, named(_rel(home, record), tokens=tuple(ids)),
                                            frozenset(ids)))
        mirror = folder / "tombstone.json"
        found["mirror"].append(FileTarget("mirror", mirror, named(tokens=(move_id,)), frozenset({move_id})))
    for stone in sorted(home.paths.vault.glob("mem_*.json.tombstone")):
        memory_id = stone.name.split(".")[0]
        found["tombstone"].append(FileTarget("tombstone", stone, named(tokens=(memory_id,)),
                                             frozenset({memory_id, stone.name})))
    return found


def _ledger_line_named(number: int, last: int) -> Named:
    exact = {f"ledger line {number}"}
    if number >= last:
        exact |= {"ledger", "ledger.head.json"}
    return Named(frozenset(exact))


def _line_of_offset(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


# ------------------------------------------------------------------------------------- damages


class Tamperer:
    """Applies one damage of a class to a copied home."""

    def __init__(self, home: BuiltHome, rng: random.Random, other_keys: VaultKeys) -> None:
        self.home = home
        self.rng = rng
        self.other = other_keys
        self.targets = file_targets(home)

    def pick(self, kinds: tuple[str, ...]) -> FileTarget:
        kind = self.rng.choice([k for k in kinds if self.targets[k]])
        return self.rng.choice(self.targets[kind])

    def _line_target(self, kinds: tuple[str, ...] = ("ledger", "day")) -> tuple[FileTarget, list[bytes]]:
        target = self.pick(kinds)
        return target, target.path.read_bytes().splitlines(keepends=True)

    def _named_lines(self, target: FileTarget, numbers: list[int], total: int) -> list[Named]:
        if target.kind == "ledger":
            return [_ledger_line_named(n, total) for n in numbers]
        return [target.names]

    # -- the classes

    def flip(self) -> Damage:
        target = self.pick(tuple(self.targets))
        original = target.path.read_bytes()
        data = bytearray(original)
        offset = self.rng.randrange(len(data))
        mask = self.rng.randrange(1, 256)
        data[offset] ^= mask
        target.path.write_bytes(bytes(data))
        expected = target.names
        if target.kind == "ledger":
            expected = _ledger_line_named(_line_of_offset(original, offset), original.count(b"\n"))
        return Damage(target.kind, f"{_rel(self.home, target.path)}: byte {offset} ^= {mask:#04x}", [expected],
                      set(target.ids))

    def truncate(self) -> Damage:
        target = self.pick(tuple(self.targets))
        data = target.path.read_bytes()
        size = self.rng.randrange(len(data))
        target.path.write_bytes(data[:size])
        expected = target.names
        if target.kind == "ledger":
            expected = Named(_ledger_line_named(_line_of_offset(data, size), 0).exact | {"ledger"})
        return Damage(target.kind, f"{_rel(self.home, target.path)}: truncated from {len(data)} to {size} bytes",
                      [expected], set(target.ids))

    def delete(self) -> Damage:
        """Remove a record. Open drafts are left out: deleting one is an ordinary operation (a draft
        that was never finalized is a working copy, not a record the ledger vouches for)."""
        kinds = ("memory", "finalized-draft", "ledger-line", "ledger", "head", "day", "cold", "mirror", "tombstone")
        kind = self.rng.choice(kinds)
        if kind == "finalized-draft":
            draft_id = self.rng.choice(self.home.finalized_draft_ids)
            path = self.home.paths.drafts / f"{draft_id}.json"
            path.unlink()
            return Damage("draft", f"drafts/{path.name}: deleted (a finalized draft)", [named(f"drafts/{path.name}")],
                          {draft_id})
        if kind == "ledger-line":
            target, lines = self._line_target(("ledger",))
            index = self.rng.randrange(len(lines))
            del lines[index]
            target.path.write_bytes(b"".join(lines))
            expected = Named(frozenset({f"ledger line {index + 1}", "ledger"}))
            return Damage("ledger", f"ledger.jsonl: line {index + 1} deleted", [expected], {"ledger"})
        target = self.pick((kind,))
        target.path.unlink()
        return Damage(target.kind, f"{_rel(self.home, target.path)}: deleted", [target.names], set(target.ids))

    def duplicate(self) -> Damage:
        kind = self.rng.choice(("memory", "draft", "ledger", "day", "cold"))
        if kind in ("ledger", "day"):
            target, lines = self._line_target((kind,))
            index = self.rng.randrange(len(lines))
            at = self.rng.randrange(len(lines) + 1)
            lines.insert(at, lines[index])
            target.path.write_bytes(b"".join(lines))
            numbers = sorted({at + 1, min(at + 2, len(lines))})
            expected = self._named_lines(target, numbers, len(lines))
            if kind == "ledger":
                expected = [Named(frozenset().union(*(e.exact for e in expected)))]
            return Damage(target.kind, f"{_rel(self.home, target.path)}: line {index + 1} copied to line {at + 1}",
                          expected, set(target.ids))
        if kind == "cold":
            folder = self.rng.choice(_move_dirs(self.home))
            new_id = folder.name[:-12] + "".join(self.rng.choice("0123456789abcdef") for _ in range(12))
            assert MOVE_ID.match(new_id)
            shutil.copytree(folder, folder.with_name(new_id))
            return Damage("cold", f"{_rel(self.home, folder)}: copied to {new_id}", [named(tokens=(new_id,))],
                          {new_id})
        target = self.pick((kind,))
        if kind == "memory":
            new = "mem_" + "".join(self.rng.choice("0123456789abcdef") for _ in range(24))
        else:
            new = "draft_" + "".join(self.rng.choice("0123456789abcdef") for _ in range(16))
        copy = target.path.with_name(f"{new}.json")
        shutil.copyfile(target.path, copy)
        expected = named(f"drafts/{copy.name}") if kind == "draft" else named(tokens=(new,))
        return Damage(kind, f"{_rel(self.home, target.path)}: copied to {copy.name}", [expected], {new})

    def reorder(self) -> Damage:
        target, lines = self._line_target()
        i, j = sorted(self.rng.sample(range(len(lines)), 2))
        if lines[i] == lines[j]:
            return self.reorder()
        moved = lines.pop(i)
        lines.insert(j, moved)
        target.path.write_bytes(b"".join(lines))
        expected = self._named_lines(target, list(range(i + 1, j + 2)), len(lines))
        if target.kind == "ledger":
            expected = [Named(frozenset().union(*(e.exact for e in expected)))]
        return Damage(target.kind, f"{_rel(self.home, target.path)}: line {i + 1} moved after line {j + 1}",
                      expected, set(target.ids))

    def swap(self) -> Damage:
        kind = self.rng.choice(("memory", "draft", "day", "ledger", "cold", "mirror"))
        if kind == "ledger":
            target, lines = self._line_target(("ledger",))
            i, j = sorted(self.rng.sample(range(len(lines)), 2))
            lines[i], lines[j] = lines[j], lines[i]
            target.path.write_bytes(b"".join(lines))
            return Damage("ledger", f"ledger.jsonl: lines {i + 1} and {j + 1} swapped",
                          [_ledger_line_named(i + 1, len(lines)), _ledger_line_named(j + 1, len(lines))], {"ledger"})
        candidates = self.targets[kind]
        if kind == "cold":
            candidates = [t for t in candidates if not t.path.name.startswith("mem_")]
        a, b = self.rng.sample(candidates, 2)
        data_a, data_b = a.path.read_bytes(), b.path.read_bytes()
        a.path.write_bytes(data_b)
        b.path.write_bytes(data_a)
        return Damage(kind, f"{_rel(self.home, a.path)} <-> {_rel(self.home, b.path)}", [a.names, b.names],
                      set(a.ids | b.ids))

    def forge(self) -> Damage:
        """Insert (or replace) a record signed with another vault's key."""
        kind = self.rng.choice(("memory-insert", "memory-replace", "draft-insert", "draft-replace", "ledger", "head",
                                "day", "cold"))
        hexes = "0123456789abcdef"
        created = "2026-01-01T00:00:00.000000+00:00"
        if kind == "memory-insert":
            new = "mem_" + "".join(self.rng.choice(hexes) for _ in range(24))
            memory = MemoryRecord(new, "I never wrote this sentence.", RecordMetadata(tags=("forged",)), created)
            (self.home.paths.vault / f"{new}.json").write_bytes(seal_memory(memory, self.other))
            return Damage("memory", f"vault/{new}.json: planted, signed with another key", [named(tokens=(new,))],
                          {new})
        if kind == "memory-replace":
            target = self.pick(("memory",))
            memory = MemoryRecord(target.path.stem, "A replaced sentence.", RecordMetadata(), created)
            target.path.write_bytes(seal_memory(memory, self.other))
            return Damage("memory", f"{_rel(self.home, target.path)}: replaced, signed with another key",
                          [target.names], set(target.ids))
        if kind in ("draft-insert", "draft-replace"):
            draft = draft_from_capture("A draft nobody here wrote.", ("forged",), created_by="intruder")
            if kind == "draft-replace":
                target = self.pick(("draft",))
                draft_id, version = target.path.stem, 99
            else:
                draft_id, version = draft.draft_id, 1
            payload = {"draft": {**draft.to_dict(), "draft_id": draft_id}}
            path = self.home.paths.drafts / f"{draft_id}.json"
            path.write_bytes(seal(DRAFT_FORMAT, draft_id, version, payload, self.other))
            return Damage("draft", f"drafts/{path.name}: {kind.split('-')[1]}ed, signed with another key",
                          [named(f"drafts/{path.name}")], {draft_id})
        if kind == "ledger":
            lines = self.home.paths.ledger.read_bytes().splitlines(keepends=True)
            last = json.loads(lines[-1])
            body = {"seq": last["seq"] + 1, "ts": last["ts"], "kind": "finalize", "record_id": "mem_" + "0" * 24,
                    "record_sha256": "0" * 64, "data": {"draft_id": "draft_forged"}, "prev": last["hash"]}
            digest = sha256_hex(canonical_json(body))
            entry = {**body, "hash": digest, "sig": self.other.sign(digest.encode("ascii"))}
            lines.append((json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n").encode())
            self.home.paths.ledger.write_bytes(b"".join(lines))
            head = {"seq": body["seq"], "hash": digest}
            head["sig"] = self.other.sign(canonical_json(head))
            self.home.paths.ledger_head.write_text(json.dumps(head) + "\n")
            return Damage("ledger", f"ledger.jsonl: entry {body['seq']} appended and head re-signed with another key",
                          [named(f"ledger line {len(lines)}", "ledger.head.json")], {"ledger"})
        if kind == "head":
            lines = self.home.paths.ledger.read_bytes().splitlines(keepends=True)
            keep = self.rng.randrange(1, len(lines))
            entry = json.loads(lines[keep - 1])
            self.home.paths.ledger.write_bytes(b"".join(lines[:keep]))
            head = {"seq": entry["seq"], "hash": entry["hash"]}
            head["sig"] = self.other.sign(canonical_json(head))
            self.home.paths.ledger_head.write_text(json.dumps(head) + "\n")
            return Damage("head", f"ledger cut to {keep} entries, head re-signed with another key",
                          [named("ledger.head.json", "ledger")], {"ledger"})
        if kind == "day":
            target = self.pick(("day",))
            day = target.path.stem
            turn = {"actor": "user", "id": f"forged-{self.rng.randrange(10**6)}", "model": None, "role": "user",
                    "session": "trip", "source": "generic:/dev/null", "text": "We agreed to sell the house.",
                    "ts": f"{day}T23:59:00.000000Z", "type": "text"}
            lines = target.path.read_bytes().splitlines(keepends=True)
            lines.insert(self.rng.randrange(len(lines) + 1), (json.dumps(turn, sort_keys=True) + "\n").encode())
            target.path.write_bytes(b"".join(lines))
            return Damage("day", f"{target.path.name}: a forged turn inserted", [target.names], set(target.ids))
        folder = self.rng.choice(_move_dirs(self.home))
        new_id = folder.name[:-12] + "".join(self.rng.choice(hexes) for _ in range(12))
        shutil.copytree(folder, folder.with_name(new_id))
        mirror = folder.with_name(new_id) / "tombstone.json"
        stone = json.loads(mirror.read_text())
        stone["move_id"] = new_id
        stone["cold_path"] = stone["cold_path"].replace(folder.name, new_id)
        mirror.write_text(json.dumps(stone, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        return Damage("cold", f"cold/{folder.parent.name}/{new_id}: a planted move", [named(tokens=(new_id,))],
                      {new_id})

    def rollback(self) -> Damage:
        """Put back an older state: the whole home, the ledger with its head, or one resealed day log.
        A whole-home rollback is self-consistent: only the checkpoint the person kept can tell."""
        kind = self.rng.choice(("home", "ledger", "day"))
        earlier = self.home.earlier
        assert earlier is not None
        root = self.home.paths.root
        if kind == "home":
            shutil.rmtree(root)
            shutil.copytree(earlier, root)
            return Damage("home", "the whole home replaced by an earlier copy", [named("ledger")],
                          {"*"}, require_kind="rolled_back")
        if kind == "ledger":
            for name in ("ledger.jsonl", "ledger.head.json"):
                shutil.copyfile(earlier / name, root / name)
            return Damage("ledger", "ledger.jsonl and its head replaced by earlier copies", [named("ledger")],
                          {"*"}, require_kind="rolled_back")
        grown = next(d for d in self.home.day_ids if (earlier / d).read_bytes() != (root / d).read_bytes())
        shutil.copyfile(earlier / grown, root / grown)
        return Damage("day", f"{grown}: replaced by its copy from before it was resealed", [named(grown)], {grown})


# ------------------------------------------------------------------------------------- checks


def lost_records(template: BuiltHome, home: BuiltHome, touched: set[str]) -> list[str]:
    """Records the damage did not touch that no longer load as they did in the template."""
    if "*" in touched:
        return []
    lost: list[str] = []
    vault = open_vault(home)
    reference = open_vault(template)
    for memory_id in template.memory_ids:
        if memory_id in touched:
            continue
        try:
            if vault.get_memory(memory_id).content != reference.get_memory(memory_id).content:
                lost.append(f"{memory_id}: content differs")
        except ReverieError as exc:
            lost.append(f"{memory_id}: {exc}")
    for folder in _move_dirs(template):
        if folder.name in touched:
            continue
        for record in (folder / "record").glob("mem_*.json"):
            memory_id = record.stem
            if memory_id in touched:
                continue
            copy = home.paths.root / record.relative_to(template.paths.root)
            try:
                open_memory(copy.read_bytes(), home.keys, str(copy), memory_id)
            except (OSError, ReverieError) as exc:
                lost.append(f"{memory_id} (cold): {exc}")
    for draft_id in template.draft_ids:
        if draft_id in touched:
            continue
        try:
            vault.get_draft(draft_id)
        except ReverieError as exc:
            lost.append(f"{draft_id}: {exc}")
    for record_id in template.day_ids:
        if record_id in touched:
            continue
        before = read_day(template.paths.root / record_id)
        after = read_day(home.paths.root / record_id)
        if [t.id for t in after.turns] != [t.id for t in before.turns] or after.bad_lines:
            lost.append(f"{record_id}: turns differ")
    return lost


_OTHER_KEYS: dict[Path, VaultKeys] = {}


def other_keys(folder: Path) -> VaultKeys:
    """Keys of another vault (another passphrase, another salt): what a forger would sign with."""
    if folder not in _OTHER_KEYS:
        folder.mkdir(parents=True, exist_ok=True)
        _OTHER_KEYS[folder] = create_header(folder / "other-vault.json", "a passphrase that is not yours",
                                            KdfParams.for_tests())
    return _OTHER_KEYS[folder]


def run_trial(template: BuiltHome, workdir: Path, seed: int, cls: str, trial: int,
              verifier: Callable[[BuiltHome], list[Problem]] | None = None, cleanup: bool = True) -> TrialResult:
    """One trial in ``workdir/<cls>-<trial>`` (removed afterwards with ``cleanup``, unless it failed)."""
    result = TrialResult(seed=seed, cls=cls, trial=trial)
    rng = random.Random(f"{seed}:{cls}:{trial}")
    base = workdir / f"{cls}-{trial}"
    if base.exists():
        shutil.rmtree(base)
    home = copy_home(template, base)
    damage = getattr(Tamperer(home, rng, other_keys(workdir / "other")), cls)()
    result.target, result.description = damage.target, damage.description
    try:
        problems = verifier(home) if verifier else verify_home(home.paths, home.keys, template.checkpoint).problems
    except Exception as exc:  # a traceback the person would see
        result.crash = "".join(traceback.format_exception_only(exc)).strip()
        result.problems = [traceback.format_exc()]
        return result
    result.problems = [str(p) for p in problems]
    serious = [p for p in problems if p.kind != "incomplete"]
    result.detected = bool(serious)
    if damage.require_kind is not None:
        serious = [p for p in serious if p.kind == damage.require_kind]
    result.missing = [str(e) for e in damage.expected if not any(e.named_by(p) for p in serious)]
    result.named = result.detected and not result.missing
    try:
        result.lost_detail = lost_records(template, home, damage.touched)
    except Exception as exc:
        result.crash = f"while reading untouched records: {''.join(traceback.format_exception_only(exc)).strip()}"
    result.lost = len(result.lost_detail)
    if result.ok and cleanup:
        shutil.rmtree(base, ignore_errors=True)
    return result


@dataclass
class ClassTally:
    trials: int = 0
    detected: int = 0
    named: int = 0
    lost: int = 0
    crashes: int = 0
    by_target: dict[str, list[int]] = field(default_factory=dict)  # target → [trials, detected and named]

    def add(self, result: TrialResult) -> None:
        self.trials += 1
        self.detected += result.detected
        self.named += result.named
        self.lost += result.lost
        self.crashes += result.crash is not None
        cell = self.by_target.setdefault(result.target, [0, 0])
        cell[0] += 1
        cell[1] += result.detected and result.named


def run_trials(template: BuiltHome, workdir: Path, seed: int, trials: int, classes: tuple[str, ...] = CLASSES,
               only_trial: int | None = None, cleanup: bool = True) -> tuple[dict[str, ClassTally], list[TrialResult]]:
    tallies: dict[str, ClassTally] = {}
    failures: list[TrialResult] = []
    for cls in classes:
        tally = tallies.setdefault(cls, ClassTally())
        numbers = [only_trial] if only_trial is not None else range(trials)
        for trial in numbers:
            result = run_trial(template, workdir, seed, cls, trial, cleanup=cleanup)
            tally.add(result)
            if not result.ok:
                failures.append(result)
    return tallies, failures


def table(tallies: dict[str, ClassTally]) -> str:
    header = f"{'class':<10} {'trials':>6} {'detected':>9} {'named':>6} {'lost':>5} {'crashes':>7}  by target"
    lines = [header, "-" * len(header)]
    for cls, t in tallies.items():
        targets = ", ".join(f"{k} {v[1]}/{v[0]}" for k, v in sorted(t.by_target.items()))
        lines.append(f"{cls:<10} {t.trials:>6} {t.detected:>9} {t.named:>6} {t.lost:>5} {t.crashes:>7}  {targets}")
    total = ClassTally()
    for t in tallies.values():
        total.trials += t.trials
        total.detected += t.detected
        total.named += t.named
        total.lost += t.lost
        total.crashes += t.crashes
    lines.append(f"{'all':<10} {total.trials:>6} {total.detected:>9} {total.named:>6} {total.lost:>5} "
                 f"{total.crashes:>7}")
    return "\n".join(lines)
