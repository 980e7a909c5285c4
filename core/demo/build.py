"""A demo home: a living workbench with realistic sample data, built in a temporary folder.

``reverie demo`` and the screenshot script open the app on it: drafts with suggestions from several
models, some partly reviewed, one approved and waiting to be finalized, finalized memories with their
review provenance, memories stored without review, a curation scope and weeks of conversations. It is
built by named steps (:data:`DEMO_STEPS`, registered with :func:`demo_step`), each given a
:class:`DemoContext` and writing through the same public core API as any other caller. The fixed
passphrase :data:`DEMO_PASSPHRASE` and cheap Argon2id parameters are for the demo home only.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone, tzinfo
from pathlib import Path
from typing import Any

from core import clock
from core.config import Config, ScopeConfig, load_config, save_config
from core.curate import engine
from core.curate.model import candidate_id
from core.demo.conversations import decision_nights, write_conversations
from core.errors import HomeError
from core.fsutil import file_lock
from core.paths import HomePaths
from core.suggest.dates import DateSuggester
from core.suggest.suggester import SuggestContext
from core.vault.crypto import KdfParams, VaultKeys, create_header
from core.vault.review import Approval, ReviewDecision, StoredDraft, Suggestion
from core.vault.store import MemoryStore

DEMO_PASSPHRASE = "reverie-demo"
DEMO_REVIEWER = "me"
KST = timezone(timedelta(hours=9))


@dataclass
class DemoContext:
    """What a demo step works with. ``now`` is the reference time every sample date is relative to."""

    paths: HomePaths
    vault: MemoryStore
    now: datetime
    notes: list[str] = field(default_factory=list)  # one human line per thing a step built

    def ago(self, **delta: float) -> datetime:
        return self.now - timedelta(**delta)

    def iso_ago(self, **delta: float) -> str:
        return self.ago(**delta).isoformat(timespec="seconds")


DemoStep = Callable[[DemoContext], None]
DEMO_STEPS: list[tuple[str, DemoStep]] = []


def demo_step(name: str) -> Callable[[DemoStep], DemoStep]:
    """Register a step that adds sample data to every demo home (run in registration order)."""

    def register(step: DemoStep) -> DemoStep:
        if any(existing == name for existing, _ in DEMO_STEPS):
            raise ValueError(f"demo step {name!r} is already registered")
        DEMO_STEPS.append((name, step))
        return step

    return register


@dataclass(frozen=True)
class DemoHome:
    paths: HomePaths
    passphrase: str
    keys: VaultKeys = field(repr=False)
    notes: tuple[str, ...]

    def banner(self) -> str:
        """What ``reverie demo`` prints before the app opens."""
        return (
            f"Demo home: {self.paths.root}\n"
            f"Passphrase: {self.passphrase}  (fixed for the demo; the demo vault uses cheap Argon2id "
            "parameters, for the demo home only — never for real data)"
        )


def build_demo_home(
    root: str | Path | None = None,
    *,
    now: datetime | None = None,
    steps: Sequence[tuple[str, DemoStep]] | None = None,
    timezone: str = "",
) -> DemoHome:
    """Build a demo home at ``root`` (a new temporary folder when ``None``; an existing folder must
    be empty) and return its paths and keys. ``timezone`` is written to the home's config (empty: the
    system's); the sample times are laid out for the person's timezone, so its questions ("last
    Tuesday night") name the nights the samples were built around."""
    if root is None:
        root = tempfile.mkdtemp(prefix="reverie-demo-")
    root_path = Path(root)
    if root_path.exists() and any(root_path.iterdir()):
        raise HomeError(f"{root_path}: the demo home must be a new or empty folder")
    paths = HomePaths.at(root_path).ensure()
    keys = create_header(paths.vault_header, DEMO_PASSPHRASE, KdfParams.for_tests())
    config = Config()
    config.general.timezone = timezone
    save_config(paths.config, config)
    ctx = DemoContext(paths=paths, vault=MemoryStore.open(paths, keys), now=now or clock.utc_now())
    for _name, step in DEMO_STEPS if steps is None else steps:
        step(ctx)
    return DemoHome(paths=paths, passphrase=DEMO_PASSPHRASE, keys=keys, notes=tuple(ctx.notes))


# --- sample data -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _S:
    """One sample suggestion and, optionally, the person's decision on it (times in hours before now)."""

    sid: str
    field_name: str
    value: Any
    source: str
    model: str | None
    process: str | None
    confidence: float | None
    hours_ago: float
    decision: str | None = None  # "accepted" | "rejected" | None (pending)
    edited_to: Any = None
    decided_hours_ago: float = 0.0


def _sample_draft(
    ctx: DemoContext,
    draft_id: str,
    content: str,
    tags: Sequence[str],
    captured_hours_ago: float,
    suggestions: Sequence[_S],
    approved_hours_ago: float | None = None,
) -> StoredDraft:
    """A draft with explicit times, built through the review objects' own invariants."""
    made = [
        Suggestion(
            suggestion_id=s.sid,
            field_name=s.field_name,
            value=s.value,
            source=s.source,
            model=s.model,
            process_version=s.process,
            confidence=s.confidence,
            created_at=ctx.iso_ago(hours=s.hours_ago),
        )
        for s in suggestions
    ]
    decisions = []
    for s, suggestion in zip(suggestions, made, strict=True):
        decided_at = ctx.iso_ago(hours=s.decided_hours_ago)
        if s.decision == "accepted":
            edited = s.edited_to is not None
            value = s.edited_to if edited else _plain(suggestion.value)
            decisions.append(ReviewDecision(s.sid, "accepted", DEMO_REVIEWER, value, decided_at, edited=edited))
        elif s.decision == "rejected":
            decisions.append(ReviewDecision(s.sid, "rejected", DEMO_REVIEWER, decided_at=decided_at))
    approval = None
    if approved_hours_ago is not None:
        approval = Approval(DEMO_REVIEWER, approved_at=ctx.iso_ago(hours=approved_hours_ago))
    return StoredDraft(
        draft_id=draft_id,
        content=content,
        tags=tuple(tags),
        created_at=ctx.iso_ago(hours=captured_hours_ago),
        created_by=DEMO_REVIEWER,
        suggestions=tuple(made),
        decisions=tuple(decisions),
        state="approved" if approval else "open",
        approval=approval,
    )


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _hours_before(ctx: DemoContext, moment: datetime) -> float:
    return (ctx.now - moment).total_seconds() / 3600


def _local_dates(ctx: DemoContext, sid: str, content: str, captured_hours_ago: float) -> list[_S]:
    """What the real date suggester (``core.suggest.dates``) attaches to ``content`` captured
    ``captured_hours_ago`` hours before the demo's reference time: the demo's dates agree with the text
    the way a real draft's would."""
    suggester = DateSuggester()
    probe = StoredDraft(draft_id=f"draft_demo_probe_{sid}", content=content,
                        created_at=ctx.iso_ago(hours=captured_hours_ago), created_by=DEMO_REVIEWER)
    context = SuggestContext(vault=ctx.vault, config=load_config(ctx.paths.config), paths=ctx.paths)
    return [
        _S(sid, p.field_name, p.value, suggester.source, suggester.model_name(context), suggester.process_version,
           p.confidence, captured_hours_ago * 0.995)
        for p in suggester.propose(probe, context)
        if p.attach
    ]


def _person_zone(ctx: DemoContext) -> tzinfo:
    return load_config(ctx.paths.config).zone()


CLAUDE, GPT, GPT_MINI, HAIKU, LLAMA = "claude-sonnet-4.5", "gpt-4o", "gpt-4.1-mini", "claude-haiku-4.5", "llama3.1:8b"


@demo_step("drafts")
def build_drafts(ctx: DemoContext) -> None:
    """Open drafts (untouched, partly reviewed, just captured) and one approved draft. The index
    decision's draft is captured late on the night the English headline names (see
    :mod:`core.demo.conversations`); its suggestions were decided half-way between then and now."""
    night_start, _ = decision_nights(ctx.now, _person_zone(ctx))["en"]
    fts5_h = _hours_before(ctx, night_start + timedelta(hours=5))  # 23:00 that night, at least an hour ago
    fts5 = ("Late on Tuesday Mina and I finally decided to move the index to SQLite FTS5 with rowid ranges: the "
            "join on the ts column was 30x slower. Keep sqlite-vec only as the semantic fallback, and write the "
            "numbers down in MEASUREMENTS.md.")
    jeju = ("지난주 토요일 제주 협재 해변에서 엄마랑 처음으로 스노클링을 했다. "
            "물이 생각보다 차가웠지만 엄마가 계속 웃었다.")
    dentist = "Dentist moved my appointment to the 18th at 9:30; bring the old x-rays and the insurance card."
    # fmt: off
    drafts = [
        _sample_draft(ctx, "draft_demo_fts5", fts5, ["project", "reverie"], fts5_h, [
                _S("sug_fts5_title", "title", "Index moves to FTS5 rowid ranges", "assistant", CLAUDE,
                   "memory-card-v3", 0.91, fts5_h * 0.99, "accepted", decided_hours_ago=fts5_h * 0.5),
                *_local_dates(ctx, "sug_fts5_when", fts5, fts5_h),
                _S("sug_fts5_people", "people", ["Mina"], "assistant", GPT_MINI, "people-v2", 0.74, fts5_h * 0.98),
                _S("sug_fts5_tags", "tags", ["decision", "search"], "assistant", HAIKU, "tags-v2", 0.62,
                   fts5_h * 0.98),
                _S("sug_fts5_mood", "mood", "relieved", "ollama", LLAMA, "mood-v0", 0.41, fts5_h * 0.97,
                   "rejected", decided_hours_ago=fts5_h * 0.5),
            ]),
        _sample_draft(ctx, "draft_demo_jeju", jeju, ["family", "travel"], 30, [
                _S("sug_jeju_place", "location", "Hyeopjae Beach, Jeju", "photos", GPT, "photo-place-v1", 0.88, 29.5),
                _S("sug_jeju_title", "title", "엄마와 첫 스노클링", "assistant", CLAUDE, "memory-card-v3", 0.83, 29.4),
                *_local_dates(ctx, "sug_jeju_when", jeju, 30),
                _S("sug_jeju_people", "people", ["엄마"], "assistant", GPT_MINI, "people-v2", 0.8, 29.4),
            ]),
        _sample_draft(ctx, "draft_demo_dentist", dentist, ["health"], 6, [
                *_local_dates(ctx, "sug_dentist_when", dentist, 6),
                _S("sug_dentist_title", "title", "Dentist appointment moved", "assistant", GPT_MINI,
                   "memory-card-v2", 0.7, 5.8),
            ]),
        _sample_draft(ctx, "draft_demo_idea",
            "Idea: do the weekly curation review on Sunday evenings, after the long run.", ["habit"], 3, []),
        _sample_draft(ctx, "draft_demo_book",
            "Kate recommended 'The Overstory'; she said the middle third is the best part and not to give up "
            "before it.",
            ["books"], 50, [
                _S("sug_book_people", "people", ["Kate"], "assistant", HAIKU, "people-v2", 0.93, 49.5,
                   "accepted", decided_hours_ago=26),
                _S("sug_book_title", "title", "Kate's book tip", "assistant", HAIKU, "memory-card-v3", 0.66, 49.5,
                   "accepted", edited_to="The Overstory, via Kate", decided_hours_ago=26),
                _S("sug_book_tags", "tags", ["reading-list", "fiction"], "assistant", HAIKU, "tags-v2", 0.55,
                   49.9, "rejected", decided_hours_ago=26),
            ], approved_hours_ago=25),
    ]
    # fmt: on
    for draft in drafts:
        ctx.vault.save_draft(draft)
    ctx.notes.append(f"{len(drafts)} drafts (4 open, 1 approved) with suggestions from 5 models and 2 local suggesters")


def _reviewed(ctx: DemoContext, name: str, days: float, content: str, tags: list[str], fields: list[_S]) -> StoredDraft:
    """A draft captured ``days`` ago whose every suggestion (those given and the real date
    suggester's) was decided a day later, then approved."""
    hours = days * 24
    fields = [*fields, *_local_dates(ctx, f"sug_{name}_when", content, hours)]
    decided = [
        replace(s, hours_ago=hours - 0.1, decision=s.decision or "accepted", decided_hours_ago=hours - 24)
        for s in fields
    ]
    return _sample_draft(ctx, f"draft_demo_{name}", content, tags, hours, decided, approved_hours_ago=hours - 25)


@demo_step("memories")
def build_memories(ctx: DemoContext) -> None:
    """Finalized memories with review provenance, spread over the last weeks, and two stored without review.
    The deadline with 佐藤さん was written the morning after the night Japanese "先週の火曜日の夜" names."""
    _, ja_night_end = decision_nights(ctx.now, _person_zone(ctx))["ja"]
    deadline_days = _hours_before(ctx, ja_night_end + timedelta(hours=5)) / 24
    # fmt: off
    finalized = [
        _reviewed(ctx, "principle", 70,
            "Decided tonight to keep every conversation turn exactly as it was said: no summaries in the log, ever.",
            ["reverie", "principle"], [
                _S("sug_principle_title", "title", "The log is never summarized", "assistant", CLAUDE,
                   "memory-card-v2", 0.89, 0),
            ]),
        _reviewed(ctx, "birthday", 49,
            "Mina's birthday dinner last Saturday at the small Jeju place in Mangwon; she ordered the black pork "
            "twice.",
            ["friends"], [
                _S("sug_birthday_people", "people", ["Mina"], "assistant", GPT_MINI, "people-v2", 0.92, 0),
                _S("sug_birthday_place", "location", "Mapo-gu, Seoul", "photos", GPT, "photo-place-v1", 0.71, 0,
                   edited_to="Mangwon, Seoul"),
                _S("sug_birthday_mood", "mood", "happy", "ollama", LLAMA, "mood-v0", 0.52, 0, "rejected"),
            ]),
        _reviewed(ctx, "run", 28,
            "Yesterday I moved the morning run to 6:15 so it ends before the first call; the knees are fine with "
            "the new shoes.",
            ["health", "habit"], [
                _S("sug_run_title", "title", "Runs move to 6:15", "assistant", GPT_MINI, "memory-card-v2", 0.8, 0),
            ]),
        _reviewed(ctx, "rule", 20,
            "Agreed with the team this afternoon: the review queue ships before search, and no AI output becomes "
            "a fact without a person's confirmation.",
            ["project", "reverie", "decision"], [
                _S("sug_rule_title", "title", "Review queue before search", "assistant", CLAUDE, "memory-card-v2",
                   0.9, 0),
                _S("sug_rule_tags", "tags", ["principle"], "assistant", HAIKU, "tags-v2", 0.71, 0),
            ]),
        _reviewed(ctx, "ski", 12,
            "Kate said yesterday that the skiing trip is off this year; we'll do the Hakuba onsen weekend in "
            "February instead.",
            ["travel", "friends"], [
                _S("sug_ski_people", "people", ["Kate"], "assistant", CLAUDE, "people-v2", 0.95, 0),
                _S("sug_ski_place", "location", "Hakuba Valley, Nagano", "assistant", GPT, "place-v1", 0.77, 0,
                   edited_to="Hakuba"),
                _S("sug_ski_title", "title", "Ski trip off, onsen weekend on", "assistant", CLAUDE,
                   "memory-card-v3", 0.86, 0),
                _S("sug_ski_mood", "mood", "disappointed", "ollama", LLAMA, "mood-v0", 0.38, 0, "rejected"),
            ]),
        _reviewed(ctx, "deadline", deadline_days,
            "火曜日の夜、佐藤さんと新しいプロジェクトの締め切りを3月末に決めた。", ["work"], [
                _S("sug_deadline_title", "title", "締め切りは3月末", "assistant", CLAUDE, "memory-card-v3", 0.88, 0),
                _S("sug_deadline_people", "people", ["佐藤さん"], "assistant", GPT_MINI, "people-v2", 0.9, 0),
            ]),
    ]
    # fmt: on
    for draft in finalized:
        ctx.vault.save_draft(draft)
        ctx.vault.finalize_draft(draft)
    ctx.vault.add_memory(
        "The cabin's Wi-Fi password is on the fridge magnet, not in the notes.", ["home"], title="Cabin Wi-Fi"
    )
    ctx.vault.add_memory(
        "Imported from the old notes app: started learning Korean in 2019 with a podcast on the commute.",
        ["learning", "imported"],
        occurred_at=ctx.iso_ago(days=24 * 30),
    )
    ctx.notes.append(f"{len(finalized)} finalized memories with review provenance, 2 memories without review")


# (file, name, description, type, days since it last changed, listed in MEMORY.md, extra frontmatter,
# body). "{expired}" in an extra value becomes a date twelve days before the demo's reference time.
# fmt: off
_PROJECT_MEMORY: tuple[tuple[str, str, str, str, float, bool, dict[str, str], str], ...] = (
    ("user_profile.md", "User profile", "who the user is and what they know", "user", 9, True, {},
     "The user is a backend engineer in Seoul who reads Korean and English. New to Textual; knows SQLite "
     "well. Explain UI ideas with a small example."),
    ("user_schedule.md", "Working hours", "when the user is around", "user", 16, True, {},
     "Works 9:30 to 18:00 KST, long runs on Sunday evenings; the weekly curation review happens after."),
    ("feedback_testing.md", "Testing feedback", "integration tests hit a real database", "feedback", 240, True, {},
     "Integration tests must use a real SQLite file, not a mock.\n\n**Why:** a mocked test passed while the FTS5 "
     "migration broke search in production.\n**How to apply:** build the index in tmp_path."),
    ("feedback_commits.md", "Commit messages", "how to write commit messages", "feedback", 12, True, {},
     "Don't add Co-authored-by lines. One subject line under 60 characters, then why, not what."),
    ("feedback_korean_terms.md", "Korean terms", "keep Korean terms as written", "feedback", 11, True, {},
     "Keep Korean product terms in Hangul (보관소, 복원 포인터); do not romanize them."),
    ("project_curation.md", "Curation slice", "cold storage and restore", "project", 10, True, {"status": "active"},
     "Curation never deletes: move to cold storage, tombstone, verified restore. Weekly review; the rubric "
     "learns from restores."),
    ("project_search_fts5.md", "Search on FTS5", "the index decision", "project", 13, True,
     {"supersedes": "project_search_trigram.md"},
     "Search uses SQLite FTS5 with rowid ranges per time window: 30x faster than joining on ts. sqlite-vec "
     "only as the semantic fallback."),
    ("project_importers.md", "Importers", "chat export importers", "project", 18, True, {"status": "active"},
     "ChatGPT and Claude Code exports import losslessly; re-importing a file adds nothing twice."),
    ("reference_benchmarks.md", "Benchmarks", "where the numbers live", "reference", 15, True, {},
     "MEASUREMENTS.md holds every timing; tests/bench has the scripts that produced them."),
    ("reference_ssh_setup.md", "SSH setup", "how the user reaches the home machine", "reference", 14, True, {},
     "ssh -t home reverie; tmux on the server; 256 colours, no truecolor over the office VPN."),
    ("reference_release.md", "Release checklist", "steps for a release", "reference", 260, True, {},
     "Bump the version, run .ci/run, regenerate the screenshots, tag, write the notes."),
    ("project_search_trigram.md", "Trigram search plan", "the first search plan", "project", 210, False, {},
     "Plan: a trigram index in a side table, rebuilt nightly. Measured at 800 ms per query on a year of logs."),
    ("project_v1_launch.md", "v1 launch", "the first public release", "project", 320, False, {"status": "done"},
     "Ship v1 with the review queue and the vault; search comes after."),
    ("launch_checklist.md", "Launch checklist", "what v1 needed", "reference", 330, False,
     {"project": "project_v1_launch"},
     "Landing page, install script, a screenshot per screen, a short demo video."),
    ("reference_embedding_models.md", "Embedding models tried", "models compared in spring", "reference", 190,
     False, {}, "all-MiniLM-L6-v2 was the best trade-off on CPU; e5-small was slower for no gain on Korean."),
    ("reference_meetup_talk.md", "Meetup talk", "the local-first meetup talk", "reference", 25, False,
     {"expires": "{expired}"},
     "Slides in ~/talks/local-first; 20 minutes plus questions; bring the HDMI dongle."),
    ("reference_conference_cfp.md", "Conference CFP", "the PyCon KR call for proposals", "reference", 40, False,
     {"valid_until": "{expired}"}, "Submit the curation talk; the abstract draft is in the notes app."),
    ("project_tokenizer_spike.md", "Tokenizer spike", "a custom tokenizer for Korean", "project", 30, False, {},
     "Tried a custom tokenizer for Korean words inside longer words. Superseded by [the FTS5 decision]"
     "(project_search_fts5.md), which handles it with trigram tokens."),
    ("reference_ci_cache.md", "CI cache", "the CI cache key", "reference", 9, False, {},
     "The CI cache key includes the lock file hash; clear it from the Actions tab."),
    ("reference_old_laptop.md", "Old laptop", "moving off the old laptop", "reference", 400, False,
     {"expires": "next spring"}, "Copy ~/notes and the GPG key before wiping the old laptop."),
    ("project_ideas.md", "Ideas", "ideas to come back to", "project", 280, False, {"pinned": "true"},
     "A phone widget for topic markers; a weekly digest of what was decided."),
    ("assistant_voice.md", "Assistant voice and tone", "how replies should sound", "reference", 300, False, {},
     "Reply in a calm, plain voice: short sentences, no exclamation marks, Korean terms kept in Hangul."),
)
# fmt: on


@demo_step("curation")
def build_curation(ctx: DemoContext) -> None:
    """A Claude Code project memory folder (``MEMORY.md`` and one frontmatter file per memory, of every
    type, with a voice file and superseded, expired, finished, orphaned and old ones, dated by their
    mtimes) inside the demo home, registered as the curation scope ``reverie-memory``, measured and
    reviewed eight days ago (so the weekly review is due), with one approved record moved to cold
    storage: candidates in every tier, and something to restore."""
    def write(path: Path, text: str, days: float) -> None:
        path.write_text(text, encoding="utf-8")
        stamp = ctx.ago(days=days).timestamp()
        os.utime(path, (stamp, stamp))

    scope = "reverie-memory"
    root = ctx.paths.root / "claude" / "projects" / "-home-me-code-reverie" / "memory"
    root.mkdir(parents=True)
    expired = (ctx.now - timedelta(days=12)).date().isoformat()
    index = ["# Memory index", ""]
    for file, name, description, kind, days, indexed, extra, body in _PROJECT_MEMORY:
        front = [f"name: {name}", f"description: {description}", f"type: {kind}"]
        front += [f"{key}: {value.format(expired=expired)}" for key, value in extra.items()]
        write(root / file, "\n".join(["---", *front, "---", "", body, ""]), days)
        if indexed:
            index.append(f"- [{name}]({file}) — {description}")
    write(root / "MEMORY.md", "\n".join(index) + "\n", 9)
    # Written as the curation tests write theirs: `curate scope add` keeps real scopes out of the data
    # home, and this sample folder lives inside the throwaway demo home so that it goes with it.
    with file_lock(ctx.paths.lock("config")):
        config = load_config(ctx.paths.config)
        config.curation.scopes.append(ScopeConfig(name=scope, kind="claude-code", path=str(root)))
        save_config(ctx.paths.config, config)
    reviewed = ctx.ago(days=8)
    engine.calibrate_scope(ctx.paths, config, scope, now=reviewed)
    engine.scan(ctx.paths, config, scope, now=reviewed)
    engine.decide_candidate(ctx.paths, f"{scope}:reference_meetup_talk.md", "approved", now=reviewed)
    keys = ctx.vault.keys
    moved = engine.apply(
        ctx.paths,
        config,
        scope,
        unlock=lambda: keys,
        now=reviewed,
        only={candidate_id(scope, "reference_meetup_talk.md")},
    )
    counts = engine.last_candidates(ctx.paths, scope)
    tiers = ", ".join(f"{sum(1 for c in counts if c.tier == t)} {t}" for t in ("high", "medium", "low"))
    ctx.notes.append(
        f"a Claude Code memory folder of {len(_PROJECT_MEMORY)} files as curation scope {scope} "
        f"({tiers}), {len(moved.moved)} moved to cold storage, its weekly review due"
    )


@demo_step("conversations")
def build_conversations(ctx: DemoContext) -> None:
    """Weeks of chats between the person and three assistants in English, Korean and Japanese, several
    sessions a day (with a decision made "last Tuesday night"), imported through the real ingest, topic
    markers in the person's words, and the exact search index with the vault's memories. The chats and
    their schedule live in :mod:`core.demo.conversations`."""
    write_conversations(ctx)
