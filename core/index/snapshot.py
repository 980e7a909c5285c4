"""Vector snapshots: the vector table copied to memory-mappable numpy files, sorted by doc.

A snapshot is a folder ``<cache>/vectors/e<epoch>-g<gen>/`` holding ``docs.npy`` (int64, sorted),
``q.npy`` (int8 rows), ``norms.npy`` (float32 norms of the int8 rows) and ``words.npy`` (sign bits,
uint64, column-major) — everything a search needs, mapped from the page cache and shared by every
process. Only the indexer writes snapshots (under the reindex lock), into a temporary folder renamed
into place, so a reader sees a whole snapshot or none. Readers add what changed after the snapshot's
generation from SQLite (core.index.vecview), so a snapshot is rewritten only when that overlay has
grown large, never after each small write.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import apsw

from core.fsutil import ensure_private_dir
from core.index import meta
from core.index.connection import read
from core.index.snapshot_names import complete, folder_name, parse

if TYPE_CHECKING:  # numpy loads with the first snapshot, not with `import core.index`
    import numpy as np

_CHUNK = 65536


@dataclass
class Snapshot:
    epoch: int
    gen: int
    path: Path
    docs: np.ndarray
    q: np.ndarray
    norms: np.ndarray
    words: np.ndarray

    @property
    def rows(self) -> int:
        return len(self.docs)


def load_latest(root: Path, epoch: int, max_gen: int) -> Snapshot | None:
    """The newest complete snapshot of ``epoch`` no newer than ``max_gen``, memory-mapped."""
    import numpy as np  # heavy: numpy, ~50 ms; `import core.index` loads none

    candidates = sorted((gen, path) for e, gen, path in complete(root) if e == epoch and gen <= max_gen)
    for gen, path in reversed(candidates):
        try:
            arrays = {name: np.load(path / f"{name}.npy", mmap_mode="r") for name in ("docs", "q", "norms", "words")}
        except (OSError, ValueError):
            continue  # removed while we looked, or damaged: try an older one
        if arrays["docs"].size == 0:
            arrays = {name: np.load(path / f"{name}.npy") for name in arrays}  # empty files cannot be mapped
        return Snapshot(epoch=epoch, gen=gen, path=path, **arrays)
    return None


def write(conn: apsw.Connection, root: Path) -> Path | None:
    """Copy the vector table into a new snapshot; remove older ones. ``None`` if there is no model."""
    ensure_private_dir(root)
    with read(conn):
        epoch, gen = meta.get_int(conn, "vec_epoch"), meta.get_int(conn, "vec_gen")
        dim = meta.get(conn, "embed_dim")
        if dim is None:
            return None
        dim = int(dim)
        final = root / folder_name(epoch, gen)
        if final.exists():
            return final
        rows = conn.execute("SELECT count(*) FROM vectors").fetchone()[0]
        tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=root))
        try:
            _fill(conn, tmp, rows, dim)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    (tmp / "info.json").write_text(json.dumps({"epoch": epoch, "gen": gen, "rows": rows, "dim": dim}))
    try:
        os.rename(tmp, final)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)  # another writer made the same snapshot first
        return final if final.exists() else None
    prune(root, keep=final)
    return final


def _fill(conn: apsw.Connection, folder: Path, rows: int, dim: int) -> None:
    import numpy as np  # heavy: numpy, ~50 ms; `import core.index` loads none

    from core.index.quantize import int8_norms, sign_words, words_per_vector  # heavy: numpy at its top

    open_memmap = np.lib.format.open_memmap
    docs = open_memmap(folder / "docs.npy", mode="w+", dtype=np.int64, shape=(rows,))
    q = open_memmap(folder / "q.npy", mode="w+", dtype=np.int8, shape=(rows, dim))
    norms = open_memmap(folder / "norms.npy", mode="w+", dtype=np.float32, shape=(rows,))
    words = open_memmap(folder / "words.npy", mode="w+", dtype=np.uint64, shape=(words_per_vector(dim), rows))
    filled = 0
    cursor = conn.execute("SELECT doc, v FROM vectors ORDER BY doc")
    while filled < rows:
        batch = list(itertools.islice(cursor, _CHUNK))
        if not batch:
            break
        n = len(batch)
        block = np.frombuffer(b"".join(blob for _, blob in batch), dtype=np.int8).reshape(n, dim)
        docs[filled : filled + n] = [doc for doc, _ in batch]
        q[filled : filled + n] = block
        norms[filled : filled + n] = int8_norms(block)
        words[:, filled : filled + n] = sign_words(block)
        filled += n
    if filled != rows:
        raise RuntimeError(f"index.db: the vector table changed while a snapshot was written ({filled} of {rows})")
    for array in (docs, q, norms, words):
        array.flush()
    del docs, q, norms, words


def prune(root: Path, keep: Path | None = None) -> None:
    """Remove every snapshot but ``keep`` (readers that mapped one keep their mapping on POSIX)."""
    if not root.is_dir():
        return
    for entry in root.iterdir():
        if entry != keep and (parse(entry.name) is not None or entry.name.startswith(".tmp-")):
            with contextlib.suppress(OSError):
                shutil.rmtree(entry)
