"""``reverie search`` (one query, or ``--batch`` of many) and ``reverie context`` (a prompt block)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from datetime import datetime, tzinfo
from typing import IO, TYPE_CHECKING, Any

import click
import msgspec

from core.errors import ReverieError
from core.textsafe import field_line
from tui_app.cli.state import CliState, LazyChoice, emit, pass_state

if TYPE_CHECKING:
    from core.workbench import SearchAnswer
    from core.workbench.search import SearchForm
    from core.workbench.types import Filters

def _modes() -> tuple[str, ...]:
    from core.workbench.search import SEARCH_MODES  # heavy: the recall stack, ~0.16 s

    return SEARCH_MODES


MODE_CHOICE = LazyChoice(_modes)
BATCH_KEYS = ("query", "now", "tz", "limit", "mode")
TEXT_WIDTH = 300  # characters of each result shown in plain text
FIELD_WIDTH = 80  # characters of an actor, session or id shown in plain text
# A query is at most 2,000 characters (core.recall MAX_QUERY_CHARS); \u-escaped astral characters take 12
# bytes each, so 64 KiB holds the longest query with room for the other fields.
MAX_BATCH_LINE_BYTES = 64 * 1024
_CHUNK = 64 * 1024


def register(cli: click.Group) -> None:
    cli.add_command(search)
    cli.add_command(context)


def _filters(tags: tuple[str, ...], roles: tuple[str, ...], sessions: tuple[str, ...], sources: tuple[str, ...],
             reviewed: bool | None) -> Filters:
    from core.workbench.types import Filters  # lazy: `reverie --version` loads no workbench module

    return Filters(tags=tags, roles=roles, sessions=sessions, sources=sources, reviewed=reviewed)


def _plain(found: SearchAnswer, now: datetime, zone: tzinfo, sealed: dict[str, Any] | None = None) -> str:
    """The answer for people. ``sealed``: memory id → the item as its sealed record says (None: it does not
    verify); without it (no passphrase at hand) memory results are marked unverified: the index is unsigned."""
    from core.turns import parse_ts  # lazy: ~1 ms of patterns, not at every start

    answer = found.result
    lines = []
    if answer.range is not None:
        lines.append(f"range  {answer.range.describe(now)} ({answer.range.grain}) from “{answer.expression}”")
    notes = found.notes
    lines.append(f"mode   {answer.mode}" + (f" — {notes[0]}" if notes else ""))
    lines += [f"note   {note}" for note in notes[1:]]
    if not answer.results:
        lines.append("nothing found")
    for item in answer.results:
        when = f"{parse_ts(item.ts).astimezone(zone):%Y-%m-%d %H:%M}"
        if item.kind == "memory" and sealed is None:
            who = "memory, unverified (no passphrase: as the index says)"
        elif item.kind == "memory" and sealed.get(item.id) is None:
            who = "memory, DOES NOT VERIFY against its sealed record"
        elif item.kind == "memory":
            item = sealed[item.id]
            who = "memory, reviewed" if item.reviewed else "memory, unreviewed"
        else:
            who = f"{field_line(item.actor, FIELD_WIDTH)} ({item.role}) · {field_line(item.session, FIELD_WIDTH)}"
        text = field_line(item.text, TEXT_WIDTH)  # one line of data: nothing in it starts a result of its own
        lines.append(f"{when}  {who}  [{field_line(item.id, FIELD_WIDTH)}]\n    {text}")
    return "\n".join(lines)


@click.command()
@click.argument("query", nargs=-1)
@click.option("--now", "now_text", metavar="ISO8601", default=None, help="Search as if it were this time.")
@click.option("--tz", "tz_name", metavar="ZONE", default=None, help="Timezone of ranges (default: config, system).")
@click.option("--limit", "-k", type=click.IntRange(1, 1000), default=None, help="How many results (default: config).")
@click.option("--mode", type=MODE_CHOICE, default="auto", show_default=True,
              help="auto: what recall does by default (see `reverie search --help`); or one mode.")
@click.option("--tag", "tags", multiple=True, help="Only memories carrying this tag (repeatable).")
@click.option("--role", "roles", multiple=True, help="Only turns of this role: user, assistant, system.")
@click.option("--session", "sessions", multiple=True, help="Only turns of this session.")
@click.option("--source", "sources", multiple=True, help="Only turns imported from this source.")
@click.option("--reviewed/--unreviewed", "reviewed", default=None, help="Only reviewed (or unreviewed) memories.")
@click.option("--batch", "batch", type=click.File("rb"), default=None,
              help='Read one JSON query per line ({"query", "now"?, "tz"?, "limit"?, "mode"?}; - for stdin) '
                   "and write one JSON answer per line.")
@click.option("--sync/--no-sync", default=True, show_default=True,
              help="Bring new turns (a small lag) and the vault's memories (when the passphrase needs no prompt) "
                   "into the index first.")
@click.option("--json", "as_json", is_flag=True, help='Print {"range", "mode", "results", "notes", "index"} as JSON.')
@pass_state
def search(state: CliState, query: tuple[str, ...], now_text: str | None, tz_name: str | None, limit: int | None,
           mode: str, tags: tuple[str, ...], roles: tuple[str, ...], sessions: tuple[str, ...],
           sources: tuple[str, ...], reviewed: bool | None, batch: IO[bytes] | None, sync: bool,
           as_json: bool) -> None:
    """Search conversations and memories: QUERY's time expression bounds the range, the rest is ranked
    inside it. With a range, results come in time order; without, by relevance."""
    if batch is None and not query:
        raise click.UsageError("give a QUERY, or --batch FILE")
    if batch is not None and query:
        raise click.UsageError("give either a QUERY or --batch FILE, not both")
    filters = _filters(tags, roles, sessions, sources, reviewed)
    with state.workbench as workbench:
        if batch is not None:
            if sync:
                workbench.refresh()
            _run_batch(state, batch, filters, now_text, tz_name, limit, mode)
            return
        now, zone = state.clock(now_text, tz_name)
        answer = workbench.search(" ".join(query), now=now, zone=zone, limit=limit, mode=mode, filters=filters,
                                  refresh=sync)
        sealed = None
        if not as_json and workbench.can_unlock_quietly():  # memories as their sealed records say
            sealed = workbench.as_sealed(answer.result.results)
    emit(msgspec.to_builtins(answer.form()), as_json, _plain(answer, now, zone, sealed))


def _batch_lines(handle: IO[bytes]) -> Iterator[tuple[int, str | ReverieError]]:
    """Numbered lines, or why a line cannot be read (not UTF-8, or longer than
    :data:`MAX_BATCH_LINE_BYTES`, which is read through in chunks, never held): it must not end the batch."""
    number = 0
    while raw := handle.readline(MAX_BATCH_LINE_BYTES + 1):
        number += 1
        if len(raw) > MAX_BATCH_LINE_BYTES and not raw.endswith(b"\n"):
            size = len(raw)
            while (more := handle.readline(_CHUNK)) and not more.endswith(b"\n"):
                size += len(more)
            size += len(more.rstrip(b"\r\n"))
            yield number, ReverieError(f"line of {size:,} bytes is over the {MAX_BATCH_LINE_BYTES:,}-byte limit")
            continue
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):  # a BOM, as some Windows editors write
            raw = raw[3:]
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield number, ReverieError(f"not UTF-8 text (byte {exc.start})")


def _batch_item(state: CliState, line: str | ReverieError, filters: Filters,
                defaults: dict[str, Any]) -> SearchForm:
    if isinstance(line, ReverieError):
        raise line
    if not line.strip():
        raise ReverieError("empty line")
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ReverieError(f"not JSON: {exc.msg} at column {exc.colno}") from exc
    if not isinstance(item, dict):
        raise ReverieError("not a JSON object")
    unknown = sorted(set(item) - set(BATCH_KEYS))
    if unknown:
        raise ReverieError(f"unknown field {unknown[0]!r} (known: {', '.join(BATCH_KEYS)})")
    merged = {**defaults, **{k: v for k, v in item.items() if v is not None}}
    if not isinstance(item.get("query"), str):
        raise ReverieError("query: missing or not a string")
    for key in ("now", "tz", "mode"):
        if merged.get(key) is not None and not isinstance(merged[key], str):
            raise ReverieError(f"{key}: must be a string")
    limit = merged.get("limit")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
        raise ReverieError("limit: must be a whole number")
    try:
        now, zone = state.clock(merged.get("now"), merged.get("tz"))
    except click.BadParameter as exc:
        raise ReverieError(exc.format_message().replace("'--", "'")) from exc
    answer = state.workbench.search(item["query"], now=now, zone=zone, limit=limit,
                                    mode=merged.get("mode") or "auto", filters=filters, refresh=False)
    return answer.form()


def _run_batch(state: CliState, handle: IO[bytes], filters: Filters, now_text: str | None,
               tz_name: str | None, limit: int | None, mode: str) -> None:
    """One JSON answer per input line, in order; a bad line answers ``{"line", "error"}`` and the
    batch goes on. The embedding model, if needed, loads once."""
    defaults = {"now": now_text, "tz": tz_name, "limit": limit, "mode": mode}
    for number, line in _batch_lines(handle):
        out: SearchForm | BatchError
        try:
            out = _batch_item(state, line, filters, defaults)
        except ReverieError as exc:
            out = _batch_error(number, str(exc))
        except Exception as exc:  # a failure on one line must not end the batch: report it and go on
            out = _batch_error(number, f"{type(exc).__name__}: {exc}")
        sys.stdout.write(json.dumps(msgspec.to_builtins(out), ensure_ascii=False) + "\n")
        sys.stdout.flush()


class BatchError(msgspec.Struct, frozen=True):
    """The answer of a batch line that could not be searched: its number and why, in one line."""

    line: int
    error: str


def _batch_error(number: int, message: str) -> BatchError:
    return BatchError(number, f"line {number}: {' '.join(message.split())}")


@click.command()
@click.argument("query", nargs=-1)
@click.option("--budget", type=click.IntRange(min=1), default=None, help="Token budget (default: context.budget).")
@click.option("--now", "now_text", metavar="ISO8601", default=None, help="As if it were this time.")
@click.option("--tz", "tz_name", metavar="ZONE", default=None, help="Timezone (default: config, system).")
@click.option("--profile", default=None, help="A sharing profile from config.toml: what the assistant may see.")
@click.option("--sync/--no-sync", default=True, show_default=True,
              help="Bring new turns and the vault's memories into the index first (as search does).")
@click.option("--json", "as_json", is_flag=True, help="Print the block and what is in it as JSON.")
@pass_state
def context(state: CliState, query: tuple[str, ...], budget: int | None, now_text: str | None,
            tz_name: str | None, profile: str | None, sync: bool, as_json: bool) -> None:
    """Print a block for a model's prompt: the latest topic markers, relevant confirmed memories
    (reviewed ones marked), then matching turns, within the token budget."""
    now, zone = state.clock(now_text, tz_name)
    with state.workbench as workbench:
        block = workbench.context(" ".join(query) or None, now=now, zone=zone, budget=budget, profile=profile,
                                  refresh=sync)
    emit(msgspec.to_builtins(block.form()), as_json, block.text or "(nothing to put in the context yet)")
