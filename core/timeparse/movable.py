"""Holidays whose date moves: computed per year, never typed in.

Western holidays by rule (Easter by the Gregorian computus and the days around it, Thanksgiving and
Black Friday, Labor, Memorial, Mother's and Father's Day, holiday weekends); Korean lunar holidays
(설날, 추석, 부처님 오신 날, 정월 대보름, 단오) through ``korean-lunar-calendar`` (1000–2050); 旧正月 /
春節 through ``lunardate``; Japan's Happy Monday holidays; the equinox days by the almanac formula
(1900–2099). A one-day holiday is a day ("추석 저녁", "Easter morning"); a holiday period (설 연휴) is a
``span``. Which year is meant follows :mod:`core.timeparse.annual`; a year the tables do not cover
gives no range.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from functools import lru_cache

import lunardate
from korean_lunar_calendar import KoreanLunarCalendar


def easter(year: int) -> date:
    """Gregorian Easter Sunday (the anonymous Gregorian algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    el = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * el) // 451
    month, day = divmod(h + el - 7 * m + 114, 31)
    return date(year, month, day + 1)


def nth_weekday(year: int, month: int, weekday: int, nth: int) -> date:
    """The ``nth`` ``weekday`` (Monday 0) of a month; ``nth`` -1 is the last."""
    if nth < 0:
        following = date(year + month // 12, month % 12 + 1, 1)
        last = following - timedelta(days=1)
        return last - timedelta(days=(last.weekday() - weekday) % 7)
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))


@lru_cache(maxsize=512)
def korean_lunar(year: int, month: int, day: int) -> date:
    """The solar date of a Korean lunar date (non-leap month); ValueError outside the tables."""
    calendar = KoreanLunarCalendar()
    if not calendar.setLunarDate(year, month, day, False):
        raise ValueError(f"no Korean lunar date {year}-{month}-{day}")
    return date.fromisoformat(calendar.SolarIsoFormat())


@lru_cache(maxsize=512)
def chinese_lunar(year: int, month: int, day: int) -> date:
    """The solar date of a Chinese lunar date; ValueError outside the tables."""
    return lunardate.LunarDate(year, month, day).to_solar_date()


def equinox(year: int, autumn: bool) -> date:
    """春分の日 / 秋分の日 (and 춘분 / 추분, the same day in Korea's UTC+9): the day of the March or
    September equinox in Japan, by the formula of the National Astronomical Observatory's almanac for
    1900–2099 (the equinox drifts 0.242194 days a year, reset by each leap day); ValueError outside it."""
    if not 1900 <= year <= 2099:
        raise ValueError(f"no equinox formula for {year}")
    if year >= 1980:
        base = 23.2488 if autumn else 20.8431
        leap = int((year - 1980) / 4)
    else:
        base = 23.2588 if autumn else 20.8357
        leap = int((year - 1983) / 4)
    return date(year, 9 if autumn else 3, int(base + 0.242194 * (year - 1980) - leap))


def _day(compute: Callable[[int], date]) -> Callable[[int], tuple[date, date]]:
    def dates(year: int) -> tuple[date, date]:
        first = compute(year)
        return first, first + timedelta(days=1)

    return dates


def _weekend_of(compute: Callable[[int], date]) -> Callable[[int], tuple[date, date]]:
    """A holiday's long weekend: Saturday to a Monday holiday, Good Friday to Easter Monday, Thursday
    (Thanksgiving) to Sunday."""

    def dates(year: int) -> tuple[date, date]:
        day = compute(year)
        if day.weekday() == 0:
            return day - timedelta(days=2), day + timedelta(days=1)
        if day.weekday() == 6:
            return day - timedelta(days=2), day + timedelta(days=2)
        return day, day + timedelta(days=7 - day.weekday())

    return dates


def _around(compute: Callable[[int], date]) -> Callable[[int], tuple[date, date]]:
    """The day before to the day after (three days)."""

    def dates(year: int) -> tuple[date, date]:
        middle = compute(year)
        return middle - timedelta(days=1), middle + timedelta(days=2)

    return dates


MOVABLE: dict[str, Callable[[int], tuple[date, date]]] = {
    "easter": _day(easter),
    "good_friday": _day(lambda y: easter(y) - timedelta(days=2)),
    "easter_monday": _day(lambda y: easter(y) + timedelta(days=1)),
    "thanksgiving": _day(lambda y: nth_weekday(y, 11, 3, 4)),
    "black_friday": _day(lambda y: nth_weekday(y, 11, 3, 4) + timedelta(days=1)),
    "labor_day": _day(lambda y: nth_weekday(y, 9, 0, 1)),
    "cyber_monday": _day(lambda y: nth_weekday(y, 11, 3, 4) + timedelta(days=4)),
    "presidents_day": _day(lambda y: nth_weekday(y, 2, 0, 3)),
    "mlk_day": _day(lambda y: nth_weekday(y, 1, 0, 3)),
    "columbus_day": _day(lambda y: nth_weekday(y, 10, 0, 2)),
    "mardi_gras": _day(lambda y: easter(y) - timedelta(days=47)),
    "ash_wednesday": _day(lambda y: easter(y) - timedelta(days=46)),
    "palm_sunday": _day(lambda y: easter(y) - timedelta(days=7)),
    "easter_weekend": _weekend_of(easter),
    "thanksgiving_weekend": _weekend_of(lambda y: nth_weekday(y, 11, 3, 4)),
    "labor_day_weekend": _weekend_of(lambda y: nth_weekday(y, 9, 0, 1)),
    "us_memorial_day_weekend": _weekend_of(lambda y: nth_weekday(y, 5, 0, -1)),
    "us_memorial_day": _day(lambda y: nth_weekday(y, 5, 0, -1)),
    "mothers_day": _day(lambda y: nth_weekday(y, 5, 6, 2)),
    "fathers_day": _day(lambda y: nth_weekday(y, 6, 6, 3)),
    "seollal": _day(lambda y: korean_lunar(y, 1, 1)),
    "seollal_holidays": _around(lambda y: korean_lunar(y, 1, 1)),
    "chuseok": _day(lambda y: korean_lunar(y, 8, 15)),
    "chuseok_holidays": _around(lambda y: korean_lunar(y, 8, 15)),
    "buddha": _day(lambda y: korean_lunar(y, 4, 8)),
    "daeboreum": _day(lambda y: korean_lunar(y, 1, 15)),
    "dano": _day(lambda y: korean_lunar(y, 5, 5)),
    "lunar_new_year": _day(lambda y: chinese_lunar(y, 1, 1)),
    "coming_of_age_day": _day(lambda y: nth_weekday(y, 1, 0, 2)),
    "marine_day": _day(lambda y: nth_weekday(y, 7, 0, 3)),
    "respect_for_aged_day": _day(lambda y: nth_weekday(y, 9, 0, 3)),
    "sports_day": _day(lambda y: nth_weekday(y, 10, 0, 2)),
    "vernal_equinox": _day(lambda y: equinox(y, autumn=False)),
    "autumnal_equinox": _day(lambda y: equinox(y, autumn=True)),
}


def dates(name: str, year: int) -> tuple[date, date]:
    """``[first day, day after the last)`` of the holiday ``name`` in ``year``."""
    return MOVABLE[name](year)
