"""A memory's index in Qdrant (the client's local mode): the same units found as by the built-in
index, filters, removal by document, and retrieval parity on bundled conversations."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("qdrant_client")

from support.identifier_pages import pages as identifier_pages  # noqa: E402
from support.reference_pages import reference_pages  # noqa: E402
from support.translated_pages import translated_pages  # noqa: E402

from procmem.memory import build_memory  # noqa: E402
from procmem.retrieval.bm25 import K1, BM25Index, tokenize  # noqa: E402
from procmem.stores import open_backend  # noqa: E402
from procmem.stores.qdrant import (  # noqa: E402
    QdrantMemory,
    QdrantStore,
    bm25_document,
    bm25_query,
    collection_name,
    point_id,
    term_id,
)


@pytest.fixture(scope="module")
def qdrant_memory(built_memory: Any) -> Iterator[QdrantMemory]:
    store = QdrantStore.open("qdrant-local::memory:", "test-memory")
    assert store.sync(built_memory)["added"] == len(built_memory)
    yield QdrantMemory(built_memory, store)
    store.close()


def reference_recall(memory: Any, conversations: list[Any], k: int = 5) -> float:
    """Mean share of each conversation's reference documents among the documents of the top
    ``k`` units for its history-aware query."""
    shares = []
    for conv in conversations:
        hits = memory.search_conversation(conv.history, conv.question, k=k)
        found = {d for h in hits for d in (h.unit.meta.get("doc_ids") or [h.doc_id])}
        wanted = {d.doc_id for d in conv.documents}
        shares.append(len(wanted & found) / len(wanted))
    return sum(shares) / len(shares)


def test_reference_recall_matches_the_built_in_index(built_memory: Any,
                                                     qdrant_memory: QdrantMemory,
                                                     conversations: list[Any]) -> None:
    built_in = reference_recall(built_memory, conversations)
    qdrant = reference_recall(qdrant_memory, conversations)
    assert built_in > 0.5  # the test memory answers its conversations at all
    assert qdrant == pytest.approx(built_in), (built_in, qdrant)


def test_hybrid_search_fuses_as_the_built_in_index(built_memory: Any, qdrant_memory: QdrantMemory,
                                                   conversations: list[Any]) -> None:
    # unequal side weights (the default dense weight is not 0.5), where Qdrant's own weighted
    # RRF would order otherwise
    assert built_memory.config.dense_weight != 0.5
    for conv in conversations:
        ours = built_memory.search_conversation(conv.history, conv.question, k=10)
        theirs = qdrant_memory.search_conversation(conv.history, conv.question, k=10)
        assert [h.unit.id for h in theirs] == [h.unit.id for h in ours], conv.id
        assert [h.score for h in theirs] == pytest.approx([h.score for h in ours], rel=1e-5)


def test_single_sides_find_the_same_units(built_memory: Any, qdrant_memory: QdrantMemory,
                                          conversations: list[Any]) -> None:
    for conv in conversations:
        for method in ("dense", "bm25"):
            ours = [h.unit.id for h in built_memory.search(conv.question, k=5, method=method)]
            theirs = [h.unit.id for h in qdrant_memory.search(conv.question, k=5, method=method)]
            # the same set (ties between equal scores may order differently)
            assert set(ours) == set(theirs), (conv.id, method)


def test_filters_by_kind_type_and_document(built_memory: Any,
                                           qdrant_memory: QdrantMemory) -> None:
    query = "print on both sides of the paper"
    for kind in built_memory.kinds:
        hits = qdrant_memory.search(query, k=5, kind=kind)
        assert hits and all(h.unit.kind == kind for h in hits), kind
    steps = qdrant_memory.search(query, k=5, types=["Step"])
    assert steps and all(getattr(h.unit, "type", None) == "Step" for h in steps)
    doc = "gnome-help/printing-2sided.page"
    hits = qdrant_memory.search(query, k=5, doc_ids=[doc])
    assert hits and all(doc in (h.unit.meta.get("doc_ids") or [h.doc_id]) for h in hits)
    ranked = qdrant_memory.search_documents(query, k=3)
    assert ranked[0].doc_id == built_memory.search_documents(query, k=3)[0].doc_id


def test_remove_and_resync_by_document(built_memory: Any, tmp_path: Path) -> None:
    store = open_backend(f"qdrant-local:{tmp_path / 'qdrant'}", "resync")
    try:
        store.sync(built_memory)
        doc = "gnome-help/printing-2sided.page"
        own = {u.id for u in built_memory.units()
               if doc in (u.meta.get("doc_ids") or [u.meta.get("doc_id")])}
        assert own and own <= store.stored_ids()
        store.remove_document(doc)
        assert not own & store.stored_ids()
        search = QdrantMemory(built_memory, store)
        assert all(doc not in (h.unit.meta.get("doc_ids") or [h.doc_id])
                   for h in search.search("print on both sides", k=10, doc_ids=None))
        report = store.sync(built_memory)  # the memory still serves them: they come back
        assert report["added"] == len(own) and report["deleted"] == 0
        assert store.stored_ids() == {u.id for u in built_memory.units()}
    finally:
        store.close()


def test_a_repeated_section_is_found_once_as_by_the_built_in_index(embedder: Any) -> None:
    """The copies of a section that other pages repeat word for word are left out of a search
    over every page, as by the built-in index; when the page of the copy shown is removed, the
    next copy is shown after a sync."""
    memory = build_memory(reference_pages(), embedder=embedder, progress=False)
    store = QdrantStore.open("qdrant-local::memory:", "repeats")
    try:
        store.sync(memory)
        search = QdrantMemory(memory, store)
        query = "workspace configuration option"
        for method in ("hybrid", "bm25", "dense"):
            theirs = [h.unit.id for h in search.search(query, k=5, kind="logic_unit", method=method)]
            ours = [h.unit.id for h in memory.search(query, k=5, kind="logic_unit", method=method)]
            assert theirs == ours, method
        copies = [u.id for u in memory.units("logic_unit") if u.header.startswith("`workspace`")]
        assert [i for i in ours if i in copies] == copies[:1]
        # the copy of the page the query names is searched too, as by the built-in index
        named = "workspace configuration option of npm-fund"
        theirs = [h.unit.id for h in search.search(named, k=5, kind="logic_unit")]
        assert copies[2] in theirs and theirs == [h.unit.id for h in memory.search(named, k=5, kind="logic_unit")]
        memory.remove_document("commands/npm-audit.md")
        store.sync(memory)
        shown = [h.unit.id for h in search.search(query, k=5, kind="logic_unit")]
        assert [i for i in shown if i in copies] == copies[1:2]
        assert shown == [h.unit.id for h in memory.search(query, k=5, kind="logic_unit")]
    finally:
        store.close()


def test_a_search_keeps_to_the_language_of_the_question_as_by_the_built_in_index(embedder: Any) -> None:
    memory = build_memory(translated_pages(), embedder=embedder, progress=False)
    store = QdrantStore.open("qdrant-local::memory:", "languages")
    try:
        store.sync(memory)
        search = QdrantMemory(memory, store)
        for question in ("How do I read a file line by line?", "ファイルを1行ずつ読むにはどうすればいいですか？"):
            theirs = [h.unit.id for h in search.search(question, k=8, kind=["logic_unit", "chunk"])]
            ours = [h.unit.id for h in memory.search(question, k=8, kind=["logic_unit", "chunk"])]
            assert theirs == ours, question
        docs = {h.unit.meta["doc_id"][:3] for h in search.search("How do I spawn threads?", k=8, kind="chunk")}
        assert not docs & {"ja/", "es/"}
        # a collection stored before its points had a language gets them at its next sync
        store.client.delete_payload(store.collection, keys=["language"],
                                    points=[point_id(u.id) for u in memory.units()])
        assert store.sync(memory)["added"] == 0
        assert [h.unit.id for h in search.search("How do I spawn threads?", k=8, kind="chunk")] == \
            [h.unit.id for h in memory.search("How do I spawn threads?", k=8, kind="chunk")]
    finally:
        store.close()


def test_points_stored_with_other_tokens_are_stored_again_at_the_next_sync(embedder: Any) -> None:
    """A collection whose sparse vectors an older tokenizer made (without a name's words:
    ``html_logo_url`` and not "logo") gets them made again, and searches as the built-in index."""
    memory = build_memory(identifier_pages(), embedder=embedder, progress=False)
    store = QdrantStore.open("qdrant-local::memory:", "tokens")
    try:
        assert store.sync(memory)["added"] == len(memory.units())
        assert store.sync(memory)["added"] == 0
        store.client.delete_payload(store.collection, keys=["tokens"],
                                    points=[point_id(u.id) for u in memory.units()])
        assert store.sync(memory)["added"] == len(memory.units())
        search = QdrantMemory(memory, store)
        question = "How do I add a logo?"
        assert [h.unit.id for h in search.search(question, k=3, kind="logic_unit", method="bm25")] == \
            [h.unit.id for h in memory.search(question, k=3, kind="logic_unit", method="bm25")]
    finally:
        store.close()


def test_bad_locations_are_named() -> None:
    with pytest.raises(ValueError, match="qdrant://HOST:PORT"):
        open_backend("redis://x", "c")
    with pytest.raises(ValueError, match="qdrant-local:DIR"):
        open_backend("qdrant-local:", "c")
    assert collection_name("/a/b/my mem").startswith("inscoqa-my-mem-")


def test_memory_build_and_search_with_a_qdrant_store(clean_env: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """``memory build --store qdrant-local:DIR`` indexes the memory there; ``memory search
    --store`` answers from it with the built-in index's best hit."""
    import json

    from inscoqa.cli import main

    docs = clean_env / "docs"
    docs.mkdir()
    fixtures = Path(__file__).resolve().parents[1] / "app_fixtures"
    (docs / "descale.md").write_text((fixtures / "descale-espresso-machine.md").read_text())
    store = f"qdrant-local:{clean_env / 'qdrant'}"
    assert main(["memory", "build", "--path", str(docs), "--out", str(clean_env / "mem"),
                 "--store", store]) == 0
    assert "units added" in capsys.readouterr().out
    query = ["memory", "search", "--memory", str(clean_env / "mem"), "descale the machine",
             "--json"]
    assert main(query) == 0
    built_in = json.loads(capsys.readouterr().out)
    assert main([*query, "--store", store]) == 0
    qdrant = json.loads(capsys.readouterr().out)
    assert qdrant and qdrant[0]["id"] == built_in[0]["id"]
    # another store location holds no collection for this memory: refused in one line
    assert main([*query, "--store", f"qdrant-local:{clean_env / 'empty'}"]) == 2
    assert "memory build" in capsys.readouterr().err


def test_an_extractive_answer_through_the_store_is_the_memorys(embedder: Any) -> None:
    """Searched through its collection, a memory answers as it does itself: the sections whose
    header asks the question in other words, and how close in meaning each candidate is, come
    from the memory's own embeddings."""
    from inscoqa.corpus.document import Document
    from procmem.answerers import AnswerRequest, make_answerer

    memory = build_memory([
        Document("git/gitfaq.md", "gitfaq", "# gitfaq\n\n## I've made a change with a bug and it's been included "
                 "in the main branch. How should I undo it?\n\nThe usual way to deal with this is to use "
                 "`git revert`, which adds a commit that undoes the change.\n"),
        Document("git/git-reset.md", "git-reset", "# git-reset\n\n## Undo commits permanently\n\n1. Run "
                 "`git reset --hard HEAD~3` to throw away the last three commits.\n2. Do not do this if you "
                 "have given these commits to somebody else.\n"),
    ], embedder=embedder, progress=False)
    store = QdrantStore.open("qdrant-local::memory:", "answers")
    try:
        store.sync(memory)
        request = AnswerRequest("I committed a bug that is already on the main branch. How do I undo it?")
        ours = make_answerer("extractive", memory=memory).answer(request)
        theirs = make_answerer("extractive", memory=QdrantMemory(memory, store)).answer(request)
        assert theirs.procedures == ours.procedures == ["The usual way to deal with this is to use git revert, "
                                                        "which adds a commit that undoes the change. [1]"]

        def details(answer: Any) -> tuple[Any, Any]:
            stages = {s.name: s.details for s in answer.trace.stages}
            return stages["retrieve"]["restating"], [s["closeness"] for s in stages["compose"]["scores"]]
        assert details(theirs) == details(ours)
        assert details(ours)[0] and None not in details(ours)[1]
    finally:
        store.close()


def test_sparse_vectors_score_as_the_built_in_bm25_index() -> None:
    """The store's sparse vectors (term-frequency part, times the collection's IDF) give each unit
    the score bm25s gives it times k1 + 1 (the classic formula's factor, which Lucene's leaves
    out): both use the same k1, b and IDF, so they rank alike."""
    texts = ["Open the Sound panel and select the headset in the Output section.",
             "Select the headset's microphone in the Input section of the Sound panel; speak to test it.",
             "Plug the headset into any USB port. A headset with a TRS plug goes into the audio socket.",
             "Click Test to play a sound through each speaker of the headset, the headset, the headset."]
    tokens = [tokenize(t) for t in texts]
    query = tokenize("test the headset microphone in the Sound panel")
    index = BM25Index.build(tokens)
    avgdl = sum(map(len, tokens)) / len(tokens)
    frequency = {t: sum(t in doc for doc in tokens) for t in set(query)}
    idf = {term_id(t): math.log(1 + (len(tokens) - df + 0.5) / (df + 0.5)) for t, df in frequency.items() if df}
    query_ids, query_weights = bm25_query(query)
    built_in = index.scores(query)
    for row, doc in enumerate(tokens):
        weights = dict(zip(*bm25_document(doc, avgdl), strict=True))
        sparse = sum(w * weights.get(i, 0.0) * idf.get(i, 0.0) for i, w in zip(query_ids, query_weights, strict=True))
        assert sparse == pytest.approx((K1 + 1) * float(built_in[row]), rel=1e-4)
