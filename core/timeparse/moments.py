"""Moments around now: "now", 지금, 今 (the current clock hour); "just now", 방금, たった今 (the last hour
up to now); 아까, さっき, 先ほど, 조금 전 (the last three hours); "20 minutes ago", 20분 전, 20分前 (the hour
around that moment); "30 seconds ago" (the minute around it); "the last 30 minutes", "the last hour",
지난 30초 (elapsed time up to now); "this time yesterday", 어제 이맘때, 昨日の今頃 (the hour around this
time a day back; "this time last year" the week around this date a year back).
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from core.timeparse import ranges
from core.timeparse.counts import EN_NUMBER_PATTERN, EN_PAST_PREFIX, count_of, hour_around
from core.timeparse.lang_ko import word_bounded, word_ends
from core.timeparse.model import TimeRange
from core.timeparse.pieces import Context, Piece, RangeP
from core.timeparse.rules import START, STOP, Builder, Rule, alone, rule
from core.timeparse.text import ko_sino_number, number


def _ko_count(text: str) -> int:
    return int(text) if text.isdigit() else ko_sino_number(text) or 0


def _minutes_ago(minutes: int, ctx: Context) -> tuple[Piece, ...] | None:
    """ "20 minutes ago", 20분 전, 20分前: the hour around that moment, up to a day back."""
    return hour_around(minutes, ctx, within=24 * 60)


_EN_SMALL_COUNTS = {"a": 1, "one": 1, "a few": 3, "few": 3, "a couple of": 2, "couple of": 2, "five": 5, "ten": 10}
_EN_SMALL_COUNTS |= {"fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50}


# The words of _EN_SMALL_COUNTS as a regex alternation, longest first ("a few" before "a").
_EN_SMALL_COUNT_WORDS = "|".join(sorted((w.replace(" ", r"\s+") for w in _EN_SMALL_COUNTS), key=len, reverse=True))


def _en_small_count(text: str) -> int:
    text = " ".join(text.split())
    return int(text) if text.isdigit() else _EN_SMALL_COUNTS[text]


def _en_minutes_ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    if found.group("half"):
        return _minutes_ago(30 if not found.group("and_half") else 90, ctx)
    return _minutes_ago(_en_small_count(found.group("n")), ctx)


def _seconds_ago(seconds: int, ctx: Context) -> tuple[Piece, ...] | None:
    """ "30 seconds ago", 30초 전, 30秒前: the minute around that moment (30 seconds either side), as
    "20 minutes ago" is the hour around its moment; a ``span``."""
    if not 0 < seconds <= 24 * 3600:
        return None
    start = ranges.elapsed(ctx.now, timedelta(seconds=-seconds - 30))
    return (RangeP(ranges.span(start, ranges.elapsed(start, timedelta(minutes=1)))),)


def _last_seconds(seconds: int, ctx: Context) -> tuple[Piece, ...] | None:
    """ "the last 30 seconds", 지난 30초, 過去30秒: elapsed time up to now."""
    if not 0 < seconds <= 24 * 3600:
        return None
    return (RangeP(ranges.span(ranges.elapsed(ctx.now, timedelta(seconds=-seconds)), ctx.now)),)


_BACK = {
    "yesterday": ("day", 1),
    "the day before yesterday": ("day", 2),
    "last week": ("day", 7),
    "last month": ("month", 1),
    "last year": ("month", 12),
    "어제": ("day", 1),
    "그저께": ("day", 2),
    "그제": ("day", 2),
    "지난주": ("day", 7),
    "지난달": ("month", 1),
    "작년": ("month", 12),
    "昨日": ("day", 1),
    "一昨日": ("day", 2),
    "先週": ("day", 7),
    "先月": ("month", 1),
    "去年": ("month", 12),
    "昨年": ("month", 12),
}


def _this_time(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    """ "this time yesterday", 어제 이맘때, 昨日の今頃: the hour around the same time that many days back
    (a day or a week); "this time last year", 작년 이맘때: the week around the same date."""
    unit, count = _BACK[" ".join(found.group("when").split())]
    now = ctx.now
    if unit == "day":
        moment = ranges.at(now.date() - timedelta(days=count), now.time().replace(tzinfo=None), ctx.zone)
        start = ranges.elapsed(moment, timedelta(minutes=-30))
        return (RangeP(TimeRange(start, ranges.elapsed(start, timedelta(hours=1)), "hour")),)
    year, month = ranges.add_months(now.year, now.month, -count)
    day = date(year, month, min(now.day, ranges.days_in_month(year, month)))
    start = ranges.midnight(day - timedelta(days=3), ctx.zone)
    return (RangeP(ranges.span(start, ranges.midnight(day + timedelta(days=4), ctx.zone))),)


def _current_hour(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    now = ctx.now
    start = ranges.elapsed(now, -timedelta(minutes=now.minute, seconds=now.second, microseconds=now.microsecond))
    return (RangeP(TimeRange(start, ranges.elapsed(start, timedelta(hours=1)), "hour")),)


def _lately(hours: int) -> Builder:
    def build(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
        return (RangeP(ranges.span(ranges.elapsed(ctx.now, timedelta(hours=-hours)), ctx.now)),)

    return build


_EN_SECONDS = r"(?P<n>\d{1,5}|" + _EN_SMALL_COUNT_WORDS + r")\s+(?:seconds?|secs?)"


# 30초, 삼십 초, 몇 초; 30秒, 三十秒, 数秒. Not 30초 전후 / 30秒前後 ("about 30 seconds").
_KO_SECONDS = r"(?P<n>\d{1,5}|[일이삼사오육칠팔구십백천]{1,5}|몇)\s*초"


_JA_SECONDS = r"(?P<n>\d{1,5}|[一二三四五六七八九十百]{1,5}|数)\s*秒"


def _ko_few_or_count(text: str) -> int:
    """A count of minutes or seconds: 몇 ("a few") is 3."""
    return 3 if text == "몇" else _ko_count(text)


def _ja_few_or_count(text: str) -> int:
    """A count of minutes or seconds: 数 ("a few") is 3."""
    return 3 if text == "数" else number(text) or 0


def _en_last_minutes(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = count_of(found.group("n")) if found.group("n") else 60
    if count is None or not 0 < count <= 24 * 60:
        return None
    start = ranges.elapsed(ctx.now, timedelta(minutes=-count))
    return (RangeP(ranges.span(start, ctx.now)),)


def _en_last_hour(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    return (RangeP(ranges.span(ranges.elapsed(ctx.now, timedelta(hours=-1)), ctx.now)),)


EN: list[Rule] = [
    rule(
        "en.last_minutes",
        "en",
        START + EN_PAST_PREFIX + r"(?P<n>" + EN_NUMBER_PATTERN + r")\s+(?:minutes?|mins?)" + STOP,
        _en_last_minutes,
        needs=("min",),
    ),
    rule(
        "en.last_hour",
        "en",
        START + r"(?:(?:in|over|during|for|within)\s+)?the\s+last\s+hour" + STOP,
        _en_last_hour,
        needs=("last hour",),
    ),
    rule(
        "en.minutes_ago",
        "en",
        START
        + r"(?:(?P<n>\d{1,4}|"
        + _EN_SMALL_COUNT_WORDS
        + r")\s+(?:minutes?|mins?)|(?P<half>(?:(?:an?|one)\s+hour\s+and\s+"
        r"(?P<and_half>a\s+half))|half\s+an\s+hour))\s+(?:or\s+so\s+)?(?:ago|back)" + STOP,
        _en_minutes_ago,
    ),
    rule(
        "en.seconds_ago",
        "en",
        START + _EN_SECONDS + r"\s+(?:or\s+so\s+)?(?:ago|back)" + STOP,
        lambda m, c: _seconds_ago(_en_small_count(m.group("n")), c),
        needs=("sec",),
    ),
    rule(
        "en.last_seconds",
        "en",
        START + r"(?:(?:in|over|during|for|within)\s+)?(?:the\s+)?(?:last|past|previous)\s+" + _EN_SECONDS + STOP,
        lambda m, c: _last_seconds(_en_small_count(m.group("n")), c),
        guard=lambda v, m: re.match(r"\s+of\s", v.text[m.end() :]) is None,  # "the last 30 seconds of the game"
        needs=("sec",),
    ),
    rule("en.moment_ago", "en", START + r"(?:a\s+moment|moments)\s+ago" + STOP, _lately(1)),
    rule("en.little_while_ago", "en", START + r"a\s+little\s+while\s+ago" + STOP, _lately(3)),
    rule(
        "en.this_time",
        "en",
        START + r"(?:(?:at|around|about)\s+)?(?:this|(?:the\s+)?same)\s+time\s+"
        r"(?P<when>yesterday|the\s+day\s+before\s+yesterday|last\s+week|last\s+month|last\s+year)" + STOP,
        _this_time,
    ),
    rule(
        "en.now",
        "en",
        START + r"(?P<w>right\s+now|as\s+of\s+now|now)" + STOP,
        _current_hour,
        strong=lambda v, m: m.group("w") != "now" or alone(v, m),
    ),
    rule("en.just_now", "en", START + r"just\s+now" + STOP, _lately(1)),
]


KO: list[Rule] = [
    rule(
        "ko.minutes_ago",
        "ko",
        r"(?<!\d)(?P<n>\d{1,4}|[일이삼사오육칠팔구십]{1,4}|몇)\s*분\s*(?:쯤|정도|가량)?\s*전"
        r"|(?P<half>반\s*시간)\s*(?:쯤|정도)?\s*전",
        lambda m, c: _minutes_ago(30 if m.group("half") else _ko_few_or_count(m.group("n")), c),
        guard=word_ends,
    ),
    rule(
        "ko.seconds_ago",
        "ko",
        r"(?<![\d가-힣])" + _KO_SECONDS + r"\s*(?:쯤|정도|가량)?\s*전(?!\s*후)",
        lambda m, c: _seconds_ago(_ko_few_or_count(m.group("n")), c),
        guard=word_ends,
        needs=("초",),
    ),
    rule(
        "ko.last_seconds",
        "ko",
        r"(?<![가-힣])(?:지난|최근|과거)\s*" + _KO_SECONDS + r"(?:\s*(?:간|동안))?",
        lambda m, c: _last_seconds(_ko_few_or_count(m.group("n")), c),
        guard=word_ends,
        needs=("초",),
    ),
    rule(
        "ko.this_time",
        "ko",
        r"(?P<when>어제|그저께|그제|지난주|지난달|작년)\s*(?:이맘때|이\s*시간(?:쯤|대)?|요맘때)",
        _this_time,
        guard=word_ends,
    ),
    rule("ko.little_while_ago", "ko", r"(?:조금|좀)\s*전", _lately(3), guard=word_ends),
    rule("ko.just_now_2", "ko", r"지금\s*막", _lately(1)),
    rule("ko.now", "ko", r"지금|현재", _current_hour, strong=lambda v, m: alone(v, m, ("은", "는", "쯤", "까지"))),
    rule("ko.just_now", "ko", r"방금(?:\s*전)?|막\s*방금", _lately(1), guard=word_ends),
    rule("ko.a_while_ago", "ko", r"아까", _lately(3), guard=word_bounded),
    rule("ko.now_right", "ko", r"지금\s*바로|바로\s*지금", _current_hour),
]


JA: list[Rule] = [
    rule(
        "ja.this_time",
        "ja",
        r"(?P<when>一昨日|昨日|先週|先月|去年|昨年)の(?:今頃|今ごろ|この時間|同じ時間)",
        _this_time,
    ),
    rule(
        "ja.minutes_ago",
        "ja",
        r"(?<!\d)(?P<n>\d{1,4}|[一二三四五六七八九十]{1,3}|数)\s*分\s*(?:ほど|くらい|ぐらい|程)?\s*前",
        lambda m, c: _minutes_ago(_ja_few_or_count(m.group("n")), c),
    ),
    rule(
        "ja.seconds_ago",
        "ja",
        r"(?<![\d一二三四五六七八九十百])" + _JA_SECONDS + r"\s*(?:ほど|くらい|ぐらい|程)?\s*前(?!後)",
        lambda m, c: _seconds_ago(_ja_few_or_count(m.group("n")), c),
        needs=("秒",),
    ),
    rule(
        "ja.last_seconds",
        "ja",
        r"(?:過去|最近|ここ|直近)\s*" + _JA_SECONDS + r"(?:間)?",
        lambda m, c: _last_seconds(_ja_few_or_count(m.group("n")), c),
        needs=("秒",),
    ),
    rule(
        "ja.now",
        "ja",
        r"(?<![\u4e00-\u9fff])(?:今現在|現在|今)(?![\u4e00-\u9fff])",
        _current_hour,
        strong=lambda v, m: alone(v, m, ("は", "の", "、")) or m.group(0) == "今現在",
    ),
    rule("ja.just_now", "ja", r"たった今|今しがた", _lately(1)),
    rule("ja.a_while_ago", "ja", r"さっき|先ほど|先程", _lately(3)),
    rule("ja.little_while_ago", "ja", r"(?:少し|ちょっと|すこし)\s*前(?![\u4e00-\u9fff])", _lately(3)),
    rule("ja.now_kanji", "ja", r"只今|ただ今(?=[はの、])", _current_hour),
]

RULES: dict[str, list[Rule]] = {"en": EN, "ko": KO, "ja": JA}
