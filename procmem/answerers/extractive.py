"""The extractive answerer: no model at all.

It answers the last question of the conversation from the memory's units (or, in the
given-documents setting, from a memory over the request's documents):

1. retrieve procedures and logic units for the history-aware query and for the last question
   alone (its intent), and for the message the user quotes (an error's text); when the user
   reports that an earlier step did not work (or asks what is next after doing it), the units
   the last answer gave step back and their CONTINUE and MITIGATE linkers are followed;
2. score every candidate by how well its header (a logic unit's header, a procedure's goal)
   and its text match the last question, how much of its page's title the question names, its
   retrieval rank, what it adds to what the conversation already said, its kind (a cause or a
   problem statement only when the user asks why), whether its document contains the message
   the user quotes or is among the documents the memory ranks first for the conversation (by
   the evidence of all their units), and whether it fits the setting the user named
   (platform, deployment, product version);
3. keep the best unit and the best units of other documents that score close to it, so an
   answer that spans documents draws on each; steps come in document order, without the steps
   the conversation already gave, without page metadata, deduplicated, each citing its source
   (``[n]`` = the n-th entry of ``Answer.sources``), a recipe's step with the amounts of the
   ingredients it names (:mod:`procmem.answerers.amounts`); a further unit with more steps than its
   share gives the run of them that names most of what the last question asks (when the jam
   goes on the cake: the cake's last steps, not the dough it starts with);
4. the plain answer is one or two sentences of the selected units: what to do, then why (the
   cause, the setting, the limit); when the best unit is an FAQ entry whose question is the
   user's, it is that entry's answer as it opens (even without steps).

It is the CPU-only answerer and the fallback when no engine is reachable
(:func:`answer_with_fallback`). What is searched (1.) is :mod:`procmem.answerers.gathering`, how
a candidate scores (2.) :mod:`procmem.answerers.candidates`, the plain answer (4.)
:mod:`procmem.answerers.lead`; how a section stands among its page's (a part of a section split
for size, one that introduces the sections below) :mod:`procmem.answerers.sections`;
what a unit's text says is read by :mod:`procmem.answerers.steps` (its steps) and
:mod:`procmem.answerers.clauses` (its sentences).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from procmem.answerers.amounts import with_amounts
from procmem.answerers.base import (
    Answer,
    Answerer,
    AnswerRequest,
    Searchable,
    StageRecord,
    Trace,
    register,
)
from procmem.answerers.candidates import (
    ENTRY_ANSWERS_SHARE,
    Candidate,
    another_task,
    answers_by_option,
    asked_entries,
    asked_steps,
    described_documents,
    entry_names,
    is_duplicate,
    is_entry_step,
    is_problem,
    manual_share,
    score,
    section_heading,
    term_weights,
    title_weights,
    topic_of,
)
from procmem.answerers.common import LLMParams, make_params, names
from procmem.answerers.gathering import candidates_from, gather
from procmem.answerers.lead import NOTHING_FOUND, plain_answer
from procmem.answerers.parsing import ReplyParseError
from procmem.answerers.retrieval import Hit, Retriever, sources_from_hits
from procmem.answerers.rewrite import standalone_query
from procmem.answerers.sections import FIRST_PART_OF, goes_on, points_on, possibilities_only
from procmem.answerers.steps import unit_steps, with_way_there
from procmem.answerers.turn import UNDO, Turn, setting_factor, step_settings
from procmem.retrieval.query import terms
from procmem.units import (
    LogicUnit,
    Procedure,
    Unit,
    UnitKind,
    copies,
    entry_name,
    from_pages,
    own_header,
    part_count,
    part_number,
)
from serving.errors import LLMError

# a further unit joins when its text holds at least JOIN_TEXT of what the best unit's holds of
# the question's words (weighted by rarity), when the searches give it at least JOIN_RETRIEVAL of
# the best unit's retrieval score, or when the conversation or a linker brought it
JOIN_TEXT = 0.4
JOIN_RETRIEVAL = 0.7
# the share of the question that a unit whose steps the conversation gave says (in its header or
# its text), for its steps to come again when it still answers best (asked_again)
REPEATED_SHARE = 0.5
ENTRY_GAIN_SHARE = 0.5  # of what the entry that says most of the question says (entries_most_asked)


@dataclass
class ExtractiveParams:
    k: int = 10  # candidates per search
    unit_kind: UnitKind = "procedure"  # searched together with logic units (chunks when neither matches)
    # steps in all: after the best unit's 7, room for another unit's 4 and the next one's first
    # (memory over every bundled document: step coverage 0.462 at 10, 0.481 at 12, 0.487 at 14
    # with 5 per other unit; W-ROUGE-L of answer and steps 0.309, 0.304, 0.303)
    max_steps: int = 12
    max_units: int = 4  # units the steps come from
    max_docs: int = 3  # documents the steps come from
    min_share: float = 0.5  # a further unit joins when it scores at least this share of the best
    # steps taken from the best unit (a procedure with more goes on for other_unit_steps more:
    # _leading_budget); other units give up to
    first_unit_steps: int = 7
    other_unit_steps: int = 4  # ... this many each
    cite: bool = True  # end every step with "[n]", n = its source's position in Answer.sources
    top_documents: int = 3  # units of the memory's first documents for the conversation score more (0: off)
    # ... and, searching a memory, their best units for the question are candidates (0: off); step
    # coverage 0.447 -> 0.460 with the memory over every bundled document (5: 0.454, 8: 0.454)
    within_top_documents: int = 3
    query_rewrite: str = "heuristic"  # "heuristic" or "none" (there is no model to rewrite)
    # a section whose own header is this close in meaning to the last question (cosine similarity
    # of their embeddings) asks it in other words, as one that shares its terms does (0: off); at
    # 0.8 "How to make Taco Meat" (0.82) answered "How do I make the taco meat, and how do I fry
    # them …?" alone (GNOME/cooking step coverage 0.649 -> 0.644 with the memory over every document)
    restates: float = 0.85
    # a further unit joins only when it is at least this share as close in meaning to the
    # conversation's query as the best unit is (cosine of their embeddings; 0: off)
    join_closeness: float = 0.5


# --------------------------------------------------------------------------- composing


def select(candidates: list[Candidate], turn: Turn, p: ExtractiveParams) -> list[Candidate]:
    """The best unit, and the units close to it, from at most ``max_docs`` documents: units with
    steps or entries the question names (:func:`asked_entries`), and a section whose header is
    the question (:attr:`Candidate.answers`) (the best unit whatever it holds when the question
    asks for no steps, :attr:`Turn.asks_no_steps`: what explains or says so need not say what to
    do), that name
    something the question or the conversation names (or that a linker leads to, or any when
    the user reports a failure), and hold of the question's words at least :data:`JOIN_TEXT` of
    what the best unit holds (unless the searches rank them nearly as high, or the conversation or a
    linker brought them); other pages' units join a section that answers only when it
    says what a thing is (not by an option that does what is asked, nor by saying what lets one
    do it) and the user asks how to do it, and its own page's units whatever their
    score, when it has no steps (it only introduces what is asked); a unit the user has tried is chosen
    only when no other unit scores, and never joins another; nor does one that only the
    conversation brought (none of the question's words in its header or text) join a best unit
    that the question's words found; a unit that only states the
    problem or its cause (no option or entry of it says what is asked) joins only when the user
    asks why, and one written for another
    setting than the user's, or from another manual than the best unit's (another
    product's documentation: another corpus, or another folder with a start page of its own),
    never joins. When the question names what a page is about by its
    one-word title (:func:`named_subject`), only units that name it are chosen. The next part of
    the best unit's section, when its steps go on there (:func:`goes_on`), comes second. Another
    page's copy of a chosen section (:func:`copies`) is never chosen."""
    ranked = sorted(candidates, key=lambda c: (c.tried, -c.score))
    if not ranked or ranked[0].score <= 0:
        return ranked[:1]
    if named_manuals := manuals_named(candidates, turn):
        # the conversation names the product whose manual the memory holds ("How do I crop a
        # photo in Gwenview?"): another manual's section for the same task (a scanner's
        # "Cropping") is for another product
        ranked = [c for c in ranked if c.manual in named_manuals]
    if named := named_subject(candidates, turn):
        # the question names what one page is about ("… the WireGuard VPN …"): another page's
        # steps, which never name it, answer for something else (OpenVPN's, for the same phone)
        ranked = [c for c in ranked if named & set(terms(f"{c.unit.meta.get('title', '')} {c.unit.render()}"))] \
            or ranked
    if (after := _going_on(ranked, p)) is not None:
        ranked.remove(after)  # the best unit's procedure goes on into the next part of its section
        ranked.insert(1, after)
    chosen: list[Candidate] = []
    docs: list[str] = []
    introduces = False  # the best unit asks the question, the user asks how, and it has no steps
    under = ""  # ... or it only says what one can do: then only the sections under it say how
    for cand in ranked:
        if len(chosen) >= p.max_units:
            break
        # the rest of a section that answers the question (an FAQ answer split for size) is the answer too,
        # and so are the other parts of a topic the best unit is a labelled part of (its "Solution:"),
        # or is the topic of (Knot DNS's "`rrl` — Response rate limiting" and its "Example")
        rest = bool(chosen) and cand.doc_id == chosen[0].doc_id and (
            chosen[0].answers and part_number(cand.unit) > 1 and own_header(cand.unit) == own_header(chosen[0].unit)
            or topic_of(cand.unit) != "" and topic_of(cand.unit) in (topic_of(chosen[0].unit),
                                                                      chosen[0].unit.meta.get("section")))
        # ... and when it only introduces what the user asks how to do ("Turning on debug logs"
        # over why they are asked for), its page's sections that say how
        below = introduces and cand.doc_id == chosen[0].doc_id and str(cand.unit.meta.get("section", "")).startswith(under)
        # the next part of the best unit's section, split for size: its steps go on there
        rest = rest or cand is after
        # the first part of a section split for size (into a few parts), a later part of which is
        # chosen: its steps start there
        start = isinstance(cand.unit, LogicUnit) and part_number(cand.unit) == 1 \
            and part_count(cand.unit) <= FIRST_PART_OF and any(
            c.doc_id == cand.doc_id and part_number(c.unit) > 1 and own_header(c.unit) == own_header(cand.unit)
            for c in chosen)
        if not _may_be_chosen(cand, chosen, docs, ranked[0], turn, p, part=rest or start, below=below) \
                or chosen and not _joins(cand, chosen[0], turn, p, part=rest or start, below=below):
            continue
        chosen.append(cand)
        if cand.doc_id not in docs:
            docs.append(cand.doc_id)
        if len(chosen) == 1:
            # (a command's description that answers introduces its page's examples)
            introduces = cand.answers and turn.asks_how and (not unit_steps(cand.unit) or points_on(cand.unit)
                                                             or possibilities_only(cand.unit)
                                                             or manual_share(cand.unit, turn) >= ENTRY_ANSWERS_SHARE)
            if introduces and possibilities_only(cand.unit):
                under = f"{cand.unit.meta.get('section', '')} > "
    return chosen or ranked[:1]


def _may_be_chosen(cand: Candidate, chosen: list[Candidate], docs: list[str], top: Candidate, turn: Turn,
                   p: ExtractiveParams, *, part: bool, below: bool) -> bool:
    """Whether ``cand`` may be chosen at all, best or not (:func:`select`): ``part`` says it is
    a part of a section already chosen (the rest of it, or its first part), ``below`` that it is
    a section under the best unit, which only introduces what is asked."""
    if cand.score < p.min_share * top.score and not (part or below):
        return False
    if cand.doc_id not in docs and len(docs) >= p.max_docs:
        return False
    if any(copies(cand.unit, c.unit) for c in chosen):
        return False  # another page's copy of a chosen section (a reference kept for each version)
    if not part and (sum(c.doc_id == cand.doc_id for c in chosen) - below >= 2  # the introduction aside
                     or not (unit_steps(cand.unit) or cand.answers or asked_entries(cand.unit, turn)
                             or (not chosen and turn.asks_no_steps))):
        return False
    # ranked by a search that found nothing better, it names nothing the user asks
    return not turn.question_terms or bool(cand.why.get("text") or cand.why.get("header") or cand.why.get("context")
                                           or cand.linked or turn.reports_failure)


def _joins(cand: Candidate, best: Candidate, turn: Turn, p: ExtractiveParams, *, part: bool, below: bool) -> bool:
    """Whether ``cand`` joins the ``best`` unit (:func:`select`; ``part`` and ``below`` as
    :func:`_may_be_chosen` has them)."""
    if cand.tried or (is_problem(cand.unit) and not turn.asks_cause and not asked_steps(cand.unit, turn)):
        return False
    if turn.question_terms and (best.why.get("header") or best.why.get("text")) \
            and not (cand.why.get("header") or cand.why.get("text") or cand.linked or turn.reports_failure
                     or part or below):
        return False  # the conversation's topic alone, when the question's own words found what it asks
    if not (cand.why.get("context") or cand.linked or turn.reports_failure or part) \
            and cand.why.get("text", 0.0) < JOIN_TEXT * best.why.get("text", 0.0) \
            and cand.retrieval < JOIN_RETRIEVAL * best.retrieval:
        return False  # it shares a common word with the question, not what the best unit says of it
    if cand.closeness is not None and best.closeness is not None and not (cand.linked or part) \
            and cand.closeness < p.join_closeness * best.closeness:
        return False  # it shares the question's words, not its meaning (a backtrace's "check how much")
    if cand.setting < 1:
        return False  # written for another platform, deployment or version than the user's
    if turn.asks_to_undo and UNDO not in terms(cand.unit.render()):
        return False  # asked how to take something back, it says nothing of undoing
    if not (part or below or cand.linked) and another_task(cand.unit, best.unit, turn):
        return False  # "Importing …" beside "Creating …" for "How do I create …?"
    if cand.other_product(best):
        return False  # another product's documentation
    # a section that answers is the answer (or its option, or what lets one do it)
    return not (best.answers and cand.doc_id != best.doc_id
                and (unit_steps(best.unit) or not turn.asks_how or answers_by_option(best.unit, turn)
                     or best.offer and not says_how_to_use(cand, best, turn)))


def says_how_to_use(cand: Candidate, best: Candidate, turn: Turn) -> bool:
    """Whether ``cand``'s header names the whole heading of ``best``, a section without steps that
    says what lets one do what is asked, when that heading is two or more of the question's words:
    a page on using the thing the section offers ("Using Regular Expressions in Text Searches",
    with its steps, for the Find & Replace dialog's "Regular expressions: Allows you to use regular
    expressions in your search.", asked "How do I find and replace with regular expressions?")."""
    heading = set(terms(section_heading(best.unit)))
    return not unit_steps(best.unit) and len(heading) >= 2 and heading <= turn.question_terms \
        and heading <= set(terms(own_header(cand.unit)))


def _going_on(ranked: list[Candidate], p: ExtractiveParams) -> Candidate | None:
    """The candidate in which the best unit's steps go on (:func:`goes_on`), unless a procedure
    of the best unit's section is a candidate: it holds the section's steps whole, and its
    sentences may say more than the next part (GNOME's "Wipe everything off a removable disk",
    whose part 2 is only a note on deleting files securely)."""
    best = ranked[0]
    if any(isinstance(c.unit, Procedure) and c.doc_id == best.doc_id and own_header(c.unit) == own_header(best.unit)
           for c in ranked):
        return None
    return next((c for c in ranked[1:] if goes_on(c.unit, best.unit, p.first_unit_steps)), None)


def _ordered(chosen: list[Candidate]) -> list[Candidate]:
    """Documents in the order of their best unit; a document's units in their order there (the
    parts of a section split for size in theirs), but for a reference entry that answers the
    question, which leads its page's (the entries around it in Postfix's list of parameters,
    "bounce_size_limit" before "message_size_limit", are only related), and for a section that
    its page sends the reader to for what the question asks (:attr:`Candidate.pointed_to`: the
    overview that did comes after it)."""
    doc_rank = {}
    for cand in chosen:
        doc_rank.setdefault(cand.doc_id, len(doc_rank))
    lead = chosen[0] if chosen and (chosen[0].answers and entry_name(chosen[0].unit) or chosen[0].pointed_to) \
        else None
    return sorted(chosen, key=lambda c: (doc_rank[c.doc_id], c is not lead, c.unit.meta.get("order", 0),
                                         part_number(c.unit)))


def relevant_steps(steps: list[str], turn: Turn, n: int, weight: dict[str, float] | None = None) -> list[str]:
    """The run of ``n`` consecutive steps that names most of what the last question asks about
    (ties: the earlier run)."""
    question = turn.question_terms
    gain = [sum((weight or {}).get(t, 1.0) for t in question & set(terms(step))) for step in steps]
    start = max(range(len(steps) - n + 1), key=lambda i: (sum(gain[i:i + n]), -i))
    return steps[start:start + n]


def entries_most_asked(steps: list[str], entries: set[str], turn: Turn,
                       weight: dict[str, float] | None = None) -> list[str]:
    """Of a reference's entries that read as steps (a menu's "**Open Notebook Folder**: Open the
    folder for the current notebook …"), those that say at least half as much of the question as
    the one that says most; its other steps stay. A reference's entries are no sequence: "My
    notebook index looks wrong" asks for "Check and Update Index", not the whole Tools menu."""
    def gain(step: str) -> float:
        return sum((weight or {}).get(t, 1.0) for t in turn.question_terms & set(terms(step)))

    is_entry = [is_entry_step(s, entries) for s in steps]
    best = max((gain(s) for s, entry in zip(steps, is_entry, strict=True) if entry), default=0.0)
    return [s for s, entry in zip(steps, is_entry, strict=True)
            if not entry or best > 0 and gain(s) >= ENTRY_GAIN_SHARE * best]


def _list_introduced(chosen: list[Candidate]) -> str:
    """The id of the chosen unit with steps that the best unit introduces: the best unit is what a
    section says before its numbered list (a step at most: Office's "Scenario 1: Keep Exchange
    Online mailbox" before "To use this method, follow these steps:") and the other, later in the
    same section, holds the list; its steps are the answer's, from the first. "" when none is."""
    if not chosen or len(unit_steps(chosen[0].unit)) > 1:
        return ""
    head = chosen[0]
    return next((c.unit.id for c in chosen[1:]
                 if c.doc_id == head.doc_id and c.unit.meta.get("section") == head.unit.meta.get("section")
                 and c.unit.meta.get("order", 0) > head.unit.meta.get("order", 0) and len(unit_steps(c.unit)) > 1), "")


def _leading_budget(unit: Unit, steps: int, p: ExtractiveParams) -> int:
    """The steps a leading unit that holds ``steps`` gives: ``first_unit_steps``, and a procedure
    with more goes on for ``other_unit_steps`` more, as the best logic unit goes on into its
    section's next part (:func:`goes_on`). A procedure holds its section whole, so it was cut where the section's first
    part would have been continued: based.cooking's butter biscuits stopped after "Quickly shape
    the dough" when their procedure led, and another recipe's steps took the place of the baking."""
    if isinstance(unit, Procedure) and steps > p.first_unit_steps:
        return p.first_unit_steps + p.other_unit_steps
    return p.first_unit_steps


def compose_steps(chosen: list[Candidate], turn: Turn, p: ExtractiveParams,
                  source_index: dict[str, int], weight: dict[str, float] | None = None,
                  ) -> tuple[list[str], list[str]]:
    """Steps (with citations when ``p.cite``) and the ids of the units they came from, a unit's
    entries that the question names first (:func:`asked_steps`), none labelled for another setting
    than the user's (:func:`step_settings`); a step that another unit's later step holds whole
    ("Choose Tools - Macros - Record Macro." and the guide's step that goes on from it) gives
    way to that one, and one that says it after a clause of its own (:func:`said_after_clause`)
    is left out."""
    steps: list[str] = []
    plain: list[str] = []
    origin: list[str] = []  # the unit each step came from
    given: set[str] = set()  # ingredient lines an earlier step gave
    first: dict[str, str] = {}  # a step joined with the way there (with_way_there): the first of its two
    best = chosen[0].unit.id if chosen else ""
    leading = {best, _list_introduced(chosen)}  # units whose steps come as the best unit's do
    asked = {c.unit.id: asked_steps(c.unit, turn) for c in chosen}
    # the units whose entries the question names first: what was asked
    for cand in sorted(_ordered(chosen), key=lambda c: not asked[c.unit.id]):
        own = unit_steps(cand.unit)
        budget = _leading_budget(cand.unit, len(own), p) if cand.unit.id in leading else p.other_unit_steps
        # new steps only, before a runner-up's run is chosen among them
        named = asked[cand.unit.id]
        # a list of labelled items gives those that say what is asked, not the rest of the list;
        # a reference gives the entries asked, not the others, though their descriptions read
        # as steps (a menu's "**Import Page**: Prompts for a file path …" beside its "New Page")
        entries = entry_names(cand.unit)
        if named and not asked_entries(cand.unit, turn):
            rest = []
        elif named:
            rest = [s for s in own if not is_entry_step(s, entries)]
        else:
            rest = entries_most_asked(own, entries, turn, weight) if len(entries) >= 2 else own
        fresh = [s for s in named + [s for s in rest if s not in named]
                 if not turn.already_said(s) and not turn.restates(s) and not is_duplicate(s, plain)
                 and setting_factor(turn.setting, step_settings(s)) >= 1]  # not "On macOS: …" for a Windows user
        fresh, firsts = with_way_there(fresh, own)
        first.update(firsts)
        if cand.unit.id not in leading and len(fresh) > budget:
            fresh = relevant_steps(fresh, turn, budget, weight)
        for step in fresh:
            if len(steps) >= p.max_steps or budget <= 0:
                break
            if is_duplicate(step, plain):
                continue  # repeats an earlier step of this same unit
            held = [i for i, earlier in enumerate(plain) if origin[i] != cand.unit.id and is_duplicate(earlier, [step])]
            if any(said_after_clause(plain[i], step) for i in held):
                continue  # the step again, for a purpose of its own ("To view the misspelled words …, choose …")
            for i in reversed(held):
                del steps[i], plain[i], origin[i]
            # in the place of the first step it holds, after its own unit's steps
            own = [i for i, unit_id in enumerate(origin) if unit_id == cand.unit.id]
            at = max(held[0], own[-1] + 1 if own else 0) if held else len(steps)
            plain.insert(at, step)
            origin.insert(at, cand.unit.id)
            budget -= 1
            step = with_amounts(step, cand.unit.meta.get("ingredients", []), given)
            steps.insert(at, f"{step} [{source_index[cand.unit.id]}]" if p.cite else step)
    # a step joined with the way there is in its section's place of the first of its steps
    return in_section_order(steps, [first.get(s, s) for s in plain], origin, chosen), \
        list(dict.fromkeys(origin))


def said_after_clause(step: str, other: str) -> bool:
    """Whether ``other`` says ``step`` after a clause of its own ("To view the misspelled words in
    your document, choose Tools - Automatic Spell Checking." of "Choose Tools - Automatic Spell
    Checking."): the same action for a purpose or in a case the step's unit does not say, not the
    step gone on with ("Choose Tools - Macros - Record Macro. The Record Macro dialog opens …")."""
    found = other.casefold().find(step.casefold().rstrip(". "))
    return found > 0 and other[:found].rstrip().endswith(",")


def in_section_order(steps: list[str], plain: list[str], origin: list[str], chosen: list[Candidate]) -> list[str]:
    """``steps`` (``plain``: as their units say them; ``origin``: the unit of each), those of one
    section that two kinds of unit gave (a recipe's procedure and its logic unit, which hold the
    same directions, each up to its budget) in the section's order, in the places they hold: the
    unit taken first would otherwise lead with the later directions it was chosen for."""
    units = {c.unit.id: c for c in chosen}
    places: dict[tuple[str, str], list[int]] = {}
    for i, unit_id in enumerate(origin):
        cand = units[unit_id]
        places.setdefault((cand.doc_id, str(cand.unit.meta.get("section", ""))), []).append(i)
    ordered = list(steps)
    for at in places.values():
        given_by = [units[unit_id].unit for unit_id in dict.fromkeys(origin[i] for i in at)]
        if len({unit.kind for unit in given_by}) < 2:
            continue
        section = {step: n for n, step in enumerate(max((unit_steps(unit) for unit in given_by), key=len))}
        if all(plain[i] in section for i in at):
            for slot, i in zip(at, sorted(at, key=lambda i: section[plain[i]]), strict=True):
                ordered[slot] = steps[i]
    return ordered


def compose(hits: list[Hit], turn: Turn | None = None, params: ExtractiveParams | None = None,
            *, cite: bool | None = None, extra: list[Unit] | None = None,
            ) -> tuple[str, list[str], dict[str, Any]]:
    """Answer text, steps and what was used, from ranked hits (no model)."""
    p = params or ExtractiveParams()
    if cite is not None:
        p = dataclasses.replace(p, cite=cite)
    turn = turn or Turn("")
    if not hits:
        return NOTHING_FOUND, [], {"used_units": []}
    candidates = candidates_from([(hits, 1.0)])
    return _compose(candidates, turn, p, extra or [])


def asked_again(chosen: list[Candidate], used: list[str], steps: list[str], answer: str, turn: Turn) -> bool:
    """Whether the user asks again for what an earlier answer gave, so it is to be said again:
    everything found was said ("How do I ungroup them again?" after the steps to group and to
    ungroup), or the steps of the best unit were, and it still says :data:`REPEATED_SHARE` of
    the question ("How do I join a room there?" after an answer whose last steps joined one), or
    all but the step the question asks for (:meth:`Turn.asks_for_step`) and its header says as
    much of the question (the room's "Enter the name of the chat room … and press Join." alone;
    not the printer setup's "Select Print Test Page …" for "How do I print a test page on it?");
    never the steps of a unit the user reports having tried, nor when the user asks how to take
    back what they did ("Can I reverse that?")."""
    if not turn.history or turn.repeated or turn.asks_to_undo:
        return False
    if not steps and answer == NOTHING_FOUND:
        return True
    best = chosen[0] if chosen else None
    if best is None or best.tried or not (own := unit_steps(best.unit)):
        return False
    if best.unit.id not in used:
        return max(best.why.get("header", 0.0), best.why.get("text", 0.0)) >= REPEATED_SHARE
    return all(turn.asks_for_step(s) or turn.already_said(s) for s in own) \
        and best.why.get("header", 0.0) >= REPEATED_SHARE


def named_subject(candidates: list[Candidate], turn: Turn) -> set[str]:
    """The term of a one-word page title that the question writes as a name ("WireGuard",
    "Radicale", "Samba", not the word that opens it): what the user asks about by its name."""
    titles = {str(c.unit.meta.get("title", "")) for c in candidates}
    one_word = {found[0] for found in (terms(title) for title in titles) if len(found) == 1}
    return one_word & set(terms(" ".join(names(turn.question))))


# words a documentation folder is named by that name no product ("html", "help", "docs", "en")
DOCUMENTATION_WORDS = frozenset(t for word in ("html", "htm", "help", "doc", "docs", "documentation", "manual",
                                               "manuals", "guide", "guides", "handbook", "en", "c", "site", "www",
                                               "pages", "userguide", "user") for t in terms(word))


def manuals_named(candidates: list[Candidate], turn: Turn) -> set[str]:
    """The manuals of the candidates that the question, or the conversation's questions before
    it, name by their folder's name ("Gwenview" of "In Gwenview, how do I turn a photo that is
    upside down?" for the manual in ``…/gwenview``; "How do I remove a highlight?" after "How do I
    highlight text with Okular?"), when the candidates come from several."""
    manuals = {c.manual for c in candidates if c.manual}
    if len(manuals) < 2:
        return set()
    asked = turn.question_terms | turn.context_terms
    return {m for m in manuals if (name := set(terms(m.rsplit("/", 1)[-1])) - DOCUMENTATION_WORDS) and name <= asked}


def _compose(candidates: list[Candidate], turn: Turn, p: ExtractiveParams,
             extra: list[Unit] | Callable[[list[str]], list[Unit]],
             ) -> tuple[str, list[str], dict[str, Any]]:
    """``extra``: more units for the plain answer, or how to find them in the chosen documents."""
    best_retrieval = max((c.retrieval for c in candidates), default=0.0)
    weight = term_weights([c.unit for c in candidates])
    title_weight = title_weights([c.unit for c in candidates])
    for cand in candidates:
        cand.score = score(cand, turn, best_retrieval, weight, title_weight)
    if turn.reports_failure and (described := described_documents(candidates)):
        for cand in candidates:
            if cand.doc_id in described:
                cand.described = True
                cand.score = score(cand, turn, best_retrieval, weight, title_weight)
    chosen = select(candidates, turn, p)
    order = [c.hit for c in _ordered(chosen)] + [c.hit for c in sorted(candidates, key=lambda c: -c.score)
                                                 if c not in chosen]
    source_index = {s.unit_id: i for i, s in enumerate(sources_from_hits(order), 1)}
    steps, used = compose_steps(chosen, turn, p, source_index, weight)
    found = extra(list(dict.fromkeys(c.doc_id for c in chosen))) if callable(extra) else extra
    # of a section merged across pages, what the chosen pages say (not another product's page)
    titles = {str(c.unit.meta.get("title", "")) for c in chosen}
    answer = plain_answer(chosen, [from_pages(unit, titles) for unit in found], turn, steps)
    if asked_again(chosen, used, steps, answer, turn):
        return _compose(candidates, turn.asked_again(), p, extra)
    details = {
        "used_units": used,
        "documents": list(dict.fromkeys(c.doc_id for c in chosen if c.unit.id in used)),
        "setting": sorted(turn.setting),
        "scores": [{"unit_id": c.unit.id, "score": round(c.score, 4), **c.why,
                    "closeness": None if c.closeness is None else round(c.closeness, 3),
                    "linked": c.linked, "tried": c.tried, "chosen": c in chosen}
                   for c in sorted(candidates, key=lambda c: -c.score)[:8]],
        "sources": order,
    }
    return answer, steps, details


# --------------------------------------------------------------------------- the answerer


class ExtractiveAnswerer:
    name = "extractive"

    def __init__(self, *, memory: Searchable | None, params: ExtractiveParams) -> None:
        self.memory = memory
        self.params = params

    def config(self) -> dict[str, Any]:
        return {"answerer": self.name, "params": dataclasses.asdict(self.params),
                "prompts": {}, "model": ""}

    def answer(self, request: AnswerRequest) -> Answer:
        if not request.question.strip():
            raise ValueError("the request has an empty question")
        p = self.params
        trace = Trace()
        retriever = Retriever(self.memory, request.documents)
        turn = Turn(request.question.strip(), list(request.history))
        query = standalone_query(trace, request.history, request.question, llm=None,
                                 params=LLMParams(query_rewrite=p.query_rewrite))
        candidates, all_hits = gather(trace, retriever, request, turn, query, p)
        if not all_hits:
            with trace.stage("compose") as stage:
                stage.details["used_units"] = []
            return Answer(answer=NOTHING_FOUND, procedures=[], trace=trace)
        with trace.stage("compose") as stage:
            def explanations(doc_ids: list[str]) -> list[Unit]:
                """Units of the chosen documents that may say why (causes, limits)."""
                hits, _ = retriever.search(f"{turn.question} cause", k=4, kind="logic_unit",
                                           within=doc_ids)
                return [h.unit for h in hits]

            answer, steps, details = _compose(candidates, turn, p, explanations)
            order = details.pop("sources")
            stage.details.update(details)
        return Answer(answer=answer, procedures=steps, sources=sources_from_hits(order), trace=trace)

@register("extractive")
def make_extractive(*, llm: Any = None, memory: Searchable | None = None,
                    **params: Any) -> ExtractiveAnswerer:
    """The model-free answerer (``llm`` is accepted and ignored)."""
    return ExtractiveAnswerer(memory=memory, params=make_params(ExtractiveParams, "extractive", params))


def answer_with_fallback(answerer: Answerer, extractive: Answerer, request: AnswerRequest) -> Answer:
    """``answerer``'s answer, or — when its engine fails or its reply cannot be read — the
    extractive answer, with the failure recorded as the first stage of the trace."""
    try:
        return answerer.answer(request)
    except (LLMError, ReplyParseError) as exc:
        answer = extractive.answer(request)
        answer.trace.stages.insert(0, StageRecord("fallback", details={
            "failed_answerer": answerer.name, "used": extractive.name,
            "error": f"{type(exc).__name__}: {exc}",
        }))
        return answer


__all__ = ["ExtractiveAnswerer", "ExtractiveParams", "answer_with_fallback", "compose"]
