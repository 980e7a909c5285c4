"""``reverie sessions``: the latest conversations, each with its project and the person's first words."""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

import click

from core.textsafe import visible
from tui_app.cli.state import CliState, emit, pass_state

if TYPE_CHECKING:
    from core.index.catalog import SessionInfo

PROMPT_WIDTH = 100  # characters of the first prompt shown (the JSON has it whole)


def register(cli: click.Group) -> None:
    cli.add_command(sessions)


def _local(ts: str, zone: tzinfo) -> str:
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).astimezone(zone).strftime("%Y-%m-%d %H:%M")


def _one_line(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def describe(items: list[SessionInfo], zone: tzinfo) -> str:
    """Plain text: per session its span in ``zone``, turn count and id, then its header and first prompt."""
    if not items:
        return "no sessions in the index"
    lines = []
    for item in items:
        start, end = _local(item.first_ts, zone), _local(item.last_ts, zone)
        span = start if start == end else f"{start} → {end[11:] if end[:10] == start[:10] else end}"
        turns = f"{item.turns} turn{'' if item.turns == 1 else 's'}"
        lines.append(visible(f"{span}  {turns}  {item.session}", keep_newlines=False, keep_tabs=False))
        if item.header:
            lines.append("  " + visible(_one_line(item.header, PROMPT_WIDTH), keep_newlines=False, keep_tabs=False))
        if item.first_prompt:
            prompt = _one_line(item.first_prompt, PROMPT_WIDTH)
            lines.append("  first: " + visible(prompt, keep_newlines=False, keep_tabs=False))
    return "\n".join(lines)


@click.command()
@click.option("-n", "--limit", type=click.IntRange(min=1), default=20, show_default=True,
              help="How many sessions, the most recently active first.")
@click.option("--json", "as_json", is_flag=True, help="Print the sessions as JSON (first prompts whole).")
@pass_state
def sessions(state: CliState, limit: int, as_json: bool) -> None:
    """List the latest conversation sessions with their project and first prompt."""
    with state.workbench as workbench:
        items = workbench.log.sessions(limit=limit)
        zone = workbench.zone
    emit([item.__dict__ for item in items], as_json, describe(items, zone))
