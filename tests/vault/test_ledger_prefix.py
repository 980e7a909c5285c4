"""The verified-prefix note (``core.vault.ledger_prefix``): an append checks only what came after it, and
refuses, repairs or proceeds exactly as a full read of the chain would have it."""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from core.errors import RecordError
from core.paths import HomePaths
from core.vault import ledger_prefix
from core.vault.canonical import canonical_json, sha256_hex
from core.vault.crypto import KdfParams, VaultKeys, create_header
from core.vault.ledger import NOTE_EVERY, Ledger, LedgerEntry, entry_line
from core.vault.ledger_prefix import VerifiedPrefix
from core.workbench.verify import verify_home


def _filled(paths: HomePaths, keys: VaultKeys, count: int) -> Ledger:
    ledger = Ledger(paths, keys)
    for n in range(count):
        ledger.append("finalize", f"mem_{n:024d}", sha256_hex(str(n).encode()), {"draft_id": f"drf_{n}"})
    return ledger


def _noted(paths: HomePaths, keys: VaultKeys) -> VerifiedPrefix:
    """Read the whole chain once (a fresh object): that writes the note for all of it."""
    Ledger(paths, keys).read()
    note = ledger_prefix.load(paths.ledger_prefix, keys)
    assert note is not None and note.length == paths.ledger.stat().st_size
    return note


def _append(paths: HomePaths, keys: VaultKeys) -> LedgerEntry:
    return Ledger(paths, keys).append("restore", "cold:notes/a.md", "f" * 64, {"move_id": "mv_x"})


def _no_full_read(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: Ledger) -> None:
        raise AssertionError("the append read the whole chain")

    monkeypatch.setattr(Ledger, "_read_uncached", refuse)


def _lines(paths: HomePaths) -> list[bytes]:
    return paths.ledger.read_bytes().splitlines(keepends=True)


def _write_lines(paths: HomePaths, lines: list[bytes]) -> None:
    paths.ledger.write_bytes(b"".join(lines))


def _other_keys(tmp_path: Path) -> VaultKeys:
    return create_header(tmp_path / "other-vault.json", "another passphrase", KdfParams.for_tests())


def _outcome(paths: HomePaths, keys: VaultKeys) -> tuple[str, bytes]:
    """What an append by a fresh object does: its error (or 'appended'), and the ledger afterwards."""
    try:
        _append(paths, keys)
        result = "appended"
    except RecordError as exc:
        result = str(exc)
    return result, paths.ledger.read_bytes()


# --- the shortcut is taken, and is right ---------------------------------------------------------------


def test_an_append_with_a_current_note_reads_only_the_tail(
    paths: HomePaths, keys: VaultKeys, monkeypatch: pytest.MonkeyPatch
) -> None:
    _filled(paths, keys, 5)
    _noted(paths, keys)
    _filled(paths, keys, 3)  # three entries past the note
    _no_full_read(monkeypatch)
    entry = _append(paths, keys)
    assert entry.seq == 9
    monkeypatch.undo()
    reading = Ledger(paths, keys).read()
    assert not reading.problems and len(reading.entries) == 9


def test_appends_by_one_object_advance_the_note(
    paths: HomePaths, keys: VaultKeys, monkeypatch: pytest.MonkeyPatch
) -> None:
    _filled(paths, keys, 2)
    first = _noted(paths, keys)
    _no_full_read(monkeypatch)
    ledger = Ledger(paths, keys)
    for n in range(NOTE_EVERY + 1):
        ledger.append("seal_day", f"day:2026-01-{n:02d}", "a" * 64)
    note = ledger_prefix.load(paths.ledger_prefix, keys)
    assert note is not None and note.count == first.count + NOTE_EVERY
    raw = paths.ledger.read_bytes()
    assert note.sha256 == sha256_hex(raw[: note.length]) and raw[note.length - 1 : note.length] == b"\n"
    monkeypatch.undo()
    reading = Ledger(paths, keys).read()
    assert not reading.problems and reading.head().seq == 2 + NOTE_EVERY + 1


def test_another_process_appending_between_two_appends_of_one_object(paths: HomePaths, keys: VaultKeys) -> None:
    _filled(paths, keys, 3)
    _noted(paths, keys)
    long_lived = Ledger(paths, keys)
    long_lived.append("seal_day", "day:1", "a" * 64)
    _append(paths, keys)  # someone else
    assert long_lived.append("seal_day", "day:2", "b" * 64).seq == 6
    assert not Ledger(paths, keys).read().problems


def test_a_reading_cached_in_memory_is_still_used(
    paths: HomePaths, keys: VaultKeys, monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger = _filled(paths, keys, 3)
    ledger.read()

    def refuse(self: Ledger) -> None:
        raise AssertionError("read the file again")

    monkeypatch.setattr(Ledger, "_read_tail", refuse)
    monkeypatch.setattr(Ledger, "_read_uncached", refuse)
    assert ledger.append("seal_day", "day:1", "a" * 64).seq == 4
    assert len(ledger.read().entries) == 4


# --- damage: refused exactly as a full read refuses ----------------------------------------------------


def _modify_line(number: int) -> Callable[[HomePaths, Path], None]:
    def damage(paths: HomePaths, tmp_path: Path) -> None:
        lines = _lines(paths)
        lines[number - 1] = lines[number - 1].replace(b"mem_", b"mex_", 1)
        _write_lines(paths, lines)

    return damage


def _delete_line(number: int) -> Callable[[HomePaths, Path], None]:
    def damage(paths: HomePaths, tmp_path: Path) -> None:
        lines = _lines(paths)
        del lines[number - 1]
        _write_lines(paths, lines)

    return damage


def _swap_lines(paths: HomePaths, tmp_path: Path) -> None:
    lines = _lines(paths)
    lines[1], lines[2] = lines[2], lines[1]
    _write_lines(paths, lines)


def _reformat_line(paths: HomePaths, tmp_path: Path) -> None:
    lines = _lines(paths)
    lines[1] = json.dumps(json.loads(lines[1]), indent=1).replace("\n", " ").encode() + b"\n"
    _write_lines(paths, lines)


def _forge_tail(paths: HomePaths, tmp_path: Path) -> None:
    other = _other_keys(tmp_path)
    last = json.loads(_lines(paths)[-1])
    body = {
        "seq": last["seq"] + 1,
        "ts": last["ts"],
        "kind": "finalize",
        "record_id": "mem_planted",
        "record_sha256": "0" * 64,
        "data": {},
        "prev": last["hash"],
    }
    digest = sha256_hex(canonical_json(body))
    entry = LedgerEntry(hash=digest, sig=other.sign(digest.encode("ascii")), **body)  # type: ignore[arg-type]
    with open(paths.ledger, "ab") as handle:
        handle.write(entry_line(entry).encode() + b"\n")


def _truncate(paths: HomePaths, tmp_path: Path) -> None:
    _write_lines(paths, _lines(paths)[:-2])


def _truncate_and_regrow(paths: HomePaths, tmp_path: Path) -> None:
    """Cut into the noted bytes and put back as many bytes of something else."""
    raw = paths.ledger.read_bytes()
    lines = _lines(paths)
    rest = b"".join(lines[:-1])
    paths.ledger.write_bytes(rest + b" " * (len(raw) - len(rest) - 1) + b"\n")


def _forge_head(paths: HomePaths, tmp_path: Path) -> None:
    head = json.loads(paths.ledger_head.read_text())
    head["sig"] = "0" * 64
    paths.ledger_head.write_text(json.dumps(head) + "\n")


def _remove_head(paths: HomePaths, tmp_path: Path) -> None:
    paths.ledger_head.unlink()


def _garbage_line(paths: HomePaths, tmp_path: Path) -> None:
    with open(paths.ledger, "ab") as handle:
        handle.write(b'{"seq": "nope"}\n')


DAMAGES = {
    "earlier entry modified": _modify_line(2),
    "last entry modified": _modify_line(6),
    "entry after the note modified": _modify_line(8),
    "earlier entry deleted": _delete_line(3),
    "entries swapped": _swap_lines,
    "entry re-encoded (same values, other bytes)": _reformat_line,
    "entry signed by another key appended": _forge_tail,
    "ledger truncated below the note": _truncate,
    "ledger truncated and regrown to the noted length": _truncate_and_regrow,
    "head forged": _forge_head,
    "head removed": _remove_head,
    "unreadable line appended": _garbage_line,
}


@pytest.mark.parametrize("name", list(DAMAGES))
def test_a_damaged_ledger_is_refused_exactly_as_without_the_note(
    paths: HomePaths, keys: VaultKeys, tmp_path: Path, name: str
) -> None:
    _filled(paths, keys, 6)
    _noted(paths, keys)
    _filled(paths, keys, 2)  # the note covers entries 1-6; 7 and 8 come after it
    DAMAGES[name](paths, tmp_path)
    damaged = paths.ledger.read_bytes(), paths.ledger_head.read_bytes() if paths.ledger_head.exists() else None
    with_note = _outcome(paths, keys)
    paths.ledger_prefix.unlink(missing_ok=True)
    without_note = _outcome(paths, keys)
    assert with_note == without_note
    assert with_note[0].startswith(f"{paths.ledger}: refusing to append to a damaged ledger (")
    assert with_note[1] == damaged[0]


# --- interrupted appends: completed exactly as before --------------------------------------------------


def test_an_unterminated_last_line_is_set_aside_with_the_note(
    paths: HomePaths, keys: VaultKeys, monkeypatch: pytest.MonkeyPatch
) -> None:
    _filled(paths, keys, 4)
    _noted(paths, keys)
    with open(paths.ledger, "ab") as handle:
        handle.write(b'{"seq": 5, "ts": "2026-')  # a crash mid-append
    _no_full_read(monkeypatch)
    assert _append(paths, keys).seq == 5
    monkeypatch.undo()
    assert [p.read_bytes() for p in paths.root.glob("ledger.jsonl.partial-*")] == [b'{"seq": 5, "ts": "2026-']
    assert not Ledger(paths, keys).read().problems


@pytest.mark.parametrize("noted_after_crash", [False, True])
def test_an_unsigned_head_is_signed_by_the_next_append(
    paths: HomePaths, keys: VaultKeys, noted_after_crash: bool
) -> None:
    _filled(paths, keys, 4)
    _noted(paths, keys)
    head = paths.ledger_head.read_bytes()
    _filled(paths, keys, 1)
    paths.ledger_head.write_bytes(head)  # a crash between appending entry 5 and signing the head
    if noted_after_crash:  # a read in that state notes entry 5 too (its line is clean; the head is not)
        assert [p.kind for p in Ledger(paths, keys).read().problems] == ["incomplete"]
        assert ledger_prefix.load(paths.ledger_prefix, keys).count == 5  # type: ignore[union-attr]
    assert _append(paths, keys).seq == 6
    reading = Ledger(paths, keys).read()
    assert not reading.problems and reading.head().seq == 6


def test_a_ledger_restored_from_an_older_copy_appends_after_its_own_end(paths: HomePaths, keys: VaultKeys) -> None:
    """A stale note (it covers more than the ledger now holds) means a full read, then the append."""
    _filled(paths, keys, 3)
    older = paths.ledger.read_bytes(), paths.ledger_head.read_bytes()
    _filled(paths, keys, 4)
    _noted(paths, keys)
    paths.ledger.write_bytes(older[0])
    paths.ledger_head.write_bytes(older[1])
    assert _append(paths, keys).seq == 4
    note = ledger_prefix.load(paths.ledger_prefix, keys)
    assert note is not None and note.count == 3  # the append's full read noted what it checked
    assert not Ledger(paths, keys).read().problems


# --- the note itself -----------------------------------------------------------------------------------


def _lying_note(paths: HomePaths, keys: VaultKeys) -> VerifiedPrefix:
    """A note for the ledger's current (damaged) bytes, as if they had been verified."""
    raw = paths.ledger.read_bytes()
    last = json.loads(raw.splitlines()[-1])
    count = raw.count(b"\n")
    return (
        VerifiedPrefix(len(raw), count, sha256_hex(raw), count, last["hash"])
        if last["seq"] == count
        else pytest.fail("the damage changed the count")
    )


@pytest.mark.parametrize("how", ["other key", "no signature", "signature of another note", "garbage", "huge"])
def test_a_note_not_signed_by_this_vault_is_ignored(
    paths: HomePaths, keys: VaultKeys, tmp_path: Path, how: str
) -> None:
    _filled(paths, keys, 5)
    _modify_line(2)(paths, tmp_path)
    expected = _outcome(paths, keys)[0]
    note = _lying_note(paths, keys)
    if how == "other key":
        text = note.text(_other_keys(tmp_path))
    elif how == "no signature":
        text = json.dumps({k: v for k, v in json.loads(note.text(keys)).items() if k != "sig"})
    elif how == "signature of another note":
        honest = VerifiedPrefix(note.length, note.count, "e" * 64, note.last_seq, note.last_hash)
        text = json.dumps({**json.loads(note.text(keys)), "sig": json.loads(honest.text(keys))["sig"]})
    elif how == "garbage":
        text = "\x00{not json"
    else:
        text = note.text(keys) + " " * 10_000
    paths.ensure_cache()
    paths.ledger_prefix.write_text(text)
    assert ledger_prefix.load(paths.ledger_prefix, keys) is None
    assert _outcome(paths, keys)[0] == expected


def test_a_broken_note_costs_only_a_full_read(paths: HomePaths, keys: VaultKeys) -> None:
    _filled(paths, keys, 3)
    paths.ensure_cache()
    for text in ("", "{}", '{"format": "reverie/v1/ledger-prefix", "length": true}', "[1, 2]", "\ud800"):
        paths.ledger_prefix.write_text(text, errors="surrogatepass")
        _append(paths, keys)
    assert not Ledger(paths, keys).read().problems
    assert ledger_prefix.load(paths.ledger_prefix, keys) is not None  # written again by the full read


def test_a_cache_that_cannot_be_written_only_costs_speed(paths: HomePaths, keys: VaultKeys) -> None:
    _filled(paths, keys, 2)
    paths.cache.parent.mkdir(parents=True, exist_ok=True)
    paths.cache.write_text("a file where the cache folder belongs")
    assert _append(paths, keys).seq == 3
    assert not Ledger(paths, keys).read().problems


def test_verify_checks_every_entry_whatever_the_note_says(paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> None:
    """Even a note signed by this vault's key for damaged bytes (which only a bug could write) does
    not shorten ``reverie verify``."""
    _filled(paths, keys, 5)
    _modify_line(2)(paths, tmp_path)
    ledger_prefix.save(paths.ledger_prefix, _lying_note(paths, keys), keys)
    report = verify_home(paths, keys)
    assert ("modified", "ledger line 2") in {(p.kind, p.subject) for p in report.problems}
    assert report.counts["ledger_entries"] == 5


@pytest.mark.parametrize("umask", [0o022, 0o000])
def test_the_note_is_private(paths: HomePaths, keys: VaultKeys, umask: int) -> None:
    old = os.umask(umask)
    try:
        shutil.rmtree(paths.cache.parent, ignore_errors=True)
        _filled(paths, keys, 2)
        _noted(paths, keys)
    finally:
        os.umask(old)
    assert paths.ledger_prefix.parent == paths.cache
    assert stat.S_IMODE(paths.ledger_prefix.stat().st_mode) == 0o600
    assert stat.S_IMODE(paths.cache.stat().st_mode) == 0o700
    assert stat.S_IMODE(paths.cache.parent.stat().st_mode) == 0o700
    assert not [p for p in paths.cache.iterdir() if p.name.endswith(".tmp")]


# --- read(full=False): for callers that need the entries, never for verify -----------------------------


def test_a_read_that_trusts_the_note_checks_only_the_tail(
    paths: HomePaths, keys: VaultKeys, monkeypatch: pytest.MonkeyPatch
) -> None:
    _filled(paths, keys, 5)
    _noted(paths, keys)
    _filled(paths, keys, 2)
    expected = Ledger(paths, keys).read()
    _no_full_read(monkeypatch)
    reading = Ledger(paths, keys).read(full=False)
    assert reading.entries == expected.entries and reading.problems == expected.problems == []


@pytest.mark.parametrize("name", list(DAMAGES))
def test_a_read_that_trusts_the_note_reports_damage_as_a_full_read(
    paths: HomePaths, keys: VaultKeys, tmp_path: Path, name: str
) -> None:
    _filled(paths, keys, 6)
    _noted(paths, keys)
    _filled(paths, keys, 2)
    DAMAGES[name](paths, tmp_path)
    trusted = Ledger(paths, keys).read(full=False)
    full = Ledger(paths, keys).read()
    assert trusted.problems == full.problems and trusted.problems
    assert trusted.entries == full.entries


def test_a_full_read_does_not_reuse_a_trusted_reading(paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> None:
    _filled(paths, keys, 4)
    _modify_line(2)(paths, tmp_path)
    ledger_prefix.save(paths.ledger_prefix, _lying_note(paths, keys), keys)  # only a bug could write this
    ledger = Ledger(paths, keys)
    assert ledger.read(full=False).problems == []
    assert ("modified", "ledger line 2") in {(p.kind, p.subject) for p in ledger.read().problems}


# --- Home's verification: verify_home(incremental=True) trusts only a note this vault signed -----------


def test_an_incremental_verification_checks_only_the_ledger_after_the_note(
    paths: HomePaths, keys: VaultKeys, monkeypatch: pytest.MonkeyPatch
) -> None:
    _filled(paths, keys, 5)
    _noted(paths, keys)
    _filled(paths, keys, 2)
    full = verify_home(paths, keys)
    _noted(paths, keys)
    _filled(paths, keys, 1)
    _no_full_read(monkeypatch)
    report = verify_home(paths, keys, incremental=True)
    assert report.counts["ledger_entries"] == full.counts["ledger_entries"] + 1 == 8
    assert [p for p in report.problems if p.subject.startswith("ledger")] == []


@pytest.mark.parametrize("how", ["other key", "no signature", "signature of another note", "this vault's old note"])
@pytest.mark.parametrize("damage", ["earlier entry modified", "entry re-encoded (same values, other bytes)",
                                    "entry signed by another key appended", "earlier entry deleted"])
def test_a_forged_note_does_not_let_an_incremental_verification_skip_a_forged_entry(
    paths: HomePaths, keys: VaultKeys, tmp_path: Path, how: str, damage: str
) -> None:
    """Someone who can write the home but lacks the passphrase changes the ledger and writes a note
    that vouches for the changed bytes: the note is refused (or does not match the bytes), the ledger
    is read in full, and Home's verification reports what ``reverie verify`` reports."""
    _filled(paths, keys, 6)
    old_note = _noted(paths, keys)
    _filled(paths, keys, 2)
    DAMAGES[damage](paths, tmp_path)
    expected = {(p.kind, p.subject) for p in verify_home(paths, keys).problems if p.subject.startswith("ledger")}
    assert expected
    note = _lying_note_for(paths)
    if how == "other key":
        (tmp_path / "attacker").mkdir()
        text = note.text(_other_keys(tmp_path / "attacker"))
    elif how == "no signature":
        text = json.dumps({k: v for k, v in json.loads(note.text(keys)).items() if k != "sig"})
    elif how == "signature of another note":  # this vault's signature, taken from an honest note
        text = json.dumps({**json.loads(note.text(keys)), "sig": json.loads(old_note.text(keys))["sig"]})
    else:  # the honest note of the bytes before the damage, kept or put back
        text = old_note.text(keys)
    paths.ensure_cache()
    paths.ledger_prefix.write_text(text)
    found = {(p.kind, p.subject) for p in verify_home(paths, keys, incremental=True).problems
             if p.subject.startswith("ledger")}
    assert found == expected


def _lying_note_for(paths: HomePaths) -> VerifiedPrefix:
    """The note an attacker would want: every line of the (damaged) ledger, as if verified."""
    raw = paths.ledger.read_bytes()
    raw = raw[: raw.rfind(b"\n") + 1]
    count = raw.count(b"\n")
    last = json.loads(raw.splitlines()[-1])
    return VerifiedPrefix(len(raw), count, sha256_hex(raw), count, last["hash"] if last["seq"] == count else "0" * 64)
