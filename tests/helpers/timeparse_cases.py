"""The temporal backbone's hand-written case table: every expression of issue 3, per language, with a
fixed now. Data and the check, shared by ``tests/timeparse`` (its tests are in
``test_timeparse_cases.py``) and ``tests/bench/bench_timeparse.py`` (accuracy against a naive dateparser
baseline): ``TABLES`` maps a name to (now, zone, cases).

Expected ranges are written out by hand from the documented rules (half-open, local time of the zone;
``NOW`` as an end means the range runs up to now). ``None`` as start means "no range": words that only
look like time.
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple
from zoneinfo import ZoneInfo

from core.timeparse import parse_time


class Case(NamedTuple):
    lang: str
    query: str
    start: str | None  # local ISO time in the table's zone (or with an explicit offset); None: no range
    end: str | None  # "NOW" for ranges that run up to now
    grain: str | None = None
    expression: str | None = None  # checked when given
    rest: str | None = None  # checked when given


SEOUL = ZoneInfo("Asia/Seoul")
SEOUL_NOW = datetime(2026, 11, 29, 15, 0, tzinfo=SEOUL)  # a Sunday afternoon

EN = [
    Case(
        "en",
        "what did we decide yesterday?",
        "2026-11-28T00:00",
        "2026-11-29T00:00",
        "day",
        "yesterday",
        "what did we decide?",
    ),
    Case("en", "the day before yesterday", "2026-11-27T00:00", "2026-11-28T00:00", "day"),
    Case("en", "notes from today", "2026-11-29T00:00", "2026-11-30T00:00", "day", "from today", "notes"),
    Case("en", "last week", "2026-11-16T00:00", "2026-11-23T00:00", "week"),
    Case("en", "this week", "2026-11-23T00:00", "2026-11-30T00:00", "week"),
    Case("en", "last month", "2026-10-01T00:00", "2026-11-01T00:00", "month"),
    Case("en", "last year", "2025-01-01T00:00", "2026-01-01T00:00", "year"),
    Case("en", "3 days ago", "2026-11-26T00:00", "2026-11-27T00:00", "day"),
    Case(
        "en",
        "what was it three days ago",
        "2026-11-26T00:00",
        "2026-11-27T00:00",
        "day",
        "three days ago",
        "what was it",
    ),
    Case("en", "2 weeks ago", "2026-11-09T00:00", "2026-11-16T00:00", "week"),
    Case("en", "last Friday", "2026-11-27T00:00", "2026-11-28T00:00", "day"),
    Case("en", "last weekend", "2026-11-21T00:00", "2026-11-23T00:00", "span"),
    Case("en", "Tuesday last week", "2026-11-17T00:00", "2026-11-18T00:00", "day"),
    Case(
        "en",
        "what did we decide last Tuesday night?",
        "2026-11-24T18:00",
        "2026-11-25T04:00",
        "part_of_day",
        "last Tuesday night",
        "what did we decide?",
    ),
    Case("en", "yesterday morning", "2026-11-28T06:00", "2026-11-28T12:00", "part_of_day"),
    Case("en", "yesterday afternoon", "2026-11-28T12:00", "2026-11-28T18:00", "part_of_day"),
    Case("en", "Friday evening", "2026-11-27T18:00", "2026-11-28T00:00", "part_of_day"),
    Case(
        "en",
        "what did I say in the evening",
        "2026-11-28T18:00",
        "2026-11-29T00:00",
        "part_of_day",
        "in the evening",
        "what did I say",
    ),
    Case("en", "this morning", "2026-11-29T06:00", "2026-11-29T12:00", "part_of_day"),
    Case("en", "last night", "2026-11-28T18:00", "2026-11-29T04:00", "part_of_day"),
    Case("en", "tonight", "2026-11-29T18:00", "2026-11-30T04:00", "part_of_day"),
    Case("en", "yesterday at 3pm", "2026-11-28T15:00", "2026-11-28T16:00", "hour"),
    Case("en", "3 hours ago", "2026-11-29T12:00", "2026-11-29T13:00", "hour"),
    Case("en", "what happened in March", "2026-03-01T00:00", "2026-04-01T00:00", "month", "in March", "what happened"),
    Case("en", "in December", "2025-12-01T00:00", "2026-01-01T00:00", "month"),
    Case("en", "March 2025", "2025-03-01T00:00", "2025-04-01T00:00", "month"),
    Case("en", "2026-11-03", "2026-11-03T00:00", "2026-11-04T00:00", "day"),
    Case(
        "en", "the meeting on November 3", "2026-11-03T00:00", "2026-11-04T00:00", "day", "on November 3", "the meeting"
    ),
    Case("en", "the morning of November 3", "2026-11-03T06:00", "2026-11-03T12:00", "part_of_day"),
    Case("en", "since Monday", "2026-11-23T00:00", "NOW", "span"),
    Case("en", "in the last 3 days", "2026-11-26T00:00", "NOW", "span"),
    Case("en", "over the last 24 hours", "2026-11-28T15:00", "NOW", "span"),
    Case("en", "between November 3 and November 5", "2026-11-03T00:00", "2026-11-06T00:00", "span"),
    Case("en", "between the 3rd and the 5th", "2026-11-03T00:00", "2026-11-06T00:00", "span"),
    Case("en", "Nov 3-5", "2026-11-03T00:00", "2026-11-06T00:00", "span"),
    Case("en", "from Monday to Wednesday", "2026-11-23T00:00", "2026-11-26T00:00", "span"),
    Case(
        "en",
        "what did Kate say yesterday about skiing",
        "2026-11-28T00:00",
        "2026-11-29T00:00",
        "day",
        "yesterday",
        "what did Kate say about skiing",
    ),
    Case("en", "did Kate mention skiing on Wednesday?", "2026-11-25T00:00", "2026-11-26T00:00", "day"),
    Case("en", "what did I write the week before last", "2026-11-09T00:00", "2026-11-16T00:00", "week"),
    Case(
        "en",
        "conversations from earlier this week",
        "2026-11-23T00:00",
        "2026-11-30T00:00",
        "week",
        "from earlier this week",
        "conversations",
    ),
    Case("en", "back in October", "2026-10-01T00:00", "2026-11-01T00:00", "month"),
    Case("en", "in mid-March", "2026-03-01T00:00", "2026-04-01T00:00", "month", "in mid-March", ""),
    Case("en", "on Saturday afternoon", "2026-11-28T12:00", "2026-11-28T18:00", "part_of_day"),
    Case("en", "a week ago", "2026-11-16T00:00", "2026-11-23T00:00", "week"),
    Case("en", "two days ago in the morning", "2026-11-27T06:00", "2026-11-27T12:00", "part_of_day"),
    Case("en", "the night before last", "2026-11-27T18:00", "2026-11-28T04:00", "part_of_day"),
    Case("en", "last Monday at 9", "2026-11-23T09:00", "2026-11-23T10:00", "hour"),
    Case("en", "since last Thursday", "2026-11-26T00:00", "NOW", "span"),
    Case("en", "during the past 2 weeks", "2026-11-15T00:00", "NOW", "span"),
    Case("en", "on 3 November 2026", "2026-11-03T00:00", "2026-11-04T00:00", "day"),
    Case("en", "from Nov 3 to Nov 5", "2026-11-03T00:00", "2026-11-06T00:00", "span"),
    Case("en", "yesterday from 3pm to 5pm", "2026-11-28T15:00", "2026-11-28T17:00", "span"),
    Case("en", "this year", "2026-01-01T00:00", "2027-01-01T00:00", "year"),
    Case("en", "I can't march today", "2026-11-29T00:00", "2026-11-30T00:00", "day", "today"),
    # Seasons (northern meteorological, a span) and fixed-date holidays (a day; see core/timeparse/annual.py).
    Case("en", "last summer", "2026-06-01T00:00", "2026-09-01T00:00", "span"),
    Case(
        "en",
        "what did we plan this winter?",
        "2026-12-01T00:00",
        "2027-03-01T00:00",
        "span",
        "this winter",
        "what did we plan?",
    ),
    Case("en", "last winter", "2025-12-01T00:00", "2026-03-01T00:00", "span"),
    Case("en", "in the summer", "2026-06-01T00:00", "2026-09-01T00:00", "span"),
    Case("en", "during winter", "2025-12-01T00:00", "2026-03-01T00:00", "span"),
    Case("en", "last fall", "2025-09-01T00:00", "2025-12-01T00:00", "span"),
    Case("en", "this autumn", "2026-09-01T00:00", "2026-12-01T00:00", "span"),
    Case("en", "next spring", "2027-03-01T00:00", "2027-06-01T00:00", "span"),
    Case("en", "the summer of 2025", "2025-06-01T00:00", "2025-09-01T00:00", "span", "the summer of 2025"),
    Case("en", "summer last year", "2025-06-01T00:00", "2025-09-01T00:00", "span"),
    Case("en", "since last summer", "2026-06-01T00:00", "NOW", "span"),
    Case("en", "the past winter", "2025-12-01T00:00", "2026-03-01T00:00", "span", "the past winter"),
    Case("en", "Christmas", "2025-12-25T00:00", "2025-12-26T00:00", "day"),
    Case(
        "en",
        "what did we eat on Christmas Eve?",
        "2025-12-24T00:00",
        "2025-12-25T00:00",
        "day",
        "on Christmas Eve",
        "what did we eat?",
    ),
    Case("en", "Christmas Eve night", "2025-12-24T18:00", "2025-12-25T04:00", "part_of_day"),
    Case("en", "Christmas morning", "2025-12-25T06:00", "2025-12-25T12:00", "part_of_day"),
    Case("en", "next Christmas", "2026-12-25T00:00", "2026-12-26T00:00", "day"),
    Case("en", "Christmas 2024", "2024-12-25T00:00", "2024-12-26T00:00", "day"),
    Case("en", "New Year's Eve", "2025-12-31T00:00", "2026-01-01T00:00", "day"),
    Case("en", "on New Year's Day", "2026-01-01T00:00", "2026-01-02T00:00", "day"),
    Case("en", "Valentine's Day", "2026-02-14T00:00", "2026-02-15T00:00", "day"),
    Case(
        "en",
        "what did Kate say at Halloween?",
        "2026-10-31T00:00",
        "2026-11-01T00:00",
        "day",
        "at Halloween",
        "what did Kate say?",
    ),
    Case("en", "from Christmas to New Year's Day", "2025-12-25T00:00", "2026-01-02T00:00", "span"),
    # Words that only look like time.
    Case("en", "we should talk about the budget", None, None),
    Case("en", "may I ask something", None, None),
    Case("en", "second thoughts about the plan", None, None),
    Case("en", "the march of progress", None, None),
    Case("en", "sun is out", None, None),
    Case("en", "I sat down with Kate", None, None),
    Case("en", "wait a second", None, None),
    Case("en", "I'll be back in a minute", None, None),
    Case("en", "good morning Kate", None, None),
    Case("en", "what did June say", None, None),
    Case("en", "top 3 ideas", None, None),
    Case("en", "we'll see", None, None),
    Case("en", "meet at 9", None, None),
    Case("en", "the fall of Rome", None, None),
    Case("en", "what did Summer say", None, None),
    Case("en", "a spring in the garden", None, None),
    Case("en", "I don't want to fall", None, None),
    Case("en", "summer", None, None),
    Case("en", "summer reading list", None, None),
    Case("en", "Christmas gift ideas", None, None),
    Case("en", "gifts for Christmas", None, None),
    Case("en", "my new year's resolution", None, None),
    Case("en", "Halloween costume ideas", None, None),
]

KO = [
    Case("ko", "어제 뭐 했지", "2026-11-28T00:00", "2026-11-29T00:00", "day", "어제", "뭐 했지"),
    Case("ko", "그저께", "2026-11-27T00:00", "2026-11-28T00:00", "day"),
    Case("ko", "그제 회의", "2026-11-27T00:00", "2026-11-28T00:00", "day", "그제", "회의"),
    Case("ko", "오늘은 뭐 했어", "2026-11-29T00:00", "2026-11-30T00:00", "day", "오늘", "뭐 했어"),
    Case("ko", "지난주", "2026-11-16T00:00", "2026-11-23T00:00", "week"),
    Case("ko", "이번 주", "2026-11-23T00:00", "2026-11-30T00:00", "week"),
    Case("ko", "지난달", "2026-10-01T00:00", "2026-11-01T00:00", "month"),
    Case("ko", "작년", "2025-01-01T00:00", "2026-01-01T00:00", "year"),
    Case("ko", "3일 전에 말한 것", "2026-11-26T00:00", "2026-11-27T00:00", "day", "3일 전", "말한 것"),
    Case("ko", "사흘 전", "2026-11-26T00:00", "2026-11-27T00:00", "day"),
    Case("ko", "2주 전", "2026-11-09T00:00", "2026-11-16T00:00", "week"),
    Case("ko", "지난 금요일", "2026-11-27T00:00", "2026-11-28T00:00", "day"),
    Case("ko", "지난 주말", "2026-11-21T00:00", "2026-11-23T00:00", "span"),
    Case("ko", "지난주 화요일", "2026-11-17T00:00", "2026-11-18T00:00", "day"),
    Case(
        "ko",
        "지난주 화요일 밤에 뭐 결정했지",
        "2026-11-17T18:00",
        "2026-11-18T04:00",
        "part_of_day",
        "지난주 화요일 밤",
        "뭐 결정했지",
    ),
    Case("ko", "지난 화요일 밤", "2026-11-24T18:00", "2026-11-25T04:00", "part_of_day"),
    Case("ko", "어제 아침", "2026-11-28T06:00", "2026-11-28T12:00", "part_of_day"),
    Case("ko", "어제 오후", "2026-11-28T12:00", "2026-11-28T18:00", "part_of_day"),
    Case("ko", "어제 저녁", "2026-11-28T18:00", "2026-11-29T00:00", "part_of_day"),
    Case("ko", "오전에 한 얘기", "2026-11-29T00:00", "2026-11-29T12:00", "part_of_day", "오전", "한 얘기"),
    Case("ko", "밤에", "2026-11-28T18:00", "2026-11-29T04:00", "part_of_day"),
    Case("ko", "새벽에", "2026-11-29T00:00", "2026-11-29T06:00", "part_of_day"),
    Case("ko", "어젯밤", "2026-11-28T18:00", "2026-11-29T04:00", "part_of_day"),
    Case("ko", "오늘 밤", "2026-11-29T18:00", "2026-11-30T04:00", "part_of_day"),
    Case("ko", "오후 3시", "2026-11-29T15:00", "2026-11-29T16:00", "hour"),
    Case("ko", "어제 밤 11시", "2026-11-28T23:00", "2026-11-29T00:00", "hour"),
    Case("ko", "3월에 간 곳", "2026-03-01T00:00", "2026-04-01T00:00", "month", "3월", "간 곳"),
    Case("ko", "2025년 3월", "2025-03-01T00:00", "2025-04-01T00:00", "month"),
    Case("ko", "작년 3월", "2025-03-01T00:00", "2025-04-01T00:00", "month"),
    Case("ko", "2026년 11월 3일", "2026-11-03T00:00", "2026-11-04T00:00", "day"),
    Case("ko", "11월 3일", "2026-11-03T00:00", "2026-11-04T00:00", "day"),
    Case("ko", "지난달 3일", "2026-10-03T00:00", "2026-10-04T00:00", "day"),
    Case("ko", "월요일부터", "2026-11-23T00:00", "NOW", "span"),
    Case("ko", "지난 3일 동안", "2026-11-26T00:00", "NOW", "span"),
    Case("ko", "최근 3일간", "2026-11-26T00:00", "NOW", "span"),
    Case("ko", "11월 3일부터 5일까지", "2026-11-03T00:00", "2026-11-06T00:00", "span"),
    Case("ko", "월요일부터 수요일까지", "2026-11-23T00:00", "2026-11-26T00:00", "span"),
    Case("ko", "그저께 밤에 한 얘기", "2026-11-27T18:00", "2026-11-28T04:00", "part_of_day", "그저께 밤", "한 얘기"),
    Case("ko", "지난달에 산 책", "2026-10-01T00:00", "2026-11-01T00:00", "month", "지난달", "산 책"),
    Case("ko", "이번 주말", "2026-11-28T00:00", "2026-11-30T00:00", "span"),
    Case("ko", "일주일 전", "2026-11-16T00:00", "2026-11-23T00:00", "week"),
    Case("ko", "지난 수요일 오후", "2026-11-25T12:00", "2026-11-25T18:00", "part_of_day"),
    Case("ko", "10월 5일에", "2026-10-05T00:00", "2026-10-06T00:00", "day"),
    Case("ko", "올해", "2026-01-01T00:00", "2027-01-01T00:00", "year"),
    Case("ko", "최근 일주일", "2026-11-22T00:00", "NOW", "span"),
    Case("ko", "어제 점심때", "2026-11-28T11:00", "2026-11-28T14:00", "part_of_day"),
    Case("ko", "어제 오후 3시부터 5시까지", "2026-11-28T15:00", "2026-11-28T17:00", "span"),
    Case("ko", "월요일에서 수요일까지", "2026-11-23T00:00", "2026-11-26T00:00", "span"),
    # Sino-Korean numbers.
    Case("ko", "삼일 전", "2026-11-26T00:00", "2026-11-27T00:00", "day"),
    Case("ko", "삼일 전에 말한 것", "2026-11-26T00:00", "2026-11-27T00:00", "day", "삼일 전", "말한 것"),
    Case("ko", "십일 전", "2026-11-19T00:00", "2026-11-20T00:00", "day"),
    Case("ko", "이십일 전", "2026-11-09T00:00", "2026-11-10T00:00", "day"),
    Case("ko", "이주 전", "2026-11-09T00:00", "2026-11-16T00:00", "week"),
    Case("ko", "이주일 전", "2026-11-09T00:00", "2026-11-16T00:00", "week"),
    Case("ko", "삼 개월 전", "2026-08-01T00:00", "2026-09-01T00:00", "month"),
    Case("ko", "일 년 전", "2025-01-01T00:00", "2026-01-01T00:00", "year"),
    Case("ko", "십 년 전", "2016-01-01T00:00", "2017-01-01T00:00", "year"),
    Case("ko", "지난 삼일간", "2026-11-26T00:00", "NOW", "span"),
    Case("ko", "최근 일 년 동안", "2025-11-29T00:00", "NOW", "span"),
    # Seasons and fixed-date holidays.
    Case("ko", "지난 봄", "2026-03-01T00:00", "2026-06-01T00:00", "span"),
    Case("ko", "올해 여름", "2026-06-01T00:00", "2026-09-01T00:00", "span"),
    Case("ko", "작년 겨울", "2025-12-01T00:00", "2026-03-01T00:00", "span"),
    Case("ko", "지난 겨울", "2025-12-01T00:00", "2026-03-01T00:00", "span"),
    Case("ko", "올겨울", "2026-12-01T00:00", "2027-03-01T00:00", "span"),
    Case("ko", "여름에 간 곳", "2026-06-01T00:00", "2026-09-01T00:00", "span", "여름", "간 곳"),
    Case("ko", "크리스마스에 뭐 했지", "2025-12-25T00:00", "2025-12-26T00:00", "day", "크리스마스", "뭐 했지"),
    Case("ko", "작년 크리스마스", "2025-12-25T00:00", "2025-12-26T00:00", "day"),
    Case("ko", "다음 크리스마스", "2026-12-25T00:00", "2026-12-26T00:00", "day"),
    Case("ko", "크리스마스 저녁", "2025-12-25T18:00", "2025-12-26T00:00", "part_of_day"),
    Case("ko", "크리스마스 이브 밤", "2025-12-24T18:00", "2025-12-25T04:00", "part_of_day"),
    Case("ko", "성탄절", "2025-12-25T00:00", "2025-12-26T00:00", "day"),
    Case("ko", "새해 첫날", "2026-01-01T00:00", "2026-01-02T00:00", "day"),
    Case("ko", "삼일절", "2026-03-01T00:00", "2026-03-02T00:00", "day"),
    Case("ko", "광복절에", "2026-08-15T00:00", "2026-08-16T00:00", "day"),
    Case("ko", "한글날", "2026-10-09T00:00", "2026-10-10T00:00", "day"),
    Case("ko", "어린이날", "2026-05-05T00:00", "2026-05-06T00:00", "day"),
    Case("ko", "크리스마스 이후로", "2025-12-25T00:00", "NOW", "span"),
    Case("ko", "크리스마스부터 새해 첫날까지", "2025-12-25T00:00", "2026-01-02T00:00", "span"),
    # Words that only look like time.
    Case("ko", "일이 너무 많아", None, None),
    Case("ko", "월급날이 언제야", None, None),
    Case("ko", "밤나무 아래에서", None, None),
    Case("ko", "그제서야 알았다", None, None),
    Case("ko", "오늘날의 기술", None, None),
    Case("ko", "3일 동안 여행했어", None, None),
    Case("ko", "주말농장", None, None),
    Case("ko", "아침밥 먹었어", None, None),
    Case("ko", "시간이 지난 후에", None, None),
    Case("ko", "3시간 걸렸어", None, None),
    Case("ko", "세월이 빠르다", None, None),
    Case("ko", "오일 교체했어", None, None),
    Case("ko", "엔진 오일 전에 점검했어", None, None),
    Case("ko", "이 일 전에 다른 일을 했어", None, None),
    Case("ko", "이번 일은 어려웠어", None, None),
    Case("ko", "일주일 동안 여행했어", None, None),
    Case("ko", "삼일 동안 여행했어", None, None),
    Case("ko", "지난 이주 노동자 문제", None, None),
    Case("ko", "삼일절 기념식", None, None),
    Case("ko", "여름 휴가 계획", None, None),
    Case("ko", "겨울왕국 봤어", None, None),
    Case("ko", "봄비가 내린다", None, None),
    Case("ko", "크리스마스 선물 뭐 사지", None, None),
    Case("ko", "신정부 출범", None, None),
    Case("ko", "설날에 뭐 했지", "2026-02-17T00:00", "2026-02-18T00:00", "day", "설날", "뭐 했지"),
]

JA = [
    Case("ja", "昨日の会議", "2026-11-28T00:00", "2026-11-29T00:00", "day", "昨日", "会議"),
    Case("ja", "一昨日", "2026-11-27T00:00", "2026-11-28T00:00", "day"),
    Case("ja", "今日", "2026-11-29T00:00", "2026-11-30T00:00", "day"),
    Case("ja", "先週", "2026-11-16T00:00", "2026-11-23T00:00", "week"),
    Case("ja", "今週", "2026-11-23T00:00", "2026-11-30T00:00", "week"),
    Case("ja", "先月", "2026-10-01T00:00", "2026-11-01T00:00", "month"),
    Case("ja", "去年", "2025-01-01T00:00", "2026-01-01T00:00", "year"),
    Case("ja", "3日前に話したこと", "2026-11-26T00:00", "2026-11-27T00:00", "day", "3日前", "話したこと"),
    Case("ja", "三日前", "2026-11-26T00:00", "2026-11-27T00:00", "day"),
    Case("ja", "2週間前", "2026-11-09T00:00", "2026-11-16T00:00", "week"),
    Case("ja", "先週の金曜日", "2026-11-20T00:00", "2026-11-21T00:00", "day"),
    Case("ja", "この前の金曜日", "2026-11-27T00:00", "2026-11-28T00:00", "day"),
    Case("ja", "先週末", "2026-11-21T00:00", "2026-11-23T00:00", "span"),
    Case("ja", "先週の火曜日", "2026-11-17T00:00", "2026-11-18T00:00", "day"),
    Case(
        "ja",
        "先週の火曜日の夜の会議",
        "2026-11-17T18:00",
        "2026-11-18T04:00",
        "part_of_day",
        "先週の火曜日の夜",
        "会議",
    ),
    Case("ja", "昨日の朝", "2026-11-28T06:00", "2026-11-28T12:00", "part_of_day"),
    Case("ja", "午前中", "2026-11-29T00:00", "2026-11-29T12:00", "part_of_day"),
    Case("ja", "午後", "2026-11-29T12:00", "2026-11-29T18:00", "part_of_day"),
    Case("ja", "夕方", "2026-11-28T16:00", "2026-11-28T19:00", "part_of_day"),
    Case("ja", "夜に", "2026-11-28T18:00", "2026-11-29T04:00", "part_of_day"),
    Case("ja", "昨夜", "2026-11-28T18:00", "2026-11-29T04:00", "part_of_day"),
    Case("ja", "今朝", "2026-11-29T06:00", "2026-11-29T12:00", "part_of_day"),
    Case("ja", "今夜", "2026-11-29T18:00", "2026-11-30T04:00", "part_of_day"),
    Case("ja", "午後3時", "2026-11-29T15:00", "2026-11-29T16:00", "hour"),
    Case("ja", "昨日の夜9時", "2026-11-28T21:00", "2026-11-28T22:00", "hour"),
    Case("ja", "3月", "2026-03-01T00:00", "2026-04-01T00:00", "month"),
    Case("ja", "2025年3月", "2025-03-01T00:00", "2025-04-01T00:00", "month"),
    Case("ja", "去年の3月", "2025-03-01T00:00", "2025-04-01T00:00", "month"),
    Case("ja", "2026年11月3日", "2026-11-03T00:00", "2026-11-04T00:00", "day"),
    Case("ja", "11月3日", "2026-11-03T00:00", "2026-11-04T00:00", "day"),
    Case("ja", "先月3日", "2026-10-03T00:00", "2026-10-04T00:00", "day"),
    Case("ja", "月曜日の会議", "2026-11-23T00:00", "2026-11-24T00:00", "day", "月曜日", "会議"),
    Case("ja", "月曜日から", "2026-11-23T00:00", "NOW", "span"),
    Case("ja", "過去3日間", "2026-11-26T00:00", "NOW", "span"),
    Case("ja", "最近3日", "2026-11-26T00:00", "NOW", "span"),
    Case("ja", "11月3日から5日まで", "2026-11-03T00:00", "2026-11-06T00:00", "span"),
    Case("ja", "先週の月曜日から水曜日まで", "2026-11-16T00:00", "2026-11-19T00:00", "span"),
    Case("ja", "昨日の午後", "2026-11-28T12:00", "2026-11-28T18:00", "part_of_day"),
    Case("ja", "今月", "2026-11-01T00:00", "2026-12-01T00:00", "month"),
    Case("ja", "きのうの夜", "2026-11-28T18:00", "2026-11-29T04:00", "part_of_day"),
    Case("ja", "10月5日に", "2026-10-05T00:00", "2026-10-06T00:00", "day"),
    Case("ja", "一週間前", "2026-11-16T00:00", "2026-11-23T00:00", "week"),
    Case("ja", "ここ2週間", "2026-11-15T00:00", "NOW", "span"),
    Case("ja", "土曜日の夜", "2026-11-28T18:00", "2026-11-29T04:00", "part_of_day"),
    Case("ja", "昨日の9時から11時まで", "2026-11-28T09:00", "2026-11-28T11:00", "span"),
    # Kanji numerals.
    Case("ja", "十日前", "2026-11-19T00:00", "2026-11-20T00:00", "day"),
    Case("ja", "二十日前に話したこと", "2026-11-09T00:00", "2026-11-10T00:00", "day", "二十日前", "話したこと"),
    Case("ja", "三ヶ月前", "2026-08-01T00:00", "2026-09-01T00:00", "month"),
    Case("ja", "一年前", "2025-01-01T00:00", "2026-01-01T00:00", "year"),
    Case("ja", "ここ三日間", "2026-11-26T00:00", "NOW", "span"),
    # Seasons and fixed-date holidays.
    Case("ja", "去年の夏", "2025-06-01T00:00", "2025-09-01T00:00", "span"),
    Case("ja", "今年の春", "2026-03-01T00:00", "2026-06-01T00:00", "span"),
    Case("ja", "この冬", "2026-12-01T00:00", "2027-03-01T00:00", "span"),
    Case("ja", "夏に行った場所", "2026-06-01T00:00", "2026-09-01T00:00", "span", "夏", "行った場所"),
    Case("ja", "今夏", "2026-06-01T00:00", "2026-09-01T00:00", "span"),
    Case("ja", "昨冬", "2025-12-01T00:00", "2026-03-01T00:00", "span"),
    Case("ja", "クリスマスに何をした", "2025-12-25T00:00", "2025-12-26T00:00", "day", "クリスマス", "何をした"),
    Case("ja", "去年のクリスマス", "2025-12-25T00:00", "2025-12-26T00:00", "day"),
    Case("ja", "次のクリスマス", "2026-12-25T00:00", "2026-12-26T00:00", "day"),
    Case("ja", "クリスマスイブの夜", "2025-12-24T18:00", "2025-12-25T04:00", "part_of_day"),
    Case("ja", "元日", "2026-01-01T00:00", "2026-01-02T00:00", "day"),
    Case("ja", "お正月に", "2026-01-01T00:00", "2026-01-04T00:00", "span"),
    Case("ja", "大晦日の夜", "2025-12-31T18:00", "2026-01-01T04:00", "part_of_day"),
    Case("ja", "バレンタインデー", "2026-02-14T00:00", "2026-02-15T00:00", "day"),
    Case("ja", "ハロウィン", "2026-10-31T00:00", "2026-11-01T00:00", "day"),
    Case("ja", "クリスマス以降", "2025-12-25T00:00", "NOW", "span"),
    # Words that only look like time.
    Case("ja", "朝日新聞を読んだ", None, None),
    Case("ja", "毎日走っている", None, None),
    Case("ja", "日本の歴史", None, None),
    Case("ja", "夜景がきれい", None, None),
    Case("ja", "徹夜した", None, None),
    Case("ja", "3ヶ月かかった", None, None),
    Case("ja", "三日坊主", None, None),
    Case("ja", "3時間かかった", None, None),
    Case("ja", "日曜大工", None, None),
    Case("ja", "毎朝コーヒーを飲む", None, None),
    Case("ja", "月が綺麗ですね", None, None),
    Case("ja", "昼ごはん", None, None),
    Case("ja", "夏休みの宿題", None, None),
    Case("ja", "春巻きを作った", None, None),
    Case("ja", "冬至", None, None),
    Case("ja", "秋葉原に行った", None, None),
    Case("ja", "メリークリスマス！", None, None),
    Case("ja", "クリスマスケーキを買った", None, None),
    Case("ja", "クリスマスの思い出", None, None),
    Case("ja", "正月休みの予定", None, None),
    Case("ja", "旧正月", "2026-02-17T00:00", "2026-02-18T00:00", "day"),
    Case("ja", "元日本代表の選手", None, None),
    Case("ja", "十日町に行った", None, None),
    Case("ja", "四日市に行った", None, None),
    Case("ja", "一日中寝てた", None, None),
    Case("ja", "日中関係について", None, None),
]

NEW_YORK = ZoneInfo("America/New_York")
NEW_YORK_NOW = datetime(2026, 11, 4, 12, 0, tzinfo=NEW_YORK)  # a Wednesday; DST ended Sunday 1 Nov at 02:00

# The week of 26 Oct – 1 Nov is 169 hours long; its Sunday 25 hours.
DST = [
    Case("en", "last week", "2026-10-26T00:00-04:00", "2026-11-02T00:00-05:00", "week"),
    Case("en", "last Sunday", "2026-11-01T00:00-04:00", "2026-11-02T00:00-05:00", "day"),
    Case("en", "last weekend", "2026-10-31T00:00-04:00", "2026-11-02T00:00-05:00", "span"),
    Case("en", "Saturday night", "2026-10-31T18:00-04:00", "2026-11-01T04:00-05:00", "part_of_day"),
    Case("en", "in the last 3 days", "2026-11-01T00:00-04:00", "NOW", "span"),
    Case("en", "yesterday", "2026-11-03T00:00-05:00", "2026-11-04T00:00-05:00", "day"),
    Case("en", "between October 30 and November 2", "2026-10-30T00:00-04:00", "2026-11-03T00:00-05:00", "span"),
    Case("ko", "지난주 일요일 밤", "2026-11-01T18:00-05:00", "2026-11-02T04:00-05:00", "part_of_day"),
    Case("ja", "先週末", "2026-10-31T00:00-04:00", "2026-11-02T00:00-05:00", "span"),
    Case("en", "this fall", "2026-09-01T00:00-04:00", "2026-12-01T00:00-05:00", "span"),
    Case("en", "last winter", "2025-12-01T00:00-05:00", "2026-03-01T00:00-05:00", "span"),
    Case("en", "Halloween night", "2026-10-31T18:00-04:00", "2026-11-01T04:00-05:00", "part_of_day"),
    Case("ko", "삼일 전", "2026-11-01T00:00-04:00", "2026-11-02T00:00-05:00", "day"),
]

# In the middle of a winter, just after Christmas and New Year's Day: "this winter" is the one going on,
# "last Christmas" the one just past.
WINTER_NOW = datetime(2027, 1, 15, 12, 0, tzinfo=SEOUL)  # a Friday

WINTER = [
    Case("en", "this winter", "2026-12-01T00:00", "2027-03-01T00:00", "span"),
    Case("en", "in winter", "2026-12-01T00:00", "2027-03-01T00:00", "span"),
    Case("en", "last winter", "2025-12-01T00:00", "2026-03-01T00:00", "span"),
    Case("en", "next winter", "2027-12-01T00:00", "2028-03-01T00:00", "span"),
    Case("en", "last summer", "2026-06-01T00:00", "2026-09-01T00:00", "span"),
    Case("en", "Christmas", "2026-12-25T00:00", "2026-12-26T00:00", "day"),
    Case("en", "last Christmas", "2026-12-25T00:00", "2026-12-26T00:00", "day"),
    Case("en", "next Christmas", "2027-12-25T00:00", "2027-12-26T00:00", "day"),
    Case("en", "New Year's Day", "2027-01-01T00:00", "2027-01-02T00:00", "day"),
    Case("ko", "이번 겨울", "2026-12-01T00:00", "2027-03-01T00:00", "span"),
    Case("ko", "올겨울", "2026-12-01T00:00", "2027-03-01T00:00", "span"),
    Case("ko", "지난 크리스마스", "2026-12-25T00:00", "2026-12-26T00:00", "day"),
    Case("ko", "신정", "2027-01-01T00:00", "2027-01-02T00:00", "day"),
    Case("ja", "この冬", "2026-12-01T00:00", "2027-03-01T00:00", "span"),
    Case("ja", "正月", "2027-01-01T00:00", "2027-01-04T00:00", "span"),
    Case("ja", "去年のクリスマス", "2026-12-25T00:00", "2026-12-26T00:00", "day"),
    Case("ja", "大晦日", "2026-12-31T00:00", "2027-01-01T00:00", "day"),
]

UTC_ZONE = ZoneInfo("UTC")
UTC_NOW = datetime(2026, 11, 29, 6, 0, tzinfo=UTC_ZONE)

UTC_CASES = [
    Case("en", "yesterday", "2026-11-28T00:00", "2026-11-29T00:00", "day"),
    Case("en", "last Tuesday night", "2026-11-24T18:00", "2026-11-25T04:00", "part_of_day"),
    Case("en", "this morning", "2026-11-29T06:00", "2026-11-29T12:00", "part_of_day"),
    Case("ko", "어제", "2026-11-28T00:00", "2026-11-29T00:00", "day"),
    Case("ja", "先週", "2026-11-16T00:00", "2026-11-23T00:00", "week"),
]

TABLES: dict[str, tuple[datetime, ZoneInfo, list[Case]]] = {
    "en": (SEOUL_NOW, SEOUL, EN),
    "ko": (SEOUL_NOW, SEOUL, KO),
    "ja": (SEOUL_NOW, SEOUL, JA),
    "dst-new-york": (NEW_YORK_NOW, NEW_YORK, DST),
    "utc": (UTC_NOW, UTC_ZONE, UTC_CASES),
    "winter-seoul": (WINTER_NOW, SEOUL, WINTER),
}


def expected_time(text: str, zone: ZoneInfo, now: datetime) -> datetime:
    """A table time: ``NOW``, an ISO time with an offset, or a local ISO time in ``zone``."""
    if text == "NOW":
        return now
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=zone)


def check(case: Case, now: datetime, zone: ZoneInfo) -> list[str]:
    """What is wrong with how ``case`` is parsed (empty: right)."""
    tp = parse_time(case.query, now, zone)
    problems: list[str] = []
    if case.start is None:
        if tp.range is not None:
            problems.append(f"expected no range, got {tp.range} from {tp.expression!r}")
        return problems
    if tp.range is None:
        return [f"no range (rest {tp.rest!r})"]
    assert case.end is not None
    start, end = expected_time(case.start, zone, now), expected_time(case.end, zone, now)
    if (tp.range.start, tp.range.start.utcoffset()) != (start, start.utcoffset()):
        problems.append(f"start {tp.range.start.isoformat()} != {start.isoformat()}")
    if (tp.range.end, tp.range.end.utcoffset()) != (end, end.utcoffset()):
        problems.append(f"end {tp.range.end.isoformat()} != {end.isoformat()}")
    if case.grain is not None and tp.range.grain != case.grain:
        problems.append(f"grain {tp.range.grain} != {case.grain}")
    if case.expression is not None and tp.expression != case.expression:
        problems.append(f"expression {tp.expression!r} != {case.expression!r}")
    if case.rest is not None and tp.rest != case.rest:
        problems.append(f"rest {tp.rest!r} != {case.rest!r}")
    return problems
