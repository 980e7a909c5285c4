"""`reverie import` of something that is not a regular file (a FIFO named *.dvmem, a device) is one
line and exit 2 at once, never a hang; an id from the command line that cannot name a memory is not
found (exit 3), never a traceback."""

from __future__ import annotations

import os
from pathlib import Path

from core.paths import HomePaths
from tests.helpers.cli import init_vault, reverie


def test_a_fifo_named_dvmem_is_refused_at_once(paths: HomePaths, tmp_path: Path) -> None:
    init_vault(paths)
    fifo = tmp_path / "waiting.dvmem"
    os.mkfifo(fifo)  # nobody ever writes: reading it would wait forever
    result = reverie("import", str(fifo))  # the helper's timeout (60 s) fails the test if it hangs
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "not a regular file" in result.stderr and str(fifo) in result.stderr
    assert not list(paths.vault.glob("mem_*.json"))


def test_an_impossible_memory_id_is_not_found(paths: HomePaths) -> None:
    init_vault(paths)
    for bad in ("mem_" + "a" * 300, "mem_../../vault", "mem_a\nb", "mem_\x1b[2J"):
        result = reverie("memory", "show", bad)
        assert result.returncode == 3, (bad, result.stderr)
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr and "\x1b" not in result.stderr
