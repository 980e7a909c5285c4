"""Clock times: "3pm", "7p", "15:30", 3시 반, 午後3時, and the forms beyond them: written-out hours
and minutes ("ten thirty"), quarters and halves ("a quarter to noon", the British "half three"), "by
2pm" / 2시까지 (a ``span`` from the day's start), midnight and noon, Korean native-numeral hours (세 시),
zone abbreviations ("3pm PST": the latest such moment, shown in the person's zone) and minutes before
an hour (정오 10분 전, 3時10分前). Intervals between two times are in :mod:`core.timeparse.intervals`.

An hour without a day is the latest such time that has begun, 1–6 without a.m./p.m. read as p.m.
(:mod:`core.timeparse.resolve`). Written-out hours alone ("at three") count only beside a day or a
part of the day, or with minutes, o'clock or a meridiem, never in "at one point" or "about two people".
"""

from __future__ import annotations

import re
from datetime import time, timedelta
from zoneinfo import ZoneInfo

from core.timeparse import ranges
from core.timeparse.lang_en import (
    ABBR_WORDS,
    ONLY_PUNCT,
    WEEKDAY_ABBR,
    abbr_beside_guard,
    abbr_weekday,
    alternatives,
)
from core.timeparse.lang_ja import KANJI_DIGITS, kanji_int
from core.timeparse.lang_ko import word_ends
from core.timeparse.model import TimeRange
from core.timeparse.pieces import ClockP, ClockSpanP, Context, Piece, RangeP
from core.timeparse.rules import START, STOP, Rule, Scan, rule
from core.timeparse.text import EN_NUMBERS, KANJI_NUMBER_PATTERN, KO_NATIVE, ko_sino_number, number

_ABBR_NOT_WORDS = {abbr: day for abbr, day in WEEKDAY_ABBR.items() if abbr not in ABBR_WORDS}


_CLOCK_AHEAD = r"\s+(?:at\s+|around\s+)?\d{1,2}(?:[:.]\d{2})?\s*(?:a\.m\.|p\.m\.|am|pm)(?!\w)"


def _en_clock(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    groups = found.groupdict()
    hour, minute = int(groups["h"]), int(groups.get("m") or 0)
    meridiem = re.sub(r"[.\s]", "", groups.get("mer") or "") or (f"{groups['letter']}m" if groups.get("letter") else "")
    by = groups.get("prep") in ("by", "before", "until", "till")
    after = groups.get("prep") == "after"
    if meridiem:
        if not 1 <= hour <= 12 or minute > 59:
            return None
        return (ClockP(hour, minute, meridiem, by=by, after=after),)
    if hour > 23 or minute > 59:
        return None
    explicit = hour == 0 or hour > 12 or found.group("h").startswith("0")
    return (ClockP(hour, minute, "24h" if explicit else None, by=by, after=after),)


def _one_letter_meridiem(_view: Scan, found: re.Match[str]) -> bool:
    """ "7p", "7:30p", "at 9a": a letter glued to the hour is a meridiem; a glued "a" needs minutes or
    a preposition ("room 7a", "type 2a" are names)."""
    letter = found.groupdict().get("letter")
    return letter != "a" or bool(found.group("m") or found.group("prep"))


def _clock_strong(view: Scan, found: re.Match[str]) -> bool:
    """ "at 4:23", "15:30", "09:05" count alone; "4:23" only when it is all the query says."""
    hour = found.group("h")
    if found.groupdict().get("prep") or hour.startswith("0") or int(hour) > 12:
        return True
    return bool(ONLY_PUNCT.fullmatch(view.text[: found.start()]) and ONLY_PUNCT.fullmatch(view.text[found.end() :]))


def _ko_clock(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    hour = int(found.group("h"))
    minute = 30 if found.group("half") else int(found.group("m") or 0)
    if hour > 24 or minute > 59:
        return None
    explicit = hour == 0 or hour > 12
    return (ClockP(hour % 24, minute, "24h" if explicit else None),)


def _ja_clock(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    hour = kanji_int(found.group("h"))
    minute = 30 if found.group("half") else kanji_int(found.group("m")) if found.group("m") else 0
    if hour > 24 or minute > 59:
        return None
    return (ClockP(hour % 24, minute, "24h" if hour == 0 or hour > 12 else None),)


# "one" .. "twelve" from the number words every rule shares.
EN_HOURS = {word: value for word, value in EN_NUMBERS.items() if word.isalpha() and len(word) > 2 and value <= 12}


_ONES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}


EN_MINUTES: dict[str, int] = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14}
EN_MINUTES |= {"fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
for _tens_word, _tens in (("twenty", 20), ("thirty", 30), ("forty", 40), ("fifty", 50)):
    EN_MINUTES[_tens_word] = _tens
    for _one_word, _one in _ONES.items():
        EN_MINUTES[f"{_tens_word}-{_one_word}"] = _tens + _one
        EN_MINUTES[f"{_tens_word} {_one_word}"] = _tens + _one
for _one_word, _one in _ONES.items():
    EN_MINUTES[f"oh {_one_word}"] = _one
    EN_MINUTES[f"oh-{_one_word}"] = _one


_QUARTER_MINUTES = {"quarter": 15, "a quarter": 15, "half": 30, "five": 5} | {
    word: value for word, value in EN_MINUTES.items() if "oh" not in word
}


def _alt(words: dict[str, int]) -> str:
    return "|".join(sorted((re.escape(word).replace(r"\ ", r"\s+") for word in words), key=len, reverse=True))


def one_spaced(text: str) -> str:
    return " ".join(text.split())


MERIDIEM = r"(?P<mer>a\.m\.|p\.m\.|am|pm)"


_BY_WORDS = ("by", "before", "until", "till")


def meridiem_of(text: str | None) -> str | None:
    return text.replace(".", "") if text else None


def _en_words(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    hour = EN_HOURS[found.group("hw")]
    minute = EN_MINUTES[one_spaced(found.group("mw"))] if found.group("mw") else 0
    meridiem = meridiem_of(found.group("mer"))
    return (ClockP(hour, minute, meridiem, by=found.group("prep") in _BY_WORDS),)


def _en_words_strong(_view: Scan, found: re.Match[str]) -> bool:
    return bool(found.group("mw") or found.group("oc") or found.group("mer"))


def _target_hour(text: str) -> tuple[int, str | None]:
    if text == "noon":
        return 12, "24h"
    if text == "midnight":
        return 24, "24h"
    return (int(text) if text.isdigit() else EN_HOURS[text]), None


def _en_quarter(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    amount_text = one_spaced(found.group("q"))
    amount = int(amount_text) if amount_text.isdigit() else _QUARTER_MINUTES.get(amount_text)
    relation = found.group("rel")
    if amount is None or not 0 < amount < 60:
        return None
    if amount_text == "half" and relation not in ("past", "after"):
        return None  # "half to" is no English reading
    if amount_text.isdigit() and found.group("t").isdigit() and not (found.group("min") or found.group("mer")):
        return None  # "from 10 to 15 people"
    hour, meridiem = _target_hour(found.group("t"))
    if not 1 <= hour <= 24:
        return None
    meridiem = meridiem_of(found.group("mer")) or meridiem
    minutes = hour * 60 + amount if relation in ("past", "after") else hour * 60 - amount
    new_hour, minute = divmod(minutes, 60)
    if meridiem == "24h":
        new_hour %= 24
    elif new_hour == 0:
        new_hour = 12
    return (ClockP(new_hour, minute, meridiem, by=found.group("prep") in _BY_WORDS),)


def _five_to(found: re.Match[str]) -> bool:
    """ "five to ten": 9:55, or a count ("five to ten people")."""
    return one_spaced(found.group("q")) == "five" and found.group("rel") not in ("past", "after")


def _en_quarter_strong(_view: Scan, found: re.Match[str]) -> bool:
    """ "five to ten" counts after "at" (or "by" ...) or with a meridiem; otherwise only beside a day or
    a part of the day ("five to ten yesterday")."""
    return not _five_to(found) or bool(found.group("prep") or found.group("mer"))


def _en_quarter_guard(view: Scan, found: re.Match[str]) -> bool:
    """ "from five to ten", "between five to ten": a range of counts or hours, not 9:55."""
    return not (_five_to(found) and view.prev_word(found.start()) in ("from", "between"))


def _en_half_hour(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    """ "half three": half past three (British), read as "at three" is (1-6 without a.m./p.m. is p.m.)."""
    hour = int(found.group("t")) if found.group("t").isdigit() else EN_HOURS[found.group("t")]
    if not 1 <= hour <= 12:
        return None
    prep = found.group("prep")
    return (ClockP(hour, 30, meridiem_of(found.group("mer")), by=prep in _BY_WORDS, after=prep == "after"),)


# After "half three", words that make it a quantity: "half three times", "half three-quarters".
_HALF_QUANTITY = re.compile(r"\s*(?:-|(?:times|of|quarters?|people|percent|hours?|minutes?|days?|weeks?)(?!\w))")


def _en_half_hour_strong(view: Scan, found: re.Match[str]) -> bool:
    """ "at half three", "half three pm", or the whole query; else beside a day ("half three yesterday")."""
    return bool(found.group("prep") or found.group("mer")) or _only_punctuation(view, found)


def _en_oclock(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    hour = int(found.group("h"))
    if not 1 <= hour <= 12:
        return None
    prep = found.group("prep")
    return (ClockP(hour, 0, meridiem_of(found.group("mer")), by=prep in _BY_WORDS, after=prep == "after"),)


# After a military time, words that make the four digits a quantity ("at 2000 feet", "at 1500 people").
_QUANTITY_AFTER = re.compile(
    r"\s*(?:[a-z]*(?:meters?|metres?|feet|ft|km|miles?|people|persons?|dollars?|euros?|won|yen|usd|points?|units?"
    r"|words?|calories|kcal|rpm|mph|kph|pages?|steps?|items?)(?![a-z])|%|\$)"
)


def _en_military(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    """ "at 1530", "1530h", "0900 hours", "by 1700", "from 0900 to 1100": four digits HHMM (00–23,
    00–59) after "at" (or a preposition, or in a from/to range), or with h/hours after them; alone they
    are a number. With a preposition other than at/around/about, digits that could be a year (19xx,
    20xx, 21xx) stay a year unless h/hours follows ("since 2020", "by 2023")."""
    hour, minute = int(found.group("h")), int(found.group("m"))
    prep, suffix = found.group("prep"), found.group("suf")
    if suffix is None:
        if prep is None and found.group("lead") is None:
            return None  # four digits alone: a number, a code, a year
        if prep not in ("at", "around", "about") and found.group("h") in ("19", "20", "21"):
            return None
    return (ClockP(hour, minute, "24h", by=prep in _BY_WORDS, after=prep == "after"),)


def _military_guard(view: Scan, found: re.Match[str]) -> bool:
    return found.group("suf") is not None or _QUANTITY_AFTER.match(view.text, found.end()) is None


def _midnight(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (ClockP(0, 0, "24h", by=found.group("prep") in _BY_WORDS),)


def _only_punctuation(view: Scan, found: re.Match[str]) -> bool:
    """ "midnight" as the whole query (in a sentence it needs "at", "by", "around" ... or a day)."""
    return re.fullmatch(r"[\s?.!,]*", view.text[: found.start()] + view.text[found.end() :]) is not None


# A clock time with a zone ("3pm PST", "14:05 KST", "9am UTC"): the latest such moment that has begun,
# shown in the person's zone. A zone abbreviation names its region's clock, summer or winter (people
# write PST in July too).
ZONE_NAMES = {
    "utc": "UTC",
    "gmt": "UTC",
    "z": "UTC",
    "kst": "Asia/Seoul",
    "jst": "Asia/Tokyo",
    "pst": "America/Los_Angeles",
    "pdt": "America/Los_Angeles",
    "pt": "America/Los_Angeles",
    "mst": "America/Denver",
    "mdt": "America/Denver",
    "cst": "America/Chicago",
    "cdt": "America/Chicago",
    "est": "America/New_York",
    "edt": "America/New_York",
    "et": "America/New_York",
    "bst": "Europe/London",
    "cet": "Europe/Paris",
    "cest": "Europe/Paris",
}


class _Merged:
    """A match whose meridiem may be in either of two groups (after minutes, or right after the hour)."""

    def __init__(self, found: re.Match[str]) -> None:
        self._found = found

    def group(self, name: str) -> str | None:
        if name == "mer":
            return self._found.group("mer") or self._found.group("mer2")
        return self._found.group(name)


def _zoned_clock(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:

    hour, minute = int(found.group("h")), int(found.group("m") or 0)
    meridiem = meridiem_of(found.group("mer"))
    if minute > 59 or (meridiem and not 1 <= hour <= 12) or hour > 23:
        return None
    if meridiem:
        hour = hour % 12 + (12 if meridiem == "pm" else 0)
    zone = ZoneInfo(ZONE_NAMES[found.group("tz")])
    there = ctx.now.astimezone(zone)
    start = ranges.at(there.date(), time(hour, minute), zone)
    if start > ctx.now:
        start = ranges.at(there.date() - timedelta(days=1), time(hour, minute), zone)
    start = start.astimezone(ctx.zone)
    return (RangeP(TimeRange(start, ranges.elapsed(start, timedelta(hours=1)), "hour")),)


_KO_HOURS = {"열한": 11, "열두": 12} | {word: value for word, value in KO_NATIVE.items() if value <= 10}


_KO_HOUR = "(?P<hn>" + "|".join(sorted(_KO_HOURS, key=len, reverse=True)) + ")"


_KO_MINUTE = r"(?:\s*(?P<m>\d{1,2})\s*분|\s*(?P<ms>[일이삼사오육칠팔구십]{1,3})\s*분|\s*(?P<half>반))?"


def _ko_minute(found: re.Match[str]) -> int | None:
    if found.group("half"):
        return 30
    if found.group("m"):
        return int(found.group("m"))
    if found.group("ms"):
        return ko_sino_number(found.group("ms"))
    return 0


def _ko_native(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    minute = _ko_minute(found)
    if minute is None or minute > 59:
        return None
    return (ClockP(_KO_HOURS[found.group("hn")], minute, None, by=bool(found.groupdict().get("by"))),)


def _ko_native_guard(view: Scan, found: re.Match[str]) -> bool:
    start = found.start()
    if start > 0 and re.match(r"[가-힣]", view.text[start - 1]) and start not in view.ends:
        return False
    return word_ends(view, found)


_RANGE_OPENED = re.compile(r"(?:부터|에서|から|~|〜|-)\s*(?:오전|오후|午前|午後)?\s*$")


def _not_a_range_end(view: Scan, found: re.Match[str]) -> bool:
    """ "3시부터 5시까지", "午前9時から午後5時まで": the 까지 belongs to the range, not to a "by" reading of
    the end."""
    return _RANGE_OPENED.search(view.before(found.start(), 24)) is None or not any(
        start < found.start() for start in view.starts if found.start() - start <= 24
    )


def _ko_digits_by(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    hour = int(found.group("h"))
    minute = _ko_minute(found)
    if minute is None or hour > 24 or minute > 59:
        return None
    return (ClockP(hour % 24, minute, "24h" if hour == 0 or hour > 12 else None, by=True),)


def _ja_by(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:

    hour = number(found.group("h"))
    minute = 30 if found.group("half") else int(found.group("m") or 0)
    if hour is None or hour > 24 or minute > 59:
        return None
    return (ClockP(hour % 24, minute, "24h" if hour == 0 or hour > 12 else None, by=True),)


def _noon_less(hour: int, minutes: str | None) -> tuple[Piece, ...] | None:
    """정오 / 자정 / 正午, or so many minutes before it (정오 10분 전 is 11:50, 자정 5분 전 23:55)."""

    if minutes is None:
        return (ClockP(hour % 24, 0, "24h"),)
    amount = int(minutes) if minutes.isdigit() else ko_sino_number(minutes) or number(minutes)
    if not amount or not 0 < amount < 60:
        return None
    new_hour, minute = divmod(hour * 60 - amount, 60)
    return (ClockP(new_hour, minute, "24h"),)


_JA_DIGITS = r"\d{1,2}|[〇零一二三四五六七八九十]{1,3}"


def _en_to_noon(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    h, m, mer = ("h", "m", "mer") if found.group("h") else ("h2", "m2", "mer2")
    hour, minute = int(found.group(h)), int(found.group(m) or 0)
    meridiem = (found.group(mer) or "").replace(".", "") or None
    if minute > 59 or not 0 <= hour <= 23 or (meridiem and not 1 <= hour <= 12):
        return None
    end = ClockP(12, 0, "24h") if found.group("t") == "noon" else ClockP(0, 0, "24h")
    if meridiem is None:
        meridiem = "24h" if hour == 0 or hour > 12 else ("am" if found.group("t") == "noon" else "pm")
    start = ClockP(hour, minute, meridiem)
    return (ClockSpanP(start, end),)


def _clock_h(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    hour, minute = int(found.group("h")), int(found.group("m"))
    if hour > 23 or minute > 59:
        return None
    return (ClockP(hour, minute, "24h"),)


def _minutes_to(hour: int | None, minute: int) -> tuple[Piece, ...] | None:
    """ "3시 10분 전", "3時10分前": ten minutes to three (2:50); a bare 1-6 stays p.m. as everywhere."""
    if hour is None or not 1 <= hour <= 24 or not 0 < minute < 60:
        return None
    total = hour * 60 - minute
    new_hour, new_minute = divmod(total, 60)
    explicit = hour > 12 or hour == 24
    if explicit:
        return (ClockP(new_hour % 24, new_minute, "24h"),)
    return (ClockP(new_hour or 12, new_minute, None),)


def _ko_minutes_to(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    hour = {"열한": 11, "열두": 12}.get(found.group("h")) or number(found.group("h"))
    return _minutes_to(hour, int(found.group("m")))


def _ja_minutes_to(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    return _minutes_to(number(found.group("h")), number(found.group("m")) or 0)


EN: list[Rule] = [
    rule(
        "en.clock_h",
        "en",
        r"(?<![\w:.])(?P<h>\d{1,2})h(?P<m>\d{2})(?![\w:])",
        _clock_h,
        needs=tuple(f"{digit}h" for digit in "0123456789"),
    ),
    rule(
        "en.to_noon",
        "en",
        START + r"(?:(?:from|between)\s+(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<mer>a\.m\.|p\.m\.|am|pm)?\s+"
        r"|(?P<h2>\d{1,2})(?::(?P<m2>\d{2}))?\s*(?P<mer2>a\.m\.|am)\s*)"
        r"(?:to|until|till|til|and|-|–)\s*(?P<t>noon|midnight)" + STOP,
        _en_to_noon,
        needs=("noon", "midnight"),
    ),
    rule(
        "en.clock_zone",
        "en",
        START + r"(?:(?:at|around|about)\s+)?(?P<h>\d{1,2})(?:(?::(?P<m>\d{2})(?::\d{2})?)\s*" + MERIDIEM + "?"
        r"|\s*"
        + MERIDIEM.replace("mer", "mer2")
        + r")\s*(?P<tz>"
        + "|".join(sorted(ZONE_NAMES, key=len, reverse=True))
        + r")(?![a-z])",
        lambda m, c: _zoned_clock(_Merged(m), c),
    ),
    rule(
        "en.clock_words",
        "en",
        START + r"(?:(?P<prep>at|around|about|by|before|until|till)\s+)?"
        rf"(?P<hw>{_alt(EN_HOURS)})(?:(?:\s+|-)(?P<mw>{_alt(EN_MINUTES)}))?"
        r"(?:\s*(?P<oc>o['’]clock))?(?:\s*" + MERIDIEM + r")?" + STOP,
        _en_words,
        strong=_en_words_strong,
    ),
    rule(
        "en.clock_quarter",
        "en",
        START + r"(?:(?P<prep>at|around|about|by|before|until|till)\s+)?"
        rf"(?P<q>a\s+quarter|quarter|half|\d{{1,2}}|{_alt(_QUARTER_MINUTES)})(?P<min>\s+minutes?)?\s+"
        rf"(?P<rel>past|after|to|before|of|till)\s+(?P<t>noon|midnight|\d{{1,2}}|{_alt(EN_HOURS)})"
        r"(?:\s*" + MERIDIEM + r")?" + STOP,
        _en_quarter,
        strong=_en_quarter_strong,
        guard=_en_quarter_guard,
    ),
    rule(
        "en.clock_half_hour",
        "en",
        START + r"(?:(?P<prep>at|around|about|by|before|after|until|till|from)\s+)?half\s+"
        rf"(?P<t>1[0-2]|[1-9]|{_alt(EN_HOURS)})(?:\s*" + MERIDIEM + r")?" + STOP,
        _en_half_hour,
        strong=_en_half_hour_strong,
        guard=lambda v, m: _HALF_QUANTITY.match(v.text, m.end()) is None,
        needs=("half",),
    ),
    rule(
        "en.clock_oclock",
        "en",
        START + r"(?:(?P<prep>at|around|about|by|before|after|until|till)\s+)?(?P<h>\d{1,2})\s*o['’]clock"
        r"(?:\s*" + MERIDIEM + r")?" + STOP,
        _en_oclock,
    ),
    rule(
        "en.clock_military",
        "en",
        START + r"(?:(?P<prep>at|around|about|by|before|after|until|till|since)\s+"
        r"|(?P<lead>(?<=from\s)|(?<=between\s)|(?<=to\s)|(?<=and\s)))?"
        r"(?P<h>[01]\d|2[0-3])(?P<m>[0-5]\d)(?:\s*(?P<suf>h|hrs|hours)(?![a-z]))?(?![\w:/.-])",
        _en_military,
        strong=lambda _v, m: m.group("lead") is None or m.group("suf") is not None,  # "from 0900 to 1100"
        guard=_military_guard,
        needs=("0", "1", "2"),
    ),
    rule(
        "en.midnight",
        "en",
        START + r"(?:(?P<prep>at|around|about|by|before|until|till|after)\s+)?midnight" + STOP,
        _midnight,
        strong=lambda v, m: bool(m.group("prep")) or _only_punctuation(v, m),
    ),
    rule(
        "en.noon",
        "en",
        START + r"(?:at\s+|around\s+|(?P<by>by|before|until|till)\s+)?(?:noon|midday)(?:-?ish)?" + STOP,
        lambda m, _c: (ClockP(12, 0, "24h", by=bool(m.group("by"))),),
    ),
    rule(
        "en.weekday_abbr_clock",
        "en",
        START + rf"(?P<wd>{alternatives(_ABBR_NOT_WORDS)})\.?(?={_CLOCK_AHEAD})",
        abbr_weekday,
        guard=abbr_beside_guard,
        needs=("am", "pm", "a.m", "p.m"),
    ),
    rule(
        "en.clock_meridiem",
        "en",
        START + r"(?:(?P<prep>at|around|about|by|before|after|from|until|till)\s+)?"
        r"(?P<h>\d{1,2})(?:[:.](?P<m>\d{2})(?::\d{2})?)?"
        r"(?:\s*(?P<mer>a\.m\.|p\.m\.|am|pm|a\s+m|p\s+m)|(?P<letter>[ap]))(?:-?ish)?(?!\w)",
        _en_clock,
        guard=_one_letter_meridiem,
    ),
    # "9ish", "at 4ish": like "at 9" (beside a day or a part of the day).
    rule(
        "en.clock_ish",
        "en",
        START + r"(?:(?:at|around|about)\s+)?(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*-?ish" + STOP,
        _en_clock,
        strong=False,
        needs=("ish",),
    ),
    # "8 this morning", "11 last night": an hour just before the day part it belongs to.
    rule(
        "en.clock_before_part",
        "en",
        START + r"(?P<h>\d{1,2})(?::(?P<m>\d{2}))?"
        r"(?=\s+(?:(?:this|yesterday|tomorrow)\s+(?:morning|afternoon|evening|night)|tonight|last\s+night))",
        _en_clock,
        strong=False,
    ),
    # "at 9" only beside a day or a part of the day ("last Monday at 9", "yesterday evening around 8").
    rule(
        "en.clock_bare",
        "en",
        START + r"(?:at|around|about)\s+(?P<h>\d{1,2})(?:\s*o'clock)?(?![\w:.,/%])",
        _en_clock,
        strong=False,
    ),
    rule(
        "en.clock_24h",
        "en",
        START + r"(?:(?P<prep>at|around|about|by|before|after|from|until|till)\s+)?"
        r"(?P<h>\d{1,2}):(?P<m>\d{2})(?::\d{2})?(?![\d:]|\s*(?:am|pm|a\.m|p\.m))",
        _en_clock,
        strong=_clock_strong,
    ),
]


KO: list[Rule] = [
    rule(
        "ko.minutes_to",
        "ko",
        r"(?<![\d가-힣])(?P<h>\d{1,2}|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열|열한|열두)\s*시\s*(?P<m>\d{1,2})\s*분\s*전(?:에)?"
        r"(?!\s*까지)",
        _ko_minutes_to,
        guard=word_ends,
        needs=("분",),
    ),
    rule(
        "ko.clock_native",
        "ko",
        _KO_HOUR + r"\s*시(?!간|계|청|장|작|절|험|인|즌|골|집|민|내|외)" + _KO_MINUTE,
        _ko_native,
        guard=_ko_native_guard,
    ),
    rule(
        "ko.clock_native_by",
        "ko",
        _KO_HOUR + r"\s*시(?!간)" + _KO_MINUTE + r"\s*(?P<by>까지|전까지|전에|이전에|이전)",
        _ko_native,
        guard=lambda v, m: _ko_native_guard(v, m) and _not_a_range_end(v, m),
    ),
    rule(
        "ko.clock_by",
        "ko",
        r"(?<!\d)(?P<h>\d{1,2})\s*시(?!간)" + _KO_MINUTE + r"\s*(?:까지|전까지|전에|이전에|이전)",
        _ko_digits_by,
        guard=lambda v, m: word_ends(v, m) and _not_a_range_end(v, m),
    ),
    rule(
        "ko.clock_before",
        "ko",
        r"(?<!\d)(?P<h>\d{1,2})\s*시\s*전(?![가-힣])",
        lambda m, _c: (
            (ClockP(int(m.group("h")) % 24, 0, "24h" if int(m.group("h")) > 12 else None, by=True),)
            if int(m.group("h")) <= 24
            else None
        ),
        guard=_not_a_range_end,
    ),
    rule(
        "ko.noon",
        "ko",
        r"(?P<w>정오|자정)(?:\s*(?P<mb>\d{1,2}|[일이삼사오육칠팔구십]{1,3})\s*분\s*전(?!에|까지))?",
        lambda m, _c: _noon_less(12 if m.group("w") == "정오" else 24, m.group("mb")),
    ),
    rule(
        "ko.clock",
        "ko",
        r"(?<!\d)(?P<h>\d{1,2})\s*시(?!간)(?:\s*(?P<m>\d{1,2})\s*분|\s*(?P<half>반))?",
        _ko_clock,
        guard=word_ends,
    ),
]


JA: list[Rule] = [
    rule(
        "ja.minutes_to",
        "ja",
        r"(?<![\d一二三四五六七八九十])(?P<h>\d{1,2}|[一二三四五六七八九十]{1,3})\s*時\s*(?P<m>\d{1,2}|[一二三四五六七八九十]{1,3})\s*分\s*前(?:に)?"
        r"(?!まで)",
        _ja_minutes_to,
        needs=("分前",),
    ),
    rule(
        "ja.clock_by",
        "ja",
        rf"(?<!\d)(?P<h>{_JA_DIGITS})\s*時(?!間)(?:\s*(?P<m>\d{{1,2}})\s*分|(?P<half>半))?\s*(?:までに|まで|前に|前|以前)",
        _ja_by,
        guard=_not_a_range_end,
    ),
    rule(
        "ja.noon",
        "ja",
        r"(?P<w>正午|零時)(?:\s*(?P<mb>\d{1,2}|[一二三四五六七八九十]{1,3})\s*分\s*前(?!に|まで))?",
        lambda m, _c: _noon_less(12 if m.group("w") == "正午" else 24, m.group("mb")),
    ),
    rule(
        "ja.clock",
        "ja",
        rf"(?<!\d)(?P<h>{KANJI_DIGITS})\s*時(?!間|代|点|期|刻|計)"
        rf"(?:\s*(?P<m>\d{{1,2}}|{KANJI_NUMBER_PATTERN})\s*分(?!\s*(?:前|間|後))|(?P<half>半))?",
        _ja_clock,
    ),
]

RULES: dict[str, list[Rule]] = {"en": EN, "ko": KO, "ja": JA}
