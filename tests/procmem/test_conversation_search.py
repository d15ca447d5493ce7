"""A conversation's search: the history decides which units lead, the last question alone which
of them comes first.

A bundled conversation over the real recipes, with real rule-based extraction, real BM25 and the
real embedding model.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from inscoqa.bundled import load_sample
from inscoqa.corpus.document import Document
from procmem.memory import build_memory
from procmem.records import Hit
from procmem.retrieval.bm25 import tokenize
from procmem.retrieval.fusion import reorder_head
from procmem.retrieval.query import terms
from procmem.search import headers_first
from procmem.units import LogicUnit, asks


def test_the_head_is_reordered_by_reciprocal_rank_with_the_other_ranking():
    ranked = ["a", "b", "c", "d", "e"]
    # c leads the other ranking: 1/63 + 1/61 beats a's 1/61 alone; d is outside the window
    assert reorder_head(ranked, ["c", "d"], window=3, weight=1.0, k=60) == [2, 0, 1, 3, 4]
    # a light weight cannot lift c past a and b
    assert reorder_head(ranked, ["c"], window=3, weight=0.01, k=60) == [0, 1, 2, 3, 4]
    assert reorder_head(ranked, [], window=5, weight=1.0) == [0, 1, 2, 3, 4]
    assert reorder_head([], ["a"], window=5, weight=1.0) == []


@pytest.fixture(scope="module")
def breads(corpus, embedder):
    """A hybrid memory over the bundled pizza and bread recipes."""
    docs = [d for d in corpus.iter_documents() if d.doc_id.startswith("based-cooking/")
            and any(word in d.doc_id for word in ("pizza", "dough", "bread"))]
    return build_memory(docs, embedder=embedder, progress=False)


@pytest.fixture(scope="module")
def pizza():
    # the history is about starting the dough; the last question asks for the sauce and the
    # baking: the pan pizza and pizza sauce pages
    return next(c for c in load_sample() if c.id == "dev-cook-002")


def searched(memory, conv, weight, **kwargs):
    config = memory.config
    try:
        memory.config = replace(config, question_weight=weight)
        if kwargs.pop("documents", False):
            return memory.search_documents_conversation(conv.history, conv.question, k=4, **kwargs)
        return memory.search_conversation(conv.history, conv.question, k=6, **kwargs)
    finally:
        memory.config = config


DOUGH = "based-cooking/no-knead-pizza-dough.md"
EVIDENCE = {"based-cooking/pan-pizza.md", "based-cooking/pizza-sauce.md"}


def test_the_last_question_orders_the_leading_units(breads, pizza):
    assert set(pizza.evidence) >= EVIDENCE
    plain, ordered = searched(breads, pizza, 0.0), searched(breads, pizza, 0.5)
    # without the question, the dough (the history's topic) is among the first two; with it, the
    # two pages the question asks for lead (what comes third moves with the int8 vectors' noise)
    assert DOUGH in {h.doc_id for h in plain[:2]}
    assert {h.doc_id for h in ordered[:2]} == EVIDENCE
    # the same five units lead, in another order; what follows them is untouched
    assert {h.unit.id for h in ordered[:5]} == {h.unit.id for h in plain[:5]}
    assert ordered[5].unit.id == plain[5].unit.id
    assert [h.rank for h in ordered] == list(range(1, 7))
    assert [h.score for h in ordered] == [h.score for h in plain]  # a place keeps its score


def test_documents_ranked_from_their_units_are_ordered_by_the_question_too(breads, pizza):
    plain = [d.doc_id for d in searched(breads, pizza, 0.0, documents=True)]
    ordered = [d.doc_id for d in searched(breads, pizza, 0.5, documents=True)]
    assert DOUGH in plain[:2]
    assert set(ordered[:2]) == EVIDENCE


def test_a_first_question_other_kinds_and_bm25_alone_are_not_reordered(breads, pizza):
    first = replace(pizza, history=[])
    assert [h.unit.id for h in searched(breads, first, 0.0)] == \
        [h.unit.id for h in searched(breads, first, 0.5)]
    for options in ({"kind": "document"}, {"kind": "procedure"}, {"method": "bm25"}):
        assert [h.unit.id for h in searched(breads, pizza, 0.0, **options)] == \
            [h.unit.id for h in searched(breads, pizza, 0.5, **options)], options


def test_a_first_question_is_searched_and_its_documents_ranked_as_asked(breads, pizza):
    """Without history, a conversation's search is the question's own: the same units, and the
    same documents (the extractive answerer's first pages) as a search for the question alone."""
    assert [(h.unit.id, h.score) for h in breads.search_conversation([], pizza.question, k=6)] == \
        [(h.unit.id, h.score) for h in breads.search(pizza.question, k=6)]
    assert [(d.doc_id, d.score) for d in breads.search_documents_conversation([], pizza.question, k=4)] == \
        [(d.doc_id, d.score) for d in breads.search_documents(pizza.question, k=4)]


def test_a_turns_searches_encode_each_text_once(breads, pizza, monkeypatch):
    """A turn searches its query and its last question for several kinds of unit and for the
    document ranking: each text is encoded once, and the results are those of fresh vectors."""
    from procmem.retrieval.query import conversation_query

    question = f"{pizza.question} (once more)"  # a text no other test searched for
    fresh = [h.unit.id for h in breads.search_conversation(pizza.history, question, k=6)]
    breads.query_vectors = type(breads.query_vectors)()  # forget what was kept
    encoded: list[str] = []
    encode = breads.embedder.encode
    monkeypatch.setattr(breads.embedder, "encode",
                        lambda texts, **kw: encoded.extend(texts) or encode(texts, **kw))
    first = breads.search_conversation(pizza.history, question, k=6)
    breads.search_documents_conversation(pizza.history, question, k=4)
    again = breads.search_conversation(pizza.history, question, k=6)
    query = conversation_query(pizza.history, question, turns=breads.config.history_turns)
    assert sorted(encoded) == sorted([query, question])
    assert [h.unit.id for h in first] == [h.unit.id for h in again] == fresh


def test_a_how_to_question_puts_definitions_after_the_steps():
    from procmem.records import Hit
    from procmem.search import definitions_last
    from procmem.units import LogicUnit

    def unit(kind: str, header: str) -> LogicUnit:
        return LogicUnit(kind, "", header, f"{header} body", [], {"doc_id": header, "title": header})

    hits = [Hit(unit("Terminology", "IP address"), 0.9, 1, "hybrid"),
            Hit(unit("Step", "Use a static IP address"), 0.8, 2, "hybrid"),
            Hit(unit("FAQ", "Why does my address change?"), 0.7, 3, "hybrid"),
            Hit(unit("Terminology", "Subnet"), 0.6, 4, "hybrid")]
    moved = definitions_last(hits, window=3)
    assert [h.unit.header for h in moved] == ["Use a static IP address", "Why does my address change?",
                                              "IP address", "Subnet"]
    assert [h.score for h in moved] == [0.9, 0.8, 0.7, 0.6] and [h.rank for h in moved] == [1, 2, 3, 4]
    assert definitions_last(hits[1:3], window=3) == hits[1:3]


@pytest.mark.parametrize(("question", "how"), [
    ("So how do I give it a fixed address that stays put?", True),
    ("How to print on both sides", True),
    ("He also can't hold Ctrl down. Can that be fixed too, and how does he switch both on?", True),
    ("How can she find the meeting ID?", True),
    ("How do they get the files back?", True),
    ("I want to add my own keyboard shortcut to open a terminal. How?", True),
    ("How?", True),
    ("I'm nervous about losing mail. Is there a way to trial these rules first?", True),
    ("Is it possible to print only part of it?", True),
    ("Is there a newer version of the guide?", False),
    ("What is an IP address?", False),
    ("How does it work?", False),  # how something works, not how to do it
    ("How does this setting interact with the proxy?", False),
    ("It stopped working overnight. How so?", False),
    ("How much flour goes in?", False),
])
def test_a_question_asks_how_to_do_something(question, how):
    from procmem.retrieval.query import asks_how_to

    assert asks_how_to(question) is how


def test_a_section_whose_header_asks_the_question_comes_first(embedder):
    """The Valgrind FAQ's case: a question that is an FAQ entry's header word for word; BM25
    finds the entry first and the dense side may not find it at all. The entry leads, while
    a header that shares only some of the question's words does not."""
    faq = ("# Checker FAQ\n\n## The checker reports no errors and I know my program has errors.\n\n"
           "There are two causes. By default only the top process is traced: use --trace-children=yes. "
           "A statically linked program is not checked either.\n\n"
           "## Programs run slowly under the checker\n\nThat is expected: each access is checked.\n")
    manual = "\n\n".join(f"## Reporting errors, part {n}\n\nThe checker reports errors it finds in program "
                         f"{n} as they happen, with the stack of each error." for n in range(8))
    docs = [Document("tool/faq.md", "Checker FAQ", faq, {"format": "markdown"}),
            Document("tool/manual.md", "Checker manual", f"# Checker manual\n\n{manual}\n", {"format": "markdown"})]
    memory = build_memory(docs, embedder=embedder, progress=False)
    question = "The checker reports no errors and I know my program has errors."
    first = memory.search(question, k=3)[0]
    assert first.unit.header.startswith("The checker reports no errors and I know my program has errors.")

    wanted = set(tokenize(question))
    entry = LogicUnit("FAQ", "", "The checker reports no errors and I know my program has errors. (Checker FAQ)",
                      "There are two causes.", [], {"doc_id": "tool/faq.md", "title": "Checker FAQ"})
    later = LogicUnit("FAQ", "", f"{entry.header} (part 2 of 2)", "More.", [], dict(entry.meta))
    loose = LogicUnit("Step", "", "Reporting errors of a program", "1. Run it.", [], {"doc_id": "tool/manual.md"})
    assert asks(entry, wanted, tokenize) and not asks(later, wanted, tokenize) and not asks(loose, wanted, tokenize)
    # the page's subject that the question names ("in the checker") is no part of what it asks
    rename = LogicUnit("FAQ", "", "How do I rename a repository? (Checker FAQ)", "Move its folder.", [],
                       {"doc_id": "tool/faq.md", "title": "Checker FAQ"})
    assert asks(rename, set(tokenize("How do I rename a checker repository?")), tokenize)
    assert not asks(rename, set(tokenize("How do I rename a checker repository on a remote server over ssh?")), tokenize)
    # nor is the product's name that an entry's header carries and the question leaves out
    black = LogicUnit("FAQ", "", "When I run Tux Paint full-screen and Alt+Tab out, the window turns black! "
                      "(Tux Paint FAQ)", "A bug of the toolkit.", [], {"doc_id": "tux/faq.md", "title": "Tux Paint FAQ"})
    assert asks(black, set(terms("When I Alt+Tab out of full screen the window turns black. How can I fix that?")),
                terms)
    assert not asks(black, set(terms("The window turns black. How can I fix that?")), terms)
    hits = [Hit(loose, 0.9, 1, "hybrid"), Hit(later, 0.5, 2, "hybrid")]
    ordered = headers_first(hits, [Hit(entry, 3.0, 1, "bm25"), Hit(loose, 2.0, 2, "bm25")], question)
    assert [h.unit.id for h in ordered] == [entry.id, loose.id, later.id]
    assert [h.score for h in ordered] == [0.9, 0.5, 0.5] and [h.rank for h in ordered] == [1, 2, 3]
    assert headers_first(hits, [Hit(loose, 2.0, 1, "bm25")], question) == hits


def test_a_section_whose_header_names_the_asked_task_comes_first(embedder):
    """Evolution's help: "How do I create a contact list?" asks the section "Creating a contact
    list", compared without the words of asking; the shortcut table that says "Create a new
    contact list." word for word does not come first."""
    shortcuts = ("# Shortcut keys\n\n## Contacts\n\n| Shift+Ctrl+C | Create a new contact. |\n|---|---|\n"
                 "| Shift+Ctrl+L | Create a new contact list. |\n| Ctrl+Delete | Delete the selected contact. |\n")
    lists = ("# Using Contact Lists\n\nA contact list is a set of contacts with a single nickname that you create. "
             "When you send mail to this nickname it goes to every contact of the list.\n\n"
             "## Creating a contact list\n\n1. Click File > New > Contact List.\n2. Enter a name that you prefer.\n"
             "3. Select the address book under Where.\n4. Drag contacts into the list and click OK.\n\n"
             "## Deleting a contact list\n\n1. Right-click the list.\n2. Click Delete.\n")
    docs = [Document("help/shortcuts.page", "Shortcut keys", shortcuts, {"format": "markdown"}),
            Document("help/contact-lists.page", "Using Contact Lists", lists, {"format": "markdown"})]
    memory = build_memory(docs, embedder=embedder, progress=False)
    first = memory.search("How do I create a contact list?", k=3)[0]
    assert first.unit.header.startswith("Creating a contact list")


def test_a_page_read_as_one_unit_is_asked_by_its_titles_own_words():
    """The Debian Handbook's page titles name their chapter in brackets; a section number and
    the chapter are no words the question must say, nor words that ask it."""
    title = "11.5. Setting Up Windows Shares with Samba (Network Services: Postfix, Apache, NFS, Samba, Squid)"
    samba = LogicUnit("Appendix", "", title, "Samba serves files to Windows machines.", [],
                      {"doc_id": "hb/samba.html", "title": title})
    assert not asks(samba, set(terms("How do I set up an NFS share?")), terms)
    assert asks(samba, set(terms("How do I set up Windows shares?")), terms)


def test_headers_ask_in_all_their_words_and_a_follow_up_not_by_its_task_alone(breads):
    """A header that is the question in all its words leads though none of them is a task's;
    of two pages' sections that ask a first question, the one the search ranks first leads; a
    follow-up ("How do I delete it?", "Can I save that search?") asks no header by its task's
    words alone: what it is about, the history holds."""
    trash = LogicUnit("Step", "", "Moving a folder to Trash (Working with Files)", "Press Delete.", [],
                      {"doc_id": "desk/files.xml", "title": "Working with Files"})
    help_entry = LogicUnit("FAQ", "", "Where can I get more help? (Checker FAQ)", "Read the manual.", [],
                           {"doc_id": "tool/faq.md", "title": "Checker FAQ"})
    asked = headers_first([Hit(trash, 0.9, 1, "hybrid"), Hit(help_entry, 0.8, 2, "hybrid")], [],
                          "Where can I get more help?")
    assert [h.unit for h in asked] == [help_entry, trash]

    on_mail = LogicUnit("Step", "", "Saving a search (Searching mail)", "Click Save Search.", [],
                        {"doc_id": "help/mail-search.page", "title": "Searching mail"})
    on_calendars = LogicUnit("Step", "", "Saving a search (Searching calendars)", "Click Save Search.", [],
                             {"doc_id": "help/calendar-search.page", "title": "Searching calendars"})
    searched = [Hit(trash, 0.9, 1, "hybrid"), Hit(on_mail, 0.8, 2, "hybrid")]
    lexical = [Hit(on_calendars, 3.0, 1, "bm25"), Hit(on_mail, 2.0, 2, "bm25")]
    asked = headers_first(searched, lexical, "How do I save a search?")
    assert [h.unit for h in asked] == [on_mail, on_calendars, trash]
    assert headers_first(searched, lexical, "Can I save that search?", follow_up=True) == searched

    panel = LogicUnit("Step", "", "Deleting a Panel (Using the Panels)", "Right-click the panel, choose Delete.", [],
                      {"doc_id": "desk/panels.xml", "title": "Using the Panels"})
    assert asks(panel, set(terms("How do I delete it?")), terms)  # the unit alone would

    def ranked(text, n, by="hybrid"):
        return [Hit(panel, 2.0, 1, by)] if by == "bm25" else [Hit(trash, 0.9, 1, by), Hit(panel, 0.8, 2, by)]

    memory = breads  # any memory: arranging reads its settings and links
    query = "How do I delete it? How do I rename a folder?"
    assert [h.unit for h in memory.arrange(ranked, query, 2, asked="How do I delete it?")] == [trash, panel]
    first = "How do I delete a panel?"  # asked first, its query is the question
    assert [h.unit for h in memory.arrange(ranked, first, 2, asked=first)] == [panel, trash]
