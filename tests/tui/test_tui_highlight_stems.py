"""The search screen marks the words the index matched: by the index's own Porter stems, as whole
words, never by hand-made word forms."""

from __future__ import annotations

import pytest

from core.workbench.search import term_pattern
from tui_app.screens.search_view import highlighted


def marked(query: str, text: str) -> list[str]:
    content = highlighted(text, term_pattern(query))
    return [content.plain[s.start : s.end].rstrip() for s in content.spans]


@pytest.mark.parametrize(("query", "text", "expected"), [
    ("happy", "Such happiness, and a happy dog", ["happiness", "happy"]),  # happi: no suffix rule gives it
    ("decide", "We DECIDED; decisions wait", ["DECIDED"]),  # decis is another stem
    ("generous", "Generosity and a generous gift", ["generous"]),  # generos vs gener
    ("ski", "skiing, skis, skip", ["skiing", "skis"]),
    ("Kate paint", "Kate's painting", ["Kate", "painting"]),
])
def test_latin_words_are_marked_by_the_index_stem(query, text, expected):
    assert marked(query, text) == expected


def test_korean_and_latin_marks_in_one_text():
    assert marked("결정 report", "결정했어: the reports are due") == ["결정", "reports"]


def test_nothing_to_mark():
    assert term_pattern("the and of") is None
    assert highlighted("plain text", None).spans == []
