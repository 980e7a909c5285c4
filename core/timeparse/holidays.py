"""Fixed-date holidays in English, Korean and Japanese (Christmas, 광복절, 文化の日 …, and the spans
正月, お盆, ゴールデンウィーク, 年末年始); moving ones are in :mod:`core.timeparse.movable`.

A holiday is read like a date without a year: the latest that has begun, unless a year or
last/this/next is given (:mod:`core.timeparse.annual`); a one-day holiday is a day, so a part of the
day qualifies it ("Christmas Eve night"). Holiday names also name things (a Christmas tree,
クリスマスケーキ), so a name alone counts only with last/this/next, a preposition of time before it (not
"for"), a particle of time after it, a time beside it, or nothing but punctuation after it; "New
Year" only after a preposition of time. Glued words stay words: 크리스마스트리, 신정부, 元日本代表.
"""

from __future__ import annotations

import re

from core.timeparse import lang_ja, lang_ko, movable
from core.timeparse.annual import EN_MODE, JA_MODE, KO_MODE, mode_of
from core.timeparse.pieces import AnnualP, Context, Piece
from core.timeparse.rules import START, Builder, Rule, Scan, rule

HOLIDAYS: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "christmas_eve": ((12, 24), (12, 25)),
    "christmas": ((12, 25), (12, 26)),
    "new_years_eve": ((12, 31), (1, 1)),
    "new_years_day": ((1, 1), (1, 2)),
    "shogatsu": ((1, 1), (1, 4)),
    "valentines_day": ((2, 14), (2, 15)),
    "halloween": ((10, 31), (11, 1)),
    "samiljeol": ((3, 1), (3, 2)),
    "childrens_day": ((5, 5), (5, 6)),
    "memorial_day": ((6, 6), (6, 7)),
    "liberation_day": ((8, 15), (8, 16)),
    "foundation_day": ((10, 3), (10, 4)),
    "hangul_day": ((10, 9), (10, 10)),
    "obon": ((8, 13), (8, 17)),
    "golden_week": ((4, 29), (5, 6)),
    "independence_day": ((7, 4), (7, 5)),
    "national_foundation_day": ((2, 11), (2, 12)),
    "showa_day": ((4, 29), (4, 30)),
    "constitution_day": ((5, 3), (5, 4)),
    "greenery_day": ((5, 4), (5, 5)),
    "culture_day": ((11, 3), (11, 4)),
    "labor_thanksgiving_day": ((11, 23), (11, 24)),
    "boxing_day": ((12, 26), (12, 27)),
    "st_patricks_day": ((3, 17), (3, 18)),
    "constitution_day_ko": ((7, 17), (7, 18)),
    "mountain_day": ((8, 11), (8, 12)),
    "emperors_birthday": ((2, 23), (2, 24)),
    "tanabata": ((7, 7), (7, 8)),
    "hinamatsuri": ((3, 3), (3, 4)),
    "setsubun": ((2, 3), (2, 4)),
    "april_fools_day": ((4, 1), (4, 2)),
    "groundhog_day": ((2, 2), (2, 3)),
    "veterans_day": ((11, 11), (11, 12)),
    "cinco_de_mayo": ((5, 5), (5, 6)),
    "juneteenth": ((6, 19), (6, 20)),
    "earth_day": ((4, 22), (4, 23)),
    "parents_day_ko": ((5, 8), (5, 9)),
    "teachers_day_ko": ((5, 15), (5, 16)),
    "armed_forces_day_ko": ((10, 1), (10, 2)),
    "white_day": ((3, 14), (3, 15)),
    "pepero_day": ((11, 11), (11, 12)),
    "shichigosan": ((11, 15), (11, 16)),
    "nenmatsu_nenshi": ((12, 29), (1, 4)),
}

# (written forms, holiday) per language; the longer form of a pair comes first.
_WORDS: dict[str, list[tuple[str, str]]] = {
    "en": [
        (r"thanksgiving(?:\s+day)?\s+weekend", "thanksgiving_weekend"),
        (r"easter\s+weekend", "easter_weekend"),
        (r"labou?r\s+day\s+weekend", "labor_day_weekend"),
        (r"memorial\s+day\s+weekend", "us_memorial_day_weekend"),
        (r"thanksgiving(?:\s+day)?", "thanksgiving"),
        (r"cyber\s+monday", "cyber_monday"),
        (r"(?:president['’]?s['’]?|washington['’]?s\s+birthday)\s+day", "presidents_day"),
        (r"(?:mlk|martin\s+luther\s+king(?:\s+jr\.?)?)\s+day", "mlk_day"),
        (r"columbus\s+day|indigenous\s+peoples['’]?\s+day", "columbus_day"),
        (r"mardi\s+gras|shrove\s+tuesday|pancake\s+day", "mardi_gras"),
        (r"ash\s+wednesday", "ash_wednesday"),
        (r"palm\s+sunday", "palm_sunday"),
        (r"black\s+friday", "black_friday"),
        (r"easter\s+monday", "easter_monday"),
        (r"easter(?:\s+sunday)?", "easter"),
        (r"good\s+friday", "good_friday"),
        (r"labou?r\s+day", "labor_day"),
        (r"memorial\s+day", "us_memorial_day"),
        (r"mother['’]?s\s+day", "mothers_day"),
        (r"father['’]?s\s+day", "fathers_day"),
        (r"(?:chinese|lunar)\s+new\s+year(?:['’]s)?(?:\s+day)?", "lunar_new_year"),
        (r"chuseok", "chuseok"),
        (r"(?:christmas|xmas)\s+eve", "christmas_eve"),
        (r"(?:christmas|xmas)(?:\s+day)?", "christmas"),
        (r"new\s+year['’]?s\s+eve|nye", "new_years_eve"),
        (r"new\s+year['’]?s(?:\s+day)?", "new_years_day"),
        (r"(?:st\.?\s+)?valentine['’]?s(?:\s+day)?|valentines\s+day", "valentines_day"),
        (r"hallowe['’]?en", "halloween"),
        (r"independence\s+day|(?:the\s+)?fourth\s+of\s+july", "independence_day"),
        (r"boxing\s+day", "boxing_day"),
        (r"(?:st\.?\s+|saint\s+)?patrick['’]?s\s+day", "st_patricks_day"),
        (r"april\s+fools['’]?(?:\s+day)?", "april_fools_day"),
        (r"groundhog\s+day", "groundhog_day"),
        (r"veterans['’]?\s+day|armistice\s+day|remembrance\s+day", "veterans_day"),
        (r"cinco\s+de\s+mayo", "cinco_de_mayo"),
        (r"juneteenth", "juneteenth"),
        (r"earth\s+day", "earth_day"),
        (r"new\s+year(?![\w'’])", "new_year"),
    ],
    "ko": [
        (r"설\s*연휴|설\s*명절", "seollal_holidays"),
        (r"설날|구정", "seollal"),
        (r"설(?!\s*에\s*(?:따르|의하))", "seollal"),  # 올해 설, 설에 (not "설에 따르면", by that theory)
        (r"추석\s*연휴", "chuseok_holidays"),
        (r"추석|한가위", "chuseok"),
        (r"부처님\s*오신\s*날|석가\s*탄신일", "buddha"),
        (r"크리스마스\s*이브|성탄\s*전야", "christmas_eve"),
        (r"크리스마스|성탄절", "christmas"),
        (r"새해\s*전날", "new_years_eve"),
        (r"새해\s*첫날|신정", "new_years_day"),
        (r"(?:발렌타인|밸런타인)\s*데이", "valentines_day"),
        (r"할로윈|핼러윈", "halloween"),
        (r"삼일절|3\s*[.·]\s*1\s*절", "samiljeol"),
        (r"어린이날", "childrens_day"),
        (r"현충일", "memorial_day"),
        (r"광복절", "liberation_day"),
        (r"개천절", "foundation_day"),
        (r"한글날", "hangul_day"),
        (r"제헌절", "constitution_day_ko"),
        (r"어버이\s*날", "parents_day_ko"),
        (r"스승의\s*날", "teachers_day_ko"),
        (r"국군의\s*날", "armed_forces_day_ko"),
        (r"화이트\s*데이", "white_day"),
        (r"빼빼로\s*데이", "pepero_day"),
        (r"정월\s*대보름|대보름", "daeboreum"),
        (r"단오(?:날)?", "dano"),
        (r"춘분(?:날)?", "vernal_equinox"),
        (r"추분(?:날)?", "autumnal_equinox"),
    ],
    "ja": [
        (r"旧正月|春節", "lunar_new_year"),
        (r"成人の日", "coming_of_age_day"),
        (r"海の日", "marine_day"),
        (r"敬老の日", "respect_for_aged_day"),
        (r"スポーツの日|体育の日", "sports_day"),
        (r"春分の日|春分", "vernal_equinox"),
        (r"秋分の日|秋分", "autumnal_equinox"),
        (r"母の日", "mothers_day"),
        (r"父の日", "fathers_day"),
        (r"クリスマス・?イ[ブヴ]", "christmas_eve"),
        (r"クリスマス", "christmas"),
        (r"大晦日|大みそか", "new_years_eve"),
        (r"元日|元旦", "new_years_day"),
        (r"年末年始(?:休み)?", "nenmatsu_nenshi"),
        (r"お?正月休み|お?正月", "shogatsu"),
        (r"ホワイト・?デー", "white_day"),
        (r"七五三", "shichigosan"),
        (r"お盆休み|お盆|盆休み", "obon"),
        (r"ゴールデンウィーク|ゴールデンウイーク|(?<![\d.\s])gw|^gw", "golden_week"),
        (r"バレンタイン・?デー|バレンタイン", "valentines_day"),
        (r"ハロウィーン|ハロウィン", "halloween"),
        (r"こどもの日|子供の日|子どもの日", "childrens_day"),
        (r"建国記念の日|建国記念日", "national_foundation_day"),
        (r"昭和の日", "showa_day"),
        (r"憲法記念日", "constitution_day"),
        (r"みどりの日", "greenery_day"),
        (r"文化の日", "culture_day"),
        (r"勤労感謝の日", "labor_thanksgiving_day"),
        (r"山の日", "mountain_day"),
        (r"天皇誕生日", "emperors_birthday"),
        (r"七夕", "tanabata"),
        (r"ひな祭り|雛祭り|桃の節句", "hinamatsuri"),
        (r"節分", "setsubun"),
    ],
}
_FORMS = {lang: [(re.compile(form), name) for form, name in words] for lang, words in _WORDS.items()}


def _alternatives(lang: str) -> str:
    return "(?P<h>" + "|".join(form for form, _ in _WORDS[lang]) + ")"


def holiday(name: str, mode: str = "bare") -> AnnualP:
    if name in movable.MOVABLE:
        return AnnualP(name, (1, 1), (1, 2), mode, movable=True)
    start, end = HOLIDAYS[name]
    return AnnualP(name, start, end, mode)


def _builder(lang: str) -> Builder:
    def build(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
        written = found.group("h")
        for form, name in _FORMS[lang]:
            if form.fullmatch(written):
                name = "new_years_day" if name == "new_year" else name
                return (holiday(name, mode_of(found.group("mode"))),)
        return None

    return build


# English: a preposition of time before, or nothing but punctuation (or a time) after.
_EN_PREP_BEFORE = re.compile(
    r"(?<![a-z])(?:on|at|over|during|since|before|after|until|till|around|by|from|through|throughout)\s+(?:the\s+)?$"
)
_EN_TOPIC_BEFORE = re.compile(r"(?<![a-z])(?:for|about)\s+$")
_EN_ENDS = re.compile(r"\s*(?:[?.!,;:]|$)")


_EN_BARE_NEW_YEAR = re.compile(r"new\s+year")


def _en_strong(view: Scan, found: re.Match[str]) -> bool:
    before = view.before(found.start(), 24)
    if found.group("mode") or _EN_PREP_BEFORE.search(before):
        return True
    if _EN_BARE_NEW_YEAR.fullmatch(found.group("h")):  # "Happy New Year!" is a greeting
        return False
    if view.time_follows(found.end(), r",?\s+(?:of\s+)?"):
        return True
    return _EN_ENDS.match(view.text, found.end()) is not None and not _EN_TOPIC_BEFORE.search(before)


# Japanese: no katakana or kanji glued on either side (メリークリスマス, クリスマスケーキ, 旧正月), but
# クリスマス以降 is "since Christmas".
_JA_WORD_CHAR = re.compile(r"[\u30a0-\u30ff\u3400-\u4dbf\u4e00-\u9fff々]")


def _ja_guard(view: Scan, found: re.Match[str]) -> bool:
    start, end = found.start(), found.end()
    if start > 0 and _JA_WORD_CHAR.match(view.text[start - 1]) and start not in view.ends:
        return False
    if view.text.startswith(lang_ja.SINCE_WORDS, end):
        return True
    return not (end < len(view.text) and _JA_WORD_CHAR.match(view.text[end]) and end not in view.starts)


def _ja_strong(view: Scan, found: re.Match[str]) -> bool:
    end = found.end()
    return bool(found.group("mode")) or lang_ja.particle_follows(view, end) or view.time_follows(end, "の?")


RULES: dict[str, list[Rule]] = {
    "en": [
        rule(
            "en.holiday",
            "en",
            START + EN_MODE + _alternatives("en") + r"(?![\w'’])",
            _builder("en"),
            strong=_en_strong,
        )
    ],
    "ko": [
        rule(
            "ko.holiday",
            "ko",
            KO_MODE + _alternatives("ko"),
            _builder("ko"),
            strong=lambda view, found: lang_ko.named_strong(view, found, at_end=True),
            guard=lang_ko.word_bounded,
        )
    ],
    "ja": [rule("ja.holiday", "ja", JA_MODE + _alternatives("ja"), _builder("ja"), strong=_ja_strong, guard=_ja_guard)],
}
