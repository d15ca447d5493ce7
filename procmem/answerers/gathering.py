"""The candidates of an extractive answer: what the memory is searched for, for one turn.

The history-aware query, the last question alone and the message the user quotes are searched
for procedures and logic units; then the best units of the documents the memory ranks first
for the conversation, the other parts of the topics and of the sections split for size that
the first results are parts of, the sections a result introduces, and, when the user reports
that a step did not work, where the CONTINUE and MITIGATE linkers of what they tried lead.
Each candidate's retrieval score sums what each search gives it (:func:`candidates_from`).
"""

from __future__ import annotations

import re
from typing import Protocol

from procmem.answerers.base import AnswerRequest, Trace
from procmem.answerers.candidates import (
    ENTRY_ANSWERS_SHARE,
    Candidate,
    described_steps,
    manual_share,
    quoting_documents,
    share,
    topic_of,
)
from procmem.answerers.retrieval import Hit, Retriever, hit_record
from procmem.answerers.rewrite import StandaloneQuery
from procmem.answerers.sections import (
    FIRST_PART_OF,
    cautions_only,
    possibilities_only,
    steps_going_on,
)
from procmem.answerers.steps import unit_header, unit_steps, usage_options
from procmem.answerers.turn import Turn
from procmem.extract.markdown import SENTENCE_BREAK
from procmem.retrieval.query import terms
from procmem.units import LogicUnit, UnitKind, own_header, part_count, part_number


class SearchParams(Protocol):
    """What the searches take of the extractive answerer's parameters
    (:class:`procmem.answerers.extractive.ExtractiveParams`)."""

    k: int  # candidates per search
    unit_kind: UnitKind  # searched together with logic units
    top_documents: int  # the memory's first documents for the conversation (0: none)
    within_top_documents: int  # ... whose best units for the question are candidates (0: none)
    restates: float  # how close in meaning a header that asks the question in other words is (0: off)
    join_closeness: float  # candidates' closeness to the query is measured unless 0


# a unit the user has tried: this share of its steps' terms is in the last answer, which sums it
# up in a few words (step coverage 0.450 at 0.5, 0.453 at 0.35, 0.450 at 0.4)
TRIED_SHARE = 0.35
# ... or this share, when the last question reports on what the unit has the user do or check,
# in the last answer's words ("Both show MAPI Status OK" after a long check that the last answer
# summed up in one sentence; the same step coverage at 0.2, 0.1 and 0.0, the plain answer's
# W-ROUGE-L 0.1285, 0.1266 and 0.1251: below a fifth, units that only mention the words step back)
REPORTED_SHARE = 0.2
# a reference entry's header: a name as code, then what it is ("Backend_health - Backend health
# check", "`log_level`: how much to log")
NAMED_ENTRY = re.compile(r"^`?[\w.$-]*(?:_|[a-z][A-Z])[\w.$-]*`?\s*(?:\s[-–—]|:)\s")
# a sentence that sends the reader to another section for what it names: "The number of workspaces
# can be customized: see Adding Workspaces." (the section's header, perhaps quoted)
SEE_SECTION = re.compile(r"\b[Ss]ee (?:also )?(?:the )?[“\"']?(?P<target>[A-Z][^.;:()“”\"\n]{2,80}?)[”\"']?"
                         r"(?=\s*(?:[.;,)]|$| for\b| to\b| in\b| on\b| section\b| chapter\b))")
INTRODUCTIONS_FROM = 3  # each search's first units whose subsections are looked for
TOPIC_PARTS = 4  # the parts of a topic set out in labelled parts looked for with one of them
USAGE_PARTS = 50  # a command page's units looked through for the parts of its usage


def gather(trace: Trace, retriever: Retriever, request: AnswerRequest, turn: Turn, query: StandaloneQuery,
           p: SearchParams) -> tuple[list[Candidate], list[Hit]]:
    """The candidates of the answer, and every hit of the searches that found them (none: nothing
    found); the searches are the trace's "retrieve" stage, and following the linkers of what the
    user tried its "linker" stage."""
    kinds = list(dict.fromkeys([p.unit_kind, "logic_unit"]))
    with trace.stage("retrieve", query=query.query, k=p.k) as stage:
        searches: list[tuple[list[Hit], float]] = []
        used_kinds = []
        quoted = " ".join([*turn.quotes, *turn.codes])
        weights = {kind: retriever.rank_weight(kind) for kind in kinds}
        for kind in kinds:
            for text in dict.fromkeys([query.query, turn.question, quoted]):
                if text:
                    hits, used = retriever.search(text, k=p.k, kind=kind, question=(
                        query.question if text == query.query else None))
                    searches.append((hits, weights[kind]))
                    used_kinds.append(used)
        quoting = search_quoting(retriever, turn, kinds, p.k, searches) if quoted else []
        top_documents = retriever.documents(request.history, turn.question, k=p.top_documents)
        if top_documents and p.within_top_documents and request.documents is None:
            # the sections of the memory's first pages that answer best, found or not (given
            # documents are few, and searched already: step coverage 0.458 -> 0.446 there)
            for kind in kinds:
                hits, _ = retriever.search(query.query, k=p.within_top_documents, kind=kind,
                                           within=top_documents)
                searches.append((hits, weights[kind]))
        searches += topic_parts(retriever, searches, weights.get("logic_unit", 1.0))
        searches += first_parts(retriever, searches, turn, weights.get("logic_unit", 1.0))
        searches += next_parts(retriever, searches)
        searches += sections_below(retriever, searches, turn)
        candidates = candidates_from(searches)
        # a follow-up stays with the product the conversation opened with: that of the
        # first question's best unit (the follow-up's own first document may be another
        # product's, found by the words it shares: a mail reader's draft files for "dump
        # everything the build printed into a file" in a conversation about a terminal); the
        # memory's first documents for the conversation lift only units of that product, unless
        # the question names their page (the office suite's "Forgot password" article ranked
        # first for "I forgot my old one. What now?" after a password was changed on the desktop)
        opening, _ = retriever.search(request.history[0][0], k=1, kind="logic_unit") \
            if request.history else ([], None)
        first = Candidate(opening[0]) if opening else None
        for cand in candidates:
            cand.quoted = cand.doc_id in quoting
            cand.elsewhere = first is not None and cand.other_product(first)
            cand.top_document = cand.doc_id in top_documents and not cand.elsewhere \
                or bool(top_documents) and names_page(cand, turn)
        all_hits = [h for hits, _ in searches for h in hits]
        restating = mark_restating(retriever, turn, candidates, p.restates)
        pointed_to = mark_pointed_to(turn, candidates)
        close = retriever.closeness(query.query, [c.unit for c in candidates]) if p.join_closeness else None
        for cand, closeness in zip(candidates, close or [None] * len(candidates), strict=True):
            cand.closeness = closeness
        stage.details.update(kind=used_kinds[0] if used_kinds else p.unit_kind,
                             kinds=list(dict.fromkeys(used_kinds)),
                             hits=[hit_record(h) for h in searches[0][0]] if searches else [],
                             top_documents=top_documents, restating=restating, pointed_to=pointed_to)
        if quoted:
            stage.details.update(quotes=turn.quotes, codes=turn.codes, quoting_documents=quoting)
    if turn.reports_failure:
        follow_linkers(trace, retriever, turn, candidates)
    return candidates, all_hits


def candidates_from(searches: list[tuple[list[Hit], float]]) -> list[Candidate]:
    """One candidate per unit found, its retrieval the sum over the searches of its search's weight
    by its rank there (``weight / (3 + rank)``)."""
    found: dict[str, Candidate] = {}
    for hits, weight in searches:
        for hit in hits:
            cand = found.setdefault(hit.unit.id, Candidate(hit))
            cand.retrieval += weight / (3 + hit.rank)
    return list(found.values())


def names_page(candidate: Candidate, turn: Turn) -> bool:
    """Whether the question names the candidate's page: every word of a title of two or more
    ("Buying Shares" for "How do I buy shares?"), whether or not the conversation's document
    ranking has the page among its first (a neighbouring page, "Selling Shares", names the
    shares it buys more often); or every word but the verb it opens with, of a title of three or
    more words besides ("Put Varnish on port 80" for "How do I make Varnish listen on port 80?")."""
    said = terms(str(candidate.unit.meta.get("title", "")))
    title = set(said)
    return len(title) >= 2 and title <= turn.question_terms \
        or len(title - set(said[:1])) >= 3 and set(said[1:]) <= turn.question_terms


def topic_parts(retriever: Retriever, searches: list[tuple[list[Hit], float]],
                weight: float) -> list[tuple[list[Hit], float]]:
    """The other parts of the topics that the searches' first units are labelled parts of
    (:func:`topic_of`): a solution that is a block of code ranks far below the description
    of its problem ("Forbidding Image Hotlinking" > "Solution:", 13th for "How do I prevent
    other sites from hotlinking my images?")."""
    found: list[tuple[list[Hit], float]] = []
    firsts = {hits[0].unit.id: hits[0].unit for hits, _ in searches if hits}
    for unit in firsts.values():
        if topic := topic_of(unit):
            hits, _ = retriever.search(topic.rpartition(" > ")[2], k=TOPIC_PARTS, kind="logic_unit",
                                       within=[str(unit.meta.get("doc_id", ""))])
            found.append(([h for h in hits if topic_of(h.unit) == topic], weight))
    return found


def first_parts(retriever: Retriever, searches: list[tuple[list[Hit], float]], turn: Turn,
                weight: float) -> list[tuple[list[Hit], float]]:
    """The first parts of the sections split for size (into at most :data:`FIRST_PART_OF`
    parts) that the searches' first units, or units whose header says every word of the
    question, are later parts of: what a section says first (a command's description, a
    procedure's first steps) is where its answer starts, and need not share the question's
    words (aptitude's "`why` (part 2 of 3)" came first for "How can I find out why a package
    is installed?"; its part 1, "Explains the reason that a particular package should or
    cannot be installed" and `aptitude why kdepim`, was no candidate; the Handbook's
    "Installing Apache (Web Server (HTTP)) (part 2 of 2)", on its modules, was found for "How
    do I install a web server?", and its part 1, "Installing the apache2 package is all that
    is needed.", was not)."""
    found: list[tuple[list[Hit], float]] = []
    firsts = {hits[0].unit.id: hits[0].unit for hits, _ in searches if hits}
    if turn.question_terms:
        firsts.update((hit.unit.id, hit.unit) for hits, _ in searches for hit in hits
                      if turn.question_terms <= set(terms(unit_header(hit.unit))))
    for unit in firsts.values():
        if isinstance(unit, LogicUnit) and 1 < part_number(unit) <= part_count(unit) <= FIRST_PART_OF \
                and (first := retriever.part(unit, 1)) is not None:
            found.append(([Hit(first, 0.0, 1, "first part")], weight))
    return found


def next_parts(retriever: Retriever, searches: list[tuple[list[Hit], float]],
               ) -> list[tuple[list[Hit], float]]:
    """The next parts of the sections split for size (into at most :data:`NEXT_PART_OF` parts)
    that the searches' first units are earlier parts of, when those have steps (not a list of
    entries): a procedure goes on where the cut fell, and what comes next need not share the
    question's words (Apache's "Getting it working (part 1 of 5)" creates the password file; its
    part 2, the directives that ask for the password, was no candidate for "How do I
    password-protect a directory?"). They are candidates, at no weight: being next ranks nothing
    higher (a recipe's second half over the page the question names)."""
    found: list[tuple[list[Hit], float]] = []
    firsts = {hits[0].unit.id: hits[0].unit for hits, _ in searches if hits}
    for unit in firsts.values():
        following = retriever.part(unit, part_number(unit) + 1) if steps_going_on(unit) else None
        if following is not None:
            found.append(([Hit(following, 0.0, 1, "next part")], 0.0))
    return found


def sections_below(retriever: Retriever, searches: list[tuple[list[Hit], float]],
                   turn: Turn) -> list[tuple[list[Hit], float]]:
    """The sections under each search's first units whose header the question says whole and
    that give no steps, only their notes' (:func:`cautions_only`) or only what one can do
    (:func:`possibilities_only`): such a section
    introduces what its subsections say how to do, in words they need not share with the
    question (Knot DNS's "Automatic DNSSEC signing" names the two ways to sign; "Automatic
    ZSK management" under it holds the configuration); and the sections of a command's
    page whose description says it does what is asked (:func:`manual_share`: its examples).
    They are candidates at no weight, which a section that introduces the answer lets join."""
    found: list[tuple[list[Hit], float]] = []
    leading = {hit.unit.id: hit.unit for hits, _ in searches for hit in hits[:INTRODUCTIONS_FROM]}
    for unit in leading.values():
        if manual_share(unit, turn) >= ENTRY_ANSWERS_SHARE:
            # its first sections for the question, and the parts of its usage whose options say
            # what is asked: a long list of options split for size (`docker run`'s `-d`, in part 2 of 6)
            listed, _ = retriever.search(turn.question, k=USAGE_PARTS, kind="logic_unit",
                                         within=[str(unit.meta.get("doc_id", ""))])
            found.append((listed[:TOPIC_PARTS] + [h for h in listed[TOPIC_PARTS:] if usage_options(h.unit)
                                                  and described_steps(h.unit, turn)], 0.0))
            continue
        header = set(terms(own_header(unit)))
        if isinstance(unit, LogicUnit) and header and header <= turn.question_terms \
                and (not unit_steps(unit) or cautions_only(unit) or possibilities_only(unit)):
            section = f"{unit.meta.get('section', '')} > "
            hits, _ = retriever.search(own_header(unit), k=TOPIC_PARTS, kind="logic_unit",
                                       within=[str(unit.meta.get("doc_id", ""))])
            found.append(([h for h in hits if str(h.unit.meta.get("section", "")).startswith(section)], 0.0))
    return found


def mark_restating(retriever: Retriever, turn: Turn, candidates: list[Candidate],
                   similar_enough: float) -> list[str]:
    """The candidate sections whose own header asks the last question in other words ("I've
    made a change with a bug and it's been included in the main branch. How should I undo
    it?" for "I committed a bug that is already on the main branch. How do I undo it?"), at
    least ``similar_enough`` close in meaning (0: none): marked :attr:`Candidate.restates`; their
    ids (none without an embedding model)."""
    if not similar_enough:
        return []
    # an entry of a reference, a name as code and what it is ("Backend_health - Backend health
    # check", a log record's tag), asks nothing, though a question how to do something with
    # the thing may sound like it
    pool = [c for c in candidates if isinstance(c.unit, LogicUnit) and part_number(c.unit) == 1
            and len(own_header(c.unit).split()) > 1 and not NAMED_ENTRY.match(own_header(c.unit))]
    similar = retriever.text_closeness(turn.question, [own_header(c.unit) for c in pool])
    for cand, similarity in zip(pool, similar or [0.0] * len(pool), strict=True):
        cand.restates = similarity >= similar_enough
    return [c.unit.id for c in pool if c.restates]


def _header_key(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def mark_pointed_to(turn: Turn, candidates: list[Candidate]) -> list[str]:
    """The candidate sections that a section of their page sends the reader to for what the last
    question asks: a sentence that says "see <its header>" (:data:`SEE_SECTION`) and, besides
    the header, at least half of the question's asking terms, two or more ("The number of
    workspaces can be customized: see Adding Workspaces." for "How do I change the number of
    workspaces?", "See Panel Properties for details on how to set a panel's expand property."):
    marked :attr:`Candidate.pointed_to`; their ids."""
    asked = turn.asking_terms
    if len(asked) < 2:
        return []
    sections = {(c.doc_id, _header_key(own_header(c.unit))): c for c in candidates
                if isinstance(c.unit, LogicUnit) and part_number(c.unit) == 1}
    marked: list[str] = []
    for cand in candidates:
        text = " ".join(cand.unit.render().split())  # a page's lines run on
        if "see " not in text.lower():
            continue
        for sentence in SENTENCE_BREAK.split(text):
            for found in SEE_SECTION.finditer(sentence):
                target = sections.get((cand.doc_id, _header_key(found["target"])))
                if target is None or target is cand or target.pointed_to:
                    continue
                named = len(asked & set(terms(sentence[:found.start("target")] + " " + sentence[found.end("target"):])))
                if named >= 2 and 2 * named >= len(asked):
                    target.pointed_to = True
                    marked.append(target.unit.id)
    return marked


def search_quoting(retriever: Retriever, turn: Turn, kinds: list[str], k: int,
                   searches: list[tuple[list[Hit], float]]) -> list[str]:
    """The documents among the hits that contain the message the user quotes, or name the
    code the user names ("5.7.57"); each is searched for the question as well, ``k`` units of
    each of ``kinds`` (a page quotes the error in its symptoms and says what to do in another
    section), and those searches join ``searches``."""
    docs = sorted(quoting_documents(candidates_from(searches), turn.quotes, turn.codes))
    if docs:
        for kind in kinds:
            hits, _ = retriever.search(turn.question, k=k, kind=kind, within=docs)
            searches.append((hits, 1.0))
    return docs


def follow_linkers(trace: Trace, retriever: Retriever, turn: Turn,
                   candidates: list[Candidate]) -> None:
    """The user says an earlier step did not work, or asks what is next after doing it: the
    units the last answer gave step back (its terms hold :data:`TRIED_SHARE` of their steps',
    or :data:`REPORTED_SHARE` when the last question reports on them, :meth:`Turn.reports_on`),
    and the units their CONTINUE / MITIGATE linkers lead to come forward."""
    with trace.stage("linker") as stage:
        last_answer = turn.history[-1][1]
        said = set(terms(last_answer))
        earlier, _ = retriever.search(last_answer, k=5, kind=None)
        known = {c.unit.id: c for c in candidates}
        # the units the last answer gave: among the candidates (the procedure of the section
        # it summed up) and what a search for that answer finds
        pool = [*candidates, *(Candidate(h) for h in earlier if h.unit.id not in known)]
        tried: list[Candidate] = []
        for cand in pool:
            steps_text = " ".join(unit_steps(cand.unit)) or unit_header(cand.unit)
            in_answer = share(set(terms(steps_text)), said)
            if in_answer < TRIED_SHARE and not (in_answer >= REPORTED_SHARE and turn.reports_on(steps_text)):
                continue
            if cand.unit.id not in known:
                known[cand.unit.id] = cand
                candidates.append(cand)
            cand.tried = True
            tried.append(cand)
        followed = []
        # a unit a linker leads to counts as found as well as the best search result,
        # discounted by its rank among the linker's hits
        best = max((c.retrieval for c in candidates), default=0.25)
        for cand in tried:
            for link in getattr(cand.unit, "linker", []):
                if link.tag not in ("CONTINUE", "MITIGATE") or turn.says_passed(link.condition):
                    continue
                within = [cand.doc_id] if link.tag == "CONTINUE" else None
                hits, _ = retriever.search(link.next, k=2, kind="logic_unit", within=within)
                for hit in hits:
                    target = known.get(hit.unit.id)
                    if target is None:
                        target = known[hit.unit.id] = Candidate(hit, retrieval=best * 4 / (3 + hit.rank))
                        candidates.append(target)
                    if not target.tried:
                        target.linked = True
                        followed.append({"from": cand.unit.id, "tag": link.tag,
                                         "condition": link.condition, "to": hit.unit.id})
        stage.details.update(tried=[c.unit.id for c in tried], followed=followed)
