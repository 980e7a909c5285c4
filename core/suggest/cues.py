"""Small language cues the suggesters share: is the text about a plan (the future), and is a place
where something happened or only where someone goes, or what they talk about?

They are deliberately few and common, in English, Korean and Japanese; each only lowers a
confidence, never raises one.
"""

from __future__ import annotations

import re
from typing import Literal

_FUTURE = re.compile(
    r"(?i)(?<![^\W_])(?:will|shall|won['’]t|going to|gonna|plan(?:ning)? to|(?:is|are|am) coming)(?![^\W_])"
    r"|['’]ll(?![^\W_])"
    r"|예정|계획|할 거|갈 거|올 거|거예요|거야|겠다|겠어"
    r"|予定|つもり|でしょう|だろう"
)
_EN_BEFORE = re.compile(r"(?i)(?<![^\W_])(in|at|near|around|through|inside|outside|along|on|from|about|of|"
                        r"to|towards|toward|into|for)\s+$")
_LOCATIVE_EN = {"in", "at", "near", "around", "through", "inside", "outside", "along", "on", "from"}
_TOPIC_EN = {"about", "of"}
_KO_LOCATIVE = ("에서",)
_KO_DIRECTION = ("으로", "로", "까지")
_JA_AFTER = re.compile(r"^(で|へ|まで|について|の話)")  # に is left alone: 京都にいた is where, not whither

Role = Literal["locative", "direction", "topic", "none"]


def mentions_future(text: str) -> bool:
    """The text speaks of what will happen (will, going to, 예정, 予定…)."""
    return bool(_FUTURE.search(text))


def place_role(text: str, start: int, end: int, found: str) -> Role:
    """How the place written at ``text[start:end]`` (``found``, with any Korean particle) is used."""
    for suffix in _KO_LOCATIVE:
        if found.endswith(suffix):
            return "locative"
    for suffix in _KO_DIRECTION:
        if found.endswith(suffix) and len(found) > len(suffix) + 1:
            return "direction"
    after = _JA_AFTER.match(text[end:])
    if after is not None:
        word = after.group(1)
        return "locative" if word == "で" else "topic" if word in ("について", "の話") else "direction"
    before = _EN_BEFORE.search(text[max(0, start - 16):start])
    if before is None:
        return "none"
    word = before.group(1).lower()
    if word in _LOCATIVE_EN:
        return "locative"
    return "topic" if word in _TOPIC_EN else "direction"
