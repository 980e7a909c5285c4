"""The shipping protocol between a laptop's ``remote push`` and the home's ``remote receive``, in ASCII
lines over one ``ssh`` connection (the receiver's stdin and stdout).

Both sides exchange and check ``REVERIE-REMOTE 1``. Per batch, in spool order, the laptop writes
``BATCH <id> <length> <sha256>``, the payload (:mod:`core.remote.batch`) and a newline; the home checks
the checksum, stores the batch through the ingest path, fsyncs, and answers
``ACK <id> <added> <duplicates> <quarantined>``: the laptop drops a batch only after its ACK. ``END``
closes the session (the home catches its index up and exits 0). A fault on the home's side is
``ERROR <one line>``, then exit 2, with nothing of the batch at fault stored.
"""

from __future__ import annotations

import re
from typing import BinaryIO

from core.errors import ReverieError

VERSION = 1
HELLO = f"REVERIE-REMOTE {VERSION}"
HELLO_LINE = re.compile(r"^REVERIE-REMOTE (\d{1,6})\Z")
BATCH_LINE = re.compile(r"^BATCH (\d{10}) (\d{1,12}) ([0-9a-f]{64})\Z")
ACK_LINE = re.compile(r"^ACK (\d{10}) (\d+) (\d+) (\d+)\Z")
LINE_MAX = 4096
BATCH_MAX = 256 * 1024 * 1024  # the largest payload a receiver reads


class ProtocolError(ReverieError):
    """The other side said something this side does not expect; the message is one line."""


def read_line(stream: BinaryIO, what: str) -> str | None:
    """One protocol line without its newline; None at the end of the stream."""
    raw = stream.readline(LINE_MAX + 1)
    if not raw:
        return None
    if not raw.endswith(b"\n"):
        raise ProtocolError(f"{what}: a line longer than {LINE_MAX} bytes or cut short")
    try:
        return raw[:-1].decode("ascii")
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"{what}: not an ASCII protocol line") from exc


def write_line(stream: BinaryIO, line: str) -> None:
    stream.write(line.encode("ascii") + b"\n")
    stream.flush()


def check_hello(line: str | None, who: str) -> None:
    """``ProtocolError`` unless ``line`` is this version's first line."""
    if line is None:
        raise ProtocolError(f"{who} said nothing (expected {HELLO!r})")
    match = HELLO_LINE.match(line)
    if match is None:
        raise ProtocolError(f"{who} did not start with {HELLO!r} (got {line[:80]!r})")
    if int(match.group(1)) != VERSION:
        raise ProtocolError(f"{who} speaks protocol {match.group(1)}, this reverie speaks {VERSION}: "
                            "install the same version of Reverie on both machines")
