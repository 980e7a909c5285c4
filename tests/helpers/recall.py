"""Builders for the recall, context and duplicate tests (this module holds no tests).

``ConceptEmbedder`` implements core.embed's protocol without a model: each text becomes a bag of
concepts (words of one concept group share an axis, so "snowboarding" is near "skiing" although they
share no word) plus hashed words. It is deterministic and instant.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import numpy as np

from core.config import RecallConfig
from core.index import HomeDayLogs, Reindexer, SearchIndex
from core.paths import HomePaths
from core.recall import Recaller
from core.turns import Turn, day_file, format_ts

CONCEPTS = {
    "winter": ("ski", "skiing", "skis", "snowboard", "snowboarding", "slope", "slopes", "snow"),
    "garden": ("garden", "tomato", "tomatoes", "balcony", "plant", "plants", "planted", "seeds"),
    "food": ("dinner", "pasta", "noodles", "restaurant", "lunch", "ramen"),
    "work": ("deadline", "report", "meeting", "manager", "project"),
}
_AXIS = {word: i for i, words in enumerate(CONCEPTS.values()) for word in words}
_WORD = re.compile(r"[^\W_]+")

NOW = datetime(2026, 11, 29, 15, 0, tzinfo=UTC)  # a Sunday


class ConceptEmbedder:
    def __init__(self, dim: int = 32, name: str = "concept-test-32") -> None:
        self._dim = dim
        self._name = name
        self.calls = 0

    @property
    def name(self) -> str:
        return self._name

    @property
    def dim(self) -> int:
        return self._dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.casefold()):
                if word in _AXIS:
                    out[row, _AXIS[word]] += 3.0
                else:
                    digest = int(hashlib.sha256(word.encode()).hexdigest(), 16)
                    slot = len(CONCEPTS) + digest % (self._dim - len(CONCEPTS))
                    out[row, slot] += 0.3
        self.calls += len(texts)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return np.divide(out, norms, out=np.zeros_like(out), where=norms > 0)


def turn(when: datetime, text: str, *, session: str = "s1", actor: str = "me", role: str = "user",
         source: str = "test", turn_id: str | None = None) -> Turn:
    ts = format_ts(when)
    tid = turn_id or "t-" + hashlib.sha256(f"{ts}|{text}|{session}".encode()).hexdigest()[:12]
    return Turn(id=tid, ts=ts, actor=actor, role=role, type="text", text=text, model=None, session=session,
                source=source)


def conversation(start: datetime, lines: Sequence[tuple[str, str]], *, session: str,
                 step: timedelta = timedelta(minutes=1), role_of: dict[str, str] | None = None,
                 source: str = "test") -> list[Turn]:
    """Turns ``(actor, text)`` one ``step`` apart from ``start`` in one session."""
    roles = role_of or {}
    return [turn(start + i * step, text, session=session, actor=actor, role=roles.get(actor, "user"), source=source)
            for i, (actor, text) in enumerate(lines)]


def write_log(paths: HomePaths, turns: Sequence[Turn]) -> None:
    for t in turns:
        path = day_file(paths.logs, t.day)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(t.to_json() + "\n")


def indexed(paths: HomePaths, turns: Sequence[Turn], embedder: ConceptEmbedder | None = None) -> SearchIndex:
    """Write ``turns`` to the log and index them (embedding with ``embedder`` when given)."""
    write_log(paths, turns)
    index = SearchIndex.open(paths)
    Reindexer(index, HomeDayLogs(paths), embedder=(lambda: embedder) if embedder else None,
              batch_size=16).run(embed=embedder is not None)
    return index


def recaller(index: SearchIndex, embedder: ConceptEmbedder | None = None, **config: object) -> Recaller:
    return Recaller(index, RecallConfig(**config), embedder=embedder, zone=UTC)  # type: ignore[arg-type]
