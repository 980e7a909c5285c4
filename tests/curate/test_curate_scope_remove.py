"""``reverie curate scope remove NAME``: the scope is no longer scanned or moved, nothing in cold storage
is lost, and its tombstones keep working (a moved record is restored byte for byte where it was)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.config import load_config
from core.curate import engine
from core.curate.scopes import get_scope, remove_scope, removed_scopes
from core.demo.build import DEMO_STEPS, build_demo_home
from core.errors import NotFound
from tui_app.cli.main import cli

SCOPE = "reverie-memory"  # the demo's scope; one record of it sits in cold storage


@pytest.fixture(name="demo")
def demo_fixture(tmp_path: Path):  # type: ignore[no-untyped-def]
    steps = [step for step in DEMO_STEPS if step[0] == "curation"]
    return build_demo_home(tmp_path / "demo", steps=steps)


def test_remove_keeps_cold_storage_and_restores_where_it_was(demo) -> None:  # type: ignore[no-untyped-def]
    paths = demo.paths
    root = get_scope(load_config(paths.config), paths, SCOPE).root
    talk = root / "reference_meetup_talk.md"
    assert not talk.exists()  # moved to cold storage by the demo
    cold_before = sorted(p.relative_to(paths.cold) for p in paths.cold.rglob("*"))
    result = CliRunner().invoke(cli, ["--home", str(paths.root), "curate", "scope", "remove", SCOPE, "--json"])
    assert result.exit_code == 0, result.output
    said = json.loads(result.output)
    assert said["removed"] is True and said["cold_records"] == 1
    config = load_config(paths.config)
    assert [s.name for s in config.curation.scopes] == []
    assert [s.name for s in removed_scopes(paths)] == [SCOPE]
    assert sorted(p.relative_to(paths.cold) for p in paths.cold.rglob("*")) == cold_before  # nothing lost
    with pytest.raises(NotFound, match="no curation scope"):
        engine.scan(paths, config, SCOPE)  # no longer scanned
    listed = CliRunner().invoke(cli, ["--home", str(paths.root), "curate", "scope", "list"])
    assert SCOPE not in listed.output
    restored = engine.restore(paths, config, str(talk), unlock=lambda: demo.keys)
    assert talk.exists() and restored is not None  # the tombstone still names where it goes


def test_removing_an_unknown_scope_is_one_clear_line(demo) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(NotFound, match="no curation scope 'nope' to remove"):
        remove_scope(demo.paths, "nope")
    result = CliRunner().invoke(cli, ["--home", str(demo.paths.root), "curate", "scope", "remove", "nope"])
    assert result.exit_code != 0 and isinstance(result.exception, NotFound)  # main() prints it as one line
    assert "no curation scope 'nope' to remove (known: reverie-memory)" in str(result.exception)
