"""An irregular verb form is searched as its base form ("hidden" as "hide"), in the BM25 index
and in a memory built from documents."""

from __future__ import annotations

from typing import Any

from inscoqa.corpus.document import Document
from procmem.memory import build_memory
from procmem.retrieval.bm25 import tokenize
from procmem.retrieval.verbs import BASE_FORM


def test_irregular_forms_share_the_stem_of_their_base_form() -> None:
    assert tokenize("hide hides hiding hid hidden") == ["hide"] * 5
    assert tokenize("forgot password") == tokenize("forget password") == tokenize("forgotten password")
    assert tokenize("overwritten") == tokenize("overwrite")
    # words that technical prose uses in other senses stay themselves
    assert tokenize("as shown below: file not found, a built-in") == ["shown", "below", "file", "found", "built"]
    assert not {"bit", "left", "saw", "won", "stuck", "led"} & BASE_FORM.keys()


def test_a_question_in_the_base_form_finds_the_page_in_the_past_participle(embedder: Any) -> None:
    pages = [
        Document("doc-hidden.md", "Hidden items",
                 "# `#[doc(hidden)]`\n\nItems marked `#[doc(hidden)]` are left out of the documentation.\n",
                 {"corpus": "site"}),
        Document("doc-inline.md", "Inlining",
                 "# `#[doc(inline)]`\n\nAn item re-exported with `#[doc(inline)]` has its documentation in place: "
                 "the item's documentation shows in the documentation of the crate that re-exports the item.\n",
                 {"corpus": "site"}),
        Document("forgotten.md", "Forgotten password",
                 "# Reset a forgotten password\n\n1. Open the sign-in page.\n2. Select Reset.\n", {"corpus": "site"}),
        Document("change.md", "Change your password",
                 "# Change your password\n\nA password is changed from your profile: enter the password you have "
                 "and the new password.\n", {"corpus": "site"}),
    ]
    memory = build_memory(pages, embedder=embedder, progress=False)

    def first(question: str) -> str:
        return memory.search(question, k=1, kind="logic_unit", method="bm25")[0].unit.meta["doc_id"]

    assert first("How do I hide an item from the documentation?") == "doc-hidden.md"
    assert first("I forgot my password") == "forgotten.md"
