"""Links between documents in the search: the documents the best unit's document links to come forward.

Real recipes, real rule-based extraction (their CROSS linkers) and real BM25; a BM25 memory
embeds nothing, so these run fast.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from procmem.memory import MemoryConfig, build_memory
from procmem.retrieval.links import lift_linked

LASAGNA = "based-cooking/lasagna.md"
LINKED = ["based-cooking/bolognese-sauce.md", "based-cooking/classic-bechamel-sauce.md",
          "based-cooking/ricotta-lasagna-filling.md"]
QUESTION = ("I'll make the Bolognese, but the béchamel looks fiddly with all that constant "
            "stirring. Can I skip it, and how do I assemble the lasagna then?")


def test_lifting_takes_the_first_result_of_each_linked_document_up_to_below_the_best():
    links = {"a": ["c", "d"], "c": ["b"]}.get
    docs = [["a"], ["b"], ["c"], ["c"], ["d"], ["e"]]
    scores = [1.0, 0.9, 0.5, 0.4, 0.3, 0.2]
    lifted = lift_linked(docs, scores, lambda d: links(d, []), weight=0.5)
    # c (first result only) and d gain half the best score, capped just below it; b is linked
    # from c, not from the best result, and stays
    assert lifted == pytest.approx([1.0, 0.9, 0.995, 0.4, 0.8, 0.2])
    assert lift_linked(docs, scores, lambda d: links(d, []), weight=0.0) == scores
    assert lift_linked([], [], lambda d: [], weight=0.5) == []


def test_a_document_that_links_to_many_shares_the_lift_among_them():
    """A glossary or a contents page links to most of its site: each page it links to gains a
    share of the lift (three links' worth in all), so a page that answers and that it does not
    link to is not pushed down by every page it does."""
    hub = [f"p{i}" for i in range(12)]
    docs = [["glossary"], ["answer"], *[[d] for d in hub]]
    scores = [1.0, 0.9] + [0.7 - 0.01 * i for i in range(12)]
    lifted = lift_linked(docs, scores, {"glossary": hub}.get, weight=0.5)
    assert lifted[2:] == pytest.approx([s + 0.5 * 3 / 12 for s in scores[2:]])
    assert max(lifted[2:]) < lifted[1] == 0.9
    few = lift_linked(docs[:5], scores[:5], {"glossary": hub[:3]}.get, weight=0.5)
    # three links or fewer: each gains the whole lift, capped just below the best
    assert few[2:] == pytest.approx([1 - 0.01 * (1 - s) for s in scores[2:5]])


@pytest.fixture(scope="module")
def recipes(corpus):
    docs = [d for d in corpus.iter_documents() if d.doc_id.startswith("based-cooking/")]
    return build_memory(docs, config=MemoryConfig(method="bm25"), progress=False)


def test_a_document_links_to_the_documents_its_units_cross_link(recipes):
    # "[Fresh Bolognese sauce](/bolognese-sauce)": a site-absolute link within the corpus
    assert recipes.links(LASAGNA) == LINKED
    assert recipes.links("based-cooking/no-such-recipe.md") == []


def test_the_documents_the_best_one_links_to_come_forward_without_passing_it(recipes):
    config = recipes.config
    try:
        recipes.config = replace(config, link_weight=0.0)
        plain = recipes.search(QUESTION, k=6)
        recipes.config = replace(config, link_weight=0.5)
        linked = recipes.search(QUESTION, k=6)
    finally:
        recipes.config = config
    assert plain[0].doc_id == linked[0].doc_id == LASAGNA
    assert plain[0].unit.id == linked[0].unit.id
    # without links, only the lasagna's own units and recipes that share words come first
    assert not set(LINKED) & {h.doc_id for h in plain}
    # with them, each linked recipe's best unit is among the six, below the best unit
    assert set(LINKED) <= {h.doc_id for h in linked}
    assert [h.rank for h in linked] == list(range(1, 7))
    assert all(h.score <= linked[0].score for h in linked)
    assert [h.score for h in linked] == sorted((h.score for h in linked), reverse=True)
    # one unit per linked document is lifted, not all of its units
    for doc_id in LINKED:
        assert sum(h.doc_id == doc_id for h in linked) == 1


def test_documents_ranked_from_their_units_follow_the_links_too(recipes):
    ranking = [d.doc_id for d in recipes.search_documents(QUESTION, k=4)]
    assert ranking[0] == LASAGNA and set(ranking[1:]) == set(LINKED)
