"""Selective sharing: what one assistant may see, decided by its profile (``[sharing.profiles.NAME]``
in ``config.toml``: ``allow_tags``, ``deny_tags``, ``reviewed_only``, ``include_turns``, ``sources``,
``max_items``, ``max_tokens``).

Denied wins: a memory with a denied tag (compared without case or surrounding space) is withheld, then
one not reviewed under ``reviewed_only``, then one without an allowed tag; turns leave only with
``include_turns`` and from the listed sources (an importer name or one exact source); then the item and
token limits (the item crossing the token limit is cut when a useful part fits). A memory is judged by
its sealed record, which must verify and be the version the ledger signed last (:class:`SealedRecords`),
never by the unsigned index. Every way out passes here: recall answers, context blocks and exports.
Topic markers are the person's own words and are always shared.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any

import msgspec

from core.config import Config, ContextConfig, SharingProfile
from core.errors import ReverieError
from core.tags import normalize_tag

# core.context, core.export, core.recall and core.vault load in the functions that use them: `reverie mcp`
# imports this module (through core.assist) before the vault unlocks, without apsw or cryptography.

if TYPE_CHECKING:
    from core.context import ContextBlock
    from core.export import HomeExporter
    from core.index import Filters
    from core.recall import Recaller, RecallItem, RecallResult
    from core.recall.model import ItemForm
    from core.topics import Marker
    from core.vault.records import MemoryRecord
    from core.vault.store import MemoryStore

OVERFETCH = 4  # candidates asked of recall per shareable result wanted (some will be withheld)
MAX_FETCH = 400

DENIED = "denied tag"
UNREVIEWED = "not reviewed"
NOT_ALLOWED = "no allowed tag"
NO_TURNS = "turns not shared"
SOURCE = "source not shared"
OVER_ITEMS = "over max_items"
OVER_TOKENS = "over max_tokens"
UNVERIFIED = "record does not verify"


@dataclass(frozen=True)
class SharePolicy:
    """One profile, ready to judge items. ``name`` is the profile's name in ``config.toml``."""

    profile: SharingProfile
    name: str = "default"
    records: SealedRecords | None = field(default=None, compare=False)  # memories as their records say
    deny: frozenset[str] = field(init=False)
    allow: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "deny", frozenset(normalize_tag(t) for t in self.profile.deny_tags))
        object.__setattr__(self, "allow", frozenset(normalize_tag(t) for t in self.profile.allow_tags))

    @classmethod
    def from_config(cls, config: Config, name: str = "default") -> SharePolicy:
        """The policy of profile ``name`` (``ConfigError`` naming the known profiles if there is none)."""
        return cls(config.sharing_profile(name), name)

    def checked_against(self, vault: Callable[[], MemoryStore]) -> SharePolicy:
        """This policy, judging each memory by its sealed record in ``vault()`` (opened on first use)."""
        return replace(self, records=SealedRecords(vault))

    # -- verdicts: None means shared, otherwise the reason it is withheld --------------------------

    def memory_verdict(self, tags: Iterable[str], reviewed: bool | None) -> str | None:
        carried = {normalize_tag(t) for t in tags}
        if carried & self.deny:
            return DENIED
        if self.profile.reviewed_only and not reviewed:
            return UNREVIEWED
        if self.allow and not carried & self.allow:
            return NOT_ALLOWED
        return None

    def turn_verdict(self, source: str | None) -> str | None:
        if not self.profile.include_turns:
            return NO_TURNS
        if self.profile.sources and not self.source_allowed(source or ""):
            return SOURCE
        return None

    def source_allowed(self, source: str) -> bool:
        from core.recall.pool import source_shared  # lazy: core.recall, apsw

        return source_shared(source, self.profile.sources)

    def item_verdict(self, item: RecallItem) -> str | None:
        if item.kind == "memory":
            return self.memory_verdict(item.tags, item.reviewed)
        return self.turn_verdict(item.source)

    def allows_memory(self, memory: MemoryRecord) -> bool:
        """For ``HomeExporter(include=...)``: the memory's own tags and review state."""
        return self.memory_verdict(memory.metadata.tags, memory.reviewed) is None

    # -- what recall is asked ---------------------------------------------------------------------

    def search_profile(self, limit: int) -> SharingProfile:
        """The profile handed to recall, which makes it a filter of what is searched (denials, allowed
        tags, review rule, turn switch and sources, judged as :meth:`item_verdict` judges them), so
        that every count, note and mode in the answer is computed over shared items only: a withheld
        item never shows, not even as "exact matched 1"."""
        deny = list(dict.fromkeys([*self.profile.deny_tags, *sorted(self.deny)]))
        return replace(self.profile, deny_tags=deny, max_items=limit)

    def fetch_limit(self, wanted: int) -> int:
        return max(wanted, min(MAX_FETCH, wanted * OVERFETCH))


@dataclass(frozen=True)
class SharedRecall:
    """A recall answer after the profile. ``withheld`` (reason → count) and ``cut`` are for the
    person (``reverie share check``); the assistant's answer does not say what was withheld."""

    result: RecallResult
    withheld: dict[str, int] = field(default_factory=dict)
    cut: int = 0
    tokens: int = 0

    def form(self) -> SharedForm:
        """What an assistant is answered: the range, the expression, the mode, the note and each result
        through the profile's form (turns are never reviewed: they are the raw conversation). What is
        withheld and cut is for the person only, never in this form."""
        answer = self.result
        return SharedForm(answer.range.to_dict() if answer.range is not None else None, answer.expression,
                          answer.mode, answer.note, [shared_item(item) for item in answer.results])


class SharedForm(msgspec.Struct, frozen=True):
    """A recall answer as an assistant sees it: ``{"range", "expression", "mode", "note", "results"}``."""

    range: dict[str, str] | None
    expression: str | None
    mode: str
    note: str | None
    results: list[ItemForm]


def shared_item(item: RecallItem) -> ItemForm:
    """``item`` in the published form, saying whether it is reviewed (a turn never is)."""
    return msgspec.structs.replace(item.form(), reviewed=bool(item.reviewed) if item.kind == "memory" else False)


def _best(items: Sequence[RecallItem], limit: int) -> list[RecallItem]:
    """The ``limit`` best by score, kept in the order recall gave them (time order with a range)."""
    if len(items) <= limit:
        return list(items)
    chosen = set(sorted(range(len(items)), key=lambda i: -items[i].score)[:limit])
    return [item for i, item in enumerate(items) if i in chosen]


def _count(withheld: dict[str, int], reason: str, n: int = 1) -> None:
    if n:
        withheld[reason] = withheld.get(reason, 0) + n


def share_items(items: Sequence[RecallItem], policy: SharePolicy, limit: int | None = None,
                withheld: dict[str, int] | None = None) -> list[RecallItem]:
    """The items the profile lets through, at most ``limit`` (default ``max_items``), best first
    by score but in their original order."""
    counts = withheld if withheld is not None else {}
    kept = []
    for item in items:
        if item.kind == "memory" and policy.records is not None:
            sealed = policy.records.as_sealed(item)
            if sealed is None:
                _count(counts, UNVERIFIED)
                continue
            item = sealed
        reason = policy.item_verdict(item)
        if reason is None:
            kept.append(item)
        else:
            _count(counts, reason)
    cap = min(limit or policy.profile.max_items, policy.profile.max_items)
    best = _best(kept, cap)
    _count(counts, OVER_ITEMS, len(kept) - len(best))
    return best


def _fit_tokens(items: list[RecallItem], max_tokens: int,
                withheld: dict[str, int]) -> tuple[list[RecallItem], int, int]:
    """Items while they fit in ``max_tokens``; returns them, how many were cut, and the tokens used."""
    from core.context import MIN_CUT_TOKENS, cut_to_tokens, estimate_tokens  # lazy: core.recall, apsw

    out: list[RecallItem] = []
    used = cut = 0
    for index, item in enumerate(items):
        cost = estimate_tokens(item.text)
        if used + cost <= max_tokens:
            out.append(item)
            used += cost
            continue
        room = max_tokens - used
        if room >= MIN_CUT_TOKENS:
            text = cut_to_tokens(item.text, room)
            out.append(replace(item, text=text))
            used += estimate_tokens(text)
            cut += 1
            _count(withheld, OVER_TOKENS, len(items) - index - 1)
        else:
            _count(withheld, OVER_TOKENS, len(items) - index)
        break
    return out, cut, used


def share_recall(result: RecallResult, policy: SharePolicy, limit: int | None = None) -> SharedRecall:
    """``result`` as the profile lets it out: withheld items removed, at most ``limit`` (and
    ``max_items``) results and ``max_tokens`` tokens."""
    withheld: dict[str, int] = {}
    items = share_items(result.results, policy, limit, withheld)
    items, cut, tokens = _fit_tokens(items, policy.profile.max_tokens, withheld)
    return SharedRecall(replace(result, results=items), withheld, cut, tokens)


class SharedRecaller:
    """A :class:`core.recall.Recaller` seen through a profile: ``search`` and ``latest`` answer only
    what the profile shares (whatever profile the caller passes). :func:`core.context.build_context`
    takes it in place of a recaller, so a context block is built from shared items only."""

    def __init__(self, recaller: Recaller, policy: SharePolicy) -> None:
        self.recaller = recaller
        self.policy = policy
        self.withheld: dict[str, int] = {}

    @property
    def index(self) -> Any:
        return self.recaller.index

    def _wanted(self, limit: int | None) -> int:
        default = self.recaller.config.default_limit
        return min(limit or default, self.policy.profile.max_items)

    def search(self, query: str, *, now: datetime | None = None, zone: tzinfo | None = None,
               limit: int | None = None, mode: str = "auto", filters: Filters | None = None,
               profile: SharingProfile | None = None) -> RecallResult:
        wanted = self._wanted(limit)
        fetch = self.policy.fetch_limit(wanted)
        answer = self.recaller.search(query, now=now, zone=zone, limit=fetch, mode=mode, filters=filters,
                                      profile=self.policy.search_profile(fetch))
        return replace(answer, results=share_items(answer.results, self.policy, wanted, self.withheld))

    def latest(self, *, now: datetime | None = None, limit: int | None = None, filters: Filters | None = None,
               profile: SharingProfile | None = None) -> RecallResult:
        wanted = self._wanted(limit)
        fetch = self.policy.fetch_limit(wanted)
        answer = self.recaller.latest(now=now, limit=fetch, filters=filters, profile=self.policy.search_profile(fetch))
        return replace(answer, results=share_items(answer.results, self.policy, wanted, self.withheld))


def shared_search(recaller: Recaller, policy: SharePolicy, query: str, *, now: datetime, zone: tzinfo,
                  limit: int | None = None, mode: str = "auto") -> SharedRecall:
    """The recall answer an assistant gets: the same entry point as ``reverie search``, through the profile."""
    shared = SharedRecaller(recaller, policy)
    answer = shared.search(query, now=now, zone=zone, limit=limit, mode=mode)
    result = share_recall(answer, policy, limit)
    merged = dict(shared.withheld)
    for reason, n in result.withheld.items():
        _count(merged, reason, n)
    return replace(result, withheld=merged)


def shared_context(recaller: Recaller, policy: SharePolicy, query: str | None, *, markers: Sequence[Marker],
                   now: datetime, zone: tzinfo, config: ContextConfig | None = None,
                   budget: int | None = None) -> ContextBlock:
    """The block of ``reverie context --profile``: built from shared items only, within the smaller
    of the budget and the profile's ``max_tokens``."""
    from core.context import build_context  # lazy: core.recall, apsw

    block = build_context(SharedRecaller(recaller, policy), query, markers=markers, now=now, zone=zone,
                          config=config, budget=budget, profile=policy.profile)
    leaked = [item.id for item in [*block.memories, *block.turns] if policy.item_verdict(item) is not None]
    if leaked:  # pragma: no cover - SharedRecaller makes this impossible; never let it out if it happens
        raise RuntimeError(f"sharing: the context block holds unshared items {leaked[:3]}")
    return block


class SealedRecords:
    """What the vault's sealed records say about memories: a memory item as its record has it (text,
    tags, review state), or None when the record is missing, does not verify, is not the version the
    ledger signed last, or the ledger chain is damaged. ``vault`` is called on first use."""

    def __init__(self, vault: Callable[[], MemoryStore]) -> None:
        self._vault = vault
        self._latest: tuple[int, dict[str, str]] | None = None  # (the ledger reading, memory id → sha256)

    def _signed(self, vault: MemoryStore) -> dict[str, str] | None:
        """Memory id → SHA-256 of the record the ledger signed last (None: the chain is damaged)."""
        from core.vault.store import MEMORY_KINDS  # lazy: cryptography

        reading = vault.ledger.read(full=False)
        if [p for p in reading.problems if p.kind != "incomplete"]:
            return None
        if self._latest is None or self._latest[0] != id(reading):
            latest = {e.record_id: e for e in reading.entries if e.record_id.startswith("mem_")}
            self._latest = (id(reading), {k: e.record_sha256 for k, e in latest.items() if e.kind in MEMORY_KINDS})
        return self._latest[1]

    def as_sealed(self, item: RecallItem) -> RecallItem | None:
        from core.vault.canonical import sha256_hex  # lazy: core.vault, beside open_memory
        from core.vault.records import open_memory  # lazy: cryptography

        try:
            vault = self._vault()
            signed = self._signed(vault)
            path = vault.memory_path(item.id)
            data = path.read_bytes()
            if signed is None or signed.get(item.id) != sha256_hex(data):
                return None
            memory = open_memory(data, vault.keys, str(path), item.id)
        except (ReverieError, OSError):
            return None
        return replace(item, text=memory.content, tags=tuple(memory.metadata.tags), reviewed=memory.reviewed)


def shared_exporter(vault: MemoryStore, policy: SharePolicy) -> HomeExporter:
    """Exports (RAG chunks, JSONL, conversation history, knowledge graph) of the shared memories only."""
    from core.export import HomeExporter  # lazy: cryptography

    return HomeExporter(vault, include=policy.allows_memory)


@dataclass(frozen=True)
class CheckedItem:
    item: RecallItem
    reason: str | None  # None: shared


@dataclass(frozen=True)
class ShareCheck:
    """What ``reverie share check`` shows: the answer the assistant would get, and what the same
    query finds without the profile, each item with the reason it is withheld."""

    shared: SharedRecall
    found: list[CheckedItem]


def check_share(recaller: Recaller, policy: SharePolicy, query: str, *, now: datetime, zone: tzinfo,
                limit: int | None = None) -> ShareCheck:
    shared = shared_search(recaller, policy, query, now=now, zone=zone, limit=limit)
    wanted = min(limit or recaller.config.default_limit, policy.profile.max_items)
    everything = recaller.search(query, now=now, zone=zone, limit=policy.fetch_limit(wanted))
    sent = {item.id for item in shared.result.results}
    found = []
    for item in everything.results:
        reason = policy.item_verdict(item)
        if reason is None and item.id not in sent:
            reason = OVER_ITEMS
        found.append(CheckedItem(item, reason))
    return ShareCheck(shared, found)
