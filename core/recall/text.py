"""What a typed query becomes before ranking: cleaned text, search terms per language, word forms.

Cleaning: control, lone surrogate and invisible format characters become spaces, and a query longer
than :data:`MAX_QUERY_CHARS` is refused with one line (the index quotes every token, so no FTS5 syntax
leaks through). Terms: English stop words and question-framing words are dropped, Korean words lose
their particle and verb ending (서울숲에서 → 서울숲, 연주한다 → 연주), Japanese runs keep kanji, katakana and longer
hiragana parts (会議で何を決めた → 会議, 決); CJK terms match inside longer words through the index's
character bigrams. Stems: :func:`stem` gives a word's token with the index's own FTS5 porter
tokenizer, so an interface marks exactly the words the index matched ("decide" marks "Decided").
"""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache

import apsw

from core.errors import ReverieError
from core.index.tokenize import STOPWORDS

MAX_QUERY_CHARS = 2000
MAX_TERMS = 48  # distinct terms searched; a pasted paragraph is ranked by its first 48

_WORD = re.compile(r"[^\W_]+")
_HANGUL = re.compile(r"^[\uac00-\ud7a3]+\Z")
_HIRAGANA_RUN = re.compile(r"[\u3041-\u309f]+")
_HAS_KANA = re.compile(r"[\u3041-\u30ff]")


class QueryError(ReverieError):
    """A query that cannot be searched (not text, or far too long); the message says why."""


def _listed(text: str) -> list[str]:
    return text.split()


EN_STOPWORDS = STOPWORDS | frozenset(_listed(
    """also anything did does ever kind kinds know mention mentioned mentions said say says something
    tell thing things type types us whats would"""
))
KO_STOPWORDS = frozenset(_listed(
    """뭐 뭘 무엇 무엇을 무슨 언제 어디 어디서 누구 누가 어떻게 어떤 왜 얼마나 몇 그 이 저 것 거 게 좀 우리 나 내
    내가 제가 저는 나는 너 얘기 이야기 말 대해 대해서 관해 관해서 했어 했지 했나 했던 했는지 했었지 했더라 했었나
    하는 하고 하기 있어 있었어 있었지 있었나 였지 이었지 였어 뭐였지 뭐였어 뭐라고 라고 그때 정도 관련"""
))
_KO_PARTICLES = sorted(
    _listed("이랑 에서 에게 한테 으로 께서 까지 부터 처럼 보다 하고 이나 은 는 이 가 을 를 에 의 도 와 과 로 랑 만 나"),
    key=len,
    reverse=True,
)
# Verb and adjective endings, longest first (연주한다, 연주했던, 박제된 → their stem). The stem matches
# inside every inflected form through the index's bigrams, where the word as written matches only
# itself, and a rare form's high idf drowns the sentences that say it otherwise. The one-syllable
# ones are what a particle leaves (연주하는 → 연주하).
_KO_ENDINGS = sorted(
    _listed(
        """하였습니다 했습니다 하였다 했었다 했어요 합니다 했다 했던 했어 했고 했지 한다 하는 하다 하며
        하면 하여 해서 해요 하지 하기 되었다 됐다 됩니다 된다 되고 되는 되다 되어 된 있습니다 있었다 있다
        있는 있고 이었다 였다 이다 입니다 었던 았던 었다 았다 었고 았고 려고 는다 하 되 있 했 됐 였"""
    ),
    key=len,
    reverse=True,
)
_HANGUL_BASE = 0xAC00
_JONG_N, _JONG_B = 4, 17  # final ㄴ (달린다) and ㅂ (달립니다) of a syllable, in Unicode's order
_KO_HELD = frozenset("한합된됩는습")  # ends of the listed endings: one too short to take off stays whole
_KO_MIN_STEM = 2  # syllables; a shorter stem is a noun or too common to search by
JA_STOPWORDS = frozenset(_listed(
    """何 なに なん いつ どこ 誰 だれ どう なぜ どんな どの 私 僕 俺 我々 話 こと もの ました でした ですか ますか
    たっけ だっけ について ところ けど から まで より それ これ あれ"""
))
_JA_MIN_HIRAGANA = 3  # shorter hiragana runs are particles, endings and okurigana


def clean_query(query: object) -> str:
    """The query with invisible and control characters as spaces, trimmed; :class:`QueryError` if it
    is not text or is longer than :data:`MAX_QUERY_CHARS`."""
    if not isinstance(query, str):
        raise QueryError(f"the query must be text, got {type(query).__name__}")
    if len(query) > MAX_QUERY_CHARS:
        raise QueryError(f"the query is {len(query):,} characters long; at most {MAX_QUERY_CHARS:,} are searched")
    out = []
    for char in query:
        category = unicodedata.category(char)
        out.append(" " if category in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp") or char == "\ufeff" else char)
    return " ".join("".join(out).split())


def strip_ko_particle(word: str) -> str:
    """A Hangul word without one trailing particle, when at least two characters remain."""
    if not _HANGUL.match(word):
        return word
    for particle in _KO_PARTICLES:
        if word.endswith(particle) and len(word) - len(particle) >= 2:
            return word[: -len(particle)]
    return word


def _without_final(syllable: str, final: int) -> str | None:
    """``syllable`` without its final consonant when that is ``final`` (린 → 리), else ``None``."""
    code = ord(syllable) - _HANGUL_BASE
    if not 0 <= code < 11172 or code % 28 != final:
        return None
    return chr(ord(syllable) - final)


def strip_ko_ending(word: str) -> str:
    """A Hangul word without one verb or adjective ending (연주한다 → 연주, 달립니다 → 달리,
    걸어간다 → 걸어가), when at least two syllables remain; any other word as it is."""
    if not _HANGUL.match(word):
        return word
    for ending in _KO_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= _KO_MIN_STEM:
            return word[: -len(ending)]
    for tail, final in (("니다", _JONG_B), ("다", _JONG_N)):
        if word.endswith(tail) and len(word) - len(tail) >= _KO_MIN_STEM and word[-len(tail) - 1] not in _KO_HELD:
            bare = _without_final(word[-len(tail) - 1], final)
            if bare is not None:
                return word[: -len(tail) - 1] + bare
    return word


def _ja_parts(run: str) -> list[str]:
    """Content parts of a Japanese run: kanji / katakana stretches and long hiragana words."""
    parts: list[str] = []
    last = 0
    for match in _HIRAGANA_RUN.finditer(run):
        if match.start() > last:
            parts.append(run[last : match.start()])
        hira = match.group()
        if len(hira) >= _JA_MIN_HIRAGANA and hira not in JA_STOPWORDS:
            parts.append(hira)
        last = match.end()
    if last < len(run):
        parts.append(run[last:])
    return [p for p in parts if p not in JA_STOPWORDS]


def query_words(text: str) -> list[str]:
    """Every word of ``text`` as written (NFKC, case folded), Korean particles removed; no stop word
    filtering. Used to spot names."""
    words = []
    for raw in _WORD.findall(unicodedata.normalize("NFKC", text)):
        word = raw.casefold()
        if _HAS_KANA.search(word):
            words.extend(_ja_parts(word))
        else:
            words.append(strip_ko_particle(word))
    return [w for w in words if w]


def search_terms(text: str) -> list[str]:
    """The distinct terms worth ranking by, in order (at most :data:`MAX_TERMS`); empty when every
    word is a stop word (the caller decides what "the who" or "어제 뭐 했지" means)."""
    words = query_words(text)
    kept = [strip_ko_ending(w) for w in words
            if w not in EN_STOPWORDS and w not in KO_STOPWORDS and w not in JA_STOPWORDS]
    return list(dict.fromkeys(kept))[:MAX_TERMS]


# The tokenizer of the index's FTS5 table (core.index.migrations.m005_fts_porter); a test reads the
# table's own definition and checks that the two agree.
INDEX_TOKENIZER = ("porter", "unicode61", "remove_diacritics", "2")
_TOKENIZER_LOCK = threading.Lock()
_tokenizer: object | None = None


def _index_tokenizer() -> object:
    """FTS5's porter tokenizer as the index builds it, on a private in-memory connection."""
    global _tokenizer
    with _TOKENIZER_LOCK:
        if _tokenizer is None:
            _tokenizer = apsw.Connection(":memory:").fts5_tokenizer(INDEX_TOKENIZER[0], list(INDEX_TOKENIZER[1:]))
        return _tokenizer


@lru_cache(maxsize=4096)
def stem(word: str) -> str:
    """The token the index holds for ``word``: case folded, diacritics removed, English words by their
    Porter stem (``Decided`` → ``decid``, ``happiness`` → ``happi``); other scripts are left as they
    are. A text of several words gives the first word's token; a text with no word gives ``""``."""
    tokenizer = _index_tokenizer()
    with _TOKENIZER_LOCK:  # one connection: calls from TUI workers take turns
        tokens = tokenizer(word.encode("utf-8", "surrogatepass"), apsw.FTS5_TOKENIZE_DOCUMENT, None)  # type: ignore[operator]
    return str(tokens[0][2]) if tokens else ""


def stems(text: str) -> frozenset[str]:
    """Every token the index holds for ``text`` (see :func:`stem`), in one tokenizer call."""
    tokenizer = _index_tokenizer()
    with _TOKENIZER_LOCK:
        tokens = tokenizer(text.encode("utf-8", "surrogatepass"), apsw.FTS5_TOKENIZE_DOCUMENT, None)  # type: ignore[operator]
    return frozenset(str(t[2]) for t in tokens)


def same_stem(word: str, terms: frozenset[str] | set[str]) -> bool:
    """Whether ``word`` is searched by one of the stems in ``terms`` (see :func:`stem`)."""
    return stem(word) in terms
