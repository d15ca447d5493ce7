"""What a user quotes, and the documents that hold it: a pasted error message finds its page.

The search test runs over real Office articles with real rule-based extraction, real BM25 and
the real embedding model.
"""

from __future__ import annotations

import pytest

from inscoqa.bundled import load_sample
from procmem.memory import build_memory
from procmem.retrieval.quotes import (
    documents_naming,
    documents_quoting,
    named_codes,
    quoted_fragments,
    quoting_first,
)


def test_quoted_passages_of_three_words_or_more_split_where_the_user_left_words_out():
    assert quoted_fragments("OWA says 'The following files couldn't be attached: ... Please try again later.'") == [
        "The following files couldn't be attached", "Please try again later."]
    assert quoted_fragments('It shows “Cannot open the file” and "Access is denied here"') == [
        "Cannot open the file", "Access is denied here"]
    # labels of one or two words, and apostrophes alone, are no quote
    assert quoted_fragments("Both the 'Anyone' option and 'Specific people' are grayed out; it's odd") == []


def test_a_document_holds_the_quotes_word_for_word_across_its_units_markup_aside():
    texts = {"help/error.md": ["The admin center says **You don't have sufficient permissions.**",
                               "This operation can only be performed by a [manager](groups.md) of the group."],
             "help/groups.md": ["A manager of the group can add members. You need permissions for that."]}
    quotes = ["You don't have sufficient permissions. This operation can only be performed by a manager of the group."]
    assert documents_quoting(texts, quotes) == {"help/error.md"}
    assert documents_quoting(texts, []) == set()


def test_a_code_of_dotted_numbers_is_named_whole():
    assert named_codes("It fails with 550 5.7.13, and 5.7.13 again, on 4.4.0 (not 2.5)") == ["5.7.13", "4.4.0"]
    texts = {"ndr/5-7-13.md": ["Error 550 5.7.13 means ..."], "ndr/5-7-133.md": ["Error 5.7.133 means ..."],
             "ndr/both.md": ["5.7.13.", "Version 4.4.0 adds ..."], "ndr/4-4-0-1.md": ["5.7.13 on 4.4.0.1"]}
    assert documents_naming(texts, ["5.7.13"]) == {"ndr/5-7-13.md", "ndr/both.md", "ndr/4-4-0-1.md"}
    assert documents_naming(texts, ["5.7.13", "4.4.0"]) == {"ndr/both.md"}
    assert documents_naming(texts, []) == set()


def test_the_best_result_of_each_quoting_document_comes_first_the_rest_keep_their_order():
    found = [("a.md", "how to manage groups"), ("b.md", "error: access is denied here"),
             ("a.md", "more on groups"), ("b.md", "the fix"), ("c.md", "access is denied here too")]
    order = quoting_first(found, ["access is denied here"], lambda f: f[0], lambda f: f[1])
    assert order == [found[1], found[4], found[0], found[2], found[3]]
    assert quoting_first(found, [], lambda f: f[0], lambda f: f[1]) == found


GROUPS = "officedocs/Exchange/ExchangeOnline/groups-and-distribution-lists/"


@pytest.fixture(scope="module")
def group_pages(corpus, embedder):
    """A hybrid memory over the Office articles on managing distribution groups."""
    docs = [d for d in corpus.iter_documents()
            if "groups-and-distribution-lists/" in d.doc_id or "distribution-group" in d.doc_id]
    return build_memory(docs, embedder=embedder, progress=False)


def test_a_question_that_quotes_an_error_finds_the_page_that_quotes_it_first(group_pages):
    # the history is about keeping interns from creating groups (the page on preventing it);
    # the last question pastes the admin center's error, which one article quotes word for word
    conv = next(c for c in load_sample() if c.id == "dev-ods-007")
    assert quoted_fragments(conv.question)

    hits = group_pages.search_conversation(conv.history, conv.question, k=10)

    assert hits[0].doc_id == GROUPS + "no-sufficient-permissions-moving-dg.md", [h.doc_id for h in hits]
    assert [h.rank for h in hits] == list(range(1, len(hits) + 1))
    assert all(a.score >= b.score for a, b in zip(hits, hits[1:], strict=False))
