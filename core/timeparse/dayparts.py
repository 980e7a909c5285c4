"""Parts of the day: "night", "this morning", "late last night", 어젯밤, 아침에, 今朝, 夜に; meals
("over breakfast", 점심 때, 昼休み); finer parts ("mid-morning", "the wee hours", 밤늦게, 昼過ぎ).
The boundaries of each part are in :mod:`core.timeparse.parts`.

Conventions: breakfast is the morning, dinner and supper the evening, 昼休み and 점심시간 midday; the
wee hours are dawn, the dead of night late night; 昼過ぎ is 12 – 15, 昼前 9 – 12, 夕暮れ 16 – 19; "late
on Tuesday" is that day's night, "early Monday" its first half.
"""

from __future__ import annotations

import re
from datetime import timedelta

from core.timeparse.lang_en import WEEKDAYS, alternatives
from core.timeparse.lang_ja import kana_bounded, kanji_at, kanji_bounded, particle_follows
from core.timeparse.lang_ko import part_strong, word_bounded, word_ends
from core.timeparse.parts import PARTS
from core.timeparse.pieces import Context, DayP, PartP, Piece
from core.timeparse.rules import START, STOP, Builder, Rule, Scan, alone, day_and_part, rule


def _en_part(name: str) -> PartP:
    return PartP(PARTS[name])


_PART_WORDS = {"morning": "morning", "afternoon": "afternoon", "evening": "evening", "night": "night"}


_EARLY_LATE = {
    ("early", "morning"): "early_morning",
    ("late", "afternoon"): "late_afternoon",
    ("late", "night"): "late_night",
}


def _part_word(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...]:
    word = found.group("part")
    name = _EARLY_LATE.get((found.group("early"), word), _PART_WORDS[word])
    return (_en_part(name),)


def _today_part(offset: int, name: str | None = None) -> Builder:
    def build(found: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
        part = name or _PART_WORDS[found.group("part")]
        return DayP(ctx.today + timedelta(days=offset)), _en_part(part)

    return build


KO_PART_NAMES = {
    "새벽": "dawn",
    "아침": "morning",
    "오전": "forenoon",
    "점심": "midday",
    "낮": "daytime",
    "오후": "afternoon",
    "저녁": "evening",
    "밤": "night",
    "한밤중": "late_night",
    "심야": "late_night",
    "밤늦게": "late_night",
}


def _ko_part(name: str) -> PartP:
    return PartP(PARTS[name])


JA_PART_NAMES = {
    "早朝": "early_morning",
    "明け方": "dawn",
    "夜明け": "dawn",
    "未明": "dawn",
    "午前中": "forenoon",
    "午前": "forenoon",
    "午後": "afternoon",
    "夕方": "late_afternoon",
    "夕刻": "late_afternoon",
    "深夜": "late_night",
    "夜遅く": "late_night",
    "真夜中": "late_night",
    "夜中": "late_night",
    "日中": "daytime",
    "朝": "morning",
    "昼": "midday",
    "晩": "evening",
    "夜": "night",
}


_SINGLE = {"朝", "昼", "晩", "夜"}


_BOUNDED = _SINGLE | {"日中"}


def _part_guard(view: Scan, found: re.Match[str]) -> bool:
    return found.group("p") not in _BOUNDED or kanji_bounded(view, found)


def _ja_part_strong(view: Scan, found: re.Match[str]) -> bool:
    return found.group("p") not in _SINGLE or particle_follows(view, found.end())


def _part_only(name: str):
    return lambda _m, _c: (PartP(PARTS[name]),)


def _last_evening(_m: re.Match[str], ctx: Context) -> tuple[Piece, ...]:
    return DayP(ctx.today - timedelta(days=1)), PartP(PARTS["evening"])


_EN_FINE_PARTS = {
    ("mid", "morning"): "mid_morning",
    ("late", "morning"): "late_morning",
    ("early", "afternoon"): "early_afternoon",
    ("mid", "afternoon"): "afternoon",
    ("late", "evening"): "late_evening",
    ("early", "evening"): "evening",
    ("mid", "evening"): "evening",
    ("early", "morning"): "early_morning",
    ("late", "afternoon"): "late_afternoon",
}


def _en_fine_part(found: re.Match[str], _ctx: Context) -> tuple[Piece, ...] | None:
    name = _EN_FINE_PARTS.get((found.group("edge"), found.group("part")))
    return (PartP(PARTS[name]),) if name else None


_KO_FINE = {
    "이른아침": "early_morning",
    "늦은밤": "late_night",
    "늦은오후": "late_afternoon",
    "늦은저녁": "late_evening",
}


_KO_R5_PARTS = {
    "밤늦게": "late_night",
    "아침일찍": "early_morning",
    "이른아침": "early_morning",
    "대낮": "daytime",
    "해질녘": "late_afternoon",
    "저녁무렵": "evening",
    "새벽녘": "dawn",
}


_JA_R5_PARTS = {
    "朝早く": "early_morning",
    "昼過ぎ": "early_afternoon",
    "昼すぎ": "early_afternoon",
    "昼前": "late_morning",
    "昼頃": "midday",
    "昼ごろ": "midday",
    "夕暮れ": "late_afternoon",
    "日暮れ": "late_afternoon",
    "白昼": "daytime",
}


EN: list[Rule] = [
    rule(
        "en.wee_hours",
        "en",
        START + r"(?:(?:in|during)\s+)?the\s+(?:wee|small)\s+hours(?:\s+of\s+the\s+morning)?" + STOP,
        lambda _m, _c: (PartP(PARTS["dawn"]),),
        needs=("hours",),
    ),
    rule(
        "en.dead_of_night",
        "en",
        START + r"(?:(?:in|at)\s+)?the\s+dead\s+of\s+(?:the\s+)?night" + STOP,
        lambda _m, _c: (PartP(PARTS["late_night"]),),
        needs=("dead of",),
    ),
    rule(
        "en.fine_part",
        "en",
        START
        + r"(?:(?:in|during)\s+the\s+)?(?P<edge>mid|late|early)(?:\s+|-)(?P<part>morning|afternoon|evening)"
        + STOP,
        _en_fine_part,
        strong=lambda v, m: m.group(0).startswith(("in ", "during ")) or alone(v, m),
        needs=("morning", "afternoon", "evening"),
    ),
    rule("en.last_evening", "en", START + r"last\s+evening" + STOP, _last_evening, needs=("last evening",)),
    rule(
        "en.meal_morning",
        "en",
        START + r"(?:at|over|during|after|before)\s+breakfast" + STOP,
        _part_only("morning"),
        needs=("breakfast",),
    ),
    rule(
        "en.meal_evening",
        "en",
        START + r"(?:at|over|during|after|before)\s+(?:dinner|supper)" + STOP,
        _part_only("evening"),
        needs=("dinner", "supper"),
    ),
    rule("en.tonight", "en", START + r"tonight" + STOP, _today_part(0, "night")),
    rule("en.last_night", "en", START + r"last\s+night" + STOP, _today_part(-1, "night")),
    rule("en.late_last_night", "en", START + r"late\s+last\s+night" + STOP, _today_part(-1, "late_night")),
    rule(
        # "late on Tuesday", "late yesterday": that day's night; "early Monday": its forenoon. Only right before
        # a day word that names no part itself ("late Tuesday night" is the night, "early Monday morning" the
        # morning): alone, "late" and "early" are no time.
        "en.edge_of_day",
        "en",
        START
        + r"(?P<edge>late|early)(?:\s+on)?"
        + STOP
        + rf"(?=\s+(?:(?:last|this|past|previous)\s+)?(?:{alternatives(WEEKDAYS)}|yesterday)\b"
        r"(?!\s+(?:in\s+the\s+)?(?:morning|afternoon|evening|night)))",
        lambda m, _c: (_en_part("night" if m.group("edge") == "late" else "forenoon"),),
        strong=False,
        needs=("late", "early"),
    ),
    rule("en.night_before_last", "en", START + r"(?:the\s+)?night\s+before\s+last" + STOP, _today_part(-2, "night")),
    rule("en.this_part", "en", START + r"this\s+(?P<part>morning|afternoon|evening)" + STOP, _today_part(0)),
    rule(
        "en.part",
        "en",
        START + r"(?:(?P<prep>in|during)\s+the\s+)?(?:(?P<early>early|late)\s+)?"
        r"(?P<part>morning|afternoon|evening|night)" + STOP,
        _part_word,
        strong=lambda _v, m: bool(m.group("prep")),
    ),
    rule(
        "en.at_night",
        "en",
        START + r"(?:(?P<late>late\s+)?at\s+night|overnight)" + STOP,
        lambda m, _c: (_en_part("late_night" if m.group("late") else "night"),),
    ),
    rule(
        "en.dawn",
        "en",
        START + r"(?:at\s+|before\s+)?dawn" + STOP,
        lambda _m, _c: (_en_part("dawn"),),
        strong=lambda _v, m: m.group(0) != "dawn",
    ),
    rule(
        "en.lunch",
        "en",
        START + r"(?P<prep>(?:at|over|during|after|before)\s+)?(?:lunch\s*time|lunch)" + STOP,
        lambda _m, _c: (_en_part("midday"),),
        strong=lambda _v, m: bool(m.group("prep")) or "time" in m.group(0),
    ),
]


KO: list[Rule] = [
    rule(
        "ko.fine_part",
        "ko",
        r"(?<![가-힣])(?P<p>밤\s*늦게|아침\s*일찍|이른\s*아침|대낮|해\s*질\s*녘|저녁\s*무렵|새벽\s*녘)",
        lambda m, _c: (PartP(PARTS[_KO_R5_PARTS["".join(m.group("p").split())]]),),
        guard=word_ends,
    ),
    rule(
        "ko.fine_part",
        "ko",
        r"(?<![가-힣])(?P<w>이른\s*아침|늦은\s*밤|늦은\s*오후|늦은\s*저녁)",
        lambda m, _c: (PartP(PARTS[_KO_FINE[" ".join(m.group("w").split()).replace(" ", "")]]),),
        guard=word_ends,
        needs=("이른", "늦은"),
    ),
    rule(
        "ko.lunch_time",
        "ko",
        r"(?<![가-힣])점심\s*(?:때|시간)",
        _part_only("midday"),
        guard=word_ends,
        needs=("점심",),
    ),
    rule(
        "ko.last_evening",
        "ko",
        r"엊저녁",
        lambda _m, c: (DayP(c.today - timedelta(days=1)), PartP(PARTS["evening"])),
    ),
    rule("ko.last_night", "ko", r"어젯\s*밤|간밤|지난\s*밤", day_and_part(-1, "night")),
    rule(
        "ko.part",
        "ko",
        r"(?P<p>한밤중|심야|밤\s*늦게|새벽|아침|오전|점심|오후|저녁|밤|낮)",
        lambda m, _c: (_ko_part(KO_PART_NAMES[re.sub(r"\s", "", m.group("p"))]),),
        strong=part_strong,
        guard=word_bounded,
    ),
]


JA: list[Rule] = [
    rule(
        "ja.fine_part",
        "ja",
        r"(?P<p>朝早く|昼過ぎ|昼すぎ|昼前|昼頃|昼ごろ|夕暮れ|日暮れ|白昼)",
        lambda m, _c: (PartP(PARTS[_JA_R5_PARTS[m.group("p")]]),),
        guard=lambda v, m: not kanji_at(v, m.start() - 1) or m.start() in v.ends,
    ),
    rule(
        "ja.lunch_break",
        "ja",
        r"昼休み|ランチタイム|お昼時",
        _part_only("midday"),
        needs=("昼休み", "ランチタイム", "お昼時"),
    ),
    rule("ja.last_night", "ja", r"昨夜|昨晩|ゆうべ|夕べ", day_and_part(-1, "night"), guard=kana_bounded),
    rule("ja.this_morning", "ja", r"今朝|けさ", day_and_part(0, "morning"), guard=kana_bounded),
    rule("ja.tonight", "ja", r"今夜|今晩", day_and_part(0, "night")),
    rule(
        "ja.part",
        "ja",
        "(?P<p>" + "|".join(sorted(JA_PART_NAMES, key=len, reverse=True)) + ")",
        lambda m, _c: (PartP(PARTS[JA_PART_NAMES[m.group("p")]]),),
        strong=_ja_part_strong,
        guard=_part_guard,
    ),
]

RULES: dict[str, list[Rule]] = {"en": EN, "ko": KO, "ja": JA}
