"""The ceilings of an answer copied from the documents, on fixed texts and on the bundled
conversations' own documents."""

from __future__ import annotations

from eval.ceilings import passages, plain_answer_ceiling, step_coverage_ceiling
from eval.rouge import rouge_l
from eval.step_coverage import step_coverage
from inscoqa.bundled import corpus_index
from inscoqa.records import Conversation
from procmem.answerers import AnswerRequest, make_answerer

PRINTING = "## Print\n\n1. Press Ctrl+P.\n2. Choose the printer and press Print.\n\nThe dialog shows a preview.\n"


def test_passages_are_lines_without_markup_and_their_sentences() -> None:
    markdown = ("# Change the wallpaper\n\n1. Open [Settings](settings.page). Select **Background**.\n"
                "- Pick a picture.\n```\ngsettings get org.gnome.desktop.background picture-uri\n```\n")
    found = passages(markdown)
    assert found[:4] == ["Change the wallpaper", "Open Settings. Select **Background**.", "Open Settings.",
                         "Select **Background**."]
    assert "Pick a picture." in found
    assert "gsettings get org.gnome.desktop.background picture-uri" in found
    assert not any(p.startswith(("```", "#", "1.", "-")) for p in found)


def test_steps_copied_from_the_documents_reach_the_step_ceiling() -> None:
    assert step_coverage_ceiling(["Press Ctrl+P.", "Choose the printer and press Print."], [PRINTING]) == 1.0
    assert step_coverage_ceiling(["Press Ctrl+P to open the print dialog of the application you use, "
                                  "then wait."], [PRINTING]) == 0.0


def test_the_plain_ceiling_is_the_best_sentence_or_pair_of_sentences() -> None:
    reference = "Choose the printer and press Print. The dialog shows a preview."
    pair = rouge_l("Choose the printer and press Print. The dialog shows a preview.", reference).fmeasure
    assert plain_answer_ceiling(reference, [PRINTING]) == pair == 1.0
    alone = rouge_l("Choose the printer and press Print.", "Choose the printer and press Print now.").fmeasure
    assert plain_answer_ceiling("Choose the printer and press Print now.", [PRINTING]) == alone
    assert plain_answer_ceiling("", [PRINTING]) == 0.0
    assert plain_answer_ceiling(reference, ["# Title only"]) == 0.0


def test_the_ceilings_bound_an_extractive_answer_on_real_conversations(conversations: list[Conversation]) -> None:
    index = corpus_index()
    answerer = make_answerer("extractive")
    chosen = [c for c in conversations if c.id in ("dev-gnome-001", "dev-ods-029")]  # one of each file
    assert len(chosen) == 2
    for conv in chosen:
        documents = index.resolve(conv)
        texts = [doc.text for doc in documents]
        answer = answerer.answer(AnswerRequest(conv.question, history=conv.history, documents=documents))
        ceiling = step_coverage_ceiling(list(conv.procedures), texts)
        assert 0.0 < ceiling <= 1.0
        assert step_coverage(list(answer.procedures), list(conv.procedures)) <= ceiling
        assert rouge_l(answer.answer, conv.answer).fmeasure <= plain_answer_ceiling(conv.answer, texts)
        cited = {d.doc_id for d in conv.documents}
        other = next(c for c in conversations if not cited & {d.doc_id for d in c.documents})
        assert step_coverage_ceiling(list(conv.procedures), [d.text for d in index.resolve(other)]) < ceiling
