"""Issue 14 item 8: a home chosen with --home or REVERIE_HOME keeps its derived (plaintext) index
inside itself, where `reverie locate` says; REVERIE_CACHE still overrides; nothing lands in the
platform's cache folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest

from core.paths import HomePaths


def reverie(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tui_app.cli.main", *args], capture_output=True, text=True,
                          env=env, timeout=120)


@pytest.fixture
def env_without_cache(tmp_path: Path) -> dict[str, str]:
    """The tests' environment without REVERIE_CACHE or REVERIE_HOME, and a private platform cache dir."""
    env = {k: v for k, v in os.environ.items() if k not in ("REVERIE_CACHE", "REVERIE_HOME")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg-cache")
    return env


def test_a_home_given_with_home_keeps_its_index_inside(tmp_path: Path, env_without_cache: dict[str, str]) -> None:
    home = tmp_path / "trial"
    located = json.loads(reverie("--home", str(home), "locate", "--json", env=env_without_cache).stdout)
    assert located["cache"] == str(home / ".cache") and located["index"] == str(home / ".cache" / "index.db")
    chat = tmp_path / "chat.jsonl"
    chat.write_text('{"ts": "2026-01-05T10:00:00Z", "role": "user", "text": "a plaintext secret"}\n')
    assert reverie("--home", str(home), "ingest", str(chat), env=env_without_cache).returncode == 0
    built = reverie("--home", str(home), "reindex", "--no-embed", env=env_without_cache)
    assert built.returncode == 0, built.stderr
    assert (home / ".cache" / "index.db").is_file()
    assert (home / ".cache").stat().st_mode & 0o777 == 0o700
    assert not (tmp_path / "xdg-cache").exists()  # nothing in the platform's cache folder


def test_reverie_home_does_the_same(tmp_path: Path, env_without_cache: dict[str, str]) -> None:
    env = {**env_without_cache, "REVERIE_HOME": str(tmp_path / "h")}
    located = json.loads(reverie("locate", "--json", env=env).stdout)
    assert located["cache"] == str(tmp_path / "h" / ".cache")


def test_reverie_cache_still_overrides(tmp_path: Path, env_without_cache: dict[str, str]) -> None:
    env = {**env_without_cache, "REVERIE_CACHE": str(tmp_path / "c")}
    located = json.loads(reverie("--home", str(tmp_path / "h"), "locate", "--json", env=env).stdout)
    assert Path(located["cache"]).parent == tmp_path / "c"


def test_the_default_home_uses_the_platform_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("REVERIE_HOME", raising=False)
    monkeypatch.delenv("REVERIE_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    paths = HomePaths.at()
    assert paths.cache.parent == Path(platformdirs.user_cache_dir("reverie", appauthor=False)).absolute()
    assert paths.cache.name.startswith("home-")
