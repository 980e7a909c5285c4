"""reverie mirror against a real PostgreSQL with pgvector: incremental by day, what a profile withholds
never reaches the database, changed days rewritten, a second profile refused until --rebuild."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import psycopg
import pytest

from core.embed.hashing import HashingEmbedder
from core.errors import ConfigError, ReverieError
from core.mirror.connect import vector_literal
from core.turns import day_file
from core.workbench import Workbench
from tests.helpers.sharing_world import NOW, PRIVATE_SECRETS, TURNS, make_turn, write_log
from tests.helpers.vault import PASSPHRASE

CC = "claude-code:/home/me/.claude/projects/p/cc2.jsonl"


def rows(dsn: str, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
    with psycopg.connect(dsn) as conn:
        return conn.execute(sql, params).fetchall()


def xmins(dsn: str) -> dict[str, str]:
    """Each turn's and day's row version (the transaction that last wrote it)."""
    found = rows(dsn, "SELECT id, xmin::text FROM reverie.turns UNION ALL "
                      "SELECT 'day:' || day::text, xmin::text FROM reverie.days")
    return dict(found)


def everything(dsn: str) -> str:
    """Every row of every table of the mirror, each as PostgreSQL's text of the whole row."""
    tables = [t for (t,) in rows(dsn, "SELECT table_name FROM information_schema.tables "
                                      "WHERE table_schema = 'reverie'")]
    assert {"turns", "memories", "days", "mirror_info"} <= set(tables)
    return "\n".join(text for table in tables for (text,) in rows(dsn, f"SELECT t::text FROM reverie.{table} t"))


def test_a_second_run_writes_only_the_new_day(world: Workbench, pg_dsn: str) -> None:
    first = world.mirror.run("open", dsn=pg_dsn)
    assert (first.turns_written, first.memories_written, len(first.steps)) == (3, 7, 2)
    before = xmins(pg_dsn)
    new = [make_turn(NOW - timedelta(days=1), "Booked the Niseko powder hotel for two", session="cc2", source=CC),
           make_turn(NOW - timedelta(days=1, minutes=-3), "Great, two nights", session="cc2", source=CC,
                     actor="claude", role="assistant")]
    write_log(world.paths, new)

    second = world.mirror.run("open", dsn=pg_dsn)

    assert [(s.day, s.action, s.written) for s in second.steps] == [("2026-11-28", "new", 2)]
    assert (second.memories_written, second.memories_removed) == (0, 0)
    after = xmins(pg_dsn)
    assert {key: after[key] for key in before} == before  # no row of the earlier days was written again
    assert set(after) - set(before) == {new[0].id, new[1].id, "day:2026-11-28"}
    third = world.mirror.run("open", dsn=pg_dsn)
    assert (third.steps, third.memories_written) == ([], 0)
    assert xmins(pg_dsn) == after


def test_turns_appended_to_a_mirrored_day_are_the_only_rows_written(world: Workbench, pg_dsn: str) -> None:
    world.mirror.run("open", dsn=pg_dsn)
    before = xmins(pg_dsn)
    late = make_turn(NOW - timedelta(days=5, hours=-5), "Also rent skis there", session="cc1", source=CC)
    write_log(world.paths, [late])  # the same day as the first two turns, imported late

    again = world.mirror.run("open", dsn=pg_dsn)

    assert [(s.day, s.action, s.written) for s in again.steps] == [("2026-11-24", "appended", 1)]
    after = xmins(pg_dsn)
    assert {key: after[key] for key in before if not key.startswith("day:")} == \
        {key: value for key, value in before.items() if not key.startswith("day:")}
    size = day_file(world.paths.logs, "2026-11-24").stat().st_size
    assert rows(pg_dsn, "SELECT size, turns FROM reverie.days WHERE day = '2026-11-24'") == [(size, 3)]


def test_what_the_profile_withholds_never_reaches_the_database(world: Workbench, pg_dsn: str) -> None:
    report = world.mirror.run("claude", dsn=pg_dsn)  # claude-code turns only, reviewed memories, no "private"

    withheld_turn = next(t for t in TURNS if t.source == "chatgpt")
    memories = {m.content: m for m in world.vault.list_memories()}
    withheld = [m for text, m in memories.items() if "SECRETPARTY" in text or "DIARYSECRET" in text
                or "lift pass" in text]
    assert len(withheld) == 3 and report.memories_withheld == 3 and report.turns_withheld == 1
    dump = everything(pg_dsn).casefold()
    for needle in [withheld_turn.id, "chatgpt", "october", *(m.memory_id for m in withheld), "9000",
                   *(secret.casefold()[:9] for secret in PRIVATE_SECRETS)]:
        assert needle.casefold() not in dump, needle
    # ... nor their vectors
    embedder = HashingEmbedder(dim=64)
    for text in [withheld_turn.text, *(m.content for m in withheld)]:
        vector = vector_literal(embedder.embed([text])[0])
        assert rows(pg_dsn, "SELECT count(*) FROM (SELECT embedding FROM reverie.turns UNION ALL "
                            "SELECT embedding FROM reverie.memories) e WHERE embedding <=> %s::vector < 1e-6",
                    (vector,)) == [(0,)]
    # what it shares is there, with its vector and the model recorded
    shared = memories["Niseko ski trip booked for February, powder season"]
    assert shared.memory_id in dump and TURNS[0].id in dump
    assert rows(pg_dsn, "SELECT reviewed, review->>'approved_by', vector_dims(embedding) FROM reverie.memories "
                        "WHERE id = %s", (shared.memory_id,)) == [(True, "me", 64)]
    info = dict(rows(pg_dsn, "SELECT key, value FROM reverie.mirror_info"))
    assert (info["profile"], info["embedding_model"], info["embedding_dim"]) == ("claude", "hashing-64", "64")


def test_a_rewritten_or_removed_past_day_is_reflected(world: Workbench, pg_dsn: str) -> None:
    world.mirror.run("open", dsn=pg_dsn)
    path = day_file(world.paths.logs, "2026-11-24")
    first, _redacted = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(first)  # the second turn redacted out of the day

    report = world.mirror.run("open", dsn=pg_dsn)

    assert [(s.day, s.action, s.written) for s in report.steps] == [("2026-11-24", "rewritten", 1)]
    ids = {turn_id for (turn_id,) in rows(pg_dsn, "SELECT id FROM reverie.turns")}
    assert TURNS[0].id in ids and TURNS[1].id not in ids
    day_file(world.paths.logs, "2026-11-26").unlink()
    gone = world.mirror.run("open", dsn=pg_dsn)
    assert [(s.day, s.action) for s in gone.steps] == [("2026-11-26", "removed")]
    assert {turn_id for (turn_id,) in rows(pg_dsn, "SELECT id FROM reverie.turns")} == {TURNS[0].id}
    assert rows(pg_dsn, "SELECT day::text FROM reverie.days") == [("2026-11-24",)]


def test_another_profile_needs_a_rebuild_which_drops_what_it_withholds(world: Workbench, pg_dsn: str) -> None:
    world.mirror.run("open", dsn=pg_dsn)
    with pytest.raises(ReverieError, match=r"holds profile 'open', not 'claude'.*--rebuild"):
        world.mirror.run("claude", dsn=pg_dsn)

    rebuilt = world.mirror.run("claude", dsn=pg_dsn, rebuild=True)

    assert rebuilt.rebuilt and rebuilt.turns_written == 2
    dump = everything(pg_dsn).casefold()
    assert "chatgpt" not in dump and "diarysecret" not in dump


def test_an_unknown_profile_is_named_before_the_database_is_touched(world: Workbench) -> None:
    with pytest.raises(ConfigError, match=r"no sharing profile 'nope'"):
        world.mirror.run("nope", dsn="postgresql://nobody@127.0.0.1:1/none")


def test_search_bounds_by_the_time_range_first(world: Workbench, pg_dsn: str) -> None:
    world.mirror.run("open", dsn=pg_dsn)

    bounded = world.mirror.search("Niseko since Wednesday", dsn=pg_dsn, now=NOW)
    anytime = world.mirror.search("Niseko", dsn=pg_dsn, now=NOW)

    span = bounded.plan.range
    assert span is not None and bounded.hits
    assert all(span.start <= hit.ts < span.end for hit in bounded.hits)
    assert [hit.id for hit in bounded.hits] == [TURNS[2].id]
    assert {TURNS[0].id, TURNS[1].id, TURNS[2].id} <= {hit.id for hit in anytime.hits}
    assert anytime.mode == "hybrid" and {hit.kind for hit in anytime.hits} == {"turn", "memory"}


def test_the_command_mirrors_and_searches_without_printing_the_password(world: Workbench, pg_dsn: str) -> None:

    from click.testing import CliRunner

    from tui_app.cli.main import cli
    from tui_app.cli.state import CliOptions

    with_password = pg_dsn.replace("postgres@", "postgres:pw-never-shown@")  # trust auth ignores it
    options = CliOptions(embedder=lambda: HashingEmbedder(dim=64))
    env = {"REVERIE_PASSPHRASE": PASSPHRASE, "REVERIE_MIRROR_DSN": with_password}
    home = ["--home", str(world.paths.root)]
    runner = CliRunner()
    mirrored = runner.invoke(cli, [*home, "mirror", "--profile", "claude", "--json"], obj=options, env=env)
    again = runner.invoke(cli, [*home, "mirror", "--profile", "claude"], obj=options, env=env)
    found = runner.invoke(cli, [*home, "mirror", "search", "Niseko", "--now", NOW.isoformat(), "--json"],
                          obj=options, env=env)

    assert (mirrored.exit_code, again.exit_code, found.exit_code) == (0, 0, 0), mirrored.output + found.output
    report = json.loads(mirrored.output)
    assert (report["turns_written"], report["turns_withheld"], report["memories_written"]) == (2, 1, 4)
    assert "0 changed" in again.output and "pw-never-shown" not in mirrored.output + again.output
    ids = [hit["id"] for hit in json.loads(found.output)["results"]]
    assert TURNS[0].id in ids and TURNS[2].id not in ids  # the chatgpt turn was never mirrored


def test_text_postgres_cannot_hold_is_stored_replaced_and_escapes_kept(world: Workbench, pg_dsn: str) -> None:

    odd = make_turn(NOW - timedelta(days=2), "nul\x00here, half \ud800 pair, \x1b[31mred\x1b[0m", session="cc3",
                    source=CC)
    path = day_file(world.paths.logs, odd.day)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="ascii") as handle:  # as an importer may have written it: \u escapes
        handle.write(json.dumps(odd.__dict__, sort_keys=True) + "\n")

    report = world.mirror.run("open", dsn=pg_dsn)

    assert ("2026-11-27", "new", 1) in [(s.day, s.action, s.written) for s in report.steps]
    assert rows(pg_dsn, "SELECT text FROM reverie.turns WHERE id = %s", (odd.id,)) == \
        [("nul\ufffdhere, half \ufffd pair, \x1b[31mred\x1b[0m",)]


def test_a_question_whose_range_matches_nothing_is_answered_from_other_times(world: Workbench, pg_dsn: str) -> None:
    world.mirror.run("open", dsn=pg_dsn)

    question = world.mirror.search("what did we say about the Niseko hotel yesterday?", dsn=pg_dsn, now=NOW)
    keywords = world.mirror.search("Niseko hotel yesterday", dsn=pg_dsn, now=NOW)

    span = question.plan.range
    assert span is not None and question.hits  # nothing was said yesterday: a question is widened, as recall does
    assert all(not span.start <= hit.ts < span.end for hit in question.hits)
    assert TURNS[1].id in {hit.id for hit in question.hits}
    assert keywords.plan.range is not None and keywords.hits == []  # keywords keep the range as a wall


def test_the_days_digest_is_keyed_and_a_lost_key_rewrites_every_day_once(world: Workbench, pg_dsn: str) -> None:
    import hashlib

    world.mirror.run("open", dsn=pg_dsn)
    before = rows(pg_dsn, "SELECT day::text, size, hmac, turns FROM reverie.days ORDER BY day")
    plain = {hashlib.sha256(day_file(world.paths.logs, day).read_bytes()).hexdigest() for day, *_ in before}
    assert not plain & {digest for _, _, digest, _ in before}  # no plain hash of a day's (withheld) turns
    (world.paths.cache / "mirror.key").unlink()  # the cache folder was purged

    again = world.mirror.run("open", dsn=pg_dsn)

    assert [(s.day, s.action) for s in again.steps] == [("2026-11-24", "rewritten"), ("2026-11-26", "rewritten")]
    after = rows(pg_dsn, "SELECT day::text, size, hmac, turns FROM reverie.days ORDER BY day")
    assert [(d, n, t) for d, n, _, t in after] == [(d, n, t) for d, n, _, t in before]
    assert world.mirror.run("open", dsn=pg_dsn).steps == []


def test_a_memory_that_leaves_the_vault_or_stops_verifying_leaves_the_mirror(world: Workbench,
                                                                             pg_dsn: str) -> None:
    world.mirror.run("open", dsn=pg_dsn)
    memories = sorted(world.vault.list_memories(), key=lambda m: m.memory_id)
    moved, tampered = memories[0], memories[1]
    world.vault.memory_path(moved.memory_id).unlink()  # as if curated away to cold storage
    record = world.vault.memory_path(tampered.memory_id)
    data = bytearray(record.read_bytes())
    data[len(data) // 2] ^= 1
    record.write_bytes(bytes(data))

    report = world.mirror.run("open", dsn=pg_dsn)

    assert (report.memories_removed, report.memories_written) == (2, 0)
    held = {memory_id for (memory_id,) in rows(pg_dsn, "SELECT id FROM reverie.memories")}
    assert held == {m.memory_id for m in memories[2:]}


def test_a_mirror_of_another_model_is_searched_by_words_and_says_so(world: Workbench, pg_dsn: str) -> None:
    world.mirror.run("open", dsn=pg_dsn)
    other = Workbench(world.paths, world.config, embedder=lambda: HashingEmbedder(dim=32))

    answer = other.mirror.search("Niseko", dsn=pg_dsn, now=NOW)

    assert answer.mode == "exact" and answer.hits
    assert answer.note is not None and "hashing-64" in answer.note and "words only" in answer.note


def test_vectors_the_index_holds_for_the_same_text_are_reused_not_embedded(tmp_path: Any, pg_dsn: str) -> None:
    import numpy as np

    from core.config import load_config
    from core.paths import HomePaths
    from tests.helpers.sharing_world import build_world

    paths = HomePaths(tmp_path / "indexed", tmp_path / "indexed-cache")
    build_world(paths, embed=True)  # the index holds HashingEmbedder()'s vectors of every turn and memory
    path = day_file(paths.logs, "2026-11-24")
    first, second = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(first + second.replace(b"powder hotel", b"onsen hotel"))  # the index is now stale for it
    embedder = HashingEmbedder()
    bench = Workbench(paths, load_config(paths.config), embedder=lambda: embedder, ask_passphrase=lambda: PASSPHRASE)

    report = bench.mirror.run("open", dsn=pg_dsn)

    assert (report.vectors_reused, report.vectors_embedded) == (2 + 7, 1)  # the changed turn is embedded
    for turn in TURNS:
        (text, stored), = rows(pg_dsn, "SELECT text, embedding::text FROM reverie.turns WHERE id = %s", (turn.id,))
        fresh = embedder.embed([text])[0]
        got = np.array(json.loads(stored), dtype=np.float32)
        assert float(got @ fresh / np.linalg.norm(got)) > 0.99


def test_a_second_mirror_at_the_same_time_is_refused(world: Workbench, pg_dsn: str) -> None:
    from core.mirror.schema import LOCK_KEY

    with psycopg.connect(pg_dsn, autocommit=True) as other:  # another run holds the writer's lock
        other.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        with pytest.raises(ReverieError, match="another reverie mirror is writing to postgresql://"):
            world.mirror.run("open", dsn=pg_dsn)
    assert world.mirror.run("open", dsn=pg_dsn).turns_written == 3
