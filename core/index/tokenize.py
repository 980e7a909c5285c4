"""Text for FTS5, and safe MATCH expressions built from anything a person types.

Korean, Japanese and Chinese put no spaces inside a word (서울숲에서, 会議で), so, as Lucene's CJK
analyzer does, every run of CJK characters is indexed as its overlapping character bigrams and its
last character alone (서울 울숲 숲에 에서 서); a query is cut the same way into a phrase of bigrams,
which matches inside any longer word. Everything else goes through FTS5's ``unicode61`` tokenizer
(diacritics removed, case folded), after NFKC so full-width forms match their ordinary ones. Every
query token is emitted inside a double-quoted string, so ``AND``, ``NEAR(``, ``*``, ``"`` or ``:`` are
plain text, and a query with nothing searchable yields ``None`` instead of a syntax error.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Sequence
from typing import Literal

import apsw

MatchMode = Literal["all", "any"]

_CJK = (
    "\u1100-\u11ff"  # Hangul Jamo
    "\u3005-\u3007"  # 々 〆 〇
    "\u3041-\u3096\u309d-\u309f"  # Hiragana
    "\u30a1-\u30fa\u30fc-\u30ff"  # Katakana (not the middle dot ・)
    "\u3131-\u318e"  # Hangul compatibility Jamo
    "\u31f0-\u31ff"  # Katakana phonetic extensions
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\ua960-\ua97f"  # Hangul Jamo extended A
    "\uac00-\ud7a3"  # Hangul syllables
    "\ud7b0-\ud7ff"  # Hangul Jamo extended B
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\U00020000-\U0003134f"  # CJK extensions B-H
)
_CJK_RUN = re.compile(f"[{_CJK}]+")


def _split(text: str) -> list[str]:
    return text.split()


# Dropped from "any" queries (when something else is left): they match most rows and slow the scan.
STOPWORDS = frozenset(
    _split(
        "a about above after again against all am an and any are as at be because been before being below "
        "between both but by can could did do does doing down during each few for from further had has have "
        "having he her here hers herself him himself his how i if in into is it its itself just me more most "
        "my myself no nor not now of off on once only or other our ours ourselves out over own same she "
        "should so some such than that the their theirs them themselves then there these they this those "
        "through to too under until up very was we were what when where which while who whom why will with "
        "would you your yours yourself yourselves"
    )
)
# One-character particles of Korean, Japanese and Chinese: dropped from a longer "any" query.
PARTICLES = frozenset("은는이가을를에의도와과로만のはがをにでともへや的了是在和")


def normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def cjk_grams(run: str) -> list[str]:
    """Overlapping bigrams of a CJK run, then its last character (a one-character run: itself)."""
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)] + [run[-1]]


def _run_body(match: re.Match[str]) -> str:
    """A CJK run as its ``cjk_grams``, space-separated and set apart (bigrams joined in C)."""
    run = match.group()
    if len(run) == 1:
        return f" {run} "
    return " " + " ".join(map(str.__add__, run[:-1], run[1:])) + f" {run[-1]} "


def index_text(text: str) -> str:
    """The ``body`` stored in FTS5 for ``text``: CJK runs as bigrams, the rest as written."""
    return _CJK_RUN.sub(_run_body, normalize(text))


def _cjk_bounds() -> list[int]:
    """The ranges of ``_CJK`` as sorted [first, last + 1, first, last + 1, …] code points."""
    out: list[int] = []
    i = 0
    while i < len(_CJK):
        if i + 2 < len(_CJK) and _CJK[i + 1] == "-":
            out += [ord(_CJK[i]), ord(_CJK[i + 2]) + 1]
            i += 3
        else:
            out += [ord(_CJK[i]), ord(_CJK[i]) + 1]
            i += 1
    return out


_CJK_BOUNDS = _cjk_bounds()
_JOIN = "\x00"  # joins the texts of one batch: not CJK, left alone by NFKC, and never composes
BATCH_MIN_TEXTS = 64  # fewer non-ASCII texts: one by one (numpy's set-up costs more than it saves)


def index_texts(texts: Sequence[str]) -> list[str]:
    """``[index_text(t) for t in texts]``, for a batch at C speed (a first build's bodies).

    The non-ASCII texts are joined into one string, normalised at once (NFKC of texts joined by
    U+0000 is the join of their NFKC: U+0000 is a starter that composes with nothing), and every
    CJK run is cut into its bigrams by numpy over the code points instead of a Python call per run
    (about 10× faster on the benchmark's mixed log; ``tests/index/test_index_tokenize.py`` holds
    the two equal). ASCII texts are their own bodies (see ``catalog.fts_body``)."""
    out = list(texts)
    wide = [i for i, text in enumerate(out) if not text.isascii()]
    batch = [i for i in wide if _JOIN not in out[i]]
    if len(batch) < BATCH_MIN_TEXTS:
        batch = []
    for i in set(wide).difference(batch):
        out[i] = index_text(out[i])
    if batch:
        for i, body in zip(batch, _bigram_bodies(normalize(_JOIN.join(out[i] for i in batch))).split(_JOIN),
                           strict=True):
            out[i] = body
    return out


def _bigram_bodies(text: str) -> str:
    """``_CJK_RUN.sub(_run_body, text)`` over code points: each CJK character becomes itself and the
    next one when that is CJK too, then a space; the first of a run is preceded by a space."""
    import numpy as np  # lazy: `import core.index` loads no numpy (tests/embed/test_embed.py)

    if not text:
        return text
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    cjk = (np.searchsorted(np.asarray(_CJK_BOUNDS, dtype=np.uint32), points, side="right") & 1).astype(bool)
    starts = cjk.copy()
    starts[1:] &= ~cjk[:-1]
    pairs = np.zeros_like(cjk)
    pairs[:-1] = cjk[:-1] & cjk[1:]
    sizes = np.where(cjk, 2 + starts.astype(np.int64) + pairs, 1)
    ends = np.cumsum(sizes)
    where = ends - sizes + starts  # the character's own place in the output
    out = np.full(int(ends[-1]), ord(" "), dtype=np.uint32)
    out[where] = points
    paired = np.flatnonzero(pairs)
    out[where[paired] + 1] = points[paired + 1]
    return out.tobytes().decode("utf-32-le", "surrogatepass")


def _quote(token: str) -> str:
    return '"' + token.replace('"', '""') + '"'


_tokenizer_lock = threading.Lock()
_tokenizer: apsw.FTS5Tokenizer | None = None
_tokenizer_conn: apsw.Connection | None = None


_ASCII_TOKEN = re.compile(r"[A-Za-z0-9]+")


def _fts_tokens(text: str) -> list[tuple[int, int, str]]:
    """``text`` cut by FTS5's own unicode61 tokenizer (so queries and rows always agree).

    ASCII text takes a shortcut with the same result: unicode61's token characters in ASCII are
    exactly letters and digits, folded to lower case (byte offsets equal character offsets)."""
    if text.isascii():
        return [(m.start(), m.end(), m.group().lower()) for m in _ASCII_TOKEN.finditer(text)]
    global _tokenizer, _tokenizer_conn
    with _tokenizer_lock:
        if _tokenizer is None:
            _tokenizer_conn = apsw.Connection(":memory:")
            _tokenizer = _tokenizer_conn.fts5_tokenizer("unicode61", ["remove_diacritics", "2"])
        return [
            (start, end, token)
            for start, end, token, *_ in _tokenizer(
                text.encode("utf-8"), apsw.FTS5_TOKENIZE_QUERY, None, include_colocated=False
            )
        ]


def _words(text: str) -> list[str]:
    """Words of non-CJK text as FTS5 tokens; tokens joined by punctuation only (e-mail, 3.14) stay
    together as one phrase."""
    data = text.encode("utf-8")
    words: list[list[str]] = []
    last_end = 0
    for start, end, token in _fts_tokens(text):
        gap = data[last_end:start].decode("utf-8", "replace")
        if words and not any(ch.isspace() for ch in gap):
            words[-1].append(token)
        else:
            words.append([token])
        last_end = end
    return [" ".join(parts) for parts in words]


def _segments(query: str) -> list[tuple[str, str]]:
    """The query's searchable pieces in order: ("cjk", run) or ("word", word or phrase)."""
    text = normalize(query)
    pieces: list[tuple[str, str]] = []
    last = 0
    for match in _CJK_RUN.finditer(text):
        pieces.extend(("word", w) for w in _words(text[last : match.start()]))
        pieces.append(("cjk", match.group()))
        last = match.end()
    pieces.extend(("word", w) for w in _words(text[last:]))
    return pieces


def _cjk_clause(run: str, mode: MatchMode) -> str:
    if len(run) == 1:
        return _quote(run) + "*"
    grams = [run[i : i + 2] for i in range(len(run) - 1)]
    phrase = _quote(" ".join(grams))
    if mode == "all" or len(grams) == 1:
        return phrase
    # "any": the whole run as a phrase (ranks exact matches first) or any of its bigrams, so a long
    # unspaced Japanese or Chinese question still finds the rows that share part of it.
    return "(" + " OR ".join([phrase, *(_quote(g) for g in dict.fromkeys(grams))]) + ")"


def build_match(query: str, mode: MatchMode = "any") -> str | None:
    """A MATCH expression for ``query`` (``None`` when nothing in it is searchable).

    ``all``: every word and every CJK run must occur (runs as phrases). ``any``: rows matching more
    of them rank higher (bm25); English stop words and one-character particles are left out unless
    nothing else is left.
    """
    pieces = list(dict.fromkeys(_segments(query)))
    if not pieces:
        return None
    if mode == "any":
        kept = [
            (kind, value)
            for kind, value in pieces
            if not (kind == "word" and value.casefold() in STOPWORDS)
            and not (kind == "cjk" and len(value) == 1 and value in PARTICLES)
        ]
        pieces = kept or pieces
    clauses = [_cjk_clause(value, mode) if kind == "cjk" else _quote(value) for kind, value in pieces]
    return (" AND " if mode == "all" else " OR ").join(clauses)
