"""A turn shipped from another machine carries ``machine`` in its log line; a turn captured on the home
has no such key, so its line is byte for byte what it was before the field existed. Both readers of a
day file (the store's and the index's) read both kinds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.conversation import read_day
from core.conversation.store import turn_line
from core.index.logsource import read_records
from core.turns import Turn, TurnError, day_file

HERE = Turn("t1", "2026-03-02T09:00:00.000000Z", "me", "user", "text", "at the pier", None, "s", "claude-code:/a")
AWAY = Turn("t2", "2026-03-02T09:00:30.000000Z", "me", "user", "text", "on the ferry", None, "s", "claude-code:/b",
            machine="laptop")


def test_the_machine_key_appears_only_on_shipped_turns() -> None:
    assert "machine" not in json.loads(HERE.to_json()) and turn_line(HERE) == HERE.to_json()
    assert json.loads(AWAY.to_json())["machine"] == "laptop" and turn_line(AWAY) == AWAY.to_json()
    assert HERE.to_json() == json.dumps({"actor": "me", "id": "t1", "model": None, "role": "user", "session": "s",
                                         "source": "claude-code:/a", "text": "at the pier",
                                         "ts": "2026-03-02T09:00:00.000000Z", "type": "text"}, ensure_ascii=False)


def test_both_readers_read_lines_with_and_without_it(tmp_path: Path) -> None:
    path = day_file(tmp_path / "logs", HERE.day)
    path.parent.mkdir(parents=True)
    path.write_text(HERE.to_json() + "\n" + AWAY.to_json() + "\n", encoding="utf-8")
    assert read_day(path).turns == [HERE, AWAY]
    chunk = read_records(path)
    assert chunk is not None and [record.machine for record in chunk.turns] == [None, "laptop"]
    spaced = json.dumps(json.loads(AWAY.to_json()), indent=None, separators=(", ", " : "))  # the general path
    path.write_text(spaced + "\n", encoding="utf-8")
    assert read_day(path).turns == [AWAY]


@pytest.mark.parametrize("bad", [1, "", ["laptop"]])
def test_a_machine_that_is_not_a_name_is_refused_naming_the_field(bad: object) -> None:
    with pytest.raises(TurnError, match="machine"):
        Turn.from_dict({**json.loads(HERE.to_json()), "machine": bad})
