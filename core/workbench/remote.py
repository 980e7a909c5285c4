"""Several machines through the workbench: the remotes of this home, the spool a laptop captures into,
shipping it to the home over OpenSSH, and the home's side that receives it (:mod:`core.remote`).

A home with no vault and a default remote is a *laptop*: ``ingest``, the session-end hook and
``watch --follow`` read and check transcripts as on the home, then spool the turns and ship them
instead of writing a local log."""

from __future__ import annotations

import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import msgspec

from core.conversation.items import latest_ts
from core.errors import ConfigError, HomeError
from core.fsutil import ensure_private_dir
from core.remote.capture import CaptureForm, CaptureReport, SpoolingFollower
from core.remote.capture import capture as capture_into_spool
from core.remote.receive import ReceiveReport
from core.remote.receive import receive as receive_batches
from core.remote.remotes import DEFAULT_COMMAND, NAME, Remote, Remotes, check_name
from core.remote.ship import CommandTransport, Hook, PushReport, RemoteUnreachable
from core.remote.ship import push as ship_spool
from core.remote.spool import Spool
from core.workbench.service import Service

if TYPE_CHECKING:
    from core.conversation.detect import SourcePlan

ShipHook = Callable[[str, str], None]


@dataclass
class SpoolStatus:
    """The laptop's spool and its default remote; ``remote status --json`` prints its fields in declared
    order (``msgspec.to_builtins``)."""

    remote: str | None
    target: str | None
    machine: str
    folder: str
    batches: int
    turns: int
    bytes: int
    limit: int
    oldest_turn: str | None  # the earliest ts among waiting turns
    oldest_spooled: str | None  # when the oldest waiting batch was spooled
    damaged: list[str]
    last_ship: str | None
    last_error: str | None
    last_error_at: str | None


@dataclass
class LaptopCapture:
    """A capture on a laptop: what was spooled, then what shipping did (``push`` None when it failed,
    with ``push_error`` saying why: the turns wait in the spool)."""

    capture: CaptureReport
    push: PushReport | None
    push_error: str | None

    def form(self) -> LaptopCaptureForm:
        """The published form (``ingest --json`` on a laptop)."""
        return LaptopCaptureForm(**msgspec.structs.asdict(self.capture.form()), push=self.push,
                                 push_error=self.push_error)


class LaptopCaptureForm(CaptureForm, frozen=True):
    """A laptop's capture as ``ingest --json`` prints it: the capture's fields, then what shipping did."""

    push: PushReport | None
    push_error: str | None


class RemoteService(Service):
    """Remotes, the spool, shipping and receiving."""

    @property
    def remotes_file(self) -> Path:
        return self.paths.root / "remotes.json"

    def remotes(self) -> Remotes:
        return Remotes.load(self.remotes_file)

    @property
    def spool(self) -> Spool:
        return Spool(self.paths.root / "spool", self.config.remote.spool_max_bytes)

    @property
    def machine(self) -> str:
        """This machine's name on the home (``[remote] machine``, else its host name, made a name)."""
        name = self.config.remote.machine or socket.gethostname().split(".")[0]
        cleaned = "".join(c if c.isalnum() or c in "._-" else "-" for c in name).strip("-.")[:64]
        return cleaned if cleaned and NAME.match(cleaned) else "laptop"

    @property
    def is_laptop(self) -> bool:
        """No vault here and a default remote: captures are shipped, not stored."""
        if self.workbench.has_vault or not self.remotes_file.exists():
            return False
        return self.remotes().default is not None

    # -- remotes -----------------------------------------------------------------------------------

    def add(self, name: str, target: str, *, port: int | None = None, identity: str | None = None,
            command: str | None = None, ssh_options: Sequence[str] = (), default: bool = False) -> Remote:
        """Add (or replace) a remote; the first one, or one added with ``default``, is the default."""
        remote = Remote(name=name, target=target, port=port, identity=identity, command=command or DEFAULT_COMMAND,
                        ssh_options=tuple(ssh_options))
        remotes = self.remotes()
        remotes.remotes[name] = remote
        if default or remotes.default is None:
            remotes.default = name
        ensure_private_dir(self.paths.root)  # only the remotes file: a laptop keeps nothing else
        remotes.save()
        return remote

    def remove(self, name: str) -> Remote:
        """Remove a remote (``NotFound`` for an unknown name); refused while the spool holds turns for it."""
        remotes = self.remotes()
        remote = remotes.get(name)
        if remotes.default == name and self.spool.waiting().records:
            raise HomeError(f"remote {name}: the spool still holds turns for it ({self.spool.folder}); "
                            "`reverie remote push` them first")
        del remotes.remotes[name]
        if remotes.default == name:
            remotes.default = next(iter(sorted(remotes.remotes)), None)
        remotes.save()
        return remote

    # -- laptop --------------------------------------------------------------------------------------

    def capture(self, plan: SourcePlan, *, now: datetime | None = None, transport: CommandTransport | None = None,
                hook: ShipHook | None = None) -> LaptopCapture:
        """Read ``plan``'s transcripts into the spool, then ship the spool; the turns are safe in the
        spool whether or not the home can be reached (then ``push_error`` says why)."""
        report = capture_into_spool(self.spool, plan, now=now)
        try:
            return LaptopCapture(report, self.push(transport=transport, hook=hook), None)
        except RemoteUnreachable as exc:
            return LaptopCapture(report, None, str(exc))

    def follower(self, roots: Sequence[Path | str], on_push: Callable[[PushReport | None, str | None], None],
                 *, transport: CommandTransport | None = None) -> SpoolingFollower:
        """``watch --follow`` on a laptop: each pass spools what is new, then ships the spool."""
        def ship() -> None:
            try:
                on_push(self.push(transport=transport), None)
            except RemoteUnreachable as exc:
                on_push(None, str(exc))

        return SpoolingFollower(self.paths, list(roots), self.spool, after_pass=ship)

    def transport(self, name: str | None = None) -> CommandTransport:
        """``ssh`` to the remote, running its ``remote receive --machine`` for this machine."""
        remote = self.remotes().get(name)
        return CommandTransport(remote.ssh_argv(remote.receive_command(self.machine)), f"ssh {remote.target}")

    def push(self, name: str | None = None, *, transport: CommandTransport | None = None,
             hook: Hook | None = None) -> PushReport:
        """Ship every waiting batch, in order; ``RemoteUnreachable`` when the home cannot take them."""
        remote = self.remotes().get(name)
        return ship_spool(self.spool, transport or self.transport(remote.name), remote.name, hook=hook)

    def status(self) -> SpoolStatus:
        remotes = self.remotes() if self.remotes_file.exists() else None
        remote = remotes.remotes.get(remotes.default) if remotes and remotes.default else None
        spool = self.spool
        waiting = spool.waiting()
        state = spool.state()
        stamps = [record.oldest for record in waiting.records if record.oldest]
        return SpoolStatus(
            remote=remote.name if remote else None, target=remote.target if remote else None, machine=self.machine,
            folder=str(spool.folder), batches=len(waiting.records), turns=sum(r.turns for r in waiting.records),
            bytes=spool.size(), limit=spool.limit, oldest_turn=min(stamps) if stamps else None,
            oldest_spooled=min((r.spooled for r in waiting.records), default=None),
            damaged=[str(bad) for bad in waiting.damaged], last_ship=state.last_ship, last_error=state.last_error,
            last_error_at=state.last_error_at)

    # -- home ----------------------------------------------------------------------------------------

    def receive(self, stdin: BinaryIO, stdout: BinaryIO, *, machine: str,
                hook: ShipHook | None = None) -> ReceiveReport:
        """The home's side of one connection: store each batch from ``machine`` through the ingest path
        (same ids, quarantine, seals), acknowledge it, and catch the index up at the end."""
        check_name(machine, "--machine")
        if self.is_laptop:
            raise ConfigError(f"{self.paths.root}: this home ships to a remote itself (no vault here); "
                              "point the laptop at the home machine's reverie")
        now = self.workbench.now

        def store(decoded: Any) -> Any:
            report = self.workbench.log.ingest_items(decoded.groups)
            for reason, count in decoded.skipped.items():
                report.skip(reason, count)
            return report

        report = receive_batches(stdin, stdout, machine=machine, store=store, latest=lambda: latest_ts(now()),
                                 hook=hook)
        if report.batches:
            self.workbench.refresh(memories=False)
        return report
