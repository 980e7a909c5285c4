"""CJK-aware FTS5 tokenization and safe MATCH building, checked against a real FTS5 table."""

from __future__ import annotations

import apsw
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.index.tokenize import build_match, cjk_grams, index_text

DOCS = {
    1: "오늘 서울숲에서 산책했다",
    2: "会議で新しい計画を決めた",
    3: "我们明天在北京开会",
    4: "Reverie로 서울 구경, then a café in Tōkyō",
    5: "The quarterly planning meeting ran late",
    6: "コーヒーを飲みながらｶﾀｶﾅの資料を読んだ",
    7: "서울에 갔다",
    8: "숲",
}


@pytest.fixture(scope="module", params=["porter unicode61 remove_diacritics 2", "unicode61 remove_diacritics 2"])
def fts(request: pytest.FixtureRequest) -> apsw.Connection:
    """The index's tokenizer (porter over unicode61, core.index.migrations) and the plain one it
    replaced: CJK bigrams and safe MATCH behave the same under both."""
    conn = apsw.Connection(":memory:")
    conn.execute(f"CREATE VIRTUAL TABLE fts USING fts5(body, tokenize='{request.param}')")
    for rowid, text in DOCS.items():
        conn.execute("INSERT INTO fts(rowid, body) VALUES (?, ?)", (rowid, index_text(text)))
    return conn


def find(conn: apsw.Connection, query: str, mode: str = "any") -> set[int]:
    match = build_match(query, mode)  # type: ignore[arg-type]
    if match is None:
        return set()
    return {rowid for (rowid,) in conn.execute("SELECT rowid FROM fts WHERE fts MATCH ?", (match,))}


def test_cjk_runs_become_bigrams_plus_last_character() -> None:
    assert cjk_grams("서울숲에서") == ["서울", "울숲", "숲에", "에서", "서"]
    assert cjk_grams("숲") == ["숲"]
    assert index_text("Reverie로 산책").split() == ["Reverie", "로", "산책", "책"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("서울숲", {1}),  # a Korean word inside a longer word (서울숲에서)
        ("산책", {1}),  # two characters, inside 산책했다
        ("서울숲에서 산책", {1}),
        ("会議", {2}),  # kanji word followed by a particle (会議で)
        ("計画", {2}),
        ("決めた", {2}),  # kanji + kana
        ("北京", {3}),  # Chinese
        ("开会", {3}),
        ("コーヒー", {6}),  # katakana with the long-vowel mark
        ("カタカナ", {6}),  # half-width katakana in the text, full-width in the query (NFKC)
        ("cafe", {4}),  # diacritics folded
        ("TOKYO", {4}),
        ("Reverie 구경", {4}),  # mixed scripts
    ],
)
def test_cjk_and_latin_words_are_found(fts: apsw.Connection, query: str, expected: set[int]) -> None:
    assert find(fts, query) >= expected
    assert find(fts, query, "all") >= expected


def test_all_mode_needs_every_word(fts: apsw.Connection) -> None:
    assert find(fts, "서울 구경", "all") == {4}
    assert find(fts, "서울 구경", "any") == {1, 4, 7}
    assert find(fts, "Reverie 서울 café", "all") == {4}
    assert find(fts, "planning meeting", "all") == {5}
    assert find(fts, "planning 会議", "all") == set()


def test_phrase_of_bigrams_does_not_match_scattered_characters(fts: apsw.Connection) -> None:
    # 서울숲 needs 서울 and 울숲 next to each other: 서울에 갔다 (row 7) has 서울 but no 울숲.
    assert find(fts, "서울숲", "all") == {1}


def test_single_character_query_finds_the_character_in_any_position(fts: apsw.Connection) -> None:
    assert find(fts, "숲") == {1, 8}  # inside 서울숲에서 and alone
    assert find(fts, "다") == {1, 7}  # the last character of 산책했다 and 갔다
    assert find(fts, "会") == {2, 3}  # first of 会議, last of 开会


def test_any_mode_drops_stopwords_and_particles_unless_alone(fts: apsw.Connection) -> None:
    assert build_match("the meeting", "any") == '"meeting"'
    assert build_match("the", "any") == '"the"'
    assert build_match("会議 の", "any") == '"会議"'
    assert find(fts, "what about the planning?") == {5}


def test_any_mode_finds_part_of_a_long_unspaced_query(fts: apsw.Connection) -> None:
    # A whole Japanese question: no row holds it, row 2 shares 会議 and 計画.
    assert 2 in find(fts, "先週の会議で決めた計画は何")


@pytest.mark.parametrize(
    "query",
    [
        '"',
        "AND",
        "OR NOT",
        "NEAR(a b)",
        "col:value",
        "a*",
        "(((",
        '"unterminated',
        "^start",
        "-minus",
        "a + b",
        "{body}: x",
        "'",
        "\\",
        "*",
        "?!",
        "  ",
        "",
    ],
)
def test_query_syntax_never_reaches_fts5(fts: apsw.Connection, query: str) -> None:
    find(fts, query)
    find(fts, query, "all")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
def test_the_ascii_shortcut_cuts_like_unicode61(text: str) -> None:
    from core.index import tokenize

    conn = apsw.Connection(":memory:")
    tokenizer = conn.fts5_tokenizer("unicode61", ["remove_diacritics", "2"])
    expected = [(s, e, t) for s, e, t, *_ in tokenizer(text.encode(), apsw.FTS5_TOKENIZE_QUERY, None)]
    assert tokenize._fts_tokens(text) == expected


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_text_is_a_valid_query(text: str) -> None:
    conn = apsw.Connection(":memory:")
    conn.execute("CREATE VIRTUAL TABLE fts USING fts5(body, tokenize='unicode61 remove_diacritics 2')")
    conn.execute("INSERT INTO fts(rowid, body) VALUES (1, ?)", (index_text(text),))
    for mode in ("any", "all"):
        match = build_match(text, mode)  # type: ignore[arg-type]
        if match is not None:
            rows = list(conn.execute("SELECT rowid FROM fts WHERE fts MATCH ?", (match,)))
            if mode == "all":
                assert rows == [(1,)], (text, match)  # a text always matches itself


def test_the_porter_migration_refills_an_existing_index(tmp_path):
    from core.index.connection import connect
    from core.index.migrations import MIGRATIONS, migrate

    conn = connect(tmp_path / "index.db")
    conn.execute("CREATE TABLE _migrations(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    for name, fn in MIGRATIONS[:4]:  # an index made before m005: unicode61 without stems
        fn(conn)
        conn.execute("INSERT INTO _migrations VALUES (?, 'then')", (name,))
    rows = {1: "She painted the fence blue", 2: "서울숲에서 산책했다"}
    for doc, text in rows.items():
        conn.execute("INSERT INTO turns VALUES (?, ?, '2026-01-01T00:00:00.000000Z', 'me', 'user', 'text', ?, "
                     "NULL, 's', 'test', 1, ?)", (doc, f"t{doc}", text, doc))
        conn.execute("INSERT INTO fts(rowid, body) VALUES (?, ?)", (doc, index_text(text)))

    def found(query: str) -> list[int]:
        return [r for (r,) in conn.execute("SELECT rowid FROM fts WHERE fts MATCH ?", (build_match(query),))]

    assert found("painting") == []
    assert migrate(conn) == [name for name, _ in MIGRATIONS[4:]]  # m005 and the ones after it
    assert found("painting") == [1] and found("paints") == [1] and found("서울숲") == [2]
    assert migrate(conn) == []
    conn.close()


# Text drawn to stress the batch path: CJK runs of every length and at the edges, combining marks and
# compatibility forms NFKC changes (full-width, half-width kana, ligatures), U+0000, lone surrogates.
_mixed = st.text(
    alphabet=st.one_of(
        st.sampled_from("서울숲에서会議で予算ｶﾀｶﾅＴｏｋｙｏﬁ々ー・ a.\u0301\u3099\x00\n"),
        st.characters(min_codepoint=0x1100, max_codepoint=0x11FF),
        st.characters(min_codepoint=0x20000, max_codepoint=0x20010),
        st.characters(),
    ),
    max_size=25,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_mixed, min_size=0, max_size=150))
def test_bodies_of_a_batch_equal_bodies_one_by_one(texts: list[str]) -> None:
    from core.index.tokenize import BATCH_MIN_TEXTS, index_texts

    many = texts * (1 + BATCH_MIN_TEXTS // max(len(texts), 1))  # past the size where the batch path starts
    assert index_texts(many) == [t if t.isascii() else index_text(t) for t in many]
    assert index_texts(texts) == [t if t.isascii() else index_text(t) for t in texts]


def test_a_batch_of_cjk_bodies_is_what_fts5_finds() -> None:
    from core.index.tokenize import index_texts

    texts = [DOCS[k % 8 + 1] for k in range(200)]
    conn = apsw.Connection(":memory:")
    conn.execute("CREATE VIRTUAL TABLE fts USING fts5(body, tokenize='porter unicode61 remove_diacritics 2')")
    conn.executemany("INSERT INTO fts(rowid, body) VALUES (?, ?)", enumerate(index_texts(texts), 1))
    assert find(conn, "서울숲", "all") == {k for k in range(1, 201) if "서울숲" in texts[k - 1]}
    assert find(conn, "숲") == {k for k in range(1, 201) if "숲" in texts[k - 1]}
