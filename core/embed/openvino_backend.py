"""A mean-pooled sentence-transformers graph on OpenVINO, in bfloat16 where the CPU computes it natively.

The default backend: the graph the ``onnx`` backend prepares (:mod:`core.embed.onnx_prepare`), its
matrix products in bf16 on a CPU with native bf16 (float32 elsewhere). Each compile is checked: the
check sentences must match the torch vectors the export recorded (:data:`MIN_CHECK_COSINE`); bf16
failing falls back to float32, and a graph that still fails is rebuilt once, then a one-line error.
Vectors are recorded under the model's own name, so switching backends re-embeds nothing. Batches of
at most :data:`TOKEN_BUDGET` padded tokens run in one-thread streams through an ``AsyncInferQueue``;
the compiled model is cached beside the graph. Figures: tests/bench/README.md, ``bench_embed.py``.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.embed.onnx_backend import OnnxEmbedder, _first_line
from core.embed.onnx_prepare import Notice, Prepared, SourceModel, check_batch, check_cosine, prepare
from core.embed.protocol import EmbeddingError
from core.embed.sentence_transformers_backend import DEFAULT_MODEL
from core.fsutil import file_lock

if TYPE_CHECKING:
    import numpy as np

PRECISIONS = ("auto", "bf16", "f32")
# The lowest cosine against the torch vectors of the check sentences that each precision may show
# (bf16 measured: min 0.99993 over 1,000 LoCoMo turns).
MIN_CHECK_COSINE = {"bf16": 0.999, "f32": 0.9999}
CACHE_PREFIX = "openvino-"
# Padded tokens per batch at most: a batch's activations then stay in a core's cache. Measured on
# LoCoMo turns (bench_embed_paths.py, tests/bench/README.md): 512 tokens embed 13% more texts per CPU
# second than 64 rows whatever their length, for either model of the default; 16 rows do as well.
TOKEN_BUDGET = 512


class _Unusable(Exception):
    """The prepared graph cannot be compiled or computes wrong vectors in every precision."""


class OpenVinoEmbedder(OnnxEmbedder):
    """An :class:`~core.embed.protocol.Embedder` on OpenVINO's CPU plugin over the prepared ONNX graph.

    ``precision``: ``"auto"`` (bf16 when the CPU computes it natively, else f32), ``"bf16"`` or
    ``"f32"``; :attr:`precision` says what runs after the first load."""

    backend = "openvino"

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
        precision: str = "auto",
        compile_cache: bool = True,
        token_budget: int = TOKEN_BUDGET,
    ) -> None:
        """``compile_cache=False`` compiles in every process (exists to measure what the cache buys);
        ``token_budget``: padded tokens per batch at most (:data:`TOKEN_BUDGET`; 0: rows only)."""
        if precision not in PRECISIONS:
            raise EmbeddingError(f"embedding precision {precision!r}: expected one of {', '.join(PRECISIONS)}")
        super().__init__(
            model, threads=threads, batch_size=batch_size, cache_dir=cache_dir, notice=notice,
            sort_by_length=sort_by_length, streams=streams, token_budget=token_budget,
        )
        self.requested_precision = precision
        self.compile_cache = compile_cache
        self.precision: str | None = None  # what runs, once loaded
        self._run_lock = threading.RLock()  # embed() calls itself once for repeated texts
        self._queue: Any = None
        self._request: Any = None

    def _import_runtime(self) -> Any:
        try:
            import openvino  # heavy: ~0.2 s; optional, so a missing package is an EmbeddingError
        except ImportError as exc:
            raise EmbeddingError(
                "embedding.backend openvino: the openvino package is not installed "
                "(pip install openvino, or embedding.backend = \"onnx\")"
            ) from exc
        return openvino

    def _input_names(self, session: Any) -> tuple[str, ...]:
        return tuple(sorted(name for port in session.inputs for name in port.get_names()))

    def _open_session(
        self, openvino: Any, source: SourceModel, root: Path, prepared: Prepared, tokenizer: Any
    ) -> tuple[Any, Prepared]:
        core = openvino.Core()
        try:
            compiled, precision = self._compile_checked(openvino, core, prepared, tokenizer)
        except _Unusable as exc:
            prepared = prepare(source, root, notice=self._notice, rebuild_reason=f"OpenVINO: {exc}")
            try:
                compiled, precision = self._compile_checked(openvino, core, prepared, tokenizer)
            except _Unusable as again:
                raise EmbeddingError(
                    f"embedding.model {self._model_name!r}: OpenVINO cannot run the model it just prepared in "
                    f"{prepared.folder} ({again}); use embedding.backend = \"onnx\""
                ) from again
        self.precision = precision
        return compiled, prepared

    def _precisions(self, core: Any) -> tuple[str, ...]:
        if self.requested_precision != "auto":
            return (self.requested_precision,)
        try:
            native_bf16 = "BF16" in core.get_property("CPU", "OPTIMIZATION_CAPABILITIES")
        except Exception:  # an unknown property: assume the plain float path
            native_bf16 = False
        return ("bf16", "f32") if native_bf16 else ("f32",)

    def cache_folder(self, prepared: Prepared, version: str) -> Path:
        """Where OpenVINO keeps its compiled copies of ``prepared`` for OpenVINO ``version``."""
        return prepared.folder / f"{CACHE_PREFIX}{version.split('-')[0]}"

    def _compile(self, openvino: Any, core: Any, prepared: Prepared, precision: str, cache: Path | None) -> Any:
        config: dict[str, Any] = {
            "INFERENCE_PRECISION_HINT": precision,
            "PERFORMANCE_HINT": "THROUGHPUT" if self.streams > 1 else "LATENCY",
            "NUM_STREAMS": self.streams,
            "INFERENCE_NUM_THREADS": self.threads,
            "ENABLE_CPU_PINNING": False,
        }
        if cache is None:
            return core.compile_model(str(prepared.model_file), "CPU", config)
        config["CACHE_DIR"] = str(cache)
        # One process at a time: the one that writes the cached copy finishes before another reads it
        # (a copy cut short by a kill is compiled again by OpenVINO, and any wrong result fails the check).
        with file_lock(prepared.folder / ".openvino.lock"):
            return core.compile_model(str(prepared.model_file), "CPU", config)

    def _compile_checked(self, openvino: Any, core: Any, prepared: Prepared, tokenizer: Any) -> tuple[Any, str]:
        """A compiled model whose check-sentence vectors match torch's, and its precision."""
        import numpy as np  # heavy: numpy, ~50 ms; `import core.embed` loads none

        cache = self.cache_folder(prepared, openvino.__version__) if self.compile_cache else None
        if cache is not None:
            for old in prepared.folder.glob(f"{CACHE_PREFIX}*"):
                if old != cache:
                    shutil.rmtree(old, ignore_errors=True)  # another OpenVINO version's copies
        ids, mask = check_batch(tokenizer)
        problems: list[str] = []
        for precision in self._precisions(core):
            for where in (cache, None) if cache is not None else (None,):
                try:
                    compiled = self._compile(openvino, core, prepared, precision, where)
                    inputs = self._input_names(compiled)
                    feeds = {"input_ids": ids, "attention_mask": mask}
                    if "token_type_ids" in inputs:
                        feeds["token_type_ids"] = np.zeros_like(ids)
                    got = compiled.create_infer_request().infer(feeds)[0]
                except Exception as exc:  # OpenVINO raises RuntimeError for any unreadable or failing graph
                    if where is not None:  # perhaps a damaged cached copy: compile afresh
                        shutil.rmtree(where, ignore_errors=True)
                        continue
                    raise _Unusable(f"cannot compile {prepared.model_file}: {_first_line(exc)}") from exc
                cosine = check_cosine(prepared, got)
                if cosine >= MIN_CHECK_COSINE[precision]:
                    actual = compiled.get_property("INFERENCE_PRECISION_HINT").to_string()
                    return compiled, actual if actual in MIN_CHECK_COSINE else precision
                problems.append(f"{precision}: cosine {cosine:.5f} against torch")
                if where is not None:
                    shutil.rmtree(where, ignore_errors=True)
                    continue
                break
        raise _Unusable("; ".join(problems))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        with self._run_lock:  # one set of infer requests per embedder: calls take turns
            return super().embed(texts)

    def _run_batches(
        self, session: Any, batches: list[np.ndarray], feeds: Callable[[np.ndarray], dict[str, np.ndarray]],
        out: np.ndarray,
    ) -> None:
        if self.streams == 1 or len(batches) == 1:
            if self._request is None:
                self._request = session.create_infer_request()
            for rows in batches:
                out[rows] = self._request.infer(feeds(rows))[0]
            return
        import openvino  # heavy: ~0.2 s (already loaded by _load: this names it)

        if self._queue is None:
            self._queue = openvino.AsyncInferQueue(session, self.streams)
        errors: list[BaseException] = []
        done = [0]

        def finished(request: Any, rows: np.ndarray) -> None:
            try:
                out[rows] = request.get_output_tensor(0).data  # copied: the request's buffer is reused
                done[0] += len(rows)
            except BaseException as exc:  # raised again below, in the caller's thread
                errors.append(exc)

        self._queue.set_callback(finished)
        for rows in batches:  # start_async waits for a free request, so padding overlaps inference
            self._queue.start_async(feeds(rows), rows)
        self._queue.wait_all()
        expected = sum(len(rows) for rows in batches)
        if errors or done[0] != expected:
            reason = _first_line(errors[0]) if errors else f"{done[0]} of {expected} rows came back"
            raise EmbeddingError(f"embedding.backend openvino: a batch failed ({reason})")
