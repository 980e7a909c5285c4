"""The weekly run as a systemd user timer or a cron line: printed, or installed on request.

The scheduled command is ``reverie --home HOME curate apply --scheduled``: it moves only what the
tier rules allow (high tier within the cap, after the report-only runs, plus what the person
approved), and with no passphrase available (no ``REVERIE_PASSPHRASE``, no keyring) it only reports.
Either way it records a run, so the overdue reminder stays honest about when curation last looked.

Installing is idempotent: the same unit files are rewritten, and a cron line that is already there
is not added twice.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from core.curate.errors import CurationError
from core.paths import HomePaths

UNIT = "reverie-curate"
CRON_MARK = "# reverie weekly curation"
Runner = Callable[[Sequence[str], str | None], str]


def reverie_command(paths: HomePaths, executable: str | None = None) -> list[str]:
    exe = executable or shutil.which("reverie") or f"{sys.executable} -m tui_app.cli.main"
    return [*shlex.split(exe), "--home", str(paths.root), "curate", "apply", "--scheduled"]


def systemd_units(paths: HomePaths, executable: str | None = None) -> dict[str, str]:
    command = shlex.join(reverie_command(paths, executable))
    service = (
        "[Unit]\n"
        "Description=Reverie weekly curation (moves only what the tier rules allow; never deletes)\n\n"
        "[Service]\n"
        "Type=oneshot\n"
        f"ExecStart={command}\n"
    )
    timer = (
        "[Unit]\n"
        "Description=Run Reverie's curation once a week\n\n"
        "[Timer]\n"
        "OnCalendar=weekly\n"
        "Persistent=true\n"
        "RandomizedDelaySec=1h\n\n"
        "[Install]\n"
        "WantedBy=timers.target\n"
    )
    return {f"{UNIT}.service": service, f"{UNIT}.timer": timer}


def cron_line(paths: HomePaths, executable: str | None = None) -> str:
    log = paths.curation / "scheduled.log"
    command = shlex.join(reverie_command(paths, executable))
    return f"17 9 * * 1 {command} >> {shlex.quote(str(log))} 2>&1 {CRON_MARK} {paths.root}"


def systemd_user_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "systemd" / "user"


def _run(command: Sequence[str], stdin: str | None) -> str:
    done = subprocess.run(list(command), input=stdin, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise CurationError(f"`{shlex.join(command)}` failed: {(done.stderr or done.stdout).strip()[:200]}")
    return done.stdout


def default_method() -> str:
    return "systemd" if shutil.which("systemctl") and Path("/run/systemd/system").is_dir() else "cron"


@dataclass(frozen=True)
class Installed:
    method: str
    written: list[str]
    commands: list[str]
    already: bool


def install(paths: HomePaths, method: str, *, executable: str | None = None, unit_dir: Path | None = None,
            run: Runner = _run) -> Installed:
    """Install the weekly run with ``method`` ("systemd" or "cron")."""
    if method == "systemd":
        folder = unit_dir or systemd_user_dir()
        folder.mkdir(parents=True, exist_ok=True)
        written, same = [], True
        for name, text in systemd_units(paths, executable).items():
            target = folder / name
            same = same and target.is_file() and target.read_text(encoding="utf-8") == text
            target.write_text(text, encoding="utf-8")
            written.append(str(target))
        commands = [["systemctl", "--user", "daemon-reload"],
                    ["systemctl", "--user", "enable", "--now", f"{UNIT}.timer"]]
        for command in commands:
            run(command, None)
        return Installed("systemd", written, [shlex.join(c) for c in commands], same)
    if method == "cron":
        line = cron_line(paths, executable)
        try:
            current = run(["crontab", "-l"], None)
        except CurationError:
            current = ""  # no crontab yet
        mine = f"{CRON_MARK} {paths.root}"
        kept = [row for row in current.splitlines() if not row.endswith(mine)]
        already = line in current.splitlines()
        run(["crontab", "-"], "\n".join([*kept, line]) + "\n")
        return Installed("cron", [], ["crontab -"], already)
    raise CurationError(f"schedule method must be 'systemd' or 'cron', got {method!r}")
