"""The home's side of shipping (``reverie remote receive --machine NAME``): read batches from stdin,
store each through the ingest path, acknowledge each on stdout (see :mod:`core.remote.protocol`)."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, BinaryIO

from core.remote.batch import BadBatch, Decoded, decode
from core.remote.protocol import BATCH_LINE, BATCH_MAX, HELLO, ProtocolError, check_hello, read_line, write_line

if TYPE_CHECKING:
    from core.conversation import IngestReport

Store = Callable[[Decoded], "IngestReport"]
Hook = Callable[[str, str], None]  # (event, batch id): "read" (checked, not stored), "stored" (not acked)


@dataclass
class ReceiveReport:
    batches: int = 0
    added: int = 0
    duplicates: int = 0
    quarantined: int = 0
    ended: bool = False  # the laptop said END
    batch_ids: list[str] = field(default_factory=list)


def receive(stdin: BinaryIO, stdout: BinaryIO, *, machine: str, store: Store, latest: Callable[[], str],
            hook: Hook | None = None) -> ReceiveReport:
    """Serve one connection. Every fault is said as ``ERROR <line>`` on ``stdout`` before it is raised;
    a batch is stored whole or not at all as far as its checks go (a kill while storing leaves what
    the ingest path leaves: the next delivery of the same batch completes it, adding nothing twice)."""
    report = ReceiveReport()
    try:
        write_line(stdout, HELLO)
        check_hello(read_line(stdin, "the laptop"), "the laptop")
        while True:
            line = read_line(stdin, "the laptop")
            if line is None:
                return report  # the laptop went away; every acknowledged batch is stored
            if line == "END":
                report.ended = True
                return report
            batch_id, payload = _read_batch(stdin, line)
            decoded = _decode(batch_id, payload, machine, latest())
            if hook:
                hook("read", batch_id)
            stored = store(decoded)
            if hook:
                hook("stored", batch_id)
            quarantined = len(stored.quarantined)
            write_line(stdout, f"ACK {batch_id} {stored.added} {stored.duplicates} {quarantined}")
            report.batches += 1
            report.added += stored.added
            report.duplicates += stored.duplicates
            report.quarantined += quarantined
            report.batch_ids.append(batch_id)
    except ProtocolError as exc:
        _say_error(stdout, str(exc))
        raise


def _read_batch(stdin: BinaryIO, line: str) -> tuple[str, bytes]:
    match = BATCH_LINE.match(line)
    if match is None:
        raise ProtocolError(f"not a protocol line: {line[:80]!r} (expected BATCH or END); nothing of it stored")
    batch_id, length, digest = match.group(1), int(match.group(2)), match.group(3)
    if length > BATCH_MAX:
        raise ProtocolError(f"batch {batch_id}: {length:,} bytes, more than the {BATCH_MAX:,} a batch may have")
    payload = stdin.read(length + 1)
    if len(payload) != length + 1 or not payload.endswith(b"\n"):
        raise ProtocolError(f"batch {batch_id}: cut short ({len(payload):,} of {length + 1:,} bytes); "
                            "nothing of it stored")
    payload = payload[:-1]
    if hashlib.sha256(payload).hexdigest() != digest:
        raise ProtocolError(f"batch {batch_id}: checksum mismatch (the payload is not what was sent); "
                            "nothing of it stored")
    return batch_id, payload


def _decode(batch_id: str, payload: bytes, machine: str, latest: str) -> Decoded:
    try:
        return decode(payload, machine=machine, latest=latest)
    except BadBatch as exc:
        raise ProtocolError(f"batch {batch_id}: {exc}; nothing of it stored") from exc


def _say_error(stdout: BinaryIO, message: str) -> None:
    flat = " ".join(message.split())
    with contextlib.suppress(OSError, ValueError):  # the laptop is gone; the error still reaches stderr
        write_line(stdout, "ERROR " + flat.encode("ascii", "backslashreplace").decode("ascii"))
