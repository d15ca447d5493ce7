"""Pages in several languages: each page's language read from its words, and a search in the
language of the question (:mod:`procmem.retrieval.language`)."""

from __future__ import annotations

from typing import Any

import pytest

from procmem.memory import build_memory
from procmem.retrieval.language import document_languages, text_language
from tests.support.translated_pages import translated_pages


@pytest.mark.parametrize(("text", "language"), [
    ("How do I read a file line by line?", "en"),
    ("How do I parse a string into a number?", "en"),
    ("¿Cómo leo un archivo línea por línea?", "es"),
    ("Wie kann ich die Datei mit dem Editor öffnen?", "de"),
    ("Comment est-ce que je peux ouvrir le fichier dans un terminal ?", "fr"),
    ("ファイルを1行ずつ読むには？", "ja"),
    ("如何逐行读取文件？", "zh"),
    ("파일을 한 줄씩 읽는 방법", "ko"),
    ("cargo clippy --fix", ""),  # no function word: unknown
    ("Install Outlook", ""),
])
def test_a_texts_language_is_read_from_its_script_or_its_commonest_words(text: str, language: str) -> None:
    assert text_language(text) == language


def test_a_pages_language_is_read_from_its_prose_and_a_rare_reading_is_unknown() -> None:
    code = "```rust\nenum A { B, C }\nfn bar(foo: A) { match foo { A::B => (), _ => {} } }\n```"
    english = "Something which is neither a tuple struct nor a tuple variant was used as a pattern. "
    texts = {f"page{i}": [f"{english}\n{code}"] for i in range(60)}
    texts["odd"] = ["Um erro de padrão: o que não é uma tupla não pode ser usado como padrão."]
    found = document_languages(texts)
    assert {found[f"page{i}"] for i in range(60)} == {"en"}
    assert found["odd"] == ""  # one page of 61 in a language: taken for a misreading


def test_a_search_keeps_to_the_language_of_the_question(embedder: Any) -> None:
    memory = build_memory(translated_pages(), embedder=embedder, progress=False)
    languages = memory.page_languages()
    assert {languages[d] for d in languages if d.startswith("ja/")} == {"ja"}
    assert {languages[d] for d in languages if d.startswith("es/")} == {"es"}
    assert {languages[d] for d in languages if d[:3] not in ("ja/", "es/")} == {"en"}
    for question, prefix in [("How do I read a file line by line?", ""),
                             ("ファイルを1行ずつ読むにはどうすればいいですか？", "ja/"),
                             ("¿Cómo se lee un archivo línea por línea?", "es/")]:
        hits = memory.search(question, k=10, kind=["logic_unit", "chunk", "document"])
        docs = [h.unit.meta["doc_id"] for h in hits]
        assert docs[0] == f"{prefix}files/read-lines.md", question
        assert all(languages[d] == languages[docs[0]] for d in docs), question
    # a question whose language the memory's pages are not in, or that says too little, searches them all
    found = {h.unit.meta["doc_id"][:3] for h in memory.search("cargo test", k=10, kind="chunk")}
    assert {"ja/", "es/"} <= found


def test_pages_in_one_language_need_no_language_to_search(embedder: Any) -> None:
    memory = build_memory(translated_pages(("en",)), embedder=embedder, progress=False)
    assert memory.search_language("How do I read a file line by line?") is None
    assert all(index.languages is None for index in memory.index().kinds.values())
