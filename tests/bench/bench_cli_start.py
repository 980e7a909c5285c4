"""Start-up time of the CLI, this tree against an earlier commit, in one run.

    python tests/bench/bench_cli_start.py [--against REV] [--runs 7] [--json]

Each command is a whole process (``python -m tui_app.cli.main …``), run ``--runs`` times alternately
for the two trees; the table gives the medians. ``--against`` (default ``HEAD``) is checked out into
a temporary git worktree and run with this venv. Both trees get their own home with one ingested
turn, indexed, so ``search x --no-sync`` opens a real index.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = (("--version",), ("search", "x", "--no-sync"))
TURN = '{"id":"s-1","ts":"2026-11-20T10:00:00Z","role":"user","text":"We chose the quokka layout.","session":"s"}\n'


def run(tree: Path, env: dict[str, str], *args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "tui_app.cli.main", *args], cwd=tree, env=env, capture_output=True,
                   check=False)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", default="HEAD")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        old = base / "old"
        subprocess.run(["git", "worktree", "add", "--detach", str(old), args.against], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            trees = {"this tree": ROOT, args.against: old}
            envs = {}
            for label, tree in trees.items():
                home = base / f"home-{len(envs)}"
                env = {**os.environ, "REVERIE_HOME": str(home), "REVERIE_CACHE": str(home) + "-cache",
                       "PYTHONPATH": str(tree)}
                source = base / "in.jsonl"
                source.write_text(TURN, encoding="utf-8")
                run(tree, env, "ingest", str(source))
                run(tree, env, "reindex", "--no-embed")
                envs[label] = env
            times: dict[tuple[str, str], list[float]] = {}
            for _ in range(args.runs):
                for command in COMMANDS:
                    for label, tree in trees.items():
                        times.setdefault((label, " ".join(command)), []).append(run(tree, envs[label], *command))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, capture_output=True)
    medians = {f"{label}: reverie {command}": statistics.median(values) for (label, command), values in times.items()}
    if args.json:
        print(json.dumps(medians, indent=2))
        return
    print(f"| command | this tree (s) | {args.against} (s) | ratio |")
    print("|---|---|---|---|")
    for command in COMMANDS:
        text = " ".join(command)
        new, old_s = medians[f"this tree: reverie {text}"], medians[f"{args.against}: reverie {text}"]
        print(f"| `reverie {text}` | {new:.3f} | {old_s:.3f} | {new / old_s:.2f} |")


if __name__ == "__main__":
    main()
