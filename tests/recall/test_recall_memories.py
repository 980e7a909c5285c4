"""Finalized memories beside turns: synced from the vault, marked reviewed or not, drafts never,
recency boost without a range, time order with one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.index import Filters, SearchIndex
from core.recall import sync_vault, vault_docs
from core.recall.memsync import memory_time
from core.turns import format_ts
from core.vault.records import MemoryRecord
from tests.helpers.recall import NOW, indexed, recaller, turn
from tests.helpers.vault import finalize_reviewed, make_vault


@pytest.fixture
def home(paths):
    vault = make_vault(paths)
    reviewed = finalize_reviewed(vault, "The lighthouse walk in the rain with grandpa")
    unreviewed = vault.add_memory("The lighthouse keeper waved at us", ["trips"])
    draft = vault.create_draft("A lighthouse draft that is not confirmed yet", ["trips"])
    vault.save_draft(draft)
    index = indexed(paths, [turn(NOW - timedelta(days=1), "we talked about the lighthouse", session="s")])
    report = sync_vault(index, vault, UTC)
    assert report.added == 2
    yield vault, index, reviewed, unreviewed
    index.close()


def test_memories_are_searchable_beside_turns_and_marked(home):
    _, index, reviewed, unreviewed = home
    answer = recaller(index).search("lighthouse", now=NOW, zone=UTC)
    kinds = {item.id: (item.kind, item.reviewed) for item in answer.results}
    assert kinds[reviewed.memory_id] == ("memory", True)
    assert kinds[unreviewed.memory_id] == ("memory", False)
    assert any(kind == ("turn", None) for kind in kinds.values())
    memory = next(item for item in answer.results if item.id == reviewed.memory_id)
    assert memory.text == reviewed.content and memory.session is None and memory.actor is None


def test_drafts_never_appear(home):
    _, index, _, _ = home
    assert recaller(index).search("draft confirmed", now=NOW, zone=UTC).results == []


def test_reviewed_and_tag_filters(home):
    _, index, reviewed, unreviewed = home
    r = recaller(index)

    def found(filters: Filters) -> set[str]:
        return {item.id for item in r.search("lighthouse", now=NOW, zone=UTC, filters=filters).results}

    assert reviewed.memory_id in found(Filters(reviewed=True))
    assert unreviewed.memory_id not in found(Filters(reviewed=True))
    assert found(Filters(reviewed=False, kinds=("memory",))) == {unreviewed.memory_id}
    assert found(Filters(tags=("trips",))) == {unreviewed.memory_id}
    assert found(Filters(kinds=("turn",))) == {i for i in found(Filters()) if i.startswith("t-")}


def test_sync_is_incremental_and_follows_the_vault(home, paths):
    vault, index, _, _ = home
    again = sync_vault(index, vault, UTC)
    assert (again.added, again.updated, again.removed, again.unchanged) == (0, 0, 0, 2)
    vault.add_memory("A third lighthouse story", [])
    third = sync_vault(index, vault, UTC)
    assert (third.added, third.unchanged) == (1, 2)


def test_a_tampered_memory_is_not_indexed(home, paths):
    vault, index, reviewed, _ = home
    path = vault.memory_path(reviewed.memory_id)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))
    assert reviewed.memory_id not in {d.id for d in vault_docs(vault, UTC)}
    sync_vault(index, vault, UTC)
    assert reviewed.memory_id not in {i.id for i in recaller(index).search("lighthouse", now=NOW, zone=UTC).results}


def test_recency_boost_without_range_and_time_order_with_one(paths):
    vault = make_vault(paths)
    old = vault.add_memory("We planted basil on the balcony", [], occurred_at="2026-08-01T10:00:00+00:00")
    new = vault.add_memory("We planted basil on the balcony", [], occurred_at="2026-11-27T10:00:00+00:00")
    index = SearchIndex.open(paths)
    sync_vault(index, vault, UTC)
    r = recaller(index, half_life_days=30.0)
    unscoped = r.search("basil balcony", now=NOW, zone=UTC)
    assert [i.id for i in unscoped.results] == [new.memory_id, old.memory_id]
    assert unscoped.results[0].score > unscoped.results[1].score * 1.5
    scoped = r.search("basil balcony in 2026", now=NOW, zone=UTC)
    assert scoped.range is not None
    assert [i.id for i in scoped.results] == [old.memory_id, new.memory_id]  # time order
    index.close()


def test_memory_time_reads_dates_in_the_zone():
    from zoneinfo import ZoneInfo

    from core.vault.records import RecordMetadata

    seoul = ZoneInfo("Asia/Seoul")
    memory = MemoryRecord("mem_x", "text", RecordMetadata(occurred_at="2026-11-03"),
                          created_at="2026-11-20T00:00:00+00:00")
    assert memory_time(memory, seoul) == format_ts(datetime(2026, 11, 3, tzinfo=seoul))
    bad = MemoryRecord("mem_y", "text", RecordMetadata(occurred_at="soon"), created_at="2026-11-20T00:00:00+00:00")
    assert memory_time(bad, seoul) == "2026-11-20T00:00:00.000000Z"
