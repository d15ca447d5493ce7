"""Every answer's steps are grounded in its sources, whatever the answerer; answerers can search
the memory through a trained ranker (``rerank=MODEL_FILE``). Real bundled documents, the real
embedding model and bm25s; scripted models only where a model's reply must be fixed."""

from __future__ import annotations

import hashlib
import json
import re

import numpy as np
import pytest
from support.bench_doubles import reply_for

from eval.bench.runner import BenchRunner
from eval.report import grounded_cell, render_markdown, summarize, typed_results
from procmem.answerers import AnswerRequest, make_answerer
from procmem.rerank.dataset import Verifier, labelled_queries
from procmem.rerank.features import MODEL_FREE, default_features
from procmem.rerank.ranker import PairwiseRanker
from procmem.retrieval.index import unit_doc_ids
from serving.scripted import ScriptedLLM

pytestmark = pytest.mark.slow  # the real embedding model retrieves and grounds

DOC = "gnome-help/printing-2sided.page"
COPIED = "Open the print dialog by pressing Ctrl+P."
MADE_UP = "Sprinkle grated cheese over the keyboard and wait for an hour."


def answer_with(steps_of: object) -> ScriptedLLM:
    """A model whose answer's steps are ``steps_of(prompt)``."""
    def reply(messages: list[dict[str, str]], schema: object) -> dict[str, object]:
        prompt = "\n".join(m["content"] for m in messages)
        return {"answer": "Here is how.", "procedures": steps_of(prompt)}  # type: ignore[operator]
    return ScriptedLLM(reply)


def first_retrieved_step(prompt: str) -> str:
    """The first numbered step of the retrieved procedures shown in the prompt."""
    block = prompt.split("Procedures retrieved from memory", 1)[1].split("Conversation so far", 1)[0]
    return re.findall(r"^\d+\. (.+)$", block, flags=re.M)[0]


def test_extractive_steps_are_grounded_in_the_units_they_come_from(built_memory, conversations):
    answerer = make_answerer("extractive", memory=built_memory)
    for conv in conversations[:3]:
        answer = answerer.answer(AnswerRequest(conv.question, history=list(conv.history)))
        assert answer.groundings is not None and len(answer.groundings) == len(answer.procedures)
        source_units = {s.unit_id for s in answer.sources}
        grounded = [g for g in answer.groundings if g is not None]
        assert grounded, answer.procedures  # steps taken from the pages are found in them
        for g in grounded:
            assert g.unit in source_units and g.by in ("rouge", "embedding")
            assert built_memory.get(g.unit).render()[g.start:g.end] == g.snippet
        data = json.loads(json.dumps(answer.to_dict()))
        assert data["groundings"] == [g.to_dict() if g else None for g in answer.groundings]


def test_a_copied_step_is_grounded_and_a_made_up_one_not(built_memory):
    llm = answer_with(lambda prompt: [first_retrieved_step(prompt), MADE_UP])
    answerer = make_answerer("rag", llm=llm, memory=built_memory, query_rewrite="heuristic")
    answer = answerer.answer(AnswerRequest("How do I print on both sides of the paper?"))
    copied, made_up = answer.groundings
    assert made_up is None
    assert copied is not None and copied.by == "rouge" and copied.score > 0.7
    assert copied.unit in {s.unit_id for s in answer.sources}


def test_given_documents_ground_steps_in_the_documents_themselves(corpus):
    page = corpus.get(DOC)
    assert COPIED in page.text
    llm = answer_with(lambda prompt: [COPIED, MADE_UP])
    answer = make_answerer("inscoqa", llm=llm).answer(
        AnswerRequest("How do I print on both sides?", documents=[page]))
    copied, made_up = answer.groundings
    assert made_up is None
    assert copied is not None and copied.unit == DOC and copied.snippet == COPIED
    assert page.text[copied.start:copied.end] == COPIED


def test_the_bench_records_and_reports_the_grounded_step_rate(built_memory, conversations,
                                                              tmp_path):
    judge = ScriptedLLM(lambda messages, schema: reply_for(
        "\n".join(m["content"] for m in messages), schema))
    outcome = BenchRunner(conversations=conversations[:2], data_id="grounding-test",
                          answerers={"extractive": make_answerer("extractive", memory=built_memory)},
                          judge_llm=judge, out_dir=tmp_path, progress=False).run()
    records = typed_results(outcome)["extractive"]
    assert len(records) == 2
    for record in records:
        assert record.groundings is not None and len(record.groundings) == len(record.procedures)
    steps = sum(len(r.procedures or []) for r in records)
    grounded = sum(r.grounded_steps or 0 for r in records)
    summary = summarize(outcome)
    grounding = summary["systems"]["extractive"]["grounding"]
    assert grounding == {"samples": 2, "steps": steps, "grounded": grounded,
                         "rate": grounded / steps}
    assert grounded > 0
    report = render_markdown(summary)
    assert "grounded steps" in report and grounded_cell(grounding) in report


# --------------------------------------------------------------------------- rerank=MODEL_FILE


@pytest.fixture(scope="module")
def ranker_file(built_memory, conversations, tmp_path_factory):
    """A ranker trained on the bundled conversations' labels (6 candidate documents each)."""
    queries = labelled_queries(conversations, Verifier(built_memory, default_features(False),
                                                       candidates=6))
    trainable = [q for q in queries if set(q.relevant) & set(q.doc_ids)]
    ranker = PairwiseRanker.fit(trainable, candidates=6)
    return ranker.save(tmp_path_factory.mktemp("rerank") / "ranker.json")


def reversed_ranker_file(path):
    """A ranker that puts the verified candidates in reverse retrieval order."""
    names = list(MODEL_FREE)
    coef = np.zeros(len(names))
    coef[names.index("retrieval_rrank")] = -1.0
    ranker = PairwiseRanker(names, np.zeros(len(names)), np.ones(len(names)), coef,
                            {"candidates": 6})
    return ranker.save(path)


def retrieved_doc_ranks(answer, memory, order: list[str]) -> list[int]:
    """The place in ``order`` of each unit the answerer's first search returned."""
    hits = next(s for s in answer.trace.stages if s.name == "retrieve").details["hits"]
    return [min(order.index(d) for d in unit_doc_ids(memory.get(h["unit_id"])) if d in order)
            for h in hits]


def test_rerank_orders_the_documents_the_answerer_picks_from(built_memory, conversations,
                                                             ranker_file):
    answerer = make_answerer("extractive", memory=built_memory, rerank=str(ranker_file))
    digest = hashlib.sha256(ranker_file.read_bytes()).hexdigest()
    assert answerer.config()["rerank"]["sha256"] == digest
    assert "rerank" not in make_answerer("extractive", memory=built_memory).config()
    ranker = PairwiseRanker.load(ranker_file)
    verifier = Verifier(built_memory, ranker.features, candidates=6)
    changed = 0
    for conv in conversations:
        answer = answerer.answer(AnswerRequest(conv.question))
        stage = answer.trace.stages[0]
        assert stage.name == "rerank" and stage.details["applied"]
        assert stage.details["sha256"] == digest and stage.details["model"] == str(ranker_file)
        first = stage.details["searches"][0]
        query = verifier.features_of(first["query"], verifier.candidates_of(first["query"]))
        assert first["before"] == query.doc_ids and first["after"] == ranker.rank(query)
        ranks = retrieved_doc_ranks(answer, built_memory, first["after"])
        assert ranks == sorted(ranks)  # the best-ranked document's units come first
        changed += first["after"] != first["before"]
        assert answer.groundings is not None
    assert changed, "the trained ranker kept the retrieval order of every query"


def test_a_different_ranker_changes_what_the_answerer_retrieves(built_memory, conversations,
                                                                tmp_path):
    path = reversed_ranker_file(tmp_path / "reversed.json")
    question = conversations[0].question
    plain = make_answerer("extractive", memory=built_memory).answer(AnswerRequest(question))
    answer = make_answerer("extractive", memory=built_memory, rerank=str(path)).answer(
        AnswerRequest(question))
    first = answer.trace.stages[0].details["searches"][0]
    verifier = Verifier(built_memory, list(MODEL_FREE), candidates=6)
    query = verifier.features_of(first["query"], verifier.candidates_of(first["query"]))
    pairs = list(zip(query.doc_ids, query.verified, strict=True))
    expected = [d for d, ok in reversed(pairs) if ok] + [d for d, ok in pairs if not ok]
    assert first["before"] == query.doc_ids and first["after"] == expected
    assert expected != query.doc_ids  # the verified candidates in reverse retrieval order
    top = retrieved_doc_ranks(answer, built_memory, first["after"])[0]
    assert top == 0  # the answerer's first unit comes from the ranker's first document
    plain_hits = next(s for s in plain.trace.stages if s.name == "retrieve").details["hits"]
    reranked_hits = next(s for s in answer.trace.stages if s.name == "retrieve").details["hits"]
    assert [h["unit_id"] for h in plain_hits] != [h["unit_id"] for h in reranked_hits]


def test_rerank_needs_a_memory_and_a_readable_model(built_memory, tmp_path):
    with pytest.raises(ValueError, match="rerank needs a memory"):
        make_answerer("extractive", rerank=str(tmp_path / "none.json"))
    with pytest.raises(ValueError, match="none.json"):
        make_answerer("extractive", memory=built_memory, rerank=str(tmp_path / "none.json"))
