"""The ONNX copy of a sentence-transformers model: exported once from the local weights, then reused.

One float32 graph (transformer, mean pooling, normalisation) per source model and installation in the
models cache (:func:`model_cache_root`, :func:`prepared_folder`). The export, the only step that
imports torch and transformers, runs under a lock into a temporary folder, is checked against the
torch model and renamed into place, so a reader sees a whole prepared model or none; a folder whose
manifest is missing or disagrees with its files is rebuilt with a notice. Float32 and the plain export
because int8 lost recall and ONNX Runtime's fusions bought nothing (tests/bench/README.md,
``bench_embed_int8.py``, ``bench_embed.py``). Nothing is downloaded.
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import json
import os
import shutil
import tempfile
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from core.embed.protocol import EmbeddingError
from core.embed.sentence_transformers_backend import _QUIET_OFFLINE_ENV, folder_fingerprint
from core.fsutil import ensure_private_dir, file_lock
from core.paths import resolve_cache_root

Notice = Callable[[str], None]

FORMAT = 2  # bump when the graph's inputs, outputs or pooling change: older folders are rebuilt
# (2: the manifest keeps the torch vectors of the check sentences, so a runtime that computes in
# another precision, OpenVINO's bf16, is checked against torch whenever it compiles the graph)
MODEL_FILE = "model.onnx"
MANIFEST_FILE = "manifest.json"
PREPARING = "preparing the embedding model (once)…"
# The export checks its graph against the torch model on these (padded into one batch).
_CHECK_SENTENCES = (
    "I went hiking in the mountains last weekend with my sister.",
    "서울숲에서 산책했어요.",
    "The quarterly report is due on Friday; can you review the numbers?",
    "ok",
)
_MIN_CHECK_COSINE = 0.9999


def model_cache_root() -> Path:
    """Where prepared models live: ``$REVERIE_MODEL_CACHE``, else ``<cache root>/models``."""
    override = os.environ.get("REVERIE_MODEL_CACHE")
    if override:
        return Path(override).expanduser().absolute()
    return resolve_cache_root() / "models"


@dataclass(frozen=True)
class SourceModel:
    """A local sentence-transformers folder whose transformer, mean pooling and normalisation the
    ONNX graph reproduces."""

    folder: Path
    label: str  # the model's setting, for messages
    max_seq_length: int
    # For weights that are not a transformers folder (core.embed.e5_source): what builds the torch
    # model and the tokenizer, instead of reading them from ``folder``.
    load_model: Callable[[], Any] | None = field(default=None, compare=False, repr=False)
    open_tokenizer: Callable[[], Any] | None = field(default=None, compare=False, repr=False)

    @property
    def tokenizer_file(self) -> Path:
        return self.folder / "tokenizer.json"

    def tokenizer(self) -> Any:
        """The model's tokenizer, without padding, truncating at its maximum length."""
        if self.open_tokenizer is not None:
            return self.open_tokenizer()
        from tokenizers import Tokenizer  # heavy: loads with the model, not with core.embed

        tokenizer = Tokenizer.from_file(str(self.tokenizer_file))
        tokenizer.no_padding()
        tokenizer.enable_truncation(self.max_seq_length)
        return tokenizer


def inspect_source(folder: Path, label: str) -> SourceModel:
    """Check that ``folder`` is a model this backend reproduces exactly; :class:`EmbeddingError` if not."""
    other = "use embedding.backend = \"sentence-transformers\" for it"

    def read_json(name: str) -> Any:
        path = folder / name
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise EmbeddingError(f"embedding.model {label!r}: cannot read {path} ({exc})") from exc

    if not (folder / "tokenizer.json").is_file():
        raise EmbeddingError(f"embedding.model {label!r}: {folder} has no tokenizer.json; {other}")
    modules = read_json("modules.json") if (folder / "modules.json").is_file() else []
    kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in modules if isinstance(m, dict)]
    if kinds[:2] != ["Transformer", "Pooling"] or any(k != "Normalize" for k in kinds[2:]):
        raise EmbeddingError(
            f"embedding.model {label!r}: modules {kinds or 'missing'} are not transformer + pooling "
            f"(+ normalize); {other}"
        )
    pooling_path = next(
        (m.get("path", "") for m in modules if str(m.get("type", "")).endswith(".Pooling")), "1_Pooling"
    )
    pooling = read_json(f"{pooling_path}/config.json")
    modes = {k for k, v in pooling.items() if k.startswith("pooling_mode") and v is True}
    if modes != {"pooling_mode_mean_tokens"}:
        raise EmbeddingError(f"embedding.model {label!r}: pooling {sorted(modes)} is not mean pooling; {other}")
    settings = read_json("sentence_bert_config.json") if (folder / "sentence_bert_config.json").is_file() else {}
    max_len = settings.get("max_seq_length") or 512
    if not isinstance(max_len, int) or max_len < 1:
        raise EmbeddingError(f"embedding.model {label!r}: sentence_bert_config.json max_seq_length {max_len!r}")
    return SourceModel(folder, label, max_len)


@dataclass(frozen=True)
class Prepared:
    """A usable prepared model. ``check``: the torch model's vectors of :data:`_CHECK_SENTENCES`
    (one row each), what a runtime's output on :func:`check_batch` must match."""

    folder: Path
    dim: int
    check: tuple[tuple[float, ...], ...] = field(default=(), compare=False, repr=False)

    @property
    def model_file(self) -> Path:
        return self.folder / MODEL_FILE


# The packages whose versions shape what is in a prepared folder: the exporter's (the graph) and the
# runtimes' (ONNX Runtime's optimized copy, OpenVINO's compiled cache).
BUILDERS = ("torch", "transformers", "onnx", "onnxruntime", "openvino")


def builder_versions() -> dict[str, str]:
    """The installed version of each of :data:`BUILDERS` (``"absent"`` when not installed)."""
    found = {}
    for name in BUILDERS:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "absent"
    return found


def prepared_folder(source: SourceModel, root: Path) -> Path:
    """The folder of ``source``'s prepared model under ``root``, keyed by what built it: the source's
    place and fingerprint, :data:`FORMAT` and :func:`builder_versions`. The models cache is shared by
    every installation on the machine; each keeps its own folder there, so two used in turn never
    rebuild each other's copy."""
    slug = "".join(c if c.isalnum() or c in "-_." else "_" for c in Path(source.label).name)[:60] or "model"
    key = json.dumps([_expected(source), builder_versions()], sort_keys=True)
    return root / f"{slug}-{hashlib.sha256(key.encode()).hexdigest()[:16]}"


def _expected(source: SourceModel) -> dict[str, object]:
    return {
        "format": FORMAT,
        "source": str(source.folder),
        "fingerprint": folder_fingerprint(source.folder),
        "max_seq_length": source.max_seq_length,
    }


def check_prepared(folder: Path, source: SourceModel) -> tuple[Prepared | None, str]:
    """The prepared model in ``folder`` if whole and made from ``source``; else ``None`` and why."""
    if not folder.exists():
        return None, "absent"
    try:
        manifest = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, f"{folder / MANIFEST_FILE} is missing"
    except (OSError, ValueError) as exc:
        return None, f"{folder / MANIFEST_FILE} is unreadable ({exc})"
    if not isinstance(manifest, dict):
        return None, f"{folder / MANIFEST_FILE} is not an object"
    for key, value in _expected(source).items():
        if manifest.get(key) != value:
            return None, f"{folder / MANIFEST_FILE}: {key} is {manifest.get(key)!r}, expected {value!r}"
    try:
        size = (folder / MODEL_FILE).stat().st_size
    except OSError:
        return None, f"{folder / MODEL_FILE} is missing"
    if size != manifest.get("size"):
        return None, f"{folder / MODEL_FILE} holds {size} bytes, the manifest says {manifest.get('size')}"
    dim = manifest.get("dim")
    if not isinstance(dim, int) or dim < 1:
        return None, f"{folder / MANIFEST_FILE}: dim {dim!r}"
    check = manifest.get("check")
    if (
        not isinstance(check, list)
        or len(check) != len(_CHECK_SENTENCES)
        or not all(isinstance(row, list) and len(row) == dim for row in check)
        or not all(isinstance(x, float) for row in check for x in row)
    ):
        return None, f"{folder / MANIFEST_FILE}: check is not {len(_CHECK_SENTENCES)} vectors of {dim} numbers"
    return Prepared(folder, dim, tuple(tuple(row) for row in check)), ""


def check_batch(tokenizer: Any) -> tuple[Any, Any]:
    """``(input_ids, attention_mask)`` of the check sentences padded into one batch, as int64 arrays
    (``tokenizer``: the model's, without padding, truncating at its maximum length)."""
    import numpy as np  # heavy: numpy, ~50 ms; `import core.embed` loads none

    encoded = [tokenizer.encode(s) for s in _CHECK_SENTENCES]
    width = max(len(e.ids) for e in encoded)
    ids = np.zeros((len(encoded), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    for row, enc in enumerate(encoded):
        ids[row, : len(enc.ids)] = enc.ids
        mask[row, : len(enc.ids)] = 1
    return ids, mask


def check_cosine(prepared: Prepared, got: Any) -> float:
    """The lowest cosine between ``got`` (a runtime's rows for :func:`check_batch`) and the torch
    vectors the export recorded; ``-1.0`` when the shapes differ."""
    import numpy as np  # heavy: numpy, ~50 ms; `import core.embed` loads none

    want = np.asarray(prepared.check, dtype=np.float32)
    rows = np.asarray(got, dtype=np.float32)
    if rows.shape != want.shape:
        return -1.0
    norms = np.linalg.norm(rows, axis=1) * np.linalg.norm(want, axis=1)
    return float(((rows * want).sum(axis=1) / np.maximum(norms, 1e-12)).min())


def optimized_file(prepared: Prepared, ort_version: str) -> Path:
    """Where ONNX Runtime's optimized copy of the graph is kept for ``ort_version``."""
    return prepared.folder / f"optimized-{ort_version}.onnx"


def write_optimized(prepared: Prepared, onnxruntime: Any) -> Path:
    """Save the graph with ONNX Runtime's optimizations applied, so later loads skip them (about a
    third of a session's start). The file suits this ONNX Runtime version and its CPU provider
    only, hence the version in its name; copies for other versions are removed. Written to a
    temporary name and renamed, like everything here."""
    target = optimized_file(prepared, onnxruntime.__version__)
    fd, tmp_name = tempfile.mkstemp(prefix=".optimized.", suffix=".onnx", dir=prepared.folder)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        options = onnxruntime.SessionOptions()
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        options.optimized_model_filepath = str(tmp)
        options.log_severity_level = 3
        onnxruntime.InferenceSession(str(prepared.model_file), options, providers=["CPUExecutionProvider"])
        with tmp.open("rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    for old in prepared.folder.glob("optimized-*.onnx"):
        if old != target:
            old.unlink(missing_ok=True)
    return target

# torch's ONNX exporter and transformers' lazy imports are not safe in two threads at once
# ("cannot import name 'AutoModel'" when the default's two models were prepared together)
_EXPORTING = threading.Lock()


def prepare(source: SourceModel, root: Path, *, notice: Notice | None = None, rebuild_reason: str = "") -> Prepared:
    """The prepared model for ``source``, exporting it first if it is absent or damaged.

    ``rebuild_reason``: the caller found the folder unusable although its manifest looked whole
    (ONNX Runtime refused the file); it is rebuilt whatever the manifest says.
    """
    folder = prepared_folder(source, root)
    if not rebuild_reason:
        found, _ = check_prepared(folder, source)
        if found is not None:
            return found
    ensure_private_dir(root)
    # an ensemble's parts load in threads: one export at a time in a process, then in the machine
    with _EXPORTING, file_lock(root / f".{folder.name}.lock"):
        found, why = check_prepared(folder, source)
        if found is not None and not rebuild_reason:
            return found  # another thread or process prepared it while this one waited
        if not rebuild_reason and why.endswith(f"expected {FORMAT!r}") and ": format is " in why:
            _say(notice, "the prepared embedding model is from an older Reverie; rebuilding it")
        elif rebuild_reason or why != "absent":
            _say(notice, f"the prepared embedding model is damaged ({rebuild_reason or why}); rebuilding it")
        _say(notice, PREPARING)
        return _export(source, folder)


def _say(notice: Notice | None, message: str) -> None:
    if notice is not None:
        notice(message)


def _export(source: SourceModel, folder: Path) -> Prepared:
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".tmp", dir=folder.parent))
    try:
        dim, check = _export_into(source, tmp)
        model_file = tmp / MODEL_FILE
        manifest = {**_expected(source), "size": model_file.stat().st_size, "dim": dim, "check": check}
        with (tmp / MANIFEST_FILE).open("w", encoding="utf-8") as handle:
            json.dump(manifest, handle, indent=1)
            handle.flush()
            os.fsync(handle.fileno())
        with model_file.open("rb") as handle:
            os.fsync(handle.fileno())
        if folder.exists():  # a damaged copy: move it aside first (a folder cannot be replaced in one rename)
            trash = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".old", dir=folder.parent))
            os.replace(folder, trash / "old")
            shutil.rmtree(trash, ignore_errors=True)
        os.replace(tmp, folder)
        dir_fd = os.open(folder.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    found, why = check_prepared(folder, source)
    if found is None:  # pragma: no cover - only if the folder is changed under our feet
        raise EmbeddingError(f"embedding.model {source.label!r}: the prepared model is not usable: {why}")
    return found


def _export_into(source: SourceModel, out: Path) -> tuple[int, list[list[float]]]:
    """Write ``out/model.onnx`` from the torch weights and check it; return the output dimension
    and the torch vectors of the check sentences."""
    for name, value in _QUIET_OFFLINE_ENV.items():
        os.environ.setdefault(name, value)
    try:
        import numpy as np  # heavy: numpy, ~50 ms; `import core.embed` loads none
        import onnxruntime  # heavy: ~80 ms; the one-off export only
        import torch  # heavy: torch, ~1.5 s; the one-off export only
        from transformers import AutoModel  # heavy: the one-off export only
    except ImportError as exc:
        raise EmbeddingError(f"embedding.backend onnx: {exc.name} is not installed") from exc

    label = source.label
    try:
        model = (source.load_model() if source.load_model is not None else
                 AutoModel.from_pretrained(str(source.folder), local_files_only=True, attn_implementation="eager"))
    except EmbeddingError:
        raise
    except Exception as exc:  # the library raises many kinds; all mean "cannot load this"
        raise EmbeddingError(f"embedding.model {label!r}: cannot load its weights ({_first_line(exc)})") from exc
    model.eval()
    takes_types = "token_type_ids" in inspect.signature(model.forward).parameters

    class Pooled(torch.nn.Module):
        """The sentence-transformers pipeline: transformer, mean over real tokens, unit length."""

        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, *rest: Any) -> Any:
            kwargs = {"token_type_ids": rest[0]} if rest else {}
            hidden = self.inner(input_ids=input_ids, attention_mask=attention_mask, **kwargs).last_hidden_state
            weights = attention_mask.unsqueeze(-1).to(hidden.dtype)
            summed = (hidden * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1e-9)
            return torch.nn.functional.normalize(summed, p=2.0, dim=1)

    ids_np, mask_np = check_batch(source.tokenizer())
    with torch.no_grad():  # before the export: run after tracing, the module gave other vectors here
        args = [torch.from_numpy(ids_np), torch.from_numpy(mask_np)]
        if takes_types:
            args.append(torch.zeros_like(args[0]))
        expected = Pooled(model)(*args).numpy()
    names = ["input_ids", "attention_mask"] + (["token_type_ids"] if takes_types else [])
    # A padded example, so nothing that depends on "no padding" is traced into the graph.
    ids = torch.tensor([[101, 2023, 2003, 1037, 3231, 102], [101, 7592, 102, 0, 0, 0]], dtype=torch.long)
    mask = (ids != 0).to(torch.long)
    example = (ids, mask, torch.zeros_like(ids)) if takes_types else (ids, mask)
    axes = {name: {0: "batch", 1: "tokens"} for name in names} | {"embedding": {0: "batch"}}
    try:
        with warnings.catch_warnings(), torch.no_grad(), contextlib.redirect_stdout(None):
            warnings.simplefilter("ignore")
            torch.onnx.export(
                Pooled(model), example, str(out / MODEL_FILE), input_names=names, output_names=["embedding"],
                dynamic_axes=axes, opset_version=17, dynamo=False,
            )
    except Exception as exc:  # the exporter raises many kinds; all mean "cannot convert"
        raise EmbeddingError(
            f"embedding.model {label!r}: cannot convert it to ONNX ({_first_line(exc)}); "
            "use embedding.backend = \"sentence-transformers\""
        ) from exc

    session = onnxruntime.InferenceSession(str(out / MODEL_FILE), providers=["CPUExecutionProvider"])
    feeds = {"input_ids": ids_np, "attention_mask": mask_np}
    if takes_types:
        feeds["token_type_ids"] = np.zeros_like(ids_np)
    got = session.run(None, feeds)[0]
    cosines = (got * expected).sum(axis=1)
    if float(cosines.min()) < _MIN_CHECK_COSINE:
        raise EmbeddingError(
            f"embedding.model {label!r}: the ONNX graph disagrees with the torch model "
            f"(cosine {float(cosines.min()):.4f}); use embedding.backend = \"sentence-transformers\""
        )
    return int(got.shape[1]), [[float(x) for x in row] for row in expected.astype(np.float64)]


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
