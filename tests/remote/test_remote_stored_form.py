"""The remote's stored files (``spool/state.json``, ``remotes.json``) as the earlier, hand-written code
wrote them: still read, and written again byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import ConfigError
from core.remote.remotes import Remote, Remotes
from core.remote.spool import Spool, SpoolError, SpoolState

# Bytes written by the previous code (json.dumps of a hand-written dict), kept literally.
STATE_JSON = ('{"acked": 7, "last_ship": "2026-11-03T10:00:00Z", "last_error": "home: unreachable — ✓", '
              '"last_error_at": null}')
REMOTES_JSON = (
    '{\n  "default": "home",\n  "remotes": {\n    "b": {\n      "target": "box",\n      "port": null,\n'
    '      "identity": null,\n      "command": "reverie",\n      "ssh_options": []\n    },\n    "home": {\n'
    '      "target": "me@desk",\n      "port": 22,\n      "identity": "~/.ssh/id_ed25519",\n'
    '      "command": "reverie",\n      "ssh_options": [\n        "ConnectTimeout=5"\n      ]\n    }\n  }\n}\n'
)


def test_spool_state_reads_and_writes_the_old_bytes(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool", 10**6)
    spool.folder.mkdir()
    spool.state_file.write_text(STATE_JSON, encoding="utf-8")
    state = spool.state()
    assert state == SpoolState(7, "2026-11-03T10:00:00Z", "home: unreachable — ✓", None)
    spool.state_file.unlink()
    spool.save_state(state)
    assert spool.state_file.read_text(encoding="utf-8") == STATE_JSON


def test_spool_state_without_optional_fields_and_with_a_wrong_one(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool", 10**6)
    spool.folder.mkdir()
    spool.state_file.write_text('{"acked": 3, "extra": 1}', encoding="utf-8")
    assert spool.state() == SpoolState(acked=3)
    spool.state_file.write_text('{"acked": 3, "last_ship": 5}', encoding="utf-8")
    with pytest.raises(SpoolError, match=r"state\.json: field 'last_ship': expected"):
        spool.state()


def test_remotes_read_and_write_the_old_bytes(tmp_path: Path) -> None:
    path = tmp_path / "remotes.json"
    path.write_text(REMOTES_JSON, encoding="utf-8")
    loaded = Remotes.load(path)
    assert loaded.default == "home"
    assert loaded.remotes == {"b": Remote("b", "box"),
                              "home": Remote("home", "me@desk", 22, "~/.ssh/id_ed25519", "reverie",
                                             ("ConnectTimeout=5",))}
    path.unlink()
    loaded.save()
    assert path.read_text(encoding="utf-8") == REMOTES_JSON


def test_a_hand_written_remote_with_gaps_and_a_bad_field(tmp_path: Path) -> None:
    path = tmp_path / "remotes.json"
    path.write_text('{"remotes": {"h": {"target": "box", "command": "", "ssh_options": null}}}', encoding="utf-8")
    assert Remotes.load(path).remotes["h"] == Remote("h", "box")
    path.write_text('{"remotes": {"h": {"port": 22}}}', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"remotes\.json: remotes\.h: field 'target' missing"):
        Remotes.load(path)
    path.write_text('{"remotes": {"h": {"target": "box", "port": "22"}}}', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"remotes\.h: field 'port': expected"):
        Remotes.load(path)
