"""`reverie share check PROFILE QUERY`: exactly what the assistant would receive, and why the rest is not."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from core.paths import HomePaths
from tests.helpers.sharing_world import PRIVATE_SECRETS, build_world
from tests.helpers.vault import PASSPHRASE

ROOT = Path(__file__).resolve().parents[2]


def reverie(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "REVERIE_PASSPHRASE": PASSPHRASE}
    return subprocess.run([sys.executable, "-m", "tui_app.cli.main", *args], capture_output=True, text=True,
                          env=env, input="", timeout=120, cwd=ROOT)


def test_share_check_shows_the_answer_and_what_is_withheld(paths: HomePaths) -> None:
    build_world(paths)
    result = reverie("share", "check", "claude", "Niseko", "--json", "--now", "2026-11-29T15:00:00Z")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    answer = json.dumps(data["answer"])
    assert data["profile"] == "claude" and data["answer"]["mode"] == "exact"
    assert not any(secret in answer for secret in PRIVATE_SECRETS)
    reasons = sorted({w["reason"] for w in data["withheld"]})
    assert reasons == ["denied tag", "not reviewed", "source not shared"]
    plain = reverie("share", "check", "claude", "Niseko")
    assert plain.returncode == 0 and plain.stdout.startswith("profile claude: the assistant receives")
    assert "withheld (" in plain.stdout and ": denied tag" in plain.stdout


def test_an_unknown_profile_is_one_line(paths: HomePaths) -> None:
    build_world(paths)
    result = reverie("share", "check", "nope", "Niseko")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "no sharing profile 'nope' (known: claude, default, open, tiny, work)" in result.stderr


def test_context_with_a_profile_goes_through_the_sharing_policy(paths: HomePaths) -> None:
    build_world(paths)
    for profile in ("claude", "default"):
        result = reverie("context", "Niseko", "--profile", profile, "--json", "--now", "2026-11-29T15:00:00Z")
        assert result.returncode == 0, result.stderr
        assert not any(secret in result.stdout for secret in PRIVATE_SECRETS), profile
