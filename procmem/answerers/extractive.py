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
(:func:`answer_with_fallback`). How a candidate scores (2.) is :mod:`procmem.answerers.candidates`;
what a unit's text says is read by :mod:`procmem.answerers.steps` (its steps) and
:mod:`procmem.answerers.clauses` (its sentences).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from inscoqa.corpus.common import NOTE_LABELS
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
    DUPLICATE_SIMILARITY,
    Candidate,
    answers_by_option,
    asked_entries,
    asked_steps,
    is_problem,
    quoting_documents,
    score,
    share,
    term_weights,
    title_weights,
    topic_of,
)
from procmem.answerers.clauses import (
    ACTION_CUE,
    CASE_ACTION,
    defines,
    describes,
    is_metadata,
    is_prose,
    labelled_values,
    says_what_to_do,
    sentences,
    states,
    without_consequences,
)
from procmem.answerers.code_blocks import commands_typed
from procmem.answerers.common import LLMParams, make_params, names, terms
from procmem.answerers.parsing import ReplyParseError
from procmem.answerers.prose import INTRODUCES, SENTENCE_BREAK, introduced, paragraphs, plain_text
from procmem.answerers.retrieval import Hit, Retriever, hit_record, sources_from_hits
from procmem.answerers.rewrite import standalone_query
from procmem.answerers.steps import BOILERPLATE, unit_header, unit_steps, unit_text
from procmem.answerers.turn import Turn
from procmem.extract.markdown import first_sentence
from procmem.units import LogicUnit, Unit, UnitKind, entry_name, own_header, part_number
from serving.errors import LLMError

# a sentence that says why: the cause, the setting or the limit behind what to do
CAUSE_CUE = re.compile(
    r"\b(?:because|causes?|caused|occurs?|happens?|due to|only|not supported|unsupported|"
    # "is designed to", "by design"; not what something is made for ("keyboards designed for Windows")
    r"requires?|required|must|limit\w*|by default|expected|(?:is|are|was|were|be|not) designed|by design|means)\b",
    re.I)
# a unit the user has tried: this share of its steps' terms is in the last answer, which sums it
# up in a few words (step coverage 0.450 at 0.5, 0.453 at 0.35, 0.450 at 0.4)
TRIED_SHARE = 0.35
# a further unit joins when its text holds at least JOIN_TEXT of what the best unit's holds of
# the question's words (weighted by rarity), when the searches give it at least JOIN_RETRIEVAL of
# the best unit's retrieval score, or when the conversation or a linker brought it
JOIN_TEXT = 0.4
JOIN_RETRIEVAL = 0.7
_CITED = re.compile(r"\s*\[\d+\]$")  # the citation that ends a step
TOPIC_PARTS = 4  # the parts of a topic set out in labelled parts looked for with one of them


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
    first_unit_steps: int = 7  # steps taken from the best unit; other units give up to
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


def _is_duplicate(step: str, kept: list[str], min_words: int = 5) -> bool:
    """Near-identical to a kept step, or a part of one (the same step without its note, one of
    the sentences a kept step joins); not when the two name other things: parameters, settings,
    values ("for emails Sent As ...: ``-MessageCopyForSentAsEnabled $True``" and "for emails Sent
    On Behalf ...: ``-MessageCopyForSendOnBehalfEnabled $True``") or controls and panels ("Open
    the Activities overview and start typing Power." and "... typing Files.")."""
    key = step.casefold()
    start = key.rstrip(". ")
    named = names(step)
    return any(fuzz.ratio(key, other.casefold()) >= DUPLICATE_SIMILARITY and names(other) == named
               or (len(start.split()) >= min_words and start in other.casefold()) for other in kept)


def select(candidates: list[Candidate], turn: Turn, p: ExtractiveParams) -> list[Candidate]:
    """The best unit, and the units close to it, from at most ``max_docs`` documents: units with
    steps or entries the question names (:func:`asked_entries`), and a section whose header is
    the question (:attr:`Candidate.answers`), that name
    something the question or the conversation names (or that a linker leads to, or any when
    the user reports a failure), and hold of the question's words at least :data:`JOIN_TEXT` of
    what the best unit holds (unless the searches rank them nearly as high, or the conversation or a
    linker brought them); other pages' units join a section that answers only when it
    says what a thing is (not by an option that does what is asked) and the user asks how to do
    it, and its own page's units whatever their
    score, when it has no steps (it only introduces what is asked); a unit the user has tried is chosen
    only when no other unit scores, and never joins another; a unit that only states the
    problem or its cause joins only when the user asks why, and one written for another
    setting than the user's, or from another corpus than the best unit's (another
    product's documentation), never joins."""
    ranked = sorted(candidates, key=lambda c: (c.tried, -c.score))
    if not ranked or ranked[0].score <= 0:
        return ranked[:1]
    chosen: list[Candidate] = []
    docs: list[str] = []
    introduces = False  # the best unit asks the question, the user asks how, and it has no steps
    for cand in ranked:
        if len(chosen) >= p.max_units:
            break
        # the rest of a section that answers the question (an FAQ answer split for size) is the answer too,
        # and so are the other parts of a topic the best unit is a labelled part of (its "Solution:")
        rest = bool(chosen) and cand.doc_id == chosen[0].doc_id and (
            chosen[0].answers and part_number(cand.unit) > 1 and own_header(cand.unit) == own_header(chosen[0].unit)
            or topic_of(cand.unit) != "" and topic_of(cand.unit) == topic_of(chosen[0].unit))
        # ... and when it only introduces what the user asks how to do ("Turning on debug logs"
        # over why they are asked for), its page's sections that say how
        below = introduces and cand.doc_id == chosen[0].doc_id
        # the first part of a section split for size, a later part of which is chosen: its steps start there
        start = isinstance(cand.unit, LogicUnit) and part_number(cand.unit) == 1 and any(
            c.doc_id == cand.doc_id and part_number(c.unit) > 1 and own_header(c.unit) == own_header(cand.unit)
            for c in chosen)
        if cand.score < p.min_share * ranked[0].score and not (rest or below):
            continue
        if cand.doc_id not in docs and len(docs) >= p.max_docs:
            continue
        if not (rest or start) and (sum(c.doc_id == cand.doc_id for c in chosen) - below >= 2  # the introduction aside
                         or not (unit_steps(cand.unit) or cand.answers or asked_entries(cand.unit, turn))):
            continue
        if turn.question_terms and not (cand.why.get("text") or cand.why.get("header") or cand.why.get("context")
                                        or cand.linked or turn.reports_failure):
            continue  # ranked by a search that found nothing better, it names nothing the user asks
        if chosen and (cand.tried or (is_problem(cand.unit) and not turn.asks_cause)):
            continue
        if chosen and not (cand.why.get("context") or cand.linked or turn.reports_failure or rest) \
                and cand.why.get("text", 0.0) < JOIN_TEXT * chosen[0].why.get("text", 0.0) \
                and cand.retrieval < JOIN_RETRIEVAL * chosen[0].retrieval:
            continue  # it shares a common word with the question, not what the best unit says of it
        if chosen and cand.closeness is not None and chosen[0].closeness is not None and not (cand.linked or rest) \
                and cand.closeness < p.join_closeness * chosen[0].closeness:
            continue  # it shares the question's words, not its meaning (a backtrace's "check how much")
        if chosen and cand.setting < 1:
            continue  # written for another platform, deployment or version than the user's
        if chosen and cand.corpus != chosen[0].corpus:
            continue
        if chosen and chosen[0].answers and cand.doc_id != chosen[0].doc_id \
                and (unit_steps(chosen[0].unit) or not turn.asks_how or answers_by_option(chosen[0].unit, turn)):
            continue  # a section that answers the question is the answer (or its option); its page may add to it
        chosen.append(cand)
        if cand.doc_id not in docs:
            docs.append(cand.doc_id)
        if len(chosen) == 1:
            introduces = cand.answers and turn.asks_how and not unit_steps(cand.unit)
    return chosen or ranked[:1]


def _ordered(chosen: list[Candidate]) -> list[Candidate]:
    """Documents in the order of their best unit; a document's units in their order there (the
    parts of a section split for size in theirs)."""
    doc_rank = {}
    for cand in chosen:
        doc_rank.setdefault(cand.doc_id, len(doc_rank))
    return sorted(chosen, key=lambda c: (doc_rank[c.doc_id], c.unit.meta.get("order", 0), part_number(c.unit)))


def relevant_steps(steps: list[str], turn: Turn, n: int, weight: dict[str, float] | None = None) -> list[str]:
    """The run of ``n`` consecutive steps that names most of what the last question asks about
    (ties: the earlier run)."""
    question = turn.question_terms
    gain = [sum((weight or {}).get(t, 1.0) for t in question & set(terms(step))) for step in steps]
    start = max(range(len(steps) - n + 1), key=lambda i: (sum(gain[i:i + n]), -i))
    return steps[start:start + n]


def compose_steps(chosen: list[Candidate], turn: Turn, p: ExtractiveParams,
                  source_index: dict[str, int], weight: dict[str, float] | None = None,
                  ) -> tuple[list[str], list[str]]:
    """Steps (with citations when ``p.cite``) and the ids of the units they came from, a unit's
    entries that the question names first (:func:`asked_steps`); a step that another unit's
    later step holds whole ("Choose Tools - Macros - Record Macro." and the
    guide's step that goes on from it) gives way to that one."""
    steps: list[str] = []
    plain: list[str] = []
    origin: list[str] = []  # the unit each step came from
    given: set[str] = set()  # ingredient lines an earlier step gave
    best = chosen[0].unit.id if chosen else ""
    asked = {c.unit.id: asked_steps(c.unit, turn) for c in chosen}
    # the units whose entries the question names first: what was asked
    for cand in sorted(_ordered(chosen), key=lambda c: not asked[c.unit.id]):
        budget = p.first_unit_steps if cand.unit.id == best else p.other_unit_steps
        # new steps only, before a runner-up's run is chosen among them
        named = asked[cand.unit.id]
        # a list of labelled items gives those that say what is asked, not the rest of the list
        rest = [] if named and not asked_entries(cand.unit, turn) else unit_steps(cand.unit)
        fresh = [s for s in named + [s for s in rest if s not in named]
                 if not turn.already_said(s) and not _is_duplicate(s, plain)]
        if cand.unit.id != best and len(fresh) > budget:
            fresh = relevant_steps(fresh, turn, budget, weight)
        for step in fresh:
            if len(steps) >= p.max_steps or budget <= 0:
                break
            if _is_duplicate(step, plain):
                continue  # repeats an earlier step of this same unit
            held = [i for i, earlier in enumerate(plain) if origin[i] != cand.unit.id and _is_duplicate(earlier, [step])]
            for i in reversed(held):
                del steps[i], plain[i], origin[i]
            plain.append(step)
            origin.append(cand.unit.id)
            budget -= 1
            step = with_amounts(step, cand.unit.meta.get("ingredients", []), given)
            steps.append(f"{step} [{source_index[cand.unit.id]}]" if p.cite else step)
    return steps, list(dict.fromkeys(origin))


def _sentence_score(sentence: str, turn: Turn, position: int) -> float:
    """How well a sentence answers the question; ``position`` is its unit's place in the
    selection (the best unit first). A sentence for a case the conversation has not named ("If
    you get linker errors, install a C compiler" to "How do I install Rust?") scores half."""
    found = set(terms(sentence))
    score = (2.0 * share(turn.question_terms, found) + 0.5 * share(turn.context_terms, found)
             + 0.2 * bool(found - turn.said_terms) + 0.4 / (1 + position))
    return score / 2 if unnamed_case(sentence, turn) else score


CONDITION = re.compile(r"^(?:for (?:example|instance),?\s+)?(?:if|when|whenever|in case)\b([^,]{1,120}),", re.I)


def unnamed_case(sentence: str, turn: Turn) -> bool:
    """A sentence that opens with a case ("If you get linker errors, ...") of which the
    question and the conversation name nothing."""
    case = CONDITION.match(sentence)
    return bool(case) and not set(terms(case[1])) & (turn.question_terms | turn.context_terms)


# a sentence for undoing something: "To cancel a task scheduled by cron, simply run crontab -e and
# delete the corresponding line"
UNDO_VERBS = ("cancel", "remove", "delete", "undo", "disable", "uninstall", "revert", "unmount", "deactivate",
              "unsubscribe", "unschedule", "unlock", "unshare", "turn off", "switch off")
UNDONE = ("cancell?ed", "removed", "deleted", "undone", "disabled", "uninstalled", "reverted", "unmounted",
          "deactivated", "turned off", "switched off")
# ... or says it can be undone: "Debian activates it by default, but this can be deactivated by changing ..."
UNDOING = re.compile(rf"^(?:for (?:example|instance),?\s+)?to (?:{'|'.join(UNDO_VERBS)})\b"
                     rf"|\bcan be (?:\w+ly )?(?:{'|'.join(UNDONE)})\b", re.I)
_UNDO_TERMS = frozenset(term for verb in UNDO_VERBS for term in terms(verb)) - {"turn", "switch"}


def undoes_unasked(sentence: str, turn: Turn) -> bool:
    """A sentence that says how to undo something ("To cancel a task scheduled by cron, ...")
    when the question asks to undo nothing ("How do I schedule a command ...?"; "delete" asks
    what "To remove ..." says)."""
    return bool(UNDOING.search(sentence)) and not _UNDO_TERMS & turn.question_terms


# a step that states how things are once a condition holds, and says nothing to do: "If you use
# rustup, Clippy is usually already installed" (no lead to the steps: "..., then follow the steps below")
STATEMENT = re.compile(r"^(?:if|when|once|after|where)\b[^,]{1,120},\s+(?!you\b)(?:[\w’']+\s+){1,2}"
                       r"(?:is|are|was|were|will|has|have|does)\b", re.I)
SEQUENCE_WORD = re.compile(r"^(?:then|next|finally|also|afterwards|now|additionally),?\s+(?=\w)", re.I)
# a sentence that needs the one before it to be understood: "If that happens, ...", "In that case, ...",
# "If it isn't, ..."
ANAPHORIC = re.compile(r"^(?:if (?:that|this) happens|if so|if not|in (?:that|this|either) case|otherwise|"
                       r"if (?:it|this|that|they) (?:isn['’]t|aren['’]t|doesn['’]t|don['’]t|is not|are not|does not|do not)"
                       r")\b", re.I)
# a sentence that fills in a placeholder of the example before it: "Replace package with the name of
# a source or a binary package.", "Replace HOST with your server's name."
PLACEHOLDER = re.compile(r"^(?:replace|substitute)\s+\S+(?:\s+\S+)?\s+(?:with|by)\s+(?:the\s+(?:name|path|address|"
                         r"number|id|version|value)s?\s+of\b|your\b|the\s+(?:actual|real|correct)\b)", re.I)
# a sentence that goes on from the one before it: "And to reset back to the default driver: …",
# "They can be listed with their size by the following: …", "That's all the information you need to provide: …"
GOES_ON = re.compile(r"^(?:and|but|so|they|it|this|that|these|those|then)\b", re.I)
# what to do instead of what the page said first: "Another option is to generate an empty bare
# repository at the client", "Alternatively, you can delete just the local cache": no lead
OTHER_WAY = re.compile(r"^(?:another|alternatively|instead|or)\b", re.I)
# a note's sentence, set aside from what to do ("Warning: If you plan to copy the binary ..."): no lead
NOTE_OPENING = re.compile(rf"^(?:{NOTE_LABELS})\s*:", re.I)
# a name as written in code: "http.proxy", "html_logo_url"; a command that names an entry, before
# what it does ("neighbor A.B.C.D activate: This configuration modifies ...")
NAME_FIRST = re.compile(r"^[a-z][\w-]*[._(\[:$][\w.()\[\]-]*"
                        r"|^[a-z](?=(?:[^:.]|\.\S){0,80}?(?:\b[A-Z][A-Z0-9_.]*[A-Z0-9]\b|[\[<{(|_]|\w-\w))"
                        r"(?:[^:.]|\.\S){0,80}: [A-Z]")


def _opening(sentence: str) -> str:
    """A sentence as the answer's first: without the word that placed it in a sequence ("Then,
    check ..."), starting with a capital ("bring the milk to 45°C") unless it starts with a name
    as written in code ("http.proxy: Sets ...", "neighbor PEER activate: Enables ...")."""
    sentence = SEQUENCE_WORD.sub("", sentence)
    return sentence if NAME_FIRST.match(sentence) else sentence[:1].upper() + sentence[1:]


def _reads_as_prose(sentence: str) -> bool:
    """Prose, or prose that introduces the command it ends with ("If you're using Linux or
    macOS, open a terminal and enter the following command: $ curl ... | sh"), not a session
    with what its commands print."""
    head, colon, tail = sentence.partition(": ")
    introduces = bool(colon) and len(head.split()) >= 5 and is_prose(head)
    return is_prose(sentence) or (introduces and ("; " not in tail or len(tail.split()) <= 12))  # one command, or a few


LEAD_CODE_WORDS = 12  # code this short that a sentence introduces may lead with it, as what to do
LEAD_CODE = re.compile(r"[A-Za-z.$\\/~<:]")  # ... when it is a command, a path or markup, not a drawing ("---o---o")
LEAD_STEP_WORDS = 40  # a step longer than this leads the answer with its opening only


def _step_opening(step: str) -> str:
    """A step as the answer's lead: whole, or when longer than :data:`LEAD_STEP_WORDS` words
    (the code of a file with the notes on it) the words that introduce its code ("Add the
    following domain XML elements to share the host directory /path with the guest"), else its
    first sentence; "" for such a step that runs code alone."""
    if len(step.split()) <= LEAD_STEP_WORDS:
        return step
    head, colon, _ = step.partition(": ")
    if colon and 5 <= len(head.split()) <= LEAD_STEP_WORDS:
        return head
    if step.startswith("Run "):
        return ""  # a long block of code with no words of its own (a table's schema) leads nothing
    return SENTENCE_BREAK.split(step, maxsplit=1)[0]


def is_faq(unit: Unit) -> bool:
    """An FAQ entry, or a section whose header asks a question: its opening answers the question
    ("No." and why; "Why did MakeMaker reinvent the wheel? …"), whatever it says."""
    return isinstance(unit, LogicUnit) and (unit.type == "FAQ" or own_header(unit).rstrip().endswith("?"))


def plain_answer(chosen: list[Candidate], extra: list[Unit], turn: Turn, steps: list[str]) -> str:
    """One or two sentences of the selected units: the opening of a section that answers the
    question (:func:`section_answer`) when it is an FAQ entry's, says what to do or introduces
    code, or when the user asks no how-to or the section has no steps; else what to do, then
    why. A sentence that starts in lower case is the rest of one that a list or a command broke
    off, and is left out, and so are exclamations, questions, sentences that need the one before
    them (:data:`ANAPHORIC`) or fill in its example's placeholder (:data:`PLACEHOLDER`), a labelled
    value ("Type: string (host and path)") and sentences that end introducing what follows them ("You can change it by the following."); a sentence of
    the chosen documents' other units (``extra``) leads only if it names something the question
    asks about; a note's sentence (:data:`NOTE_OPENING`) may say why, but not what to do, and one
    that offers another way (:data:`OTHER_WAY`) does not lead, nor does one that says how to undo
    something when the user asks to undo nothing (:func:`undoes_unasked`). A sentence that
    introduces a short command says what to do with it ("For mail through a smarthost, you
    reconfigure the packages as the following: sudo dpkg-reconfigure exim4-config"), unless it
    goes on from the one before it (:data:`GOES_ON`). A reference entry that the question names (:func:`asked_entries`) leads,
    and says why only in its own words."""
    # a section that answers by an entry the question names (or an option that does what it asks)
    # leads with that entry, not its opening
    said = section_answer(chosen[0].unit) if chosen and chosen[0].answers \
        and not (asked_entries(chosen[0].unit, turn) or answers_by_option(chosen[0].unit, turn)) else ""
    page_steps = bool(chosen) and any(c.doc_id == chosen[0].doc_id and unit_steps(c.unit) for c in chosen[1:])
    if said and not (turn.asks_how and not is_faq(chosen[0].unit) and (unit_steps(chosen[0].unit) or page_steps)
                     and not introduced(unit_text(chosen[0].unit))
                     and not any(says_what_to_do(s) for s in sentences(said))):
        return said  # unless it only sets the scene for the steps (its own, its page's) of what the user asks how to do
    only = unit_steps(chosen[0].unit) if chosen and chosen[0].answers else []
    if len(only) == 1:  # a section that answers with one command alone
        return f"{_opening(only[0]).rstrip('.;,: ')}."
    pool: dict[str, float] = {}
    aside: set[str] = set()
    gives_code: set[str] = set()  # sentences that introduce what to type, with it
    # a step that a sentence introducing code became, with the code: "You can change it by the
    # following: `sudo update-alternatives --config editor`"
    with_code = {step.split(": ", 1)[0]: step for step in (_CITED.sub("", s) for s in steps) if ": " in step}
    for position, unit in enumerate([c.unit for c in chosen] + extra):
        for s in sentences(commands_typed(unit_text(unit))):  # a session's commands, not what they print
            if 5 <= len(s.split()) <= 45 and s[0].isupper() and _reads_as_prose(s) and not BOILERPLATE.search(s) \
                    and not ANAPHORIC.match(s) and not PLACEHOLDER.match(s) and not s.endswith(("!", "?")) \
                    and not turn.already_said(s, 0.7) and not labelled_values(s, labels=1):
                # "... quite enterprising so you decide to try to fix the bug!" sets a scene
                introduces = INTRODUCES.search(s) or s.rstrip(".:") in with_code
                if introduces:  # "... you can specify: `Pgp: E`"
                    s = with_code.get(s.rstrip(".:"), "")
                # what to type, in the sentence that introduces it (a session's command stands in it
                # already: "… as the following: sudo dpkg-reconfigure exim4-config")
                code = s.partition(": ")[2]
                if (introduces or with_code.get(s.partition(": ")[0]) == s) and len(code.split()) <= LEAD_CODE_WORDS \
                        and LEAD_CODE.match(code) and not GOES_ON.match(s):
                    gives_code.add(s)
                if s and s not in pool:
                    pool[s] = _sentence_score(s, turn, position)
                    if position >= len(chosen) and not turn.question_terms & set(terms(s)):
                        aside.add(s)  # another section's, naming nothing asked: no lead
    # what a clause of purpose or result lets someone do is no action ("This way, you can search ...")
    # a note says what to mind, not what to do first: it may say why, but leads nothing; nor does how
    # to undo something, unless the user asks to undo
    actions = sorted((s for s in pool if (ACTION_CUE.search(without_consequences(s)) or CASE_ACTION.match(s)
                                          or s in gives_code)
                      and not NOTE_OPENING.match(s) and not OTHER_WAY.match(s) and s not in aside
                      and not undoes_unasked(s, turn)),
                     key=lambda s: -pool[s])
    causes = sorted((s for s in pool if CAUSE_CUE.search(s)), key=lambda s: -pool[s])
    lead = _opening(actions[0]) if actions else ""
    if asked := next((entry for c in chosen for entry in asked_steps(c.unit, turn)), ""):
        name, _, does = asked.partition(": ")  # the name as typed: "debug bgp updates: Enable or ..."
        lead = f"{plain_text(name)}: {first_sentence(does, max_words=45)}"
    if not lead and steps:
        # a step that describes is no lead ("The opt-level setting controls the level of optimization")
        doing = [step for step in (_CITED.sub("", s) for s in steps) if not describes(step)]
        # a reference entry: what the name does ("http.proxy: Sets ..."), the best unit's if it is one
        best = unit_steps(chosen[0].unit)[:1] if chosen else []
        entry = next((step for step in doing if step in best and defines(step)), "")
        if entry or doing and defines(doing[0]):
            lead = _opening(entry or doing[0])
        elif doing and not STATEMENT.match(plain_text(doing[0])) and (opening := _step_opening(doing[0])):
            lead = _opening(opening.rstrip('.;,: '))
            if not states(opening):  # "Libvirt does support SEV, but …" sends no one to the steps
                lead = f"{lead}, then follow the steps below."
        elif pool:
            lead = max(pool, key=lambda s: pool[s])
    if asked:  # the entry says why in its own words, not in another entry's
        causes = [s for s in causes if s in plain_text(asked)]
    why = next((s for s in causes if not _is_duplicate(s, [lead])), "")  # not the lead again
    answer = " ".join(s if s.endswith((".", "!", "?")) else f"{s.rstrip(';,: ')}." for s in (lead, why) if s)
    return answer or "No matching instructions were found."


# the case a section opens with, which the user's question has said already: "You want all HTTP
# requests to be redirected to HTTPS."
SCENARIO = re.compile(r"^(?:description:\s*)?(?:you (?:want|would like|wish)|you['’]d like|suppose|imagine|say you)\b",
                      re.I)


def section_answer(unit: Unit, max_words: int = 60) -> str:
    """The answer of a section that asks the question (an FAQ entry) as it opens: its first two
    sentences ("No." with the one that says why; a third when two make fewer than 8 words, from
    the next paragraph when its first says only "Yes!"), at most ``max_words`` words, code left
    out. An opening that ends introducing a list, a message or a command ("It identifies local
    ports this way:") goes on with what it introduces, as far as the words allow; a reference
    entry's opens with the name it defines ("port (integer): The TCP port ..."). "" when the
    section opens with no prose (a list alone, a shell session alone)."""
    text = unit_text(unit)
    found = paragraphs(text)
    opening = next(iter(found), "")
    answer: list[str] = []
    faq = is_faq(unit)
    scene = False  # the opening set the user's scene
    for paragraph in found:
        for sentence in SENTENCE_BREAK.split(paragraph):
            if not answer and SCENARIO.match(sentence):
                scene = True  # the user's wish said again ("You want all requests ...", "Say you
                continue      # want to prune /var/log faster than the rest of /.")
            if is_metadata(sentence) or sentence.endswith("?") and (not faq or scene and not answer):
                # who wrote the page, a question a section asks before it answers ("Why would
                # someone want to compile a new kernel?"); an FAQ entry's answer may ask again
                # ("Why did MakeMaker reinvent the wheel? Because …"), but not the question of the
                # scene it set ("How do we implement that?")
                continue
            if answer and len(" ".join([*answer, sentence]).split()) > max_words:
                break
            answer.append(sentence)
            if len(answer) >= 2 and len(" ".join(answer).split()) >= 8:
                break
        if len(" ".join(answer).split()) >= 8:
            break  # a paragraph of its own that says only "Yes!" goes on with the next
    said = " ".join(answer)
    name = entry_name(unit)  # a reference entry's answer says what it is the entry for
    follows = introduced(text) if said and said == opening else []
    if follows and follows[0] in said:
        follows = []  # the opening holds the command it introduces already
    if follows:
        room = max_words - len(said.split())
        items = " ".join(f if f.endswith((".", "!", "?", ";")) else f"{f};" for f in follows)
        words = items.rstrip(";").split()  # items that are no sentences join with ";"
        said = f"{said}: {' '.join(words[:room])}" + (" …" if len(words) > room else "")
    return f"{name}: {said}" if name and said else said


def compose(hits: list[Hit], turn: Turn | None = None, params: ExtractiveParams | None = None,
            *, cite: bool | None = None, extra: list[Unit] | None = None,
            ) -> tuple[str, list[str], dict[str, Any]]:
    """Answer text, steps and what was used, from ranked hits (no model)."""
    p = params or ExtractiveParams()
    if cite is not None:
        p = dataclasses.replace(p, cite=cite)
    turn = turn or Turn("")
    if not hits:
        return "No matching instructions were found.", [], {"used_units": []}
    candidates = _candidates([(hits, 1.0)])
    return _compose(candidates, turn, p, extra or [])


def names_page(candidate: Candidate, turn: Turn) -> bool:
    """Whether the question names the candidate's page: every word of a title of two or more
    ("Buying Shares" for "How do I buy shares?"), whether or not the conversation's document
    ranking has the page among its first (a neighbouring page, "Selling Shares", names the
    shares it buys more often)."""
    title = set(terms(str(candidate.unit.meta.get("title", ""))))
    return len(title) >= 2 and title <= turn.question_terms


def _candidates(searches: list[tuple[list[Hit], float]]) -> list[Candidate]:
    found: dict[str, Candidate] = {}
    for hits, weight in searches:
        for hit in hits:
            cand = found.setdefault(hit.unit.id, Candidate(hit))
            cand.retrieval += weight / (3 + hit.rank)
    return list(found.values())


def _compose(candidates: list[Candidate], turn: Turn, p: ExtractiveParams,
             extra: list[Unit] | Callable[[list[str]], list[Unit]],
             ) -> tuple[str, list[str], dict[str, Any]]:
    """``extra``: more units for the plain answer, or how to find them in the chosen documents."""
    best_retrieval = max((c.retrieval for c in candidates), default=0.0)
    weight = term_weights([c.unit for c in candidates])
    title_weight = title_weights([c.unit for c in candidates])
    for cand in candidates:
        cand.score = score(cand, turn, best_retrieval, weight, title_weight)
    chosen = select(candidates, turn, p)
    order = [c.hit for c in _ordered(chosen)] + [c.hit for c in sorted(candidates, key=lambda c: -c.score)
                                                 if c not in chosen]
    source_index = {s.unit_id: i for i, s in enumerate(sources_from_hits(order), 1)}
    steps, used = compose_steps(chosen, turn, p, source_index, weight)
    if callable(extra):
        extra = extra(list(dict.fromkeys(c.doc_id for c in chosen)))
    answer = plain_answer(chosen, extra, turn, steps)
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
        kinds = list(dict.fromkeys([p.unit_kind, "logic_unit"]))
        with trace.stage("retrieve", query=query.query, k=p.k) as stage:
            searches: list[tuple[list[Hit], float]] = []
            used_kinds = []
            quoted = " ".join(turn.quotes)
            weights = {kind: retriever.rank_weight(kind) for kind in kinds}
            for kind in kinds:
                for text in dict.fromkeys([query.query, turn.question, quoted]):
                    if text:
                        hits, used = retriever.search(text, k=p.k, kind=kind, question=(
                            query.question if text == query.query else None))
                        searches.append((hits, weights[kind]))
                        used_kinds.append(used)
            quoting = self._quoting(retriever, turn, kinds, searches) if quoted else []
            top_documents = retriever.documents(request.history, turn.question, k=p.top_documents)
            if top_documents and p.within_top_documents and request.documents is None:
                # the sections of the memory's first pages that answer best, found or not (given
                # documents are few, and searched already: step coverage 0.458 -> 0.446 there)
                for kind in kinds:
                    hits, _ = retriever.search(query.query, k=p.within_top_documents, kind=kind,
                                               within=top_documents)
                    searches.append((hits, weights[kind]))
            searches += self._topic_parts(retriever, searches, weights.get("logic_unit", 1.0))
            candidates = _candidates(searches)
            for cand in candidates:
                cand.quoted = cand.doc_id in quoting
                cand.top_document = cand.doc_id in top_documents or bool(top_documents) and names_page(cand, turn)
            all_hits = [h for hits, _ in searches for h in hits]
            restating = self._restating(retriever, turn, candidates)
            close = retriever.closeness(query.query, [c.unit for c in candidates]) if p.join_closeness else None
            for cand, closeness in zip(candidates, close or [None] * len(candidates), strict=True):
                cand.closeness = closeness
            stage.details.update(kind=used_kinds[0] if used_kinds else p.unit_kind,
                                 kinds=list(dict.fromkeys(used_kinds)),
                                 hits=[hit_record(h) for h in searches[0][0]] if searches else [],
                                 top_documents=top_documents, restating=restating)
            if quoted:
                stage.details.update(quotes=turn.quotes, quoting_documents=quoting)
        if turn.reports_failure:
            self._follow_linkers(trace, retriever, turn, candidates)
        if not all_hits:
            with trace.stage("compose") as stage:
                stage.details["used_units"] = []
            return Answer(answer="No matching instructions were found.", procedures=[], trace=trace)
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

    def _topic_parts(self, retriever: Retriever, searches: list[tuple[list[Hit], float]],
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

    def _restating(self, retriever: Retriever, turn: Turn, candidates: list[Candidate]) -> list[str]:
        """The candidate sections whose own header asks the last question in other words ("I've
        made a change with a bug and it's been included in the main branch. How should I undo
        it?" for "I committed a bug that is already on the main branch. How do I undo it?"):
        marked :attr:`Candidate.restates`; their ids (none without an embedding model)."""
        if not self.params.restates:
            return []
        pool = [c for c in candidates if isinstance(c.unit, LogicUnit) and part_number(c.unit) == 1
                and len(own_header(c.unit).split()) > 1]
        similar = retriever.text_closeness(turn.question, [own_header(c.unit) for c in pool])
        for cand, similarity in zip(pool, similar or [0.0] * len(pool), strict=True):
            cand.restates = similarity >= self.params.restates
        return [c.unit.id for c in pool if c.restates]

    def _quoting(self, retriever: Retriever, turn: Turn, kinds: list[str],
                 searches: list[tuple[list[Hit], float]]) -> list[str]:
        """The documents among the hits that contain the message the user quotes; each is
        searched for the question as well (a page quotes the error in its symptoms and says what
        to do in another section), and those searches join ``searches``."""
        docs = sorted(quoting_documents(_candidates(searches), turn.quotes))
        if docs:
            for kind in kinds:
                hits, _ = retriever.search(turn.question, k=self.params.k, kind=kind, within=docs)
                searches.append((hits, 1.0))
        return docs

    def _follow_linkers(self, trace: Trace, retriever: Retriever, turn: Turn,
                        candidates: list[Candidate]) -> None:
        """The user says an earlier step did not work, or asks what is next after doing it: the
        units the last answer gave step back (its terms hold :data:`TRIED_SHARE` of their steps'),
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
                unit_terms = set(terms(" ".join(unit_steps(cand.unit)) or unit_header(cand.unit)))
                if share(unit_terms, said) < TRIED_SHARE:
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
                    if link.tag not in ("CONTINUE", "MITIGATE"):
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
