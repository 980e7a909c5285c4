"""How an edited suggestion value is read, checked against its field's kind, before it is accepted.

``occurred_at`` takes an ISO-8601 time or plain language ("tuesday 23:10", "지난주 화요일 밤"), read
with the same time grammar as ``reverie when``; the reading is shown before anything is accepted.
``people`` and ``tags`` are lists (commas between items), text fields text. A value that reads as a
time where the field holds names or words is said to be one (the cursor may be a row off), and is
kept only when the person presses Enter again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from core.workbench.when import read_time
from tui_app.widgets.format import value_from_text, value_text

KIND_HINTS = {
    "occurred_at": "a time, in words or ISO-8601",
    "people": "names, separated by commas",
    "tags": "tags, separated by commas",
}
EXAMPLES = {
    "occurred_at": "e.g. 'tuesday 23:10', '지난주 화요일 밤', '先週の金曜日 19時' or 2026-11-03T22:40+09:00",
}


@dataclass(frozen=True)
class FieldReading:
    """What an edit would store: ``value`` with ``reading`` (how it was understood), or ``error`` (it
    cannot be stored in this field). ``warning``: storable, but probably meant for another field."""

    value: Any = None
    reading: str = ""
    error: str = ""
    warning: str = ""


def kind_hint(field_name: str) -> str:
    return KIND_HINTS.get(field_name, "text")


def example_hint(field_name: str) -> str:
    """Examples of what the field takes, for the line under an edit ("" when the kind says enough)."""
    return EXAMPLES.get(field_name, "")


@dataclass(frozen=True)
class FieldReader:
    """Reads edits for one suggestion's field, relative to ``now`` in ``zone`` (what "tuesday" means)."""

    field_name: str
    original: Any
    now: datetime
    zone: tzinfo
    languages: Sequence[str] = ("en", "ko", "ja")
    fiscal_year_start: int = 1

    def __call__(self, text: str) -> FieldReading:
        if not text.strip():
            return FieldReading(error="empty: an empty value cannot be accepted")
        if self.field_name == "occurred_at":
            return self.read_time(text.strip())
        value = value_from_text(self.field_name, text, self.original)
        if isinstance(value, list) and not value:
            return FieldReading(error=f"{self.field_name}: no item (give {kind_hint(self.field_name)})")
        shown = value_text(value)
        timed = self.whole_time(text.strip())
        if timed is not None:
            return FieldReading(
                value=value,
                reading=f"{self.field_name} = {shown}",
                warning=f"'{text.strip()}' reads as a time ({timed}), but {self.field_name} holds "
                f"{kind_hint(self.field_name)}: Enter again keeps it as {self.field_name}, Esc cancels",
            )
        return FieldReading(value=value, reading=f"{self.field_name} = {shown}")

    def read_time(self, text: str) -> FieldReading:
        """An ISO-8601 time with its offset as it is; otherwise the start of the range the time grammar
        reads from the whole text (words left over are refused, not dropped)."""
        try:
            moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            moment = None
        if moment is not None:
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=self.zone)
            return FieldReading(value=moment.isoformat(), reading=self.describe(moment, "as written"))
        parsed = self.parse(text)
        if parsed is None or parsed.range is None:
            return FieldReading(error=f"occurred_at: no time found in '{text}' ({example_hint('occurred_at')})")
        if parsed.rest.strip():
            return FieldReading(error=f"occurred_at: '{parsed.rest.strip()}' is not part of a time "
                                f"(read '{parsed.expression}' only)")
        start = parsed.range.start
        grain = parsed.range.grain.replace("_", " ")
        return FieldReading(value=start.isoformat(), reading=self.describe(start, f"the start of the {grain} it names"))

    def describe(self, moment: datetime, how: str) -> str:
        local = moment.astimezone(self.zone)
        return f"occurred_at = {local:%a %d %b %Y %H:%M} {local.tzname() or ''} ({how}; stored {moment.isoformat()})"

    def parse(self, text: str) -> Any:
        try:
            return read_time(text, self.now, self.zone, self.languages, fiscal_year_start=self.fiscal_year_start)
        except ValueError:
            return None

    def whole_time(self, text: str) -> str | None:
        """How ``text`` reads as a time when the whole of it is one time expression, else None."""
        parsed = self.parse(text)
        if parsed is None or parsed.range is None or parsed.rest.strip():
            return None
        local = parsed.range.start.astimezone(self.zone)
        return f"{local:%a %d %b %H:%M}"
