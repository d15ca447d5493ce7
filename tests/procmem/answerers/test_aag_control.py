"""AAG's control flow with a scripted model: stage order, stage inputs, stop rule, T limit,
ablation switches and fallbacks on unreadable replies."""

from __future__ import annotations

import pytest

from procmem.answerers import AnswerRequest, make_answerer
from procmem.answerers.parsing import NO_UPDATE
from serving.prompts import load_prompt

QUESTION = "How do I brew green tea with my kettle?"
HISTORY = [("I bought green tea leaves.", "Nice, they make a light tea.")]
QUERIES = ["What water temperature suits green tea?", "How long to steep green tea?",
           "How much tea per cup?", "Should the kettle boil?"]


def reply(answer: str, *steps: str) -> dict:
    return {"answer": answer, "procedures": list(steps)}


def full_script(critic: list | None = None) -> dict:
    return {
        "rewrite/standalone": [{"query": "brew green tea leaves with a kettle"}],
        "answer/rag": [reply("Draft answer", "Boil water", "Add leaves")],
        "aag/rewrite": [{"steps": ["Heat water", "Steep"], "queries": QUERIES}],
        "aag/summarize": [f"Summary {i}" for i in range(1, 5)],
        "aag/update": [reply("Updated answer", "Heat water to 80 C", "Steep 2 minutes")],
        "aag/critic": critic or [{"verdict": "EDITS", "edits": ["Say how much tea to use"]},
                                 {"verdict": NO_UPDATE, "edits": []}],
        "aag/edit": [reply("Edited answer", "Heat water to 80 C", "Use 2 g of leaves", "Steep 2 minutes")],
    }


def stage_names(answer) -> list[str]:
    return [s.name for s in answer.trace.stages]


def test_full_pipeline_calls_each_stage_in_order_with_its_inputs(memory, script):
    llm, router = script(full_script())
    aag = make_answerer("aag", llm=llm, memory=memory, seed=7)
    answer = aag.answer(AnswerRequest(QUESTION, history=HISTORY))

    assert router.names == ["rewrite/standalone", "answer/rag", "aag/rewrite", *["aag/summarize"] * 4,
                            "aag/update", "aag/critic", "aag/edit", "aag/critic"]
    calls = {}
    for name, call in zip(router.names, llm.calls, strict=True):
        calls.setdefault(name, []).append(call)
    # retrieval: K=3 for the standalone query, then K=3 for each rewritten question
    assert [s["query"] for s in memory.searches] == ["brew green tea leaves with a kettle", *QUERIES]
    assert {s["k"] for s in memory.searches} == {3}
    assert {s["kind"] for s in memory.searches} == {"procedure"}
    # the draft sees the top-K procedures of the standalone query
    draft_prompt = calls["answer/rag"][0].prompt
    assert "brew green tea" in draft_prompt and "steep black tea" in draft_prompt
    # rewriting sees the draft and asks for N=4 questions
    rewrite = calls["aag/rewrite"][0]
    assert "Boil water" in rewrite.prompt
    assert rewrite.schema["properties"]["queries"]["minItems"] == 4
    assert rewrite.schema["properties"]["queries"]["maxItems"] == 4
    # each summary sees its question
    for question, call in zip(QUERIES, calls["aag/summarize"], strict=True):
        assert f"Question: {question}" in call.prompt
    # the update sees the draft and the stacked Q/A knowledge
    update = calls["aag/update"][0].prompt
    assert "Draft answer" in update
    for i, question in enumerate(QUERIES, 1):
        assert f"Q: {question}\nA: Summary {i}" in update
    # the critic sees the updated steps, the edit sees the critic's edits and the knowledge
    assert "Heat water to 80 C" in calls["aag/critic"][0].prompt
    edit = calls["aag/edit"][0].prompt
    assert "- Say how much tea to use" in edit and "Q: " + QUERIES[0] in edit
    # the second critic round judges the edited steps and stops
    assert "Use 2 g of leaves" in calls["aag/critic"][1].prompt
    assert answer.answer == "Edited answer"
    assert answer.procedures == ["Heat water to 80 C", "Use 2 g of leaves", "Steep 2 minutes"]
    # sampling parameters: temperature 0.7 by default, the seed as configured
    assert calls["answer/rag"][0].params["temperature"] == 0.7
    assert {c.params["seed"] for c in llm.calls} == {7}
    # trace: every stage, verdicts, stop reason, prompt hashes, usage
    assert stage_names(answer) == ["standalone_query", "retrieve", "draft", "rewrite",
                                   *["retrieve_query", "summarize"] * 4, "update",
                                   "critic", "edit", "critic"]
    critics = [s for s in answer.trace.stages if s.name == "critic"]
    assert critics[0].details["verdict"] == "EDITS"
    assert critics[-1].details["stop"] == NO_UPDATE
    assert answer.trace.usage.calls == len(llm.calls)
    assert "aag/critic" in answer.trace.prompt_hashes
    assert answer.sources and all(s.doc_id and s.unit_id for s in answer.sources)


def test_critic_no_update_at_once_means_no_edit(memory, script):
    llm, router = script(full_script(critic=[{"verdict": NO_UPDATE, "edits": []}]))
    answer = make_answerer("aag", llm=llm, memory=memory).answer(AnswerRequest(QUESTION))
    assert router.names.count("aag/critic") == 1 and "aag/edit" not in router.names
    assert answer.answer == "Updated answer"


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_critic_loop_stops_at_t_rounds(memory, script, rounds):
    always_edits = [{"verdict": "EDITS", "edits": ["Add a step"]}]
    llm, router = script(full_script(critic=always_edits))
    answer = make_answerer("aag", llm=llm, memory=memory, max_rounds=rounds).answer(AnswerRequest(QUESTION))
    assert router.names.count("aag/critic") == rounds
    assert router.names.count("aag/edit") == rounds
    last = [s for s in answer.trace.stages if s.name == "critic"][-1]
    assert last.details["stop"] == f"round limit T={rounds}"


def test_default_round_limit_is_three(memory, script):
    llm, router = script(full_script(critic=[{"verdict": "EDITS", "edits": ["x"]}]))
    make_answerer("aag", llm=llm, memory=memory).answer(AnswerRequest(QUESTION))
    assert router.names.count("aag/critic") == 3


def test_nosum_concatenates_deduplicated_procedures(memory, script):
    llm, router = script(full_script())
    answer = make_answerer("aag-nosum", llm=llm, memory=memory).answer(AnswerRequest(QUESTION))
    assert "aag/summarize" not in router.names
    update = llm.calls[router.names.index("aag/update")].prompt
    # the four questions retrieve overlapping procedures; each appears once
    assert update.count("Goal: brew green tea") == 1
    assert "Q: " not in update
    concat = next(s for s in answer.trace.stages if s.name == "concatenate")
    assert len(concat.details["units"]) == len(set(concat.details["units"]))


def test_nocr_has_no_critic_loop(memory, script):
    llm, router = script(full_script())
    answer = make_answerer("aag-nocr", llm=llm, memory=memory).answer(AnswerRequest(QUESTION))
    assert "aag/critic" not in router.names and "aag/edit" not in router.names
    assert "aag/summarize" in router.names
    assert answer.answer == "Updated answer"


def test_nosum_nocr(memory, script):
    llm, router = script(full_script())
    make_answerer("aag-nosum-nocr", llm=llm, memory=memory).answer(AnswerRequest(QUESTION))
    assert router.names == ["answer/rag", "aag/rewrite", "aag/update"]


def test_noqr_sends_the_rag_draft_to_the_critic(memory, script):
    llm, router = script(full_script(critic=[{"verdict": NO_UPDATE, "edits": []}]))
    answer = make_answerer("aag-noqr", llm=llm, memory=memory).answer(AnswerRequest(QUESTION))
    assert router.names == ["answer/rag", "aag/critic"]
    assert "Boil water" in llm.calls[1].prompt
    assert answer.answer == "Draft answer"


def test_switches_equal_registered_ablations(memory, script):
    llm, _ = script({})
    named = make_answerer("aag-nosum-nocr", llm=llm, memory=memory)
    switched = make_answerer("aag", llm=llm, memory=memory, summarize=False, critique=False)
    assert named.config()["params"] == switched.config()["params"]
    assert make_answerer("aag-noqr", llm=llm, memory=memory).config()["params"]["rewrite_queries"] is False


def test_parameters_are_configurable(memory, script):
    script_ = full_script(critic=[{"verdict": NO_UPDATE, "edits": []}])
    script_["aag/rewrite"] = [{"steps": [], "queries": QUERIES[:2]}]
    llm, router = script(script_)
    make_answerer("aag", llm=llm, memory=memory, k=2, n_queries=2, temperature=0.2,
                  max_tokens=99).answer(AnswerRequest(QUESTION))
    assert {s["k"] for s in memory.searches} == {2}
    assert router.names.count("aag/summarize") == 2
    rag = llm.calls[router.names.index("answer/rag")]
    assert rag.params["temperature"] == 0.2 and rag.params["max_tokens"] == 99


def test_works_over_logic_units(memory, script):
    script_ = full_script()
    script_["aag/rewrite"] = [{"steps": [], "queries": ["install the printer driver",
                                                        "troubleshoot printer driver errors"]}]
    llm, _ = script(script_)
    answer = make_answerer("aag", llm=llm, memory=memory, unit_kind="logic_unit").answer(
        AnswerRequest("How do I print a test page?"))
    assert {s["kind"] for s in memory.searches} == {"logic_unit"}
    assert answer.sources[0].unit_id.startswith("lu-")


def test_unreadable_replies_fall_back_and_are_recorded(memory, script):
    script_ = full_script()
    script_.update({
        "answer/rag": ["Sorry, I cannot help."],
        "aag/rewrite": ["no idea"],
        "aag/update": ["rambling without steps"],
        "aag/critic": ["hmm, maybe"],
    })
    llm, router = script(script_)
    answer = make_answerer("aag", llm=llm, memory=memory).answer(AnswerRequest(QUESTION))
    stages = {s.name: s for s in answer.trace.stages}
    assert "extractive draft" in stages["draft"].details["fallback"]
    assert "draft steps used as questions" in stages["rewrite"].details["fallback"]
    assert "kept the draft" in stages["update"].details["fallback"]
    assert "unreadable critic reply" in stages["critic"].details["stop"]
    assert stages["draft"].details["calls"][0]["reader"] is None
    # the extractive draft is the answer: real steps of the retrieved procedures
    assert "Heat water to 80 C in the kettle" in answer.procedures
    assert "aag/edit" not in router.names


def test_plain_text_mode_parses_labelled_replies(memory, script):
    llm, router = script({
        "answer/rag": ["Answer: Use hot water.\nProcedural instructions:\n1. Heat water\n2. Steep"],
        "aag/critic": ["NO UPDATE REQUIRED"],
    })
    answer = make_answerer("aag-noqr", llm=llm, memory=memory, structured=False).answer(
        AnswerRequest(QUESTION))
    assert all(c.schema is None for c in llm.calls)
    assert answer.procedures == ["Heat water", "Steep"]
    assert load_prompt("procmem", "answer/format_text").user in llm.calls[0].prompt
    assert answer.trace.stages[-1].details["stop"] == NO_UPDATE


def test_config_names_params_prompts_and_model(memory, script):
    llm, _ = script({})
    config = make_answerer("aag-nocr", llm=llm, memory=memory).config()
    assert config["answerer"] == "aag-nocr" and config["model"] == "scripted"
    assert config["params"]["k"] == 3 and config["params"]["n_queries"] == 4
    assert config["params"]["max_rounds"] == 3 and config["params"]["critique"] is False
    assert len(config["prompts"]["aag/critic"]) == 12


def test_unknown_parameter_is_a_clear_error(memory, script):
    llm, _ = script({})
    with pytest.raises(TypeError, match="unknown parameter.*'n_query'"):
        make_answerer("aag", llm=llm, memory=memory, n_query=3)


def test_model_answerers_need_a_model(memory):
    with pytest.raises(ValueError, match="needs a chat model"):
        make_answerer("aag", llm=None, memory=memory)


def test_fewer_questions_than_n_are_accepted_and_recorded(memory, script):
    script_ = full_script(critic=[{"verdict": NO_UPDATE, "edits": []}])
    script_["aag/rewrite"] = [{"steps": ["Heat"], "queries": QUERIES[:2]}]
    llm, router = script(script_)
    answer = make_answerer("aag", llm=llm, memory=memory).answer(AnswerRequest(QUESTION))
    rewrite = next(s for s in answer.trace.stages if s.name == "rewrite")
    assert rewrite.details["queries"] == QUERIES[:2]
    assert rewrite.details["calls"][0]["reader"] == "json-repaired"
    assert router.names.count("aag/summarize") == 2


def test_question_labels_are_stripped_and_no_update_verdict_wins(memory, script):
    script_ = full_script(critic=[{"verdict": NO_UPDATE, "edits": ["stray text"]}])
    script_["aag/rewrite"] = [{"steps": [], "queries": [f"query{i}_1: {q}" for i, q in enumerate(QUERIES, 1)]}]
    llm, router = script(script_)
    answer = make_answerer("aag", llm=llm, memory=memory).answer(AnswerRequest(QUESTION))
    assert next(s for s in answer.trace.stages if s.name == "rewrite").details["queries"] == QUERIES
    critic = next(s for s in answer.trace.stages if s.name == "critic")
    assert critic.details["edits"] == [] and critic.details["ignored_edits"] == ["stray text"]
    assert "aag/edit" not in router.names
