"""Throughput and peak memory of the ChatGPT export reader.

    python tests/bench/bench_chatgpt_import.py --mb 200 [--json]

Writes a synthetic ``conversations.json`` of about ``--mb`` MiB in a temporary folder (minified, as
ChatGPT writes it: many conversations of 2 to 400 nodes, with the metadata a real export carries,
escaped newlines and quotes, Korean and Japanese text), then reads it with ``chatgpt.read`` in a child
process and prints MB/s and the child's peak resident memory (``VmHWM``: not ``ru_maxrss``, which a
child started by vfork+exec inherits from its parent). ``--ingest`` also times a full ``ingest``
into a fresh home (reading plus validation, dedup and the durable day-log writes).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_TEXTS = (
    "Can you help me plan a week of meals?\nI cook for two and we don't eat meat.",
    "Sure! Here is a plan:\n\n1. **Monday**: lentil soup\n2. **Tuesday**: \"shakshuka\" with bread\n",
    "```python\nprint({'a': [1, 2, 3]})\n```\nThis prints `{'a': [1, 2, 3]}` (braces inside a string).",
    "어제 서울숲에서 산책하면서 이사 이야기를 했어. 다음 주 화요일 저녁에 회의가 있어.",
    "先週の火曜日の夜に会議の準備をしました。明日の朝は駅で待ち合わせにしましょう。",
    "The index rebuild went from forty seconds to about one second \\ after the change.",
)


def _node(rng: random.Random, nid: str, parent: str | None, children: list[str], t: float) -> dict[str, object]:
    role = rng.choice(("user", "assistant", "assistant", "tool"))
    text = "\n\n".join(rng.choice(_TEXTS) for _ in range(rng.randint(1, 6)))
    return {
        "id": nid, "parent": parent, "children": children,
        "message": {
            "id": nid, "author": {"role": role, "name": "python" if role == "tool" else None, "metadata": {}},
            "create_time": t, "update_time": None,
            "content": {"content_type": "text", "parts": [text]},
            "status": "finished_successfully", "end_turn": True, "weight": 1.0,
            "metadata": {"citations": [], "content_references": [], "message_type": None, "model_slug": "gpt-4o",
                         "default_model_slug": "gpt-4o", "parent_id": parent,
                         "request_id": uuid.UUID(int=rng.getrandbits(128)).hex,
                         "timestamp_": "absolute", "finish_details": {"type": "stop", "stop_tokens": [200002]},
                         "is_complete": True},
            "recipient": "all", "channel": None,
        },
    }


def _conversation(rng: random.Random, number: int) -> dict[str, object]:
    ids = [str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(rng.choice((2, 4, 8, 16, 30, 60, 120, 400)))]
    start = 1_700_000_000 + number * 3600.0
    mapping = {}
    for index, nid in enumerate(ids):
        parent = ids[index - 1] if index else None
        children = [ids[index + 1]] if index + 1 < len(ids) else []
        mapping[nid] = _node(rng, nid, parent, children, start + index * 30)
    return {"title": f"Conversation {number}", "create_time": start, "update_time": start + len(ids) * 30,
            "mapping": mapping, "moderation_results": [], "current_node": ids[-1], "plugin_ids": None,
            "conversation_id": str(uuid.UUID(int=number)), "id": str(uuid.UUID(int=number)), "is_archived": False}


def write_export(path: Path, mb: float, seed: int = 0) -> int:
    """A minified ``conversations.json`` of about ``mb`` MiB; returns the number of conversations."""
    rng = random.Random(seed)
    goal = int(mb * (1 << 20))
    written = count = 0
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        while written < goal:
            piece = ("," if count else "") + json.dumps(_conversation(rng, count), ensure_ascii=False,
                                                       separators=(",", ":"))
            out.write(piece)
            written += len(piece.encode("utf-8"))
            count += 1
        out.write("]")
    return count


CHILD = r"""
import json, sys, time
from pathlib import Path
from core.conversation import chatgpt
from core.turns import Turn
path, mode = Path(sys.argv[1]), sys.argv[2]
started = time.perf_counter()
counts = {"turns": 0, "rejected": 0, "skipped": 0}
if mode == "ingest":
    from core.conversation import ingest
    from core.paths import HomePaths
    report = ingest(HomePaths(root=path.parent / "home", cache=path.parent / "cache"), [path], "chatgpt")
    counts = {"turns": report.added, "rejected": len(report.quarantined), "skipped": sum(report.skipped.values())}
else:
    for item in chatgpt.read(path, None):
        key = "turns" if isinstance(item, Turn) else "skipped" if type(item).__name__ == "Skipped" else "rejected"
        counts[key] += 1
elapsed = time.perf_counter() - started
status = Path("/proc/self/status").read_text()
peak = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:"))) / 1024
print(json.dumps({"seconds": elapsed, "peak_mib": peak, **counts}))
"""


def run(path: Path, mode: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(path), mode], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=200, help="size of the generated export in MiB")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ingest", action="store_true", help="also time a full ingest into a fresh home")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-chatgpt-") as tmp:
        path = Path(tmp) / "conversations.json"
        conversations = write_export(path, args.mb, args.seed)
        size_mb = path.stat().st_size / 1e6
        rows = {"read": run(path, "read")}
        if args.ingest:
            rows["ingest"] = run(path, "ingest")
    results = {"size_mb": size_mb, "conversations": conversations,
               **{name: {**row, "mb_per_s": size_mb / float(row["seconds"])} for name, row in rows.items()}}  # type: ignore[arg-type]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"export: {size_mb:.1f} MB, {conversations} conversations")
    print(f"{'step':<8} {'seconds':>8} {'MB/s':>7} {'peak MiB':>9} {'turns':>9} {'skipped':>8} {'rejected':>8}")
    for name, row in rows.items():
        print(f"{name:<8} {row['seconds']:>8.2f} {size_mb / float(row['seconds']):>7.1f} {row['peak_mib']:>9.0f} "  # type: ignore[arg-type]
              f"{row['turns']:>9} {row['skipped']:>8} {row['rejected']:>8}")


if __name__ == "__main__":
    main()
