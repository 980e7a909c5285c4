"""Vault commands: init, locate, draft …, memory …, verify, export, import."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import click
import msgspec

from core.errors import HomeError, ReverieError
from core.frozen import thaw
from core.textsafe import field_line, one_line, visible
from tui_app.cli.state import CliState, emit, pass_state, tell


def _human_age(stamp: str) -> str:
    """``6 days ago``: the TUI's wording (:func:`tui_app.widgets.humane.ago`), so both interfaces say
    an age the same way."""
    from core.workbench.when import utc_now  # lazy: `reverie --version` loads no workbench module
    from tui_app.widgets.humane import ago  # lazy: humanize and rich.cells, ~3 ms at every start

    return ago(stamp, utc_now())


@click.command()
@click.option("--keyring", "use_keyring", is_flag=True, help="Also store the passphrase in the OS keyring.")
@pass_state
def init(state: CliState, use_keyring: bool) -> None:
    """Create the vault in the data home (asks for a new passphrase twice)."""
    workbench = state.workbench
    if workbench.has_vault:
        raise HomeError(f"{state.paths.vault_header}: a vault already exists here")
    passphrase = workbench.access.passphrase_from_environment()
    if not passphrase:
        if not sys.stdin.isatty():
            raise HomeError("no passphrase: set REVERIE_PASSPHRASE or run `reverie init` in a terminal")
        passphrase = click.prompt("New passphrase", hide_input=True, confirmation_prompt=True, err=True)
    workbench.access.create_vault(passphrase, keyring=use_keyring)
    click.echo(f"Created a vault in {state.paths.root}")


@click.command()
@click.option("--json", "as_json", is_flag=True)
@pass_state
def locate(state: CliState, as_json: bool) -> None:
    """Print every path Reverie uses for this home."""
    described = state.paths.describe()
    width = max(len(k) for k in described)
    emit(described, as_json, "\n".join(f"{k:<{width}}  {v}" for k, v in described.items()))


# --- drafts -----------------------------------------------------------------------------------------


@click.group()
def draft() -> None:
    """Capture, review, approve and finalize drafts."""


def _draft_text(d: Any, history: bool = False) -> str:
    lines = [f"{d.draft_id}  [{d.state}]  created {d.created_at} by {field_line(d.created_by)}", f"  {d.content}"]
    if d.tags:
        lines.append(f"  tags: {', '.join(d.tags)}")
    for s in d.suggestions:
        decision = d.decision_for(s.suggestion_id)
        status = "pending" if decision is None else decision.action
        if decision is not None and decision.edited:
            status += f" as {thaw(decision.value)!r}"
        conf = f" conf {s.confidence:.2f}" if s.confidence is not None else ""
        model = f" {field_line(s.model)}" if s.model else ""
        lines.append(
            f"  - {s.suggestion_id}: {s.field_name} = {thaw(s.value)!r}  ({field_line(s.source)}{model}{conf}, "
            f"{_human_age(s.created_at)}) [{status}]"
        )
    if d.approval:
        lines.append(f"  approved by {field_line(d.approval.reviewer)} at {d.approval.approved_at}")
    if d.finalized_memory_id:
        lines.append(f"  finalized as {d.finalized_memory_id} at {d.finalized_at}")
    if history:
        lines.append("  history:")
        lines.extend(f"    {r.occurred_at}  {r.action:<20} {field_line(r.actor)}  {field_line(d.revision_detail(r))}"
                     for r in d.revision_history())
    return "\n".join(lines)


@draft.command("new")
@click.argument("content")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--suggest", "run_suggesters", is_flag=True,
              help="Run the local suggesters (dates, tags, people, places) on the new draft.")
@click.option("--on-duplicate", type=click.Choice(["ask", "replace", "keep-both", "cancel"]), default="ask",
              show_default=True, help="What to do when a finalized memory is a near duplicate.")
@click.option("--no-duplicate-check", is_flag=True, help="Skip the near-duplicate check (it loads the model).")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def draft_new(
    state: CliState,
    content: str,
    tags: tuple[str, ...],
    run_suggesters: bool,
    on_duplicate: str,
    no_duplicate_check: bool,
    as_json: bool,
) -> None:
    """Capture CONTENT as a new draft; prints the draft id.

    A finalized memory at cosine ≥ recall.duplicate_threshold is shown first: replace (the new memory
    records that it supersedes the old one, which curation then offers for cold storage — nothing is
    deleted), keep both, or cancel (nothing is written)."""
    workbench = state.workbench
    choice: Any = on_duplicate.replace("-", "_")
    outcome = workbench.review.capture(content, tags, on_duplicate=choice, check_duplicates=not no_duplicate_check,
                                suggest=run_suggesters)
    for note in outcome.notes:
        tell(note)
    best = outcome.duplicate
    if best is not None:
        click.echo(visible(f"Near duplicate ({best.similarity:.2f}) of {best.memory_id}"
                           f"{' (reviewed)' if best.reviewed else ''}: {best.text[:200]}"), err=True)
    if outcome.needs_choice:
        assert best is not None
        if not sys.stdin.isatty():
            raise ReverieError(f"near duplicate of {best.memory_id} (cosine {best.similarity:.2f}): "
                               "choose with --on-duplicate replace|keep-both|cancel")
        picked = click.prompt("Replace it, keep both, or cancel?", err=True,
                              type=click.Choice(["replace", "keep-both", "cancel"]), default="cancel")
        outcome = workbench.review.capture(content, tags, on_duplicate=picked.replace("-", "_"), suggest=run_suggesters)
    if outcome.draft is None:
        emit({"draft_id": None, "duplicate": msgspec.to_builtins(outcome.decision)}, as_json,
             "cancelled: nothing was written")
        return
    d = outcome.draft
    data = {
        "draft_id": d.draft_id,
        "suggestions": [s.to_dict() for s in d.suggestions],
        "duplicate": msgspec.to_builtins(outcome.decision),
    }
    text = d.draft_id + "".join(
        f"\n  {s.suggestion_id}: {s.field_name} = {s.value!r} ({field_line(s.source)}, conf {s.confidence or 0:.2f})"
        for s in d.suggestions
    )
    emit(data, as_json, text)


def field_value(field: str, value: str, hint: str) -> Any:
    """A suggestion's value as typed on the command line: for a list field (tags, people) a JSON list or
    comma-separated names; for a text field the text as it is; for any other field JSON when it starts
    with { or [, else the text."""
    from core.workbench.types import LIST_FIELDS, TEXT_FIELDS  # lazy: no workbench module at every start

    if field in LIST_FIELDS and not value.lstrip().startswith("["):
        names = [name.strip() for name in value.split(",")]
        if not all(names):
            raise click.BadParameter(f"{field} wants names separated by commas (\"Mina, Dad\") or a JSON list "
                                     f"('[\"Mina\", \"Dad\"]'); got an empty name in {value!r}", param_hint=hint)
        return names
    if field in TEXT_FIELDS or field == "occurred_at" or value.lstrip()[:1] not in ("[", "{"):
        return value
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        want = "a list" if field in LIST_FIELDS else "JSON (it starts with { or [)"
        raise click.BadParameter(f"{field} reads this value as {want}, but it is not valid JSON: {exc.msg} "
                                 f"at column {exc.colno}", param_hint=hint) from exc


@draft.command("suggest")
@click.argument("draft_id")
@click.argument("field")
@click.argument("value")
@click.option("--source", required=True, help="Who suggests it (an assistant, a suggester).")
@click.option("--model")
@click.option("--process-version")
@click.option("--confidence", type=click.FloatRange(0, 1))
@click.option("--id", "suggestion_id", help="A suggestion id (default: generated).")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def draft_suggest(
    state: CliState,
    draft_id: str,
    field: str,
    value: str,
    source: str,
    model: str | None,
    process_version: str | None,
    confidence: float | None,
    suggestion_id: str | None,
    as_json: bool,
) -> None:
    """Attach a suggestion for FIELD to an open draft.

    VALUE is plain text (`location "Seoul Forest"`). The list fields (tags, people) take one name, names
    separated by commas (`people "Mina, Dad"`) or a JSON list (`people '["Mina", "Dad"]'`); any other
    field takes a JSON object or list when VALUE starts with { or [, else text."""
    parsed = field_value(field, value, "VALUE")
    d = state.workbench.review.suggest(draft_id, field, parsed, source, model=model, process_version=process_version,
                                confidence=confidence, suggestion_id=suggestion_id)
    added = d.suggestions[-1]
    emit(added.to_dict(), as_json, added.suggestion_id)


@draft.command("accept")
@click.argument("draft_id")
@click.argument("suggestion_id")
@click.option("--reviewer", required=True)
@click.option("--value", help="Accept with this edit instead of the suggested value (read as `draft suggest` "
              "reads VALUE: for tags and people, comma-separated names or a JSON list).")
@pass_state
def draft_accept(state: CliState, draft_id: str, suggestion_id: str, reviewer: str, value: str | None) -> None:
    """Accept a suggestion (optionally edited); the original stays as provenance."""
    parsed: Any = value
    if value is not None:
        field = next((s.field_name for s in state.workbench.review.draft(draft_id).suggestions
                      if s.suggestion_id == suggestion_id), "")
        parsed = field_value(field, value, "--value")
    state.workbench.review.accept(draft_id, suggestion_id, reviewer=reviewer, value=parsed)
    click.echo(f"accepted {suggestion_id}")


@draft.command("reject")
@click.argument("draft_id")
@click.argument("suggestion_id")
@click.option("--reviewer", required=True)
@pass_state
def draft_reject(state: CliState, draft_id: str, suggestion_id: str, reviewer: str) -> None:
    """Reject a suggestion."""
    state.workbench.review.reject(draft_id, suggestion_id, reviewer=reviewer)
    click.echo(f"rejected {suggestion_id}")


@draft.command("approve")
@click.argument("draft_id")
@click.option("--reviewer", required=True)
@pass_state
def draft_approve(state: CliState, draft_id: str, reviewer: str) -> None:
    """Approve a draft whose suggestions are all decided."""
    state.workbench.review.approve(draft_id, reviewer=reviewer)
    click.echo(f"approved {draft_id}")


@draft.command("finalize")
@click.argument("draft_id")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def draft_finalize(state: CliState, draft_id: str, as_json: bool) -> None:
    """Seal an approved draft as a memory (once); prints the memory id."""
    memory = state.workbench.review.finalize(draft_id)
    emit({"memory_id": memory.memory_id, "draft_id": draft_id}, as_json, memory.memory_id)


@draft.command("list")
@click.option("--state", "wanted", type=click.Choice(["open", "approved", "finalized"]))
@click.option("--json", "as_json", is_flag=True)
@pass_state
def draft_list(state: CliState, wanted: str | None, as_json: bool) -> None:
    """List drafts, oldest first."""
    drafts = state.workbench.review.drafts(wanted)
    data = [
        {
            "draft_id": d.draft_id,
            "state": d.state,
            "created_at": d.created_at,
            "content": d.content,
            "pending": len(d.pending_suggestions()),
            "suggestions": len(d.suggestions),
        }
        for d in drafts
    ]
    text = "\n".join(
        f"{d['draft_id']}  {d['state']:<9} {d['pending']}/{d['suggestions']} pending  "
        f"{one_line(d['content'][:60])}" for d in data
    )
    emit(data, as_json, text or "no drafts")


@draft.command("show")
@click.argument("draft_id")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def draft_show(state: CliState, draft_id: str, as_json: bool) -> None:
    """Show a draft with its suggestions, decisions and revision history."""
    d = state.workbench.review.draft(draft_id)
    data = {
        **d.to_dict(),
        "revision_history": [{**r.to_dict(), "detail": d.revision_detail(r)} for r in d.revision_history()],
        "resolved_fields": json.loads(json.dumps(dict(d.resolved_fields()), default=list)),
    }
    emit(data, as_json, _draft_text(d, history=True))


@draft.command("delete")
@click.argument("draft_id")
@pass_state
def draft_delete(state: CliState, draft_id: str) -> None:
    """Delete an open or approved draft (a finalized one is provenance and stays)."""
    state.workbench.review.delete_draft(draft_id)
    click.echo(f"deleted {draft_id}")


# --- memories ---------------------------------------------------------------------------------------


@click.group()
def memory() -> None:
    """Finalized memories."""


@dataclass(frozen=True)
class ShownMemory:
    """One memory as ``memory show`` prints it; ``--json`` gives these fields in this order."""

    memory_id: str
    content: str | None
    created_at: str | None
    metadata: dict[str, Any] | None
    review: dict[str, Any] | None
    verified: bool

    @classmethod
    def of(cls, m: Any, verified: bool) -> ShownMemory:
        return cls(m.memory_id, m.content, m.created_at, thaw(m.metadata.to_dict()), m.review_summary(), verified)


@dataclass(frozen=True)
class ListedMemoryRow(ShownMemory):
    """One entry of ``memory list``: a memory, or a damaged record (its id and the reason, no content)."""

    damaged: bool = False
    damage: str | None = None

    @classmethod
    def of_entry(cls, entry: Any) -> ListedMemoryRow:
        if entry.memory is None:
            return cls(entry.memory_id, None, None, None, None, False, damaged=True, damage=entry.damage)
        return cls(**asdict(ShownMemory.of(entry.memory, entry.verified)))


@memory.command("list")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def memory_list(ctx: click.Context, as_json: bool) -> None:
    """List finalized memories with their reviewed and verified state. A record that does not verify is
    listed as DAMAGED with the reason, never with its content; exit 1 when any is."""
    state: CliState = ctx.obj
    listed = state.workbench.review.memories()
    rows = [ListedMemoryRow.of_entry(entry) for entry in listed]
    lines = []
    for row in rows:
        if row.damaged or row.review is None or row.content is None:
            lines.append(one_line(f"{row.memory_id}  DAMAGED    {row.damage}"))
            continue
        lines.append(f"{row.memory_id}  {'reviewed' if row.review['reviewed'] else 'unreviewed':<10} "
                     f"{'verified' if row.verified else 'NOT VERIFIED':<12} {one_line(row.content[:60])}")
    emit([asdict(row) for row in rows], as_json, "\n".join(lines) or "no memories")
    ctx.exit(1 if any(entry.damaged for entry in listed) else 0)


@memory.command("show")
@click.argument("memory_id")
@click.option("--json", "as_json", is_flag=True)
@pass_state
def memory_show(state: CliState, memory_id: str, as_json: bool) -> None:
    """Show one memory with its provenance."""
    vault = state.vault()
    row = ShownMemory.of(vault.get_memory(memory_id), memory_id in vault.verified_ids())
    meta = row.metadata or {}
    review = meta["custom"].get("review")
    lines = [
        f"{memory_id}  {'reviewed' if row.review and row.review['reviewed'] else 'unreviewed'}, "
        f"{'verified' if row.verified else 'NOT VERIFIED'}",
        f"  {row.content}",
    ]
    for key in ("title", "occurred_at", "location"):
        if meta.get(key):
            lines.append(f"  {key}: {meta[key]}")
    for key in ("tags", "people"):
        if meta.get(key):
            lines.append(f"  {key}: {', '.join(meta[key])}")
    if review:
        lines.append(f"  approved by {review['approved_by']} at {review['approved_at']}")
        for s in review["suggestions"]:
            decision = next((d for d in review["decisions"] if d["suggestion_id"] == s["suggestion_id"]), None)
            outcome = decision["action"] if decision else "?"
            if decision and decision.get("edited"):
                outcome += f" as {decision['value']!r}"
            lines.append(f"  - {s['field_name']}: {s['value']!r} from {s['source']} {s.get('model') or ''} [{outcome}]")
    emit(asdict(row), as_json, "\n".join(lines))


# --- verify, export, import -------------------------------------------------------------------------


@click.command()
@click.option("--json", "as_json", is_flag=True)
@click.option("--checkpoint", is_flag=True, help="Print the ledger head to keep somewhere else.")
@click.option("--against", "against", metavar="HEAD", help="A head printed earlier by --checkpoint.")
@click.pass_context
def verify(ctx: click.Context, as_json: bool, checkpoint: bool, against: str | None) -> None:
    """Check every record, the ledger chain and the sealed day logs. Exit 1 if anything is wrong."""
    state: CliState = ctx.obj
    report = state.workbench.verify(against or None)
    if checkpoint and not as_json:
        click.echo(str(report.head))
    elif as_json:
        emit(msgspec.to_builtins(report.form()), True)
    else:
        counts = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in report.counts.items())
        click.echo(f"{'intact' if report.ok else 'DAMAGED'}: {counts}; head {report.head}")
        for problem in report.problems:
            click.echo(visible(f"  {problem}"))
    ctx.exit(0 if report.ok else 1)


EXPORT_KINDS = ("rag", "jsonl", "openai", "anthropic", "conversation", "graph", "dvmem")


def _write_output(out: str | None, data: bytes) -> None:
    if out is None or out == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    from core.workbench.local import atomic_write_bytes  # lazy: no workbench module at every start

    atomic_write_bytes(Path(out), data)
    click.echo(f"wrote {out}", err=True)


@click.command("export")
@click.argument("kind", type=click.Choice(EXPORT_KINDS))
@click.option("--out", type=click.Path(dir_okay=False), help="Output file (default: standard output).")
@click.option("--memory", "memory_id", help="The memory to export (dvmem only).")
@click.option("--include-unverified", is_flag=True,
              help="openai/anthropic: also export NOT VERIFIED memories (their system message says so); "
                   "without it such an export is refused.")
@pass_state
def export_cmd(state: CliState, kind: str, out: str | None, memory_id: str | None, include_unverified: bool) -> None:
    """Export finalized memories (drafts never) with their review provenance. A dvmem record is sealed
    under REVERIE_DVMEM_PASSPHRASE when set (a passphrase for the move), else this home's passphrase."""
    state.vault()  # the keys first: a wrong passphrase is told before anything is read
    if kind == "dvmem":
        if not memory_id:
            raise click.UsageError("dvmem exports one memory: give --memory ID")
        exported = state.workbench.review.export_dvmem(memory_id, os.environ.get(DVMEM_PASSPHRASE_ENV) or None)
        _write_output(out or f"{memory_id}.dvmem", exported)
        return
    exporter = state.workbench.review.exporter()
    rows: list[Any]
    if kind == "rag":
        rows = [c.to_dict() for c in exporter.to_rag_chunks()]
    elif kind in ("jsonl", "openai", "anthropic"):
        rows = exporter.to_jsonl(format="generic" if kind == "jsonl" else kind, include_unverified=include_unverified)
    elif kind == "conversation":
        rows = exporter.to_conversation_history()
    else:
        _write_output(
            out, (json.dumps(exporter.to_knowledge_graph().to_dict(), ensure_ascii=False, indent=2) + "\n").encode()
        )
        return
    _write_output(out, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode())


DVMEM_PASSPHRASE_ENV = "REVERIE_DVMEM_PASSPHRASE"


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True)
@pass_state
def import_cmd(state: CliState, file: str, as_json: bool) -> None:
    """Import a .dvmem record after verifying it, sealed again under this home's keys.

    The record opens with the passphrase it was exported with: REVERIE_DVMEM_PASSPHRASE when set, else
    this home's passphrase, and when that is not it, you are asked for it in a terminal (never echoed).
    A wrong passphrase and a file modified after export are told apart."""
    from core.workbench.review import ExportPassphraseWrong  # heavy: the vault and its crypto, ~50 ms

    workbench = state.workbench
    workbench.review.check_dvmem(Path(file))  # the file first: a FIFO, a folder or an oversized file is named as such
    state.vault()  # then this home's keys: its own wrong passphrase is told as such
    given = os.environ.get(DVMEM_PASSPHRASE_ENV) or None
    try:
        done = workbench.review.import_dvmem(Path(file), given)
    except ExportPassphraseWrong as exc:
        if given is not None or not sys.stdin.isatty():
            hint = "" if given is not None else (
                f"; give the passphrase it was exported with in {DVMEM_PASSPHRASE_ENV}, or run "
                "`reverie import` in a terminal to be asked for it")
            raise ExportPassphraseWrong(f"{exc}{hint}") from None
        asked = click.prompt("Passphrase the record was exported with", hide_input=True, err=True)
        done = workbench.review.import_dvmem(Path(file), asked)
    emit(
        {"memory_id": done.memory.memory_id, "added": done.added},
        as_json,
        f"{'imported' if done.added else 'already present'}: {done.memory.memory_id}",
    )


def register(cli: click.Group) -> None:
    for command in (init, locate, draft, memory, verify, export_cmd, import_cmd):
        cli.add_command(command)


__all__ = ["ReverieError", "register"]
