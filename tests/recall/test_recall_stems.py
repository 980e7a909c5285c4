"""core.recall.text.stem: the index's own tokenizer, so an interface marks what the index matched."""

from __future__ import annotations

import re

import pytest

from core.index import SearchIndex
from core.recall.text import INDEX_TOKENIZER, stem


@pytest.mark.parametrize(("word", "expected"), [
    ("Decided", "decid"),
    ("decide", "decid"),
    ("happiness", "happi"),
    ("happy", "happi"),
    ("skiing", "ski"),
    ("Café", "cafe"),  # diacritics removed, as the index does
    ("결정했어", "결정했어"),  # other scripts are left alone
    ("", ""),
])
def test_stem_is_the_index_tokens(word, expected):
    assert stem(word) == expected


def test_the_stemmer_is_the_tokenizer_of_the_index_table(paths):
    index = SearchIndex.open(paths)
    try:
        (sql,) = index.conn.execute("SELECT sql FROM sqlite_master WHERE name = 'fts'").fetchone()
    finally:
        index.close()
    declared = re.search(r"tokenize\s*=\s*'([^']*)'", sql)
    assert declared is not None and tuple(declared.group(1).split()) == INDEX_TOKENIZER


def test_stemmed_words_are_the_ones_the_index_matches(paths):
    from datetime import timedelta

    from core.recall.text import search_terms
    from tests.helpers.recall import NOW, indexed, turn

    texts = ["Happiness is a warm pup", "The happy hour moved", "Hapless sailors"]
    index = indexed(paths, [turn(NOW - timedelta(hours=i + 1), text, session=f"s{i}") for i, text in enumerate(texts)])
    try:
        found = {hit.id for hit in index.exact_search("happy", None, None, limit=10)}
        matched = {t.text for t in index.get_turns(sorted(found))}
    finally:
        index.close()
    (term,) = search_terms("happy")
    marked = {text for text in texts if any(stem(w) == stem(term) for w in re.findall(r"[^\W_]+", text))}
    assert matched == marked == {"Happiness is a warm pup", "The happy hour moved"}
