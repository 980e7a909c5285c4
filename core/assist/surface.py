"""The read-and-propose surface an assistant gets, the same over MCP and the REST API.

Five operations: ``recall``, ``where_are_we`` (the latest topic markers), ``context``,
``propose_memory`` (a new draft in the review queue) and ``suggest`` (one more suggestion on an open
draft). Reads pass the server's sharing profile; writes only create drafts and add suggestions, with
the assistant's provenance. Nothing here accepts, approves, finalizes, edits, deletes, curates or
restores. Every failure is a one-line :class:`SurfaceError` naming the field, with the HTTP status the
REST API answers (400, 403, 404, 409, 429 with ``retry_after``); proposal limits are counted by
:mod:`core.assist.proposal_limits` from the drafts on disk, and nothing is written past one.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import msgspec

from core import clock
from core.assist import schemas
from core.assist.answers import ContextAnswer, Markers, Proposed, RecallAnswer, Suggested
from core.assist.proposal_limits import LimitReached, ProposalCounter
from core.assist.schemas import ArgumentError
from core.config import AssistantsConfig, Config
from core.errors import NotFound, ReverieError, ReviewError
from core.frozen import thaw
from core.paths import HomePaths
from core.sharing import SharePolicy, shared_item

if TYPE_CHECKING:
    from core.vault.store import MemoryStore
    from core.workbench import Workbench

TOOLS = ("recall", "where_are_we", "context", "propose_memory", "suggest")
_CLIENT_NAME = re.compile(r"[^A-Za-z0-9._ -]+")


class SurfaceError(ReverieError):
    def __init__(self, message: str, status: int = 400, *, retry_after: int | None = None,
                 detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after  # seconds, for a Retry-After header
        self.detail = detail  # more fields for the JSON error body (a limit's name, count, max…)

    @classmethod
    def limit(cls, exc: LimitReached) -> SurfaceError:
        # 429: frees with time or review; 403: the person turned it off; 409: the per-draft cap, for good
        status = 429 if exc.retry_after is not None else 403 if exc.maximum == 0 else 409
        return cls(str(exc), status, retry_after=exc.retry_after, detail=msgspec.to_builtins(exc.form()))


@dataclass(frozen=True)
class Caller:
    """Who is calling: the channel (mcp, api) and the assistant's own name and version."""

    channel: str
    name: str = "assistant"
    version: str | None = None

    @classmethod
    def named(cls, channel: str, name: str | None, version: str | None = None) -> Caller:
        clean = " ".join(_CLIENT_NAME.sub(" ", name or "").split())[:64] or "assistant"
        ver = " ".join(_CLIENT_NAME.sub(" ", version or "").split())[:32] or None
        return cls(channel, clean, ver)

    @property
    def source(self) -> str:
        """The suggestion ``source`` and the draft's ``created_by``: ``mcp:claude-code``."""
        return f"{self.channel}:{self.name}"

    @property
    def process_version(self) -> str:
        return f"{self.name} {self.version}" if self.version else self.name


def limit_figures(limits: AssistantsConfig | None = None) -> dict[str, int]:
    """The proposal limits in force by name (the defaults without ``limits``), the keyword arguments of
    the tool descriptions' ``str.format``."""
    return dataclasses.asdict(limits or AssistantsConfig())


def parse_now(text: str | None, config: Config) -> datetime:
    """The ``now`` argument (ISO 8601; the current time when absent) in the configured zone."""
    try:
        return clock.parse_now(text, config.zone())
    except clock.TimeInputError as exc:
        raise ArgumentError(str(exc)) from exc


class AssistantSurface:
    """One per server process, over the process's workbench (``AssistantSurface.open(workbench, profile)``).
    Calls are serialised (the index and the model are shared). Before each read the workbench's
    freshness policy runs: new turns (a small lag) and a changed vault are brought into the index."""

    @classmethod
    def open(cls, workbench: Workbench, profile: str = "default") -> AssistantSurface:
        """The surface under the sharing profile ``profile`` of the workbench's settings (an unknown
        profile is a ``ConfigError`` naming it)."""
        return cls(workbench, SharePolicy.from_config(workbench.config, profile))

    def __init__(self, workbench: Workbench, policy: SharePolicy) -> None:
        self.workbench = workbench
        # Memories leave as their sealed records say, never as the (unsigned) index says.
        self.policy = policy if policy.records is not None else policy.checked_against(lambda: workbench.vault)
        self._limits: ProposalCounter | None = None
        self._lock = threading.Lock()

    # -- plumbing --------------------------------------------------------------------------------

    @property
    def paths(self) -> HomePaths:
        return self.workbench.paths

    @property
    def config(self) -> Config:
        return self.workbench.config

    @property
    def vault(self) -> MemoryStore:
        return self.workbench.vault

    @property
    def limits(self) -> ProposalCounter:
        if self._limits is None:
            self._limits = ProposalCounter(self.vault, self.config.assistants)
        return self._limits

    def _refreshed(self) -> None:
        """The freshness policy before a read (a failure to refresh goes to stderr, never stdout)."""
        self._say(self.workbench.refresh().memory_note)

    @staticmethod
    def _say(note: str | None) -> None:
        if note:
            print(f"reverie: {note}", file=sys.stderr)

    def close(self) -> None:
        self.workbench.close()

    def call(self, tool: str, arguments: Any, caller: Caller) -> dict[str, Any]:
        """Run ``tool`` with ``arguments``: its answer as the JSON object MCP and REST send (the typed
        answer's msgspec form, which :data:`OUTPUTS` describes); :class:`SurfaceError` (one line, with an
        HTTP status) on failure."""
        handler = {"recall": self.recall, "where_are_we": self.where_are_we, "context": self.context,
                   "propose_memory": self.propose_memory, "suggest": self.suggest}.get(tool)
        if handler is None:
            raise SurfaceError(f"tool: unknown {tool!r} (known: {', '.join(TOOLS)})", 404)
        try:
            with self._lock:
                answer: msgspec.Struct = handler(schemas.check(INPUTS[tool], arguments), caller)
                return msgspec.to_builtins(answer)  # stored text may hold a lone surrogate: no JSON round trip
        except SurfaceError:
            raise
        except LimitReached as exc:
            raise SurfaceError.limit(exc) from exc
        except NotFound as exc:
            raise SurfaceError(str(exc), 404) from exc
        except ReverieError as exc:  # ArgumentError, RecallError, QueryError, ReviewError, TimeParseError…
            raise SurfaceError(" ".join(str(exc).split()), 400) from exc

    # -- reads -----------------------------------------------------------------------------------

    def recall(self, args: dict[str, Any], caller: Caller) -> RecallAnswer:
        now = parse_now(args.get("now"), self.config)
        answer = self.workbench.search(args["query"], now=now, limit=args.get("limit"), share=self.policy)
        self._say(answer.freshness.memory_note)
        assert answer.shared is not None
        shared = answer.shared.form()
        return RecallAnswer(self.policy.name, shared.range, shared.expression, shared.mode, shared.note,
                            shared.results)

    def where_are_we(self, args: dict[str, Any], caller: Caller) -> Markers:
        return Markers(self.workbench.topics.latest())

    def context(self, args: dict[str, Any], caller: Caller) -> ContextAnswer:
        self._refreshed()
        block = self.workbench.context(args.get("query") or None, now=parse_now(None, self.config),
                                       budget=args.get("budget"), profile=self.policy, refresh=False)
        return ContextAnswer(self.policy.name, block.text, block.tokens, block.budget, block.markers,
                             [shared_item(item) for item in block.memories],
                             [shared_item(item) for item in block.turns], block.mode)

    # -- proposals -------------------------------------------------------------------------------

    def propose_memory(self, args: dict[str, Any], caller: Caller) -> Proposed:
        content = args["content"]
        if not content.strip():
            raise ArgumentError("content: must not be blank")
        draft = self.vault.create_draft(content, (), created_by=caller.source, save=False)
        # (where the value was given, where its field was named, field, value, provenance)
        wanted: list[tuple[str, str, str, Any, dict[str, Any]]] = []
        if args.get("tags"):
            wanted.append(("tags", "tags", "tags", [t.strip() for t in args["tags"]], {}))
        for i, item in enumerate(args.get("suggestions") or ()):
            wanted.append((f"suggestions[{i}].value", f"suggestions[{i}].field", item["field"], item["value"], item))
        for value_where, field_where, name, value, item in wanted:
            _check_value(value_where, name, value, field_where)
            draft = draft.add_suggestion(name, value, caller.source, model=item.get("model") or caller.name,
                                         process_version=item.get("process_version") or caller.process_version,
                                         confidence=item.get("confidence"))
        with self.limits.exclusive():  # count and write with no other server in between
            self.limits.check_proposal(caller.source, len(draft.suggestions), clock.utc_now())
            self.vault.save_draft(draft)
        return Proposed(draft.draft_id, draft.state, draft.created_by, [s.suggestion_id for s in draft.suggestions])

    def suggest(self, args: dict[str, Any], caller: Caller) -> Suggested:
        _check_value("value", args["field"], args["value"], "field")
        with self.limits.exclusive():  # read, count, add and write with no other server in between
            try:
                draft = self.vault.get_draft(args["draft_id"])
            except NotFound as exc:
                raise SurfaceError(f"draft_id: no draft {args['draft_id']!r}", 404) from exc
            if draft.state != "open":
                raise SurfaceError(f"draft_id: draft {draft.draft_id!r} is {draft.state}; only open drafts take "
                                   "suggestions", 409)
            self.limits.check_suggestion(draft)
            try:
                draft = draft.add_suggestion(args["field"], args["value"], caller.source, model=caller.name,
                                             process_version=caller.process_version,
                                             confidence=args.get("confidence"))
                self.vault.save_draft(draft)
            except ReviewError as exc:
                raise SurfaceError(" ".join(str(exc).split()), 409) from exc
        added = draft.suggestions[-1]
        return Suggested(draft.draft_id, added.suggestion_id, added.field_name, thaw(added.value), added.source,
                         added.model, added.process_version, added.confidence)


def _check_value(where: str, field_name: str, value: Any, field_where: str) -> None:
    """A suggested value fits its field (occurred_at a time with an offset, tags and people lists of
    text…) and is not huge; the field is not one the vault reserves."""
    from core.vault.review import RESERVED_FIELDS, check_field_value  # lazy: cryptography, off `reverie mcp`'s start

    if field_name in RESERVED_FIELDS:
        raise ArgumentError(f"{field_where}: {field_name!r} is reserved and cannot be suggested")
    schemas.value_size_ok(value, where)
    check_field_value(field_name, value, where)


INPUTS: dict[str, dict[str, Any]] = {
    "recall": schemas.RECALL_INPUT,
    "where_are_we": schemas.NO_INPUT,
    "context": schemas.CONTEXT_INPUT,
    "propose_memory": schemas.PROPOSE_INPUT,
    "suggest": schemas.SUGGEST_INPUT,
}
OUTPUTS: dict[str, dict[str, Any]] = {
    "recall": schemas.RECALL_OUTPUT,
    "where_are_we": schemas.MARKERS_OUTPUT,
    "context": schemas.CONTEXT_OUTPUT,
    "propose_memory": schemas.PROPOSE_OUTPUT,
    "suggest": schemas.SUGGEST_OUTPUT,
}
