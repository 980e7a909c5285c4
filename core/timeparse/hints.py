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
        r"|recently|lately|a\s+while\s+back|way\s+back|back\s+then|the\s+other\s+week)(?!\w)",
        re.IGNORECASE,
    ),
    "ko": re.compile(
        r"(?:몇|오래|얼마|한참|수|\d+\s*(?:분|초))\s*[가-힣]{0,3}\s*(?:전에|전|후에|후)(?![가-힣])"
        r"|(?<![가-힣])(?:최근|요즘|요즈음|예전|얼마\s*전)(?=에|엔|에는|$|\s|[?.!,])"
    ),
    "ja": re.compile(
        r"(?:数|何|しばらく|ずっと|かなり|少し|ちょっと|\d+\s*(?:分|秒))[\u3040-\u30ff\u4e00-\u9fff]{0,3}前"
        r"|最近|この前|この間|以前"
    ),
}


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
