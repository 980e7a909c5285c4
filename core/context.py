"""The block Reverie puts into a model's prompt: where we are, what is confirmed, what was said.

In order: the latest topic markers (the person's own words, never cut: one that does not fit is left
out and counted), the most relevant finalized memories marked reviewed or not, then the matching turns
(in time order when the query names a time); a sharing profile filters both. Everything fits the token
budget: long items are cut with "…", no item takes more than ``MAX_ITEM_SHARE``, and a turn far below
the best one's score (``RELEVANCE_FLOOR``) or written by the harness is left out unless it holds a
word of the query. Tokens are estimated (one per CJK character, one per four letters of a word, one
per other symbol): high for CJK, near exact for English.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from typing import Any

import msgspec

from core.config import ContextConfig, SharingProfile
from core.index import Filters
from core.recall import Recaller, RecallItem
from core.recall.model import ItemForm
from core.recall.text import search_terms
from core.textsafe import field_line
from core.topics import Marker
from core.turns import parse_ts

ELLIPSIS = "…"
MIN_CUT_TOKENS = 12  # a cut item shorter than this is left out instead
ITEM_POOL = 20  # candidates asked of recall per section
CONVERSATION_TYPES = ("text",)  # turn types a block holds unless asked: the words, not tool output
RELEVANCE_FLOOR = 0.3  # a turn scoring below this share of the best turn's score is left out
MAX_ITEM_SHARE = 0.25  # no one memory or turn takes more of the budget than this
HARNESS_ACTORS = frozenset({"claude-code", "codex"})  # what an assistant's harness wrote, not a person
SUMMARY_OPENINGS = (  # compaction summaries, whatever type an importer gave them
    "this session is being continued from a previous conversation",
    "summary of the conversation so far",
    "conversation summary:",
)

_PIECES = re.compile(
    r"(?P<cjk>[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
    r"\U00020000-\U0003134f])|(?P<word>[^\W_]+)|(?P<space>\s+)|(?P<other>.)",
    re.DOTALL,
)


def _piece_tokens(match: re.Match[str]) -> int:
    if match.group("space"):
        return 0
    if match.group("word"):
        return max(1, math.ceil(len(match.group("word")) / 4))
    return 1


def estimate_tokens(text: str) -> int:
    """An honest token estimate for English, Korean, Japanese and Chinese alike (see module notes)."""
    return sum(_piece_tokens(m) for m in _PIECES.finditer(text))


def cut_to_tokens(text: str, max_tokens: int) -> str:
    """``text`` if it fits in ``max_tokens``, else its longest prefix that fits with "…" added."""
    if estimate_tokens(text) <= max_tokens:
        return text
    used, end = 0, 0
    for match in _PIECES.finditer(text):
        cost = _piece_tokens(match)
        if match.group("word") and used + cost > max_tokens - 1:
            room = (max_tokens - 1 - used) * 4  # part of a long word still fits
            end = match.start() + max(room, 0)
            break
        if used + cost > max_tokens - 1:
            break
        used += cost
        end = match.end()
    return text[:end].rstrip() + ELLIPSIS


@dataclass(frozen=True)
class ContextBlock:
    text: str
    tokens: int
    budget: int
    markers: list[Marker] = field(default_factory=list)
    memories: list[RecallItem] = field(default_factory=list)
    turns: list[RecallItem] = field(default_factory=list)
    cut: int = 0  # items shortened
    left_out: int = 0  # items (markers included) that did not fit
    mode: str | None = None  # the recall mode behind the turns and memories (None without a query)

    def form(self) -> ContextForm:
        """The published form (``reverie context --json``): the fields in this order, memories and turns
        in recall's form."""
        return ContextForm(self.text, self.tokens, self.budget, self.markers,
                           [item.form() for item in self.memories], [item.form() for item in self.turns],
                           self.cut, self.left_out, self.mode)


class ContextForm(msgspec.Struct, frozen=True):
    """A context block as ``reverie context --json`` prints it (markers as ``ts, text, id``)."""

    text: str
    tokens: int
    budget: int
    markers: list[Marker]
    memories: list[ItemForm]
    turns: list[ItemForm]
    cut: int
    left_out: int
    mode: str | None


class _Budget:
    """Lines added while they fit; ``fit`` cuts an item to the room left (or refuses it)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.lines: list[str] = []
        self.used = 0
        self.cut = 0
        self.left_out = 0

    def room(self) -> int:
        return self.budget - self.used

    def add(self, line: str) -> bool:
        cost = estimate_tokens(line) + 1  # the newline
        if cost > self.room():
            return False
        self.lines.append(line)
        self.used += cost
        return True

    def fit(self, prefix: str, text: str, item_max: int) -> str | None:
        """Reserve room for ``prefix + text``, cutting ``text`` to ``item_max`` and to the room left;
        the line, for the caller to place (None: it does not fit, counted as left out)."""
        head = estimate_tokens(prefix) + 1
        allowed = min(item_max, self.room() - head)
        if allowed < MIN_CUT_TOKENS and estimate_tokens(text) > allowed:
            self.left_out += 1
            return None
        body = cut_to_tokens(text, allowed)
        line = prefix + body
        cost = estimate_tokens(line) + 1
        if cost > self.room():
            self.left_out += 1
            return None
        self.cut += body != text
        self.used += cost
        return line


IDENTIFIER_WIDTH = 80  # an actor or role longer than this is cut in the block


def _one_line(text: str) -> str:
    """A stored field as one line of data (:func:`core.textsafe.field_line`): whatever it holds, it
    cannot start a line of the block, so it cannot pose as a header, a marker or a reviewed memory."""
    return field_line(text)


def _when(ts: str, zone: tzinfo) -> str:
    return f"{parse_ts(ts).astimezone(zone):%Y-%m-%d %H:%M}"


def build_context(recaller: Recaller, query: str | None, *, markers: Sequence[Marker], now: datetime,
                  zone: tzinfo, config: ContextConfig | None = None, budget: int | None = None,
                  profile: SharingProfile | None = None,
                  turn_types: Sequence[str] = CONVERSATION_TYPES) -> ContextBlock:
    """The prompt block for ``query`` (or for no query: the latest of everything).

    ``turn_types``: which turn types may appear (default the conversation's words only)."""
    settings = config or ContextConfig()
    limit = min(ITEM_POOL, profile.max_items) if profile is not None else ITEM_POOL
    total = settings.budget if budget is None else budget
    if profile is not None:
        total = min(total, profile.max_tokens)
    room = _Budget(max(total, 0))
    memories, turns, mode, words = _find(recaller, query, now, zone, limit, profile, tuple(turn_types))
    turns = _answering(turns, words)
    item_max = min(settings.item_max_tokens, max(int(room.budget * MAX_ITEM_SHARE), 2 * MIN_CUT_TOKENS))

    kept_markers: list[Marker] = []
    if markers:
        room.add("## Where we are (topic markers, latest first)")
        for marker in markers:
            if room.add(f"- {_when(marker.ts, zone)}  {_one_line(marker.text)}"):
                kept_markers.append(marker)
            else:
                room.left_out += 1
    kept_memories = _section(room, "## Confirmed memories", memories, zone, item_max, _memory_prefix)
    kept_turns = _section(room, "## From past conversations", turns, zone, item_max, _turn_prefix)
    text = "\n".join(room.lines)
    return ContextBlock(text=text, tokens=estimate_tokens(text) + max(len(room.lines) - 1, 0), budget=total,
                        markers=kept_markers, memories=kept_memories, turns=kept_turns, cut=room.cut,
                        left_out=room.left_out, mode=mode)


def _memory_prefix(item: RecallItem, zone: tzinfo) -> str:
    badge = "reviewed" if item.reviewed else "unreviewed"
    return f"- [{badge}] {_when(item.ts, zone)}  "


def _turn_prefix(item: RecallItem, zone: tzinfo) -> str:
    actor, role = field_line(item.actor, IDENTIFIER_WIDTH), field_line(item.role, IDENTIFIER_WIDTH)
    return f"- {_when(item.ts, zone)} {actor} ({role}): "


def _harness(item: RecallItem) -> bool:
    """A turn the assistant's harness wrote (a compaction summary, an injected notice), not a person."""
    opening = " ".join(item.text.split()[:12]).casefold()
    return (item.actor in HARNESS_ACTORS or item.role == "system"
            or any(opening.startswith(start) for start in SUMMARY_OPENINGS))


def _answering(turns: list[RecallItem], words: Sequence[str]) -> list[RecallItem]:
    """The turns that answer the query: above the relevance floor, and a harness turn only when it
    holds one of the query's ``words``. Unranked turns (no query: the latest) are all kept."""
    best = max((t.score for t in turns), default=0.0)
    kept = []
    for item in turns:
        if best > 0 and item.score < RELEVANCE_FLOOR * best:
            continue
        if _harness(item) and not (words and any(word in item.text.casefold() for word in words)):
            continue
        kept.append(item)
    return kept


def _section(room: _Budget, title: str, items: list[RecallItem], zone: tzinfo, item_max: int,
             prefix: Any) -> list[RecallItem]:
    """The section's title and the items that fit, chosen best score first, shown in recall's order."""
    if not items:
        return []
    title_cost = estimate_tokens(title) + 1
    if title_cost > room.room():
        room.left_out += len(items)
        return []
    room.used += title_cost
    lines: dict[int, str] = {}
    for index in sorted(range(len(items)), key=lambda i: -items[i].score):  # stable: ties keep their order
        line = room.fit(prefix(items[index], zone), _one_line(items[index].text), item_max)
        if line is not None:
            lines[index] = line
    if not lines:
        room.used -= title_cost
        return []
    room.lines += [title, *(lines[index] for index in sorted(lines))]
    return [items[index] for index in sorted(lines)]


def _find(recaller: Recaller, query: str | None, now: datetime, zone: tzinfo, limit: int,
          profile: SharingProfile | None,
          turn_types: tuple[str, ...]) -> tuple[list[RecallItem], list[RecallItem], str | None, list[str]]:
    """Memories and turns for the block: relevant to ``query``, or the latest when there is none; and
    the query's words (without its time expression), folded."""
    text = (query or "").strip()
    found: dict[str, list[RecallItem]] = {}
    mode = None
    words: list[str] = []
    for kind in ("memory", "turn"):
        filters = Filters(kinds=("turn",), types=turn_types) if kind == "turn" else Filters(kinds=("memory",))
        if not text:
            # A range with nothing to rank by lists the latest: "all time" is the widest range.
            answer = recaller.latest(now=now, limit=limit, filters=filters, profile=profile)
        else:
            answer = recaller.search(text, now=now, zone=zone, limit=limit, filters=filters, profile=profile)
            mode = answer.mode if kind == "turn" or mode is None else mode
            words = search_terms(answer.rest)  # recall's own terms: folded, no stop words
        found[kind] = answer.results
    return found["memory"], found["turn"], mode, words
