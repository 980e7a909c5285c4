"""Text the rules can match: NFKC + lower case, one character at a time, with a map back to the
original offsets (so the expression is reported as it appears in the query); and number words."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True)
class Normalized:
    """``text`` is the matching form of ``original``; ``origin[i]`` is the original index of ``text[i]``
    (one extra entry, ``len(original)``, so an end offset maps too)."""

    original: str
    text: str
    origin: tuple[int, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Original offsets of the normalized slice ``[start, end)``."""
        if end <= start:
            return self.origin[start], self.origin[start]
        return self.origin[start], self.origin[end - 1] + 1


def normalize(original: str) -> Normalized:
    """Full-width digits and letters become ASCII, ``～`` becomes ``~``, and everything is lower case.
    Control and other odd characters pass through unchanged; they simply match nothing."""
    if original.isascii() or unicodedata.is_normalized("NFKC", original):
        lowered = original.lower()
        if len(lowered) == len(original):  # the common case: offsets do not move
            return Normalized(original, lowered, tuple(range(len(original) + 1)))
    pieces: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(original):
        if char.isascii():
            folded = char.lower()
        else:
            try:
                folded = unicodedata.normalize("NFKC", char).lower()
            except (ValueError, UnicodeError):  # pragma: no cover - lone surrogates normalise fine today
                folded = char
        pieces.append(folded)
        origin.extend([index] * len(folded))
    origin.append(len(original))
    return Normalized(original, "".join(pieces), tuple(origin))


EN_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "ninety": 90,
    "a couple of": 2,
    "couple of": 2,
}
# Longest first, so "a couple of" wins over "a".
EN_NUMBER_PATTERN = (
    r"(?:\d{1,4}|" + "|".join(sorted((word.replace(" ", r"\s+") for word in EN_NUMBERS), key=len, reverse=True)) + ")"
)

KO_NATIVE = {
    "한": 1,
    "두": 2,
    "세": 3,
    "네": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
    "열": 10,
    "스무": 20,
    "석": 3,  # 석 달, 넉 달: three, four months
    "넉": 4,
}
KO_NATIVE_PATTERN = "(?:" + "|".join(sorted(KO_NATIVE, key=len, reverse=True)) + ")"
KO_DAY_COUNTS = {
    "하루": 1,
    "이틀": 2,
    "사흘": 3,
    "나흘": 4,
    "닷새": 5,
    "엿새": 6,
    "이레": 7,
    "여드레": 8,
    "아흐레": 9,
    "열흘": 10,
    "보름": 15,
}

# Sino-Korean numerals (삼일 전, 이십 년 전): digits 일..구 and the multipliers 십, 백, 천.
_KO_SINO_DIGITS = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}
_KO_SINO_MULTIPLIERS = {"십": 10, "백": 100, "천": 1000}
KO_SINO_PATTERN = "[일이삼사오육칠팔구십백천]{1,7}"


def ko_sino_number(text: str) -> int | None:
    """일 .. 구천구백구십구 as written out (십이 12, 이십 20, 백오 105); None when the syllables are no
    well-formed number (이삼, 십십, 일천 is fine)."""
    total, digit, last_multiplier = 0, 0, 10_000
    for char in text:
        if char in _KO_SINO_DIGITS:
            if digit:
                return None
            digit = _KO_SINO_DIGITS[char]
        elif char in _KO_SINO_MULTIPLIERS:
            multiplier = _KO_SINO_MULTIPLIERS[char]
            if multiplier >= last_multiplier:
                return None
            total += (digit or 1) * multiplier
            digit, last_multiplier = 0, multiplier
        else:
            return None
    return (total + digit) or None


_KANJI_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
KANJI_NUMBER_PATTERN = "[〇零一二三四五六七八九十百]{1,5}"


def kanji_number(text: str) -> int | None:
    """一 .. 九百九十九 (十, 百 as multipliers); None when it is not a number."""
    total, current = 0, 0
    for char in text:
        if char in _KANJI_DIGITS:
            current = current * 10 + _KANJI_DIGITS[char] if current else _KANJI_DIGITS[char]
        elif char == "十":
            total += (current or 1) * 10
            current = 0
        elif char == "百":
            total += (current or 1) * 100
            current = 0
        else:
            return None
    return total + current


def number(token: str) -> int | None:
    """A count written as digits, English words, Korean native numerals or kanji."""
    token = " ".join(token.split())
    if token.isdigit():
        return int(token)
    if token in EN_NUMBERS:
        return EN_NUMBERS[token]
    if token in KO_NATIVE:
        return KO_NATIVE[token]
    if token in KO_DAY_COUNTS:
        return KO_DAY_COUNTS[token]
    return kanji_number(token)
