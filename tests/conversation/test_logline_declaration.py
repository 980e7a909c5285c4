"""A day-file line is declared once (``core.conversation.logline.LogLine``): the store's fast path and
the index's whole-file reader decode into it; no second struct with the same nine fields drifts."""

from __future__ import annotations

import ast
from pathlib import Path

from core.conversation import logline, read_day
from core.conversation.logline import LogLine
from core.index.logsource import read_records
from core.turns import Turn, day_file

CORE = Path(__file__).resolve().parents[2] / "core"


def _struct_fields(tree: ast.Module) -> list[tuple[str, frozenset[str]]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any("Struct" in ast.unparse(base) for base in node.bases):
            names = frozenset(item.target.id for item in node.body
                              if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name))
            found.append((node.name, names))
    return found


def test_one_struct_declares_the_fields_of_a_log_line() -> None:
    fields = frozenset(LogLine.__struct_fields__)
    assert fields == {"actor", "id", "model", "role", "session", "source", "text", "ts", "type", "machine"}
    same = [f"{path.relative_to(CORE.parent)}:{name}" for path in sorted(CORE.rglob("*.py"))
            for name, names in _struct_fields(ast.parse(path.read_text(encoding="utf-8"))) if names == fields]
    assert same == ["core/conversation/logline.py:LogLine"]


def test_both_readers_decode_into_it(paths) -> None:
    turn = Turn("t1", "2026-01-01T10:00:00.000000Z", "me", "user", "text", "at the pier", None, "s", "test")
    path = day_file(paths.logs, turn.day)
    path.parent.mkdir(parents=True)
    path.write_text(turn.to_json() + "\n", encoding="utf-8")
    chunk = read_records(path)
    assert chunk is not None and type(chunk.turns[0]) is LogLine
    assert read_day(path).turns == [turn]
    assert logline.LOG_LINES.decode(b"[" + turn.to_json().encode() + b"]")[0].ts == turn.ts
