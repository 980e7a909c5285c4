"""The FTS5 body of a turn: ASCII text skips the CJK and NFKC pass and must give the same body."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.index.catalog import fts_body
from core.index.tokenize import index_text


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.characters(max_codepoint=127), max_size=200))
def test_ascii_text_is_its_own_body(text: str) -> None:
    assert fts_body(text) == index_text(text) == text


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=80))
def test_any_text_gets_the_tokenizer_body(text: str) -> None:
    assert fts_body(text) == index_text(text)


def test_cjk_and_full_width_text_still_go_through_the_tokenizer() -> None:
    assert fts_body("서울숲에서 walk") == index_text("서울숲에서 walk") != "서울숲에서 walk"
    assert fts_body("Ｔｏｋｙｏ") == "Tokyo"
