"""The laptop's side of shipping (``reverie remote push``): the spool's waiting batches, in order, over
one connection to the home's ``remote receive``; a batch leaves the spool only after its ACK.

The connection is a :class:`CommandTransport`: a child process whose stdin and stdout carry the
protocol (:mod:`core.remote.protocol`) — ``ssh`` for a real remote (:meth:`Remote.ssh_argv`), any
command for a test. Its stderr goes to a temporary file, read only to explain a failure.
"""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from core import clock
from core.errors import ReverieError
from core.remote.protocol import ACK_LINE, HELLO, ProtocolError, check_hello, read_line, write_line
from core.remote.spool import Spool
from core.turns import format_ts

Hook = Callable[[str, str], None]  # (event, batch id): "connect", "send", "sent" (not yet acked), "acked"


class RemoteUnreachable(ReverieError):
    """The home could not be reached, or its reverie could not take the batches; they stay spooled."""


@dataclass
class Channel:
    process: subprocess.Popen[bytes]
    stderr: IO[bytes]
    describe: str
    finished: tuple[int | None, str] | None = None

    @property
    def stdin(self) -> Any:
        return self.process.stdin

    @property
    def stdout(self) -> Any:
        return self.process.stdout

    def finish(self, timeout: float = 30.0) -> tuple[int | None, str]:
        """Close our end, wait for the child, and return (exit code, last lines of its stderr); once."""
        if self.finished is not None:
            return self.finished
        with contextlib.suppress(OSError, ValueError):
            self.process.stdin.close()  # type: ignore[union-attr]
        try:
            code: int | None = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self.stderr.seek(0)
        text = self.stderr.read().decode("utf-8", "replace")
        self.stderr.close()
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        self.finished = (code, " / ".join(lines[-2:])[:400])
        return self.finished


@dataclass(frozen=True)
class CommandTransport:
    argv: Sequence[str]
    describe: str  # "ssh me@desk", named in errors

    def open(self) -> Channel:
        stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by Channel.finish
        try:
            process = subprocess.Popen(list(self.argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        except OSError as exc:
            stderr.close()
            raise RemoteUnreachable(f"{self.describe}: cannot run {self.argv[0]!r}: {exc.strerror or exc}") from exc
        return Channel(process, stderr, self.describe)


@dataclass
class PushReport:
    """What a push shipped; its JSON form (``remote push --json``) is its fields in declared order."""

    remote: str
    batches: int = 0
    turns: int = 0
    added: int = 0
    duplicates: int = 0
    quarantined: int = 0
    damaged: list[str] = field(default_factory=list)  # spool records named and set aside, never shipped
    waiting: int = 0  # batches still in the spool after this push


def push(spool: Spool, transport: CommandTransport, remote: str, *, hook: Hook | None = None) -> PushReport:
    """Ship every waiting batch; :class:`RemoteUnreachable` (recorded as the spool's last error) when the
    home cannot take them: what was acknowledged before is dropped, the rest waits."""
    report = PushReport(remote)
    with spool.push_lock():
        waiting = spool.waiting()
        for bad in waiting.damaged:
            spool.set_aside(bad)
            report.damaged.append(str(bad))
        if waiting.records:
            try:
                _ship(spool, transport, waiting.records, report, hook)
            except (RemoteUnreachable, ProtocolError, OSError) as exc:
                message = str(exc) if isinstance(exc, ReverieError) else f"{transport.describe}: {exc}"
                state = spool.state()
                state.last_error, state.last_error_at = message, format_ts(clock.utc_now())
                spool.save_state(state)
                spool.drop_settled()
                raise RemoteUnreachable(message) from exc
        spool.drop_settled()
        report.waiting = len(spool.waiting().records)
    return report


def _ship(spool: Spool, transport: CommandTransport, records: list[Any], report: PushReport,
          hook: Hook | None) -> None:
    if hook:
        hook("connect", records[0].batch_id)
    channel = transport.open()
    try:
        try:
            first = read_line(channel.stdout, "the home")
            check_hello(first, "the home")
        except ProtocolError as exc:
            raise _explain(channel, str(exc)) from exc
        write_line(channel.stdin, HELLO)
        for record in records:
            if hook:
                hook("send", record.batch_id)
            channel.stdin.write(f"BATCH {record.batch_id} {len(record.payload)} {record.sha256}\n".encode("ascii"))
            channel.stdin.write(record.payload + b"\n")
            channel.stdin.flush()
            if hook:
                hook("sent", record.batch_id)
            _acknowledged(channel, record.batch_id, report)
            if hook:
                hook("acked", record.batch_id)
            state = spool.state()
            state.acked, state.last_ship = record.batch, format_ts(clock.utc_now())
            spool.save_state(state)
            report.batches += 1
            report.turns += record.turns
        write_line(channel.stdin, "END")
    except BrokenPipeError as exc:
        raise _explain(channel, "the connection closed while sending") from exc
    finally:
        channel.finish()


def _acknowledged(channel: Channel, batch_id: str, report: PushReport) -> None:
    line = read_line(channel.stdout, "the home")
    if line is not None and line.startswith("ERROR "):
        raise RemoteUnreachable(f"{channel.describe}: the home refused batch {batch_id}: {line[6:]}")
    match = ACK_LINE.match(line or "")
    if match is None or match.group(1) != batch_id:
        raise _explain(channel, f"no acknowledgement of batch {batch_id} (got {(line or 'nothing')[:80]!r})")
    report.added += int(match.group(2))
    report.duplicates += int(match.group(3))
    report.quarantined += int(match.group(4))


def _explain(channel: Channel, what: str) -> RemoteUnreachable:
    """One line for a connection that did not speak the protocol: ssh could not connect (255), the
    home has no reverie (127), or one too old to know ``remote receive``."""
    code, errors = channel.finish(timeout=10)
    where = channel.describe
    if code == 255:
        return RemoteUnreachable(f"{where}: cannot reach the home ({errors or 'ssh exited with 255'}); "
                                 "the batches stay in the spool")
    if code == 127 or "not found" in errors.lower() or "no such file" in errors.lower():
        return RemoteUnreachable(f"{where}: the home has no reverie at this command ({errors or 'exit 127'}); "
                                 "install Reverie there or give its path with `reverie remote add ... --command PATH`")
    if "no such command" in errors.lower():
        return RemoteUnreachable(f"{where}: the home's reverie is too old for `remote receive` ({errors}); "
                                 "upgrade it to this version")
    detail = f"; it said: {errors}" if errors else (f"; exit {code}" if code else "")
    return RemoteUnreachable(f"{where}: {what}{detail}")
