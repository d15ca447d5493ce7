"""Verified reranking over a real memory of bundled documents and their conversations' labels."""

from __future__ import annotations

import json
import re

import pytest

from inscoqa.io import save_conversations
from procmem.rerank.dataset import Verifier, labelled_queries, read_queries, write_queries
from procmem.rerank.features import LLM_FEATURES, MODEL_FREE, default_features
from procmem.rerank.ranker import (
    MODEL_FORMAT,
    PairwiseRanker,
    cross_validate,
    evaluate,
    oracle,
    retrieval_order,
)
from serving.errors import LLMSchemaError
from serving.scripted import ScriptedLLM

pytestmark = pytest.mark.slow  # the real embedding model retrieves and grounds


@pytest.fixture(scope="module")
def model_free(built_memory, conversations):
    verifier = Verifier(built_memory, default_features(False), candidates=6)
    return labelled_queries(conversations, verifier)


def page_steps(prompt: str) -> list[str]:
    """The first two numbered lines of the page in the prompt, copied: steps a page really has."""
    lines = re.findall(r"^\s*\d+\.\s+(.+)$", prompt.split("Page:", 1)[-1], flags=re.M)
    return lines[:2]


def scripted_reply(messages, schema):
    prompt = "\n".join(m["content"] for m in messages)
    required = schema["required"][0]
    if required == "steps":
        copied = page_steps(prompt)
        return {"steps": copied or ["Sprinkle the cheese over the keyboard and wait an hour."]}
    if required == "relevance":
        return {"relevance": 0.8}
    return {"completion": 0.3}


def test_model_free_candidates_come_from_memory_procedures_and_are_grounded(model_free, conversations):
    assert len(model_free) == len(conversations)
    for q in model_free:
        assert q.feature_names == list(MODEL_FREE) and len(q.features) == len(q.doc_ids) == len(q.details)
        for row, detail, verified in zip(q.features, q.details, q.verified, strict=True):
            assert detail["step_source"] in ("procedure", "step_units", "none")
            grounded = [g for g in detail["groundings"] if g]
            assert verified == bool(grounded)
            for g in grounded:  # each grounded step keeps its snippet and position
                assert g["snippet"] and g["end"] > g["start"] and g["unit"] == detail["doc_id"]
            values = dict(zip(q.feature_names, row, strict=True))
            assert values["grounded_share"] == pytest.approx(len(grounded) / max(1, len(detail["steps"])))
            assert 0 <= values["query_coverage"] <= 1 and 0 <= values["common_keywords"] <= 1
            assert values["retrieval_rrank"] == pytest.approx(1 / detail["retrieval_rank"])
    # rules-extracted procedures are the documents' own lines: most candidates verify
    verified = sum(sum(q.verified) for q in model_free)
    assert verified >= 0.5 * sum(len(q.doc_ids) for q in model_free)


def test_scripted_model_steps_are_grounded_or_the_page_dropped(built_memory, conversations):
    llm = ScriptedLLM(scripted_reply)
    verifier = Verifier(built_memory, default_features(True), llm=llm, candidates=4)
    (q,) = labelled_queries(conversations[:1], verifier)
    assert q.feature_names[-2:] == list(LLM_FEATURES)
    for row, detail in zip(q.features, q.details, strict=True):
        values = dict(zip(q.feature_names, row, strict=True))
        assert detail["step_source"] == "llm"
        assert values["llm_relevance"] == 0.8 and values["llm_completion"] == 0.3
        if detail["steps"] == ["Sprinkle the cheese over the keyboard and wait an hour."]:
            assert detail["groundings"] == [None] and values["grounded_share"] == 0.0
        else:
            assert all(g and g["by"] == "rouge" for g in detail["groundings"])
    instruction_prompts = [c for c in llm.calls if c.schema and c.schema["required"] == ["steps"]]
    assert len(instruction_prompts) == len(q.doc_ids)
    assert all(conversations[0].question in c.prompt for c in instruction_prompts)


def test_a_model_that_fails_falls_back_to_the_memory_procedures(built_memory, conversations):
    llm = ScriptedLLM(lambda m, s: LLMSchemaError("no valid JSON", raw="?"))
    verifier = Verifier(built_memory, default_features(True), llm=llm, candidates=3)
    (q,) = labelled_queries(conversations[:1], verifier)
    assert all(d["step_source"] != "llm" for d in q.details)
    column = q.feature_names.index("llm_relevance")
    assert all(row[column] == 0.5 for row in q.features)  # unknown: the middle of the scale


def test_cross_validation_table_and_model_file(model_free, tmp_path):
    result = cross_validate(model_free, k=3, seed=1)
    table = result.table
    assert set(table) == {"retrieval order", "verified order", "ranker", "single feature", "oracle"}
    for system, row in table.items():
        assert all(0.0 <= v <= 1.0 for v in row.values()), system
        assert row["P@1"] == row["MRR@1"]  # binary labels: the same thing at cut-off 1
        assert row["NDCG@5"] <= table["oracle"]["NDCG@5"] + 1e-12
    assert table["oracle"]["P@1"] == evaluate(model_free, oracle)["P@1"]
    assert table["retrieval order"] == pytest.approx(evaluate(model_free, retrieval_order))
    assert len(result.single_features) == 3 and set(result.single_features) <= set(MODEL_FREE)

    trainable = [q for q in model_free if set(q.relevant) & set(q.doc_ids)]
    ranker = PairwiseRanker.fit(trainable, dataset="test")
    path = ranker.save(tmp_path / "ranker.json")
    data = json.loads(path.read_text())
    assert data["format"] == MODEL_FORMAT and data["version"] == 1 and data["features"] == list(MODEL_FREE)
    loaded = PairwiseRanker.load(path)
    assert [loaded.rank(q) for q in model_free] == [ranker.rank(q) for q in model_free]
    for q in model_free:  # the ranked list is a permutation with the verified candidates first
        ranked = loaded.rank(q)
        assert sorted(ranked) == sorted(q.doc_ids)
        kept = sum(q.verified)
        assert {q.doc_ids[i] for i in range(len(q.doc_ids)) if q.verified[i]} == set(ranked[:kept])

    data["features"] = ["retrieval_score", "shoe_size"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="bad.json: field 'features'.*shoe_size"):
        PairwiseRanker.load(bad)
    data["version"] = 99
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="field 'version'"):
        PairwiseRanker.load(bad)


def test_features_file_round_trip(model_free, tmp_path):
    path = write_queries(tmp_path / "features.jsonl", model_free)
    assert [q.to_dict() for q in read_queries(path)] == [q.to_dict() for q in model_free]
    path.write_text(path.read_text() + "{not json\n")
    with pytest.raises(ValueError, match=r"features.jsonl: line \d+"):
        read_queries(path)


def test_cli_features_train_eval(built_memory, conversations, tmp_path, capsys):
    from inscoqa.cli import main

    memory_dir = tmp_path / "memory"
    built_memory.save(memory_dir)
    data = save_conversations(conversations, tmp_path / "convs.jsonl")
    features = tmp_path / "features.jsonl"
    assert main(["rerank", "features", "--data", str(data), "--memory", str(memory_dir),
                 "--candidates", "5", "--out", str(features)]) == 0
    assert f"{len(conversations)} labelled queries" in capsys.readouterr().out
    model = tmp_path / "model.json"
    assert main(["rerank", "train", "--features", str(features), "--model", str(model)]) == 0
    assert "weights: retrieval_score" in capsys.readouterr().out
    assert main(["rerank", "eval", "--features", str(features), "--folds", "3", "--model", str(model),
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["folds"] == 3 and out["queries"] == len(conversations)
    assert set(out["model"]["metrics"]) == {"MRR@1", "MRR@5", "P@1", "P@5", "NDCG@5"}
    # one feature only, chosen by name
    assert main(["rerank", "eval", "--features", str(features), "--folds", "2",
                 "--feature", "title_overlap"]) == 0
    assert "title_overlap" in capsys.readouterr().out
    # a command that cannot work says why in one line and exits non-zero
    assert main(["rerank", "eval", "--features", str(features), "--folds", "99"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("rerank eval:") and "folds" in err and "\n" not in err


def test_features_with_the_real_embedded_engine(built_memory, conversations, embedded_llm):
    verifier = Verifier(built_memory, default_features(True), llm=embedded_llm, candidates=2)
    (q,) = labelled_queries(conversations[:1], verifier)
    assert len(q.doc_ids) == 2 and q.feature_names == default_features(True)
    for row, detail, verified in zip(q.features, q.details, q.verified, strict=True):
        values = dict(zip(q.feature_names, row, strict=True))
        assert 0.0 <= values["llm_relevance"] <= 1.0 and 0.0 <= values["llm_completion"] <= 1.0
        # the tiny model's steps, or the memory's procedures when it gave none; grounded or not
        assert detail["step_source"] in ("llm", "procedure", "step_units", "none")
        assert len(detail["groundings"]) == len(detail["steps"])
        assert verified == any(detail["groundings"])
