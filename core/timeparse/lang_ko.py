"""Korean rules.

Particles attach to the word (어제는, 3월에, 밤에), so a rule does not need a word end; instead the
short words that also begin other words are guarded: 밤 (night, but also chestnut: 밤나무, 군밤),
낮 (낮잠), 오늘 (오늘날 "nowadays"), 그제 (그제야 "only then"), 주말 (주말농장), the parts of the day
(아침밥, 저녁노을) and "N시" (3시간 is a duration). Such a word counts only when what follows it in
the same word is a particle (에, 에는, 부터, 이었 ...). A bare 일 ("work", "day") or 월 is never a
date: days of the month need 월 before them (11월 3일) or a month beside them (지난달 3일), and
"3일 동안 여행" (a three-day trip) is no range. A part of day alone needs a particle (아침에, 밤에) or
a day beside it (어제 저녁, 오늘 밤).

Sino-Korean numerals (삼일 전, 이주 전, 십 년 전, 지난 삼 개월간) count only with a unit glued or
spaced after them and a direction word (전) or a "지난/최근/과거" before them, as the digit forms do;
they take the units Sino-Korean numbers go with (일, 주, 주일, 개월, 년; hours and 달 are counted
with native numbers: 세 시간, 두 달). Words made of the same syllables stay words: 삼일절 and 오일
(oil) have no 전 after them, "이 일 전에" is "before this work" (이 spaced before 일 or 주 is "this"),
"엔진오일 전" is glued to a word before it, and "지난 삼일" / "지난 이주" (also "migration") need
간 or 동안 after them.
"""

from __future__ import annotations

import re
from datetime import date

from core.timeparse.parts import PARTS
from core.timeparse.pieces import (
    ClockP,
    Context,
    DayP,
    DomP,
    MonthDayP,
    MonthNameP,
    MonthP,
    PartP,
    Piece,
    WeekdayP,
    YearP,
)
from core.timeparse.rules import (
    Rule,
    Scan,
    ago,
    day_and_part,
    days_from_today,
    last_n,
    months_from_this,
    recent_weekend,
    relative,
    rule,
    weekend_from_this,
    weeks_from_this,
    years_from_this,
)
from core.timeparse.text import KO_DAY_COUNTS, KO_NATIVE, KO_NATIVE_PATTERN, KO_SINO_PATTERN, ko_sino_number, number

_HANGUL = re.compile(r"[가-힣]")
# What may follow a guarded word inside the same word: particles, and copulas that go on (밤이었어).
PARTICLES = (
    "에는",
    "에도",
    "에서",
    "에게",
    "에",
    "엔",
    "은",
    "는",
    "이",
    "가",
    "도",
    "의",
    "부터",
    "까지",
    "쯤",
    "쯤에",
    "쯤엔",
    "쯤에는",
    "경에",
    "께",
    "경",
    "만",
    "동안",
    "내내",
    "중",
    "중에",
    "이나",
    "나",
    "으로",
    "로",
    "과",
    "와",
    "하고",
    "랑",
    "이랑",
    "인데",
    "인가",
    "이야",
    "야",
    "이었",
    "였",
    "이라",
    "라",
    "였던",
    "이었던",
    "날",
    "때",
    "때에",
)
_CONTINUES = ("에는", "에도", "에서", "부터", "까지", "이었", "였", "이라", "인데", "인가", "중에", "동안", "때")
_PART_PARTICLES = (
    "에는",
    "에도",
    "에",
    "엔",
    "쯤",
    "께",
    "경",
    "중에",
    "중",
    "부터",
    "까지",
    "동안",
    "내내",
    "에서",
    "때",
)

WEEKDAYS = {"월": 0, "화": 1, "수": 2, "목": 3, "금": 4, "토": 5, "일": 6}
MODES = {"지난": "last", "저번": "last", "이번": "this", "다음": "next", None: "bare"}
WHICH = {"지지난": -2, "지난": -1, "저번": -1, "이번": 0, "다음": 1, "다다음": 2}
UNITS = {
    "시간": "hour",
    "일": "day",
    "주일": "week",
    "주": "week",
    "달": "month",
    "개월": "month",
    "년": "year",
    "해": "year",
}
PART_NAMES = {
    "새벽": "dawn",
    "아침": "morning",
    "오전": "forenoon",
    "점심": "midday",
    "낮": "daytime",
    "오후": "afternoon",
    "저녁": "evening",
    "밤": "night",
    "한밤중": "late_night",
    "심야": "late_night",
    "밤늦게": "late_night",
}

COUNT = rf"(?P<n>\d{{1,4}}|{KO_NATIVE_PATTERN})"
UNIT = r"(?P<unit>시간|주일|개월|일|주|달|년|해)"
SINO = rf"(?P<n>{KO_SINO_PATTERN})(?P<sp>\s*)(?P<unit>주일|개월|일|주|년)"
# Oil words before a spaced 오일 ("엔진 오일 전에"): there 오일 is oil, not five days.
_OIL_WORDS = ("엔진", "올리브", "식용", "에센셜", "코코넛", "헤어", "바디", "아로마", "베이비", "미션")


def _rest_of_word(view: Scan, end: int) -> str:
    found = re.match(r"[가-힣]*", view.text[end : end + 12])
    return found.group(0) if found else ""


def word_ends(view: Scan, found: re.Match[str]) -> bool:
    """The match ends its word, or only a particle follows, or another time word starts right there."""
    end = found.end()
    rest = _rest_of_word(view, end)
    if not rest or end in view.starts:
        return True
    for particle in PARTICLES:
        if rest == particle or ((end + len(particle)) in view.starts and rest.startswith(particle)):
            return True
    return rest.startswith(_CONTINUES)


def word_bounded(view: Scan, found: re.Match[str]) -> bool:
    """``word_ends`` and no Hangul glued in front, unless it ends another time word (오늘밤, 군밤)."""
    start = found.start()
    glued = start > 0 and bool(_HANGUL.match(view.text[start - 1])) and start not in view.ends
    return not glued and word_ends(view, found)


def part_strong(view: Scan, found: re.Match[str]) -> bool:
    """A part of day alone counts with a particle of time after it: 아침에, 밤에는, 오후쯤."""
    rest = _rest_of_word(view, found.end())
    return rest.startswith(_PART_PARTICLES)


# Words after a season or a holiday that make it time: 여름 동안, 크리스마스 때.
_TIME_NOUNS = re.compile(r"\s+(?:동안|내내|때|무렵|즈음|쯤|전후|이후|부터|까지)")
_TEXT_ENDS = re.compile(r"[\s?.!,。？！]*$")


def named_strong(view: Scan, found: re.Match[str], at_end: bool = False) -> bool:
    """A season or a holiday counts alone with 지난/이번/다음/올 (the rule's ``mode``), a particle of
    time (여름에, 크리스마스에는), a time noun (겨울 동안, 크리스마스 때, 크리스마스 이후로) or a time
    word after it (크리스마스 저녁); with ``at_end`` also at the end of the text or before punctuation
    ("크리스마스?")."""
    end = found.end()
    if found.group("mode") or part_strong(view, found) or _TIME_NOUNS.match(view.text, end):
        return True
    if at_end and _TEXT_ENDS.match(view.text, end):
        return True
    return view.time_follows(end, r"\s*")


def _count(found: re.Match[str]) -> int | None:
    return number(found.group("n"))


def _ago(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = _count(found)
    return ago(count, UNITS[found.group("unit")], ctx) if count is not None else None


def _last_n(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    groups = found.groupdict()
    if groups.get("days"):
        return last_n(KO_DAY_COUNTS[groups["days"]], "day", ctx)
    if groups.get("week"):
        return last_n(1, "week", ctx)
    count = _count(found)
    return last_n(count, UNITS[found.group("unit")], ctx) if count is not None else None


def _sino_count(found: re.Match[str]) -> int | None:
    """The count of a Sino-Korean numeral before its unit, or None when the syllables mean something else."""
    numeral, unit = found.group("n"), found.group("unit")
    if numeral == "이" and found.group("sp") and unit in ("일", "주"):
        return None  # "이 일", "이 주": this work, this week
    return ko_sino_number(numeral)


def _sino_guard(view: Scan, found: re.Match[str]) -> bool:
    if (
        found.group("n") == "오"
        and found.group("unit") == "일"
        and view.before(found.start()).rstrip().endswith(_OIL_WORDS)
    ):
        return False
    return word_bounded(view, found)


def _ago_sino(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = _sino_count(found)
    return ago(count, UNITS[found.group("unit")], ctx) if count is not None else None


def _last_n_sino(found: re.Match[str], ctx: Context) -> tuple[Piece, ...] | None:
    count = _sino_count(found)
    if count is None or (found.group("unit") in ("일", "주") and not found.group("dur")):
        return None
    return last_n(count, UNITS[found.group("unit")], ctx)


_MONTH_MODES = {"지난": "last", "저번": "last", "이번": "this", "다음": "next"}


def _date(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    year, month, day = found.group("y"), int(found.group("mo")), found.group("d")
    if day is None:
        if not 1 <= month <= 12:
            raise ValueError(month)
        return (MonthP(int(year), month),) if year else (MonthNameP(month),)
    if year:
        return (DayP(date(int(year), month, int(day))),)
    date(2000, month, int(day))  # raises for 31 April
    return (MonthDayP(month, int(day)),)


def _part(name: str) -> PartP:
    return PartP(PARTS[name])


def _clock(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    hour = int(found.group("h"))
    minute = 30 if found.group("half") else int(found.group("m") or 0)
    if hour > 24 or minute > 59:
        return None
    explicit = hour == 0 or hour > 12
    return (ClockP(hour % 24, minute, "24h" if explicit else None),)


# 3월호 (a magazine's March issue), 3월생 (born in March): about March, not a time to search.
NOT_AN_ISSUE = r"(?![호생])"

WHICH_RE = r"(?P<which>지지난|지난|저번|이번|다다음|다음)"

RULES: list[Rule] = [
    rule("ko.day_before_yesterday", "ko", r"그저께|그제(?!서야|야)", days_from_today(-2), guard=word_bounded),
    rule("ko.yesterday", "ko", r"어저께|어제", days_from_today(-1)),
    rule("ko.day_after_tomorrow_2", "ko", r"내일\s*모레", days_from_today(2), guard=word_ends),
    rule("ko.today", "ko", r"오늘(?!날)", days_from_today(0)),
    rule("ko.tomorrow", "ko", r"내일", days_from_today(1)),
    rule("ko.day_after_tomorrow", "ko", r"모레", days_from_today(2), guard=word_bounded),
    rule("ko.last_night", "ko", r"어젯\s*밤|간밤|지난\s*밤", day_and_part(-1, "night")),
    rule("ko.week", "ko", WHICH_RE + r"\s*주(?!\s*말|일|\s*\d)", relative(WHICH, weeks_from_this)),
    rule("ko.weekend", "ko", WHICH_RE + r"\s*주말", relative(WHICH, weekend_from_this)),
    rule(
        "ko.weekends_ago",
        "ko",
        r"(?<!\d)(?P<n>\d{1,2}|[한두세네])\s*주\s*전\s*주말",
        lambda m, c: weekend_from_this(-(int(m.group("n")) if m.group("n").isdigit() else KO_NATIVE[m.group("n")]))(
            m, c
        ),
        guard=word_ends,
    ),
    rule("ko.the_weekend", "ko", r"주말", recent_weekend, strong=part_strong, guard=word_bounded),
    rule("ko.month", "ko", WHICH_RE + r"\s*달", relative(WHICH, months_from_this)),
    rule("ko.year_before_last", "ko", r"재작년", years_from_this(-2)),
    rule("ko.last_year", "ko", r"작년|지난\s*해", years_from_this(-1)),
    rule("ko.this_year", "ko", r"올해|금년", years_from_this(0)),
    rule("ko.next_year", "ko", r"내년|다음\s*해", years_from_this(1)),
    rule("ko.ago", "ko", COUNT + r"\s*" + UNIT + r"\s*(?:쯤|정도|가량)?\s*전", _ago, guard=word_ends),
    rule(
        "ko.ago_days",
        "ko",
        r"(?P<days>" + "|".join(KO_DAY_COUNTS) + r")\s*전",
        lambda m, c: ago(KO_DAY_COUNTS[m.group("days")], "day", c),
        guard=word_ends,
    ),
    rule("ko.ago_sino", "ko", SINO + r"\s*전", _ago_sino, guard=_sino_guard),
    rule(
        "ko.last_n_sino",
        "ko",
        r"(?:지난|최근|과거)\s*" + SINO + r"(?P<dur>\s*(?:간|동안))?",
        _last_n_sino,
        guard=word_ends,
    ),
    rule("ko.ago_week", "ko", r"일주일\s*전", lambda _m, c: ago(1, "week", c), guard=word_ends),
    rule(
        "ko.last_n",
        "ko",
        r"(?:지난|최근|과거)\s*(?:(?P<week>일주일)|(?P<days>"
        + "|".join(KO_DAY_COUNTS)
        + r")|"
        + COUNT
        + r"\s*"
        + UNIT
        + r")(?:\s*(?:간|동안))?",
        _last_n,
    ),
    rule(
        "ko.weekday",
        "ko",
        r"(?:(?P<mode>지난|저번|이번|다음)\s*)?(?P<wd>[월화수목금토일])요일",
        lambda m, _c: (WeekdayP(WEEKDAYS[m.group("wd")], MODES[m.group("mode")]),),
    ),
    rule(
        "ko.month_mode",
        "ko",
        r"(?P<mode>지난|저번|이번|다음|올)\s*(?P<mo>1[0-2]|0?[1-9])\s*월" + NOT_AN_ISSUE + r"(?!\s*\d{1,2}\s*일)",
        lambda m, c: (
            (MonthP(c.today.year, int(m.group("mo"))),)
            if m.group("mode") == "올"
            else (MonthNameP(int(m.group("mo")), _MONTH_MODES[m.group("mode")]),)
        ),
    ),
    rule(
        "ko.date",
        "ko",
        r"(?<!\d)(?:(?P<y>\d{4})\s*년\s*)?(?P<mo>\d{1,2})\s*월" + NOT_AN_ISSUE + r"(?:\s*(?P<d>\d{1,2})\s*일)?",
        _date,
    ),
    rule(
        "ko.year",
        "ko",
        r"(?<!\d)(?P<y>\d{4})\s*년(?!\s*\d{1,2}\s*월|\s*(?:전|동안|간|대))",
        lambda m, _c: (YearP(int(m.group("y"))),),
    ),
    rule(
        "ko.dom",
        "ko",
        r"(?<!\d)(?P<d>\d{1,2})\s*일(?!\s*(?:전|동안|간|째|후|차))",
        lambda m, _c: (DomP(int(m.group("d"))),) if 1 <= int(m.group("d")) <= 31 else None,
        strong=False,
    ),
    rule(
        "ko.part",
        "ko",
        r"(?P<p>한밤중|심야|밤\s*늦게|새벽|아침|오전|점심|오후|저녁|밤|낮)",
        lambda m, _c: (_part(PART_NAMES[re.sub(r"\s", "", m.group("p"))]),),
        strong=part_strong,
        guard=word_bounded,
    ),
    rule(
        "ko.clock",
        "ko",
        r"(?<!\d)(?P<h>\d{1,2})\s*시(?!간)(?:\s*(?P<m>\d{1,2})\s*분|\s*(?P<half>반))?",
        _clock,
        guard=word_ends,
    ),
]
