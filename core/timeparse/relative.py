"""Days, weeks, months and years named from today: yesterday, tomorrow, "the day before yesterday",
last/this/next week, month and year, "the weekend", "the week before last", "the previous day", 어제,
그저께, 엊그제, 지난주, 금주 / 전주 / 차주, 저저번 달, 작년, 昨日, 先週, 先々月, きょねん, 当月; "the other
day", 先日, 요전날; "this day last year".

Conventions (stated in ``reverie when --help`` too): a week is Monday to Sunday and "last week" the
calendar week before this one; 엊그제 / 엊그저께 is yesterday and the day before (a ``span``); "the other
day", 先日, 요전날 the seven days before today; "this day last year" that very day.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from core.timeparse import ranges
from core.timeparse.lang_en import ONLY_PUNCT, TIME_PREPOSITIONS
from core.timeparse.lang_ja import kana_bounded
from core.timeparse.lang_ko import part_strong, word_bounded, word_ends
from core.timeparse.model import TimeRange
from core.timeparse.pieces import Context, DayP, MonthP, Piece, RangeP, WeekP, YearP
from core.timeparse.rules import (
    START,
    STOP,
    Builder,
    Rule,
    Scan,
    days_from_today,
    months_from_this,
    recent_weekend,
    relative,
    rule,
    weekend_from_this,
    weeks_from_this,
    years_from_this,
)

_WHICH = {"last": -1, "previous": -1, "this": 0, "next": 1}


EN_WHICH = r"(?P<which>last|previous|this|next)"


# 금주, 전주, 차주 (this, last, next week) are also 禁酒 (not drinking), 全州 (Jeonju) and 車主 (a car's
# owner): alone they count only before 까지, 부터, 내(로), 대비 or 중으로; beside another time word
# (금주 월요일) they join it.
_KO_SINO_WEEK = {"금": 0, "전": -1, "차": 1}
_KO_SINO_WEEK_AFTER = re.compile(r"\s*(?:까지|부터|내로|내에|내|대비|중으로)")


def _ko_sino_week_strong(view: Scan, found: re.Match[str]) -> bool:
    return _KO_SINO_WEEK_AFTER.match(view.text, found.end()) is not None


KO_WHICH = {"지지난": -2, "지난": -1, "저번": -1, "이번": 0, "다음": 1, "다다음": 2}


WHICH_RE = r"(?P<which>지지난|지난|저번|이번|다다음|다음)"


JA_WHICH = {"先々": -2, "先": -1, "今": 0, "来": 1, "再来": 2}


def _days_span(first: int, last: int) -> Builder:
    """Days ``first`` .. ``last`` before today (inclusive), as a span."""

    def build(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
        start = ranges.midnight(ctx.today - timedelta(days=first), ctx.zone)
        return (RangeP(ranges.span(start, ranges.midnight(ctx.today - timedelta(days=last - 1), ctx.zone))),)

    return build


def shift(unit: str, count: int, ctx: Context) -> tuple[Piece, ...] | None:
    """``count`` units from today (negative: back), at the unit's grain."""
    today = ctx.today
    if unit == "fortnight":
        unit, count = "week", 2 * count
    if unit == "hour":
        moment = ranges.elapsed(ctx.now, timedelta(hours=count)).replace(minute=0, second=0, microsecond=0)
        return (RangeP(TimeRange(moment, ranges.elapsed(moment, timedelta(hours=1)), "hour")),)
    if unit == "day":
        return (DayP(today + timedelta(days=count)),)
    if unit == "week":
        return (WeekP(ranges.monday_of(today + timedelta(days=7 * count))),)
    if unit == "month":
        return (MonthP(*ranges.add_months(today.year, today.month, count)),)
    return (YearP(today.year + count),)


def same_day_back(unit: str, count: int, ctx: Context) -> tuple[Piece, ...]:
    """The very day ``count`` units back: "a week ago today", "a month ago today"."""
    today = ctx.today
    if unit == "fortnight":
        unit, count = "day", 14 * count
    if unit == "day":
        return (DayP(today - timedelta(days=count)),)
    if unit == "week":
        return (DayP(today - timedelta(days=7 * count)),)
    return (DayP(same_day_months_back(count if unit == "month" else 12 * count, ctx)),)


def same_day_months_back(months: int, ctx: Context) -> date:
    """Today's day of the month ``months`` back (the month's last day when it is shorter)."""
    year, month = ranges.add_months(ctx.today.year, ctx.today.month, -months)
    return date(year, month, min(ctx.today.day, ranges.days_in_month(year, month)))


def _before_last(unit: str):
    """저저번 주, 先先週: the week (month) before last, as 지지난주 and 先々週."""
    return lambda _m, ctx: shift(unit, -2, ctx)


def unit_now(unit: str, offset: int = 0):
    def build(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
        today = ctx.today
        if unit == "week":
            return (WeekP(ranges.monday_of(today) + timedelta(days=7 * offset)),)
        if unit == "month":
            return (MonthP(*ranges.add_months(today.year, today.month, offset)),)
        return (YearP(today.year + offset),)

    return build


EN: list[Rule] = [
    rule(
        "en.this_day_last_year",
        "en",
        START + r"(?:on\s+)?this\s+(?:day|date)\s+(?P<n>last|a)\s+year(?:\s+ago)?" + STOP,
        lambda _m, c: same_day_back("year", 1, c),
        needs=("this da",),
    ),
    rule(
        "en.previous_day", "en", START + r"the\s+(?:previous|prior)\s+day" + STOP, days_from_today(-1), needs=(" day",)
    ),
    rule(
        "en.prior_unit",
        "en",
        START + r"the\s+(?:prior\s+(?P<unit>week|month|year)|(?P<unit2>week|month|year)\s+prior)" + STOP,
        lambda m, c: shift(m.group("unit") or m.group("unit2"), -1, c),
        needs=("prior",),
    ),
    rule(
        "en.previous_unit",
        "en",
        START + r"the\s+previous\s+(?P<unit>week|month|year)" + STOP,
        lambda m, c: shift(m.group("unit"), -1, c),
        needs=("previous",),
    ),
    rule("en.other_day", "en", START + r"the\s+other\s+(?:day|night|evening|morning)" + STOP, _days_span(7, 1)),
    rule("en.day_before_yesterday", "en", START + r"(?:the\s+)?day\s+before\s+yesterday" + STOP, days_from_today(-2)),
    rule("en.day_after_tomorrow", "en", START + r"(?:the\s+)?day\s+after\s+tomorrow" + STOP, days_from_today(2)),
    rule("en.yesterday", "en", START + r"yesterday" + STOP, days_from_today(-1)),
    rule("en.today", "en", START + r"today" + STOP, days_from_today(0)),
    rule("en.tomorrow", "en", START + r"tomorrow" + STOP, days_from_today(1)),
    rule("en.week_before_last", "en", START + r"(?:the\s+)?week\s+before\s+last" + STOP, weeks_from_this(-2)),
    rule("en.week_after_next", "en", START + r"(?:the\s+)?week\s+after\s+next" + STOP, weeks_from_this(2)),
    rule("en.week", "en", START + EN_WHICH + r"\s+week" + STOP, relative(_WHICH, weeks_from_this)),
    rule("en.weekend", "en", START + EN_WHICH + r"\s+weekend" + STOP, relative(_WHICH, weekend_from_this)),
    rule("en.past_weekend", "en", START + r"(?:(?:this|the)\s+)?past\s+weekend" + STOP, weekend_from_this(-1)),
    rule(
        "en.weekend_before_last",
        "en",
        START + r"(?:the\s+)?weekend\s+before\s+last" + STOP,
        weekend_from_this(-2),
    ),
    rule(
        "en.the_weekend",
        "en",
        START + r"(?:(?P<prep>on|over|at|during)\s+)?the\s+weekend" + STOP,
        recent_weekend,
        # "the weekend" after a preposition, alone or ending the query counts; "the weekend deadline" is a
        # noun phrase
        strong=lambda v, m: (
            bool(m.group("prep"))
            or v.prev_word(m.start()) in TIME_PREPOSITIONS
            or bool(ONLY_PUNCT.fullmatch(v.text[m.end() :]))
        ),
    ),
    rule("en.month_before_last", "en", START + r"(?:the\s+)?month\s+before\s+last" + STOP, months_from_this(-2)),
    rule("en.month", "en", START + EN_WHICH + r"\s+month" + STOP, relative(_WHICH, months_from_this)),
    rule("en.year_before_last", "en", START + r"(?:the\s+)?year\s+before\s+last" + STOP, years_from_this(-2)),
    rule("en.year", "en", START + EN_WHICH + r"\s+year" + STOP, relative(_WHICH, years_from_this)),
]


KO: list[Rule] = [
    rule(
        "ko.this_month_short",
        "ko",
        r"(?<![가-힣])이달",
        lambda _m, c: unit_now("month")(_m, c),
        guard=word_ends,
    ),
    rule("ko.week_before_last", "ko", r"(?<![가-힣])저저번\s*주(?!말)", _before_last("week"), needs=("저저번",)),
    rule("ko.weekend_before_last", "ko", r"(?<![가-힣])저저번\s*주말", weekend_from_this(-2), needs=("저저번",)),
    rule("ko.month_before_last", "ko", r"(?<![가-힣])저저번\s*달", _before_last("month"), needs=("저저번",)),
    rule("ko.other_day", "ko", r"요전\s*날|요전에|일전에|엊그제께", _days_span(7, 1), guard=word_bounded),
    rule("ko.two_days", "ko", r"엊그저께|엊그제", _days_span(2, 1)),
    rule("ko.day_before_yesterday", "ko", r"그저께|그제(?!서야|야)", days_from_today(-2), guard=word_bounded),
    rule("ko.yesterday", "ko", r"어저께|어제", days_from_today(-1)),
    rule("ko.day_after_tomorrow_2", "ko", r"내일\s*모레", days_from_today(2), guard=word_ends),
    rule("ko.today", "ko", r"오늘(?!날)", days_from_today(0)),
    rule("ko.tomorrow", "ko", r"내일", days_from_today(1)),
    rule("ko.day_after_tomorrow", "ko", r"모레", days_from_today(2), guard=word_bounded),
    rule("ko.week", "ko", WHICH_RE + r"\s*주(?!\s*말|일|\s*\d)", relative(KO_WHICH, weeks_from_this)),
    rule(
        "ko.week_sino",
        "ko",
        r"(?P<which>금|전|차)주(?!\s*말|일|\s*\d)",
        relative(_KO_SINO_WEEK, weeks_from_this),
        strong=_ko_sino_week_strong,
        guard=word_bounded,
        needs=("금주", "전주", "차주"),
    ),
    rule("ko.weekend", "ko", WHICH_RE + r"\s*주말", relative(KO_WHICH, weekend_from_this)),
    rule("ko.the_weekend", "ko", r"주말", recent_weekend, strong=part_strong, guard=word_bounded),
    rule("ko.month", "ko", WHICH_RE + r"\s*달", relative(KO_WHICH, months_from_this)),
    rule("ko.year_before_last", "ko", r"재작년", years_from_this(-2)),
    rule("ko.last_year", "ko", r"작년|지난\s*해", years_from_this(-1)),
    rule("ko.this_year", "ko", r"올해|금년", years_from_this(0)),
    rule("ko.next_year", "ko", r"내년|다음\s*해", years_from_this(1)),
]


JA: list[Rule] = [
    rule("ja.week_before_last", "ja", r"先先週", _before_last("week"), needs=("先先",)),
    rule("ja.month_before_last", "ja", r"先先月", _before_last("month"), needs=("先先",)),
    rule("ja.this_week", "ja", r"当週|本週", weeks_from_this(0)),
    rule("ja.this_month", "ja", r"当月(?!曜)", months_from_this(0)),
    rule("ja.today_kana", "ja", r"ほんじつ", lambda _m, c: (DayP(c.today),)),
    rule("ja.last_week_kana", "ja", r"せんしゅう", weeks_from_this(-1), guard=kana_bounded),
    rule("ja.this_week_kana", "ja", r"こんしゅう", weeks_from_this(0), guard=kana_bounded),
    rule("ja.next_week_kana", "ja", r"らいしゅう", weeks_from_this(1), guard=kana_bounded),
    rule("ja.last_month_kana", "ja", r"せんげつ", months_from_this(-1), guard=kana_bounded),
    rule("ja.last_year_kana", "ja", r"きょねん", years_from_this(-1), guard=kana_bounded),
    rule("ja.other_day", "ja", r"先日|この間(?![\u4e00-\u9fff])|こないだ", _days_span(7, 1)),
    rule("ja.day_before_yesterday", "ja", r"一昨日|おととい", days_from_today(-2), guard=kana_bounded),
    rule("ja.yesterday", "ja", r"昨日|きのう", days_from_today(-1), guard=kana_bounded),
    rule("ja.today", "ja", r"今日|本日|きょう", days_from_today(0), guard=kana_bounded),
    rule("ja.tomorrow", "ja", r"明日|あした", days_from_today(1), guard=kana_bounded),
    rule("ja.day_after_tomorrow", "ja", r"明後日|あさって", days_from_today(2), guard=kana_bounded),
    rule("ja.week", "ja", r"(?P<which>先々|再来|先|今|来)週(?!末)", relative(JA_WHICH, weeks_from_this)),
    rule("ja.weekend", "ja", r"(?P<which>先々|先|今|来)週末", relative(JA_WHICH, weekend_from_this)),
    rule(
        "ja.the_weekend",
        "ja",
        r"(?<![毎先今来々])週末",
        recent_weekend,
        strong=lambda v, m: v.text[m.end() : m.end() + 1] in ("に", "は", "、", ""),
    ),
    # 先月号, 今月号: last / this month's issue of a magazine, not a time to search
    rule("ja.month", "ja", r"(?P<which>先々|再来|先|今|来)月(?!曜|号)", relative(JA_WHICH, months_from_this)),
    rule("ja.year_before_last", "ja", r"一昨年|おととし", years_from_this(-2)),
    rule("ja.last_year", "ja", r"去年|昨年", years_from_this(-1)),
    rule("ja.this_year", "ja", r"今年|本年", years_from_this(0)),
    rule("ja.next_year", "ja", r"来年", years_from_this(1)),
    rule("ja.year_after_next", "ja", r"再来年", years_from_this(2)),
]

RULES: dict[str, list[Rule]] = {"en": EN, "ko": KO, "ja": JA}
