"""Seasons: "last summer", "in the spring of 2025", 지난 봄, 올여름, 去年の夏, 今春.

Seasons are meteorological and northern-hemisphere (winter is December – February and belongs to the
year it starts in); the range is a ``span`` from midnight to midnight in the person's zone, and which
occurrence is meant is read by :mod:`core.timeparse.annual`. A season name alone is read like a month
name: it needs last/this/next, a preposition or particle of time, or a time beside it, so "Summer
said", "the fall of Rome", 여름옷, 겨울왕국, 夏休み and 秋葉原 stay words.
"""

from __future__ import annotations

import re

from core.timeparse import lang_ja, lang_ko
from core.timeparse.annual import EN_MODE, JA_MODE, KO_MODE, mode_of
from core.timeparse.pieces import AnnualP, Context, Piece, YearP
from core.timeparse.rules import START, STOP, Rule, Scan, rule

SEASONS: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "spring": ((3, 1), (6, 1)),
    "summer": ((6, 1), (9, 1)),
    "autumn": ((9, 1), (12, 1)),
    "winter": ((12, 1), (3, 1)),
}
_NAMES = {
    "spring": "spring",
    "summer": "summer",
    "autumn": "autumn",
    "fall": "autumn",
    "winter": "winter",
    "봄": "spring",
    "여름": "summer",
    "가을": "autumn",
    "겨울": "winter",
    "春": "spring",
    "夏": "summer",
    "秋": "autumn",
    "冬": "winter",
}
_JA_YEAR = {"今": None, "昨": -1, "来": 1}


def season(word: str, mode: str = "bare") -> AnnualP:
    name = _NAMES[word]
    start, end = SEASONS[name]
    return AnnualP(name, start, end, mode)


def _short_year(value: int, ctx: Context) -> int:
    return 2000 + value if 2000 + value <= ctx.today.year + 1 else 1900 + value


def _build(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    return (season(found.group("season"), mode_of(found.group("mode"))),)


# English ------------------------------------------------------------------------------------------

_EN_PREP_BEFORE = re.compile(
    r"(?<![a-z])(?:in|during|over|since|through|throughout|until|till|by|before|after|from|around|all|"
    r"early|late|mid|that|last|this|next)[\s-]+(?:the\s+)?$"
)
_EN_OF_NOT_YEAR = re.compile(r"\s+of\s+(?!(?:19|20|21)\d\d(?!\d))")


def _en_guard(view: Scan, found: re.Match[str]) -> bool:
    return _EN_OF_NOT_YEAR.match(view.text, found.end()) is None


def _en_strong(view: Scan, found: re.Match[str]) -> bool:
    if found.group("mode"):
        return True
    if _EN_PREP_BEFORE.search(view.before(found.start(), 24)):
        return True
    return view.time_follows(found.end(), r",?\s+(?:of\s+)?")


# Japanese -----------------------------------------------------------------------------------------


def _ja_strong(view: Scan, found: re.Match[str]) -> bool:
    end = found.end()
    return bool(found.group("mode")) or lang_ja.particle_follows(view, end) or view.time_follows(end, "の?")


def _ja_guard(view: Scan, found: re.Match[str]) -> bool:
    """No kanji glued to the season (夏休み, 真夏) unless it begins a time word or is 以降 / 以来."""
    end = found.end()
    if view.text.startswith(lang_ja.SINCE_WORDS, end):
        return not lang_ja.kanji_at(view, found.start() - 1) or found.start() in view.ends
    if found.group("mode"):  # この夏: nothing glued before the mode word matters
        return not lang_ja.kanji_at(view, end) or end in view.starts
    return lang_ja.kanji_bounded(view, found)


def _ja_compound(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    """今夏 (this summer), 昨夏 (last year's summer), 来春 (next year's spring)."""
    shift = _JA_YEAR[found.group("which")]
    if shift is None:
        return (season(found.group("season"), "this"),)
    return YearP(ctx.today.year + shift), season(found.group("season"))


_EN_SEASON = r"(?P<season>spring|summer|autumn|fall|winter)(?:time)?"

RULES: dict[str, list[Rule]] = {
    "en": [
        rule(
            "en.season",
            "en",
            START + EN_MODE + _EN_SEASON + STOP,
            _build,
            strong=_en_strong,
            guard=_en_guard,
        ),
        rule(
            "en.season_year",
            "en",
            START + r"(?:the\s+)?" + _EN_SEASON + r",?\s+(?:of\s+)?(?P<year>(?:19|20|21)\d\d)" + STOP,
            lambda m, _c: (YearP(int(m.group("year"))), season(m.group("season"))),
        ),
        # "fall of '98", "the summer of '69": a two-digit year, 20yy unless that is more than a year ahead
        rule(
            "en.season_of_short_year",
            "en",
            START + r"(?:the\s+)?" + _EN_SEASON + r"\s+of\s+['’](?P<yy>\d\d)" + STOP,
            lambda m, c: (YearP(_short_year(int(m.group("yy")), c)), season(m.group("season"))),
        ),
    ],
    "ko": [
        rule(
            "ko.season",
            "ko",
            KO_MODE + r"(?P<season>봄|여름|가을|겨울)",
            _build,
            strong=lang_ko.named_strong,
            guard=lang_ko.word_bounded,
        ),
    ],
    "ja": [
        rule("ja.season_compound", "ja", r"(?P<which>今|昨|来)(?P<season>春|夏|秋|冬)", _ja_compound),
        rule("ja.season", "ja", JA_MODE + r"(?P<season>春|夏|秋|冬)", _build, strong=_ja_strong, guard=_ja_guard),
    ],
}
