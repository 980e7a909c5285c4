"""How the temporal backbone reads what people say, as ``reverie when --help`` shows it.

One text for every interface (the CLI's help; the TUI and the docs may show the same), kept beside the
rules it describes. ``\\b`` lines tell click not to rewrap the block that follows.
"""

from __future__ import annotations

WHEN_HELP = """Show how QUERY's time expression is understood: its range [start, end) in your
zone, its grain (hour, part_of_day, day, week, month, year, span), the rest of the query that is
ranked, and notes: a typo read as a time word ("read 'yesturday' as yesterday"), or time-like
words that could not be read (then the search is not bounded by them).

\b
Conventions (English, Korean, Japanese)
 Looking back  Reverie searches what happened: a weekday alone is the
               latest on or before today ("Monday" on a Wednesday is two
               days ago), "last Monday" the latest before today, "this/next
               Monday" the one in this/next week; a month, season, quarter
               or holiday alone is the latest that has begun; a date
               without a year the latest on or before today; an hour alone
               the latest that has begun; a day of the month alone ("the
               3rd", 15일에, 15日に) the latest that has begun. Explicit
               future words go forward: tomorrow, next ..., 내일, 다음 주,
               明日, 来週, "in 2 hours", "3 weeks from now" (that week),
               "a week from today" (that day), "in 3 days", 3일 후, 3日後,
               글피, しあさって, "this coming Monday" (the next one).
 Weeks         Monday to Sunday. "last week" is the calendar week before
               this one; "the last 2 weeks", "past 2 weeks", 지난 2주간,
               過去2週間 are rolling: from the midnight 14 days back to now;
               "2 weeks ago" is that calendar week; "the past week" is the
               7 days up to now. "the first week of March", 지난달 첫째 주:
               days 1-7 (the last week: the last 7 days of the month).
               ISO weeks ("W10", "week 10 of 2026", 10주차, 第10週): the
               ISO week (week 1 holds the year's first Thursday); alone the
               latest that has begun. 3월 2주차, 3月第2週: days 8-14.
               "two weekends ago", "the weekend before last", 2주 전 주말:
               the weekend before last weekend; "midweek": Wed-Thu;
               "so far this week", "month to date": from its start to now.
               금주, 전주, 차주: this, last, next week; alone only before
               까지/부터/내/대비 or beside a day (금주 월요일), since they
               are also words (禁酒, 全州, 車主).
               "a week and a half ago", 1주 반 전, 1週間半前: the 7 days
               around that moment (14 to 7 days back); "a month and a half
               ago", 한 달 반 전, 一ヶ月半前: from the same day two months
               back to the same day one month back. "half a month ago":
               the day 15 back (as 半月前, 보름 전); "half a week ago": the
               days 3 and 4 back.
 Parts of day  dawn 00-06, morning 06-12, noon/lunch 11-14, afternoon
               12-18, evening 18-24, night 18-04 (a night belongs to the day
               it starts: "Tuesday night" ends Wed 04:00), late night 22-05.
               오후/午後 before an hour means p.m. Meals: breakfast is the
               morning, dinner and supper the evening, 점심 때, 昼休み the
               noon/lunch hours. mid-morning 09-11, late morning 09-12,
               early afternoon 12-15, late afternoon 16-19, late evening
               21-24; 이른 아침 05-09, 늦은 밤 22-05. "late on Tuesday",
               "late yesterday": that day's night (18-04); "early Monday":
               its 00-12; 夜遅く: late night.
 Hours         "3pm" is 15:00-16:00; 1-6 without a.m./p.m. is p.m. ("at
               4:23", 세 시); "15:30" and "09:05" as written; "a quarter to
               noon" 11:45; "3-4pm" 15:00-16:00; "from 9:30 to 11"; "by
               2pm", 2시까지, 2時までに: midnight to 14:00; "after 6pm": 18:00
               to midnight; "since 2pm", 2시 이후: 14:00 to now. Military
               times: four digits HHMM (00-23, 00-59) after "at" ("at
               1530"), with h/hours ("1530h", "0900 hours") or in a
               from/to range are a clock time; alone they are a number,
               and after in/by/since/from a 19xx-21xx number is a year
               ("in 2000", "since 2020"). A zone after a time ("3pm PST",
               "9am UTC", "14:05 KST"): the latest such moment, shown in
               your zone (PST/PDT both mean the Pacific clock). 정오 10분
               전, 正午10分前: 11:50; "midnight last night": the 00:00
               inside that night; "9ish": like "at 9". "half three"
               (British: half past three) is read as "at three" is: 15:30;
               "five to ten" (9:55) after "at" or beside a day ("five to
               ten yesterday"); alone it is as often a count. "7p",
               "7:30p", "7 p m", "at 9a" as 7pm, 7:30pm, 7pm, 9am (a glued
               "a" needs minutes or "at": "room 7a" is a name). 3시부터
               5시(까지), 오전 9시부터 오후 5시까지, 3時から5時(まで/の間):
               15:00-17:00 (without an end, 3시부터 is "since").
 Now           now, 지금, 今: the current hour; just now, 방금, たった今: the
               last hour; 아까, 조금 전, さっき: the last 3 hours; "20
               minutes ago", 20분 전, 20分前: the hour around that moment;
               "this time yesterday", 어제 이맘때, 昨日の今頃: the hour around
               this time a day back; "this time last year": the week
               around this date a year back. "two and a half hours ago",
               세 시간 반 전, 1時間半前: the hour around that moment; "the
               last hour", "the last 30 minutes": elapsed time up to now.
               3시 10분 전, 3時10分前: ten to three (2:50); 3시 전에, 3時前:
               by three. "3 days back", "an hour or so ago", 30분쯤 전,
               30分ほど前 as "ago"; 少し前, ちょっと前: the last 3 hours.
               "30 seconds ago", 30초 전, 30秒前: the minute around that
               moment; "the last 30 seconds", 지난 30초, 過去30秒: elapsed
               time up to now.
 Days          엊그제: yesterday and the day before; the other day, 先日:
               the 7 days before today; a few days ago, 며칠 전, 数日前: 2-5
               days ago (weeks, months and years alike; a few hours ago:
               1-5 hours back). "the last few days", 최근 며칠, ここ数日:
               rolling, the last 5 days up to now (weeks and months
               alike; "the last couple of days": 2). "a week ago today":
               that very day; "two Mondays ago": the Monday before last
               Monday; "the last 3 weekends": from the Saturday of the
               third latest weekend that has begun up to now. "2 or 3 days
               ago", 이삼 일 전, 二、三日前: both days (weeks, months, years
               alike); "Tuesday before last": the one before last Tuesday.
               "the week of March 3", "Christmas week": the Monday-to-Sunday
               week that holds that day. "the night of the 5th", 5일 밤,
               5日の夜: that part of the latest 5th that has begun.
               みっか前, ふつか前, 사흘 전, 나흘 전: day counts in kana/hangul.
               요전날, 일전에, この間, "the other night": as "the other day".
               "Tuesday the 3rd": the latest Tuesday that is a 3rd.
               "the third of May", "May the third", "the twenty-first of
               June": that day (a month after a lower-case ordinal word
               needs "the" or "on": "we march first" is no date).
               Abbreviated weekdays: "sat night", "fri morning", "thurs
               evening" (before a part of the day), "fri 3pm", "on fri",
               "since Tues"; "sat", "sun" and "wed" are words too ("I sat
               down", "we sat at night"): alone only as "on Sat", "since
               Sun" (a capital), and right before the part of the day.
 Until         "until yesterday", "up to last week", "till Friday", 어제까지,
               昨日まで: open at the start, up to the end of that range:
               the range starts on 1 January 1970 (before any log) and is
               shown as "… – Tue 10 Mar". "since Monday", 지난주부터,
               先週から: from its start to now. An hour keeps its day:
               "until 3pm", "up to 3pm", 2시까지, 3時まで: midnight to that
               hour. "through" is left out ("what she went through").
 Anchored      relative words followed by "on", "as of" or "as mentioned on"
               and a date with its year, or after 2023년 11월 6일 기준 /
               2023年11月6日時点で, are read as if today were that date:
               "last week, as of 6 November 2023" is the calendar week
               before the one holding it, "yesterday, as mentioned on
               November 6, 2023" 5 November; "last Friday, on 23 January
               2022" the Friday before that date, or the date itself when
               it is a Friday. A bare comma does not anchor ("yesterday,
               5 May 2023" may name one day twice). 2023年11月6日の前の週 /
               の翌週, 2023년 11월 6일 전날 / 다음 날: the 7 days (or the day)
               before or after it.
 Seasons       meteorological, northern hemisphere: spring Mar-May, summer
               Jun-Aug, autumn Sep-Nov, winter Dec-Feb (a winter belongs to
               the year it starts in).
 Quarters      calendar quarters (Q1 Jan-Mar) and halves (상반기, 上半期,
               "the first half of 2025"): this/last quarter, Q3 2025, 작년
               4분기, 今四半期.
 Edges         beginning/middle/end of a year: Jan-Feb / May-Aug / Nov-Dec;
               of a month: days 1-10 / 11-20 / 21-end (초순/중순/하순,
               上旬/中旬/下旬); of a week: Mon-Tue / Wed-Thu / Fri-Sun.
               "early/mid/late March" is all of March, but "early/mid/late
               2019" (and "late last year") are thirds: Jan-Apr / May-Aug /
               Sep-Dec; "early/mid/late 90s", 90년대 초반/중반/후반,
               90年代前半/半ば/後半: 1990-93 / 1993-96 / 1996-99 (ends
               included). "the last day of the month", 말일, 最終日: that day.
 Holidays      fixed ones (Christmas, 광복절, 元日) and moving ones computed
               per year: Easter, Thanksgiving, Mother's Day, 설날, 추석 (lunar
               calendar), 旧正月, 成人の日, 春分の日/秋分の日 and 춘분/추분
               (the almanac formula, 1900-2099); 설 연휴 and 추석 연휴 are 3
               days. Holiday weekends: "Labor Day weekend" Sat-Mon, "Easter
               weekend" Good Friday-Easter Monday, "Thanksgiving weekend"
               Thu-Sun; 年末年始: 29 Dec - 3 Jan.
 Years         "in 1987", 87년에, 1987年に: that year (a bare 1987 is a
               number); two-digit years (12년에, "back in '98", 5/3/87,
               "May 3, '87") are 20yy unless that is more than a year
               ahead, else 19yy (5/3/87 is 1987); decades: "the
               90s", "the nineties", "the nineteen-nineties", 90년대, 90年代.
               "3 months ago", 3개월 전, 3ヶ月前: the calendar month that
               holds the same day 3 months back (August, said in November;
               it always holds the day meant); "2 years ago", 2년 전,
               2年前: that calendar year; "3 months ago today": that very
               day.
               Japanese eras: 令和 (2019 = 元年), 平成 (1989), 昭和 (1926),
               大正 (1912), with month and day (平成31年4月30日). "a decade
               ago": the year ten back; "half a year ago", 반년 전, 半年前:
               the month six back; "a year and a half ago", 1년 반 전,
               1年半前: the month 18 back.
               "2023-2024", "2019-21": both years. 2022年度, 令和7年度,
               今年度, 昨年度: the Japanese fiscal year, 1 April to 31 March.
               "FY2023", "FY23", "fiscal 2023", "last fiscal year", 2023
               회계연도: the fiscal year that starts on the first of the
               month timeparse.fiscal_year_start (config.toml; default 1,
               January: the calendar year). With another month, FY2023 is
               the one that ends in 2023 (October: Oct 2022 - Sep 2023) and
               2023 회계연도 the one that starts in 2023. Centuries: "the
               19th century", 19세기, 19世紀 are 1800-1899; "last century" the
               1900s; "this decade" the 2020s, "last decade" the 2010s, "the
               past decade" the 10 years up to now. 十数年前, 십여 년 전: 11-19
               years back. 5.3.2026 is 5 March (day first with dots); 3/5 is
               March 5 (month first with slashes).
 Repeats       "every Monday", "on weekends", 매주 월요일, 월요일마다, 毎朝,
               毎週金曜日 are a set, not one time: not read as a range (a
               habit is searched over all time), and a note says so.
 Not a time    3월호, 3月号, 先月号, "the March 2024 issue" (a magazine's
               issue), 3월생, 3月生まれ (born in March): no range.
 Vague         recently, lately, these days, 요즘, 요새, 最近, 近頃: no
               honest range; the search is not bounded and the note says
               the word could not be read as a time.
 DST           boundaries are wall-clock times in the zone, so a day across
               a change is 23 or 25 hours; "3 hours ago" and "the last 24
               hours" are elapsed time.

\b
Examples
  reverie when "what did we decide last Tuesday night?"
  reverie when --now 2026-11-29T15:00 --tz Asia/Seoul "지난주 화요일 밤"
  reverie when --json "yesturday at 3pm"
"""
