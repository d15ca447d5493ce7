"""Names joined with underscores (``html_logo_url``) are found by their words, in the BM25 index,
in the extractive answerer's scores, and in a memory saved before they were."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.identifier_pages import pages

import procmem.memory
from procmem.answerers import AnswerRequest, make_answerer
from procmem.memory import Memory, build_memory
from procmem.retrieval.bm25 import STOPWORDS, TOKEN, stems, tokenize


def test_a_name_joined_with_underscores_is_a_token_and_so_are_its_words() -> None:
    assert tokenize("Set html_logo_url") == ["set", "html_logo_url", "html", "logo", "url"]
    assert tokenize("the __init__ method") == ["__init__", "method"]  # no words joined: one token
    assert tokenize("a_b the_end") == ["a_b", "the_end", "end"]  # a word of one letter, a stop word: no token of its own


def _lexical_units(memory: Memory, question: str) -> list[str]:
    return [h.unit.header.split(" (")[0] for h in memory.search(question, k=3, kind="logic_unit", method="bm25")]


def test_a_question_finds_a_setting_by_a_word_of_its_name(embedder: Any) -> None:
    memory = build_memory(pages(), embedder=embedder, progress=False)
    assert _lexical_units(memory, "How do I add a logo?")[0] == "`html_logo_url`"
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("How do I add my logo to the generated docs?"))
    scores = next(stage.details["scores"] for stage in answer.trace.stages if stage.name == "compose")
    assert memory.get(scores[0]["unit_id"]).header.startswith("`html_logo_url`")  # the answerer's terms too
    assert any("html_logo_url" in step for step in answer.procedures)


def _tokenize_whole_names(text: str) -> list[str]:
    """The tokens before a name's words were its tokens too."""
    return stems([w for w in TOKEN.findall(text.lower()) if w not in STOPWORDS])


def test_a_memory_saved_with_other_tokens_is_searched_with_the_current_ones(
        embedder: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as old:
        old.setattr(procmem.memory, "tokenize", _tokenize_whole_names)
        old.setattr(procmem.memory, "TOKENIZER_NAME", "regex-w2+/stopwords-en/snowball-english")
        memory = build_memory(pages(), embedder=embedder, progress=False)
        assert "`html_logo_url`" not in _lexical_units(memory, "How do I add a logo?")  # no word of it
        memory.save(tmp_path / "memory")
    loaded = Memory.load(tmp_path / "memory")
    assert _lexical_units(loaded, "How do I add a logo?")[0] == "`html_logo_url`"


def test_a_code_of_dotted_numbers_is_a_token_and_so_are_its_numbers() -> None:
    assert tokenize("fails with 5.7.57 on 192.168.1.42") == ["fail", "5.7.57", "57", "192.168.1.42", "192", "168", "42"]
    assert tokenize("add 2.5 cups") == ["add", "cup"]  # two numbers: a quantity, no code


NDR_PAGES = "officedocs/Exchange/ExchangeOnline/email-delivery/ndr/"


def test_a_question_quoting_a_status_code_finds_the_page_on_that_code(corpus: Any, embedder: Any) -> None:
    """Real pages on Exchange Online's status codes ("550 5.1.0", "550 4.4.7", "550 5.6.11",
    "5.7.57", …): the numbers of a code are no words of their own (one character) or words of
    other codes and pages ("11", "57"); the page that quotes the whole code comes first."""
    folder = corpus.path(f"{NDR_PAGES}non-delivery-reports-in-exchange-online.md").parent
    documents = [corpus.get(f"{NDR_PAGES}{path.name}") for path in sorted(folder.glob("*.md"))]
    memory = build_memory(documents, embedder=embedder, progress=False)
    for code in ("550 5.1.0", "550 4.4.7", "550 5.6.11", "5.7.57"):
        hits = memory.search(f"Every message fails with {code}. What should I check?", k=1, method="bm25")
        page = code.replace(" ", "-").replace(".", "-")
        assert hits[0].doc_id == f"{NDR_PAGES}fix-error-code-{page}-in-exchange-online.md", code

    # the default search: the pages that name the code the question names come first
    for code in ("5.7.1", "5.1.10", "5.7.133", "5.7.12"):
        hits = memory.search(f"Every message fails with {code}. What should I check?", k=1)
        assert f"-{code.replace('.', '-')}-" in hits[0].doc_id, code
