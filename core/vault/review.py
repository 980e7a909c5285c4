"""The review workflow's value objects: AI suggests, the person confirms.

A :class:`StoredDraft` holds the captured content, the suggestions, the person's decisions and (once
complete) the approval; frozen all the way down, every transition returns a new draft. Its invariants
are checked in ``__post_init__``, for drafts built in code and loaded from disk alike: unique suggestion
ids, one decision per known suggestion, one accepted value per field, no value on a rejection, nothing
pending once approved, no approval on an open draft, a finalized draft names its memory. Revision
history is derived from the timestamps in the draft, never stored. The rules over suggestions and
decisions are functions here, which the DiaryVault API's draft (``core.sdk``) uses too.

The objects are frozen msgspec structs, each its own stored shape: msgspec decodes the stored JSON
straight into them and writes them back (:func:`core.typed.to_builtins`); drafts and a memory's review
provenance are signed records, a fixed layout that tests hold to its written-out form.
"""

from __future__ import annotations

import functools
import re
import secrets
import uuid
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from enum import StrEnum
from typing import Any

import msgspec
from msgspec.structs import force_setattr, replace

from core import clock
from core.errors import InvalidReview, ReviewError, ReviewTypeError
from core.frozen import FrozenDict, freeze, freeze_view, thaw
from core.typed import convert_as_python, to_builtins
from core.vault.sealed import decode_payload, one_line

DRAFT_STATES = ("open", "approved", "finalized")
FIELD_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}\Z")
RESERVED_FIELDS = frozenset({"review", "draft_id", "memory_id", "content_sha256"})
LIST_FIELDS = frozenset({"tags", "people"})
TEXT_FIELDS = frozenset({"title", "location", "mood", "content"})
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}\Z")


def is_draft_id(value: object) -> bool:
    """Whether ``value`` can name a draft (or suggestion): letters, digits, ``. _ : -``, a letter or
    digit first, at most 128 characters."""
    return isinstance(value, str) and _ID.match(value) is not None


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(8)}"


def _check_time(value: Any, where: str, suffix: str = "") -> str:
    """``value`` if it is an ISO-8601 time with a timezone; else ``ReviewError`` naming ``where`` + ``suffix``
    (two parts, so that the name is put together only for an error)."""
    if not isinstance(value, str):
        raise ReviewError(f"{where}{suffix}: must be an ISO-8601 time string")
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:
        raise ReviewError(f"{where}{suffix}: not an ISO-8601 time: {value!r}") from exc
    if moment.tzinfo is None:
        raise ReviewError(f"{where}{suffix}: time {value!r} has no timezone")
    return value


def _check_text(value: Any, where: str, suffix: str = "", *, empty_ok: bool = False) -> str:
    if not isinstance(value, str) or (not empty_ok and not value.strip()):
        raise ReviewError(f"{where}{suffix}: must be a non-empty string")
    return value


def _check_id(value: Any, where: str) -> str:
    if not isinstance(value, str) or not _ID.match(value):
        raise ReviewError(f"{where}: {value!r} is not a valid id (letters, digits, . _ : -)")
    return value


@functools.lru_cache(maxsize=512)
def _allowed_field_name(field_name: str) -> bool:
    """Whether ``field_name`` may name a field (a pure function of the name, so remembered: a scan of
    10,000 drafts checks the same few names 40,000 times)."""
    return FIELD_NAME.match(field_name) is not None and field_name not in RESERVED_FIELDS


def check_field_value(field_name: str, value: Any, where: str, suffix: str = "") -> Any:
    """Validate a value for a known field (``occurred_at`` a time, ``tags``/``people`` lists of
    strings, text fields strings) and freeze it. Other fields take any JSON value. Errors name
    ``where`` + ``suffix`` (joined only for an error)."""
    if not isinstance(field_name, str) or not _allowed_field_name(field_name):
        raise ReviewError(f"{where}{suffix}: field name {field_name!r} is not allowed")
    if field_name == "occurred_at":
        return _check_time(value, where, suffix)
    if field_name in LIST_FIELDS:
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) and v.strip() for v in value):
            raise ReviewError(f"{where}{suffix}: {field_name} must be a list of non-empty strings")
        return tuple(value)
    if field_name in TEXT_FIELDS:
        return _check_text(value, where, suffix)
    try:
        return freeze(value, where + suffix)
    except ValueError as exc:
        raise ReviewError(one_line(str(exc))) from exc


def _texts(*values: Any) -> bool:
    """Whether every value is a string with something besides whitespace (the common case, cheaply: a
    loop, which costs a third of ``all`` over a generator on the 10,000-draft load of bench_typed)."""
    for value in values:  # noqa: SIM110
        if type(value) is not str or not value or value.isspace():
            return False
    return True


def _refuse_empty(where: str, **fields: Any) -> None:
    """``InvalidReview`` naming the first of ``fields`` that is not a non-empty string."""
    for name, value in fields.items():
        if not _texts(value):
            raise InvalidReview(f"{where}: {name} must not be empty")


class _Record(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A review object: frozen, its stored form its own fields in order (unknown keys refused)."""

    def to_dict(self) -> dict[str, Any]:
        """The stored form by msgspec: the fields in declared order, frozen values as plain JSON values
        (tuples as lists). Drafts and a memory's review provenance are signed records, a fixed byte
        layout: ``tests/vault/test_review.py`` holds it to the written-out form."""
        return to_builtins(self)


class Suggestion(_Record):
    """A value an AI (or any ``source``) proposes for one field; never confirmed by itself.

    The one suggestion type: the vault's drafts and the DiaryVault API (``core.sdk``) both hold it, so
    its positional order is that API's, ``(field_name, value, source)``, and its errors are both a
    ``ReviewError`` and the ``ValueError``/``TypeError`` that API promises. It checks what every draft
    needs (names, confidence in 0..1) and freezes its value (mappings as ``MappingProxyType``, lists as
    tuples); a draft in the vault checks the rest: the id's form, the value against its field, the time
    (:func:`check_suggestion`)."""

    field_name: str
    value: Any
    source: str
    suggestion_id: str = msgspec.field(default_factory=lambda: str(uuid.uuid4()))
    model: str | None = None
    process_version: str | None = None
    confidence: float | None = None
    created_at: str = msgspec.field(default_factory=clock.utc_now_iso)

    def __post_init__(self) -> None:
        if not _texts(self.suggestion_id, self.field_name, self.source):
            _refuse_empty(f"suggestion {self.suggestion_id!r}", suggestion_id=self.suggestion_id,
                          field_name=self.field_name, source=self.source)
        confidence = self.confidence
        if confidence is not None:
            where = f"suggestion {self.suggestion_id!r}"
            if type(confidence) is not float:
                if isinstance(confidence, bool) or not isinstance(confidence, int | float):
                    raise ReviewTypeError(f"{where}: confidence must be a number between 0 and 1")
                confidence = float(confidence)
            if not 0.0 <= confidence <= 1.0:
                raise InvalidReview(f"{where}: confidence must be between 0 and 1 (got {self.confidence})")
            force_setattr(self, "confidence", confidence)
        value = self.value
        if value is not None and type(value) is not str:  # strings and null are frozen already
            force_setattr(self, "value", freeze_view(value))

    def to_dict(self) -> dict[str, Any]:
        """The stored (and DiaryVault) form by msgspec, the id first."""
        return {"suggestion_id": self.suggestion_id, **to_builtins(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Suggestion:
        """The DiaryVault API's loader: a missing key is a ``KeyError``, a wrong type a ``TypeError``."""
        return convert_as_python(data, cls, "suggestion", complete=True)


def check_suggestion(s: Suggestion, where: str) -> None:
    """What a draft in the vault requires of a suggestion beyond its own checks: an id that can name a
    file, a value its field allows, non-empty model and process version when given, a time with a
    timezone. ``ReviewError`` naming ``where`` (the suggestion) and the field."""
    _check_id(s.suggestion_id, f"{where}.suggestion_id")
    check_field_value(s.field_name, s.value, where, ".value")
    if s.model is not None:
        _check_text(s.model, where, ".model")
    if s.process_version is not None:
        _check_text(s.process_version, where, ".process_version")
    _check_time(s.created_at, where, ".created_at")


class DecisionOutcome(StrEnum):
    """What the person decided about one suggestion (a ``str``: ``outcome == "accepted"`` works)."""

    ACCEPTED = "accepted"
    REJECTED = "rejected"


class ReviewDecision(_Record, rename={"outcome": "action", "accepted_value": "value"}):
    """The person's decision on one suggestion; an accepted one carries the confirmed value (the
    suggestion's, or the person's edit, then ``edited``).

    The one decision type, named and ordered as the DiaryVault API names it (``outcome``,
    ``accepted_value``); its stored form, the msgspec encoding, keeps the vault's keys (``action``,
    ``value``), so stored drafts and review provenance read as before. :meth:`to_dict` is that API's form.
    A draft in the vault checks the rest (:func:`check_decision`)."""

    suggestion_id: str
    outcome: DecisionOutcome
    reviewer: str
    accepted_value: Any = None
    decided_at: str = msgspec.field(default_factory=clock.utc_now_iso)
    edited: bool = False

    def __post_init__(self) -> None:
        where = "decision on "  # the id is added only for an error
        if not _texts(self.suggestion_id, self.reviewer):
            _refuse_empty(where + repr(self.suggestion_id), suggestion_id=self.suggestion_id, reviewer=self.reviewer)
        if type(self.outcome) is not DecisionOutcome:  # decoded ones are already
            try:
                force_setattr(self, "outcome", DecisionOutcome(self.outcome))
            except ValueError as exc:
                raise InvalidReview(f"{where}{self.suggestion_id!r}.action: must be accepted or rejected, "
                                    f"got {self.outcome!r}") from exc
        if type(self.edited) is not bool:
            raise ReviewTypeError(f"{where}{self.suggestion_id!r}.edited: must be true or false")
        value = self.accepted_value
        if self.outcome is DecisionOutcome.REJECTED and (value is not None or self.edited):
            raise InvalidReview(f"{where}{self.suggestion_id!r}: a rejected decision cannot carry an accepted value")
        if value is not None and type(value) is not str:  # strings and null are frozen already
            try:
                force_setattr(self, "accepted_value", freeze(value, f"{where}{self.suggestion_id!r}.value"))
            except ValueError as exc:
                raise InvalidReview(one_line(str(exc))) from exc

    @property
    def action(self) -> str:
        """``accepted`` or ``rejected``, as the stored form names the outcome."""
        return self.outcome.value

    @property
    def value(self) -> Any:
        """The confirmed value (None for a rejection), as the stored form names it."""
        return self.accepted_value

    def to_dict(self) -> dict[str, Any]:
        """The DiaryVault API's form (``outcome``, ``accepted_value``, no ``edited``); the stored form is
        the msgspec encoding (:func:`core.typed.to_builtins`)."""
        return {"suggestion_id": self.suggestion_id, "outcome": self.action, "reviewer": self.reviewer,
                "accepted_value": thaw(self.accepted_value), "decided_at": self.decided_at}

    @classmethod
    def from_dict(cls, data: Any) -> ReviewDecision:
        """Load the DiaryVault API's form: a missing key is a ``KeyError``, a wrong type a ``TypeError``."""
        return convert_as_python(decision_fields(data), cls, "decision", complete=True)


def decision_fields(data: Any) -> Any:
    """A decision in the DiaryVault API's form (``outcome``, ``accepted_value``, no ``edited``) with the
    stored form's keys, which msgspec reads; anything but a mapping is returned as it is."""
    if not isinstance(data, Mapping):
        return data
    if "outcome" not in data:
        raise KeyError("decision: field 'outcome' missing")
    renamed = {_STORED_NAME.get(key, key): value for key, value in data.items()}
    renamed.setdefault("edited", False)  # that form has no flag: the draft knows an edit from its suggestion
    return renamed


_STORED_NAME = {"outcome": "action", "accepted_value": "value"}


def check_decision(d: ReviewDecision, where: str) -> None:
    """What a draft in the vault requires of a decision beyond its own checks: an id that names a
    suggestion, a time with a timezone. ``ReviewError`` naming ``where`` and the field."""
    _check_id(d.suggestion_id, f"{where}.suggestion_id")
    _check_time(d.decided_at, where, ".decided_at")


class Approval(_Record):
    """Who approved a draft, and when."""

    reviewer: str
    approved_at: str = msgspec.field(default_factory=clock.utc_now_iso)

    def __post_init__(self) -> None:
        _check_text(self.reviewer, "approval.reviewer")
        _check_time(self.approved_at, "approval.approved_at")


class Revision(_Record):
    """One step of a draft's history, derived from the timestamps already in the draft (never stored).

    The one revision type: the vault's drafts and the DiaryVault API's (``core.sdk``) derive their
    histories as these, in that API's positional order and form. The line the TUI and CLI show beside a
    step is :meth:`StoredDraft.revision_detail` (it needs the draft: whether an acceptance was an edit)."""

    action: str  # draft_created, suggestion_added, suggestion_accepted/rejected, draft_approved/rejected/finalized
    occurred_at: str
    actor: str | None = None
    field_name: str | None = None
    value: Any = None  # the suggested or confirmed value; the memory id of draft_finalized
    suggestion_id: str | None = None

    def __post_init__(self) -> None:
        for name in ("action", "occurred_at"):
            text = getattr(self, name)
            if not isinstance(text, str) or not text.strip():
                raise InvalidReview(f"revision: {name} must not be empty")
        if self.value is not None and type(self.value) is not str:
            force_setattr(self, "value", freeze_view(self.value))


def check_decided(suggestions: tuple[Any, ...], decisions: tuple[Any, ...], where: str, *,
                  stored: bool = False) -> list[str]:
    """The review workflow's invariants over a draft's suggestions and decisions, for the vault's
    drafts and the SDK's alike: suggestion ids are unique, each decision is on a known suggestion and
    at most one is, at most one value is accepted per field. ``stored``: also what a draft in the vault
    needs (:func:`check_suggestion`, :func:`check_decision`, accepted values that fit their fields).
    Returns the ids of the suggestions still pending, in order. ``InvalidReview`` / ``ReviewTypeError``
    (``ReviewError`` in the vault's checks) naming ``where``."""
    by_id: dict[str, Suggestion] = {}
    for s in suggestions:
        if not isinstance(s, Suggestion):
            raise ReviewTypeError(f"{where}.suggestions: {type(s).__name__} {s!r} is not a Suggestion")
        if stored:
            check_suggestion(s, f"suggestion {s.suggestion_id!r}")
        if s.suggestion_id in by_id:
            raise InvalidReview(f"{where}: duplicate suggestion id {s.suggestion_id!r}")
        by_id[s.suggestion_id] = s
    decided: set[str] = set()
    accepted_fields: set[str] = set()
    for d in decisions:
        if not isinstance(d, ReviewDecision):
            raise ReviewTypeError(f"{where}.decisions: {type(d).__name__} {d!r} is not a ReviewDecision")
        if stored:
            check_decision(d, f"decision on {d.suggestion_id!r}")
        if d.suggestion_id not in by_id:
            raise InvalidReview(f"{where}: decision refers to unknown suggestion {d.suggestion_id!r}")
        if d.suggestion_id in decided:
            raise InvalidReview(f"{where}: more than one decision for suggestion {d.suggestion_id!r}")
        decided.add(d.suggestion_id)
        if d.outcome is DecisionOutcome.ACCEPTED:
            name = by_id[d.suggestion_id].field_name
            if name in accepted_fields:
                raise InvalidReview(f"{where}: multiple accepted suggestions for field {name!r}")
            accepted_fields.add(name)
            if stored:
                check_field_value(name, d.accepted_value, f"{where}: accepted value of {d.suggestion_id!r}")
    return [s.suggestion_id for s in suggestions if s.suggestion_id not in decided]


def find_suggestion(suggestions: Iterable[Suggestion], suggestion_id: str) -> Suggestion | None:
    return next((s for s in suggestions if s.suggestion_id == suggestion_id), None)


def find_decision(decisions: Iterable[ReviewDecision], suggestion_id: str) -> ReviewDecision | None:
    return next((d for d in decisions if d.suggestion_id == suggestion_id), None)


def undecided(suggestions: tuple[Suggestion, ...], decisions: Iterable[ReviewDecision]) -> tuple[Suggestion, ...]:
    """The suggestions nobody has accepted or rejected yet, in the order added."""
    decided = {d.suggestion_id for d in decisions}
    return tuple(s for s in suggestions if s.suggestion_id not in decided)


def accepted_values(suggestions: Iterable[Suggestion], decisions: Iterable[ReviewDecision]) -> FrozenDict:
    """Field → confirmed value, from accepted decisions only, in the order decided."""
    by_id = {s.suggestion_id: s for s in suggestions}
    return FrozenDict({by_id[d.suggestion_id].field_name: d.accepted_value
                       for d in decisions if d.outcome is DecisionOutcome.ACCEPTED})


def review_steps(suggestions: tuple[Suggestion, ...], decisions: Iterable[ReviewDecision],
                 suggested_by: Callable[[Suggestion], str | None]) -> list[Revision]:
    """The history steps of the suggestions (their actor: ``suggested_by``) and the decisions, unsorted;
    a draft adds its own first and last steps."""
    steps = [Revision("suggestion_added", s.created_at, suggested_by(s), s.field_name, s.value, s.suggestion_id)
             for s in suggestions]
    by_id = {s.suggestion_id: s for s in suggestions}
    for d in decisions:
        action = "suggestion_accepted" if d.outcome is DecisionOutcome.ACCEPTED else "suggestion_rejected"
        steps.append(Revision(action, d.decided_at, d.reviewer, by_id[d.suggestion_id].field_name,
                              d.accepted_value, d.suggestion_id))
    return steps


def lost_update(stored: StoredDraft, draft: StoredDraft) -> str | None:
    """What a save of ``draft`` over ``stored`` would drop, or None. Every review step only adds (a
    suggestion, a decision, the approval), so a draft lacking something the stored one holds was made
    from an older read."""
    ids = {s.suggestion_id for s in draft.suggestions}
    for suggestion in stored.suggestions:
        if suggestion.suggestion_id not in ids:
            return f"a suggestion for {suggestion.field_name!r} from {suggestion.source} was added"
    decided = {d.suggestion_id for d in draft.decisions}
    for decision in stored.decisions:
        if decision.suggestion_id not in decided:
            return f"{decision.reviewer} {decision.action} suggestion {decision.suggestion_id!r}"
    if stored.approval is not None and draft.approval is None:
        return f"{stored.approval.reviewer} approved it"
    if (stored.content, stored.tags) != (draft.content, draft.tags):
        return "its content or tags differ"
    return None


class StoredDraft(_Record, kw_only=True):
    """A proposed memory under review (keyword arguments only; ``created_at`` is required, so a stored
    draft without it is an error, never stamped with the time it was read)."""

    draft_id: str
    content: str
    tags: tuple[str, ...] = ()
    created_at: str
    created_by: str = "me"
    suggestions: tuple[Suggestion, ...] = ()
    decisions: tuple[ReviewDecision, ...] = ()
    state: str = "open"
    approval: Approval | None = None
    finalized_memory_id: str | None = None
    finalized_at: str | None = None
    supersedes: tuple[str, ...] = ()  # memories the person said this one replaces (duplicate check)

    def __post_init__(self) -> None:
        where = f"draft {self.draft_id!r}"
        force_setattr(self, "supersedes", tuple(self.supersedes))
        for i, memory_id in enumerate(self.supersedes):
            if not isinstance(memory_id, str) or not memory_id.startswith("mem_"):
                raise ReviewError(f"{where}.supersedes[{i}]: {memory_id!r} is not a memory id")
            _check_id(memory_id, f"{where}.supersedes[{i}]")
        _check_id(self.draft_id, "draft_id")
        _check_text(self.content, where, ".content")
        _check_text(self.created_by, where, ".created_by")
        _check_time(self.created_at, where, ".created_at")
        force_setattr(self, "tags", check_field_value("tags", list(self.tags), where, ".tags"))
        force_setattr(self, "suggestions", tuple(self.suggestions))
        force_setattr(self, "decisions", tuple(self.decisions))
        if self.state not in DRAFT_STATES:
            raise ReviewError(f"{where}.state: must be one of {', '.join(DRAFT_STATES)}, got {self.state!r}")
        pending = check_decided(self.suggestions, self.decisions, where, stored=True)
        if self.state == "open":
            if self.approval or self.finalized_memory_id or self.finalized_at:
                raise ReviewError(f"{where}: an open draft cannot carry approval or finalization")
        else:
            if self.approval is None:
                raise ReviewError(f"{where}: a {self.state} draft must carry its approval")
            if pending:
                raise ReviewError(f"{where}: an approved draft cannot have pending suggestions ({pending[0]!r})")
        if self.state == "approved" and (self.finalized_memory_id or self.finalized_at):
            raise ReviewError(f"{where}: only a finalized draft names its memory")
        if self.state == "finalized":
            _check_id(self.finalized_memory_id, f"{where}.finalized_memory_id")
            _check_time(self.finalized_at, where, ".finalized_at")

    def to_dict(self) -> dict[str, Any]:
        """The stored form (:meth:`_Record.to_dict`), each suggestion written id first; also what
        ``reverie draft show --json`` publishes."""
        return {**to_builtins(self), "suggestions": [s.to_dict() for s in self.suggestions]}

    # --- reading ---------------------------------------------------------------------------------

    def suggestion(self, suggestion_id: str) -> Suggestion:
        found = find_suggestion(self.suggestions, suggestion_id)
        if found is None:
            raise ReviewError(f"draft {self.draft_id!r}: no suggestion {suggestion_id!r}")
        return found

    def decision_for(self, suggestion_id: str) -> ReviewDecision | None:
        return find_decision(self.decisions, suggestion_id)

    def pending_suggestions(self) -> tuple[Suggestion, ...]:
        return undecided(self.suggestions, self.decisions)

    def resolved_fields(self) -> FrozenDict:
        """Field → confirmed value, from accepted decisions only; suggestions never appear here."""
        return accepted_values(self.suggestions, self.decisions)

    def revision_history(self) -> tuple[Revision, ...]:
        """Derived from the timestamps already in the draft, in time order."""
        steps = [Revision("draft_created", self.created_at, self.created_by),
                 *review_steps(self.suggestions, self.decisions, lambda s: s.model or s.source)]
        if self.approval:
            steps.append(Revision("draft_approved", self.approval.approved_at, self.approval.reviewer))
        if self.state == "finalized" and self.finalized_at:
            steps.append(Revision("draft_finalized", self.finalized_at, "vault", value=self.finalized_memory_id))
        order = {
            name: i
            for i, name in enumerate(
                (
                    "draft_created",
                    "suggestion_added",
                    "suggestion_accepted",
                    "suggestion_rejected",
                    "draft_approved",
                    "draft_finalized",
                )
            )
        }
        return tuple(sorted(steps, key=lambda r: (_sort_key(r.occurred_at), order[r.action])))

    def revision_detail(self, step: Revision) -> str:
        """The line shown beside a step of :meth:`revision_history`: ``field = value`` for a suggestion
        and an acceptance (``(edited)`` when the person changed the value), the field of a rejection,
        the memory a finalized draft became; empty for the other steps."""
        if step.action in ("suggestion_added", "suggestion_accepted"):
            decision = self.decision_for(str(step.suggestion_id)) if step.action == "suggestion_accepted" else None
            edited = " (edited)" if decision is not None and decision.edited else ""
            return f"{step.field_name} = {thaw(step.value)!r}{edited}"
        if step.action == "suggestion_rejected":
            return str(step.field_name)
        if step.action == "draft_finalized":
            return str(step.value)
        return ""

    # --- transitions (each returns a new draft) ---------------------------------------------------

    def _require_open(self, doing: str) -> None:
        if self.state != "open":
            raise ReviewError(f"draft {self.draft_id!r} is {self.state}: cannot {doing}")

    def add_suggestion(
        self,
        field_name: str,
        value: Any,
        source: str,
        *,
        model: str | None = None,
        process_version: str | None = None,
        confidence: float | None = None,
        suggestion_id: str | None = None,
    ) -> StoredDraft:
        self._require_open("add a suggestion")
        suggestion = Suggestion(
            field_name=field_name,
            suggestion_id=suggestion_id or new_id("sug"),
            value=value,
            source=source,
            model=model,
            process_version=process_version,
            confidence=confidence,
        )
        return replace(self, suggestions=(*self.suggestions, suggestion))

    def accept(self, suggestion_id: str, *, reviewer: str, value: Any = None) -> StoredDraft:
        """Accept a suggestion; with ``value`` the person's edit becomes the confirmed value and the
        original suggestion stays untouched as provenance."""
        self._require_open("accept a suggestion")
        suggestion = self.suggestion(suggestion_id)
        if self.decision_for(suggestion_id):
            raise ReviewError(f"draft {self.draft_id!r}: suggestion {suggestion_id!r} is already decided")
        edited = value is not None and freeze(value) != suggestion.value
        confirmed = (
            check_field_value(suggestion.field_name, thaw(value), "accepted value") if edited else suggestion.value
        )
        decision = ReviewDecision(suggestion_id, DecisionOutcome.ACCEPTED, reviewer, accepted_value=thaw(confirmed),
                                  edited=edited)
        return replace(self, decisions=(*self.decisions, decision))

    def reject_suggestion(self, suggestion_id: str, *, reviewer: str) -> StoredDraft:
        self._require_open("reject a suggestion")
        self.suggestion(suggestion_id)
        if self.decision_for(suggestion_id):
            raise ReviewError(f"draft {self.draft_id!r}: suggestion {suggestion_id!r} is already decided")
        decision = ReviewDecision(suggestion_id, DecisionOutcome.REJECTED, reviewer)
        return replace(self, decisions=(*self.decisions, decision))

    def approve(self, *, reviewer: str) -> StoredDraft:
        self._require_open("approve")
        pending = self.pending_suggestions()
        if pending:
            raise ReviewError(
                f"draft {self.draft_id!r}: {len(pending)} suggestion(s) still pending "
                f"({', '.join(f'{s.suggestion_id!r} ({s.field_name})' for s in pending)}); "
                "accept or reject each before approving"
            )
        return replace(self, state="approved", approval=Approval(reviewer))

    def finalized(self, memory_id: str, finalized_at: str) -> StoredDraft:
        """The draft as the vault records it after finalization (the vault alone calls this)."""
        if self.state != "approved":
            raise ReviewError(f"draft {self.draft_id!r} is {self.state}: only an approved draft can be finalized")
        return replace(self, state="finalized", finalized_memory_id=memory_id, finalized_at=finalized_at)

    # --- serialisation -----------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Any) -> StoredDraft:
        """Load with the same invariants as construction; unknown or missing fields are errors (msgspec
        checks the stored shape, ``__post_init__`` the invariants)."""
        where = f"draft {data.get('draft_id')!r}" if isinstance(data, Mapping) else "draft"
        try:
            return msgspec.convert(data, cls)
        except msgspec.ValidationError as exc:
            raise ReviewError(f"{where}: {one_line(str(exc))}") from exc


class _DraftPayload(msgspec.Struct):
    """The payload of a sealed draft record."""

    draft: StoredDraft


def draft_from_json(data: bytes, where: str) -> StoredDraft:
    """A draft from the JSON of a draft record's payload (``{"draft": {...}}``), decoded by msgspec
    straight into the review objects, whose ``__post_init__`` checks every invariant."""
    return decode_payload(data, _DraftPayload, where, ReviewError, malformed="").draft


def _sort_key(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


class ReviewRecord(_Record, kw_only=True, forbid_unknown_fields=False):
    """The full review provenance a finalized memory carries under ``metadata.custom["review"]``: the
    draft's original content, every suggestion and decision as stored, who approved it and when, and
    which fields were confirmed. Sealed with the memory; :func:`review_record` builds it. Reading one
    back (a ``.dvmem`` import) tolerates what older records lack (``created_by``, ``supersedes``)."""

    draft_id: str
    original_content: str
    created_at: str
    created_by: str = "me"
    suggestions: tuple[Suggestion, ...]
    decisions: tuple[ReviewDecision, ...]  # stored form: ``action``/``value``
    approved_by: str
    approved_at: str
    confirmed_fields: tuple[str, ...] = ()
    supersedes: tuple[str, ...] = ()

    def as_draft(self) -> StoredDraft:
        """The approved draft this provenance records, checked with every invariant of the review
        workflow (``ReviewError``)."""
        return StoredDraft(draft_id=self.draft_id, content=self.original_content, created_at=self.created_at,
                           created_by=self.created_by, suggestions=self.suggestions, decisions=self.decisions,
                           state="approved", approval=Approval(self.approved_by, self.approved_at))


def review_record(draft: StoredDraft) -> ReviewRecord:
    """The review provenance of an approved (or finalized) draft."""
    if draft.approval is None:
        raise ReviewError(f"draft {draft.draft_id!r} has no approval")
    return ReviewRecord(
        draft_id=draft.draft_id,
        original_content=draft.content,
        created_at=draft.created_at,
        created_by=draft.created_by,
        suggestions=draft.suggestions,
        decisions=draft.decisions,
        approved_by=draft.approval.reviewer,
        approved_at=draft.approval.approved_at,
        confirmed_fields=tuple(sorted(draft.resolved_fields())),
        supersedes=draft.supersedes,
    )


def review_summary(review: Mapping[str, Any] | None) -> dict[str, Any]:
    """The compact summary exports publish in their JSON (so a plain dict): ``{"reviewed": False}`` when
    there was no review."""
    if not review:
        return {"reviewed": False}
    decisions = review.get("decisions") or ()
    return {
        "reviewed": True,
        "approved_by": review.get("approved_by"),
        "approved_at": review.get("approved_at"),
        "suggestion_count": len(review.get("suggestions") or ()),
        "accepted_count": sum(1 for d in decisions if d.get("action") == "accepted"),
        "rejected_count": sum(1 for d in decisions if d.get("action") == "rejected"),
        "edited_count": sum(1 for d in decisions if d.get("edited")),
        "confirmed_fields": list(review.get("confirmed_fields") or ()),
    }


def draft_from_capture(
    content: str, tags: Iterable[str] = (), *, created_by: str = "me", supersedes: Iterable[str] = ()
) -> StoredDraft:
    return StoredDraft(draft_id=new_id("draft"), content=content, tags=tuple(tags), created_at=clock.utc_now_iso(),
                       created_by=created_by, supersedes=tuple(supersedes))
