"""``reverie when QUERY``: how a query's time expression is understood."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import click

from tui_app.cli.state import CliState, emit, pass_state
from tui_app.cli.when_help import WHEN_HELP

if TYPE_CHECKING:
    from core.timeparse import TimeParse


def register(cli: click.Group) -> None:
    cli.add_command(when)


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


@click.command("when", help=WHEN_HELP, short_help="Show how a query's time expression is understood.")
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
    now, zone = state.clock(now_text, tz_name)
    text = " ".join(query)
    tp = state.workbench.read_time(text, now=now, zone=zone)
    emit(tp.to_dict(), as_json, describe(tp, now))
