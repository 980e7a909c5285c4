"""The context block keeps to what answers the query: turns below the relevance floor and harness
turns (compaction summaries, injected notices) that hold no word of the query stay out, no one item
takes more than its share of the budget, items are fitted best first and shown in recall's order,
and the topic markers still come first."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from core.context import MAX_ITEM_SHARE, build_context, estimate_tokens
from core.recall import RecallItem, RecallResult
from core.topics import Marker

NOW = datetime(2026, 11, 10, 12, 0, tzinfo=UTC)
SUMMARY = ("This session is being continued from a previous conversation that ran out of context. "
           + "The user asked about deployment scripts, CI caches and the release checklist. " * 60)


def turn(key: str, score: float, text: str, *, actor: str = "user", role: str = "user", minutes: int = 0) -> RecallItem:
    ts = (NOW - timedelta(days=1) + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%S.000000Z")
    return RecallItem(id=key, ts=ts, text=text, kind="turn", score=score, actor=actor, role=role, session="s")


@dataclass
class FakeRecaller:
    """Answers every search with ``turns`` (in the order given, as recall's time order) and no memory."""

    turns: list[RecallItem]
    rest: str = "harbour ferry"
    memories: list[RecallItem] = field(default_factory=list)

    def search(self, query: str, *, filters, **_: object) -> RecallResult:  # type: ignore[no-untyped-def]
        results = self.turns if "turn" in filters.kinds else self.memories
        return RecallResult(range=None, expression=None, rest=self.rest, mode="hybrid", results=results)

    def latest(self, *, filters, **_: object) -> RecallResult:  # type: ignore[no-untyped-def]
        return self.search("", filters=filters)


def build(recaller: FakeRecaller, budget: int = 400, markers: list[Marker] | None = None):  # type: ignore[no-untyped-def]
    return build_context(recaller, "harbour ferry", markers=markers or [], now=NOW, zone=UTC,  # type: ignore[arg-type]
                         budget=budget)


def test_turns_below_the_floor_and_unmatched_summaries_stay_out() -> None:
    turns = [
        turn("summary", 0.9, SUMMARY, actor="claude-code", minutes=1),
        turn("ferry", 1.0, "The harbour ferry leaves at 7:40 on weekdays.", minutes=2),
        turn("groceries", 0.08, "Buy oat milk and coffee beans.", minutes=3),
        turn("return", 0.7, "The last ferry back from the harbour is at 22:10.", minutes=4),
    ]
    block = build(FakeRecaller(turns))
    assert [t.id for t in block.turns] == ["ferry", "return"]
    assert "continued from a previous conversation" not in block.text and "oat milk" not in block.text


def test_a_summary_that_holds_the_query_words_is_kept() -> None:
    summary = ("This session is being continued from a previous conversation. We compared the harbour ferry "
               "timetable with the bus.")
    turns = [turn("summary", 0.9, summary, actor="claude-code"), turn("ferry", 1.0, "harbour ferry at 7:40")]
    assert {t.id for t in build(FakeRecaller(turns)).turns} == {"summary", "ferry"}


def test_no_item_takes_more_than_its_share_of_the_budget() -> None:
    long = "harbour ferry " + "the ferry crossed the harbour in fog and the horn kept sounding " * 80
    turns = [turn("long", 1.0, long), turn("short", 0.9, "harbour ferry at 7:40", minutes=1)]
    block = build(FakeRecaller(turns), budget=400)
    long_line = next(line for line in block.text.splitlines() if "horn kept sounding" in line)
    body = long_line.split("(user): ", 1)[1]  # the text, after its time and speaker
    assert estimate_tokens(body) <= 400 * MAX_ITEM_SHARE and body.endswith("…")
    assert [t.id for t in block.turns] == ["long", "short"] and block.tokens <= 400


def test_the_best_are_fitted_first_and_shown_in_recall_order() -> None:
    filler = "harbour ferry " + "a middling note about the harbour and some ferry schedule " * 6
    turns = [turn(f"middling{i}", 0.5, filler, minutes=i) for i in range(6)]
    turns.append(turn("answer", 1.0, "The harbour ferry was moved to pier 3.", minutes=10))
    block = build(FakeRecaller(turns), budget=180)
    assert "answer" in [t.id for t in block.turns]  # the best, though recall lists it last
    assert [t.id for t in block.turns][-1] == "answer"  # still in recall's (time) order
    assert block.tokens <= 180 and block.left_out > 0


def test_markers_come_first_and_whole() -> None:
    markers = [Marker(ts="2026-11-10T11:00:00.000000Z", text="planning the ferry timetable", id="m1")]
    block = build(FakeRecaller([turn("ferry", 1.0, "harbour ferry at 7:40")]), budget=120, markers=markers)
    assert block.text.splitlines()[0].startswith("## Where we are") and block.markers == markers
