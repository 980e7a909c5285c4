"""The remotes of a home: where a machine without a vault ships what it captures.

``<home>/remotes.json`` (0600, written atomically by ``reverie remote add`` / ``remove``)::

    {"default": "home",
     "remotes": {"home": {"target": "me@desk", "port": 22, "identity": "~/.ssh/id_ed25519",
                          "command": "reverie", "ssh_options": ["ConnectTimeout=5"]}}}

The first remote added is the default; a home with a default remote and no vault is a *laptop*:
its captures go to the spool and on to that remote instead of into a local log.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from core.errors import ConfigError, NotFound
from core.fsutil import atomic_write_text
from core.typed import convert

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")
_TARGET = re.compile(r"^(?:[A-Za-z0-9._-]{1,64}@)?[A-Za-z0-9._:\[\]-]{1,253}\Z")
_SSH_OPTION = re.compile(r"^[A-Za-z]{1,40}=[^\s]{1,200}\Z")
# Options a remote may not set: they would run local commands or open ports.
_FORBIDDEN_OPTIONS = ("proxycommand", "localcommand", "permitlocalcommand", "localforward", "remoteforward",
                      "dynamicforward", "knownhostscommand", "match")
DEFAULT_COMMAND = "reverie"


def check_name(name: str, what: str = "remote name") -> str:
    if not NAME.match(name):
        raise ConfigError(f"{what} {name[:80]!r}: letters, digits, '.', '_' and '-' only (up to 64), "
                          "starting with a letter or digit")
    return name


@dataclass(frozen=True)
class Remote:
    name: str
    target: str  # USER@HOST or HOST
    port: int | None = None
    identity: str | None = None
    command: str = DEFAULT_COMMAND  # how the home's shell runs reverie (a path, or a command line)
    ssh_options: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        check_name(self.name)
        if not _TARGET.match(self.target) or self.target.startswith("-"):
            raise ConfigError(f"remote {self.name}: target {self.target[:80]!r} is not USER@HOST")
        if self.port is not None and not 1 <= self.port <= 65535:
            raise ConfigError(f"remote {self.name}: port {self.port} is not in 1..65535")
        if not self.command.strip() or "\n" in self.command:
            raise ConfigError(f"remote {self.name}: command is empty or spans lines")
        for option in self.ssh_options:
            if not _SSH_OPTION.match(option) or option.split("=", 1)[0].lower() in _FORBIDDEN_OPTIONS:
                raise ConfigError(f"remote {self.name}: ssh option {option[:80]!r} is not KEY=VALUE or is not allowed")

    def ssh_argv(self, remote_command: str) -> list[str]:
        """``ssh -o BatchMode=yes ... TARGET -- remote_command``: never a prompt, never a tty."""
        argv = ["ssh", "-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=15", "-o", "ServerAliveInterval=15",
                "-o", "ServerAliveCountMax=4"]
        if self.port is not None:
            argv += ["-p", str(self.port)]
        if self.identity:
            argv += ["-i", str(Path(self.identity).expanduser()), "-o", "IdentitiesOnly=yes"]
        for option in self.ssh_options:
            argv += ["-o", option]
        return [*argv, "--", self.target, remote_command]

    def receive_command(self, machine: str) -> str:
        """The line the home's shell runs: ``COMMAND remote receive --machine MACHINE``."""
        return f"{self.command} remote receive --machine {shlex.quote(machine)}"

    def entry(self) -> RemoteEntry:
        """The remote as ``remotes.json`` holds it, under its name."""
        return RemoteEntry(self.target, self.port, self.identity, self.command, list(self.ssh_options))


class RemoteEntry(msgspec.Struct):
    """One remote in ``remotes.json`` (its name is the key it is stored under). A missing or empty
    ``command`` is the default one."""

    target: str
    port: int | None = None
    identity: str | None = None
    command: str | None = DEFAULT_COMMAND
    ssh_options: list[str] | None = None


@dataclass
class Remotes:
    path: Path
    remotes: dict[str, Remote] = field(default_factory=dict)
    default: str | None = None

    @classmethod
    def load(cls, path: Path) -> Remotes:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls(path)
        except (OSError, ValueError) as exc:
            raise ConfigError(f"{path}: cannot be read as JSON ({exc})") from exc
        if not isinstance(data, dict) or not isinstance(data.get("remotes"), dict):
            raise ConfigError(f"{path}: remotes: missing or not a table")
        remotes = {}
        for name, entry in data["remotes"].items():
            if not isinstance(entry, dict):
                raise ConfigError(f"{path}: remotes.{name}: not a table")
            stored = convert(entry, RemoteEntry, f"{path}: remotes.{name}", ConfigError)
            try:
                remotes[name] = Remote(name=name, target=stored.target, port=stored.port, identity=stored.identity,
                                       command=stored.command or DEFAULT_COMMAND,
                                       ssh_options=tuple(stored.ssh_options or ()))
            except ConfigError as exc:
                raise ConfigError(f"{path}: {exc}") from exc
        default = data.get("default")
        if default is not None and default not in remotes:
            raise ConfigError(f"{path}: default: no remote {default!r}")
        return cls(path, remotes, default)

    def save(self) -> None:
        body = {"default": self.default,
                "remotes": {n: msgspec.to_builtins(r.entry()) for n, r in sorted(self.remotes.items())}}
        atomic_write_text(self.path, json.dumps(body, ensure_ascii=False, indent=2) + "\n")

    def get(self, name: str | None = None) -> Remote:
        chosen = name or self.default
        if chosen is None:
            raise NotFound("no remote: add one with `reverie remote add NAME USER@HOST`")
        if chosen not in self.remotes:
            raise NotFound(f"no remote {chosen!r} (known: {', '.join(sorted(self.remotes)) or 'none'})")
        return self.remotes[chosen]
