"""Assistant-facing figures: MCP start-up, recall round-trips (MCP client session, REST API), and the
precision of each local suggester at its default threshold.

    python tests/bench/bench_assist.py [--runs 8] [--calls 40] [--turns 3000] [--hashing]
                                       [--fastmcp-python /path/to/venv/bin/python] [--json]

Start-up: spawn → ``initialize`` → ``tools/list`` answered, through the MCP SDK's client over stdio,
for ``reverie mcp`` on a bench home (real Argon2id parameters, so unlocking the vault is included)
and for minimal five-tool servers built three ways: the official SDK's low-level ``Server``, its
``MCPServer`` (the former FastMCP), and the standalone ``fastmcp`` package (only with
``--fastmcp-python``: it pins its own ``mcp`` and lives in another virtualenv). Runs are interleaved
so load on the shared machine hits every variant alike; the median and the minimum are reported.

Round-trips: ``recall`` calls with a mix of queries (time ranges in three languages, names, plain
words) over ``--turns`` synthetic turns and the bench memories, exact mode (the bench index holds no
vectors, so no model loads): through a real MCP client session, through the REST API on a kept-alive
HTTP connection, and in process (the surface alone) to show what the transports add.

Suggesters: drafts written for this bench with known answers against 30 confirmed memories
(:data:`MEMORIES`), all captured on a Wednesday evening in Seoul: 30 development drafts
(:data:`DRAFTS`, looked at while the cue rules were written) and 15 held-out drafts
(:data:`HELD_OUT`, written afterwards and never used for tuning). Each attached item is judged: an
``occurred_at`` on the right local day, a person or a tag in the expected set, the expected place.
Precision = correct / attached; coverage = correct / expected, for context. Tags use the packaged
all-MiniLM-L6-v2 unless ``--hashing`` (word hashing, no model).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import anyio  # noqa: E402

from core.config import Config, load_config  # noqa: E402
from core.paths import HomePaths  # noqa: E402
from core.vault.crypto import KdfParams  # noqa: E402
from core.vault.review import StoredDraft  # noqa: E402
from core.vault.store import MemoryStore  # noqa: E402

PASSPHRASE = "bench passphrase"
WRITTEN = "2026-11-25T21:00:00+09:00"  # a Wednesday evening in Seoul
CONFIG = '[general]\ntimezone = "Asia/Seoul"\n'

# (content, tags, people, location) — what the person confirmed before
MEMORIES: tuple[tuple[str, list[str], list[str], str | None], ...] = (
    ("Hiked up Bukhansan with Minji; the fog cleared at the summit", ["hiking", "friends"], ["Minji"], "Bukhansan"),
    ("Morning walk through Seoul Forest with the kids, ducks everywhere", ["family", "kids"], [], "Seoul Forest"),
    ("Trail run on Bukhansan, knees sore afterwards", ["hiking", "health"], [], "Bukhansan"),
    ("Minji and I climbed Inwangsan at sunset", ["hiking", "friends"], ["Minji"], "Inwangsan"),
    ("Quarterly report deadline moved; Kate Smith will review the draft", ["work"], ["Kate Smith"], "the office"),
    ("Team offsite planning with Jun and Kate Smith", ["work"], ["Jun", "Kate Smith"], "the office"),
    ("Budget review for the new project with Jun", ["work", "finance"], ["Jun"], "the office"),
    ("Paid the property tax and updated the household budget", ["finance"], [], None),
    ("Grandpa told the story about the night train to Busan", ["family"], ["Grandpa"], "Busan"),
    ("Dinner at Grandpa's: he made kimchi stew", ["family", "food"], ["Grandpa"], None),
    ("Flew to Jeju for the weekend, windy beaches and tangerines", ["travel"], [], "Jeju"),
    ("Ski trip in Niseko, deep powder every morning", ["travel"], [], "Niseko"),
    ("Kyoto temples with 田中さん guiding us", ["travel"], ["田中"], "Kyoto"),
    ("Ramen crawl in Hongdae with Jun", ["food", "friends"], ["Jun"], "Hongdae"),
    ("Tried a new pasta recipe with fresh basil", ["food"], [], None),
    ("Planted tomatoes and basil on the balcony", ["garden"], [], None),
    ("The balcony peppers finally turned red", ["garden"], [], None),
    ("Rose gave me seedlings for the garden", ["garden", "friends"], ["Rose"], None),
    ("Dentist appointment, two fillings", ["health"], [], None),
    ("Started physiotherapy for my knee with Dr. Park", ["health"], ["Dr. Park"], None),
    ("Soyeon's school play, she was the moon", ["kids", "family"], ["Soyeon"], None),
    ("Parent-teacher meeting about Soyeon's reading", ["kids"], ["Soyeon"], None),
    ("민지랑 서울숲에서 자전거 탔다", ["friends"], ["민지"], "서울숲"),
    ("Bill from accounting fixed the expense report", ["work"], ["Bill"], "the office"),
    ("Weekend in Busan, fish market and the beach", ["travel"], [], "Busan"),
    ("Cooked dinner for Kate Smith's birthday", ["food", "friends"], ["Kate Smith"], None),
    ("Ran 10k along the Han River", ["health"], [], "Han River"),
    ("Invoice sent to the client, payment due in 30 days", ["work", "finance"], [], None),
    ("Family picnic at Seoul Forest with Grandpa", ["family"], ["Grandpa"], "Seoul Forest"),
    ("Overnight hike to Jirisan with Minji and Jun", ["hiking", "friends"], ["Minji", "Jun"], "Jirisan"),
)

# (content, expected local date or None, expected people, expected place or None, acceptable tags)
DRAFTS: tuple[tuple[str, str | None, set[str], str | None, set[str]], ...] = (
    ("Yesterday Minji and I hiked Bukhansan again; the leaves were gone", "2026-11-24", {"Minji"}, "Bukhansan",
     {"hiking", "friends"}),
    ("Last Saturday we took the kids to Seoul Forest to feed the ducks", "2026-11-21", set(), "Seoul Forest",
     {"family", "kids"}),
    ("Kate Smith sent back the report with comments this morning", "2026-11-25", {"Kate Smith"}, None, {"work"}),
    ("Next Friday we will fly to Jeju", None, set(), None, {"travel"}),
    ("Grandpa called on Sunday and talked about Busan again", "2026-11-22", {"Grandpa"}, None, {"family"}),
    ("Ramen with Jun in Hongdae tonight", "2026-11-25", {"Jun"}, "Hongdae", {"food", "friends"}),
    ("Paid the car insurance", None, set(), None, {"finance"}),
    ("지난주 화요일 밤에 민지랑 서울숲에서 산책했다", "2026-11-17", {"민지"}, "서울숲", {"friends"}),
    ("昨日、田中さんと京都で会った", "2026-11-24", {"田中"}, "Kyoto", {"travel"}),
    ("I will bill the client for the extra hours", None, set(), None, {"work", "finance"}),
    ("A rose bloomed on the balcony today", "2026-11-25", set(), None, {"garden"}),
    ("Rose brought more seedlings yesterday", "2026-11-24", {"Rose"}, None, {"garden", "friends"}),
    ("Physio with Dr. Park on Monday, the knee is better", "2026-11-23", {"Dr. Park"}, None, {"health"}),
    ("Soyeon read a whole book by herself on 2026-11-20", "2026-11-20", {"Soyeon"}, None, {"kids", "family"}),
    ("In March we moved into the new apartment", None, set(), None, {"family"}),
    ("Bill and Kate Smith fixed the budget spreadsheet at the office", None, {"Bill", "Kate Smith"}, "the office",
     {"work", "finance"}),
    ("3 days ago we went skiing in Niseko", "2026-11-22", set(), "Niseko", {"travel"}),
    ("Dinner at Grandpa's last night, he made stew again", "2026-11-24", {"Grandpa"}, None, {"family", "food"}),
    ("Ran along the Han River at 7am", "2026-11-25", set(), "Han River", {"health"}),
    ("On Monday I booked the flights for Friday to Busan", "2026-11-23", set(), None, {"travel"}),
    ("Minji says Jun is moving to Busan next month", None, {"Minji", "Jun"}, None, {"friends"}),
    ("Tomatoes are done for the season, pulled the plants", None, set(), None, {"garden"}),
    ("Kate is coming over for dinner on Saturday", None, {"Kate Smith"}, None, {"food", "friends"}),
    ("The dentist said my gums look better", None, set(), None, {"health"}),
    ("Jun and I hiked Jirisan overnight last weekend", "2026-11-21", {"Jun"}, "Jirisan", {"hiking", "friends"}),
    ("Mark the calendar: Soyeon's recital is in December", None, {"Soyeon"}, None, {"kids", "family"}),
    ("Had coffee with Minji in Hongdae at 3pm", "2026-11-25", {"Minji"}, "Hongdae", {"friends", "food"}),
    ("The quarterly budget is finally approved", None, set(), None, {"work", "finance"}),
    ("오늘 아침에 할아버지가 전화하셨다", "2026-11-25", {"Grandpa"}, None, {"family"}),
    ("We spent the afternoon in Seoul Forest, then dinner in Hongdae", None, set(), "Seoul Forest",
     {"family", "food"}),
)

# Written after the suggesters' cue rules were settled, and never used to tune them: a held-out check.
HELD_OUT: tuple[tuple[str, str | None, set[str], str | None, set[str]], ...] = (
    ("This afternoon Jun and I argued about the budget at the office", "2026-11-25", {"Jun"}, "the office",
     {"work", "finance"}),
    ("Two days ago Grandpa fell asleep during the movie", "2026-11-23", {"Grandpa"}, None, {"family"}),
    ("We are going to Kyoto in spring with 田中さん", None, {"田中"}, None, {"travel"}),
    ("Soyeon lost her first tooth on Monday night", "2026-11-23", {"Soyeon"}, None, {"kids", "family"}),
    ("Minji cooked pasta for everyone last Friday", "2026-11-20", {"Minji"}, None, {"food", "friends"}),
    ("Dr. Park says the knee needs two more weeks", None, {"Dr. Park"}, None, {"health"}),
    ("어제 준이랑 홍대에서 라멘 먹었다", "2026-11-24", {"Jun"}, "Hongdae", {"food", "friends"}),
    ("Rainy walk in Seoul Forest this morning, no ducks", "2026-11-25", set(), "Seoul Forest", {"family", "health"}),
    ("Bill will send the invoice tomorrow", None, {"Bill"}, None, {"work", "finance"}),
    ("Harvested the last peppers from the balcony on Sunday", "2026-11-22", set(), None, {"garden"}),
    ("Kate Smith and Jun presented the offsite plan", None, {"Kate Smith", "Jun"}, None, {"work"}),
    ("We hiked Inwangsan on 2026-11-15 and saw the city lights", "2026-11-15", set(), "Inwangsan", {"hiking"}),
    ("I mailed Rose a thank-you card", None, {"Rose"}, None, {"friends"}),
    ("Jeju was windy again when we landed last night", "2026-11-24", set(), "Jeju", {"travel"}),
    ("Paid the credit card bill", None, set(), None, {"finance"}),
)

QUERIES = ("what did we decide about the budget last Tuesday", "Niseko powder", "hiking with Minji",
           "지난주 회의에서 뭐 얘기했지", "先週の会議", "deadline since Monday",
           "what did Kate say yesterday about the report", "ramen in Hongdae", "3 days ago", "garden tomatoes")


# -- homes -------------------------------------------------------------------------------------------


def confirm(vault: MemoryStore, content: str, tags: list[str], people: list[str], location: str | None) -> None:
    draft = vault.create_draft(content, tags)
    for sid, name, value in (("p", "people", people), ("l", "location", location)):
        if value:
            draft = draft.add_suggestion(name, value, "bench", suggestion_id=sid).accept(sid, reviewer="me")
    draft = draft.approve(reviewer="me")
    vault.save_draft(draft)
    vault.finalize_draft(draft)


def make_home(root: Path, turns: int, kdf: KdfParams) -> HomePaths:
    """Config, a vault with :data:`MEMORIES`, ``turns`` synthetic turns over 60 days, an exact index."""
    from core.index import HomeDayLogs, Reindexer, SearchIndex
    from core.recall import sync_vault
    from core.topics import add_marker
    from core.turns import Turn, day_file, format_ts

    paths = HomePaths(root=root / "home", cache=root / "cache").ensure()
    paths.config.write_text(CONFIG, encoding="utf-8")
    vault = MemoryStore.create(paths, PASSPHRASE, kdf)
    for content, tags, people, location in MEMORIES:
        confirm(vault, content, tags, people, location)
    rng = random.Random(7)
    words = [*" ".join(m[0] for m in MEMORIES).split(), "budget", "deadline", "meeting", "회의", "会議", "report"]
    start = datetime(2026, 9, 27, tzinfo=UTC)
    actors = ("me", "Kate", "Jun", "claude")
    by_day: dict[str, list[str]] = {}
    for i in range(turns):
        when = start + timedelta(seconds=i * (60 * 86400 // max(turns, 1)))
        actor = rng.choice(actors)
        text = " ".join(rng.choice(words) for _ in range(rng.randint(6, 24)))
        turn = Turn(id=f"b{i}", ts=format_ts(when), actor=actor, role="assistant" if actor == "claude" else "user",
                    type="text", text=text, model=None, session=f"s{i // 40}", source="claude-code:/bench.jsonl")
        by_day.setdefault(turn.day, []).append(turn.to_json())
    for day, lines in by_day.items():
        path = day_file(paths.logs, day)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with SearchIndex.open(paths) as index:
        Reindexer(index, HomeDayLogs(paths), embedder=None).run(embed=False)
        sync_vault(index, vault, load_config(paths.config).zone())
    add_marker(paths, "planning the Niseko ski trip")
    return paths


def server_env(paths: HomePaths) -> dict[str, str]:
    return {"REVERIE_HOME": str(paths.root), "REVERIE_CACHE": str(paths.cache.parent),
            "REVERIE_PASSPHRASE": PASSPHRASE, "PYTHONPATH": str(ROOT)}


# -- start-up ----------------------------------------------------------------------------------------

_TOOLS = ("recall", "where_are_we", "context", "propose_memory", "suggest")
LOWLEVEL = """
import anyio, mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
TOOLS = [types.Tool(name=n, description=n, input_schema={"type": "object", "properties": {}}) for n in NAMES]
async def list_tools(ctx, params): return types.ListToolsResult(tools=TOOLS)
async def call_tool(ctx, params): return types.CallToolResult(content=[types.TextContent(type="text", text="{}")])
server = Server("bench", on_list_tools=list_tools, on_call_tool=call_tool)
async def main():
    async with stdio_server() as (r, w):
        await server.run(r, w, server.create_initialization_options())
anyio.run(main)
""".replace("NAMES", repr(_TOOLS))
HIGHLEVEL = """
from mcp.server.mcpserver import MCPServer
s = MCPServer("bench", log_level="WARNING")
def recall(query: str, limit: int | None = None, now: str | None = None) -> str: return "{}"
def where_are_we() -> str: return "{}"
def context(query: str | None = None, budget: int | None = None) -> str: return "{}"
def propose_memory(content: str, tags: list[str] | None = None,
                   suggestions: list[dict] | None = None) -> str: return "{}"
def suggest(draft_id: str, field: str, value: object, confidence: float | None = None) -> str: return "{}"
for fn in (recall, where_are_we, context, propose_memory, suggest):
    s.add_tool(fn)
s.run()
"""
FASTMCP = HIGHLEVEL.replace("from mcp.server.mcpserver import MCPServer", "from fastmcp import FastMCP").replace(
    'MCPServer("bench", log_level="WARNING")', 'FastMCP("bench")').replace("s.run()", "s.run(show_banner=False)")


async def spawn_and_list(command: str, args: list[str], env: dict[str, str] | None) -> float:
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters

    started = time.perf_counter()
    params = StdioServerParameters(command=command, args=args, env=env, cwd=str(ROOT))
    with open(os.devnull, "w") as quiet:
        from mcp.client.stdio import stdio_client

        async with Client(stdio_client(params, errlog=quiet), mode="legacy") as client:
            await client.list_tools()
            elapsed = time.perf_counter() - started
    return elapsed


def bench_startup(paths: HomePaths, runs: int, scripts: Path,
                  fastmcp_python: str | None) -> dict[str, dict[str, float]]:
    (scripts / "lowlevel.py").write_text(LOWLEVEL, encoding="utf-8")
    (scripts / "highlevel.py").write_text(HIGHLEVEL, encoding="utf-8")
    (scripts / "fast.py").write_text(FASTMCP, encoding="utf-8")
    variants: dict[str, tuple[str, list[str], dict[str, str] | None]] = {
        "reverie mcp (full: config, unlock, tools)": (sys.executable, ["-m", "tui_app.cli.main", "mcp"],
                                                      server_env(paths)),
        "mcp 2.3 low-level Server (5 tools)": (sys.executable, [str(scripts / "lowlevel.py")], None),
        "mcp 2.3 MCPServer (5 tools)": (sys.executable, [str(scripts / "highlevel.py")], None),
    }
    if fastmcp_python:
        variants["fastmcp FastMCP (5 tools)"] = (fastmcp_python, [str(scripts / "fast.py")], None)
    times: dict[str, list[float]] = {name: [] for name in variants}

    async def run_all() -> None:
        for _ in range(runs):
            for name, (command, args, env) in variants.items():
                times[name].append(await spawn_and_list(command, args, env))

    anyio.run(run_all)
    return {name: {"median_s": statistics.median(v), "min_s": min(v)} for name, v in times.items()}


# -- round-trips -------------------------------------------------------------------------------------


def summary(ms: list[float]) -> dict[str, float]:
    ordered = sorted(ms)
    return {"median_ms": statistics.median(ordered), "p95_ms": ordered[max(0, int(len(ordered) * 0.95) - 1)],
            "calls": len(ordered)}


def bench_mcp_recall(paths: HomePaths, calls: int) -> dict[str, float]:
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    ms: list[float] = []

    async def run() -> None:
        params = StdioServerParameters(command=sys.executable, args=["-m", "tui_app.cli.main", "mcp"],
                                       env=server_env(paths), cwd=str(ROOT))
        with open(os.devnull, "w") as quiet:
            async with Client(stdio_client(params, errlog=quiet), mode="legacy") as client:
                await client.call_tool("recall", {"query": QUERIES[0]})  # first call opens the index, syncs
                for i in range(calls):
                    t0 = time.perf_counter()
                    result = await client.call_tool("recall", {"query": QUERIES[i % len(QUERIES)], "limit": 10})
                    ms.append((time.perf_counter() - t0) * 1000)
                    assert not result.is_error, result.content[0].text

    anyio.run(run)
    return summary(ms)


def bench_api_recall(paths: HomePaths, calls: int) -> dict[str, float]:
    from tui_app.api.serve import make_server
    from tui_app.api.token import ensure_token

    os.environ["REVERIE_PASSPHRASE"] = PASSPHRASE
    token, _ = ensure_token(paths)
    server = make_server(paths, load_config(paths.config), port=0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.server.started:
        time.sleep(0.02)
    host, port = server.sock.getsockname()[:2]
    connection = http.client.HTTPConnection(host, port, timeout=60)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def post(query: str) -> None:
        connection.request("POST", "/v1/recall", json.dumps({"query": query, "limit": 10}), headers)
        response = connection.getresponse()
        body = response.read()
        assert response.status == 200, body

    ms: list[float] = []
    try:
        post(QUERIES[0])
        for i in range(calls):
            t0 = time.perf_counter()
            post(QUERIES[i % len(QUERIES)])
            ms.append((time.perf_counter() - t0) * 1000)
    finally:
        connection.close()
        server.stop()
        thread.join(timeout=20)
    return summary(ms)


def bench_inprocess_recall(paths: HomePaths, calls: int) -> dict[str, float]:
    from core.assist.surface import AssistantSurface, Caller
    from core.sharing import SharePolicy
    from core.vault.crypto import unlock

    config = load_config(paths.config)
    from core.workbench import Workbench

    workbench = Workbench(paths, config)
    workbench.adopt_keys(unlock(paths.vault_header, PASSPHRASE))
    surface = AssistantSurface(workbench, SharePolicy.from_config(config))
    caller = Caller("bench")
    ms: list[float] = []
    try:
        surface.call("recall", {"query": QUERIES[0]}, caller)
        for i in range(calls):
            t0 = time.perf_counter()
            surface.call("recall", {"query": QUERIES[i % len(QUERIES)], "limit": 10}, caller)
            ms.append((time.perf_counter() - t0) * 1000)
    finally:
        surface.close()
    return summary(ms)


# -- suggesters --------------------------------------------------------------------------------------


def judge(field: str, value: Any, expected: tuple[str | None, set[str], str | None, set[str]]) -> tuple[int, int]:
    """(correct, attached) items of one attached suggestion."""
    date, people, place, tags = expected
    if field == "occurred_at":
        return int(date is not None and str(value)[:10] == date), 1
    if field == "people":
        return sum(1 for p in value if p in people), len(value)
    if field == "location":
        return int(value == place), 1
    if field == "tags":
        return sum(1 for t in value if t in tags), len(value)
    return 0, 1


def expected_count(field: str, expected: tuple[str | None, set[str], str | None, set[str]]) -> int:
    date, people, place, tags = expected
    return {"occurred_at": int(date is not None), "people": len(people), "location": int(place is not None),
            "tags": len(tags)}[field]


def bench_suggesters(root: Path, use_hashing: bool) -> dict[str, Any]:
    from core.embed import make_embedder
    from core.embed.hashing import HashingEmbedder
    from core.suggest import SuggestContext, collect, default_suggesters

    paths = HomePaths(root=root / "suggest-home", cache=root / "suggest-cache").ensure()
    paths.config.write_text(CONFIG, encoding="utf-8")
    vault = MemoryStore.create(paths, PASSPHRASE, KdfParams.for_tests())
    for content, tags, people, location in MEMORIES:
        confirm(vault, content, tags, people, location)
    config: Config = load_config(paths.config)
    embedder = HashingEmbedder() if use_hashing else make_embedder(config.embedding)
    suggesters = default_suggesters()
    out: dict[str, Any] = {"tag_model": embedder.name,
                           "thresholds": {s.name: s.threshold for s in suggesters}}
    for label, drafts in (("development", DRAFTS), ("held_out", HELD_OUT)):
        started = time.perf_counter()
        out[label] = score_drafts(drafts, lambda: SuggestContext(vault=vault, config=config, paths=paths,
                                                                 embedder=embedder), collect, suggesters)
        out[label]["seconds"] = round(time.perf_counter() - started, 2)
    return out


FIELDS = {"dates": "occurred_at", "tags": "tags", "people": "people", "places": "location"}


def score_drafts(drafts: tuple[tuple[str, str | None, set[str], str | None, set[str]], ...],
                 make_ctx: Callable[[], Any], collect: Callable[..., Any], suggesters: list[Any]) -> dict[str, Any]:
    tally = {name: {"correct": 0, "attached": 0, "expected": 0, "wrong": []} for name in FIELDS}
    for i, (content, date, people, place, tags) in enumerate(drafts):
        draft = StoredDraft(draft_id=f"draft_b{i}", content=content, created_at=WRITTEN)
        expected = (date, people, place, tags)
        for name, field in FIELDS.items():
            tally[name]["expected"] += expected_count(field, expected)
        for found in collect(draft, make_ctx(), suggesters):
            p = found.proposal
            if not p.attach:
                continue
            correct, attached = judge(p.field_name, p.value, expected)
            row = tally[found.suggester]
            row["correct"] += correct
            row["attached"] += attached
            if correct < attached:
                row["wrong"].append(f"{content[:40]!r} → {p.value!r}")
    out: dict[str, Any] = {"drafts": len(drafts)}
    for name, row in tally.items():
        out[name] = {
            "attached": row["attached"],
            "correct": row["correct"],
            "precision": round(row["correct"] / row["attached"], 3) if row["attached"] else None,
            "coverage": round(row["correct"] / row["expected"], 3) if row["expected"] else None,
            "wrong": row["wrong"],
        }
    return out


# -- report ------------------------------------------------------------------------------------------


def table(results: dict[str, Any]) -> str:
    lines = ["MCP start-up (spawn → initialize → tools/list)", "| server | median s | min s |", "|---|---|---|"]
    lines += [f"| {k} | {v['median_s']:.2f} | {v['min_s']:.2f} |" for k, v in results["startup"].items()]
    lines += ["", "recall round-trip", "| path | median ms | p95 ms | calls |", "|---|---|---|---|"]
    for key in ("mcp", "api", "in_process"):
        v = results["recall"][key]
        lines.append(f"| {key} | {v['median_ms']:.1f} | {v['p95_ms']:.1f} | {v['calls']} |")
    s = results["suggesters"]
    lines += ["", f"local suggesters at their default thresholds (tags model: {s['tag_model']})",
              "| suggester | threshold | set | attached | correct | precision | coverage |",
              "|---|---|---|---|---|---|---|"]
    for name in FIELDS:
        for label in ("development", "held_out"):
            v = s[label][name]
            precision = "–" if v["precision"] is None else f"{v['precision']:.2f}"
            lines.append(f"| {name} | {s['thresholds'][name]} | {label} ({s[label]['drafts']}) | {v['attached']} | "
                         f"{v['correct']} | {precision} | {v['coverage']:.2f} |")
    for label in ("development", "held_out"):
        for name in FIELDS:
            for wrong in s[label][name]["wrong"]:
                lines.append(f"  wrong {name} ({label}): {wrong}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=8, help="start-up runs per server (interleaved)")
    parser.add_argument("--calls", type=int, default=40, help="recall calls per path")
    parser.add_argument("--turns", type=int, default=3000)
    parser.add_argument("--hashing", action="store_true", help="tags from word hashing instead of the real model")
    parser.add_argument("--fastmcp-python", default=None, help="a python with the standalone fastmcp installed")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="reverie-bench-assist-") as tmp:
        root = Path(tmp)
        paths = make_home(root, args.turns, KdfParams())
        scripts = root / "scripts"
        scripts.mkdir()
        measures: list[tuple[str, Callable[[], Any]]] = [
            ("startup", lambda: bench_startup(paths, args.runs, scripts, args.fastmcp_python)),
            ("mcp", lambda: bench_mcp_recall(paths, args.calls)),
            ("api", lambda: bench_api_recall(paths, args.calls)),
            ("in_process", lambda: bench_inprocess_recall(paths, args.calls)),
            ("suggesters", lambda: bench_suggesters(root, args.hashing)),
        ]
        results: dict[str, Any] = {"recall": {}, "turns": args.turns}
        for key, measure in measures:
            value = measure()
            if key in ("mcp", "api", "in_process"):
                results["recall"][key] = value
            else:
                results[key] = value
    print(json.dumps(results, ensure_ascii=False, indent=2) if args.json else table(results))


if __name__ == "__main__":
    main()
