"""Parts of the day and their boundaries (local wall-clock time of the day they belong to):
:data:`PARTS`; the words for them are in :mod:`core.timeparse.dayparts`.

A night belongs to the day it starts on: "Tuesday night" is Tue 18:00 – Wed 04:00. 오후 and 午後 mean
p.m. when they qualify an hour (오후 8시 is 20:00); alone they are the afternoon. The boundaries are
generous on purpose: recall bounds the search with them, and a missed turn costs more than an extra one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import time


@dataclass(frozen=True)
class PartOfDay:
    name: str
    start: time
    end: time  # on the next day when crosses_midnight (an evening ends at the next 00:00)
    crosses_midnight: bool = False
    meridiem: str | None = None  # how an hour outside the part is read: 오후 8시 is 20:00, 오전 8시 08:00

    def hours(self) -> list[int]:
        """The wall-clock hours the part covers, in order (used to place a bare hour: 밤 11시, 夜9時)."""
        first = self.start.hour
        last = self.end.hour + (24 if self.crosses_midnight else 0)
        return [hour % 24 for hour in range(first, last)]

    def next_day_hour(self, hour: int) -> bool:
        """True when ``hour`` falls after midnight inside this part (3 a.m. of a night)."""
        return self.crosses_midnight and hour < self.start.hour


def _part(name: str, start: int, end: int, meridiem: str | None = None) -> PartOfDay:
    return PartOfDay(name, time(start), time(end % 24), crosses_midnight=end >= 24, meridiem=meridiem)


PARTS: dict[str, PartOfDay] = {
    part.name: part
    for part in (
        _part("dawn", 0, 6, "am"),
        _part("early_morning", 5, 9, "am"),
        _part("morning", 6, 12, "am"),
        _part("forenoon", 0, 12, "am"),
        _part("midday", 11, 14),
        _part("daytime", 9, 18),
        _part("afternoon", 12, 18, "pm"),
        _part("late_afternoon", 16, 19, "pm"),
        _part("mid_morning", 9, 11, "am"),
        _part("late_morning", 9, 12, "am"),
        _part("early_afternoon", 12, 15, "pm"),
        _part("late_evening", 21, 24, "pm"),
        _part("evening", 18, 24, "pm"),
        _part("night", 18, 28, "pm"),
        _part("late_night", 22, 29),
    )
}
