"""``reverie when QUERY``: how a query's time expression is understood."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import click

from core.timeparse import TimeParse, parse_time
from tui_app.cli.state import CliState, emit, pass_state


def register(cli: click.Group) -> None:
    cli.add_command(when)


def parse_zone(name: str) -> ZoneInfo:
    """``--tz``: an IANA zone name such as Asia/Seoul, or a click.BadParameter naming the option."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError) as exc:
        raise click.BadParameter(
            f"unknown timezone {name!r} (an IANA name such as Asia/Seoul)", param_hint="'--tz'"
        ) from exc


def parse_now(text: str, zone: ZoneInfo) -> datetime:
    """``--now``: ISO 8601; without an offset it is read in ``zone``."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError as exc:
        raise click.BadParameter(
            f"not an ISO 8601 time: {text!r} (e.g. 2026-11-29T15:00+09:00)", param_hint="'--now'"
        ) from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return moment.astimezone(zone)


def describe(tp: TimeParse, now: datetime) -> str:
    """The plain-text form: expression, range (human and ISO), the rest of the query, and one
    ``note`` line per remark of the parser (a typo it read, time-like words it could not read)."""
    notes = [f"note        {note}" for note in tp.notes]
    if tp.range is None:
        return "\n".join(["no time expression", f"rest        {tp.rest}", *notes])
    rng = tp.range
    return "\n".join(
        [
            f"expression  {tp.expression}",
            f"range       {rng.describe(now)}  ({rng.grain})",
            f"            {rng.start.isoformat()} → {rng.end.isoformat()}",
            f"rest        {tp.rest}",
            *notes,
        ]
    )


@click.command("when")
@click.argument("query", nargs=-1, required=True)
@click.option(
    "--now", "now_text", metavar="ISO8601", default=None, help="Read the query as if it were this time (default: now)."
)
@click.option(
    "--tz",
    "tz_name",
    metavar="ZONE",
    default=None,
    help="Timezone of the ranges (default: the config's timezone, else the system's).",
)
@click.option("--json", "as_json", is_flag=True, help="Print {range, expression, rest, notes} as JSON.")
@pass_state
def when(state: CliState, query: tuple[str, ...], now_text: str | None, tz_name: str | None, as_json: bool) -> None:
    """Show how QUERY's time expression is understood: its range [start, end), grain and the rest."""
    zone = parse_zone(tz_name) if tz_name is not None else state.config.zone()
    if now_text is not None:
        now = parse_now(now_text, zone)
    else:
        from core.clock import utc_now

        now = utc_now().astimezone(zone)
    text = " ".join(query)
    tp = parse_time(text, now, zone, state.config.general.languages)
    emit(tp.to_dict(), as_json, describe(tp, now))
