"""Time-like words the rules could not read ("a while ago", "몇 주 전", "しばらく前", "at half-ish"):
reported in :attr:`TimeParse.notes` so the person knows the search was not bounded by them.

A cue is a word that almost always belongs to a time expression ("ago", "o'clock", 전 after a count,
前 after a vague count) or is a vague time word no range can honestly stand for ("recently", 요즘,
最近). When a cue lies outside every expression that was read, the note names it with the words just
before it, so the person knows the search was not bounded by it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_CUES = {
    "en": re.compile(
        r"(?<!\w)(?:(?:[a-z0-9']+\s+){0,2}(?:ago|hence|o'clock|fortnights?)"
        r"|(?:\d+|one|two|three|four|five|ten|twenty|thirty)\s*(?:minutes?|mins?|seconds?|secs?)\s+ago"
        r"|recently|lately|these\s+days|nowadays|a\s+while\s+back|way\s+back|back\s+then|the\s+other\s+week)(?!\w)",
        re.IGNORECASE,
    ),
    "ko": re.compile(
        r"(?:몇|오래|얼마|한참|수|\d+\s*(?:분|초))\s*[가-힣]{0,3}\s*(?:전에|전|후에|후)(?![가-힣])"
        r"|(?<![가-힣])(?:최근|요즘|요즈음|요새|예전|얼마\s*전)(?=에|엔|에는|$|\s|[?.!,])"
    ),
    "ja": re.compile(
        r"(?:数|何|しばらく|ずっと|かなり|少し|ちょっと|\d+\s*(?:分|秒))[\u3040-\u30ff\u4e00-\u9fff]{0,3}前"
        r"|最近|この前|この間|以前|近頃|この頃|このところ"
    ),
}


_EN_REPEATED = (
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekday|weekend|weeknight|day|night|morning|"
    r"afternoon|evening|week|month|year|quarter|summer|winter|spring|fall|autumn|christmas|easter|birthday"
)
# A time that repeats is a set, not one range: "every Monday", 매주 월요일, 毎週月曜日. It is not read as
# a range (a habit is asked about over all time); the note says why.
_REPEATS = {
    "en": re.compile(
        rf"(?<!\w)(?:(?:every|each)\s+(?:other\s+|single\s+)?(?:{_EN_REPEATED})"
        r"|(?:every|each)\s+(?:\d{1,3}|two|three|four|five|six|ten)\s+(?:days|weeks|months|years|hours)"
        r"|(?:on|at|over|during)\s+(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends|weeknights))(?!\w)",
        re.IGNORECASE,
    ),
    "ko": re.compile(
        r"(?<![가-힣])(?:매주\s*[월화수목금토일]요일|매(?:일|주|달|월|년|해)(?:\s*(?:아침|저녁|밤))?"
        r"|[월화수목금토일]요일\s*마다|주말\s*마다|(?:아침|저녁|밤|점심)\s*마다)(?![가-힣])"
    ),
    "ja": re.compile(
        r"毎(?:週|月|年|日|朝|晩|夜)(?:の?[月火水木金土日]曜日?)?|[月火水木金土日]曜日?(?:ごと|毎)に?|週末ごとに?"
    ),
}


# A repeat needs one of these (a cheap test before the expressions above, run on every query).
_REPEAT_NEEDS = {"en": ("every", "each", "days", "weekends", "weeknights"), "ko": ("매", "마다"), "ja": ("毎", "ごと")}


def repeating(text: str, languages: tuple[str, ...]) -> list[tuple[int, int]]:
    """Where ``text`` names a time that repeats ("every Monday", "on weekends", 매주 월요일, 毎朝)."""
    found: list[tuple[int, int]] = []
    lowered = text.lower()
    for lang in languages:
        pattern = _REPEATS.get(lang)
        if pattern is not None and any(literal in lowered for literal in _REPEAT_NEEDS[lang]):
            found.extend((hit.start(), hit.end()) for hit in pattern.finditer(text))
    return sorted(found)


def unread(text: str, spans: Iterable[tuple[int, int]], languages: tuple[str, ...]) -> list[str]:
    """Cues in ``text`` (the query as written) outside every ``(start, end)`` span, each as written."""
    taken = list(spans)
    found: list[tuple[int, str]] = []
    for lang in languages:
        pattern = _CUES.get(lang)
        if pattern is None:
            continue
        for hit in pattern.finditer(text):
            if any(hit.start() < end and start < hit.end() for start, end in taken):
                continue
            found.append((hit.start(), hit.group(0).strip()))
    return [snippet for _, snippet in sorted(found)]
