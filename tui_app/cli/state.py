"""What every command works with: the home's :class:`~core.workbench.Workbench`, opened once per
process, and the small pieces of output every command shares."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any

import click

from core.errors import VaultLocked
from core.paths import HomePaths
from core.textsafe import visible

if TYPE_CHECKING:
    from core.config import Config
    from core.vault.crypto import KdfParams, VaultKeys
    from core.vault.store import MemoryStore
    from core.workbench import Workbench


class LazyChoice(click.Choice):
    """A ``click.Choice`` whose choices are read on first use, so declaring an option does not import
    the module that defines them (``reverie --version`` stays fast)."""

    def __init__(self, load: Callable[[], Any], case_sensitive: bool = True) -> None:
        self._load = load
        self._loaded: tuple[str, ...] | None = None
        self.case_sensitive = case_sensitive

    @property  # type: ignore[override]
    def choices(self) -> tuple[str, ...]:
        if self._loaded is None:
            self._loaded = tuple(self._load())
        return self._loaded

    @choices.setter
    def choices(self, value: Any) -> None:
        self._loaded = tuple(value)


@dataclass(frozen=True)
class CliOptions:
    """What a caller of the click group may inject (``cli.main(obj=CliOptions(...))``): tests hand in
    cheap Argon2id parameters and a model-free embedder; the console script passes nothing."""

    kdf: KdfParams | None = None
    embedder: Any = None


def ask_passphrase(prompt: str = "Passphrase") -> str:
    """The passphrase from the terminal (never echoed), asked with ``prompt``; refused without one."""
    if not sys.stdin.isatty():
        raise VaultLocked("no passphrase: set REVERIE_PASSPHRASE, enable security.keyring, or run in a terminal")
    return click.prompt(prompt, hide_input=True, err=True)


def tell(line: str) -> None:
    """A line for the person on stderr ("loading the embedding model…"): stdout stays for results."""
    click.echo(visible(f"reverie: {line}"), err=True)


@dataclass
class CliState:
    paths: HomePaths
    options: CliOptions = field(default_factory=CliOptions)
    _workbench: Workbench | None = field(default=None, repr=False)

    @property
    def workbench(self) -> Workbench:
        if self._workbench is None:
            from core.workbench import Workbench  # lazy: ~25 ms; `reverie --version` loads no workbench module

            self._workbench = Workbench(self.paths, kdf=self.options.kdf, embedder=self.options.embedder,
                                        ask_passphrase=ask_passphrase, notice=tell)
        return self._workbench

    @property
    def config(self) -> Config:
        return self.workbench.config

    def clock(self, now_text: str | None, tz_name: str | None = None) -> tuple[datetime, tzinfo]:
        """The moment a command runs as (``--now``, default the current time) and its zone (``--tz``,
        default the config's); a value that cannot be read is click's error naming the option."""
        from core.workbench.when import TimeInputError, parse_zone  # lazy: zoneinfo, ~2 ms at every start

        try:
            zone = parse_zone(tz_name) if tz_name is not None else self.config.zone()
            return self.workbench.now(now_text, zone), zone
        except TimeInputError as exc:
            raise bad_time_input(exc) from exc

    def passphrase(self, prompt: str = "Passphrase") -> str:
        return self.workbench.passphrase_at_hand() or ask_passphrase(prompt)

    def keys(self) -> VaultKeys:
        return self.workbench.keys

    def vault(self) -> MemoryStore:
        return self.workbench.vault


pass_state = click.make_pass_decorator(CliState)


def counted(count: int, word: str, many: str | None = None) -> str:
    """"1 batch", "1,204 turns" (``many``: the plural when it is not ``word`` + "s")."""
    return f"{count:,} {word if count == 1 else (many or word + 's')}"


def emit(data: Any, as_json: bool, text: str | None = None) -> None:
    """Print ``data`` as JSON for scripts, or ``text`` (default: str(data)) for people."""
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))
    else:
        # Stored text (drafts, turns, memories, suggestions) may hold terminal controls: shown escaped.
        click.echo(visible(text if text is not None else str(data)))


def bad_time_input(exc: Exception) -> click.BadParameter:
    """A ``--now``/``--tz`` value the workbench could not read, as click's error naming the option."""
    field_name = getattr(exc, "field", "now")
    return click.BadParameter(getattr(exc, "reason", str(exc)), param_hint=f"'--{field_name}'")


def progress_printer() -> Callable[[str, int, int], None] | None:
    """A one-line progress display on stderr when it is a terminal (nothing otherwise)."""
    if not sys.stderr.isatty():
        return None
    last = [0.0]

    def show(phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] < 0.2 and done < total:
            return
        last[0] = now
        label = "day files" if phase == "files" else "vectors"
        click.echo(f"\r{label}: {done:,}/{total:,}   ", nl=False, err=True)
        if done >= total:
            click.echo("", err=True)

    return show
