"""The SDK (``core.sdk``, the DiaryVault Memory Layer API) over a Reverie home: what each call costs.

    python tests/bench/bench_sdk.py --memories 1000 [--json]

Opens a new home with the default Argon2id parameters, creates N memories through ``vault.create``,
verifies each (``vault.verify``: the view, the sealed record and the ledger), then times
``batch_verify``, ``share`` (one tag of ten, limit 10), ``list`` and a cold reopen (every record
decrypted into a view), and a review draft's save → finalize.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.sdk import ContextRequest, MemoryVault


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"p50_ms": round(statistics.median(ordered) * 1000, 2),
            "p95_ms": round(ordered[int(len(ordered) * 0.95) - 1] * 1000, 2)}


def _timed(call):  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    result = call()
    return time.perf_counter() - started, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        home = str(Path(tmp) / "home")
        open_s, vault = _timed(lambda: MemoryVault(encryption_key="bench passphrase", storage_dir=home))
        rows["open (new home, Argon2id default)"] = {"total_s": round(open_s, 3)}
        create, verify = [], []
        memories = []
        for i in range(args.memories):
            seconds, memory = _timed(lambda i=i: vault.create(f"Memory {i}: we walked by the river.",
                                                                tags=[f"tag{i % 10}", "bench"]))
            create.append(seconds)
            memories.append(memory)
        for memory in memories:
            seconds, ok = _timed(lambda memory=memory: vault.verify(memory))
            assert ok
            verify.append(seconds)
        rows["create (one memory)"] = _ms(create)
        rows["verify (one memory)"] = _ms(verify)
        seconds, report = _timed(vault.batch_verify)
        assert report["valid"] == args.memories
        rows[f"batch_verify ({args.memories})"] = {"total_s": round(seconds, 3)}
        request = ContextRequest(agent_id="bench", scope=["tag3"])
        seconds, response = _timed(lambda: vault.share(request))
        assert response.memory_count == min(10, args.memories // 10)
        rows["share (limit 10)"] = {"total_s": round(seconds, 3)}
        seconds, _ = _timed(lambda: vault.list(tags=["tag3"]))
        rows["list (one tag)"] = {"total_s": round(seconds, 3)}
        seconds, reopened = _timed(lambda: MemoryVault(encryption_key="bench passphrase", storage_dir=home))
        assert len(reopened) == args.memories
        rows[f"reopen ({args.memories} views)"] = {"total_s": round(seconds, 3)}
        draft = vault.create_draft("A reviewed memory.", tags=["bench"])
        draft = draft.add_suggestion("location", "Seoul", "echo", suggestion_id="s").accept("s", reviewer="me")
        seconds, _ = _timed(lambda: vault.finalize_draft(draft.approve(reviewer="me")))
        rows["finalize_draft (save + seal + ledger)"] = {"total_s": round(seconds, 3)}
    if args.json:
        print(json.dumps({"memories": args.memories, "rows": rows}, indent=2))
        return
    print(f"{'operation':42} {'p50 ms':>9} {'p95 ms':>9} {'total s':>9}")
    for name, row in rows.items():
        print(f"{name:42} {row.get('p50_ms', ''):>9} {row.get('p95_ms', ''):>9} {row.get('total_s', ''):>9}")


if __name__ == "__main__":
    main()
