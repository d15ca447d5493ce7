"""Fusion arithmetic against a plain-Python reference, top-N selection, recursive chunking."""

from __future__ import annotations

import re

import numpy as np

from procmem.chunking import chunk_units, recursive_split
from procmem.retrieval.bm25 import BM25Index, tokenize
from procmem.retrieval.fusion import rrf, top_n, weighted
from procmem.retrieval.query import conversation_query


def reference_rrf(lists, k, weights):
    scores = {}
    for weight, ranked in zip(weights, lists, strict=True):
        for rank, row in enumerate(ranked, 1):
            scores[row] = scores.get(row, 0.0) + weight / (k + rank)
    return scores


def test_rrf_matches_the_definition():
    rng = np.random.default_rng(0)
    lists = [rng.permutation(50)[:20], rng.permutation(50)[:30], np.array([], dtype=np.int64)]
    rows, scores = rrf(lists, k=60, weights=[1.0, 0.5, 1.0])
    expected = reference_rrf(lists, 60, [1.0, 0.5, 1.0])
    assert set(rows.tolist()) == set(expected)
    for row, score in zip(rows, scores, strict=True):
        assert abs(score - expected[int(row)]) < 1e-6
    assert np.all(np.diff(scores) <= 1e-9)


def test_top_n_masks_and_orders():
    scores = np.array([0.1, 0.9, 0.0, 0.5, 0.7], dtype=np.float32)
    assert top_n(scores, 3).tolist() == [1, 4, 3]
    mask = np.array([True, False, True, True, True])
    assert top_n(scores, 2, mask).tolist() == [4, 3]
    assert top_n(scores, 10, positive_only=True).tolist() == [1, 4, 3, 0]


def test_weighted_fusion_normalises_each_side():
    candidates = np.array([0, 1, 2])
    lexical = np.array([10.0, 0.0, 5.0])
    semantic = np.array([0.2, 0.9, 0.8])
    rows, scores = weighted(candidates, [lexical[candidates], semantic[candidates]], [0.3, 0.7])
    expected = {0: 0.3 * 1.0, 1: 0.7 * 1.0, 2: 0.3 * 0.5 + 0.7 * (0.6 / 0.7)}
    assert rows.tolist() == sorted(expected, key=lambda r: -expected[r])
    assert np.allclose(scores, [expected[int(r)] for r in rows])


def test_recursive_chunks_cover_the_document_within_the_size(corpus):
    doc = corpus.get("officedocs/Microsoft365/admin/active-directory/restore-deleted-user-accounts.md")
    pieces = recursive_split(doc.text, 120)
    assert len(pieces) > 3
    assert all(len(p.split()) <= 120 for p in pieces)
    assert " ".join(pieces).split() == doc.text.split()
    chunks = chunk_units(doc.doc_id, doc.title, doc.text, {"content_hash": doc.content_hash}, 120)
    assert [c.meta["order"] for c in chunks] == list(range(len(chunks)))
    assert len({c.id for c in chunks}) == len(chunks)


def test_a_recursive_chunk_keeps_code_as_code(corpus):
    """A PowerShell block's comment line ("# Update User's Usage Location details") is no heading
    to cut at: it stays inside its block, and every chunk's fences are whole."""
    doc = corpus.get("officedocs/Microsoft365/admin/access-management/set-language-and-region.md")
    chunks = chunk_units(doc.doc_id, doc.title, doc.text, {}, 200)
    assert len(chunks) > 1
    assert all(len(re.findall(r"^\s*```", c.text, re.M)) % 2 == 0 for c in chunks)
    [holder] = [c.text for c in chunks if "# Update User's Usage Location details" in c.text]
    before = holder[: holder.index("# Update User's Usage Location details")]
    assert before.count("```") % 2 == 1  # opened above it, in its chunk


def test_bm25_stems_and_drops_stop_words():
    assert tokenize("The printers are printing") == ["printer", "print"]
    index = BM25Index.build([tokenize("print two-sided pages"), tokenize("bake an apple pie")])
    scores = index.scores(tokenize("printing pages"))
    assert scores[0] > 0 and scores[1] == 0
    assert index.scores(tokenize("zzzz")).tolist() == [0.0, 0.0]


def test_conversation_query_leads_with_the_question_and_keeps_recent_history():
    history = [("How do I share a mailbox?", "Use the EAC."), ("And send as it?", "Grant Send As. " * 30)]
    query = conversation_query(history, "Where do sent copies go?", turns=1)
    assert query.startswith("Where do sent copies go? Where do sent copies go?")
    assert "And send as it?" in query and "How do I share a mailbox?" not in query
    assert len(query.split()) < 60


def test_a_question_without_history_is_searched_as_asked():
    question = "How do I make the screen wait longer before it goes dark?"
    assert conversation_query([], question) == question
    assert conversation_query([("Hi", "Hello")], question, turns=0) == question
