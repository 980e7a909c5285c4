"""Reading seals and day files imports no importer: the package's names load their modules on first use."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
IMPORTERS = ("core.conversation.detect", "core.conversation.pipeline", "core.conversation.chatgpt",
             "core.conversation.claude_code", "core.conversation.codex", "core.conversation.generic")


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys\n{statement}\nprint('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_the_seals_do_not_import_the_importers() -> None:
    loaded = _loaded_after("import core.conversation.seals, core.conversation.store")
    early = sorted(m for m in loaded if m in IMPORTERS)
    assert not early, f"reading seals imports {early}"


def test_the_package_names_still_resolve_to_their_modules() -> None:
    import core.conversation as conversation
    from core.conversation import detect, pipeline, seals, store

    assert conversation.ingest is pipeline.ingest
    assert conversation.detect_format is detect.detect_format
    assert conversation.verify_day_seals is seals.verify_day_seals
    assert conversation.read_day is store.read_day
    assert all(getattr(conversation, name) is not None for name in conversation.__all__)
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = conversation.no_such_name
