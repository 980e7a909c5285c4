"""The top-level elements of a JSON array (or one JSON value) read from a file in bounded memory.

The common path parses each element straight from a small decoded window with the C decoder
(``JSONDecoder.raw_decode``, which finds where the element ends as it parses); the byte scanner
(:func:`_extent`) runs only where that cannot work: an element longer than ``HOLD_BYTES``, one that
does not parse, or garbage between elements (figures: tests/bench/README.md, ``bench_chatgpt_import.py``).
Each element is judged alone: one that does not parse or is longer than ``max_bytes`` (never parsed)
becomes a :class:`Broken` with its byte span, and the elements after it are still read. A file that
ends inside an element ends with a :class:`Broken` running to its end: quarantined, not lost.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from core.conversation.lines import open_regular

CHUNK = 1024 * 1024
HOLD_BYTES = 4 * 1024 * 1024  # an element longer than this is measured by the scanner, then read alone
_BOM = b"\xef\xbb\xbf"
_WS = re.compile(r"[ \t\n\r]*")
_WS_BYTES = b" \t\n\r"

# The byte scanner. JSON strings and brackets are ASCII, and every byte of a multi-byte UTF-8 character
# is >= 0x80, so scanning bytes finds the same structure as scanning text, even in invalid UTF-8.
_STRING = rb'"(?:[^"\\]++|\\.)*+"'
_STRING_BODY = re.compile(rb'(?:[^"\\]++|\\.)*+', re.S)  # up to the closing quote, or the end of the bytes


def _balanced(levels: int) -> bytes:
    """Bytes holding no unmatched bracket nested at most ``levels`` deep; brackets are not paired by
    kind (``json.loads`` checks that later). Everything possessive, so a failed match never backtracks."""
    inner = rb"(?:[^\"\[\]{}]++|" + _STRING + rb")*+"
    for _ in range(levels):
        inner = rb"(?:[^\"\[\]{}]++|" + _STRING + rb"|[\[{]" + inner + rb"[\]}])*+"
    return inner


_INSIDE = re.compile(_balanced(24), re.S)  # one match skips a whole ChatGPT node, usually a whole conversation
_TOP = re.compile(rb"(?:[^\"\[\]{},]++|" + _STRING + rb"|[\[{]" + _balanced(23) + rb"[\]}])*+", re.S)


@dataclass(frozen=True)
class Element:
    number: int  # 1-based position in the array
    line: int  # line of the file where it starts
    start: int  # byte span in the file
    end: int
    value: Any


@dataclass(frozen=True)
class Broken:
    """Bytes ``start``..``end`` of the file that are not a readable element, and why (one line)."""

    number: int  # the element it is or follows (0 before the first)
    line: int
    start: int
    end: int
    reason: str


class _Window:
    """The file decoded from a byte offset on, a chunk at a time. Invalid UTF-8 becomes lone
    surrogates (``surrogateescape``), so byte positions stay exact and the bytes can be recovered."""

    def __init__(self, handle: IO[bytes], offset: int) -> None:
        handle.seek(offset)
        self.handle = handle
        self.text = ""
        self.eof = False
        self._decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")

    def fill(self, cursor: int, at_least: int = CHUNK) -> int:
        """Drop the text before ``cursor`` and read at least ``at_least`` more bytes; the new cursor."""
        data = self.handle.read(max(at_least, CHUNK))
        self.eof = not data
        self.text = self.text[cursor:] + self._decoder.decode(data, final=self.eof)
        return 0


def _byte_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogateescape"))


def _bad_utf8(text: str) -> int | None:
    """The index of the first character that was an invalid byte, or ``None``."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def _extent(handle: IO[bytes], start: int) -> tuple[int, int, bool]:
    """Where the element starting at byte ``start`` ends, read in chunks: (its end without trailing
    whitespace, the offset of the ``,`` or ``]`` after it, whether the file ended inside it). It ends
    at a ``,`` or ``]`` outside strings and brackets; garbage up to there is one element too."""
    handle.seek(start)
    depth, in_string = 0, False
    offset, buf, i, last = start, b"", 0, start  # buf[i] is file byte offset + i; last: end of the last non-space
    while True:
        if i >= len(buf) or (in_string and i == len(buf) - 1 and buf[i] == 0x5C):  # 0x5C: a backslash
            more = handle.read(CHUNK)
            if not more:
                if depth or in_string:
                    return offset + len(buf), offset + len(buf), True
                return last, offset + len(buf), False
            offset += i
            buf, i = buf[i:] + more, 0
        if in_string:
            i = _STRING_BODY.match(buf, i).end()  # type: ignore[union-attr]
            if i < len(buf) and buf[i] == 0x22:  # the closing quote
                in_string = False
                i += 1
                last = offset + i
            continue
        stop = (_INSIDE if depth else _TOP).match(buf, i).end()  # type: ignore[union-attr]
        if stop > i and not depth:
            end = stop
            while end > i and buf[end - 1] in _WS_BYTES:
                end -= 1
            if end > i:
                last = offset + end
        i = stop
        if i >= len(buf):
            continue
        byte = buf[i]
        i += 1
        if byte == 0x22:
            in_string = True
        elif byte in b"[{":
            depth += 1
        elif depth:
            depth -= 1
            last = offset + i
        elif byte in b",]":
            return last, offset + i - 1, False
        else:
            last = offset + i  # a "}" outside anything: garbage, part of the element


def _count_newlines(handle: IO[bytes], start: int, end: int) -> int:
    handle.seek(start)
    count = 0
    while start < end:
        block = handle.read(min(CHUNK, end - start))
        if not block:
            break
        count += block.count(b"\n")
        start += len(block)
    return count


def _parse_alone(text: str, number: int, line: int, start: int, noun: str) -> list[Element | Broken]:
    """The element in ``text`` (bytes from ``start`` of the file), or why not; garbage after a value
    comes as its own :class:`Broken`."""
    end = start + _byte_len(text)
    bad = _bad_utf8(text)
    if bad is not None:
        return [Broken(number, line, start, end, f"{noun} {number}: not UTF-8 at byte {start + _byte_len(text[:bad])}")]
    try:
        value, stop = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError as exc:
        where = f"line {line + exc.lineno - 1}, byte {start + _byte_len(text[:exc.pos])}"
        return [Broken(number, line, start, end, f"{noun} {number}: not JSON: {exc.msg} ({where})")]
    except RecursionError:
        return [Broken(number, line, start, end, f"{noun} {number}: not JSON: nested too deeply")]
    found: list[Element | Broken] = [Element(number, line, start, start + _byte_len(text[:stop]), value)]
    tail = _WS.match(text, stop).end()  # type: ignore[union-attr]
    if tail < len(text):
        at = start + _byte_len(text[:tail])
        why = f"not JSON: unexpected data after {noun} {number} (expected ',' or ']')"
        found.append(Broken(number, line + text.count("\n", 0, tail), at, end, why))
    return found


class _ElementReader:
    def __init__(self, handle: IO[bytes], size: int, max_bytes: int, noun: str) -> None:
        self.handle = handle
        self.size = size
        self.max_bytes = max_bytes
        self.noun = noun
        self.byte = len(_BOM) if handle.read(len(_BOM)) == _BOM else 0  # file offset of the cursor
        self.window = _Window(handle, self.byte)
        self.pos = 0  # the cursor in window.text
        self.line = 1
        self.ended = False  # a Broken already runs to the end of the file
        self.decoder = json.JSONDecoder()

    def advance(self, to: int, length: int | None = None) -> None:
        """Move the cursor to ``to`` (``length``: the bytes passed over, when known)."""
        text = self.window.text
        self.line += text.count("\n", self.pos, to)
        self.byte += _byte_len(text[self.pos : to]) if length is None else length
        self.pos = to

    def jump(self, offset: int, lines: int) -> None:
        """Go on from byte ``offset`` of the file, ``lines`` newlines further on."""
        self.line += lines
        self.byte = offset
        self.window = _Window(self.handle, offset)
        self.pos = 0

    def peek(self) -> str:
        """The next character that is not whitespace (the cursor moves to it), or ``""`` at the end."""
        while True:
            text = self.window.text
            self.advance(_WS.match(text, self.pos).end())  # type: ignore[union-attr]
            if self.pos < len(text):
                return text[self.pos]
            if self.window.eof:
                return ""
            self.pos = self.window.fill(self.pos)

    def rest(self, number: int, why: str) -> Broken:
        """Everything from the cursor to the end of the file."""
        self.ended = True
        return Broken(number, self.line, self.byte, self.size, f"not JSON: {why}; the rest of the file is not read")

    def value(self, number: int) -> list[Element | Broken]:
        """The element at the cursor (a character that is not whitespace); the cursor goes past it."""
        while True:
            window, pos = self.window, self.pos
            try:
                value, end = self.decoder.raw_decode(window.text, pos)
            except json.JSONDecodeError as exc:
                cut = exc.msg.startswith("Unterminated string") or exc.pos >= len(window.text) - 8
                if cut and not window.eof and len(window.text) - pos < min(HOLD_BYTES, self.max_bytes):
                    self.pos = window.fill(pos, len(window.text) - pos)  # read on: twice as much each time
                    continue
                break  # a real error, or too long to hold: measured by the scanner
            except RecursionError:
                break
            if end >= len(window.text) and not window.eof and isinstance(value, int | float):
                self.pos = window.fill(pos)  # a number may go on in the next chunk
                continue
            text = window.text[pos:end]
            if _bad_utf8(text) is not None:
                break
            start, line, length = self.byte, self.line, _byte_len(text)
            if length > self.max_bytes:
                break
            self.advance(end, length)
            return [Element(number, line, start, start + length, value)]
        return self._measured(number)

    def _measured(self, number: int) -> list[Element | Broken]:
        """The element at the cursor, measured by the scanner first, then parsed alone if not too long."""
        start, line = self.byte, self.line
        end, after, cut = _extent(self.handle, start)
        if end - start > self.max_bytes:
            why = (f"{self.noun} {number} (bytes {start}-{end}) is {end - start} bytes, over the "
                   f"{self.max_bytes / (1 << 20):g} MiB limit for one {self.noun}; copied, not parsed")
            self.jump(after, _count_newlines(self.handle, start, after))
            return [Broken(number, line, start, end, why)]
        self.handle.seek(start)
        text = self.handle.read(end - start).decode("utf-8", "surrogateescape")
        self.jump(after, text.count("\n") + _count_newlines(self.handle, end, after))
        if cut:
            self.ended = True
            return [Broken(number, line, start, end, f"not JSON: the file ends inside {self.noun} {number} "
                           "(a truncated export?); the rest of the file is not read")]
        return _parse_alone(text, number, line, start, self.noun)

    def elements(self) -> Iterator[Element | Broken]:
        first = self.peek()
        if not first:
            return
        if first != "[":
            yield from self.value(1)
            if not self.ended and self.peek():
                yield self.rest(1, f"extra data after the {self.noun}")
            return
        self.advance(self.pos + 1)
        if self.peek() == "]":
            self.advance(self.pos + 1)
        else:
            yield from self._list()
        if not self.ended and self.peek():
            yield self.rest(0, "extra data after the list")

    def _list(self) -> Iterator[Element | Broken]:
        number, want_value, gap = 0, True, False
        while not self.ended:
            char = self.peek()
            if not char:
                yield self.rest(number, "the file ends before the list is closed (a truncated export?)")
            elif want_value and char in ",]":  # "[,", ",," or ",]": no element where one should be
                why = f"no {self.noun} after {self.noun} {number} and its ','"
                if not number:
                    why = f"a ',' before the first {self.noun}"
                if not gap:
                    yield Broken(number, self.line, self.byte, self.byte + 1, f"not JSON: {why}")
                gap = char == ","
                self.advance(self.pos + 1)
                if char == "]":
                    return
            elif want_value:
                number += 1
                yield from self.value(number)
                want_value, gap = False, False
            elif char in ",]":
                self.advance(self.pos + 1)
                if char == "]":
                    return
                want_value = True
            else:
                start, line = self.byte, self.line
                end, after, _cut = _extent(self.handle, start)
                self.jump(after, _count_newlines(self.handle, start, after))
                yield Broken(number, line, start, end,
                             f"not JSON: unexpected data after {self.noun} {number} (expected ',' or ']')")


def elements(path: Path, max_bytes: int, noun: str = "element") -> Iterator[Element | Broken]:
    """The elements of the JSON array in ``path`` (or its one value, when it is not an array), each
    parsed alone; what cannot be read comes as a :class:`Broken` span and the elements after it are
    still read. A leading UTF-8 BOM is ignored."""
    with open_regular(path) as handle:
        size = handle.seek(0, 2)
        handle.seek(0)
        yield from _ElementReader(handle, size, max_bytes, noun).elements()
