"""Why msgspec: import time, and decoding + validating the stored shapes of a memory record and of
10,000 drafts, msgspec against pydantic v2 (and plain ``json`` for reference).

    python tests/bench/bench_typed.py [--drafts 10000] [--json]

Each library gets the same shape (a draft with suggestions and decisions, a memory payload with its
metadata), strict types, unknown fields refused. Import times are measured in fresh interpreters
(best of 3); the rest is CPU time, best of 5.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

IMPORTS = {
    "msgspec": "import msgspec\nclass A(msgspec.Struct, forbid_unknown_fields=True):\n    x: int\n"
               "msgspec.convert({'x': 1}, A)",
    "pydantic": "from pydantic import BaseModel, ConfigDict\nclass A(BaseModel):\n"
                "    model_config = ConfigDict(extra='forbid', strict=True)\n    x: int\nA.model_validate({'x': 1})",
}


def import_ms(code: str) -> float:
    best = float("inf")
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", f"import time\nt=time.perf_counter()\n{code}\n"
                              "print(time.perf_counter()-t)"], capture_output=True, text=True, check=True)
        best = min(best, float(out.stdout) * 1000)
    return best


def cpu_ms(fn: Any, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best * 1000


def sample_draft(i: int) -> dict[str, Any]:
    from core.vault.review import draft_from_capture

    draft = draft_from_capture(f"Memory number {i}: we walked by the river.", ["bench"])
    draft = draft.add_suggestion("location", "Seoul", "bench", model="m", confidence=0.7, suggestion_id="a")
    draft = draft.add_suggestion("title", "Walk", "bench", suggestion_id="b")
    draft = draft.accept("a", reviewer="me", value="Seoul Forest").reject_suggestion("b", reviewer="me")
    return draft.approve(reviewer="me").to_dict()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--drafts", type=int, default=10_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import msgspec
    from pydantic import BaseModel, ConfigDict, Field

    from core.typed import to_builtins
    from core.vault.records import MemoryRecord, RecordMetadata, _MemoryPayload
    from core.vault.review import StoredDraft, _DraftPayload, draft_from_json, review_record

    class Strict(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    class PSuggestion(Strict):
        suggestion_id: str
        field_name: str
        value: Any
        source: str
        model: str | None = None
        process_version: str | None = None
        confidence: float | None = None
        created_at: str

    class PDecision(Strict):
        suggestion_id: str
        action: str
        reviewer: str
        decided_at: str
        value: Any = None
        edited: bool = False

    class PApproval(Strict):
        reviewer: str
        approved_at: str

    class PDraft(Strict):
        draft_id: str
        content: str
        tags: tuple[str, ...] = ()
        created_at: str
        created_by: str = "me"
        suggestions: tuple[PSuggestion, ...] = ()
        decisions: tuple[PDecision, ...] = ()
        state: str
        approval: PApproval | None = None
        finalized_memory_id: str | None = None
        finalized_at: str | None = None
        supersedes: tuple[str, ...] = ()

    class PDraftPayload(Strict):
        draft: PDraft

    class PMetadata(Strict):
        tags: tuple[str, ...] = ()
        occurred_at: str | None = None
        location: str | None = None
        title: str | None = None
        people: tuple[str, ...] = ()
        confirmed_fields: dict[str, Any] = Field(default_factory=dict)
        custom: dict[str, Any] = Field(default_factory=dict)

    class PMemory(Strict):
        memory_id: str
        content: str
        content_sha256: str
        created_at: str
        metadata: PMetadata

    drafts = [sample_draft(i) for i in range(args.drafts)]
    blobs = [json.dumps({"draft": d}).encode() for d in drafts]
    first = StoredDraft.from_dict(drafts[0])
    memory = MemoryRecord("mem_0123456789abcdef", first.content, RecordMetadata(
        tags=first.tags, location="Seoul Forest", confirmed_fields=first.resolved_fields(),
        custom=msgspec.convert({"review": to_builtins(review_record(first))}, dict[str, Any])), first.created_at)
    memory_blob = json.dumps(memory.payload()).encode()
    ms_draft = msgspec.json.Decoder(_DraftPayload)
    ms_memory = msgspec.json.Decoder(_MemoryPayload)
    rows: dict[str, Any] = {
        "import + first model, ms: msgspec": round(import_ms(IMPORTS["msgspec"]), 1),
        "import + first model, ms: pydantic": round(import_ms(IMPORTS["pydantic"]), 1),
        "decode+validate 1 memory record x1000, ms: json.loads (no validation)":
            round(cpu_ms(lambda: [json.loads(memory_blob) for _ in range(1000)]), 1),
        "decode+validate 1 memory record x1000, ms: msgspec":
            round(cpu_ms(lambda: [ms_memory.decode(memory_blob) for _ in range(1000)]), 1),
        "decode+validate 1 memory record x1000, ms: pydantic":
            round(cpu_ms(lambda: [PMemory.model_validate_json(memory_blob) for _ in range(1000)]), 1),
        f"decode+validate {args.drafts:,} drafts, ms: json.loads (no validation)":
            round(cpu_ms(lambda: [json.loads(b) for b in blobs]), 1),
        f"decode+validate {args.drafts:,} drafts, ms: msgspec":
            round(cpu_ms(lambda: [ms_draft.decode(b) for b in blobs]), 1),
        f"decode+validate {args.drafts:,} drafts, ms: pydantic":
            round(cpu_ms(lambda: [PDraftPayload.model_validate_json(b) for b in blobs]), 1),
    }
    shapes = [ms_draft.decode(b) for b in blobs]
    models = [PDraftPayload.model_validate_json(b) for b in blobs]
    rows[f"encode {args.drafts:,} drafts, ms: msgspec"] = round(cpu_ms(lambda: [msgspec.json.encode(s)
                                                                               for s in shapes]), 1)
    rows[f"encode {args.drafts:,} drafts, ms: pydantic"] = round(cpu_ms(lambda: [m.model_dump_json()
                                                                                for m in models]), 1)
    # the review objects are msgspec structs: decoding checks the shape and every invariant in one step
    rows[f"full ReviewDraft load (shape + invariants) {args.drafts:,}, ms"] = round(
        cpu_ms(lambda: [draft_from_json(b, "bench") for b in blobs], repeat=3), 1)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        width = max(len(k) for k in rows)
        print("| measure | value |\n|---|---|")
        for key, value in rows.items():
            print(f"| {key:<{width}} | {value} |")


if __name__ == "__main__":
    main()
