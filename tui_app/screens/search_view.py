"""How the search screen says things: the range as understood, the mode used, the filter bar, and
each result's time, speaker, kind and text. Pure functions returning Textual ``Content``; record
text is never read as markup."""

from __future__ import annotations

from datetime import datetime, tzinfo

from textual.content import Content, Span
from textual.screen import Screen

from core.textsafe import field_line, visible
from core.turns import parse_ts
from core.workbench.freshness import Freshness
from core.workbench.search import TermMarks
from core.workbench.types import RecallItem, RecallResult
from tui_app.views.search_backend import MODES, SearchFilters, SearchReply
from tui_app.widgets.format import plural, preview, wrap_lines
from tui_app.widgets.humane import age

Parts = list[Content | tuple[str, str] | str]
HINT = "Type a question. Time words bound it: yesterday · last Tuesday night · 지난주 화요일 밤 · 先週の火曜日の夜"
HIGHLIGHT = "bold $text-accent"
DETAIL_LINES = 3  # the highlighted result below the results: where it comes from, then its text (#search-detail)
MIN_TAGS = 12  # cells left on the detail's last head line for a memory's tags to be worth showing


def assemble(*parts: Content | tuple[str, str] | str) -> Content:
    """``Content.assemble``, with the leading spaces of each part split off in another style.

    SVG renderers such as librsvg drop the spaces a styled span starts with, which ran words together
    in screenshots ("me(user)"); a span of spaces alone loses nothing, since every span is placed at
    its own column."""
    out: list[Content | tuple[str, str] | str] = []
    for part in parts:
        if isinstance(part, Content):
            out.append(part)
            continue
        text, style = (part, "") if isinstance(part, str) else part
        body = text.lstrip(" ")
        if body and body != text:
            out += [(text[: len(text) - len(body)], "" if style else "dim"), (body, style)]
        else:
            out.append((text, style))
    return Content.assemble(*out)


def live_key(screen: Screen[object], binding_id: str, default: str) -> str:
    """The key that runs ``binding_id`` on ``screen`` now, as the footer shows it (remapped or not)."""
    for active in screen.active_bindings.values():
        if active.binding.id == binding_id:
            return screen.app.get_key_display(active.binding)
    return default


def exact_time(stamp: str, zone: tzinfo, now: datetime) -> str:
    """``Tue 3 Nov 18:12`` in ``zone`` (with the year when it is not ``now``'s year)."""
    moment = parse_ts(stamp).astimezone(zone)
    year = f" {moment.year}" if moment.year != now.astimezone(zone).year else ""
    return f"{moment:%a} {moment.day} {moment:%b}{year} {moment:%H:%M}"


def when_text(stamp: str, zone: tzinfo, now: datetime) -> Content:
    """Exact, then how long ago in the person's language: ``Tue 3 Nov 18:12 7 days`` (``3일``, ``7日``;
    ``now`` for the last minute)."""
    return assemble(exact_time(stamp, zone, now), (f" {age(stamp, now)}", "dim"))


def understood_text(result: RecallResult | None, query: str, now: datetime) -> Content:
    """The time range as it was understood, and what is left to rank by."""
    if not query.strip():
        return Content.styled(HINT, "dim")
    if result is None:
        return Content.styled("…", "dim")
    parts: Parts = []
    if result.range is not None:
        parts += [(result.expression or "", "bold"), " → ", (result.range.describe(now), "bold $text-accent")]
        parts.append((f" ({result.range.grain.replace('_', ' ')})", "dim"))
    else:
        parts.append(("no time expression", "$text-warning"))
    rest = " ".join(result.rest.split())
    if rest and any(ch.isalnum() for ch in rest):
        parts += [(" · ranked by ", "dim"), f"“{rest}”"]
    elif result.range is not None:
        parts.append((" · nothing else to rank by: the latest in the range", "dim"))
    return assemble(*parts)


def mode_text(answer: SearchReply | None, requested: str, busy: str = "") -> Content:
    """Which mode produced the results (and why, when auto fell back), how many, in which order."""
    if busy:
        return Content.styled(busy, "dim italic")
    if answer is None:
        return Content("")
    if answer.error is not None:
        return assemble(("✗ ", "bold $text-error"), (answer.error, "$text-error"))
    result = answer.result
    assert result is not None
    used = result.mode
    parts: Parts = [("auto → " if requested == "auto" else "", "dim"), (used, "bold")]
    count = len(result.results)
    order = "in time order" if result.range is not None else "by relevance"
    parts.append((f" · {plural(count, 'result')} {order}" if count else " · nothing found", ""))
    if result.note:
        fell_back = requested == "auto" and used != "exact"
        parts.append((f" — {result.note}", "bold $text-warning" if fell_back else "dim"))
    parts.extend((f" · {note}", "dim") for note in answer.notes)  # the index's completeness
    return assemble(*parts)


def filter_bar(mode: str, filters: SearchFilters) -> Content:
    """``Mode  auto exact semantic hybrid │ tags any · role user · session any``."""
    parts: Parts = [("Mode ", "bold")]
    for name in MODES:
        parts.append((f" {name} ", "reverse bold") if name == mode else f" {name} ")
    parts.append(("  │ ", "dim"))
    values = (("tags", ", ".join(filters.tags)), ("role", filters.role), ("session", filters.session))
    for index, (name, value) in enumerate(values):
        if index:
            parts.append((" · ", "dim"))
        parts += [(f"{name} ", "dim"), (preview(value, 24), "bold $text-accent") if value else ("any", "dim")]
    return assemble(*parts)


def index_text(state: Freshness | None, mode_key: str) -> Content:
    """What the index holds, shown before the first query (``mode_key`` switches the mode)."""
    if state is None:
        return Content.styled("Opening the index…", "dim italic")
    vectors = (
        f"{state.vectors:,} vectors ({state.model})"
        if state.vectors
        else f"no vectors yet: semantic or hybrid mode ({mode_key}) builds them"
    )
    waiting = f", {state.pending_vectors:,} waiting" if state.vectors and state.pending_vectors else ""
    if state.shadow_model:
        done, total = state.shadow_vectors, state.shadow_vectors + state.shadow_pending
        waiting += f", re-embedding with {state.shadow_model}: {done:,} of {total:,}"
    added = f" · {state.caught_up_turns:,} new turns indexed" if state.caught_up_turns else ""
    return Content.styled(
        f"Index: {state.turns:,} turns · {state.memories:,} memories · {vectors}{waiting}{added}", "dim"
    )


def speaker_name(item: RecallItem) -> str:
    """Who said it, as the results show it: the turn's actor, ``you`` for a memory."""
    return "you" if item.kind == "memory" else (item.actor or "—")


def speaker_text(item: RecallItem, label: str | None = None) -> Content:
    """The speaker, styled by role; ``label`` is the name as a narrow column shows it
    (:func:`~tui_app.widgets.format.speaker_labels`)."""
    if item.kind == "memory":
        return Content.styled("you", "bold")
    style = {"user": "bold", "assistant": "$text-accent", "system": "dim"}.get(item.role or "", "")
    return Content.styled(label or field_line(speaker_name(item), 80), style)


def kind_text(item: RecallItem) -> Content:
    if item.kind == "turn":
        return Content.styled("turn", "dim")
    return Content.styled("✓ memory", "$text-success") if item.reviewed else Content.styled("· memory", "$text-warning")


def highlighted(text: str, marks: TermMarks | None) -> Content:
    """``text`` with what ``marks`` marks highlighted. A space right after a mark is marked with it, so
    that the plain text after it does not start with a space (see :func:`assemble`)."""
    if marks is None:
        return Content(text)
    spans = []
    for start, end in marks.spans(text):
        spans.append(Span(start, end + 1 if text[end : end + 1] == " " else end, HIGHLIGHT))
    return Content(text, spans)


def result_text(item: RecallItem, width: int, pattern: TermMarks | None) -> Content:
    return highlighted(preview(item.text, width), pattern)


def wrap_content(content: Content, width: int, limit: int) -> list[Content]:
    """``content`` wrapped like :func:`~tui_app.widgets.format.wrap_lines` (at words, wide characters
    counted as two cells, at most ``limit`` lines, the last ending in … when cut), its styles kept.
    Runs of spaces count as one, as they do there."""
    plain = content.plain
    out: list[Content] = []
    position = 0
    for line in wrap_lines(plain, width, limit):
        cut = plain.find(line, position) < 0  # only a line cut short with an added … is not in the text
        body = line[:-1] if cut else line
        start = plain.find(body, position)
        piece = content[start : start + len(body)] if start >= 0 else Content(body)
        out.append(piece + Content("…") if cut else piece)
        position = max(start, position) + len(body)
    return out


def detail_text(
    item: RecallItem | None,
    zone: tzinfo,
    now: datetime,
    pattern: TermMarks | None,
    width: int,
    lines: int = DETAIL_LINES,
) -> Content:
    """The highlighted result in ``lines`` lines of ``width`` cells: where it comes from (time, speaker
    and session, or the memory's id and review), then its text, wrapped at words and ending in … when
    it needs more room (Enter opens it whole). The first part is never pushed out by the text."""
    if item is None:
        return Content("")
    when = (exact_time(item.ts, zone, now), "dim")
    tags = ""
    if item.kind == "memory":
        review = ("✓ reviewed", "$text-success") if item.reviewed else ("not reviewed", "$text-warning")
        head = assemble(when, " ", ("memory", "bold"), (f" {item.id}", "dim"), " · ", review)
        tags = f"· tags {', '.join(item.tags)}" if item.tags else ""
    else:
        role = f" ({item.role})" if item.role else ""
        head = assemble(when, " ", speaker_text(item), (f"{role} · session {item.session}", "dim"))
    about = wrap_content(head, width, max(lines - 1, 1))
    room = width - about[-1].cell_length - 1
    if tags and room >= MIN_TAGS:  # the tags fill what is left of the last line, never a line of their own
        about[-1] = assemble(about[-1], " ", (preview(tags, room), "dim"))
    text = wrap_content(highlighted(" ".join(visible(item.text).split()), pattern), width, lines - len(about))
    return Content("\n").join([*about, *text])
