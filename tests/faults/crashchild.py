"""The program the crash trials kill: one operation on a home, killed with SIGKILL at a chosen moment.

    python -m tests.faults.crashchild '{"op": "finalize", "base": "/tmp/t/finalize-3", "kill_at": 17}'

With ``kill_at`` N > 0 the process sends itself SIGKILL at its N-th file-system mutation (``os.write``,
``os.fsync``, ``os.replace``, ``os.rename``, ``os.link``, ``os.unlink``, ``os.rmdir``, ``os.truncate``,
``os.ftruncate``); an ``os.write`` chosen for the kill first writes a seeded prefix of its buffer, as
a crash in the middle of a write would leave. With ``kill_at`` 0 the operation runs to its end and the
last line printed is ``IO_EVENTS <count>``. ``READY`` is printed once the operation's imports are done
(timer kills start their clock there). Every step that completed is printed (``DONE <what> <id>``) with
a flush, so the parent knows what was acknowledged before the kill.

Operations go through the real CLI (``tui_app.cli.main.main``) where the CLI can do them, else the
same core calls the CLI and the TUI make.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

_COUNTED = ("write", "fsync", "replace", "rename", "link", "unlink", "rmdir", "truncate", "ftruncate")


class KillSwitch:
    """Counts file-system mutations and sends SIGKILL at the ``kill_at``-th, or (``after_fsync_of``) right
    after the ``nth`` fsync of a file whose name is ``after_fsync_of``: e.g. once a ledger line is durable
    and before the head is signed, the same moment in every run whatever came before it."""

    def __init__(self, kill_at: int, seed: int, after_fsync_of: str | None = None, nth: int = 1) -> None:
        self.kill_at = kill_at
        self.events = 0
        self.rng = random.Random(seed)
        self.after_fsync_of = after_fsync_of
        self.nth = nth
        self.fsyncs = 0

    def install(self) -> None:
        for name in _COUNTED:
            original = getattr(os, name)
            setattr(os, name, self._wrap(name, original))

    def _wrap(self, name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.events += 1
            if self.kill_at and self.events == self.kill_at:
                if name == "write" and len(args) == 2:
                    data = bytes(args[1])
                    original(args[0], data[: self.rng.randrange(len(data) + 1)])
                os.kill(os.getpid(), signal.SIGKILL)
            result = original(*args, **kwargs)
            if name == "fsync" and self.after_fsync_of and args and isinstance(args[0], int):
                try:
                    target = os.readlink(f"/proc/self/fd/{args[0]}")
                except OSError:
                    target = ""
                if os.path.basename(target) == self.after_fsync_of:
                    self.fsyncs += 1
                    if self.fsyncs == self.nth:
                        os.kill(os.getpid(), signal.SIGKILL)
            return result

        return counted


def done(what: str, ident: str) -> None:
    print(f"DONE {what} {ident}", flush=True)


def cli(*argv: str) -> tuple[int, str]:
    """Run the real CLI in this process; (exit code, what it printed)."""
    import contextlib
    import io

    from tui_app.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            main(list(argv))
        except SystemExit as exc:
            return int(exc.code or 0), out.getvalue()
    return 0, out.getvalue()


def op_ingest(home: Path, spec: dict[str, Any], switch: KillSwitch) -> None:
    print("READY", flush=True)
    switch.install()
    code, _ = cli("--home", str(home), "ingest", *spec["sources"])
    done("ingest", str(code))


def op_draft(home: Path, spec: dict[str, Any], switch: KillSwitch) -> None:
    import tui_app.cli.main  # noqa: F401  (imports before the clock starts)

    print("READY", flush=True)
    switch.install()
    for i in range(int(spec.get("count", 3))):
        _, out = cli("--home", str(home), "draft", "new", f"Draft {i} of a crash trial: we met at the cafe.",
                     "--tag", "trial", "--no-duplicate-check", "--json")
        draft_id = json.loads(out)["draft_id"]
        done("open", draft_id)
        cli("--home", str(home), "draft", "suggest", draft_id, "location", "Seongsu", "--source", "echo",
            "--model", "m", "--id", "s1")
        done("suggested", draft_id)
        cli("--home", str(home), "draft", "accept", draft_id, "s1", "--reviewer", "me", "--value", "Seongsu-dong")
        done("accepted", draft_id)
        cli("--home", str(home), "draft", "approve", draft_id, "--reviewer", "me")
        done("approved", draft_id)


def op_finalize(home: Path, spec: dict[str, Any], switch: KillSwitch) -> None:
    from core.paths import HomePaths
    from core.vault.store import MemoryStore
    from tests.faults.homebuild import PASSPHRASE

    paths = HomePaths(root=home, cache=Path(spec["cache"]))
    vault = MemoryStore.unlock(paths, PASSPHRASE)
    approved = [d.draft_id for d in vault.list_drafts(state="approved")]
    print("READY", flush=True)
    switch.install()
    for i, draft_id in enumerate(approved):
        code, out = cli("--home", str(home), "draft", "finalize", draft_id, "--json")
        if code == 0:
            done("finalized", f"{draft_id} {json.loads(out)['memory_id']}")
        memory = vault.add_memory(f"An unreviewed note {i} written between finalizations.", ["trial"])
        done("added", memory.memory_id)


def op_finalize_cli(home: Path, spec: dict[str, Any], switch: KillSwitch) -> None:
    """Only ``reverie draft finalize`` of each draft in ``spec["drafts"]``, through the real CLI (the same
    command every run, as a person would run it again after a crash)."""
    import tui_app.cli.main  # noqa: F401  (imports before the kills start)

    print("READY", flush=True)
    switch.install()
    for draft_id in spec["drafts"]:
        code, out = cli("--home", str(home), "draft", "finalize", draft_id, "--json")
        if code == 0:
            done("finalized", f"{draft_id} {json.loads(out)['memory_id']}")


def _curation(home: Path, spec: dict[str, Any]) -> tuple[Any, Any, Any, datetime]:
    from core.config import load_config
    from core.paths import HomePaths
    from core.vault.crypto import unlock
    from tests.faults.homebuild import PASSPHRASE

    paths = HomePaths(root=home, cache=Path(spec["cache"]))
    keys = unlock(paths.vault_header, PASSPHRASE)
    return paths, load_config(paths.config), keys, datetime.fromisoformat(spec["later"])


def op_move(home: Path, spec: dict[str, Any], switch: KillSwitch) -> None:
    from core.curate import engine

    paths, config, keys, later = _curation(home, spec)
    print("READY", flush=True)
    switch.install()
    result = engine.apply(paths, config, unlock=lambda: keys, now=later)
    for moved in result.moved:
        done("moved", moved.stone.path)
    for error in result.errors:
        print(f"ERROR {error}", flush=True)


def op_restore(home: Path, spec: dict[str, Any], switch: KillSwitch) -> None:
    from core.curate import engine

    paths, config, keys, later = _curation(home, spec)
    moves = spec["moves"]  # the same command each run: what was in cold storage before the first
    print("READY", flush=True)
    switch.install()
    for move_id in moves:
        restored = engine.restore(paths, config, move_id, unlock=lambda: keys, now=later)
        done("restored", restored.rel)


def op_reindex(home: Path, spec: dict[str, Any], switch: KillSwitch) -> None:
    import tui_app.cli.index_cmds  # noqa: F401
    from core.index import SearchIndex  # noqa: F401

    print("READY", flush=True)
    switch.install()
    code, _ = cli("--home", str(home), "reindex", "--no-embed", "--json")
    done("reindex", str(code))


OPS: dict[str, Callable[[Path, dict[str, Any], KillSwitch], None]] = {
    "ingest": op_ingest,
    "draft": op_draft,
    "finalize": op_finalize,
    "finalize_cli": op_finalize_cli,
    "move": op_move,
    "restore": op_restore,
    "reindex": op_reindex,
}


def main() -> None:
    spec = json.loads(sys.argv[1])
    switch = KillSwitch(int(spec.get("kill_at", 0)), int(spec.get("seed", 0)), spec.get("after_fsync_of"),
                        int(spec.get("nth", 1)))
    OPS[spec["op"]](Path(spec["home"]), spec, switch)
    print(f"IO_EVENTS {switch.events}", flush=True)


if __name__ == "__main__":
    main()
