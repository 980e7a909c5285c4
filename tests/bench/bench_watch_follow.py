"""What `reverie watch --follow` costs on each pass over a folder of Codex rollouts.

    python tests/bench/bench_watch_follow.py [--files 500] [--records 50]

Builds ``--files`` rollouts of ``--records`` records each (a session_meta, then user and assistant
messages) under a sessions tree in a temporary home, then times: the first pass (everything is new),
an idle pass with the follower's state in memory and one loaded from disk, a pass after one small file
grew by a line, and a ~5 MB transcript added, then grown by one line (a grown file is read again from
its start and checked against the day files: the cost of an active long session).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def rollout(sid: str, day: str, records: int) -> str:
    def ts(i: int) -> str:
        return f"{day}T{(i // 60) % 24:02d}:{i % 60:02d}:00.000Z"

    rows: list[dict[str, Any]] = [{"timestamp": ts(0), "type": "session_meta", "payload": {"id": sid, "cwd": "/p"}}]
    for i in range(1, records):
        role = "user" if i % 2 else "assistant"
        kind = "input_text" if role == "user" else "output_text"
        text = f"turn {i} of {sid} " + "words " * 40
        rows.append({"timestamp": ts(i), "type": "response_item",
                     "payload": {"type": "message", "role": role, "content": [{"type": kind, "text": text}]}})
    return "".join(json.dumps(row) + "\n" for row in rows)


def line(ts: str, text: str) -> str:
    payload = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}
    return json.dumps({"timestamp": ts, "type": "response_item", "payload": payload}) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--records", type=int, default=50)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="reverie-bench-follow-"))
    os.environ["REVERIE_CACHE"] = str(base / "cache")
    from core.conversation.follow import Follower
    from core.paths import HomePaths

    paths = HomePaths.at(base / "home").ensure()
    root = base / "sessions"
    files = []
    for n in range(args.files):
        day = f"2026-0{1 + n % 9}-{10 + n % 18}"
        path = root / day.replace("-", "/") / f"rollout-{day}T00-00-00-{uuid.UUID(int=n + 1)}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(rollout(str(uuid.UUID(int=n + 1)), day, args.records))
        files.append(path)
    follower = Follower(paths, [root])
    rows: list[tuple[str, int, float]] = []

    def timed(what: str, action: Callable[[], Any]) -> None:
        start = time.perf_counter()
        report = action()
        rows.append((what, report.added, time.perf_counter() - start))

    timed(f"first pass, {args.files} files", follower.run_once)
    timed("idle pass (state in memory)", follower.run_once)
    timed("idle pass (a new follower, state from disk)", lambda: Follower(paths, [root]).run_once())
    with files[7].open("a") as handle:
        handle.write(line("2026-08-17T23:59:00.000Z", "one more"))
    timed("one small file grew by a line", follower.run_once)
    big_id = str(uuid.UUID(int=10**6))
    big = root / "2026/09/30" / f"rollout-2026-09-30T00-00-00-{big_id}.jsonl"
    big.parent.mkdir(parents=True, exist_ok=True)
    outputs = [{"timestamp": f"2026-09-30T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}.000Z",
                "type": "response_item", "payload": {"type": "function_call_output", "call_id": f"c{i}",
                                                     "output": "x" * 2000}} for i in range(2500)]
    big.write_text(json.dumps({"timestamp": "2026-09-30T00:00:00.000Z", "type": "session_meta",
                               "payload": {"id": big_id}}) + "\n" + "".join(json.dumps(r) + "\n" for r in outputs))
    timed(f"a {big.stat().st_size / 1e6:.1f} MB transcript added", follower.run_once)
    with big.open("a") as handle:
        handle.write(line("2026-09-30T23:59:59.000Z", "next"))
    timed("that transcript grew by a line", follower.run_once)
    print("| pass | turns added | ms |\n|---|---:|---:|")
    for what, added, seconds in rows:
        print(f"| {what} | {added:,} | {seconds * 1e3:,.1f} |")
    shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
