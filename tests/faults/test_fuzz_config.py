"""Fuzz ``config.toml``: documents shaped like the settings (every section and key, values of any TOML
type, unknown keys, odd names) and plain bytes. Each loads as settings or fails with one line naming the
file and the key; a command run on such a home says so in one line, never a traceback.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import tempfile
import typing
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import given
from hypothesis import strategies as st

from core.config import Config, ConfigError, load_config
from tests.faults.fuzzing import FUZZ, TEXT, assert_one_line, within

TOML_SCALAR = st.one_of(st.booleans(), st.integers(-(2**63), 2**63 - 1), st.floats(), TEXT.filter(
    lambda t: not any("\ud800" <= c <= "\udfff" for c in t)), st.datetimes(timezones=st.just(UTC)), st.dates(),
    st.times())
# Any key, control characters and line breaks included: the error names them escaped, on one line.
KEY = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=10)
TOML_VALUE = st.recursive(TOML_SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(KEY, inner, max_size=3)), max_leaves=6)


def _schema(cls: type) -> dict[str, Any]:
    """Section → key → type, from the settings' own dataclasses."""
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


SECTIONS = _schema(Config)


@st.composite
def value_for(draw: st.DrawFn, tp: Any) -> Any:
    if draw(st.integers(0, 4)) == 0:
        return draw(TOML_VALUE)
    if tp is bool:
        return draw(st.booleans())
    if tp is int:
        return draw(st.integers(-5, 10**6))
    if tp is float:
        return draw(st.floats())
    if tp is str:
        return draw(st.one_of(st.sampled_from(["", "UTC", "Asia/Seoul", "Mars/Olympus", "../../etc", "vault",
                                               "markdown", "all-MiniLM-L6-v2", "en", "ko", "ja"]),
                              TEXT.filter(lambda t: not any("\ud800" <= c <= "\udfff" for c in t))))
    origin = typing.get_origin(tp)
    if origin is list:
        (item,) = typing.get_args(tp)
        return draw(st.lists(value_for(item), max_size=3))
    if origin is dict:
        _, item = typing.get_args(tp)
        return draw(st.dictionaries(KEY, value_for(item), max_size=2))
    if dataclasses.is_dataclass(tp):
        fields = _schema(tp)
        chosen = draw(st.sets(st.sampled_from(sorted(fields)), max_size=len(fields)))
        return {name: draw(value_for(fields[name])) for name in chosen}
    return draw(TOML_VALUE)


@st.composite
def config_document(draw: st.DrawFn) -> str:
    doc: dict[str, Any] = {}
    for section in draw(st.sets(st.sampled_from(sorted(SECTIONS)), max_size=4)):
        doc[section] = draw(value_for(SECTIONS[section]))
    if draw(st.integers(0, 5)) == 0:
        doc[draw(KEY.filter(bool))] = draw(TOML_VALUE)
    return tomli_w.dumps(doc)


@FUZZ
@given(st.one_of(config_document(), config_document(), st.binary(max_size=300).map(
    lambda b: b.decode("utf-8", "replace"))))
def test_config_files(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.toml"
        path.write_text(text, encoding="utf-8")
        try:
            with within(what="load_config"):
                config = load_config(path)
        except ConfigError as exc:
            assert_one_line(exc, str(path))
            return
        assert isinstance(config, Config)


@FUZZ
@given(config_document())
def test_a_command_on_a_home_with_any_config_answers_in_one_line(text: str) -> None:
    from tui_app.cli.main import main
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        (home / "config.toml").write_text(text, encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), within(what="reverie topics"):
            try:
                main(["--home", str(home), "topics"])
            except SystemExit as exc:
                code = exc.code
        assert code in (0, 2), (code, err.getvalue())
        if code:
            lines = err.getvalue().strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("reverie: ") and "config.toml" in lines[0], lines


def test_a_timezone_too_long_for_a_file_name_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'[general]\ntimezone = "{"a" * 300}"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert_one_line(caught.value, str(path))


def test_a_key_with_a_line_break_still_gives_one_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[sharing.profiles."a\\nb"]\nmax_items = 0\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert_one_line(caught.value, str(path))


def test_the_strategies_reach_valid_settings_too() -> None:
    """Not every document fails: the fuzzing reaches the paths after loading as well."""
    doc = {"general": {"timezone": "Asia/Seoul", "languages": ["en", "ko"]}, "recall": {"default_limit": 5},
           "curation": {"scopes": [{"name": "notes", "kind": "markdown", "path": "/tmp/notes"}]}}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.toml"
        path.write_text(tomli_w.dumps(doc))
        assert load_config(path).general.timezone == "Asia/Seoul"


@pytest.mark.parametrize("text", [
    "general = " + "[" * 100_000 + "]" * 100_000 + "\n",
    "general = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n",
    "[general]\nlanguages = " + "[" * 2000 + "]" * 2000 + "\n",
], ids=["arrays-100k", "inline-tables-3k", "arrays-in-a-known-key"])
def test_a_deeply_nested_config_is_one_line_naming_the_file(tmp_path: Path, text: str) -> None:
    """Issue 11, F7: a ``RecursionError`` traceback before; a one-line error naming the file now, also
    from the real CLI."""
    from tui_app.cli.main import main

    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(home / "config.toml")
    assert_one_line(caught.value, str(home / "config.toml"))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exited:
        main(["--home", str(home), "topics"])
    lines = err.getvalue().strip().splitlines()
    assert exited.value.code == 2 and len(lines) == 1 and "config.toml" in lines[0], lines
    assert "Traceback" not in err.getvalue()
