"""Time words written with a typo ("yesturday", "tuesdya", "어재"): found here, read by the rules after
correction, and always reported in :attr:`TimeParse.notes` ("read 'yesturday' as yesterday").

English: within one edit (optimal string alignment) for words of 5–7 letters, two for longer ones, the
first letter right, words of four letters or fewer never corrected, and real words near a time word
("sundae", "mourning", "Frida") kept; chat spellings ("yday", "tmrw") are read the same way. Korean:
one commonly confused vowel or final consonant in a word followed only by a particle ("어재는",
"저녘에"), listed real words kept. Japanese: one kana in a hiragana time word. The rules decide whether
the corrected text means a time: a correction that makes no expression is dropped and never reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from core.timeparse import lang_ko

EN_WORDS = (
    "yesterday",
    "today",
    "tomorrow",
    "tonight",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "january",
    "february",
    "august",
    "september",
    "october",
    "november",
    "december",
    "morning",
    "afternoon",
    "evening",
    "weekend",
    "fortnight",
    "midnight",
    "christmas",
    "halloween",
    "thanksgiving",
)
# Real words (and a few names) near a time word: never corrected.
EN_KEEP = frozenset(
    {
        "sundae",
        "sundaes",
        "sunday's",
        "toady",
        "toddy",
        "mourning",
        "morninglory",
        "frida",
        "fridge",
        "monda",
        "munday",
        "evenings",
        "evenly",
        "augusta",
        "augustus",
        "octopus",
        "weekends",
        "weekender",
        "tonights",
        "todays",
        "midnights",
        "saturn",
        "satyr",
        "thurs",
        "tuesdays",
        "mondays",
        "fridays",
        "sundays",
        "wednesdays",
        "thursdays",
        "saturdays",
        "mornings",
        "afternoons",
        "tomorrows",
        "yesterdays",
    }
)
_EN_TOKEN = re.compile(r"[a-z]+(?:['’][a-z]+)?")
_BY_HEAD: dict[str, tuple[str, ...]] = {}
for _word in EN_WORDS:
    _BY_HEAD[_word[0]] = (*_BY_HEAD.get(_word[0], ()), _word)


def distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance of ``a`` and ``b``; ``limit + 1`` as soon as it must exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, previous2[j - 2] + 1)
            current[j] = value
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def _allowed(word: str) -> int:
    return 2 if len(word) >= 8 else 1


# Short spellings of chat (read with a note too, as they are not the word itself).
EN_SHORT = {"yday": "yesterday", "ystdy": "yesterday", "tmrw": "tomorrow", "tmrrw": "tomorrow", "tonite": "tonight"}


@lru_cache(maxsize=8192)
def en_correction(token: str) -> str | None:
    """The English time word ``token`` (lower case) is a typo or a chat spelling of, or None."""
    if token in EN_SHORT:
        return EN_SHORT[token]
    if len(token) < 5 or token in EN_KEEP or not token.isalpha():
        return None
    best: tuple[int, str] | None = None
    for word in _BY_HEAD.get(token[0], ()):
        if word == token:
            return None
        if token == word + "s":
            return None
        limit = _allowed(word)
        if len(word) < 5 or abs(len(word) - len(token)) > limit:
            continue
        found = distance(token, word, limit)
        if found <= limit and (best is None or found < best[0]):
            best = (found, word)
    return best[1] if best else None


# Korean ---------------------------------------------------------------------------------------------

KO_WORDS = (
    "어제",
    "오늘",
    "내일",
    "모레",
    "그제",
    "그저께",
    "엊그제",
    "어젯밤",
    "지난주",
    "이번주",
    "다음주",
    "저번주",
    "지난달",
    "이번달",
    "다음달",
    "작년",
    "재작년",
    "올해",
    "내년",
    "아침",
    "저녁",
    "새벽",
    "주말",
    "방금",
    "오전",
    "오후",
    "월요일",
    "화요일",
    "수요일",
    "목요일",
    "금요일",
    "토요일",
    "일요일",
)
KO_KEEP = frozenset(
    {
        "모래",
        "모르",
        "네일",
        "나일",
        "내열",
        "아제",
        "아재",
        "그자",
        "아참",
        "오호",
        "우후",
        "오존",
        "오진",
        "주막",
        "주밀",
        "오는",
        "언제",
        "아치",
        "오점",
        "내인",
        "방그",
        "그저",
        "어지",
        "주마",
    }
)
# What may follow a Korean time word inside its word: a particle, or a part of the day (어재밤).
_KO_PARTICLE_TAILS = frozenset(("", *lang_ko.PARTICLES, "밤", "아침", "저녁", "오후", "오전", "새벽"))
_HANGUL_RUN = re.compile(r"[가-힣]+")
_KO_BY_LENGTH: dict[int, tuple[str, ...]] = {}
for _word in KO_WORDS:
    _KO_BY_LENGTH[len(_word)] = (*_KO_BY_LENGTH.get(len(_word), ()), _word)


def _jamo(syllable: str) -> tuple[int, int, int]:
    code = ord(syllable) - 0xAC00
    return code // 588, (code % 588) // 28, code % 28


# The confusions behind most Korean misspellings (jamo indices of the Unicode syllable blocks):
# vowels ㅐ/ㅔ, ㅒ/ㅖ, ㅙ/ㅚ/ㅞ, ㅜ/ㅠ; final consonants ㄱ/ㅋ, ㄱ/ㄲ, ㅅ/ㅆ, ㄷ/ㅅ, ㅂ/ㅍ. Any other
# vowel or consonant change makes too many real words (이제 "now" and 어제, 예전 and 오전, 언제 "when").
_KO_VOWELS = {frozenset(pair) for pair in ((1, 5), (3, 7), (10, 11), (10, 15), (11, 15), (13, 17))}
_KO_FINALS = {frozenset(pair) for pair in ((1, 24), (1, 2), (19, 20), (7, 19), (17, 26))}


def ko_near(head: str, word: str) -> bool:
    """``head`` differs from ``word`` (same length) in exactly one commonly confused vowel or final
    consonant (어재 for 어제, 저녘 for 저녁, 올헤 for 올해, 지난쥬 for 지난주)."""
    differences = 0
    for a, b in zip(head, word, strict=True):
        if a == b:
            continue
        ja, jb = _jamo(a), _jamo(b)
        if ja[0] != jb[0]:
            return False
        if ja[1] != jb[1]:
            if frozenset((ja[1], jb[1])) not in _KO_VOWELS:
                return False
            differences += 1
        if ja[2] != jb[2]:
            if frozenset((ja[2], jb[2])) not in _KO_FINALS:
                return False
            differences += 1
        if differences > 1:
            return False
    return differences == 1


@lru_cache(maxsize=8192)
def ko_correction(token: str) -> tuple[int, str] | None:
    """(length of the misspelt head, the Korean time word) when ``token`` is a time word with a typo
    followed only by a particle (or another part of the day), else None."""
    for length, words in _KO_BY_LENGTH.items():
        head, tail = token[:length], token[length:]
        if len(head) < length or tail not in _KO_PARTICLE_TAILS or head in KO_KEEP or head in KO_WORDS:
            continue
        for word in words:
            if ko_near(head, word):
                return length, word
    return None


# Japanese -------------------------------------------------------------------------------------------

JA_WORDS = (
    "きのう",
    "おととい",
    "あさって",
    "ゆうべ",
    "せんしゅう",
    "らいしゅう",
    "こんしゅう",
    "せんげつ",
    "きょねん",
    "ほんじつ",
)
JA_KEEP = frozenset({"きよう", "きのこ", "ゆうべん"})
_HIRAGANA_RUN = re.compile(r"(?<![\u3041-\u309f])[\u3041-\u309f]{3,}")
_JA_TAILS = ("", "の", "は", "に", "も", "から", "まで", "、", "。")


@lru_cache(maxsize=4096)
def ja_correction(run: str) -> tuple[int, str] | None:
    for word in JA_WORDS:
        head, tail = run[: len(word)], run[len(word) :]
        if head == word or head in JA_KEEP or (tail and not tail.startswith(_JA_TAILS)):
            continue
        if len(head) == len(word) and distance(head, word, 1) == 1:
            return len(word), word
    return None


# The corrections of a text --------------------------------------------------------------------------


@dataclass(frozen=True)
class Correction:
    """``text[start:end]`` (normalized offsets) read as ``word``."""

    start: int
    end: int
    written: str
    word: str


def corrections(text: str, languages: tuple[str, ...]) -> list[Correction]:
    """Every probable typo of a time word in the normalized ``text``, in order."""
    found: list[Correction] = []
    if "en" in languages:
        for token in _EN_TOKEN.finditer(text):
            word = en_correction(token.group(0))
            if word is not None:
                found.append(Correction(token.start(), token.end(), token.group(0), word))
    if "ko" in languages:
        for run in _HANGUL_RUN.finditer(text):
            hit = ko_correction(run.group(0))
            if hit is not None:
                length, word = hit
                found.append(Correction(run.start(), run.start() + length, run.group(0)[:length], word))
    if "ja" in languages:
        for run in _HIRAGANA_RUN.finditer(text):
            hit = ja_correction(run.group(0))
            if hit is not None:
                length, word = hit
                found.append(Correction(run.start(), run.start() + length, run.group(0)[:length], word))
    return sorted(found, key=lambda item: item.start)


def apply(text: str, fixes: list[Correction]) -> tuple[str, list[tuple[int, int, int, int]]]:
    """``text`` with each correction made, and the segments ``(new_start, new_end, old_start, old_end)``
    of the replaced words, to map offsets back."""
    pieces: list[str] = []
    segments: list[tuple[int, int, int, int]] = []
    cursor, length = 0, 0
    for fix in fixes:
        pieces.append(text[cursor : fix.start])
        length += fix.start - cursor
        segments.append((length, length + len(fix.word), fix.start, fix.end))
        pieces.append(fix.word)
        length += len(fix.word)
        cursor = fix.end
    pieces.append(text[cursor:])
    return "".join(pieces), segments


def map_back(position: int, segments: list[tuple[int, int, int, int]], at_end: bool) -> int:
    """The offset in the uncorrected text of ``position`` in the corrected one."""
    shift = 0
    for new_start, new_end, old_start, old_end in segments:
        if position < new_start or (at_end and position == new_start):
            break
        if position < new_end or (at_end and position == new_end):
            return old_end if at_end else old_start
        shift = old_end - new_end
    return position + shift
