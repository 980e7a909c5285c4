"""Another embedding model under a home that holds vectors: the new vectors are made beside the old
ones (the shadow set), searches keep the old complete set, and one transaction swaps them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from core.embed.hashing import HashingEmbedder
from core.index import HomeDayLogs, MemoryDoc, Reindexer, ReindexInterrupted, SearchIndex
from core.index.quantize import to_int8
from core.paths import HomePaths
from tests.helpers.index import append, turn

OLD = ("old-hash", 32)
NEW = ("new-hash", 48)
MODELS = {name: dim for name, dim in (OLD, NEW)}
ROOT = Path(__file__).resolve().parents[2]


def model(name: str) -> HashingEmbedder:
    return HashingEmbedder(MODELS[name], name=name)


def seed(paths: HomePaths, days: int = 3, per_day: int = 12) -> None:
    for day in range(days):
        for n in range(per_day):
            append(paths, turn(f"2026-11-{3 + day:02d}T10:{n:02d}:00", f"day {day} note {n} about topic {n % 5}"))
    append(paths, turn("2026-11-03T11:00:00", "ls -la", type="action"))  # never gets a vector


def reindexer(index: SearchIndex, paths: HomePaths, embedder: HashingEmbedder, **options: object) -> Reindexer:
    return Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder, batch_size=4, window=8,
                     **options)  # type: ignore[arg-type]


def stop_after(windows: int) -> tuple[Callable[[], bool], Callable[[str, int, int], None]]:
    """A progress callback counting embedding windows, and a stop once ``windows`` were stored."""
    seen: list[int] = []

    def progress(phase: str, done: int, total: int) -> None:
        if phase == "embed":
            seen.append(done)

    return (lambda: len(seen) >= windows), progress


def searched_set(index_db: Path) -> tuple[str, int, int]:
    """(model, rows, embeddable docs) of the searched set, after checking that every row is exactly
    that model's vector of its doc's current text: one complete set, never a mixture."""
    with SearchIndex(index_db) as index:
        recorded = index.vector_model()
        assert recorded is not None
        conn = index.conn
        rows = conn.execute(
            "SELECT v.doc, v.v, coalesce(t.text, m.text) FROM vectors v LEFT JOIN turns t ON t.doc = v.doc "
            "LEFT JOIN memories m ON m.doc = v.doc ORDER BY v.doc").fetchall()
        embedder = model(recorded.name)
        assert recorded.dim == embedder.dim
        for doc, blob, text in rows:
            assert text is not None, f"vector of doc {doc}, which holds nothing"
            expected = to_int8(embedder.embed([text]))[0]
            assert np.frombuffer(blob, dtype=np.int8).tolist() == expected.tolist(), f"doc {doc}: a mixture"
        embeddable = conn.execute("SELECT count(*) FROM turns WHERE type = 'text'").fetchone()[0]
        embeddable += conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        return recorded.name, len(rows), embeddable


def test_the_old_set_stays_searched_until_the_new_one_is_complete(paths: HomePaths) -> None:
    seed(paths)
    with SearchIndex.open(paths) as index:
        old = model("old-hash")
        with reindexer(index, paths, old) as r:
            r.run()
        new = model("new-hash")
        stop, progress = stop_after(2)
        with reindexer(index, paths, new) as r:
            report = r.run(should_stop=stop, progress=progress)
        assert report.shadow_model == "new-hash" and not report.swapped
        assert report.shadow_done == 16 and report.shadow_pending == 20 and report.pending == 20
        status = index.status(cached=False)
        assert (status.model, status.vectors, status.pending_vectors) == ("old-hash", 36, 0)
        assert (status.shadow_model, status.shadow_vectors, status.shadow_pending) == ("new-hash", 16, 20)
        hits = index.vector_search(old.embed(["topic 3"])[0], k=5)  # the old model's query still works
        assert len(hits) == 5 and index.vector_view().model.name == "old-hash"
        assert searched_set(index.path) == ("old-hash", 36, 36)
        # resumed: only what still waited is embedded, then the sets are swapped
        with reindexer(index, paths, new) as r:
            report = r.run()
        assert new.calls == 36 and report.embedded == 20 and report.swapped and report.model_reset
        status = index.status(cached=False)
        assert (status.model, status.dim, status.vectors, status.pending_vectors) == ("new-hash", 48, 36, 0)
        assert (status.shadow_model, status.shadow_vectors, status.shadow_pending) == (None, 0, 0)
        assert index.conn.execute("SELECT count(*) FROM shadow_vectors").fetchone()[0] == 0
        assert len(index.vector_search(new.embed(["topic 3"])[0], k=5)) == 5
        assert index.vector_view().model.name == "new-hash"
    assert searched_set(paths.index_db) == ("new-hash", 36, 36)


def test_turns_removed_renumbered_or_added_meanwhile_follow_into_the_shadow(paths: HomePaths) -> None:
    seed(paths, days=2)
    day = paths.logs / "2026" / "11" / "2026-11-03.jsonl"
    with SearchIndex.open(paths) as index:
        with reindexer(index, paths, model("old-hash")) as r:
            r.run()
        stop, progress = stop_after(2)
        with reindexer(index, paths, model("new-hash")) as r:
            r.run(should_stop=stop, progress=progress)
        # the first day rewritten (its first turn replaced: read again from the start), a turn
        # appended to the second day that is earlier than all of it (every doc of the day moves, with
        # its vectors), a new day
        lines = day.read_text(encoding="utf-8").splitlines()
        early = turn("2026-11-03T09:00:00", "an early note before the others")
        day.write_text("\n".join([early.to_json(), *lines[1:]]) + "\n", encoding="utf-8")
        append(paths, turn("2026-11-04T09:00:00", "the first words of the second day"))
        append(paths, turn("2026-11-06T08:00:00", "a note of a later day"))
        with reindexer(index, paths, model("new-hash")) as r:
            report = r.run()
        assert report.swapped and report.replaced == 1 and report.renumbered_days == 1
    assert searched_set(paths.index_db) == ("new-hash", 26, 26)


def test_a_full_reindex_meanwhile_keeps_the_new_vectors_already_made(paths: HomePaths) -> None:
    seed(paths, days=1)
    new = model("new-hash")
    with SearchIndex.open(paths) as index:
        with reindexer(index, paths, model("old-hash")) as r:
            r.run()
        stop, progress = stop_after(1)
        with reindexer(index, paths, new) as r:
            r.run(should_stop=stop, progress=progress)
        with reindexer(index, paths, new) as r:
            report = r.run(full=True)  # every day file read again from the start
        assert report.swapped and report.vectors_kept == 12 and new.calls == 12  # 8, then the other 4
    assert searched_set(paths.index_db) == ("new-hash", 12, 12)


def test_memories_follow_the_same_rule(paths: HomePaths) -> None:
    seed(paths, days=1)
    old, new = model("old-hash"), model("new-hash")
    memory = MemoryDoc(id="mem_a", ts="2026-11-01T00:00:00Z", text="the garden party moved to Sunday")
    later = MemoryDoc(id="mem_b", ts="2026-11-02T00:00:00Z", text="tomatoes on the balcony")
    with SearchIndex.open(paths) as index:
        with reindexer(index, paths, old) as r:
            r.run()
        index.upsert_memories([memory], old)
        stop, progress = stop_after(1)
        with reindexer(index, paths, new) as r:
            r.run(should_stop=stop, progress=progress)
        # a memory finalized meanwhile, embedded at once by the configured model: into the shadow
        index.upsert_memories([later], new)
        status = index.status(cached=False)
        assert (status.model, status.vectors, status.pending_vectors) == ("old-hash", 13, 1)
        assert (status.shadow_vectors, status.shadow_pending) == (9, 5)
        memory_hits = index.vector_search(old.embed(["garden party"])[0], k=1)
        assert memory_hits[0].id == "mem_a"  # the old vector of the memory is still searched
        with reindexer(index, paths, new) as r:
            assert r.run().swapped
        assert index.vector_search(new.embed(["balcony tomatoes"])[0], k=1)[0].id == "mem_b"
    assert searched_set(paths.index_db) == ("new-hash", 14, 14)


def test_the_configured_model_back_again_drops_the_shadow(paths: HomePaths) -> None:
    seed(paths, days=1)
    with SearchIndex.open(paths) as index:
        with reindexer(index, paths, model("old-hash")) as r:
            r.run()
        stop, progress = stop_after(1)
        with reindexer(index, paths, model("new-hash")) as r:
            r.run(should_stop=stop, progress=progress)
        assert index.status(cached=False).shadow_model == "new-hash"
        old = model("old-hash")
        with reindexer(index, paths, old) as r:
            report = r.run()
        assert old.calls == 0 and not report.swapped and report.embedded == 0
        status = index.status(cached=False)
        assert (status.model, status.shadow_model, status.shadow_vectors) == ("old-hash", None, 0)
        assert index.conn.execute("SELECT count(*) FROM shadow_vectors").fetchone()[0] == 0


class CtrlC(HashingEmbedder):
    """The new model, interrupted by Ctrl-C while it embeds its second window."""

    def embed(self, texts: list[str]) -> np.ndarray:
        if self.calls >= 8:
            raise KeyboardInterrupt
        return super().embed(texts)


def test_ctrl_c_while_reembedding_keeps_what_was_stored_and_counts_what_waits(paths: HomePaths) -> None:
    seed(paths, days=1)
    with SearchIndex.open(paths) as index:
        with reindexer(index, paths, model("old-hash")) as r:
            r.run()
        with reindexer(index, paths, CtrlC(48, name="new-hash")) as r, pytest.raises(ReindexInterrupted) as stopped:
            r.run()
        assert stopped.value.report.pending == 4 and "4 wait for vectors" in str(stopped.value)
        status = index.status(cached=False)
        assert (status.model, status.shadow_model, status.shadow_vectors, status.shadow_pending) == (
            "old-hash", "new-hash", 8, 4)
    assert searched_set(paths.index_db) == ("old-hash", 12, 12)


# -- a real kill (SIGKILL) between windows and in the middle of the swap ------------------------------

CHILD = textwrap.dedent(
    """
    import os, signal, sys
    sys.path.insert(0, sys.argv[1])
    from core.embed.hashing import HashingEmbedder
    from core.index import HomeDayLogs, Reindexer, SearchIndex, vectors
    from core.paths import HomePaths

    home, where, after = sys.argv[2], sys.argv[3], int(sys.argv[4])
    paths = HomePaths.at(home)
    windows = []

    def progress(phase, done, total):
        if phase == "embed":
            windows.append(done)
            if where == "window" and len(windows) >= after:
                os.kill(os.getpid(), signal.SIGKILL)  # a window was committed: killed before the next

    if where == "swap":
        drop = vectors.drop_shadow

        def killed_in_the_swap(conn):  # the old set deleted and the new one copied, not committed
            os.kill(os.getpid(), signal.SIGKILL)

        vectors.drop_shadow = killed_in_the_swap
    index = SearchIndex.open(paths)
    embedder = HashingEmbedder(48, name="new-hash")
    with Reindexer(index, HomeDayLogs(paths), embedder=lambda: embedder, batch_size=4, window=8) as r:
        r.run(progress=progress)
    print("finished", embedder.calls)
    """
)


def run_child(tmp_path: Path, paths: HomePaths, where: str, after: int = 0) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "child.py"
    script.write_text(CHILD, encoding="utf-8")
    return subprocess.run([sys.executable, str(script), str(ROOT), str(paths.root), where, str(after)],
                          capture_output=True, text=True, timeout=120, env=os.environ.copy())


def shadow_rows(paths: HomePaths) -> int:
    with SearchIndex.open(paths) as index:
        return index.status(cached=False).shadow_vectors


def test_a_kill_between_windows_or_in_the_swap_leaves_one_complete_set(paths: HomePaths, tmp_path: Path) -> None:
    seed(paths)
    with SearchIndex.open(paths) as index, reindexer(index, paths, model("old-hash")) as r:
        r.run()
    assert searched_set(paths.index_db) == ("old-hash", 36, 36)
    for after, rows in ((2, 16), (1, 24)):  # killed twice in a row between windows: it resumes
        child = run_child(tmp_path, paths, "window", after)
        assert child.returncode == -signal.SIGKILL, child.stderr
        assert searched_set(paths.index_db) == ("old-hash", 36, 36)
        assert shadow_rows(paths) == rows
    for _ in range(2):  # killed twice in a row in the middle of the swap transaction
        child = run_child(tmp_path, paths, "swap")
        assert child.returncode == -signal.SIGKILL, child.stderr
        assert searched_set(paths.index_db) == ("old-hash", 36, 36)
        assert shadow_rows(paths) == 36
    child = run_child(tmp_path, paths, "none")
    assert child.returncode == 0 and child.stdout.split() == ["finished", "0"], child.stderr  # nothing re-embedded
    assert searched_set(paths.index_db) == ("new-hash", 36, 36)
    assert shadow_rows(paths) == 0


@pytest.mark.parametrize("where", ["window", "swap"])
def test_a_search_during_the_migration_never_sees_a_mixture(paths: HomePaths, tmp_path: Path, where: str) -> None:
    """A reader that opened the index before the kill goes on reading the old set (its view)."""
    seed(paths, days=1)
    with SearchIndex.open(paths) as index:
        with reindexer(index, paths, model("old-hash")) as r:
            r.run()
        old = model("old-hash")
        before = index.vector_search(old.embed(["topic 2"])[0], k=12)
        child = run_child(tmp_path, paths, where, 1)
        assert child.returncode == -signal.SIGKILL, child.stderr
        assert index.vector_search(old.embed(["topic 2"])[0], k=12) == before
