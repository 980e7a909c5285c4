"""`reverie ingest` as a hook runs it: a quarantined line is a warning (exit 0), input with no good line
is bad input (exit 2), and the same command does the same work wherever its output goes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from core.paths import HomePaths
from tests.helpers.cli import init_vault, reverie


def _line(ts: str, text: str, role: str = "user") -> str:
    return json.dumps({"ts": ts, "role": role, "text": text, "session": "s1"})


def test_one_quarantined_line_of_many_is_a_warning_not_bad_input(isolated_home: HomePaths, tmp_path: Path) -> None:
    init_vault(isolated_home)
    source = tmp_path / "chat.jsonl"
    good = [_line(f"2026-01-05T10:{m:02d}:00Z", f"turn number {m}") for m in range(30)]
    source.write_text("\n".join([*good[:10], '{"ts": "2026-01-05T11:00:00Z", "role": "robot", "text": "x"}',
                                 *good[10:]]) + "\n")
    result = reverie("ingest", str(source))
    assert result.returncode == 0, result.stderr
    assert f"{source}:11: role" in result.stderr and "1 line quarantined" in result.stderr
    assert "30 turns added" in result.stdout
    hook = subprocess.run(["sh", "-c", f'"{sys.executable}" -m tui_app.cli.main ingest "{source}" && echo next'],
                          capture_output=True, text=True, env={**os.environ, "REVERIE_PASSPHRASE": "cli passphrase"})
    assert hook.stdout.rstrip().endswith("next")  # a hook with && goes on


def test_input_with_no_good_line_is_bad_input(isolated_home: HomePaths, tmp_path: Path) -> None:
    init_vault(isolated_home)
    source = tmp_path / "broken.jsonl"
    source.write_text("{not json\n" + '{"ts": "2026-01-05T11:00:00Z", "role": "robot", "text": "x"}\n')
    result = reverie("ingest", str(source))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "2 lines quarantined" in result.stderr


def _ingest_with_stderr_to(stderr: int, source: Path, env: dict[str, str]) -> dict:
    done = subprocess.run([sys.executable, "-m", "tui_app.cli.main", "ingest", "--json", str(source)],
                          stdout=subprocess.PIPE, stderr=stderr, env=env, timeout=120)
    assert done.returncode == 0
    return json.loads(done.stdout)["index"]


def test_the_same_ingest_does_the_same_work_wherever_stderr_goes(tmp_path: Path) -> None:
    import pty

    outcomes = []
    for where in ("terminal", "devnull"):
        home = HomePaths.at(tmp_path / where / "home")
        init_vault(home)
        env = {**os.environ, "REVERIE_HOME": str(home.root), "REVERIE_CACHE": str(tmp_path / where / "cache"),
               "REVERIE_PASSPHRASE": "cli passphrase"}
        source = tmp_path / "chat.jsonl"
        source.write_text("\n".join(_line(f"2026-01-05T10:{m:02d}:00Z", f"we talked about trip {m}")
                                    for m in range(12)) + "\n")
        if where == "terminal":
            leader, follower = pty.openpty()
            try:
                outcomes.append(_ingest_with_stderr_to(follower, source, env))
            finally:
                os.close(follower)
                os.close(leader)
        else:
            outcomes.append(_ingest_with_stderr_to(subprocess.DEVNULL, source, env))
    assert outcomes[0] == outcomes[1], outcomes
    assert outcomes[0]["turns_added"] == 12 and outcomes[0]["vectors_embedded"] == 0
