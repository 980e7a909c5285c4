"""How long one append takes as the ledger grows, from a fresh process's point of view.

A new ``Ledger`` object (no reading cached in memory) appends one entry to a ledger of 1k, 10k and 30k
entries, timed three ways:

- ``full read``: ``Ledger.read()`` of the whole chain, what ``reverie verify`` always does (and what
  every append did before the verified-prefix note);
- ``append, no note``: the note missing (a purged cache, a first run): the append checks the whole
  chain, as before, and writes the note;
- ``append, note``: the note present and current (or a few entries behind): the append hashes the
  noted bytes and checks only the entries after them.

The ledgers are built with the real entry format (``LedgerEntry``, ``entry_line``, ``head_text``, signed
with keys from the test KDF) in one write rather than by 30,000 durable appends (each fsyncs twice);
a full read checks they are clean before timing. Run::

    python tests/bench/bench_ledger_append.py [--sizes 1000,10000,30000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.paths import HomePaths
from core.vault.canonical import canonical_json, sha256_hex
from core.vault.crypto import KdfParams, VaultKeys, create_header
from core.vault.ledger import GENESIS, Ledger, LedgerEntry, entry_line, head_text
from core.vault.store import MemoryStore

KINDS = ("finalize", "seal_day", "archive", "restore")
PASSPHRASE = "bench passphrase"


def build(paths: HomePaths, keys: VaultKeys, count: int) -> None:
    """``count`` signed, chained entries of the kinds a heavy user accumulates, and the signed head."""
    lines: list[str] = []
    prev = GENESIS
    for seq in range(1, count + 1):
        kind = KINDS[seq % len(KINDS)]
        data: dict[str, object] = (
            {"draft_id": f"drf_{seq:020d}"}
            if kind == "finalize"
            else {
                "move_id": f"mv_{seq:020d}",
                "cold_path": f"cold/notes/2026/{seq:06d}.md",
                "signals": ["stale", "dup"],
            }
        )
        body = {
            "seq": seq,
            "ts": "2026-01-01T00:00:00+00:00",
            "kind": kind,
            "record_id": f"mem_{seq:024d}",
            "record_sha256": sha256_hex(str(seq).encode()),
            "data": data,
            "prev": prev,
        }
        digest = sha256_hex(canonical_json(body))
        entry = LedgerEntry(hash=digest, sig=keys.sign(digest.encode("ascii")), **body)  # type: ignore[arg-type]
        lines.append(entry_line(entry))
        prev = digest
    paths.ledger.write_text("\n".join(lines) + "\n", encoding="utf-8")
    paths.ledger_head.write_text(head_text(count, prev, keys), encoding="utf-8")


def timed(action) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def measure(base: Path, count: int, repeat: int) -> dict[str, float]:
    paths = HomePaths(base / f"home-{count}", base / f"cache-{count}").ensure()
    keys = create_header(paths.vault_header, PASSPHRASE, KdfParams.for_tests())
    build(paths, keys, count)
    reading = Ledger(paths, keys).read()
    assert not reading.problems and len(reading.entries) == count, reading.problems[:3]
    size = paths.ledger.stat().st_size

    def append() -> None:
        Ledger(paths, keys).append("finalize", "mem_bench", "0" * 64, {"draft_id": "drf_bench"})

    def finalize() -> float:
        """A whole CLI finalize's ledger work: a fresh vault object finalizes one approved draft."""
        draft = MemoryStore(keys, paths).create_draft("bench").approve(reviewer="me")
        vault = MemoryStore(keys, paths)
        vault.ledger.read(full=True)  # opening the vault is not what is timed
        vault.ledger._cache = None
        return timed(lambda: vault.finalize_draft(draft))

    full, cold, warm, final = [], [], [], []
    for _ in range(repeat):
        full.append(timed(Ledger(paths, keys).read))
        paths.ledger_prefix.unlink(missing_ok=True)
        cold.append(timed(append))  # checks everything, writes the note
        warm.append(timed(append))  # the note is one entry behind
        final.append(finalize())
    assert not Ledger(paths, keys).read().problems
    return {
        "entries": count,
        "mb": size / 1e6,
        "full": statistics.median(full),
        "cold": statistics.median(cold),
        "warm": statistics.median(warm),
        "finalize": statistics.median(final),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,30000")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="reverie-bench-ledger-") as tmp:
        for count in (int(n) for n in args.sizes.split(",")):
            rows.append(measure(Path(tmp), count, args.repeat))
    print(f"median of {args.repeat}, one append by a new Ledger object (ms)\n")
    print("| entries | ledger MB | full read (verify) | append, no note | append, note | speed-up | finalize |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        print(
            f"| {row['entries']:,} | {row['mb']:.1f} | {row['full'] * 1e3:.0f} | {row['cold'] * 1e3:.0f} "
            f"| {row['warm'] * 1e3:.1f} | {row['cold'] / row['warm']:.0f}x | {row['finalize'] * 1e3:.0f} |"
        )


if __name__ == "__main__":
    main()
