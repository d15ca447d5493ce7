"""Vectors pooled from other units' vectors: chunks from their logic units, documents from chunks."""

from __future__ import annotations

import numpy as np
import pytest
from support.embedders import CountingEmbedder

from procmem.memory import Memory, MemoryConfig
from procmem.retrieval.bm25 import tokenize
from procmem.retrieval.pooling import MIN_CHUNK_SHARE, chunk_weights, plan_vectors, pooled_vector
from procmem.units import Chunk, LogicUnit


def _lu(doc: str, header: str, body: str) -> LogicUnit:
    return LogicUnit(type="Step", prerequisite="", header=header, body=body, meta={"doc_id": doc})


def _chunk(doc: str, text: str, kind: str = "chunk") -> Chunk:
    return Chunk(text=text, meta={"doc_id": doc}, kind=kind)


def _terms(unit) -> list[str]:
    return tokenize(unit.render())


def test_a_chunk_leans_on_the_sections_that_hold_its_words():
    weights = chunk_weights({"a", "b", "c", "d"}, [{"a", "b", "c"}, {"d", "x"}, {"y"}])
    assert np.allclose(weights, [0.75**2, 0.25**2, 0.0])
    # no section holds enough of the chunk: it is encoded instead
    assert chunk_weights({"a", "b", "c", "d", "e", "f"}, [{"a"}, {"x"}]) is None
    assert MIN_CHUNK_SHARE > 1 / 6
    assert chunk_weights(set(), [{"a"}]) is None and chunk_weights({"a"}, []) is None


def test_the_plan_encodes_logic_units_and_pools_chunks_and_documents():
    bake = _lu("d1", "Bake the lasagna", "Bake the lasagna for forty minutes at 180 degrees.")
    layer = _lu("d1", "Layer the pasta", "Layer pasta sheets, sauce and cheese in the dish.")
    covered = _chunk("d1", "Layer pasta sheets, sauce and cheese. Bake the lasagna for forty minutes.")
    stray = _chunk("d1", "Serve with a green salad and crusty bread on the side tonight.")
    document = _chunk("d1", "# Lasagna\n\n...", kind="document")
    plain = _chunk("d2", "A page without sections about printing on both sides.")
    active = [bake, layer, covered, stray, plain, document]
    encode, pooled = plan_vectors(active, active, _terms, lambda _: False)
    assert {u.id for u in encode} == {bake.id, layer.id, stray.id, plain.id}
    assert [p.unit.id for p in pooled] == [covered.id, document.id]  # chunks before documents
    chunk, doc = pooled
    assert set(chunk.sources) == {bake.id, layer.id} and np.all(chunk.weights > 0)
    assert doc.sources == [covered.id, stray.id] and np.allclose(doc.weights, 1.0)
    # off: every chunk is encoded
    encode, pooled = plan_vectors(active, active, _terms, lambda _: False, pool_chunks=False)
    assert {u.id for u in encode} == {bake.id, layer.id, covered.id, stray.id, plain.id}
    assert [p.unit.id for p in pooled] == [document.id]
    # asked for a chunk alone (a kind's first dense search), its sections come with it
    encode, pooled = plan_vectors([covered], active, _terms, lambda i: i == bake.id)
    assert [u.id for u in encode] == [layer.id] and [p.unit.id for p in pooled] == [covered.id]


def test_chunks_that_would_pool_to_one_vector_are_encoded():
    section = _lu("d1", "Knead the dough", "Knead the dough for ten minutes until it is smooth and elastic.")
    first = _chunk("d1", "Knead the dough for ten minutes.")
    second = _chunk("d1", "Until smooth and elastic, knead.")
    active = [section, first, second]
    encode, pooled = plan_vectors(active, active, _terms, lambda _: False)
    assert {u.id for u in encode} == {section.id, first.id, second.id} and not pooled


def test_a_pooled_vector_is_a_unit_weighted_mean():
    vectors = np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32)
    row = pooled_vector(np.array([3.0, 1.0]), vectors)
    assert row.shape == (1, 2) and row.dtype == np.float32
    assert np.isclose(np.linalg.norm(row), 1.0) and row[0, 0] == pytest.approx(3 / np.sqrt(10))


@pytest.mark.slow
def test_a_real_memory_encodes_half_as_much_and_its_chunks_still_find_their_passages(test_documents, embedder):
    """The real model on real documents: chunks pooled from their logic units cost half the
    encoding, lie close to their encoded vectors and still lead searches to their documents."""

    def build(chunk_vectors: str) -> tuple[Memory, CountingEmbedder]:
        memory = Memory(embedder=embedder, config=MemoryConfig(chunk_vectors=chunk_vectors))
        counter = CountingEmbedder(embedder)
        memory._embedder = counter
        memory.add_documents(test_documents)
        return memory, counter

    pooled, pooled_count = build("pooled")
    encoded, encoded_count = build("encoded")
    chunks = [u.id for u in encoded.units("chunk")]
    assert len(pooled_count.texts) <= len(encoded_count.texts) - 0.5 * len(chunks)
    cosine = np.einsum("ij,ij->i", pooled._vectors.gather(chunks), encoded._vectors.gather(chunks))
    assert np.median(cosine) > 0.85 and cosine.min() > 0.3, (np.median(cosine), cosine.min())
    def found(memory: Memory, method: str) -> tuple[int, int]:
        hits = docs = 0
        for chunk in encoded.units("chunk"):
            question = " ".join(chunk.text.split()[:12])
            top = memory.search(question, kind="chunk", method=method, k=3)
            hits += chunk.id in {h.unit.id for h in top}
            docs += chunk.meta["doc_id"] in {h.doc_id for h in top}
        return hits, docs

    # asked for its opening words, a chunk's document comes in the first three chunks found by
    # the default (hybrid) search nearly as often as with encoded chunks (here 78 vs 83 of 86;
    # the chunk itself 68 vs 78: a pooled vector blurs the exact passage)
    pooled_chunks, pooled_docs = found(pooled, "hybrid")
    encoded_chunks, encoded_docs = found(encoded, "hybrid")
    assert pooled_docs >= 0.9 * encoded_docs and pooled_docs >= 0.8 * len(chunks)
    assert pooled_chunks >= 0.75 * encoded_chunks


@pytest.mark.slow
def test_a_saved_memory_keeps_the_rule_it_was_built_with(corpus, embedder, tmp_path, monkeypatch):
    docs = [corpus.get("gnome-help/printing-2sided.page"), corpus.get("based-cooking/lasagna.md")]
    memory = Memory(embedder=embedder, config=MemoryConfig(chunk_vectors="pooled"))
    memory.add_documents(docs)
    path = memory.save(tmp_path / "mem")
    monkeypatch.setenv("INSCOQA_MEMORY_CHUNK_VECTORS", "encoded")
    loaded = Memory.load(path)
    assert loaded.config.chunk_vectors == "pooled"  # documents added later are pooled alike
    assert Memory(embedder=embedder).config.chunk_vectors == "encoded"  # a new one follows the setting
