"""Step coverage and its extraction ceiling, on fixed steps and on the bundled conversations' own
documents."""

from __future__ import annotations

from eval.step_coverage import extraction_ceiling, passages, step_coverage
from inscoqa.bundled import corpus_index
from inscoqa.records import Conversation
from procmem.answerers import AnswerRequest, make_answerer


def test_a_step_covers_a_reference_step_holding_half_its_words_in_order() -> None:
    reference = ["Open Settings and select Privacy.", "Turn off Location Services for every app."]
    assert step_coverage(["Open the Settings window, then select Privacy. [1]"], reference) == 0.5
    assert step_coverage(["Select Privacy and open Settings."], reference) == 0.0  # words out of order
    assert step_coverage(["Open Settings and select Privacy.", "Turn off Location Services."], reference) == 1.0
    assert step_coverage([], reference) == 0.0
    assert step_coverage(["Open Settings."], []) == 0.0


def test_passages_are_lines_without_markup_and_their_sentences() -> None:
    markdown = ("# Change the wallpaper\n\n1. Open [Settings](settings.page). Select **Background**.\n"
                "- Pick a picture.\n```\ngsettings get org.gnome.desktop.background picture-uri\n```\n")
    found = passages(markdown)
    assert found[:4] == ["Change the wallpaper", "Open Settings. Select **Background**.", "Open Settings.",
                         "Select **Background**."]
    assert "Pick a picture." in found
    assert "gsettings get org.gnome.desktop.background picture-uri" in found
    assert not any(p.startswith(("```", "#", "1.", "-")) for p in found)


def test_steps_copied_from_the_documents_reach_the_ceiling() -> None:
    document = "## Print\n\n1. Press Ctrl+P.\n2. Choose the printer and press Print.\n"
    assert extraction_ceiling(["Press Ctrl+P.", "Choose the printer and press Print."], [document]) == 1.0
    assert extraction_ceiling(["Press Ctrl+P to open the print dialog of the application you use, "
                               "then wait."], [document]) == 0.0


def test_the_ceiling_bounds_an_extractive_answer_on_a_real_conversation(conversations: list[Conversation]) -> None:
    index = corpus_index()
    answerer = make_answerer("extractive")
    chosen = [c for c in conversations if c.id in ("dev-gnome-001", "dev-ods-029")]  # one of each file
    assert len(chosen) == 2
    for conv in chosen:
        documents = index.resolve(conv)
        answer = answerer.answer(AnswerRequest(conv.question, history=conv.history, documents=documents))
        reached = step_coverage(list(answer.procedures), list(conv.procedures))
        ceiling = extraction_ceiling(list(conv.procedures), [doc.text for doc in documents])
        assert 0.0 < ceiling <= 1.0
        assert reached <= ceiling
        cited = {d.doc_id for d in conv.documents}
        other = next(c for c in conversations if not cited & {d.doc_id for d in c.documents})
        assert extraction_ceiling(list(conv.procedures), [d.text for d in index.resolve(other)]) < ceiling
