"""core.typed: dataclasses to JSON values and back by msgspec, with one-line errors naming the field."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from core.typed import convert, convert_as_python, document_problem, to_builtins


class Colour(StrEnum):
    RED = "red"


@dataclass(frozen=True)
class Inner:
    n: int
    label: str = ""


@dataclass(frozen=True)
class Outer:
    name: str
    where: Path
    inner: Inner
    items: tuple[Inner, ...] = ()
    notes: tuple[str, ...] = ()
    extra: Any = None
    colour: Colour = Colour.RED
    made: str = field(default_factory=lambda: "now")


def test_to_builtins_gives_json_values_in_declared_order() -> None:
    value = Outer("a", Path("/x/y"), Inner(1), (Inner(2, "b"),), ("p",), MappingProxyType({"k": (1, 2)}))
    data = to_builtins(value)
    assert data == {"name": "a", "where": "/x/y", "inner": {"n": 1, "label": ""},
                    "items": [{"n": 2, "label": "b"}], "notes": ["p"], "extra": {"k": [1, 2]},
                    "colour": "red", "made": "now"}
    assert list(data) == ["name", "where", "inner", "items", "notes", "extra", "colour", "made"]
    assert isinstance(data["notes"], list)
    assert list(to_builtins(value, omit=("inner", "items"))) == ["name", "where", "notes", "extra", "colour", "made"]
    with pytest.raises(TypeError, match="needs a dataclass"):
        to_builtins({"a": 1}, omit=("a",))


def test_convert_names_the_field_in_one_line() -> None:
    good = {"name": "a", "where": "/x", "inner": {"n": 1}, "items": [{"n": 2}]}
    loaded = convert(good, Outer, "doc")
    assert loaded.where == Path("/x") and loaded.items == (Inner(2),)
    cases = [
        ({**good, "inner": {"n": "1"}}, "doc: field 'inner.n': expected int, got str"),
        ({**good, "inner": {"n": True}}, "doc: field 'inner.n': expected int, got bool"),
        ({**good, "items": [{"label": "x"}]}, "doc: field 'items[0].n' missing"),
        ({k: v for k, v in good.items() if k != "name"}, "doc: field 'name' missing"),
        ({**good, "colour": "blue"}, "doc: field 'colour': invalid enum value 'blue'"),
        ([good], "doc: expected object, got array"),
    ]
    for data, message in cases:
        with pytest.raises(ValueError) as caught:
            convert(data, Outer, "doc")
        assert str(caught.value) == message


def test_document_problems_are_found_in_document_order() -> None:
    good = {"name": "a", "where": "/x", "inner": {"n": 1}}
    assert document_problem(good, Outer) is None
    assert document_problem({**good, "zz": 1, "inner": {"n": 1, "yy": 2}}, Outer) == ("unknown", "inner.yy")
    assert document_problem({**good, "items": [{"n": 1}, {"n": 2, "q": 0}]}, Outer) == ("unknown", "items[1].q")
    # complete: a default made at construction or a meaningful one must be written; empty ones may be left out
    assert document_problem(good, Outer, complete=True) == ("missing", "colour")
    assert document_problem({**good, "colour": "red", "made": "then"}, Outer, complete=True) is None


def test_convert_as_python_raises_python_errors() -> None:
    good = {"name": "a", "where": "/x", "inner": {"n": 1}}
    with pytest.raises(KeyError, match="'made' missing"):
        convert_as_python({**good, "colour": "red"}, Outer, "doc", complete=True)
    with pytest.raises(KeyError, match="'name' missing"):
        convert_as_python({"where": "/x", "inner": {"n": 1}}, Outer, "doc", complete=True)
    with pytest.raises(TypeError, match="'name' missing"):  # as ``Outer(**data)`` would
        convert_as_python({"where": "/x", "inner": {"n": 1}}, Outer, "doc")
    with pytest.raises(TypeError, match="unknown field 'surprise'"):
        convert_as_python({**good, "surprise": 1}, Outer, "doc")
    with pytest.raises(TypeError, match="expected str, got int"):
        convert_as_python({**good, "name": 3}, Outer, "doc")
    with pytest.raises(ValueError, match="invalid enum value"):
        convert_as_python({**good, "colour": "blue"}, Outer, "doc")


@dataclass(frozen=True)
class Checked:
    n: int

    def __post_init__(self) -> None:
        if self.n < 0:
            raise ValueError("n must not be negative")


def test_a_types_own_check_is_raised_as_it_was() -> None:
    with pytest.raises(ValueError) as caught:
        convert_as_python({"n": -1}, Checked, "doc")
    assert str(caught.value) == "n must not be negative" and type(caught.value) is ValueError
