"""A real SSH server and a real terminal for the end-to-end tests and the latency bench (no tests here).

:class:`SshServer` runs the system's ``sshd`` on a free loopback port with its own throwaway config,
host key and authorized key, all in one folder; it logs in the user running the tests (``root``
through ``PermitRootLogin prohibit-password``) and is stopped by its PID. :class:`Tmux` runs a tmux
server on a private socket (so nobody else's sessions are touched) configured as a person would
have it over SSH: ``TERM=screen-256color`` in every pane, a short ``escape-time``, no status line (a
pane is exactly the window's size). :class:`Pane` sends keys with ``send-keys`` and reads the
screen with ``capture-pane``.

``missing_tools()`` says which of sshd, ssh, ssh-keygen and tmux cannot be found, so that callers
skip with the reason instead of failing.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SSHD_CANDIDATES = ("/usr/sbin/sshd", "/usr/local/sbin/sshd", "/sbin/sshd")
PRIVSEP_DIR = Path("/run/sshd")  # compiled into Debian's sshd; it must exist when sshd runs as root
STARTUP_SECONDS = 10.0
STOP_SECONDS = 5.0
TMUX_CONF = """\
set -g default-terminal screen-256color
set -sg escape-time 10
set -g status off
set -g history-limit 0
set -g remain-on-exit on
"""


class ToolMissing(RuntimeError):
    """A program the end-to-end tests drive is not installed (or cannot run) here."""


def find_sshd() -> str | None:
    found = shutil.which("sshd")
    if found:
        return found
    return next((c for c in SSHD_CANDIDATES if os.access(c, os.X_OK)), None)


def missing_tools() -> list[str]:
    """The tools of the SSH tests that cannot be found, by name (empty when all are there)."""
    missing = [] if find_sshd() else ["sshd (openssh-server)"]
    missing += [tool for tool in ("ssh", "ssh-keygen", "tmux") if shutil.which(tool) is None]
    return missing


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stop_process(process: subprocess.Popen[bytes], seconds: float = STOP_SECONDS) -> None:
    """SIGTERM by PID, then SIGKILL by PID if it has not exited after ``seconds``."""
    if process.poll() is not None:
        return
    os.kill(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=seconds)


def reverie_command(home: Path, cache: Path, *args: str, env: Mapping[str, str] | None = None) -> str:
    """A shell command line that runs this checkout's ``reverie`` on ``home`` (for a remote shell,
    which starts with none of our environment)."""
    script = Path(sys.executable).with_name("reverie")
    program = [str(script)] if script.exists() else [sys.executable, "-m", "tui_app.cli.main"]
    assignments = [f"{k}={v}" for k, v in {"REVERIE_CACHE": str(cache), **(env or {})}.items()]
    words = ["env", *assignments, *program, "--home", str(home), *args]
    return f"cd {shlex.quote(str(ROOT))} && exec {shlex.join(words)}"


# --- sshd -------------------------------------------------------------------------------------------


@dataclass
class SshServer:
    """``sshd -D -e`` on 127.0.0.1:port, configured from ``folder`` only."""

    folder: Path
    port: int
    user: str
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    @classmethod
    def start(cls, folder: Path, attempts: int = 3) -> SshServer:
        """Generate keys and a config in ``folder`` and start sshd; raise :class:`ToolMissing` when it
        cannot run here (not installed, or no privilege separation directory as root)."""
        sshd = find_sshd()
        if sshd is None or shutil.which("ssh-keygen") is None:
            raise ToolMissing("sshd or ssh-keygen is not installed (apt-get install openssh-server)")
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o700)
        for name in ("host_ed25519", "client_ed25519"):
            subprocess.run(
                ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(folder / name)],
                check=True,
                capture_output=True,
            )
        (folder / "authorized_keys").write_text((folder / "client_ed25519.pub").read_text())
        (folder / "authorized_keys").chmod(0o600)
        user = _user_name()
        if os.geteuid() == 0 and not PRIVSEP_DIR.is_dir():
            try:
                PRIVSEP_DIR.mkdir(mode=0o755, parents=True)
            except OSError as exc:
                raise ToolMissing(f"sshd needs {PRIVSEP_DIR} and it cannot be created: {exc.strerror}") from exc
        last_error = ""
        for _ in range(attempts):  # a free port can be taken between choosing it and sshd binding it
            port = free_port()
            config = folder / "sshd_config"
            config.write_text(_sshd_config(folder, port, user))
            log = folder / "sshd.log"
            with log.open("wb") as out:
                process = subprocess.Popen(
                    [sshd, "-D", "-e", "-f", str(config)], stdout=out, stderr=subprocess.STDOUT, cwd=folder
                )
            server = cls(folder, port, user, process, log)
            if server.wait_listening():
                server.write_known_hosts()
                return server
            stop_process(process)
            last_error = " / ".join(log.read_text(errors="replace").strip().splitlines()[-2:])
        raise ToolMissing(f"sshd did not start: {last_error or 'no output'}")

    def wait_listening(self) -> bool:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            if "Server listening" in self.log.read_text(errors="replace"):
                return True
            time.sleep(0.05)
        return False

    def write_known_hosts(self) -> None:
        key_type, key = (self.folder / "host_ed25519.pub").read_text().split()[:2]
        (self.folder / "known_hosts").write_text(f"[127.0.0.1]:{self.port} {key_type} {key}\n")

    def ssh_args(self, *, tty: bool = True) -> list[str]:
        """``ssh`` with nothing from the person's own configuration: this key, this host key."""
        return [
            "ssh",
            "-F",
            "/dev/null",
            "-p",
            str(self.port),
            "-i",
            str(self.folder / "client_ed25519"),
            "-o",
            "IdentitiesOnly=yes",
            "-o",
            f"UserKnownHostsFile={self.folder / 'known_hosts'}",
            "-o",
            "StrictHostKeyChecking=yes",
            "-o",
            "BatchMode=yes",
            "-o",
            "LogLevel=ERROR",
            *(["-t"] if tty else ["-T"]),
            f"{self.user}@127.0.0.1",
        ]

    def ssh_command(self, remote: str, *, tty: bool = True) -> str:
        """One shell line: ``ssh -t ... user@127.0.0.1 'remote'``."""
        return shlex.join([*self.ssh_args(tty=tty), remote])

    def run(self, remote: str, timeout: float = 30.0) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.ssh_args(tty=False), remote], capture_output=True, text=True, timeout=timeout, check=False
        )

    def stop(self) -> None:
        stop_process(self.process)


def _user_name() -> str:
    import pwd

    return pwd.getpwuid(os.geteuid()).pw_name


def _sshd_config(folder: Path, port: int, user: str) -> str:
    return f"""\
Port {port}
ListenAddress 127.0.0.1
HostKey {folder / "host_ed25519"}
PidFile none
AuthorizedKeysFile {folder / "authorized_keys"}
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
AllowUsers {user}
AllowTcpForwarding no
AllowAgentForwarding no
X11Forwarding no
PermitUserEnvironment no
PrintMotd no
PrintLastLog no
LogLevel INFO
"""


# --- tmux -----------------------------------------------------------------------------------------------

# Textual's key names -> tmux send-keys names. A bound key missing here fails the key test: teach it
# here only after checking the key survives SSH and tmux.
TMUX_KEYS = {
    "question_mark": "?",
    "escape": "Escape",
    "enter": "Enter",
    "space": "Space",
    "tab": "Tab",
    "shift+tab": "BTab",
    "backspace": "BSpace",
    "delete": "DC",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "home": "Home",
    "end": "End",
    "pageup": "PPage",
    "pagedown": "NPage",
    "slash": "/",
    **{f"f{n}": f"F{n}" for n in range(1, 13)},
}


def tmux_key(textual_key: str) -> str | None:
    """The ``send-keys`` name for a Textual key name, or ``None`` when it has none."""
    if textual_key in TMUX_KEYS:
        return TMUX_KEYS[textual_key]
    if match := re.fullmatch(r"ctrl\+([a-z])", textual_key):
        return f"C-{match.group(1)}"
    if len(textual_key) == 1 and textual_key.isprintable():
        return textual_key
    return None


@dataclass
class Tmux:
    """A tmux server on its own socket; :meth:`kill` ends it and every session in it."""

    folder: Path
    name: str = field(default_factory=lambda: f"reverie-e2e-{os.getpid()}-{time.monotonic_ns()}")

    def __post_init__(self) -> None:
        if shutil.which("tmux") is None:
            raise ToolMissing("tmux is not installed (apt-get install tmux)")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.conf = self.folder / "tmux.conf"
        self.conf.write_text(TMUX_CONF)

    def command(self, *args: str) -> list[str]:
        return ["tmux", "-u", "-L", self.name, "-f", str(self.conf), *args]

    def run(self, *args: str) -> str:
        env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "COLORTERM")}
        done = subprocess.run(self.command(*args), capture_output=True, text=True, env=env, timeout=15)
        if done.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def open(self, name: str, command: str, width: int = 80, height: int = 24) -> Pane:
        """A new session running ``command`` (through ``sh -c``) in one window of ``width`` x ``height``.
        The command's exit status is also written to a file: tmux 3.3 sometimes marks a pane dead
        without ever recording its status (seen in CI under load)."""
        status = self.folder / f"{name}.status"
        status.unlink(missing_ok=True)
        wrapped = f"{command}; echo $? > {shlex.quote(str(status))}"
        self.run("new-session", "-d", "-s", name, "-x", str(width), "-y", str(height), wrapped)
        return Pane(self, name, status)

    def kill(self) -> None:
        env = {k: v for k, v in os.environ.items() if k != "TMUX"}
        subprocess.run(self.command("kill-server"), capture_output=True, env=env, timeout=15, check=False)


@dataclass
class Pane:
    tmux: Tmux
    target: str
    status_file: Path | None = None

    def send(self, *keys: str) -> None:
        """Keys by tmux name (``F3``, ``C-l``, ``Enter``, ``a``); see :func:`tmux_key`."""
        for key in keys:
            self.tmux.run("send-keys", "-t", self.target, key)

    def type(self, text: str) -> None:
        """Literal text, as if typed in one burst."""
        self.tmux.run("send-keys", "-t", self.target, "-l", text)

    def screen(self) -> str:
        return self.tmux.run("capture-pane", "-p", "-t", self.target)

    def screen_with_colours(self) -> str:
        return self.tmux.run("capture-pane", "-p", "-e", "-t", self.target)

    def resize(self, width: int, height: int) -> None:
        self.tmux.run("resize-window", "-t", self.target, "-x", str(width), "-y", str(height))

    def dead(self) -> bool:
        return self.tmux.run("display-message", "-p", "-t", self.target, "#{pane_dead}").strip() == "1"

    def exit_status(self) -> int | str | None:
        """The dead pane's command's exit status (from the status file :meth:`Tmux.open` has the shell
        write, else tmux's record); ``"signal N"`` if it died of a signal."""
        deadline = time.monotonic() + 10
        while self.status_file is not None:
            written = self.status_file.read_text().strip() if self.status_file.exists() else ""
            if written.isdigit():
                code = int(written)
                return f"signal {code - 128}" if code > 128 else code
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        deadline = time.monotonic() + 5  # tmux may mark the pane dead a moment before it records why
        while True:
            status = self.tmux.run("display-message", "-p", "-t", self.target, "#{pane_dead_status}").strip()
            if status:
                return int(status)
            signal = self.tmux.run("display-message", "-p", "-t", self.target, "#{pane_dead_signal}").strip()
            if signal:
                return f"signal {signal}"
            if time.monotonic() > deadline:
                return None
            time.sleep(0.05)

    def wait_until(self, check: Callable[[str], bool], what: str, timeout: float = 60.0, interval: float = 0.05) -> str:
        """Poll the screen until ``check(screen)``; fail with the last screen after ``timeout``."""
        deadline = time.monotonic() + timeout
        screen = self.screen()
        while not check(screen):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}; the screen was:\n{screen}")
            time.sleep(interval)
            screen = self.screen()
        return screen

    def wait_for(self, *texts: str, timeout: float = 60.0) -> str:
        """Wait until every one of ``texts`` is on the screen; return the screen."""
        return self.wait_until(lambda s: all(t in s for t in texts), " and ".join(map(repr, texts)), timeout)

    def wait_gone(self, *texts: str, timeout: float = 60.0) -> str:
        return self.wait_until(lambda s: not any(t in s for t in texts), f"{texts!r} to go", timeout)
