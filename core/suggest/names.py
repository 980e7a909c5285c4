"""Finding a known name (a person, a place) in a text.

Latin and Hangul names must stand as whole words (a Korean name may carry a particle or a title:
민지가, 민지랑, 민지씨); names written in kana or Han are found anywhere (Japanese writes no spaces:
田中さんと). A match is ``exact`` when the case is as confirmed, ``folded`` when only the case-folded
text matches ("rose" for Rose: often a common word).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

_KANA_HAN = re.compile(r"[\u3041-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
_ENDS_HANGUL = re.compile(r"[\uac00-\ud7a3]$")
KO_SUFFIXES = ("이랑", "에서", "에게", "한테", "께서", "까지", "부터", "처럼", "보다", "하고", "이나", "이는", "이가",
               "이도", "이를", "이의", "이와", "이한테", "씨", "님", "야", "아", "은", "는", "이", "가", "을", "를",
               "에", "의", "도", "와", "과", "로", "랑", "만")
_KO_TAIL = "(?:" + "|".join(sorted(KO_SUFFIXES, key=len, reverse=True)) + ")?"

Quality = Literal["exact", "folded"]


@dataclass(frozen=True)
class NameMatch:
    name: str  # as confirmed
    found: str  # as written in the text
    start: int
    end: int
    quality: Quality


@lru_cache(maxsize=4096)
def _pattern(name: str, flags: int) -> re.Pattern[str]:
    body = r"\s+".join(re.escape(word) for word in name.split())
    if _KANA_HAN.search(name):
        return re.compile(body, flags)
    tail = _KO_TAIL if _ENDS_HANGUL.search(name) else r"(?:['’]s)?"
    return re.compile(rf"(?<![^\W_]){body}{tail}(?![^\W_])", flags)


def find_name(text: str, name: str) -> NameMatch | None:
    """The first place ``name`` appears in ``text`` (exact case preferred), or None."""
    if not name.strip():
        return None
    for flags, quality in ((0, "exact"), (re.IGNORECASE, "folded")):
        found = _pattern(name.strip(), flags).search(text)
        if found is not None:
            return NameMatch(name, found.group(0), found.start(), found.end(), quality)  # type: ignore[arg-type]
    return None


def is_cjk(name: str) -> bool:
    return bool(_KANA_HAN.search(name)) or bool(_ENDS_HANGUL.search(name))
