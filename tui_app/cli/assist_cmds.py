"""Commands for assistants: ``mcp``, ``api`` (and ``api token``), ``share check`` and ``suggest``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
import msgspec

from core.frozen import thaw
from core.textsafe import field_line
from tui_app.cli.state import CliState, emit, pass_state

if TYPE_CHECKING:
    from core.sharing import ShareCheck
    from core.suggest import SuggestRun

TEXT_WIDTH = 160


def register(cli: click.Group) -> None:
    for command in (mcp, api, share, suggest):
        cli.add_command(command)


@click.command()
@click.option("--profile", default="default", show_default=True,
              help="The sharing profile (config.toml [sharing.profiles.NAME]) that decides what the assistant sees.")
@click.option("--assistant", default=None,
              help="The name recorded on drafts and suggestions (default: the name the MCP client gives).")
@pass_state
def mcp(state: CliState, profile: str, assistant: str | None) -> None:
    """Serve the assistant tools over stdio (Model Context Protocol): recall, where_are_we, context,
    propose_memory, suggest. The passphrase comes from REVERIE_PASSPHRASE or the keyring: the server
    never prompts. Configuration for Claude Code, Claude Desktop and Codex: docs/assistants.md."""
    from tui_app.mcp.server import serve_stdio  # lazy: core.assist, ~0.15 s, for this command only

    serve_stdio(state.paths, state.config, profile, assistant)


@click.group(invoke_without_command=True)
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port on 127.0.0.1 (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Loopback only; anything else is refused.")
@click.option("--profile", default="default", show_default=True, help="The sharing profile that decides what is seen.")
@click.pass_context
def api(ctx: click.Context, port: int, host: str, profile: str) -> None:
    """Serve the same read-and-propose surface over HTTP on 127.0.0.1, every request with the bearer
    token of `reverie api token`. The OpenAPI document is at /v1/openapi.json."""
    if ctx.invoked_subcommand is not None:
        return
    from tui_app.api.serve import make_server  # lazy: uvicorn, starlette and core.assist, ~0.3 s

    state: CliState = ctx.obj
    server = make_server(state.paths, state.config, keys=state.keys, profile=profile, host=host, port=port)
    click.echo(f"reverie api: serving {server.url} (profile {profile}); Ctrl-C stops", err=True)
    server.run()


@api.command("token")
@click.option("--rotate", is_flag=True, help="Replace the token (clients using the old one are refused).")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def api_token(state: CliState, rotate: bool, as_json: bool) -> None:
    """Print the API's bearer token, creating it (0600, in the home) when there is none."""
    from tui_app.api.token import ensure_token, token_path  # lazy: `reverie --version` loads no workbench module

    token, created = ensure_token(state.paths, rotate=rotate)
    if created:
        click.echo(f"reverie: new API token stored in {token_path(state.paths)}", err=True)
    emit({"token": token, "path": str(token_path(state.paths)), "created": created}, as_json, token)


@click.group()
def share() -> None:
    """Sharing profiles: what each assistant may see."""


def _check_text(check: ShareCheck, profile: str) -> str:
    shared = check.shared
    lines = [f"profile {profile}: the assistant receives {len(shared.result.results)} result(s), "
             f"~{shared.tokens} tokens, mode {shared.result.mode}"]
    if shared.result.range is not None:
        lines.append(f"range   {shared.result.range.to_dict()['start']} → {shared.result.range.to_dict()['end']}"
                     f" from “{shared.result.expression}”")
    for item in shared.result.results:
        label = ("memory, reviewed" if item.reviewed else "memory, unreviewed") if item.kind == "memory" else "turn"
        text = " ".join(item.text.split())
        lines.append(f"  + {item.ts[:16]}  {label}  [{item.id}]\n      {text[:TEXT_WIDTH]}")
    withheld = [c for c in check.found if c.reason is not None]
    if withheld:
        lines.append(f"withheld ({len(withheld)} of what the same query finds without the profile):")
        lines.extend(f"  - [{c.item.id}] {c.item.kind}: {c.reason}" for c in withheld)
    if shared.cut:
        lines.append(f"{shared.cut} result(s) cut to fit max_tokens")
    return "\n".join(lines)


@share.command("check")
@click.argument("profile")
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", "-k", type=click.IntRange(1, 100), default=None, help="How many results (default: config).")
@click.option("--now", "now_text", metavar="ISO8601", default=None, help="As if it were this time.")
@click.option("--json", "as_json", is_flag=True, help="The assistant's exact answer, and what was withheld.")
@pass_state
def share_check(state: CliState, profile: str, query: tuple[str, ...], limit: int | None, now_text: str | None,
                as_json: bool) -> None:
    """Show exactly what an assistant using PROFILE would receive for QUERY, and what it would not."""
    now, _ = state.clock(now_text)
    with state.workbench as workbench:
        check = workbench.share_check(profile, " ".join(query), now=now, limit=limit)
    data = {"profile": profile, "answer": msgspec.to_builtins(check.shared.form()),
            "withheld": [{"id": c.item.id, "kind": c.item.kind, "reason": c.reason}
                         for c in check.found if c.reason is not None]}
    emit(data, as_json, _check_text(check, profile))


def _run_text(run: SuggestRun, show_all: bool) -> str:
    lines = [f"{run.draft.draft_id}: {len(run.added)} suggestion(s) added"]
    lines.extend(f"  + {s.suggestion_id}: {s.field_name} = {thaw(s.value)!r}  "
                 f"({field_line(s.source)}, {field_line(s.model)}, conf {s.confidence:.2f})" for s in run.added)
    if show_all:
        for found in run.found:
            p = found.proposal
            mark = "attach" if p.attach else "below threshold"
            lines.append(f"  · {found.suggester}: {p.field_name} = {p.value!r}  conf {p.confidence:.2f} "
                         f"[{mark}] — {p.why}")
    lines.extend(f"  note: {note}" for note in run.notes)
    return "\n".join(lines)


@click.command()
@click.argument("draft_id")
@click.option("--only", "only", multiple=True,
              help="Run only this suggester: dates, tags, people, places (repeatable).")
@click.option("--all", "show_all", is_flag=True, help="Also show what stayed under each suggester's threshold.")
@click.option("--dry-run", is_flag=True, help="Show what would be added; change nothing.")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def suggest(state: CliState, draft_id: str, only: tuple[str, ...], show_all: bool, dry_run: bool,
            as_json: bool) -> None:
    """Run the local suggesters on an open draft (no network): dates in the text as occurred_at, tags
    of similar confirmed memories, people and places confirmed before. They only suggest: accept,
    edit or reject each with `reverie draft accept/reject`."""
    run = state.workbench.review.run_suggesters(draft_id, only=only, save=not dry_run)
    data = {
        "draft_id": run.draft.draft_id,
        "added": [s.to_dict() for s in run.added],
        "found": [{"suggester": f.suggester, "field": f.proposal.field_name, "value": f.proposal.value,
                   "confidence": f.proposal.confidence, "attach": f.proposal.attach, "why": f.proposal.why}
                  for f in run.found],
        "notes": run.notes,
        "saved": bool(run.added) and not dry_run,
    }
    emit(data, as_json, _run_text(run, show_all))
