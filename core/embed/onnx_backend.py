"""all-MiniLM-L6-v2 (or another mean-pooled sentence-transformers model) on ONNX Runtime, float32.

The ``onnx`` backend and the start-up half of the default (:mod:`core.embed.quick_start`). It runs the
graph :mod:`core.embed.onnx_prepare` exported once (the only step that imports torch); its vectors
equal the torch vectors to rounding, so the index records them under the model's own name. Texts are
tokenized with the model's ``tokenizer.json``, sorted by length, padded per batch, and batches run in
one-thread streams without spinning (``streams``; why: :class:`OnnxEmbedder`). Figures:
tests/bench/README.md, ``bench_embed.py``.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.embed.onnx_prepare import (
    Notice,
    Prepared,
    SourceModel,
    inspect_source,
    model_cache_root,
    optimized_file,
    prepare,
    write_optimized,
)
from core.embed.protocol import EmbeddingError, normalize_rows
from core.embed.sentence_transformers_backend import _PACKAGED_NAMES, DEFAULT_MODEL, folder_fingerprint, resolve_model
from core.embed.threads import resolve_threads

if TYPE_CHECKING:
    import numpy as np

# One model loads at a time in a process. The runtimes set the process's C locale and put it back
# while they load, so two loads in threads (an ensemble's parts) could leave it at "C": Python's
# default text encoding then turns ASCII, and every text-mode subprocess or open() without an
# encoding fails on the first non-ASCII byte.
_LOADING = threading.RLock()


class OnnxEmbedder:
    """An :class:`~core.embed.protocol.Embedder` on ONNX Runtime. Nothing loads until the first
    ``embed`` or ``dim``; ``notice`` (optional) hears, at once, when that load will take a while
    (the one-off preparation, a rebuild of a damaged copy)."""

    backend = "onnx"  # the embedding.backend setting, for messages

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        threads: int = 0,
        batch_size: int = 64,
        cache_dir: Path | None = None,
        notice: Notice | None = None,
        sort_by_length: bool = True,
        streams: int | None = None,
        spinning: bool = False,
        token_budget: int = 0,
    ) -> None:
        """``threads``: cores to use (0: all). ``streams``: batches run at once, each on
        ``threads // streams`` intra-op threads (default: one stream per thread: a batch of a small
        model is a few hundred small operators, and intra-op threads would meet at a barrier after each,
        spinning on a core another process could use; streams need no barrier, and ONNX Runtime
        releases the GIL). ``token_budget``: when positive, a batch also ends before its rows × padded width
        would pass it (long texts run in smaller batches; 0: ``batch_size`` rows whatever their length).
        ``sort_by_length=False`` and ``spinning=True`` (intra-op threads busy-wait between
        operators, ONNX Runtime's default) exist only to measure what the defaults buy."""
        self._model_name = model
        self.token_budget = token_budget
        self.sort_by_length = sort_by_length
        self.threads = resolve_threads(threads)
        self.streams = max(1, min(self.threads, streams if streams is not None else self.threads))
        self.spinning = spinning
        self._pool: ThreadPoolExecutor | None = None
        self.batch_size = batch_size
        self._cache_dir = cache_dir
        self._notice = notice
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._inputs: tuple[str, ...] = ()
        self._prepared: Prepared | None = None

    @property
    def name(self) -> str:
        """As sentence-transformers names it: the graph computes the same vectors (to rounding), so an
        index built by either backend serves both."""
        if self._model_name in _PACKAGED_NAMES:
            return DEFAULT_MODEL
        local = Path(self._model_name).expanduser()
        return f"{local.absolute()}@{folder_fingerprint(local)}" if local.is_dir() else self._model_name

    @property
    def loaded(self) -> bool:
        return self._session is not None

    @property
    def prepared(self) -> Prepared | None:
        """The prepared model in use (after the first load)."""
        return self._prepared

    def _source(self) -> SourceModel:
        folder = Path(resolve_model(self._model_name))
        if not folder.is_dir():
            raise EmbeddingError(
                f"embedding.model {self._model_name!r}: the {self.backend} backend needs the packaged model or a local "
                'folder; use embedding.backend = "sentence-transformers" for a model in the Hugging Face cache'
            )
        return inspect_source(folder, self._model_name)

    def _import_runtime(self) -> Any:
        """The runtime's module (imported here, never at start-up)."""
        try:
            import onnxruntime  # heavy: ~80 ms with numpy; optional, so a missing package is an EmbeddingError
        except ImportError as exc:
            raise EmbeddingError(
                f"embedding.backend onnx: the {exc.name} package is not installed "
                '(pip install onnxruntime, or embedding.backend = "sentence-transformers")'
            ) from exc
        return onnxruntime

    def _load(self) -> Any:
        with self._lock, _LOADING:
            if self._session is not None:
                return self._session
            runtime = self._import_runtime()
            source = self._source()
            root = self._root()
            prepared = prepare(source, root, notice=self._notice)
            try:
                tokenizer = source.tokenizer()
            except ImportError as exc:
                raise EmbeddingError(
                    f"embedding.backend {self.backend}: the tokenizers package is not installed "
                    '(pip install tokenizers, or embedding.backend = "sentence-transformers")'
                ) from exc
            session, prepared = self._open_session(runtime, source, root, prepared, tokenizer)
            self._tokenizer = tokenizer
            self._inputs = self._input_names(session)
            self._prepared = prepared
            self._session = session
            return session

    def _root(self) -> Path:
        return self._cache_dir if self._cache_dir is not None else model_cache_root()

    def prepare_model(self) -> Prepared:
        """The prepared model (exported first when absent, with the notice), without opening a runtime."""
        if self._prepared is not None:
            return self._prepared
        return prepare(self._source(), self._root(), notice=self._notice)

    def _input_names(self, session: Any) -> tuple[str, ...]:
        return tuple(i.name for i in session.get_inputs())

    def _open_session(
        self, onnxruntime: Any, source: SourceModel, root: Path, prepared: Prepared, tokenizer: Any
    ) -> tuple[Any, Prepared]:
        """An ONNX Runtime session on ``prepared`` (the saved optimized graph when there is one), and
        the prepared model it runs (rebuilt when ONNX Runtime cannot open the file)."""
        session = self._open_optimized(onnxruntime, prepared)
        if session is None:
            try:
                session = self._open(onnxruntime, prepared.model_file)
            except Exception as exc:  # ONNX Runtime raises its own kinds; all mean "this file is unusable"
                reason = f"ONNX Runtime cannot open {prepared.model_file}: {_first_line(exc)}"
                prepared = prepare(source, root, notice=self._notice, rebuild_reason=reason)
                try:
                    session = self._open(onnxruntime, prepared.model_file)
                except Exception as again:  # freshly exported and checked, yet unusable: say so
                    raise EmbeddingError(
                        f"embedding.model {self._model_name!r}: ONNX Runtime cannot open the model it just "
                        f"prepared in {prepared.folder} ({_first_line(again)})"
                    ) from again
            with contextlib.suppress(Exception):  # a speed-up only: without it, loads optimize in memory
                write_optimized(prepared, onnxruntime)  # for the next process
        return session, prepared

    def _open(self, onnxruntime: Any, model_file: Path, *, optimized: bool = False) -> Any:
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = max(1, self.threads // self.streams)
        options.inter_op_num_threads = 1
        if not self.spinning:
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # errors only: no warnings on the person's terminal
        if optimized:  # optimized when it was saved: do not spend the time again
            options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
        return onnxruntime.InferenceSession(str(model_file), options, providers=["CPUExecutionProvider"])

    def _open_optimized(self, onnxruntime: Any, prepared: Prepared) -> Any:
        """A session on the saved optimized graph, or ``None`` (none for this ONNX Runtime, or unusable:
        then it is removed, and the plain graph is used and optimized again)."""
        path = optimized_file(prepared, onnxruntime.__version__)
        if not path.is_file():
            return None
        try:
            return self._open(onnxruntime, path, optimized=True)
        except Exception:  # any failure means "use the plain graph"
            path.unlink(missing_ok=True)
            return None

    @property
    def dim(self) -> int:
        self._load()
        assert self._prepared is not None
        return self._prepared.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit row per text. Texts are run shortest first, ``batch_size`` at a time, each batch
        padded to its own longest text, ``streams`` batches at once; rows come back in the order given.
        A text that occurs more than once in ``texts`` is embedded once (9% of the turns of the Claude
        Code transcripts in ``../shared/data/claude-code`` repeat an earlier one: session headers,
        "[Request interrupted by user]", the same file read again)."""
        import numpy as np  # heavy: numpy, ~50 ms; `import core.embed` loads none

        session = self._load()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        distinct = dict.fromkeys(texts)
        if len(distinct) < len(texts):  # a text given twice is embedded once (tool output repeats)
            rows = self.embed(list(distinct))
            where = {text: i for i, text in enumerate(distinct)}
            return rows[[where[text] for text in texts]]
        encoded = self._tokenizer.encode_batch(list(texts))
        lengths = np.fromiter((len(e.ids) for e in encoded), dtype=np.int64, count=len(encoded))
        order = np.argsort(lengths, kind="stable") if self.sort_by_length else np.arange(len(texts))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        with_types = "token_type_ids" in self._inputs

        def feeds(rows: np.ndarray) -> dict[str, np.ndarray]:
            width = int(lengths[rows].max())
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for r, i in enumerate(rows):
                n = int(lengths[i])
                ids[r, :n] = encoded[i].ids
                mask[r, :n] = 1
            batch = {"input_ids": ids, "attention_mask": mask}
            if with_types:
                batch["token_type_ids"] = np.zeros_like(ids)
            return batch

        self._run_batches(session, self._batches(order, lengths), feeds, out)
        return normalize_rows(out)

    def _batches(self, order: np.ndarray, lengths: np.ndarray) -> list[np.ndarray]:
        """``order`` cut into batches of at most ``batch_size`` rows and, with a ``token_budget``, at most
        that many tokens once padded to the batch's longest text (a text longer than the budget runs
        alone). Padding is masked, so the cut changes no vector beyond rounding."""
        if self.token_budget <= 0:
            return [order[start : start + self.batch_size] for start in range(0, len(order), self.batch_size)]
        cuts, start, width = [], 0, 0
        for end, row in enumerate(order.tolist()):
            width = max(width, int(lengths[row]))
            if end > start and ((end - start + 1) * width > self.token_budget or end - start == self.batch_size):
                cuts.append(order[start:end])
                start, width = end, int(lengths[row])
        cuts.append(order[start:])
        return cuts

    def _run_batches(
        self,
        session: Any,
        batches: list[np.ndarray],
        feeds: Callable[[np.ndarray], dict[str, np.ndarray]],
        out: np.ndarray,
    ) -> None:
        """Fill ``out[rows]`` for every batch of row numbers (``feeds(rows)``: the model's inputs)."""

        def run(rows: np.ndarray) -> None:
            out[rows] = session.run(None, feeds(rows))[0]  # disjoint rows: streams never write the same row

        if self.streams > 1 and len(batches) > 1:
            for _ in self._streams().map(run, batches):  # ONNX Runtime releases the GIL while it runs
                pass
        else:
            for rows in batches:
                run(rows)

    def _streams(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.streams, thread_name_prefix="reverie-onnx")
            return self._pool


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
