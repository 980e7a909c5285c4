"""Oversized inputs are bounded in memory: a sparse file holding one enormous line, read by each loader
in a child process under an address-space limit, with its peak resident memory measured.

The default line is 256 MiB (a few seconds each); ``REVERIE_FUZZ_BIG_MB=1024`` runs the 1 GiB case
(about 11 s for generic JSONL here, most of it the quarantine's lossless copy of the line).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIG_MB = int(os.environ.get("REVERIE_FUZZ_BIG_MB", "256"))
PEAK_MB = 160  # far below the line: the line is never held whole
LIMIT_MB = 3 * 1024  # the child's address space: a loader that holds the line whole fails, never the machine

CHILD = r'''
import json, resource, sys
from pathlib import Path
case, size_mb, limit_mb, base = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))
heads = {
    "generic": (b'{"ts": "2026-01-01T00:00:00Z", "role": "user", "text": "before"}\n'
                b'{"ts": "2026-01-01T00:00:01Z", "role": "user", "text": "', b'"}\n'
                b'{"ts": "2026-01-01T00:00:02Z", "role": "user", "text": "after"}\n'),
    "claude-code": (b'{"type": "user", "uuid": "u1", "sessionId": "s", "timestamp": "2026-01-01T00:00:00Z", '
                    b'"message": {"role": "user", "content": "', b'"}}\n'),
    "chatgpt": (b'[{"id": "c", "mapping": {"a": {"id": "a", "message": {"content": {"parts": ["', b'"]}}}}}]'),
    "dvmem": (b'{"format": "reverie.dvmem", "record": "', b'"}'),
    "batch": (b'{"query": "', b'"}\n{"query": "after", "now": "2026-01-01T00:00:00Z"}\n'),
}
head, tail = heads[case]
source = base / {"chatgpt": "conversations.json", "dvmem": "big.dvmem", "batch": "queries.jsonl"}.get(case, "big.jsonl")
with open(source, "wb") as handle:
    handle.write(head)
    handle.seek(size_mb << 20, 1)
    handle.write(tail)
home = base / "home"
out = {}
try:
    if case in ("generic", "claude-code", "chatgpt"):
        from core.conversation import ingest
        from core.paths import HomePaths
        report = ingest(HomePaths(root=home, cache=base / "cache"), [source], case)
        out = {"added": report.added, "quarantined": [str(q)[-200:] for q in report.quarantined]}
    else:
        import contextlib, io, os
        from tui_app.cli.main import main
        os.environ["REVERIE_HOME"] = str(home)
        argv = ["import", str(source)] if case == "dvmem" else ["search", "--batch", str(source), "--mode", "exact",
                                                               "--no-sync"]
        err, answers = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(answers):
            try:
                main(argv)
            except SystemExit as exc:
                out["code"] = exc.code
        out["stderr"] = err.getvalue()[-1000:]
        out["stdout"] = answers.getvalue()[-4000:]
except BaseException as exc:
    out = {"error": f"{type(exc).__name__}: {str(exc)[:160]}"}
# The peak of this process's own memory map (VmHWM). Not ru_maxrss: Linux carries the largest RSS of
# the map an exec replaced into it, and subprocess starts children with vfork, so ru_maxrss reports
# the parent's peak (pytest's, 320 MiB late in a full run) however little this child uses.
try:
    status = Path("/proc/self/status").read_text()
    out["peak_mb"] = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:"))) / 1024
except (OSError, StopIteration):
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
'''


def run_case(case: str, base: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REVERIE_PASSPHRASE": "a passphrase", "REVERIE_KDF": "test"}
    done = subprocess.run([sys.executable, "-c", CHILD, case, str(BIG_MB), str(LIMIT_MB), str(base)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip(), done.stderr[-2000:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("case", ["generic", "claude-code", "chatgpt"])
def test_a_huge_line_in_a_transcript_is_quarantined_within_bounded_memory(case: str, tmp_path: Path) -> None:
    result = run_case(case, tmp_path)
    try:
        assert "error" not in result, result
        peak = result["peak_mb"]
        assert isinstance(peak, float) and peak < PEAK_MB, f"peak {peak:.0f} MiB for a {BIG_MB} MiB line"
        quarantined = result["quarantined"]
        assert isinstance(quarantined, list)
        assert any("over the" in q and "limit" in q for q in quarantined), quarantined
        if case == "generic":
            assert result["added"] == 2  # the lines around the huge one are imported
    finally:
        for big in tmp_path.rglob("*"):
            if big.is_file() and big.stat().st_size > 1 << 20:
                big.unlink()  # the input and its lossless quarantine copy: do not keep gigabytes around


def _dvmem_refused(result: dict[str, object], base: Path) -> None:
    """``reverie import`` names the file and the limit in one line, and reads no more than the limit."""
    from core.vault.portable import MAX_DVMEM_BYTES

    assert result.get("code") not in (0, None), result
    stderr = str(result["stderr"])
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert str(base / "big.dvmem") in stderr and f"{MAX_DVMEM_BYTES:,}-byte limit" in stderr, stderr


def _batch_goes_on(result: dict[str, object], base: Path) -> None:
    """``reverie search --batch`` answers the huge line with an error line, then the next line."""
    from tui_app.cli.search_cmds import MAX_BATCH_LINE_BYTES

    assert result.get("code") in (0, None), result
    answers = [json.loads(line) for line in str(result["stdout"]).splitlines()]
    assert len(answers) == 2, answers
    assert answers[0]["line"] == 1, answers[0]
    size = (BIG_MB << 20) + len('{"query": ""}')  # the line without its newline
    assert answers[0]["error"] == f"line 1: line of {size:,} bytes is over the {MAX_BATCH_LINE_BYTES:,}-byte limit"
    assert {"range", "mode", "results", "notes", "index"} <= set(answers[1]) and "error" not in answers[1], answers[1]


REFUSED_IN_BOUNDS = {"dvmem": _dvmem_refused, "batch": _batch_goes_on}


@pytest.mark.parametrize("case", sorted(REFUSED_IN_BOUNDS))
def test_a_huge_dvmem_or_batch_line_is_refused_within_bounded_memory(case: str, tmp_path: Path) -> None:
    result = run_case(case, tmp_path)
    try:
        assert "error" not in result, result
        peak = result["peak_mb"]
        assert isinstance(peak, float) and peak < PEAK_MB, f"peak {peak:.0f} MiB for a {BIG_MB} MiB line"
        REFUSED_IN_BOUNDS[case](result, tmp_path)
    finally:
        for big in tmp_path.rglob("*"):
            if big.is_file() and big.stat().st_size > 1 << 20:
                big.unlink()
