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
