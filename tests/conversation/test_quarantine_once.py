"""An oversized line is copied to the quarantine once, whatever the number of formats the same file
is read as (``--format`` tried one after the other): ChatGPT's reader keeps a broken element up to
the end of the file, the line readers keep the line alone, and both share one copy of its bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.conversation import FORMATS, ingest, lines
from core.paths import HomePaths
from core.workbench.verify import check_stray_files

BIG = 3 * 1024 * 1024


def _source(tmp_path: Path) -> Path:
    big = '{"ts": "2026-01-02T03:04:05Z", "role": "user", "text": "' + "x" * BIG + '"}'
    source = tmp_path / "big.jsonl"
    source.write_text('{"ts": "2026-01-02T03:04:04Z", "role": "user", "text": "before"}\n' + big + "\n"
                      '{"ts": "2026-01-02T03:04:06Z", "role": "user", "text": "after"}\n')
    return source


def _kept(paths: HomePaths, source: Path) -> list[bytes]:
    """What each quarantine entry with a raw file says it kept: the first ``bytes`` bytes of that file."""
    data = source.read_bytes()
    found = []
    for text in next(paths.quarantine.glob("*.jsonl")).read_text().splitlines():
        entry = json.loads(text)
        if "raw_file" in entry:
            raw = (paths.quarantine / entry["raw_file"]).read_bytes()[: entry["bytes"]]
            assert raw in data and len(raw) == entry["bytes"]
            found.append(raw)
    assert check_stray_files(paths)[0] == []  # every raw file is one an entry names
    return found


@pytest.mark.parametrize("order", [FORMATS, tuple(reversed(FORMATS))], ids=["forward", "reversed"])
def test_an_oversized_line_is_copied_once_for_every_format_tried(
        paths: HomePaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, order: tuple[str, ...]) -> None:
    monkeypatch.setattr(lines, "MAX_LINE_BYTES", 1024 * 1024)
    source = _source(tmp_path)
    for fmt in order:
        ingest(paths, [source], fmt)
    written = sum(p.stat().st_size for p in paths.quarantine.glob("*.raw"))
    assert written <= source.stat().st_size  # one copy: not one for each format
    kept = _kept(paths, source)
    line_two = source.read_bytes().split(b"\n", 2)[1] + b"\n"
    assert line_two in kept  # the line readers' entry
    assert any(raw.startswith(line_two) and len(raw) > len(line_two) for raw in kept)  # ChatGPT's, to the end


def test_a_shared_copy_that_went_missing_is_made_again(
        paths: HomePaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lines, "MAX_LINE_BYTES", 1024 * 1024)
    source = _source(tmp_path)
    ingest(paths, [source], "generic")
    ingest(paths, [source], "chatgpt")
    for raw in paths.quarantine.glob("*.raw"):
        raw.unlink()
    ingest(paths, [source], "generic")
    ingest(paths, [source], "chatgpt")
    assert len(_kept(paths, source)) >= 2


def test_a_planted_entry_cannot_point_the_quarantine_outside_its_folder(
        paths: HomePaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry file is plaintext in the home: a ``raw_file`` it names with a path is never appended to
    or written."""
    monkeypatch.setattr(lines, "MAX_LINE_BYTES", 1024 * 1024)
    source = _source(tmp_path)
    line_two = source.read_bytes().split(b"\n", 2)[1] + b"\n"
    ingest(paths, [source], "generic")
    target = paths.root / "planted.raw"
    target.write_bytes(line_two)
    entries = next(paths.quarantine.glob("*.jsonl"))
    text = entries.read_text().replace(json.loads(entries.read_text().splitlines()[0])["raw_file"], "../planted.raw")
    entries.write_text(text)
    for raw in paths.quarantine.glob("*.raw"):
        raw.unlink()
    ingest(paths, [source], "chatgpt")
    ingest(paths, [source], "generic")
    assert target.read_bytes() == line_two
