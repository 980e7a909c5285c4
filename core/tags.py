"""How two tags compare: inner whitespace collapsed, case folded ("Work  Trip" is "work trip").

One rule for every place that matches tags: sharing profiles (a denied tag wins, whatever its case)
and the tag suggester (a tag the draft already carries is not suggested again).
"""

from __future__ import annotations


def normalize_tag(tag: str) -> str:
    return " ".join(tag.split()).casefold()
