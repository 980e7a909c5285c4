"""People as a person names them: a word of the query read as the name of someone who speaks.

A name matches regardless of case ("caroline" is Caroline) and, when the word is not a common word of
the log, regardless of simple transliteration (:func:`folded`: c/k, ph/f, y/i, doubled letters, an
``h`` after another letter; Karoline → Caroline) and of one slip of the keyboard, keeping the first
letter (:func:`within_one` for names of 5 letters or more, Carolnie → Caroline, not "games" → James;
:func:`slip` for shorter ones, Naet → Nate). A word read this way is said in the answer ("read
'Karoline' as Caroline"); a word the log itself uses more than a few times ("grade" when Grace
speaks) is never read as a name.

A word that is one speaker's name as written and :func:`close` to a longer speaker's name ("Jon"
when both Jon and John speak) is read as both: the person may have written John the short way, a
letter left out. The name as written counts more (``Ranking.name_variant_weight``, see
core.recall.engine), and the answer says so ("read 'Jon' as Jon, also as John"). A longer name is
not read as a shorter one ("John" stays John: nobody adds an h by accident), nor a name as another of
its length. A person would call this right on their own log: with Jon and John both in it, "what did
Jon say about the game" is most likely Jon, possibly John.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

MIN_EDIT_LETTERS = 5  # names shorter than this match as written, folded or by one slip (:func:`slip`)
MIN_SLIP_LETTERS = 3
_KEY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_BESIDE = frozenset((row[i], row[i + 1]) for row in _KEY_ROWS for i in range(len(row) - 1))
_FOLDS = (("ph", "f"), ("ck", "k"), ("c", "k"), ("q", "k"), ("y", "i"), ("w", "v"))
_H_AFTER = re.compile(r"(?<=[a-z])h")
_DOUBLE = re.compile(r"(.)\1+")
_LATIN = re.compile(r"^[a-z]+\Z")


@dataclass(frozen=True)
class Reading:
    """``word`` of the query read as the name ``actor`` (``exact``: as written, up to case; ``also``:
    the word names someone else as written, and this is its second reading, weighed less)."""

    actor: str
    word: str
    exact: bool
    also: str | None = None  # the speaker the word names as written, when this is a second reading

    def note(self) -> str | None:
        if self.also is not None:
            return f"read '{self.word}' as {self.also}, also as {self.actor}"
        return None if self.exact else f"read '{self.word}' as {self.actor}"


def folded(word: str) -> str:
    """``word`` case folded with its romanisation variants folded: ``Karoline`` and ``Caroline`` →
    ``karoline``, ``Johanna`` → ``joana``. Other scripts are only case folded."""
    text = word.casefold()
    if not _LATIN.match(text):
        return text
    for old, new in _FOLDS:
        text = text.replace(old, new)
    return _DOUBLE.sub(r"\1", _H_AFTER.sub("", text))


def within_one(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are at most one edit apart (Damerau: a swap of neighbours is one)."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if len(diffs) == 1:
            return True
        i = diffs[0]
        return len(diffs) == 2 and diffs[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long[i]:
        i += 1
    return short[i:] == long[i + 1:]


def close(word: str, name: str) -> bool:
    """Whether ``word`` may be a way of writing ``name`` (both one word, any case)."""
    a, b = word.casefold(), name.casefold()
    if a == b or folded(a) == folded(b):
        return True
    if folded(a)[:1] != folded(b)[:1] or min(len(a), len(b)) < MIN_SLIP_LETTERS:
        return False  # a slip of the keyboard keeps the first letter ("games" is not James)
    if min(len(a), len(b)) < MIN_EDIT_LETTERS:
        return slip(a, b)  # too many short names are one edit apart ("Kata", "Kate"): only a slip
    return within_one(a, b) or within_one(folded(a), folded(b))


def slip(a: str, b: str) -> bool:
    """Whether ``a`` is ``b`` typed with one slip of the finger: two neighbouring letters swapped
    (Naet → Nate) or one letter replaced by the key beside it on its QWERTY row (Nste → Nate)."""
    if len(a) != len(b):
        return False
    diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(diffs) == 1:
        x, y = a[diffs[0]], b[diffs[0]]
        return (x, y) in _BESIDE or (y, x) in _BESIDE
    return len(diffs) == 2 and diffs[1] == diffs[0] + 1 and a[diffs[0]] == b[diffs[1]] and a[diffs[1]] == b[diffs[0]]


def first_names(actor: str) -> list[str]:
    """The words by which ``actor`` may be named: the whole name when it is one word, else its first
    word (``Kate Smith`` → ``Kate``); names of one character are left out."""
    words = actor.split()
    return [words[0]] if words and len(words[0]) >= 2 else []


def read_names(words: Iterable[str], actors: Iterable[str], *, frequency: Callable[[str], int] | None = None,
               common: int = 2, stopwords: frozenset[str] = frozenset()) -> list[Reading]:
    """The query's ``words`` read as names of ``actors``: as written (case folded) first; a word
    that matches no one as written is read as the closest name that :func:`close` allows, unless the
    log holds it in more than ``common`` documents (``frequency``) or it is a stop word. A word that
    names someone as written is also read, second (``also``), as the longer names :func:`close` allows."""
    by_name: dict[str, list[str]] = {}
    for actor in set(actors):
        for name in first_names(actor):
            by_name.setdefault(name.casefold(), []).append(actor)
    out: list[Reading] = []
    for word in dict.fromkeys(words):
        key = word.casefold()
        if key in by_name:
            mine = sorted(by_name[key])
            out += [Reading(actor, word, True) for actor in mine]
            # a longer name it may be written short of ("Jon": John), never a shorter one ("John" is
            # not Jon: an h is not added by accident)
            longer = sorted(name for name in by_name if len(name) > len(key) and close(key, name))
            out += [Reading(actor, word, False, mine[0]) for name in longer for actor in sorted(by_name[name])
                    if actor not in mine]
            continue
        if key in stopwords or len(key) < 3:
            continue
        near = sorted(name for name in by_name if close(key, name))
        if near and (frequency is None or frequency(word) <= common):
            out += [Reading(actor, word, False) for name in near for actor in sorted(by_name[name])]
    return out
