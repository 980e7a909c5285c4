"""Local suggesters: dates through the temporal backbone, tags from similar confirmed memories, people
and places confirmed before; each with its provenance and a confidence; suggestions only, once."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pytest

from core.config import Config
from core.embed.hashing import HashingEmbedder
from core.paths import HomePaths
from core.suggest import SuggestContext, SuggestError, pick_suggesters, suggest_draft
from core.suggest.dates import DateSuggester
from core.suggest.entities import PeopleSuggester, PlaceSuggester
from core.suggest.names import find_name
from core.suggest.tags import TagSuggester
from core.vault.review import StoredDraft
from core.vault.store import MemoryStore
from core.workbench import Workbench
from tests.helpers.vault import make_vault

WRITTEN = "2026-11-25T21:00:00+09:00"  # a Wednesday evening in Seoul


def config() -> Config:
    settings = Config()
    settings.general.timezone = "Asia/Seoul"
    return settings


def draft(content: str, tags: tuple[str, ...] = (), draft_id: str = "draft_t1") -> StoredDraft:
    return StoredDraft(draft_id=draft_id, content=content, tags=tags, created_at=WRITTEN)


def confirm(vault: MemoryStore, content: str, tags: list[str], *, people: list[str] | None = None,
            location: str | None = None) -> None:
    d = vault.create_draft(content, tags)
    for sid, name, value in (("p", "people", people), ("l", "location", location)):
        if value:
            d = d.add_suggestion(name, value, "me", suggestion_id=sid).accept(sid, reviewer="me")
    d = d.approve(reviewer="me")
    vault.save_draft(d)
    vault.finalize_draft(d)


@pytest.fixture
def vault(paths: HomePaths) -> MemoryStore:
    v = make_vault(paths)
    confirm(v, "Hiking up Bukhansan with Minji in the rain", ["hiking", "friends"],
            people=["Minji", "Kate Smith", "민지", "田中"], location="Bukhansan")
    confirm(v, "We went hiking near Seoul Forest on a sunny morning", ["hiking"], people=["Minji"],
            location="Seoul Forest")
    confirm(v, "Tax forms for the accountant are due in March", ["admin", "taxes"], location="Seoul")
    confirm(v, "Rose planted tomatoes on the balcony", ["garden"], people=["Rose", "Kate Jones"])
    v.add_memory("Unconfirmed: Bob came hiking too", ["hiking"], location="Dobongsan")  # not confirmed
    return v


def workbench(vault: MemoryStore, paths: HomePaths, embedder: Any = None) -> Workbench:
    """The workbench the suggesters run under: it keeps the index's memories current and embedded."""
    bench = Workbench(paths, config(), embedder=(lambda: embedder) if embedder is not None else HashingEmbedder)
    bench.adopt_keys(vault.keys)
    return bench


def ctx(vault: MemoryStore, paths: HomePaths, **kw: Any) -> SuggestContext:
    if kw.get("embedder") is not None and "memory_index" not in kw:
        kw["memory_index"] = workbench(vault, paths, kw["embedder"]).review.embedded_memory_index
    return SuggestContext(vault=vault, config=config(), paths=paths, **kw)


def proposals(suggester: Any, text: str, vault: MemoryStore, paths: HomePaths, **kw: Any) -> list[Any]:
    return suggester.propose(draft(text), ctx(vault, paths, **kw))


# -- dates --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "value", "confidence", "attach"), [
    ("Yesterday we hiked Bukhansan.", "2026-11-24T00:00:00+09:00", 0.85, True),
    ("Last Tuesday night Kate told me she is quitting.", "2026-11-24T18:00:00+09:00", 0.88, True),
    ("지난주 화요일 밤에 민지랑 산책했다.", "2026-11-17T18:00:00+09:00", 0.88, True),
    ("昨日は雨だった。", "2026-11-24T00:00:00+09:00", 0.85, True),
    ("I had coffee at 7am this morning.", "2026-11-25T07:00:00+09:00", 0.92, True),
    ("On Monday I booked the flight for Friday.", "2026-11-23T00:00:00+09:00", 0.68, True),
    ("We may go skiing next Friday.", "2026-12-04T00:00:00+09:00", 0.34, False),  # a plan
    ("In March we moved to Busan.", "2026-03-01T00:00:00+09:00", 0.3, False),  # a month
])
def test_dates_are_read_as_of_the_capture_in_the_persons_zone(vault: MemoryStore, paths: HomePaths, text: str,
                                                              value: str, confidence: float, attach: bool) -> None:
    (found,) = proposals(DateSuggester(), text, vault, paths)
    assert (found.field_name, found.value, found.attach) == ("occurred_at", value, attach)
    assert found.confidence == pytest.approx(confidence, abs=0.005)
    assert "means" in found.why


def test_no_time_expression_and_the_backbones_guards(vault: MemoryStore, paths: HomePaths) -> None:
    for text in ("The May flowers bloom", "I will march there", "we talked for 20 minutes", "It took 2 hours"):
        assert proposals(DateSuggester(), text, vault, paths) == []


# -- people and places ----------------------------------------------------------------------------


def test_names_are_whole_words_with_korean_particles_and_japanese_inline() -> None:
    assert find_name("Minji laughed", "Minji").quality == "exact"
    assert find_name("minji laughed", "Minji").quality == "folded"
    assert find_name("Minjiyoung laughed", "Minji") is None
    assert find_name("Kate's bike", "Kate") is not None
    assert find_name("민지가 웃었다", "민지").found == "민지가"
    assert find_name("신민지가 웃었다", "민지") is None
    assert find_name("田中さんと会議した", "田中") is not None
    assert find_name("Seoul  Forest in autumn", "Seoul Forest") is not None


def test_people_confirmed_before_are_suggested_with_meaningful_confidence(vault: MemoryStore,
                                                                          paths: HomePaths) -> None:
    found = proposals(PeopleSuggester(), "Minji and 민지가 met 田中さん; rose and Kate were late; Bob too",
                      vault, paths)
    attached = [p for p in found if p.attach]
    assert len(attached) == 1
    assert attached[0].value == ["Minji", "민지", "田中"] and attached[0].confidence == 0.9
    below = {p.value[0]: p.confidence for p in found if not p.attach}
    assert below == {"Rose": 0.5, "Kate Smith": 0.4, "Kate Jones": 0.4}  # a word; which Kate?
    assert "Bob" not in str(found)  # Bob was never confirmed


def test_a_unique_first_name_is_enough(vault: MemoryStore, paths: HomePaths) -> None:
    vault_names = proposals(PeopleSuggester(), "Minji met Kate Smith, then Kate left", vault, paths)
    assert [p.value for p in vault_names if p.attach] == [["Minji", "Kate Smith"]]


def test_places_prefer_the_longest_and_doubt_when_two_are_named(vault: MemoryStore, paths: HomePaths) -> None:
    (one,) = proposals(PlaceSuggester(), "A walk in Seoul Forest", vault, paths)
    assert (one.value, one.confidence, one.attach) == ("Seoul Forest", 0.9, True)
    (two,) = proposals(PlaceSuggester(), "After Bukhansan we had lunch in Seoul Forest", vault, paths)
    assert two.value == "Seoul Forest" and two.confidence == pytest.approx(0.675) and two.attach
    assert proposals(PlaceSuggester(), "Dobongsan was lovely", vault, paths) == []  # never confirmed


@pytest.mark.parametrize(("text", "confidence", "attach"), [
    ("We drove to Seoul Forest", 0.675, True),  # gone to: where it happened, probably
    ("Grandpa talked about Bukhansan all evening", 0.45, False),  # talked about
    ("Next week we will hike Bukhansan", 0.54, False),  # a plan
    ("We will walk in Seoul Forest on Saturday", 0.54, False),
    ("어제 서울숲에서 자전거를 탔다", 0.9, True),
])
def test_a_place_gone_to_talked_about_or_planned_is_doubted(vault: MemoryStore, paths: HomePaths, text: str,
                                                            confidence: float, attach: bool) -> None:
    vault_ctx = ctx(vault, paths)
    confirm(vault, "서울숲 산책", ["friends"], location="서울숲")
    vault_ctx._confirmed = None
    (found,) = PlaceSuggester().propose(draft(text), vault_ctx)
    assert found.confidence == pytest.approx(confidence) and found.attach is attach


def test_future_talk_lowers_a_date() -> None:
    from core.suggest.cues import mentions_future, place_role

    assert mentions_future("Kate is coming over on Saturday") and mentions_future("we'll see")
    assert mentions_future("다음 주에 부산에 갈 예정") and mentions_future("来週京都に行く予定")
    assert not mentions_future("Kate came over on Saturday") and not mentions_future("Willow went home")
    assert place_role("moving to 부산으로", 10, 15, "부산으로") == "direction"
    assert place_role("京都で会った", 0, 2, "京都") == "locative"
    assert place_role("京都について話した", 0, 2, "京都") == "topic"


def test_a_date_in_a_text_about_the_future_is_doubted(vault: MemoryStore, paths: HomePaths) -> None:
    (found,) = proposals(DateSuggester(), "Kate is coming over for dinner on Saturday", vault, paths)
    assert found.value.startswith("2026-11-21") and found.confidence == pytest.approx(0.425) and not found.attach


# -- tags -----------------------------------------------------------------------------------------


def test_tags_come_from_similar_confirmed_memories(vault: MemoryStore, paths: HomePaths) -> None:
    embedder = HashingEmbedder()
    found = proposals(TagSuggester(), "hiking up Bukhansan with Minji", vault, paths, embedder=embedder)
    attached = [p for p in found if p.attach]
    assert attached and attached[0].value[0] == "hiking"
    assert 0.5 <= attached[0].confidence <= 1.0
    assert "taxes" not in str(attached)
    assert TagSuggester().model_name(ctx(vault, paths, embedder=embedder)) == "hashing-64"


def test_tags_already_on_the_draft_are_not_suggested(vault: MemoryStore, paths: HomePaths) -> None:
    d = StoredDraft(draft_id="draft_t2", content="hiking up Bukhansan with Minji", tags=("Hiking",),
                    created_at=WRITTEN)
    found = TagSuggester().propose(d, ctx(vault, paths, embedder=HashingEmbedder()))
    assert all("hiking" not in [t.casefold() for t in p.value] for p in found)


def test_without_matching_vectors_the_tag_suggester_says_why(vault: MemoryStore, paths: HomePaths) -> None:
    first = ctx(vault, paths, embedder=HashingEmbedder())
    TagSuggester().propose(draft("hiking"), first)  # the index now holds hashing-64 vectors
    other = ctx(vault, paths, embedder=HashingEmbedder(32, name="hashing-32"))
    assert TagSuggester().propose(draft("hiking"), other) == []
    assert "vectors of hashing-64, not hashing-32" in other.notes[0]


# -- the runner -----------------------------------------------------------------------------------


def test_suggestions_carry_provenance_are_saved_once_and_never_decided(vault: MemoryStore, paths: HomePaths) -> None:
    d = draft("Yesterday Minji and I went hiking in Seoul Forest")
    vault.save_draft(d)
    bench = workbench(vault, paths)
    run = bench.review.run_suggesters(d)
    by_field = {s.field_name: s for s in run.added}
    assert set(by_field) == {"occurred_at", "people", "location", "tags"}
    assert by_field["occurred_at"].source == "local:dates" and by_field["occurred_at"].model == "reverie-timeparse"
    assert by_field["occurred_at"].process_version == "dates-1"
    assert by_field["tags"].model == "hashing-64" and by_field["people"].model == "confirmed-names"
    assert all(0 < (s.confidence or 0) <= 1 for s in run.added)
    stored = vault.get_draft(d.draft_id)
    assert stored.state == "open" and not stored.decisions and len(stored.suggestions) == 4
    again = bench.review.run_suggesters(stored)
    assert again.added == [] and len(vault.get_draft(d.draft_id).suggestions) == 4


def test_a_decided_field_is_left_alone_and_only_open_drafts_take_suggestions(vault: MemoryStore,
                                                                              paths: HomePaths) -> None:
    d = draft("Yesterday in Seoul Forest").add_suggestion("location", "Home", "me", suggestion_id="s1")
    d = d.accept("s1", reviewer="me")
    run = suggest_draft(vault, d, config(), paths, suggesters=pick_suggesters(["places", "dates"]), save=False)
    assert [s.field_name for s in run.added] == ["occurred_at"]
    with pytest.raises(SuggestError, match="is approved: suggestions go to open drafts only"):
        suggest_draft(vault, d.approve(reviewer="me"), config(), paths)
    with pytest.raises(SuggestError, match="unknown 'moods'"):
        pick_suggesters(["moods"])


def test_a_failing_suggester_is_noted_and_the_others_still_run(vault: MemoryStore, paths: HomePaths) -> None:
    @dataclass
    class Broken:
        name: str = "broken"
        source: str = "local:broken"
        process_version: str = "0"
        threshold: float = 0.5

        def model_name(self, ctx: SuggestContext) -> str:
            return "none"

        def propose(self, d: StoredDraft, ctx: SuggestContext) -> list[Any]:
            raise RuntimeError("model file\nmissing")

    run = suggest_draft(vault, draft("Yesterday"), config(), paths, suggesters=[Broken(), DateSuggester()],
                        save=False)
    assert run.notes == ["broken: model file missing"] and [s.field_name for s in run.added] == ["occurred_at"]


def test_the_workbench_run_returns_the_saved_draft(vault: MemoryStore, paths: HomePaths,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("core.suggest.runner.default_suggesters", lambda: [DateSuggester(), PlaceSuggester()])
    d = vault.create_draft("Today we walked in Seoul Forest")
    out = workbench(vault, paths).review.run_suggesters(d).draft
    assert {s.field_name for s in out.suggestions} == {"occurred_at", "location"}
    assert vault.get_draft(d.draft_id) == out
    today = datetime.fromisoformat(out.suggestions[0].value)
    assert today.utcoffset() is not None
