"""Japanese guards and numerals the rule tables share.

Japanese has no spaces, so the guards look at the characters around a match. A one-kanji part of the
day (朝, 昼, 晩, 夜) counts only when no other kanji is glued to it (朝日新聞, 朝食, 毎朝, 夜景, 徹夜
are words, not times), unless that kanji belongs to another time word (昨日夜); alone it also needs a
particle after it (朝に, 夜は). 日中 is guarded the same way (一日中 is "all day", 日中関係 "Japan–China
relations"). 月 is a month only after a number (3月), so 月曜日 is Monday and 今月
this month; 日 is a day of the month only beside a month (11月3日, 先月3日) or as the end of a range
(3日から5日まで), so 三日坊主 and 毎日 are no dates. 3時間 and 3ヶ月 are durations, not times. Hiragana
day words (きのう, きょう) count only when a particle or a non-kana character follows (きょうだい is
"siblings").
"""

from __future__ import annotations

import re

from core.timeparse.rules import Scan
from core.timeparse.text import KANJI_NUMBER_PATTERN, number

_KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff々]")


_HIRAGANA = re.compile(r"[\u3041-\u309f]")


_KANA_PARTICLES = (
    "は",
    "に",
    "の",
    "も",
    "が",
    "を",
    "から",
    "まで",
    "で",
    "こそ",
    "って",
    "ね",
    "よ",
    "か",
    "、",
    "。",
)


_PART_PARTICLES = ("に", "は", "も", "から", "まで", "ごろ", "頃", "中", "、", "。", ",")


def kanji_at(view: Scan, index: int) -> bool:
    return 0 <= index < len(view.text) and bool(_KANJI.match(view.text[index]))


def kanji_bounded(view: Scan, found: re.Match[str]) -> bool:
    """No kanji glued before or after, unless it belongs to another time word."""
    start, end = found.start(), found.end()
    if kanji_at(view, start - 1) and start not in view.ends:
        return False
    return not (kanji_at(view, end) and end not in view.starts)


def kana_bounded(view: Scan, found: re.Match[str]) -> bool:
    """No hiragana glued before, and after it a particle or no hiragana (きょうだい is "siblings")."""
    start, end = found.start(), found.end()
    if start > 0 and _HIRAGANA.match(view.text[start - 1]):
        return False
    rest = view.text[end : end + 4]
    return not rest or not _HIRAGANA.match(rest[0]) or rest.startswith(_KANA_PARTICLES)


SINCE_WORDS = ("以降", "以来")


def particle_follows(view: Scan, end: int) -> bool:
    """Nothing but spaces, a particle of time (に, は, から, ごろ ...) or 以降 / 以来 after ``end``."""
    rest = view.text[end : end + 3]
    return not rest.strip() or rest.startswith(_PART_PARTICLES) or rest.startswith(SINCE_WORDS)


def kanji_int(token: str) -> int:
    value = number(token)
    if value is None:
        raise ValueError(token)
    return value


KANJI_DIGITS = rf"\d{{1,2}}|{KANJI_NUMBER_PATTERN}"
