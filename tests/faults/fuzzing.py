"""Shared pieces of the fuzz tests: example budgets, a hard time limit per example, JSON strategies, and
the check that an error is a clear one-line message naming the input.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from types import FrameType
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("REVERIE_FUZZ_EXAMPLES", "20"))
EXAMPLE_SECONDS = 10  # one example taking longer than this is a hang

FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=os.environ.get("REVERIE_FUZZ_RANDOM") is None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large, HealthCheck.filter_too_much])


class Hang(Exception):
    pass


@contextlib.contextmanager
def within(seconds: float = EXAMPLE_SECONDS, what: str = "") -> Iterator[None]:
    """Fail (``Hang``) if the block runs longer than ``seconds`` (SIGALRM: main thread only)."""

    def alarm(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"{what or 'the call'} ran longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def assert_one_line(error: BaseException, *names: str) -> None:
    """A person-facing error: one line, not empty, naming one of ``names`` (a path, a field, a file)."""
    text = str(error)
    assert text.strip(), f"{type(error).__name__} with an empty message"
    assert "\n" not in text and "\r" not in text, f"{type(error).__name__} over several lines: {text!r}"
    assert "Traceback" not in text
    if names:
        assert any(name in text for name in names), f"{text!r} names none of {names}"


# Text that breaks things: control characters, bidi overrides, lone surrogates, NUL, very long runs,
# CJK, combining marks, and JSON-looking fragments.
NASTY = st.sampled_from([
    "", " ", "\x00", "\n", "\r\n", "\u2028", "\u202e", "\ufeff", "\ud800", "\udfff", "\U0001f600", "é", "e\u0301",
    "서울숲", "会議", "\\", '"', "{", "}", "[", "]", "null", "1e309", "-0", "NaN",
    "2026-11-03T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59+14:00", "../../etc/passwd", "/", "..",
])
LONG = st.builds(lambda c, n: c * n, st.sampled_from(["a", "9", "서", "\x01", " "]), st.integers(200, 6000))
TEXT = st.one_of(st.text(max_size=60), NASTY, LONG, st.builds(lambda a, b: a + b, NASTY, st.text(max_size=20)))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                    st.floats(allow_nan=True, allow_infinity=True), TEXT)
JSON: st.SearchStrategy[Any] = st.recursive(
    SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=12)


def maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """The value, or any other JSON value in its place (a field of the wrong type)."""
    return st.one_of(strategy, strategy, strategy, JSON)


def drop_some(draw: st.DrawFn, obj: dict[str, Any]) -> dict[str, Any]:
    """``obj`` with some keys removed (a missing field)."""
    keys = list(obj)
    gone = draw(st.sets(st.sampled_from(keys), max_size=2)) if keys else set()
    return {k: v for k, v in obj.items() if k not in gone}
