"""Korean guards the rule tables share.

Particles attach to the word (어제는, 3월에, 밤에), so a rule does not need a word end; instead the
short words that also begin other words are guarded: 밤 (night, but also chestnut: 밤나무, 군밤),
낮 (낮잠), 오늘 (오늘날 "nowadays"), 그제 (그제야 "only then"), 주말 (주말농장), the parts of the day
(아침밥, 저녁노을) and "N시" (3시간 is a duration). Such a word counts only when what follows it in
the same word is a particle (에, 에는, 부터, 이었 ...). A bare 일 ("work", "day") or 월 is never a
date: days of the month need 월 before them (11월 3일) or a month beside them (지난달 3일), and
"3일 동안 여행" (a three-day trip) is no range. A part of day alone needs a particle (아침에, 밤에) or
a day beside it (어제 저녁, 오늘 밤).
"""

from __future__ import annotations

import re

from core.timeparse.rules import Scan

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
