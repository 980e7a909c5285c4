"""A ChatGPT export is read one conversation at a time: memory follows the largest conversation, not the
file. Each case runs in a child process under an address-space limit, with its peak resident memory
(``VmHWM``) measured, as in ``test_fuzz_oversized.py``.

The giant conversation is 256 MiB by default (``REVERIE_FUZZ_BIG_MB=1024`` for 1 GiB), sparse on disk.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from core.conversation.chatgpt import MAX_CONVERSATION_BYTES

ROOT = Path(__file__).resolve().parents[2]
BIG_MB = int(os.environ.get("REVERIE_FUZZ_BIG_MB", "256"))
PEAK_MB = 160
LIMIT_MB = 3 * 1024  # a reader that holds the file whole fails, never the machine

CHILD = r'''
import json, resource, sys
from pathlib import Path
source, home, limit_mb, mode = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))
try:
    if mode == "ingest":
        from core.conversation import ingest
        from core.paths import HomePaths
        report = ingest(HomePaths(root=home, cache=home.parent / "cache"), [source], "chatgpt")
        out = {"added": report.added, "quarantined": [str(q) for q in report.quarantined]}
    else:
        from core.conversation import chatgpt
        from core.turns import Turn
        out = {"turns": sum(isinstance(item, Turn) for item in chatgpt.read(source, None))}
except BaseException as exc:
    out = {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
status = Path("/proc/self/status").read_text()  # VmHWM, not ru_maxrss: see test_fuzz_oversized.py
out["peak_mb"] = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:"))) / 1024
print(json.dumps(out))
'''


def conversation(cid: str, turns: int, t: float = 1772409600.0) -> dict[str, object]:
    mapping: dict[str, object] = {}
    for n in range(turns):
        nid = f"{cid}-{n}"
        mapping[nid] = {
            "id": nid, "parent": f"{cid}-{n - 1}" if n else None,
            "children": [f"{cid}-{n + 1}"] if n + 1 < turns else [],
            "message": {"id": nid, "author": {"role": "user" if n % 2 == 0 else "assistant"}, "create_time": t + n,
                        "content": {"content_type": "text", "parts": [f"turn {n} of {cid}: \"[{{quoted}}]\"\n"
                                                                      "어제 서울숲에서 산책했어. " * 20]},
                        "metadata": {"model_slug": "gpt-4o", "finish_details": {"type": "stop"}}},
        }
    return {"id": cid, "title": cid, "create_time": t, "current_node": f"{cid}-{turns - 1}", "mapping": mapping}


def run(source: Path, home: Path, mode: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(source), str(home), str(LIMIT_MB), mode], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip(), done.stderr[-2000:]
    result = dict(json.loads(done.stdout.strip().splitlines()[-1]))
    assert "error" not in result, result
    return result


def test_a_giant_conversation_is_quarantined_and_the_others_imported(tmp_path: Path) -> None:
    source = tmp_path / "conversations.json"
    before = json.dumps(conversation("before", 4)).encode()
    after = json.dumps(conversation("after", 3)).encode()
    with source.open("wb") as out:
        out.write(b"[" + before + b",\n")
        start = out.tell()
        out.write(b'{"id": "giant", "mapping": {"a": {"id": "a", "message": {"content": {"parts": ["')
        out.seek(BIG_MB << 20, 1)  # a hole: NUL bytes, never written to disk
        out.write(b'"]}}}}}')
        end = out.tell()
        out.write(b",\n" + after + b"]\n")
    try:
        result = run(source, tmp_path / "home", "ingest")
        peak = result["peak_mb"]
        assert isinstance(peak, float) and peak < PEAK_MB, f"peak {peak:.0f} MiB for a {BIG_MB} MiB conversation"
        assert result["added"] == 7
        (reason,) = result["quarantined"]
        assert isinstance(reason, str) and "\n" not in reason
        limit = MAX_CONVERSATION_BYTES >> 20
        assert reason == (f"{source}:2: conversation 2 (bytes {start}-{end}) is {end - start} bytes, over the "
                          f"{limit} MiB limit for one conversation; copied, not parsed")
        (kept,) = (tmp_path / "home").rglob("*.raw")
        assert kept.stat().st_size == end - start  # lossless: the conversation's bytes, copied from the file
        with kept.open("rb") as copy:
            assert copy.read(9) == b'{"id": "g'
            copy.seek(-7, 2)
            assert copy.read() == b'"]}}}}}'
    finally:
        for big in tmp_path.rglob("*"):
            if big.is_file() and big.stat().st_size > 1 << 20:
                big.unlink()  # the input and its quarantine copy: do not keep hundreds of MiB around


def test_memory_follows_the_largest_conversation_not_the_file(tmp_path: Path) -> None:
    source = tmp_path / "conversations.json"
    count, turns = 3200, 12  # about 62 MiB: the whole-file reader peaked at 174 MiB here
    with source.open("w", encoding="utf-8") as out:
        out.write("[")
        for n in range(count):
            out.write(("," if n else "") + json.dumps(conversation(f"c{n}", turns), ensure_ascii=False))
        out.write("]")
    try:
        result = run(source, tmp_path / "home", "read")
        assert result["turns"] == count * turns
        peak = result["peak_mb"]
        size_mb = source.stat().st_size / (1 << 20)
        assert isinstance(peak, float) and peak < 80, f"peak {peak:.0f} MiB reading a {size_mb:.0f} MiB export"
    finally:
        source.unlink()
