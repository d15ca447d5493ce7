"""The grounding rule on real bundled documents: copied steps, made-up steps, paraphrases."""

from __future__ import annotations

import pytest

from procmem.grounding import (
    Grounder,
    Source,
    StepGrounding,
    ground_answer,
    ground_steps,
    grounded_rate,
    rouge_l_f,
    snippets,
)
from procmem.units import Chunk

DOC = "gnome-help/printing-2sided.page"
COPIED = "Open the print dialog by pressing Ctrl+P."
MADE_UP = "Bake the lasagna at 200 degrees for forty minutes."
PARAPHRASE = "Hit Ctrl+P so the printing dialog appears."


@pytest.fixture(scope="module")
def page(corpus):
    return corpus.get(DOC)


def test_rouge_matches_the_benchmark_rouge_on_real_pairs(page, corpus):
    from eval.rouge import rouge_l

    other = corpus.get("based-cooking/lasagna.md")
    cands = [COPIED, PARAPHRASE, MADE_UP, "Go to the Page Setup tab", "", "print print print"]
    refs = [s.text for s in snippets(page.text)] + [s.text for s in snippets(other.text)[:15]]
    for cand in cands:
        ours = rouge_l_f(cand, refs)
        for ref, value in zip(refs, ours, strict=True):
            assert value == pytest.approx(rouge_l(cand, ref).fmeasure, abs=1e-12), (cand, ref)


def test_snippets_keep_their_position_in_the_text(page):
    found = snippets(page.text)
    assert found and all(page.text[s.start:s.end] == s.text for s in found)
    assert any(s.text == COPIED for s in found)  # the list marker "1. " is not part of the step


def test_a_step_copied_from_the_page_is_grounded_by_rouge(page):
    (g,) = ground_steps([COPIED], page.text, source_id=DOC)
    assert g is not None and g.by == "rouge" and g.score == 1.0 and g.unit == DOC
    assert page.text[g.start:g.end] == g.snippet == COPIED


@pytest.mark.slow
def test_a_made_up_step_is_not_grounded_even_with_embeddings(page, embedder):
    assert ground_steps([MADE_UP], page.text) == [None]
    assert ground_steps([MADE_UP, "Restart the computer and reinstall the printer driver."], page.text,
                        embedder=embedder) == [None, None]


@pytest.mark.slow
def test_a_paraphrase_is_grounded_by_embedding_only(page, embedder):
    assert ground_steps([PARAPHRASE], page.text) == [None]  # ROUGE-L alone is not enough
    (g,) = ground_steps([PARAPHRASE], page.text, embedder=embedder)
    assert g is not None and g.by == "embedding"
    assert g.rouge <= 0.7 and g.distance < 0.25 and g.snippet == COPIED


def test_later_steps_are_found_near_the_earlier_ones():
    text = ("Open Settings.\nClick Network.\nSome text about something else entirely here.\n"
            "Other section.\nOpen Settings.\nClick Sound.\nClick Network.")
    first, second = ground_steps(["Click Sound.", "Click Network."], text)
    assert first is not None and second is not None
    # "Click Network." appears twice: the copy after "Click Sound." is taken, not the first one
    assert second.start == text.rindex("Click Network.")


def test_ground_answer_names_the_unit_each_step_comes_from(page, corpus):
    units = [Chunk(text=corpus.get("based-cooking/lasagna.md").text, meta={"doc_id": "lasagna"}),
             Chunk(text=page.text, meta={"doc_id": DOC})]
    out = ground_answer([MADE_UP, COPIED, "Fly to the moon."], units)
    assert out[0] is None and out[2] is None
    assert isinstance(out[1], StepGrounding) and out[1].unit == units[1].id
    assert grounded_rate(out) == pytest.approx(1 / 3)
    assert grounded_rate([]) == 0.0


def test_no_source_or_empty_steps_ground_nothing():
    assert Grounder().ground(["Open it."], []) == [None]
    assert Grounder().ground(["", "..."], [Source("x", "Open it.")]) == [None, None]


class CountingEmbedder:
    """Wraps the real embedder and remembers every text it was asked to encode."""

    def __init__(self, embedder: object) -> None:
        self.embedder = embedder
        self.name = "counting"
        self.encoded: list[str] = []

    def encode(self, texts: list[str], *, progress: bool = False) -> object:
        self.encoded += texts
        return self.embedder.encode(texts)  # type: ignore[attr-defined]


@pytest.mark.slow
def test_vectors_are_made_only_where_they_can_decide(page, embedder):
    counting = CountingEmbedder(embedder)
    grounder = Grounder(counting)  # type: ignore[arg-type]
    source = Source(DOC, page.text)
    (copied,) = grounder.ground([COPIED], [source])
    # a ROUGE-L match wins over any embedding-only one: only the step and its snippet are encoded
    assert copied is not None and copied.by == "rouge" and copied.distance < 0.25
    assert sorted(counting.encoded) == sorted({COPIED})  # the step is its own snippet
    (paraphrase,) = grounder.ground([PARAPHRASE], [source])
    assert paraphrase is not None and paraphrase.by == "embedding"
    assert set(counting.encoded) == {PARAPHRASE} | {s.text for s in source.snippets}


SHARED_MAILBOX = "officedocs/Exchange/ExchangeOnline/user-and-shared-mailboxes/sent-mail-is-not-saved.md"


@pytest.mark.parametrize(("doc_id", "first", "last"), [
    # a numbered step with the registry key and the note nested under it
    (SHARED_MAILBOX, "Locate and then click the following registry subkey", "14.0 = Office 2010)."),
    # a sentence with the command block it introduces
    (SHARED_MAILBOX, "Using [Exchange PowerShell]", "-MessageCopyForSentAsEnabled $True\n```"),
    # a numbered step of five sentences on one line
    ("based-cooking/sourdough-starter.md", "Storing the starter", "use the starter next time."),
])
def test_a_step_written_from_a_whole_block_is_grounded_in_that_block(corpus, doc_id, first, last):
    from procmem.answerers.prose import plain_text

    text = corpus.get(doc_id).text
    start = text.index(first)
    block = text[start:text.index(last, start) + len(last)]
    step = plain_text(block)  # the block as one step, markup dropped, as the answerers write it
    assert any(s.text == block for s in snippets(text))
    (g,) = ground_steps([step], text)  # ROUGE-L alone: no embedding is needed
    assert g is not None and g.by == "rouge" and g.snippet == block
    assert text[g.start:g.end] == block


def test_a_list_item_ends_where_its_nested_lines_end():
    text = ("1. Open the panel.\n\n   > Note: it may take a while.\n"
            "[CROSS] if you need details then read more\n2. Click Save.\n")
    blocks = {s.text for s in snippets(text)}
    assert "Open the panel.\n\n   > Note: it may take a while." in blocks
    assert not any("[CROSS]" in b and "Open the panel" in b for b in blocks)


def test_a_step_that_gives_a_links_words_is_grounded_in_the_sentence_with_the_link():
    """A page's sentence links each directive to its reference; the step says the directives'
    names, which the links' targets would outweigh."""
    text = ("Use of the [`RequireAll`](../mod/mod_authz_core.html#requireall), [`RequireAny`]"
            "(../mod/mod_authz_core.html#requireany), and [`RequireNone`](../mod/mod_authz_core.html#requirenone) "
            "directives may be used to enforce more complex sets of requirements.")
    step = ("Use of the RequireAll, RequireAny, and RequireNone directives may be used to enforce more complex "
            "sets of requirements.")
    (found,) = ground_steps([step], text)
    assert found is not None and found.by == "rouge" and found.snippet == text


def test_a_sentence_that_opens_with_markup_is_a_snippet_of_its_own():
    """The installation guide's "*`driver`* should be replaced by ..." and Python's
    "*group* should always be None" open with emphasis or code: a sentence ends before them, so
    a step that is that sentence alone is grounded in it."""
    text = ("Hardware speech synthesis devices cannot be automatically detected. You thus need to append "
            "the **`speakup.synth=driver`** boot parameter to tell `speakup` which driver it should use. "
            "*`driver`* should be replaced by the driver code for your device (see [driver code list]"
            "(http://www.linux-speakup.org/spkguide.txt)). The textual version of the installer will then "
            "be automatically selected, and support for the speech synthesis device will be installed.")
    step = "driver should be replaced by the driver code for your device (see driver code list)."
    (found,) = ground_steps([step], text)
    assert found is not None and found.by == "rouge"
    assert found.snippet.startswith("*`driver`* should be replaced")


def test_a_step_that_runs_a_one_word_command_is_grounded_in_its_code_block():
    """The answerer says "Run `reboot`" for a code block of its own; the page never says "Run",
    and with one word of code the step's ROUGE-L against the block was 0.67."""
    text = "Restart the machine to load the new kernel.\n\n```\nreboot\n```\n\nThen log in again."
    found = ground_steps(["Run `reboot`", "Run reboot.", "Run the installer."], text)
    assert [g.snippet.strip("`\n ") if g else None for g in found] == ["reboot", "reboot", None]


def test_a_sentence_that_ends_inside_the_quotation_it_closes_is_a_snippet_of_its_own():
    """A screen reader's speech preferences: "… Orca might speak "Echo set to word." If you would
    prefer shorter messages, …". The step that is the second sentence was marked as not found
    in its sources: the snippet ran on from the sentence before it."""
    text = ("For instance, if you use Orca's command to change echo, Orca might speak \"Echo set to word.\" If you "
            "would prefer shorter messages, such as simply \"word,\" you should uncheck this checkbox.")
    step = "If you would prefer shorter messages, such as simply \"word,\" you should uncheck this checkbox."
    (found,) = ground_steps([step], text)
    assert found is not None and found.by == "rouge"
    assert found.snippet.startswith("If you would prefer shorter messages")
