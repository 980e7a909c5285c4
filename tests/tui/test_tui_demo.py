"""The demo home and the two entry points: ``reverie`` (open_app) and ``reverie demo``."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from core.demo.build import DEMO_PASSPHRASE, DEMO_STEPS, DemoContext, build_demo_home
from core.errors import HomeError
from core.paths import HomePaths
from core.vault.crypto import read_header, unlock
from core.vault.store import MemoryStore
from tui_app.app import ReverieApp
from tui_app.cli.app_cmds import open_app
from tui_app.cli.main import cli
from tui_app.cli.state import CliState


def test_demo_home_holds_every_stage_of_the_review(tmp_path: Path) -> None:
    demo = build_demo_home(tmp_path / "demo")
    vault = MemoryStore.open(demo.paths, demo.keys)
    drafts = vault.list_drafts()
    states = [d.state for d in drafts]
    assert states.count("open") == 4 and states.count("approved") == 1 and states.count("finalized") == 6
    partly = vault.get_draft("draft_demo_fts5")
    assert partly.decisions and partly.pending_suggestions()  # partly reviewed
    models = {s.model for d in drafts for s in d.suggestions if s.model}
    versions = {s.process_version for d in drafts for s in d.suggestions}
    assert len(models) >= 5 and len(versions) >= 6
    memories = vault.list_memories()
    assert sum(m.reviewed for m in memories) == 6 and sum(not m.reviewed for m in memories) == 2
    assert vault.verified_ids() == {m.memory_id for m in memories}
    assert read_header(demo.paths.vault_header)[0].memory_cost_kib == 64  # cheap KDF, demo only
    assert unlock(demo.paths.vault_header, DEMO_PASSPHRASE) == demo.keys


def test_demo_refuses_a_folder_that_holds_something(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    with pytest.raises(HomeError):
        build_demo_home(tmp_path / "taken")


def test_demo_steps_are_extensible(tmp_path: Path) -> None:
    seen: list[int] = []

    def count_drafts(ctx: DemoContext) -> None:
        seen.append(len(ctx.vault.list_drafts()))
        ctx.notes.append("counted")

    demo = build_demo_home(tmp_path / "demo", steps=[*DEMO_STEPS, ("count", count_drafts)])
    assert seen == [11] and demo.notes[-1] == "counted"


def test_reverie_demo_no_open_prints_the_passphrase_and_keeps_the_home(tmp_path: Path) -> None:
    target = tmp_path / "kept"
    result = CliRunner().invoke(cli, ["demo", "--no-open", "--path", str(target)])
    assert result.exit_code == 0, result.output
    assert f"Passphrase: {DEMO_PASSPHRASE}" in result.output and "demo home only" in result.output
    assert (target / "vault.json").exists()


def test_reverie_demo_opens_the_app_unlocked_and_removes_the_temporary_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[object] = []
    monkeypatch.setattr("tui_app.app.ReverieApp.run", lambda self, **_: opened.append((self.paths, self._initial_keys)))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    result = CliRunner().invoke(cli, ["demo"])
    assert result.exit_code == 0, result.output
    ((paths, keys),) = opened
    assert keys is not None and str(paths.root).startswith(str(tmp_path))
    assert not paths.root.exists() and "Demo home removed" in result.output


def test_open_app_hands_the_environment_passphrase_to_the_unlock_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Argon2id runs in the unlock screen's worker after the first frame, not before the app draws."""
    demo = build_demo_home(tmp_path / "home")
    opened: list[tuple[object, object]] = []
    monkeypatch.setattr("tui_app.app.ReverieApp.run",
                        lambda self, **run: opened.append((self._initial_keys, self._initial_passphrase)))
    monkeypatch.setattr("core.vault.crypto.unlock", lambda *a, **k: pytest.fail("no key derivation before the app"))
    monkeypatch.setenv("REVERIE_PASSPHRASE", DEMO_PASSPHRASE)
    open_app(CliState(paths=HomePaths.at(demo.paths.root)))
    assert opened == [(None, DEMO_PASSPHRASE)]
    monkeypatch.delenv("REVERIE_PASSPHRASE")
    open_app(CliState(paths=HomePaths.at(demo.paths.root)))
    assert opened[-1] == (None, None)  # the app asks for it itself


async def test_a_wrong_environment_passphrase_is_one_line_on_the_unlock_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    demo = build_demo_home(tmp_path / "home")
    apps: list[ReverieApp] = []
    monkeypatch.setattr("tui_app.app.ReverieApp.run", lambda self, **run: apps.append(self))
    monkeypatch.setenv("REVERIE_PASSPHRASE", "not it")
    open_app(CliState(paths=HomePaths.at(demo.paths.root)))
    (app,) = apps
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(20):
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert app.locked
        message = str(app.screen.query_one("#gate-message").render())
        assert "REVERIE_PASSPHRASE or the keyring is wrong" in message and "\n" not in message
