"""Links between documents in a ranking.

A document's logic units carry CROSS linkers to the documents its text links to. The documents
of one conversation tend to link to each other (the recipe to its sauce, the setting to the page
that explains it), so the documents that the best result's documents link to are lifted: the
best unit of each gains a share of the best score, never reaching it. A document that links to
many documents (a glossary, a contents page, a navigation bar) shares that gain among them: what a
hub links to says little of what the question asks (a help's lexicon that links to sixteen pages
lifted all of them over the page that answers).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Sequence

from procmem.retrieval.index import unit_doc_ids
from procmem.units import LogicUnit, Unit

LINK_TAG = "CROSS"
# the best result's documents lift up to this many linked documents by the whole weight; more
# share it (each gains weight x FULL_LIFT_LINKS / their number)
FULL_LIFT_LINKS = 3


def document_links(units: Iterable[Unit], known: Container[str]) -> dict[str, list[str]]:
    """For each document, the ``known`` documents its logic units' CROSS linkers point to, in
    the order they come (a document does not link to itself)."""
    found: dict[str, dict[str, None]] = {}
    for unit in units:
        if not isinstance(unit, LogicUnit):
            continue
        targets = [link.target for link in unit.linker if link.tag == LINK_TAG and link.target in known]
        for source in unit_doc_ids(unit):
            found.setdefault(source, {}).update(dict.fromkeys(t for t in targets if t != source))
    return {doc: list(targets) for doc, targets in found.items()}


def lift_linked(doc_ids: Sequence[Sequence[str]], scores: Sequence[float],
                links: Callable[[str], Sequence[str]], weight: float) -> list[float]:
    """Scores of a ranking (best first; ``doc_ids[i]`` the documents of result ``i``) in which
    the first result of each document linked from the best result's documents gains ``weight``
    times the best score, capped at 99 % of the way up to it (so lifted results keep their
    order among themselves and stay below the best); when the best result's documents link to
    more than :data:`FULL_LIFT_LINKS` documents, each gains that share of it."""
    lifted = list(scores)
    if weight <= 0 or len(scores) < 2:
        return lifted
    best, sources = scores[0], set(doc_ids[0])
    linked = {target for doc in sources for target in links(doc)} - sources
    gain = weight * best * min(1.0, FULL_LIFT_LINKS / max(len(linked), 1))
    for i in range(1, len(scores)):
        found = linked.intersection(doc_ids[i])
        if found:
            linked -= found
            lifted[i] = min(scores[i] + gain, best - 0.01 * (best - scores[i]))
    return lifted
