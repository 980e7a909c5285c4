"""Topic markers through the workbench: the person writes where the conversation is now; the TUI,
the CLI, ``context`` and assistants read them."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from core.topics import MAX_MARKER_CHARS, MarkerReading, add_marker, latest_markers, newest_first, read_markers
from core.workbench.service import Service

if TYPE_CHECKING:
    from core.topics import Marker


class Topics(Service):
    """The home's ``topics.jsonl``: add a marker, read them latest first."""

    max_chars = MAX_MARKER_CHARS

    def mark(self, text: str, now: datetime | None = None) -> Marker:
        """Append the person's marker (empty or too long text is a ``MarkerError`` naming why)."""
        return add_marker(self.workbench.paths, text, now)

    def read(self) -> MarkerReading:
        """Every marker, latest first, and the lines that could not be read ("topics.jsonl:LINE: why")."""
        reading = read_markers(self.workbench.paths)
        return MarkerReading(newest_first(reading.markers), reading.problems)

    def latest(self, n: int | None = None) -> list[Marker]:
        """The ``n`` latest markers (``context.markers`` in the settings by default), latest first."""
        return latest_markers(self.workbench.paths, self.workbench.config.context.markers if n is None else n)
