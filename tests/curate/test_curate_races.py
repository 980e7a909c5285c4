"""Curation against a scope that changes under it: a record's folder swapped for a symlink while a
move or a restore runs, a scope root that is itself a symlink, and the modes of folders curation did
not create. Nothing may be written, removed or chmodded outside the scope; the command either
succeeds as it should or fails with a one-line error; no temporary file is left anywhere."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from core.config import Config
from core.curate import engine
from core.curate.cold import Moved, list_cold
from core.curate.errors import PathEscape
from core.errors import ReverieError
from core.paths import HomePaths
from core.vault.crypto import VaultKeys
from tests.helpers.curate import NOW, configure, old_notes, tree, unlocker

Setup = tuple[HomePaths, Config, VaultKeys, Path, Path]


@pytest.fixture
def setup(paths: HomePaths, keys: VaultKeys, tmp_path: Path) -> Setup:
    root = old_notes(tmp_path)
    os.chmod(root / "old", 0o755)
    outside = tmp_path / "outside"
    outside.mkdir()
    os.chmod(outside, 0o755)
    (outside / "keep.txt").write_text("the person's own file\n")
    config = configure(paths, ("notes", "markdown", root), report_only_runs=0, auto_move_cap=10)
    return paths, config, keys, root, outside


def _swap(root: Path, outside: Path) -> None:
    """Put a symlink to ``outside`` where ``root/old`` was (the folder itself set aside in the scope)."""
    os.rename(root / "old", root / "old.away")
    os.symlink(outside, root / "old")


def _unswap(root: Path) -> None:
    """Put the folder back. If a restore made ``old`` again while it was away (a missing folder is made
    again), both stay, and what is in either counts as in the scope."""
    if (root / "old").is_symlink():
        os.unlink(root / "old")
    if (root / "old.away").is_dir() and not os.path.lexists(root / "old"):
        os.rename(root / "old.away", root / "old")


def _in_scope(root: Path, rel: str) -> bytes | None:
    """The bytes of ``old/<name>`` in the folder under either of its names, or None."""
    for folder in ("old", "old.away"):
        path = root / folder / Path(rel).name
        if path.is_file() and not path.is_symlink():
            return path.read_bytes()
    return None


def _at(step: str, action: Callable[[], None]) -> Callable[[str], None]:
    def hook(name: str) -> None:
        if name == step:
            action()
    return hook


def _temps(*folders: Path) -> list[Path]:
    return [p for folder in folders for p in folder.rglob("*.tmp")]


def _moved(setup: Setup) -> list[Moved]:
    paths, config, keys, _, _ = setup
    result = engine.apply(paths, config, unlock=unlocker(keys), now=NOW)
    assert not result.errors
    return result.moved


def _outside_intact(outside: Path, before: dict[str, bytes]) -> None:
    assert tree(outside) == before
    assert outside.stat().st_mode & 0o777 == 0o755


def test_restore_into_a_folder_swapped_for_a_symlink_writes_nothing_outside(setup: Setup) -> None:
    paths, config, keys, root, outside = setup
    m = next(m for m in _moved(setup) if m.stone.path == "old/a.md")
    before = tree(outside)
    with pytest.raises(PathEscape) as info:
        engine.restore(paths, config, m.stone.move_id, unlock=unlocker(keys), now=NOW,
                       on_step=_at("journal", lambda: _swap(root, outside)))
    assert "\n" not in str(info.value) and "nothing was restored" in str(info.value)
    _outside_intact(outside, before)
    assert not _temps(root, outside, paths.root)
    _unswap(root)
    assert not (root / "old/a.md").exists() and m.places.cold.is_file()  # still in cold storage, nothing lost
    done = engine.restore(paths, config, m.stone.move_id, unlock=unlocker(keys), now=NOW)
    assert (root / "old/a.md").read_text() == "# A\n\nan old loose note\n" and not done.already


def test_a_restore_whose_folder_is_swapped_after_the_write_takes_its_copy_back(setup: Setup) -> None:
    """Swapped between the write and the check: the record written into the folder that was moved away
    is removed again and the restore fails in one line; the record stays in cold storage."""
    paths, config, keys, root, outside = setup
    m = next(m for m in _moved(setup) if m.stone.path == "old/a.md")
    before = tree(outside)
    with pytest.raises(PathEscape) as info:
        engine.restore(paths, config, m.stone.move_id, unlock=unlocker(keys), now=NOW,
                       on_step=_at("copied", lambda: _swap(root, outside)))
    assert "\n" not in str(info.value) and "nothing was restored" in str(info.value)
    _outside_intact(outside, before)
    assert not _temps(root, outside, paths.root)
    assert not (root / "old.away/a.md").exists()  # taken back out of the folder that was moved away
    _unswap(root)
    assert not (root / "old/a.md").exists() and m.places.cold.is_file() and m.places.tombstone.is_file()
    engine.restore(paths, config, m.stone.move_id, unlock=unlocker(keys), now=NOW)
    assert (root / "old/a.md").read_text() == "# A\n\nan old loose note\n"


@pytest.mark.parametrize("step", ["journal", "copied", "verified", "tombstoned"])
def test_a_move_whose_folder_is_swapped_before_the_ledger_entry_is_rolled_back(setup: Setup, step: str) -> None:
    paths, config, keys, root, outside = setup
    scope_before, before = tree(root), tree(outside)
    swapped: list[bool] = []

    def once() -> None:
        if not swapped:
            swapped.append(True)
            _swap(root, outside)

    result = engine.apply(paths, config, unlock=unlocker(keys), now=NOW, on_step=_at(step, once))
    # the first record's move is rolled back; the others meet the symlink when they open the folder
    assert result.moved == [] and len(result.errors) == 3
    assert all("\n" not in e for e in result.errors)
    assert "nothing was moved" in result.errors[0], result.errors
    _outside_intact(outside, before)
    assert not _temps(root, outside, paths.root)
    _unswap(root)
    assert tree(root) == scope_before and list_cold(paths, config) == []


def test_a_move_whose_folder_is_swapped_after_the_copy_leaves_everything_in_place(setup: Setup) -> None:
    paths, config, keys, root, outside = setup
    before, scope_before = tree(outside), tree(root)
    result = engine.apply(paths, config, unlock=unlocker(keys), now=NOW,
                          on_step=_at("verified", lambda: _swap(root, outside) if not (root / "old.away").exists()
                                      else None))
    assert result.errors and all("\n" not in e for e in result.errors)
    assert any("nothing was moved" in e for e in result.errors)
    _outside_intact(outside, before)
    assert not _temps(root, outside, paths.root)
    _unswap(root)
    moved = {m.stone.path for m in result.moved}
    assert {rel for rel in scope_before if rel.startswith("old/")} - moved <= set(tree(root))
    for rel in moved:
        assert not (root / rel).exists() and (root / f"{rel}.tombstone").is_file()


def test_a_swapped_folder_whose_name_holds_a_newline_and_an_escape_is_still_one_line(setup: Setup) -> None:
    paths, config, keys, root, outside = setup
    weird = "we\nird\x1b[31m"
    os.rename(root / "old", root / weird)
    swapped: list[bool] = []

    def once() -> None:
        if not swapped:
            swapped.append(True)
            os.rename(root / weird, root / "old.away")
            os.symlink(outside, root / weird)

    result = engine.apply(paths, config, unlock=unlocker(keys), now=NOW, on_step=_at("verified", once))
    assert result.moved == [] and len(result.errors) == 3
    assert all("\n" not in e and "\x1b" not in e for e in result.errors), result.errors
    assert tree(outside) == {"keep.txt": b"the person's own file\n"}


def test_unlinking_the_original_never_follows_a_swapped_folder(setup: Setup) -> None:
    """The attacker puts an identical copy outside: the move must not remove that one."""
    paths, config, keys, root, outside = setup
    (outside / "a.md").write_bytes((root / "old/a.md").read_bytes())
    before = tree(outside)
    swapped: list[bool] = []

    def once() -> None:
        if not swapped:
            swapped.append(True)
            _swap(root, outside)

    result = engine.apply(paths, config, unlock=unlocker(keys), now=NOW, on_step=_at("ledgered", once))
    assert all("\n" not in e for e in result.errors)
    _outside_intact(outside, before)
    _unswap(root)
    first = result.moved[0]
    assert not (root / first.stone.path).exists() and (root / first.stone.tombstone).is_file()
    assert first.places.cold.is_file()


def test_a_scope_root_that_is_a_symlink_is_refused(setup: Setup, tmp_path: Path) -> None:
    paths, config, keys, root, _ = setup
    link = tmp_path / "notes-link"
    os.symlink(root, link)
    linked = configure(paths, ("notes", "markdown", link), report_only_runs=0, auto_move_cap=10)
    snapshot = tree(root)
    with pytest.raises(ReverieError) as info:
        engine.apply(paths, linked, unlock=unlocker(keys), now=NOW)
    assert str(link) in str(info.value) and "symlink" in str(info.value) and "\n" not in str(info.value)
    assert tree(root) == snapshot and list_cold(paths, config) == []


def test_a_scope_root_swapped_for_a_symlink_before_a_restore_is_refused(setup: Setup, tmp_path: Path) -> None:
    paths, config, keys, root, outside = setup
    m = next(m for m in _moved(setup) if m.stone.path == "old/a.md")
    os.rename(root, tmp_path / "notes.away")
    (outside / "old").mkdir()
    os.symlink(outside, root)
    before = tree(outside)
    with pytest.raises(ReverieError) as info:
        engine.restore(paths, config, m.stone.move_id, unlock=unlocker(keys), now=NOW)
    assert "symlink" in str(info.value) and "\n" not in str(info.value)
    assert tree(outside) == before and m.places.cold.is_file()


def test_cold_storage_folders_are_never_followed_through_a_symlink(setup: Setup) -> None:
    """A writer of the home who puts a symlink at ``cold/<scope>`` gets no copy written through it."""
    paths, config, keys, root, outside = setup
    scope_before, before = tree(root), tree(outside)

    def plant() -> None:  # after the paths were checked, before the cold folders are made
        if not (paths.cold / "notes").is_symlink():
            paths.cold.mkdir(exist_ok=True)
            os.symlink(outside, paths.cold / "notes")

    result = engine.apply(paths, config, unlock=unlocker(keys), now=NOW, on_step=_at("journal", plant))
    assert result.moved == [] and len(result.errors) == 3
    assert all("\n" not in e for e in result.errors) and "nothing was moved" in result.errors[0], result.errors
    _outside_intact(outside, before)
    assert tree(root) == scope_before and not _temps(root, outside, paths.root)


class _Killed(BaseException):
    """Stands for the process dying at a step."""


def test_recovery_removes_only_its_own_temporary_files(setup: Setup) -> None:
    paths, config, keys, root, _ = setup
    m = next(m for m in _moved(setup) if m.stone.path == "old/a.md")

    def die() -> None:
        raise _Killed

    with pytest.raises(_Killed):
        engine.restore(paths, config, m.stone.move_id, unlock=unlocker(keys), now=NOW, on_step=_at("journal", die))
    (root / "old/.a.md.0123abcd.tmp").write_bytes(b"half a record")  # what a killed write leaves
    (root / "old/.a.md.bak.tmp").write_text("the person's own file")
    engine.recover(paths, config, unlock=unlocker(keys), now=NOW)
    assert not (root / "old/.a.md.0123abcd.tmp").exists()
    assert (root / "old/.a.md.bak.tmp").read_text() == "the person's own file"


def test_apply_keeps_the_modes_of_folders_it_did_not_create(setup: Setup) -> None:
    paths, _, _, root, _ = setup
    os.chmod(root, 0o751)
    moved = _moved(setup)
    assert moved
    assert (root / "old").stat().st_mode & 0o777 == 0o755
    assert root.stat().st_mode & 0o777 == 0o751
    cold_move = moved[0].places.mirror.parent
    for folder in (paths.cold, cold_move.parent, cold_move, moved[0].places.cold.parent):
        assert folder.stat().st_mode & 0o777 == 0o700, folder
    paths_, config, keys = setup[0], setup[1], setup[2]
    for m in moved:
        engine.restore(paths_, config, m.stone.move_id, unlock=unlocker(keys), now=NOW)
    assert (root / "old").stat().st_mode & 0o777 == 0o755 and root.stat().st_mode & 0o777 == 0o751


# ------------------------------------------------------------------------- a swapper running at the same time


def _swap_until(root: Path, outside: Path, stop: threading.Event) -> None:
    """Swap ``old`` for a symlink and back until told to stop (at most ten seconds)."""
    deadline = time.monotonic() + 10
    while not stop.is_set() and time.monotonic() < deadline:
        try:
            _swap(root, outside)
            time.sleep(0.0002)
            _unswap(root)
        except OSError:
            with contextlib.suppress(OSError):
                _unswap(root)
            if (root / "old.away").exists():
                return  # a restore made the folder again while it was away: leave both
        time.sleep(0.0002)


@contextlib.contextmanager
def _swapping(root: Path, outside: Path) -> Iterator[None]:
    stop = threading.Event()
    thread = threading.Thread(target=_swap_until, args=(root, outside, stop), daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(10)
        _unswap(root)


@pytest.mark.parametrize("trial", range(10))
def test_restores_raced_by_a_swapping_folder(setup: Setup, trial: int) -> None:
    """Three restores per trial, ten trials: each one restores exactly or fails in one line."""
    paths, config, keys, root, outside = setup
    moved = _moved(setup)
    before = tree(outside)
    for m in moved:
        with _swapping(root, outside):
            try:
                engine.restore(paths, config, m.stone.move_id, unlock=unlocker(keys), now=NOW)
                restored = True
            except ReverieError as exc:
                assert "\n" not in str(exc)
                restored = False
        _outside_intact(outside, before)
        assert not _temps(root, outside, paths.root)
        if restored:
            assert _in_scope(root, m.stone.path) is not None and not m.places.cold.exists()
        else:
            assert m.places.cold.is_file() and _in_scope(root, m.stone.path) is None
        engine.recover(paths, config, unlock=unlocker(keys), now=NOW)
        _outside_intact(outside, before)


@pytest.mark.parametrize("trial", range(10))
def test_applies_raced_by_a_swapping_folder(setup: Setup, trial: int) -> None:
    paths, config, keys, root, outside = setup
    originals = {rel: data for rel, data in tree(root).items() if rel.startswith("old/")}
    before = tree(outside)
    with _swapping(root, outside):
        try:
            result = engine.apply(paths, config, unlock=unlocker(keys), now=NOW)
            errors = result.errors
            moved = result.moved
        except ReverieError as exc:
            errors, moved = [str(exc)], []
    assert all("\n" not in e for e in errors)
    _outside_intact(outside, before)
    assert not _temps(root, outside, paths.root)
    assert (root / "old.away" if (root / "old.away").is_dir() else root / "old").stat().st_mode & 0o777 == 0o755
    engine.recover(paths, config, unlock=unlocker(keys), now=NOW)
    # the scan may have met the folder under its other name (old.away): its records are judged, moved and
    # tombstoned there, inside the scope; match them by file name
    in_cold = {Path(item.stone.path).name: item for item in list_cold(paths, config, verify=True)}
    assert {Path(m.stone.path).name for m in moved} <= set(in_cold), errors
    for rel, data in originals.items():
        name = Path(rel).name
        if name not in in_cold:
            assert _in_scope(root, rel) == data, (rel, errors)
        else:
            assert _in_scope(root, rel) is None and in_cold[name].intact, (rel, errors)
            assert _in_scope(root, rel + ".tombstone") is not None
