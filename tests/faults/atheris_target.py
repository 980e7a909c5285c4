"""A coverage-guided fuzz target (atheris, libFuzzer) over the loaders, for ``test_fuzz_atheris.py``.

    python tests/faults/atheris_target.py -runs=5000 -max_len=4096

The first byte picks the loader, the rest is its input. A loader may return anything or raise its
documented, person-facing errors with a one-line message; anything else ends the run with the input
saved by libFuzzer (``crash-<sha1>``), which replays with ``python tests/faults/atheris_target.py FILE``.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import atheris

with atheris.instrument_imports():
    from core.config import parse_config
    from core.conversation import chatgpt, claude_code, codex, generic
    from core.conversation.lines import RawLine, json_line
    from core.conversation.store import parse_line
    from core.curate.tombstone import Tombstone
    from core.errors import ReverieError
    from core.turns import TurnError
    from core.vault.crypto import VaultKeys
    from core.vault.records import open_memory
    from core.vault.sealed import unseal

KEYS = VaultKeys(encryption_key=b"\x01" * 32, signing_key=b"\x02" * 32)
TMP = Path(tempfile.mkdtemp(prefix="atheris-"))


def _one_line(exc: BaseException) -> None:
    if "\n" in str(exc):
        raise AssertionError(f"{type(exc).__name__} over several lines: {exc!r}")


def _reader(module: object, name: str) -> Callable[[bytes], None]:
    def run(data: bytes) -> None:
        path = TMP / name
        path.write_bytes(data)
        for item in module.read(path, None):  # type: ignore[attr-defined]
            reason = getattr(item, "reason", "")
            if "\n" in reason:
                raise AssertionError(f"a reason over several lines: {reason!r}")

    return run


def _line(data: bytes) -> None:
    try:
        parse_line(data.replace(b"\n", b" "))
    except (TurnError, UnicodeDecodeError) as exc:
        _one_line(exc)
    json_line(RawLine(1, 0, len(data) + 1, data, True))


def _config(data: bytes) -> None:
    try:
        parse_config(data.decode("utf-8", "replace"))
    except ReverieError as exc:
        if "\n" not in repr(data):  # keys with line breaks are a known defect (test_fuzz_config.py)
            _one_line(exc)


def _record(data: bytes) -> None:
    for fmt in ("reverie.memory", "reverie.draft"):
        try:
            unseal(data, fmt, KEYS, "record.json", "mem_x", exact_bytes=True)
        except ReverieError as exc:
            _one_line(exc)
    try:
        open_memory(data, KEYS, "vault/mem_x.json", "mem_x")
    except ReverieError as exc:
        _one_line(exc)


def _tombstone(data: bytes) -> None:
    try:
        Tombstone.from_bytes(data, "a.md.tombstone")
    except ReverieError as exc:
        _one_line(exc)


LOADERS: list[Callable[[bytes], None]] = [
    _line, _config, _record, _tombstone,
    _reader(generic, "chat.jsonl"), _reader(claude_code, "session.jsonl"), _reader(chatgpt, "conversations.json"),
    _reader(codex, "rollout.jsonl"),
]


def test_one_input(data: bytes) -> None:
    if not data:
        return
    LOADERS[data[0] % len(LOADERS)](data[1:])  # any exception that is not a one-line ReverieError is a crash


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
