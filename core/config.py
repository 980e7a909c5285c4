"""``config.toml``: typed settings, validated when loaded.

Each section is a dataclass; :func:`load_config` walks the TOML against the dataclass fields, so an
unknown key or a wrong type is one clear error naming the file and the dotted key
(``config.toml: recall.half_life_days must be a number, got 'soon'``).
"""

from __future__ import annotations

import dataclasses
import tomllib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import tomli_w

from core.errors import ConfigError
from core.fsutil import atomic_write_text

SUPPORTED_LANGUAGES = ("en", "ko", "ja")
SCOPE_KINDS = ("vault", "claude-code", "codex", "markdown")
EMBEDDING_BACKENDS = ("sentence-transformers", "openai-compatible")


@dataclass
class GeneralConfig:
    timezone: str = ""  # empty: the system's timezone
    languages: list[str] = field(default_factory=lambda: list(SUPPORTED_LANGUAGES))
    reviewer: str = "me"  # the name recorded on accept / reject / approve from the TUI


@dataclass
class SecurityConfig:
    keyring: bool = False  # read the passphrase from the OS keyring
    idle_lock_minutes: int = 15  # the TUI forgets the keys after this long idle; 0 = never


@dataclass
class EmbeddingConfig:
    backend: str = "sentence-transformers"
    model: str = "all-MiniLM-L6-v2"
    endpoint: str = ""  # for openai-compatible: a loopback URL
    threads: int = 1  # torch threads; one thread holds up better on a busy machine
    batch_size: int = 64


@dataclass
class RecallConfig:
    half_life_days: float = 30.0  # recency boost for memories without a time range
    duplicate_threshold: float = 0.95  # cosine at or above which a new memory is a near duplicate
    min_exact_results: int = 3  # auto mode falls back to semantic below this many exact hits
    default_limit: int = 10


@dataclass
class ContextConfig:
    budget: int = 2000  # tokens
    item_max_tokens: int = 500
    markers: int = 5


@dataclass
class ScopeConfig:
    name: str = ""
    kind: str = ""
    path: str = ""


@dataclass
class CurationConfig:
    auto_move_cap: int = 10  # at most this many automatic moves per run
    report_only_runs: int = 3  # the first runs of a scope only report what they would move
    tighten_after_restores: int = 3  # restores caused by one signal before it is tightened
    review_interval_days: int = 7
    restored_guard_days: int = 30  # a record restored this recently is guarded
    scopes: list[ScopeConfig] = field(default_factory=list)


@dataclass
class TuiConfig:
    animations: bool = False
    search_debounce_ms: int = 300
    keymap: dict[str, str] = field(default_factory=dict)  # binding id -> key(s)
    mouse: bool = True  # false: the terminal is never asked for mouse events (fewer bytes over SSH)


@dataclass
class SharingProfile:
    allow_tags: list[str] = field(default_factory=list)  # empty: every tag not denied
    deny_tags: list[str] = field(default_factory=lambda: ["private"])
    reviewed_only: bool = True
    include_turns: bool = True
    sources: list[str] = field(default_factory=list)  # empty: every source
    max_items: int = 20
    max_tokens: int = 4000


@dataclass
class SharingConfig:
    profiles: dict[str, SharingProfile] = field(default_factory=dict)


@dataclass
class WatchConfig:
    """What `reverie watch` follows besides the log: assistant transcript folders (or files) whose new
    turns it ingests as they grow, e.g. "~/.claude/projects", "~/.codex/sessions". Empty: none."""

    follow: list[str] = field(default_factory=list)


@dataclass
class AssistantsConfig:
    """Limits on what assistants put in the review queue (see core.assist.proposal_limits); 0 turns it off."""

    proposals_per_hour: int = 20  # new drafts one assistant may propose in any hour
    open_proposals: int = 50  # drafts from all assistants waiting unreviewed at once
    suggestions_per_draft: int = 50  # suggestions assistants may add to one draft, ever


@dataclass
class Config:
    general: GeneralConfig = field(default_factory=GeneralConfig)
    security: SecurityConfig = field(default_factory=SecurityConfig)
    embedding: EmbeddingConfig = field(default_factory=EmbeddingConfig)
    recall: RecallConfig = field(default_factory=RecallConfig)
    context: ContextConfig = field(default_factory=ContextConfig)
    curation: CurationConfig = field(default_factory=CurationConfig)
    tui: TuiConfig = field(default_factory=TuiConfig)
    sharing: SharingConfig = field(default_factory=SharingConfig)
    assistants: AssistantsConfig = field(default_factory=AssistantsConfig)
    watch: WatchConfig = field(default_factory=WatchConfig)

    def zone(self) -> ZoneInfo:
        """The person's timezone: ``general.timezone`` or the system's."""
        if self.general.timezone:
            try:
                return ZoneInfo(self.general.timezone)
            except (ZoneInfoNotFoundError, ValueError, OSError) as exc:
                raise ConfigError(f"config.toml: general.timezone is not a known timezone: "
                                  f"{self.general.timezone[:80]!r}") from exc
        return system_zone()

    def sharing_profile(self, name: str) -> SharingProfile:
        if name in self.sharing.profiles:
            return self.sharing.profiles[name]
        if name == "default":
            return SharingProfile()
        known = ", ".join(sorted({"default", *self.sharing.profiles})) or "default"
        raise ConfigError(f"config.toml: no sharing profile {name!r} (known: {known})")


def system_zone() -> ZoneInfo:
    import tzlocal

    try:
        return ZoneInfo(tzlocal.get_localzone_name() or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _key(dotted: str) -> str:
    """A key as it may appear in a one-line message: control characters escaped, long keys cut."""
    shown = dotted if dotted.isprintable() else dotted.encode("unicode_escape").decode("ascii")
    return shown if len(shown) <= 120 else shown[:117] + "..."


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is list:
        return f"a list of {_type_name(typing.get_args(tp)[0])}"
    if origin is dict:
        return f"a table of {_type_name(typing.get_args(tp)[1])}"
    if dataclasses.is_dataclass(tp):
        return "a table"
    return {str: "a string", int: "an integer", float: "a number", bool: "true or false"}.get(tp, str(tp))


def _convert(value: Any, tp: Any, key: str, source: str) -> Any:
    origin = typing.get_origin(tp)
    got = repr(value)
    got = got if len(got) <= 80 else got[:77] + "..."
    wrong = ConfigError(f"{source}: {_key(key)} must be {_type_name(tp)}, got {got}")
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise wrong
        return _build(tp, value, key, source)
    if origin is list:
        if not isinstance(value, list):
            raise wrong
        (item_tp,) = typing.get_args(tp)
        return [_convert(item, item_tp, f"{key}[{i}]", source) for i, item in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise wrong
        _, item_tp = typing.get_args(tp)
        return {k: _convert(v, item_tp, f"{key}.{k}", source) for k, v in value.items()}
    if tp is bool:
        if not isinstance(value, bool):
            raise wrong
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise wrong
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise wrong
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise wrong
        return value
    if isinstance(tp, types.UnionType):  # pragma: no cover - no optional fields yet
        raise wrong
    raise wrong


def _build(cls: type, data: dict[str, Any], prefix: str, source: str) -> Any:
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    kwargs = {}
    for key, value in data.items():
        dotted = f"{prefix}.{key}" if prefix else key
        if key not in names:
            raise ConfigError(f"{source}: unknown key {_key(dotted)!r}")
        kwargs[key] = _convert(value, hints[key], dotted, source)
    return cls(**kwargs)


def _validate(config: Config, source: str) -> None:
    def bad(key: str, why: str) -> ConfigError:
        return ConfigError(f"{source}: {_key(key)} {why}")

    if config.general.timezone:
        try:
            ZoneInfo(config.general.timezone)
        except (ZoneInfoNotFoundError, ValueError, OSError) as exc:  # OSError: a name too long for a file
            raise bad("general.timezone", f"is not a known timezone: {config.general.timezone[:80]!r}") from exc
    for i, lang in enumerate(config.general.languages):
        if lang not in SUPPORTED_LANGUAGES:
            raise bad(f"general.languages[{i}]", f"must be one of {', '.join(SUPPORTED_LANGUAGES)}, got {lang!r}")
    if config.security.idle_lock_minutes < 0:
        raise bad("security.idle_lock_minutes", "must be 0 or more")
    if config.embedding.backend not in EMBEDDING_BACKENDS:
        raise bad("embedding.backend", f"must be one of {', '.join(EMBEDDING_BACKENDS)}")
    if config.embedding.threads < 1 or config.embedding.batch_size < 1:
        raise bad("embedding.threads", "and embedding.batch_size must be at least 1")
    if not 0 < config.recall.duplicate_threshold <= 1:
        raise bad("recall.duplicate_threshold", "must be in (0, 1]")
    if config.recall.half_life_days <= 0:
        raise bad("recall.half_life_days", "must be positive")
    if config.recall.default_limit < 1 or config.recall.min_exact_results < 0:
        raise bad("recall.default_limit", "must be at least 1 (and min_exact_results at least 0)")
    if config.context.budget < 1 or config.context.item_max_tokens < 1 or config.context.markers < 0:
        raise bad("context", "budget and item_max_tokens must be positive, markers 0 or more")
    cur = config.curation
    for key in ("auto_move_cap", "report_only_runs", "review_interval_days", "restored_guard_days"):
        if getattr(cur, key) < 0:
            raise bad(f"curation.{key}", "must be 0 or more")
    if cur.tighten_after_restores < 1:
        raise bad("curation.tighten_after_restores", "must be at least 1")
    seen: set[str] = set()
    for i, scope in enumerate(cur.scopes):
        key = f"curation.scopes[{i}]"
        if not scope.name:
            raise bad(f"{key}.name", "is required")
        if scope.name in seen:
            raise bad(f"{key}.name", f"repeats the scope name {scope.name!r}")
        seen.add(scope.name)
        if scope.kind not in SCOPE_KINDS:
            raise bad(f"{key}.kind", f"must be one of {', '.join(SCOPE_KINDS)}, got {scope.kind!r}")
        if scope.kind != "vault" and not scope.path:
            raise bad(f"{key}.path", "is required for this kind")
    if config.tui.search_debounce_ms < 0:
        raise bad("tui.search_debounce_ms", "must be 0 or more")
    for key in ("proposals_per_hour", "open_proposals", "suggestions_per_draft"):
        if getattr(config.assistants, key) < 0:
            raise bad(f"assistants.{key}", "must be 0 or more (0 turns it off)")
    for name, profile in config.sharing.profiles.items():
        if profile.max_items < 1 or profile.max_tokens < 1:
            raise bad(f"sharing.profiles.{name}", "max_items and max_tokens must be at least 1")


def parse_config(text: str, source: str = "config.toml") -> Config:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from exc
    config = _build(Config, data, "", source)
    _validate(config, source)
    return config


def load_config(path: Path) -> Config:
    """The settings at ``path``, or the defaults when the file does not exist."""
    if not path.exists():
        return Config()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}") from exc
    return parse_config(text, str(path))


def config_to_dict(config: Config) -> dict[str, Any]:
    return dataclasses.asdict(config)


def save_config(path: Path, config: Config) -> None:
    _validate(config, str(path))
    atomic_write_text(path, tomli_w.dumps(config_to_dict(config)))
