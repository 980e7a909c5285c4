"""The rubric: ``curation/rubric.toml``, versioned.

Each signal has a ``weight`` (what it adds to a record's score), a ``min_age_days`` (the signal
fires only once the record has been unchanged and unused that long; for ``expired``, that long past
its expiry date) and, for ``unused``, a ``factor`` applied to the scope's measured thresholds.
Tiers: a score of ``high_min_score`` or more with no guard and a clearly old record is high; of
``medium_min_score`` or more, medium; anything else, or anything guarded, low.

Tightening a signal (after restores it caused) raises its ``min_age_days`` (or ``factor`` for
``unused``), bumps ``version`` and appends a ``[[changes]]`` entry naming the restores; the
changelog is generated from those entries, so the two never disagree.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from core import clock
from core.curate.model import SIGNALS
from core.errors import ConfigError
from core.fsutil import atomic_write_text
from core.paths import HomePaths

RUBRIC_FILE = "rubric.toml"
HEADER = (
    "# Reverie curation rubric. Versioned: every change bumps `version` and is listed in [[changes]]\n"
    "# (and in changelog.md). Edit by hand if you like; `reverie curate scan` reads it every run.\n"
)


@dataclass
class SignalRule:
    weight: float = 1.0
    min_age_days: float = 0.0
    factor: float = 1.0
    tightened: int = 0

    def snapshot(self) -> dict[str, float]:
        return {"weight": self.weight, "min_age_days": self.min_age_days, "factor": self.factor}


@dataclass
class RubricChange:
    version: int
    at: str
    signal: str
    restores: list[str]  # move ids of the restores that caused the change
    before: dict[str, float]
    after: dict[str, float]
    reason: str


@dataclass
class Rubric:
    version: int = 1
    high_min_score: float = 2.0
    medium_min_score: float = 1.0
    tighten_step_days: float = 30.0
    tighten_factor: float = 1.5
    signals: dict[str, SignalRule] = field(default_factory=lambda: {name: SignalRule() for name in SIGNALS})
    changes: list[RubricChange] = field(default_factory=list)

    def rule(self, signal: str) -> SignalRule:
        return self.signals.setdefault(signal, SignalRule())


def rubric_path(paths: HomePaths) -> Path:
    return paths.curation / RUBRIC_FILE


def _number(value: Any, key: str, source: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{source}: {key} must be a number, got {value!r}")
    if value < 0:
        raise ConfigError(f"{source}: {key} must be 0 or more")
    return float(value)


def _parse(data: dict[str, Any], source: str) -> Rubric:
    known = {f.name for f in dataclasses.fields(Rubric)}
    for key in data:
        if key not in known:
            raise ConfigError(f"{source}: unknown key {key!r}")
    rubric = Rubric()
    version = data.get("version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ConfigError(f"{source}: version must be a whole number of at least 1, got {version!r}")
    rubric.version = version
    for key in ("high_min_score", "medium_min_score", "tighten_step_days", "tighten_factor"):
        if key in data:
            setattr(rubric, key, _number(data[key], key, source))
    if rubric.tighten_factor < 1:
        raise ConfigError(f"{source}: tighten_factor must be at least 1")
    signals = data.get("signals", {})
    if not isinstance(signals, dict):
        raise ConfigError(f"{source}: signals must be a table")
    for name, table in signals.items():
        if name not in SIGNALS:
            raise ConfigError(f"{source}: signals.{name}: unknown signal (known: {', '.join(SIGNALS)})")
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: signals.{name} must be a table")
        rule = SignalRule()
        for key, value in table.items():
            if key not in ("weight", "min_age_days", "factor", "tightened"):
                raise ConfigError(f"{source}: unknown key 'signals.{name}.{key}'")
            number = _number(value, f"signals.{name}.{key}", source)
            setattr(rule, key, int(number) if key == "tightened" else number)
        rubric.signals[name] = rule
    for i, change in enumerate(data.get("changes", [])):
        try:
            rubric.changes.append(RubricChange(
                version=int(change["version"]), at=str(change["at"]), signal=str(change["signal"]),
                restores=[str(r) for r in change["restores"]], before=dict(change["before"]),
                after=dict(change["after"]), reason=str(change.get("reason", "")),
            ))
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"{source}: changes[{i}] malformed: {exc}") from exc
    return rubric


def load_rubric(paths: HomePaths) -> Rubric:
    """The rubric in the home, or the built-in version 1 when none was written yet."""
    path = rubric_path(paths)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Rubric()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read: {exc}") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    return _parse(data, str(path))


def rubric_to_dict(rubric: Rubric) -> dict[str, Any]:
    """The TOML document ``rubric.toml`` holds (tomli_w writes it; msgspec has no TOML writer, and the
    file's key order is what people have read and edited), checked again by ``_parse`` before writing."""
    return {
        "version": rubric.version,
        "high_min_score": rubric.high_min_score,
        "medium_min_score": rubric.medium_min_score,
        "tighten_step_days": rubric.tighten_step_days,
        "tighten_factor": rubric.tighten_factor,
        "signals": {name: dataclasses.asdict(rule) for name, rule in rubric.signals.items()},
        "changes": [dataclasses.asdict(change) for change in rubric.changes],
    }


def save_rubric(paths: HomePaths, rubric: Rubric) -> None:
    atomic_write_text(rubric_path(paths), HEADER + tomli_w.dumps(rubric_to_dict(rubric)))


def tightened(rubric: Rubric, signal: str, restores: list[str], reason: str) -> Rubric:
    """A copy of ``rubric`` with ``signal`` made more conservative and the version bumped."""
    new = _parse(rubric_to_dict(rubric), "rubric")
    rule = new.rule(signal)
    before = rule.snapshot()
    if signal == "unused":
        rule.factor = round(rule.factor * new.tighten_factor, 4)
    else:
        rule.min_age_days = round(max(rule.min_age_days * new.tighten_factor,
                                      rule.min_age_days + new.tighten_step_days), 4)
    rule.tightened += 1
    new.version += 1
    new.changes.append(RubricChange(
        version=new.version, at=clock.utc_now_iso(), signal=signal, restores=list(restores),
        before=before, after=rule.snapshot(), reason=reason,
    ))
    return new
