"""A small home for the sharing, MCP and REST API tests (this module holds no tests).

Memories about Niseko carry tags that the profiles in :data:`CONFIG` deny or allow, in several
spellings (``private``, ``PRIVATE``, ``Health``); each denied memory holds a word (:data:`SECRETS`)
that no answer to an assistant may ever contain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from core.config import load_config
from core.embed.hashing import HashingEmbedder
from core.index import HomeDayLogs, Reindexer, SearchIndex
from core.paths import HomePaths
from core.recall import Recaller, sync_vault
from core.topics import add_marker
from core.turns import Turn, day_file, format_ts
from core.vault.store import MemoryStore
from tests.helpers.vault import make_vault

NOW = datetime(2026, 11, 29, 15, 0, tzinfo=UTC)  # a Sunday
CONFIG = """
[general]
timezone = "UTC"

[sharing.profiles.claude]
deny_tags = ["private"]
reviewed_only = true
sources = ["claude-code"]
max_items = 10
max_tokens = 2000

[sharing.profiles.open]
deny_tags = []
reviewed_only = false

[sharing.profiles.work]
allow_tags = ["work"]
deny_tags = ["private", "health"]
reviewed_only = false
include_turns = false

[sharing.profiles.tiny]
deny_tags = ["private"]
reviewed_only = false
max_items = 2
max_tokens = 40
"""

# (content, tags, reviewed)
MEMORIES: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    ("Niseko ski trip booked for February, powder season", ("travel",), True),
    ("Niseko surprise party for Kate, keep it SECRETPARTY", ("private", "travel"), True),
    ("Niseko doctor visit about my knee, KNEESECRET", ("Health", "work"), True),
    ("Niseko diary entry, DIARYSECRET, written at night", ("PRIVATE",), True),
    ("Niseko lift pass costs 9000 yen", ("travel",), False),
    ("Niseko offsite planning with the work team", ("work",), True),
    ("Untagged Niseko note about the onsen", (), True),
)
SECRETS = ("SECRETPARTY", "KNEESECRET", "DIARYSECRET")
PRIVATE_SECRETS = ("SECRETPARTY", "DIARYSECRET")


def make_turn(when: datetime, text: str, *, session: str, source: str, actor: str = "me",
              role: str = "user") -> Turn:
    ts = format_ts(when)
    return Turn(id=f"t-{session}-{int(when.timestamp())}", ts=ts, actor=actor, role=role, type="text", text=text,
                model=None, session=session, source=source)


TURNS = (
    make_turn(NOW - timedelta(days=5, hours=-4), "Let's go skiing in Niseko next winter", session="cc1",
              source="claude-code:/home/me/.claude/projects/p/cc1.jsonl"),
    make_turn(NOW - timedelta(days=5, hours=-4, minutes=-2), "Niseko it is; I will book the powder hotel",
              session="cc1", source="claude-code:/home/me/.claude/projects/p/cc1.jsonl", actor="claude",
              role="assistant"),
    make_turn(NOW - timedelta(days=3), "Chatgpt said Niseko hotels fill up by October", session="gpt1",
              source="chatgpt"),
)


def write_log(paths: HomePaths, turns: Sequence[Turn]) -> None:
    for t in turns:
        path = day_file(paths.logs, t.day)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(t.to_json() + "\n")


def add_memories(vault: MemoryStore) -> None:
    for content, tags, reviewed in MEMORIES:
        if reviewed:
            draft = vault.create_draft(content, tags).approve(reviewer="me")
            vault.save_draft(draft)
            vault.finalize_draft(draft)
        else:
            vault.add_memory(content, list(tags))


@dataclass
class World:
    paths: HomePaths
    vault: MemoryStore
    embedder: HashingEmbedder | None

    def recaller(self) -> Recaller:
        config = load_config(self.paths.config)
        return Recaller(SearchIndex.open(self.paths), config.recall, embedder=self.embedder, zone=UTC)


def build_world(paths: HomePaths, *, embed: bool = False) -> World:
    """Config, vault, log, index (with hashing vectors when ``embed``) and one topic marker."""
    paths.ensure()
    paths.config.write_text(CONFIG, encoding="utf-8")
    vault = make_vault(paths)
    add_memories(vault)
    write_log(paths, TURNS)
    embedder = HashingEmbedder() if embed else None
    with SearchIndex.open(paths) as index:
        Reindexer(index, HomeDayLogs(paths), embedder=(lambda: embedder) if embedder else None,
                  batch_size=16).run(embed=embed)
        sync_vault(index, vault, UTC, embedder)
    add_marker(paths, "planning the Niseko ski trip", now=NOW - timedelta(hours=2))
    return World(paths, vault, embedder)
