"""Topic marker commands: ``mark`` (the person notes where the conversation is now) and ``topics``."""

from __future__ import annotations

from dataclasses import asdict

import click

from core.textsafe import visible
from tui_app.cli.state import CliState, emit, pass_state


@click.command()
@click.argument("text", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the new marker as JSON.")
@pass_state
def mark(state: CliState, text: tuple[str, ...], as_json: bool) -> None:
    """Add a topic marker: where the conversation is now, in your own words (words are joined by
    spaces, so quotes are optional). Only you write markers; assistants only read them."""
    marker = state.workbench.mark(" ".join(text))
    emit(asdict(marker), as_json, f"Marked at {marker.ts}: {marker.text}")


@click.command()
@click.option(
    "--limit", "-n", type=click.IntRange(min=1), default=20, show_default=True, help="How many markers to show."
)
@click.option("--json", "as_json", is_flag=True, help="Print the markers as JSON.")
@pass_state
def topics(state: CliState, limit: int, as_json: bool) -> None:
    """List topic markers, latest first, in your timezone."""
    from core.turns import parse_ts  # lazy: ~1 ms of patterns, not at every start

    reading = state.workbench.topics.read()
    for problem in reading.problems:
        click.echo(visible(f"reverie: {problem}"), err=True)
    markers = reading.markers[:limit]
    zone = state.config.zone()
    text = (
        "\n".join(f"{parse_ts(m.ts).astimezone(zone):%Y-%m-%d %H:%M}  {m.text}" for m in markers)
        or "No topic markers yet; add one with `reverie mark TEXT`."
    )
    emit([asdict(m) for m in markers], as_json, text)


def register(cli: click.Group) -> None:
    cli.add_command(mark)
    cli.add_command(topics)
