"""Semantic chunks, propositions and chunk overlap on real bundled documents.

Semantic chunks use the real embedding model; propositions come from a scripted model (control
flow: whole or nothing, failures recorded and retried) and once from the real embedded engine.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from inscoqa.cli import main
from procmem.chunking import (
    chunk_units,
    recursive_split,
    semantic_chunk_units,
    semantic_cuts,
    sentence_spans,
)
from procmem.embed import Embedder
from procmem.extract.propositions import PROPOSITIONS_SCHEMA, prompt_hash
from procmem.memory import ALL_KINDS, DEFAULT_KINDS, Memory, MemoryConfig
from procmem.retrieval.index import KIND_ORDER
from procmem.units import UNIT_KINDS, Chunk, unit_from_dict, unit_to_dict
from serving.errors import LLMConnectionError
from serving.scripted import ScriptedLLM
from serving.types import Message

PRINTING = "gnome-help/printing-2sided.page"
LASAGNA = "based-cooking/lasagna.md"
RESTORE = "officedocs/Microsoft365/admin/active-directory/restore-deleted-user-accounts.md"


class HashingEmbedder(Embedder):
    """Bag-of-words vectors hashed into 64 dimensions: dense search without loading a model,
    for tests of control flow (the real model is used where the vectors matter)."""

    def __init__(self) -> None:  # no model to find or load
        self.name = "hashing-64"

    @property
    def dim(self) -> int:
        return 64

    def encode(self, texts: list[str], *, progress: bool = False) -> np.ndarray:
        out = np.zeros((len(texts), 64), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row, sum(map(ord, word)) % 64] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return out / norms

    def encode_unique(self, texts: list[str], *, progress: bool = False) -> np.ndarray:
        return self.encode(texts)


def passage_of(messages: list[Message]) -> str:
    user = messages[-1]["content"]
    return user.split("Passage:\n", 1)[1].rsplit("\n\n", 1)[0]  # up to the reply's format


def first_sentences(messages: list[Message], schema: dict[str, Any] | None) -> dict[str, Any]:
    """A model that states each sentence of the passage as a proposition (at most five)."""
    assert schema == PROPOSITIONS_SCHEMA
    passage = passage_of(messages)
    sentences = [passage[a:b] for a, b in sentence_spans(passage)]
    return {"propositions": [" ".join(s.split()) for s in sentences[:5]]}


# --------------------------------------------------------------------------- kinds


def test_the_new_kinds_are_memory_kinds() -> None:
    assert ALL_KINDS == KIND_ORDER == UNIT_KINDS
    assert {"semantic_chunk", "proposition"} <= set(ALL_KINDS)
    # built when asked for: by name, or through the configured kinds (a list, or the
    # environment's comma-separated string)
    assert not {"semantic_chunk", "proposition"} & set(DEFAULT_KINDS)
    assert Memory(embedder=HashingEmbedder()).kinds == DEFAULT_KINDS
    configured = MemoryConfig(kinds="proposition, chunk,semantic_chunk")  # type: ignore[arg-type]
    assert Memory(embedder=HashingEmbedder(), config=configured).kinds == (
        "chunk", "semantic_chunk", "proposition")
    for kind in ("semantic_chunk", "proposition"):
        unit = Chunk(text="Open Settings.", meta={"doc_id": "d", "start": 0}, kind=kind)
        again = unit_from_dict(json.loads(json.dumps(unit_to_dict(unit))))
        assert again == unit and again.id == unit.id and again.kind == kind
    with pytest.raises(ValueError, match="unknown unit kinds"):
        Memory(kinds=["sentence"], embedder=HashingEmbedder())


# --------------------------------------------------------------------------- sentences, cuts


def test_sentences_are_verbatim_spans_of_a_real_document(corpus) -> None:
    for doc_id in (PRINTING, LASAGNA, RESTORE):
        text = corpus.get(doc_id).text
        spans = sentence_spans(text)
        assert len(spans) > 5
        assert all(a < b for a, b in spans)
        assert all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:], strict=False))
        sentences = [text[a:b] for a, b in spans]
        assert all(s == s.strip() and s for s in sentences)
        # nothing but spaces lies between sentences: every word of the document is in one
        assert re.sub(r"\s+", "", "".join(sentences)) == re.sub(r"\s+", "", text)
    text = "Intro. Run it:\n\n```\nsudo apt update. sudo apt upgrade.\n```\n\n1. Open the menu. Pick one."
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "Intro.", "Run it:", "```\nsudo apt update. sudo apt upgrade.\n```", "1. Open the menu.",
        "Pick one."]


def test_cuts_fall_where_neighbours_lie_above_the_percentile() -> None:
    # four sentences on one topic, then four on another, with small variations
    a, b = np.eye(4, dtype=np.float32)[0], np.eye(4, dtype=np.float32)[1]
    noise = np.eye(4, dtype=np.float32)[2] * np.array([0.0, 0.1, 0.2, 0.1, 0.0, 0.1, 0.2, 0.1])[:, None]
    vectors = np.stack([a] * 4 + [b] * 4) + noise
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    assert semantic_cuts(vectors, 95) == [4]
    assert len(semantic_cuts(vectors, 10)) > 1
    assert semantic_cuts(vectors, 100) == []
    assert semantic_cuts(vectors[:1], 95) == []
    with pytest.raises(ValueError, match="0-100"):
        semantic_cuts(vectors, 120)


def unfenced(words: list[str]) -> list[str]:
    return [w for w in words if not w.startswith(("```", "~~~"))]


def test_chunk_overlap_repeats_the_words_before_each_chunk(corpus) -> None:
    doc = corpus.get(RESTORE)
    plain = chunk_units(doc.doc_id, doc.title, doc.text, {}, 80)
    overlapped = chunk_units(doc.doc_id, doc.title, doc.text, {}, 80, overlap=20)
    assert len(overlapped) > len(plain) > 2
    words = doc.text.split()
    # overlap 0: the chunks hold the text's words once, in order (fences that close and reopen a
    # code block cut between two chunks aside)
    assert unfenced(" ".join(c.text for c in plain).split()) == unfenced(words)
    for chunk in overlapped:
        assert len(chunk.text.split()) <= 80
        own = unfenced(chunk.text.split())
        assert own == unfenced(words[chunk.meta["start"]:])[: len(own)]
    assert overlapped[0].meta["overlap"] == 0
    assert all(c.meta["overlap"] == 20 for c in overlapped[1:])
    assert len({c.id for c in overlapped}) == len(overlapped)
    with pytest.raises(ValueError, match="overlap"):
        chunk_units(doc.doc_id, doc.title, doc.text, {}, 80, overlap=80)
    with pytest.raises(ValueError, match="chunk_overlap"):
        Memory(config=MemoryConfig(chunk_words=50, chunk_overlap=50), embedder=HashingEmbedder())


def test_a_memory_builds_overlapping_chunks(corpus) -> None:
    doc = corpus.get(RESTORE)
    memory = Memory(kinds=("chunk",), embedder=HashingEmbedder(),
                    config=MemoryConfig(chunk_words=80, chunk_overlap=20))
    memory.add_documents([doc])
    chunks = memory.units("chunk")
    assert len(chunks) > 2 and all(c.meta["overlap"] == 20 for c in chunks[1:])
    assert chunks[1].text.split()[:20] == chunks[0].text.split()[-20:]


# --------------------------------------------------------------------------- semantic chunks (real model)


@pytest.mark.slow
def test_semantic_chunks_of_real_documents_with_the_real_model(corpus, embedder, tmp_path) -> None:
    docs = [corpus.get(d) for d in (PRINTING, LASAGNA, RESTORE)]
    counts = {}
    for percentile in (95.0, 60.0):
        memory = Memory(kinds=("semantic_chunk", "document"), embedder=embedder,
                        config=MemoryConfig(semantic_percentile=percentile))
        memory.add_documents(docs)
        chunks = memory.units("semantic_chunk")
        counts[percentile] = len(chunks)
        for doc in docs:
            mine = [c for c in chunks if c.meta["doc_id"] == doc.doc_id]
            assert mine and all(c.text in doc.text for c in mine)  # verbatim spans
            assert [c.meta["order"] for c in mine] == sorted(c.meta["order"] for c in mine)
            n_sentences = len(sentence_spans(doc.text))
            assert sum(c.meta["sentences"] for c in mine) == n_sentences
        # the cuts are where the real model puts the largest distances between neighbours (the
        # sentences of all documents are encoded in one call, as the memory does: vectors
        # differ in the last digits with the batch they are encoded in)
        spans = [sentence_spans(doc.text) for doc in docs]
        vectors = embedder.encode_unique([doc.text[a:b] for doc, s in zip(docs, spans, strict=True)
                                          for a, b in s])
        row = 0
        for doc, doc_spans in zip(docs, spans, strict=True):
            mine = vectors[row:row + len(doc_spans)]
            row += len(doc_spans)
            expected = semantic_chunk_units(doc.doc_id, doc.title, doc.text, {}, doc_spans, mine,
                                            percentile)
            assert [c.text for c in chunks if c.meta["doc_id"] == doc.doc_id] == [c.text for c in expected]
            distances = 1.0 - np.einsum("ij,ij->i", mine[:-1], mine[1:])
            starts = np.cumsum([c.meta["sentences"] for c in expected])[:-1]
            cut = np.zeros(len(distances), dtype=bool)
            cut[starts - 1] = True
            if cut.any():
                assert distances[cut].min() > distances[~cut].max()
    assert counts[60.0] > counts[95.0] >= len(docs)
    # unchanged documents: no sentence is embedded again
    encoded: list[str] = []
    real = memory.embedder

    class Counting(HashingEmbedder):
        def encode_unique(self, texts: list[str], *, progress: bool = False) -> np.ndarray:
            encoded.extend(texts)
            return real.encode_unique(texts)

    memory._embedder = Counting()
    assert memory.add_documents(docs).unchanged == [d.doc_id for d in docs] and encoded == []
    memory._embedder = real
    # searchable like every kind, by each method, and the same after a save and load
    query = "print on both sides of the paper"
    for method in ("bm25", "dense", "hybrid"):
        hits = memory.search(query, k=3, kind="semantic_chunk", method=method)
        assert hits and all(h.unit.kind == "semantic_chunk" for h in hits)
        assert hits[0].doc_id == PRINTING
    loaded = Memory.load(memory.save(tmp_path / "mem"))
    assert [u.id for u in loaded.units("semantic_chunk")] == [u.id for u in memory.units("semantic_chunk")]
    assert ([h.unit.id for h in loaded.search(query, kind="semantic_chunk")]
            == [h.unit.id for h in memory.search(query, kind="semantic_chunk")])
    assert loaded.manifest["config"]["semantic_percentile"] == 60.0
    assert loaded.stats() == memory.stats()


# --------------------------------------------------------------------------- propositions (scripted)


def proposition_memory(**config: Any) -> Memory:
    return Memory(kinds=("chunk", "proposition"), embedder=HashingEmbedder(),
                  config=MemoryConfig(llm_workers=1, **config))


def test_propositions_are_stored_searchable_and_saved(corpus, tmp_path: Path) -> None:
    docs = [corpus.get(PRINTING), corpus.get(LASAGNA)]
    llm = ScriptedLLM(first_sentences)
    memory = proposition_memory()
    report = memory.add_documents(docs, llm=llm, mode="never")
    assert report.failures == [] and report.llm_extracted == []  # the model wrote propositions only
    assert llm.calls and all(c.schema == PROPOSITIONS_SCHEMA for c in llm.calls)
    props = memory.units("proposition")
    assert {p.meta["doc_id"] for p in props} == {PRINTING, LASAGNA}
    for prop in props:
        assert prop.kind == "proposition" and prop.meta["prompt"] == prompt_hash()
        assert prop.meta["extraction"] == "llm" and prop.meta["content_hash"]
    assert len({p.id for p in props}) == len(props)
    for method in ("bm25", "dense", "hybrid"):
        hits = memory.search("lasagna noodles sauce", k=3, kind="proposition", method=method)
        assert hits and all(h.unit.kind == "proposition" for h in hits)
    assert memory.search("lasagna noodles sauce", k=1, kind="proposition", method="bm25")[0].doc_id == LASAGNA
    memory.save(tmp_path / "mem")
    loaded = Memory.load(tmp_path / "mem", embedder=HashingEmbedder())
    assert [u.id for u in loaded.units("proposition")] == [u.id for u in props]
    assert loaded.manifest["prompts"]["extract/propositions"] == prompt_hash()
    assert loaded.manifest["counts"]["proposition"] == len(props)
    assert loaded.stats() == memory.stats()
    assert loaded.stats()["avg_tokens_per_unit"]["proposition"] > 0


def test_a_garbled_reply_is_a_failure_and_the_next_build_retries_it(corpus, tmp_path: Path) -> None:
    docs = [corpus.get(PRINTING), corpus.get(RESTORE)]
    garble = {"on": True}

    def model(messages: list[Message], schema: dict[str, Any] | None) -> Any:
        if garble["on"] and "restore" in passage_of(messages).lower():
            return '{"propositions": ["Restore a user'  # cut off: not JSON
        return first_sentences(messages, schema)

    llm = ScriptedLLM(model)
    memory = proposition_memory(proposition_words=60)  # several passages per document
    report = memory.add_documents(docs, llm=llm, mode="never")
    [failure] = report.failures
    assert (failure.doc_id, failure.stage) == (RESTORE, "propositions")
    assert failure.error.startswith("LLMSchemaError")
    # nothing half-made: no proposition of the failed document, its other units kept
    assert {p.meta["doc_id"] for p in memory.units("proposition")} == {PRINTING}
    assert any(c.meta["doc_id"] == RESTORE for c in memory.units("chunk"))
    assert memory.failures == report.failures
    memory.save(tmp_path / "mem")

    loaded = Memory.load(tmp_path / "mem", embedder=HashingEmbedder())
    assert [f.doc_id for f in loaded.failures] == [RESTORE]
    garble["on"] = False
    calls = len(llm.calls)
    again = loaded.add_documents(docs, llm=llm, mode="never")
    assert again.updated == [RESTORE] and again.unchanged == [PRINTING]  # only the failed one
    assert again.failures == [] and loaded.failures == []
    # the model is asked about the failed document's passages alone
    assert len(llm.calls) - calls == len(recursive_split(corpus.get(RESTORE).text,
                                                         loaded.config.proposition_words))
    assert {p.meta["doc_id"] for p in loaded.units("proposition")} == {PRINTING, RESTORE}
    assert loaded.add_documents(docs, llm=llm, mode="never").updated == []  # nothing left to retry


def test_an_engine_error_or_no_model_is_recorded_per_document(corpus) -> None:
    doc = corpus.get(PRINTING)
    memory = proposition_memory()
    down = memory.add_documents([doc], llm=ScriptedLLM([LLMConnectionError("connection refused")]),
                                mode="never")
    assert [f.error.split(":")[0] for f in down.failures] == ["LLMConnectionError"]
    assert memory.units("proposition") == [] and memory.units("chunk")
    none = memory.add_documents([doc], mode="never")  # retried, but no model is given
    assert none.updated == [PRINTING]
    assert [(f.stage, f.error) for f in none.failures] == [
        ("propositions", "no chat model given: propositions are written by one")]
    assert memory.units("proposition") == []


# --------------------------------------------------------------------------- command line, stats


@pytest.mark.slow
def test_cli_builds_the_new_kinds_and_shows_tokens_per_unit(clean_env: Path, corpus,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from serving.fake_server import FakeLLMServer

    folder = clean_env / "docs"
    folder.mkdir()
    for doc_id in (PRINTING, LASAGNA):
        source = corpus.path(doc_id)
        (folder / source.name).write_bytes(source.read_bytes())
    out = clean_env / "mem"
    def propositions(body: dict[str, Any]) -> str:
        return json.dumps(first_sentences(body["messages"], PROPOSITIONS_SCHEMA))

    with FakeLLMServer(default=propositions) as server:
        monkeypatch.setenv("INSCOQA_ENGINE", "external")
        monkeypatch.setenv("INSCOQA_MODEL", "fake")
        monkeypatch.setenv("INSCOQA_BASE_URL", server.base_url)
        assert main(["memory", "build", "--path", str(folder), "--out", str(out), "--kinds",
                     "chunk", "semantic_chunk", "proposition", "--chunk-overlap", "10",
                     "--semantic-percentile", "80", "--json"]) == 0
        built = json.loads(capsys.readouterr().out)
        assert server.request_count >= 2  # propositions only: extraction stays with the rules
    assert built["report"]["failures"] == [] and built["report"]["llm_extracted"] == []
    assert set(built["stats"]["units"]) == {"chunk", "semantic_chunk", "proposition"}
    assert all(n > 0 for n in built["stats"]["units"].values())
    assert main(["memory", "stats", "--memory", str(out), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert set(stats["avg_tokens_per_unit"]) == {"chunk", "semantic_chunk", "proposition"}
    assert all(v > 0 for v in stats["avg_tokens_per_unit"].values())
    assert stats["token_count"].startswith("word and punctuation tokens")
    memory = Memory.load(out)
    assert memory.manifest["config"]["chunk_overlap"] == 10
    assert memory.units("chunk")[1].meta["overlap"] == 10
    assert main(["memory", "stats", "--memory", str(out)]) == 0
    text = capsys.readouterr().out
    assert "mean tokens per retrieval unit (word and punctuation tokens" in text
    assert re.search(r"semantic_chunk \d+\.\d", text) and re.search(r"proposition \d+\.\d", text)
    for kind in ("semantic_chunk", "proposition"):
        assert main(["memory", "search", "--memory", str(out), "two-sided printing", "--kind", kind,
                     "--json"]) == 0
        hits = json.loads(capsys.readouterr().out)
        assert hits and {h["kind"] for h in hits} == {kind}


# --------------------------------------------------------------------------- the real engine


@pytest.mark.slow
def test_real_engine_propositions_are_whole_or_a_recorded_failure(embedded_llm, corpus, embedder) -> None:
    doc = corpus.get(PRINTING)
    memory = Memory(kinds=("chunk", "proposition"), embedder=embedder,
                    config=MemoryConfig(llm_max_tokens=320, llm_workers=1, proposition_words=120))
    report = memory.add_documents([doc], llm=embedded_llm, mode="never")
    assert report.added == [PRINTING] and memory.units("chunk")
    props = memory.units("proposition")
    if report.failures:
        [failure] = report.failures
        assert failure.doc_id == PRINTING and failure.stage == "propositions" and failure.error
        assert props == []  # nothing half-made
        assert PRINTING in memory._retry_ids()
    else:
        assert props and all(p.text.strip() and p.meta["doc_id"] == PRINTING for p in props)
        assert len(recursive_split(doc.text, 120)) <= len(props)  # every passage gave some
        assert memory.search("two-sided", k=2, kind="proposition")
