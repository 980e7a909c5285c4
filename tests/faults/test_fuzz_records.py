"""Fuzz the loaders of stored records: drafts and memories (bytes on disk, and payloads signed with the
right key, so the review invariants on load are reached), ledger lines, ``.dvmem`` files, tombstones,
the vault header and topic markers. Each ends in a record or a one-line error naming the file; never a
traceback or a hang; a refused import writes nothing.
"""

from __future__ import annotations

import base64
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from core.curate.errors import CurationError
from core.curate.scopes import Scope
from core.curate.tombstone import Tombstone, validate
from core.errors import HomeError, RecordError, ReverieError, WrongPassphrase
from core.paths import HomePaths
from core.topics import read_markers
from core.vault import crypto
from core.vault.crypto import KdfParams, VaultKeys, create_header, unlock
from core.vault.ledger import Ledger
from core.vault.portable import export_dvmem, import_dvmem, read_dvmem
from core.vault.records import MEMORY_FORMAT
from core.vault.review import StoredDraft
from core.vault.sealed import seal
from core.vault.store import DRAFT_FORMAT, MemoryStore
from core.workbench.verify import verify_home
from tests.faults.fuzzing import FUZZ, JSON, TEXT, assert_one_line, maybe, within
from tests.helpers.vault import PASSPHRASE, finalize_reviewed, make_vault


class Sample:
    """One small vault, built once: a finalized memory, its draft, the ledger, a .dvmem export."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.paths = HomePaths(root=base / "home", cache=base / "cache").ensure()
        vault = make_vault(self.paths)
        self.keys: VaultKeys = vault.keys
        memory = finalize_reviewed(vault, "We fed the ducks at the pond.")
        self.memory_id = memory.memory_id
        self.memory_bytes = vault.memory_path(memory.memory_id).read_bytes()
        draft = vault.list_drafts()[0]
        self.draft_id = draft.draft_id
        self.draft_dict = draft.to_dict()
        self.draft_bytes = (self.paths.drafts / f"{draft.draft_id}.json").read_bytes()
        self.payload = memory.payload()
        self.ledger = self.paths.ledger.read_bytes()
        self.dvmem = export_dvmem(vault, memory.memory_id, PASSPHRASE)


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Sample:
    return Sample(tmp_path_factory.mktemp("sample"))


@pytest.fixture
def home(sample: Sample) -> Iterator[Sample]:
    """A scratch copy of the sample home for one test (examples share it and restore what they change)."""
    yield sample


@st.composite
def deep_json(draw: st.DrawFn) -> bytes:
    """Nested arrays or objects, from a depth any parser takes to one that exhausts a recursive parser
    (Python's default recursion limit is 1,000), closed or not."""
    depth = draw(st.one_of(st.integers(1, 60), st.integers(400, 1200), st.integers(1500, 100_000)))
    opener, closer = draw(st.sampled_from([(b"[", b"]"), (b'{"a":', b"}"), (b'[{"a":', b"}]")]))
    closed = draw(st.booleans())
    return opener * depth + b"0" + closer * (depth if closed else draw(st.integers(0, 3)))


@st.composite
def mutated_json_bytes(draw: st.DrawFn, original: bytes) -> bytes:
    """``original`` (a JSON object) with a field replaced, removed or added, or raw damage, or nesting
    deep enough to exhaust a recursive parser, alone or as the value of a field."""
    kind = draw(st.integers(0, 6))
    if kind == 0:
        return draw(st.binary(max_size=400))
    if kind == 1:
        data = bytearray(original)
        for _ in range(draw(st.integers(1, 4))):
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        return bytes(data)
    if kind == 2:
        return draw(deep_json())
    obj = json.loads(original)
    key = draw(st.sampled_from(sorted(obj)))
    if kind == 3:
        obj[key] = draw(JSON)
    elif kind == 4:
        del obj[key]
    elif kind == 5:
        obj[draw(TEXT)] = draw(JSON)
    else:
        obj[key] = _DEEP
        return json.dumps(obj).encode("utf-8", "surrogatepass").replace(json.dumps(_DEEP).encode(), draw(deep_json()))
    return json.dumps(obj).encode("utf-8", "surrogatepass")


_DEEP = "\x00deep\x00"  # a placeholder for nesting too deep to build as Python values


def _expect_refusal(call: Any, *names: str) -> Any:
    try:
        with within(what=getattr(call, "__name__", "loader")):
            return call()
    except ReverieError as exc:
        assert_one_line(exc, *names)
        return None


@FUZZ
@given(st.data())
def test_draft_and_memory_files(home: Sample, data: st.DataObject) -> None:
    vault = MemoryStore.open(home.paths, home.keys)
    draft_path = home.paths.drafts / f"{home.draft_id}.json"
    memory_path = vault.memory_path(home.memory_id)
    draft_path.write_bytes(data.draw(mutated_json_bytes(home.draft_bytes)))
    memory_path.write_bytes(data.draw(mutated_json_bytes(home.memory_bytes)))
    try:
        _expect_refusal(lambda: vault.get_draft(home.draft_id), str(draft_path))
        _expect_refusal(lambda: vault.get_memory(home.memory_id), str(memory_path))
        with within(what="verify"):
            report = verify_home(home.paths, home.keys)
        for problem in report.problems:
            assert_one_line(ValueError(str(problem)))
    finally:
        draft_path.write_bytes(home.draft_bytes)
        memory_path.write_bytes(home.memory_bytes)


@st.composite
def draft_payload(draw: st.DrawFn, original: dict[str, Any]) -> Any:
    obj = json.loads(json.dumps(original))
    for _ in range(draw(st.integers(1, 3))):
        target = obj
        nested = [item for name in ("suggestions", "decisions") if isinstance(obj.get(name), list)
                  for item in obj[name] if isinstance(item, dict) and item]
        if draw(st.booleans()) and nested:
            target = draw(st.sampled_from(nested))
        key = draw(st.sampled_from(sorted(target)))
        target[key] = draw(maybe(TEXT))
    return obj


@FUZZ
@given(st.data())
def test_payloads_signed_with_the_right_key_meet_the_invariants_on_load(home: Sample, data: st.DataObject) -> None:
    """What only a bug (or the key's holder) could write: the review invariants are checked on load."""
    vault = MemoryStore.open(home.paths, home.keys)
    draft_path = home.paths.drafts / f"{home.draft_id}.json"
    memory_path = vault.memory_path(home.memory_id)
    payload = data.draw(st.one_of(draft_payload(home.draft_dict), JSON))
    memory_payload = dict(home.payload)
    memory_payload[data.draw(st.sampled_from(sorted(memory_payload)))] = data.draw(JSON)
    try:  # values no JSON canonical form holds (NaN, unpaired surrogates) cannot be sealed at all
        draft_record = seal(DRAFT_FORMAT, home.draft_id, 7, {"draft": payload}, home.keys)
        memory_record = seal(MEMORY_FORMAT, home.memory_id, 1, memory_payload, home.keys)
    except (ValueError, UnicodeEncodeError):
        assume(False)
    draft_path.write_bytes(draft_record)
    memory_path.write_bytes(memory_record)
    try:
        loaded = _expect_refusal(lambda: vault.get_draft(home.draft_id))
        if loaded is not None:
            assert isinstance(loaded, StoredDraft)
            assert StoredDraft.from_dict(loaded.to_dict()) == loaded
        _expect_refusal(lambda: vault.get_memory(home.memory_id))
        with within(what="verify"):
            verify_home(home.paths, home.keys)
    finally:
        draft_path.write_bytes(home.draft_bytes)
        memory_path.write_bytes(home.memory_bytes)


@FUZZ
@given(st.data())
def test_ledger_bytes(home: Sample, data: st.DataObject) -> None:
    lines = home.ledger.splitlines(keepends=True)
    index = data.draw(st.integers(0, len(lines) - 1))
    lines[index] = data.draw(mutated_json_bytes(lines[index].rstrip(b"\n"))) + data.draw(st.sampled_from([b"\n", b""]))
    home.paths.ledger.write_bytes(b"".join(lines))
    try:
        ledger = Ledger(home.paths, home.keys)
        with within(what="ledger read"):
            reading = ledger.read()
        assert reading.problems or reading.entries
        for problem in reading.problems:
            assert_one_line(ValueError(str(problem)), "ledger")
        with within(what="verify"):
            verify_home(home.paths, home.keys)
        if [p for p in reading.problems if p.kind != "incomplete"]:
            with pytest.raises(RecordError, match="refusing to append to a damaged ledger"):
                ledger.append("add", "mem_x", "0" * 64)
    finally:
        home.paths.ledger.write_bytes(home.ledger)
        for aside in home.paths.root.glob("ledger.jsonl.partial-*"):
            aside.unlink()


SMALL_KDF = st.fixed_dictionaries({
    "algorithm": maybe(st.just("argon2id")), "iterations": maybe(st.integers(-2, 3)),
    "lanes": maybe(st.integers(-1, 2)), "memory_cost_kib": maybe(st.integers(-8, 256)),
    "salt": maybe(st.sampled_from(["AAAAAAAAAAAAAAAAAAAAAA==", "AAAA", "not base64", ""]))})


@FUZZ
@given(st.data())
def test_dvmem_files_verify_before_anything_is_written(home: Sample, data: st.DataObject) -> None:
    document = json.loads(home.dvmem)
    choice = data.draw(st.integers(0, 3))
    if choice == 0:
        raw = data.draw(mutated_json_bytes(home.dvmem))
    else:
        if choice == 1:
            document["kdf"] = data.draw(SMALL_KDF)
        elif choice == 2:
            field = data.draw(st.sampled_from(sorted(document["record"])))
            document["record"][field] = data.draw(JSON)
        else:
            document[data.draw(st.sampled_from(sorted(document)))] = data.draw(JSON)
        raw = json.dumps(document, ensure_ascii=data.draw(st.booleans())).encode("utf-8", "surrogatepass")
    with tempfile.TemporaryDirectory() as tmp:
        other = MemoryStore.create(HomePaths(root=Path(tmp) / "h", cache=Path(tmp) / "c"), PASSPHRASE,
                                   KdfParams.for_tests())
        before = sorted(p.name for p in other.paths.root.rglob("*"))
        result = _expect_refusal(lambda: import_dvmem(other, raw, PASSPHRASE, "shared.dvmem"), "shared.dvmem")
        if result is None:
            assert sorted(p.name for p in other.paths.root.rglob("*")) == before, "a refused import wrote"
        else:
            assert verify_home(other.paths, other.keys).ok


def test_a_deeply_nested_dvmem_is_a_one_line_error() -> None:
    with pytest.raises(RecordError):
        read_dvmem(b"[" * 100_000, PASSPHRASE, "nested.dvmem")


def test_a_dvmem_with_a_ruinous_kdf_is_refused_before_any_work(sample: Sample, monkeypatch: pytest.MonkeyPatch) -> None:
    """A .dvmem (a file from elsewhere) has the vault header's bounds on its Argon2id cost."""
    asked: list[KdfParams] = []
    monkeypatch.setattr("core.vault.portable.derive_keys", lambda p, s, params: asked.append(params) or sample.keys)
    for ruinous in ({"iterations": 64}, {"lanes": 64}, {"memory_cost_kib": 4 * 1024 * 1024},
                    {"iterations": crypto.MAX_KDF_ITERATIONS + 1}, {"memory_cost_kib": crypto.MAX_KDF_MEMORY_KIB + 1}):
        document = json.loads(sample.dvmem)
        document["kdf"].update(ruinous)
        with pytest.raises(RecordError) as caught:
            read_dvmem(json.dumps(document).encode(), PASSPHRASE, "big.dvmem")
        assert_one_line(caught.value, "big.dvmem")
        assert "out of range" in str(caught.value), caught.value
    assert asked == []


# --- tombstones ----------------------------------------------------------------------------------------

STONE = {"format": "reverie.tombstone", "format_version": 1, "move_id": "m-20260101T000000-0123456789ab",
         "scope": "notes", "kind": "markdown", "path": "old/a.md", "tombstone": "old/a.md.tombstone",
         "cold_path": "cold/notes/m-20260101T000000-0123456789ab/record/a.md", "sha256": "0" * 64, "size": 3,
         "mode": 0o600, "mtime_ns": 0, "moved_at": "2026-01-01T00:00:00+00:00", "rubric_version": 1, "tier": "high",
         "approved": False, "signals": ["unused"], "details": {}, "note": ""}
PATHS = st.one_of(TEXT, st.sampled_from(["../x.md", "/etc/passwd", "old/../../x.md", "old/./a.md", "old//a.md",
                                         "old\\a.md", "old/a.md\x00", "link/a.md", "cold/notes/../../x",
                                         "cold/notes/m-20260101T000000-0123456789ab/record/../../../x"]))


@FUZZ
@given(st.dictionaries(st.sampled_from(sorted(STONE)), st.one_of(PATHS, JSON), max_size=4), st.booleans())
def test_tombstones_never_lead_outside_their_scope(changes: dict[str, Any], raw: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        root = base / "notes"
        (root / "old").mkdir(parents=True)
        (base / "outside").mkdir()
        (root / "link").symlink_to(base / "outside")
        paths = HomePaths(root=base / "home", cache=base / "cache").ensure()
        data = json.dumps({**STONE, **changes}).encode("utf-8", "surrogatepass") if not raw else bytes(
            json.dumps(changes), "utf-8", "surrogatepass")
        try:
            with within(what="tombstone"):
                stone = Tombstone.from_bytes(data, "old/a.md.tombstone")
                places = validate(stone, Scope("notes", _markdown(), root), paths)
        except (RecordError, CurationError) as exc:
            assert_one_line(exc, "tombstone", "old/a.md.tombstone")
            return
        for inside, where in ((places.target, root), (places.tombstone, root), (places.cold, paths.cold),
                              (places.mirror, paths.cold)):
            assert inside.resolve().is_relative_to(where.resolve()), (inside, where)


def _markdown() -> Any:
    from core.curate.kinds import kind_named

    return kind_named("markdown")


# --- vault header and markers --------------------------------------------------------------------------


@FUZZ
@given(st.data())
def test_vault_headers(monkeypatch: pytest.MonkeyPatch, data: st.DataObject) -> None:
    """A tampered header is refused with one line, before any Argon2id work out of bounds."""
    derived: list[tuple[int, int, int]] = []

    def master_key(passphrase: str, salt: bytes, params: KdfParams) -> bytes:
        derived.append((params.iterations, params.lanes, params.memory_cost_kib))
        return b"\x00" * 32

    monkeypatch.setattr(crypto, "_master_key", master_key)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "vault.json"
        create_header(path, PASSPHRASE, KdfParams.for_tests())
        header = json.loads(path.read_bytes())
        kdf = header["kdf"]
        kdf.update(data.draw(st.dictionaries(st.sampled_from(sorted(kdf)), maybe(st.integers(-(2**64), 2**64)),
                                             max_size=3)))
        if data.draw(st.booleans()):
            header[data.draw(st.sampled_from(sorted(header)))] = data.draw(JSON)
        raw = data.draw(st.one_of(st.just(json.dumps(header).encode("utf-8", "surrogatepass")),
                                  mutated_json_bytes(path.read_bytes())))
        path.write_bytes(raw)
        try:
            with within(what="unlock"):
                unlock(path, PASSPHRASE)
        except (HomeError, WrongPassphrase) as exc:
            assert_one_line(exc, str(path))
        for iterations, lanes, memory in derived:
            KdfParams(iterations, lanes, memory).check("derived")


@FUZZ
@given(st.lists(st.one_of(st.binary(max_size=80), JSON.map(lambda v: json.dumps(v).encode("utf-8",
                                                                                          "surrogatepass"))),
                max_size=6))
def test_topic_markers(lines: list[bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        paths = HomePaths(root=Path(tmp) / "home", cache=Path(tmp) / "cache").ensure()
        paths.topics.write_bytes(b"\n".join(line.replace(b"\n", b" ") for line in lines))
        with within(what="read_markers"):
            reading = read_markers(paths)
        for problem in reading.problems:
            assert_one_line(ValueError(problem), "topics.jsonl")


def test_the_sample_restores_cleanly(sample: Sample) -> None:
    """The shared sample is put back after every example (so the examples are independent)."""
    assert verify_home(sample.paths, sample.keys).problems == []
    assert base64.b64decode(json.loads(sample.dvmem)["kdf"]["salt"])
    shutil.rmtree(sample.paths.cache, ignore_errors=True)
