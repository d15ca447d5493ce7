"""The candidate units of an extractive answer, and how each scores against the last turn.

A candidate is a unit the searches found (its retrieval score is the sum of ``1 / (3 + rank)``
over them); :func:`score` weighs how well its header, text and page title match the last
question, what it adds to what the conversation already said, its kind, the user's setting, and
what the answerer learned of it: that the user has tried it, that a linker leads to it, that its
document quotes the user's error message or is among the memory's first documents for the
conversation. :mod:`procmem.answerers.extractive` selects among the candidates and composes.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from inscoqa.corpus.common import NOTE_LABELS
from procmem.answerers.base import SECTION_SEPARATOR
from procmem.answerers.clauses import DOES
from procmem.answerers.common import names
from procmem.answerers.prose import plain_text
from procmem.answerers.retrieval import Hit
from procmem.answerers.steps import (
    command_summary,
    entry_step,
    list_items,
    option_items,
    unit_header,
    unit_steps,
    unit_text,
    usage_options,
)
from procmem.answerers.turn import LIGHT_VERBS, UNDO, Turn, narrowed, setting_factor, settings_named
from procmem.extract.markdown import (
    TABLE_RULE,
    first_sentence,
    one_line,
    split_sentences,
    table_cells,
)
from procmem.extract.roles import labels_a_part
from procmem.retrieval.query import terms
from procmem.retrieval.quotes import documents_naming, documents_quoting
from procmem.units import LogicUnit, Unit, asks, defines_asked, own_header

DUPLICATE_SIMILARITY = 90.0  # rapidfuzz ratio of two texts that say the same
QUOTE_FACTOR = 1.5  # a unit of a document that contains the message the user quotes
# a page whose statement of the problem (its "Symptoms") holds this weighted share of the last
# question's terms describes what a user reports who followed an earlier answer's steps in vain:
# its units rank as a quoting page's do (the manager's "Delegates" group a delegate never appears
# in); step coverage 0.474 -> 0.478 with the memory over every bundled document (0.35: 0.478 with a
# worse answer elsewhere, 0.55: 0.476)
DESCRIBED_TEXT = 0.45
DOCUMENT_FACTOR = 1.5  # a unit of a document the memory ranks first for the conversation
ELSEWHERE_FACTOR = 0.5  # a follow-up's unit of another product than the conversation's
# weight of the share of a unit's page title that the last question names ("out of garam masala,
# can I make my own?": the garam masala page, not the biriyani recipe the conversation is about);
# step coverage 0.421 -> 0.436 with the memory over every bundled document, 0.428 -> 0.432 given
# (0.05: 0.427 / 0.428, 0.2: 0.431 / 0.435; counting the earlier questions too: 0.423 / 0.428)
TITLE_WEIGHT = 0.1
ANSWERS_FACTOR = 1.5  # a section whose header asks the question (asks) ranks above units sharing its words
WHY = re.compile(r"^why\b", re.I)  # a question of cause: "Why is Cargo rebuilding my code?"
PROBLEM_HEADER = re.compile(r"^(?:what causes|cause|symptoms?|problem|more information|summary)\b", re.I)
# a section in which a page speaks of itself ("Abstract": "In this paper, I describe how to write
# syslog messages to a MySQL database"; "Conclusion": "With minimal effort, you can …"; Office's
# "Introduction": "This article describes …"), not of what to do
SELF_HEADER = re.compile(r"^(?:abstract|conclusions?|introduction|background|overview)\b", re.I)


@dataclass
class Candidate:
    hit: Hit
    retrieval: float = 0.0  # sum of 1 / (3 + rank) over the searches that found it
    linked: bool = False  # reached through a linker of a unit the user already tried
    setting: float = 1.0  # how well the unit fits the user's setting (setting_factor)
    tried: bool = False  # the user reports that this unit's steps did not work
    quoted: bool = False  # its document contains the message the user quotes
    described: bool = False  # its document's statement of the problem is what the user reports
    answers: bool = False  # a section whose header is the user's question, or names what it asks about
    restates: bool = False  # its header asks the user's question in other words (by meaning)
    pointed_to: bool = False  # a section of its page sends the reader to it for what the user asks
    # its sentence that says what lets one do what the user asks how to do (offering_sentence), if any
    offer: str = ""
    closeness: float | None = None  # how close in meaning it is to the conversation's query (None: unknown)
    # its document is among the first of the conversation's document ranking (and not elsewhere), or
    # the question names its page
    top_document: bool = False
    # a follow-up's unit of another product than the conversation's first document (other_product)
    elsewhere: bool = False
    score: float = 0.0
    why: dict[str, float] = field(default_factory=dict)

    @property
    def unit(self) -> Unit:
        return self.hit.unit

    @property
    def doc_id(self) -> str:
        return str(self.unit.meta.get("doc_id", ""))

    @property
    def corpus(self) -> str:
        return str(self.unit.meta.get("corpus", ""))

    @property
    def manual(self) -> str:
        """The manual (one product's documentation) the unit comes from, where its corpus holds
        several: the folder with the manual's start page (``CorpusIndex.manual``); "" when the
        unit was built without one."""
        return str(self.unit.meta.get("manual", ""))

    def other_product(self, other: Candidate) -> bool:
        """Whether the two units document different products: they come from different corpora,
        or from different manuals of one (a unit built without its manual is of its corpus's)."""
        return self.corpus != other.corpus or bool(self.manual and other.manual and self.manual != other.manual)


def share(wanted: set[str], found: set[str], weight: dict[str, float] | None = None) -> float:
    """The (weighted) share of ``wanted`` that is in ``found``."""
    if not wanted:
        return 0.0
    if weight is None:
        return len(wanted & found) / len(wanted)
    total = sum(weight.get(t, 1.0) for t in wanted)
    return sum(weight.get(t, 1.0) for t in wanted & found) / total


def term_weights(units: list[Unit]) -> dict[str, float]:
    """Inverse document frequency of each term over the candidate units: a term most
    candidates share ("set", "open") says less about which one answers."""
    return _idf([unit.render() for unit in units])


def title_weights(units: list[Unit]) -> dict[str, float]:
    """Inverse document frequency of each term over the candidates' page titles: the name of
    the site that every title carries ("Installation - Clippy Documentation") says nothing of
    a page's subject."""
    return _idf(list(dict.fromkeys(str(unit.meta.get("title", "")) for unit in units)))


def _idf(texts: list[str]) -> dict[str, float]:
    df: dict[str, int] = {}
    for text in texts:
        for term in set(terms(text)):
            df[term] = df.get(term, 0) + 1
    n = len(texts)
    return {t: math.log(1 + (n + 1) / (d + 0.5)) for t, d in df.items()}


def unit_settings(unit: Unit) -> set[str]:
    """The settings a unit is written for: those its header and opening words name, then those
    of the sections it sits in ("Configuration File" > "macOS Users" > "System-Wide
    Configuration File"), then its page's (title, prerequisites), each where the nearer names
    none of their kind (:func:`narrowed`)."""
    opening = " ".join(unit_text(unit).split()[:40])
    enclosing = " ".join(str(unit.meta.get("section", "")).split(SECTION_SEPARATOR)[:-1])
    page = " ".join([str(unit.meta.get("title", "")), str(getattr(unit, "prerequisite", "")),
                     str(getattr(unit, "input", ""))])
    own = narrowed(settings_named(f"{unit_header(unit)} {opening}"), settings_named(enclosing))
    return narrowed(own, settings_named(page))


def answers_a_question(unit: LogicUnit) -> bool:
    """An FAQ entry headed by a question that asks what to do, not why ("I've made a mistake in
    the last commit. How do I change it?"): its answer says what to do."""
    header = own_header(unit).rstrip()
    return header.endswith("?") and not WHY.match(header) and bool(unit_steps(unit))


def topic_of(unit: Unit) -> str:
    """The topic a logic unit is a labelled part of, as its section path: a guide that sets each
    topic out in parts (Apache's "Forbidding Image Hotlinking" > "Description:", "Solution:",
    "Discussion:"); "" for a section that names a topic of its own, and for a part of the page
    itself (Office's "Symptoms", "Resolution")."""
    path = str(unit.meta.get("section", "")).split(" > ") if isinstance(unit, LogicUnit) else []
    return " > ".join(path[:-1]) if len(path) >= 3 and labels_a_part(path[-1]) else ""


def is_problem(unit: Unit) -> bool:
    """A unit that describes a problem or its cause rather than what to do: a symptom, a cause
    (an FAQ unit, unless it answers a question of what to do: :func:`answers_a_question`), a
    definition, background with no step in it, a section in which the page speaks of itself
    (:func:`speaks_of_itself`)."""
    if isinstance(unit, LogicUnit) and (unit.type == "FAQ" and not answers_a_question(unit)
                                        or unit.type == "Terminology"
                                        or unit.type == "Appendix" and not unit_steps(unit)):
        return True
    return bool(PROBLEM_HEADER.match(unit_header(unit))) or speaks_of_itself(unit)


def speaks_of_itself(unit: Unit) -> bool:
    """A section in which the page speaks of itself (:data:`SELF_HEADER`)."""
    return bool(SELF_HEADER.match(unit_header(unit)))


# an entry of a reference section: its name as code or in bold, its other name in brackets and
# its marks, if any ("`CORRECT_ALL` (`-O`) <D>"), a colon, what it does
ENTRY = re.compile(r"^(?:`(?P<code>[^`\n]+)`|\*\*(?P<bold>[^*\n]+)\*\*)(?: \([^()\n]{1,40}\))?(?: <\w{1,3}>)*"
                   r":[ \t]+\S.*$", re.M)
ASKED_ENTRY_SHARE = 2 / 3  # of an entry's name that the question says


def asked_entries(unit: Unit, turn: Turn) -> list[str]:
    """The entries of a reference section that the last question names ("How do I debug BGP
    updates?" and "`debug bgp updates`: Enable or disable debugging for BGP updates."): of the
    entries whose names of two words or more the question says at least
    :data:`ASKED_ENTRY_SHARE` of, those it says most of. A reference's entries are no steps
    otherwise: a section lists dozens, and many of them say some of the question's words (an
    option's "This option specifies whether MX records should be checked" is no answer to "How
    do I add an MX record?")."""
    question = turn.question_terms
    found: list[tuple[float, str]] = []
    for m in ENTRY.finditer(unit_text(unit)):
        name = set(terms(m.group("code") or m.group("bold")))
        if len(name) >= 2 and (said := len(name & question) / len(name)) >= ASKED_ENTRY_SHARE:
            found.append((said, one_line(m.group(0))))
    best = max((said for said, _ in found), default=0.0)
    return [entry for said, entry in found if said == best]


def entry_names(unit: Unit) -> set[str]:
    """The names of a reference section's entries (:data:`ENTRY`), as plain text."""
    return set(entries_by_name(unit))


def is_entry_step(step: str, entries: set[str]) -> bool:
    """Whether a step is one of a reference's entries (its label before ": " is one of
    ``entries``, :func:`entry_names`)."""
    return plain_text(step).partition(": ")[0] in entries


def entries_by_name(unit: Unit) -> dict[str, str]:
    """A reference section's entries (:data:`ENTRY`), each as one line, by their names as plain text."""
    return {(m.group("code") or m.group("bold").strip()): one_line(m.group(0))
            for m in ENTRY.finditer(unit_text(unit))}


# an item of a list of labelled items: a key, an option, a field, then a colon and what it does
LABELLED_ITEM = re.compile(r"^(?P<label>[^:\s][^:]{0,40}):\s+(?P<text>\S.*)$")
MAX_DESCRIBED = 3  # more items that say every word of the question are no answer to it


def defined_terms(unit: Unit, turn: Turn) -> list[str]:
    """The items of a list of terms that say what the question asks the meaning of ("What does
    it mean when a process says zombie?" and "Zombie: A zombie process is one that …"): the
    question names every word of the item's label. None when the question asks no meaning."""
    if not turn.asks_meaning:
        return []
    return [item for item in list_items(unit) if (label := LABELLED_ITEM.match(item))
            and (term := set(terms(label["label"]))) and term <= turn.question_terms]


def _labelled(steps: list[str], words: int = 6) -> list[tuple[str, re.Match[str]]]:
    """The steps that are labelled items (a label of at most ``words`` words), with their match."""
    return [(step, m) for step in steps
            if (m := LABELLED_ITEM.match(plain_text(step))) and len(m["label"].split()) <= words]


def is_labelled_list(steps: list[str]) -> bool:
    """Whether most steps are items labelled by a name of at most three words ("start: Start
    the Apache httpd daemon."): a list of entries (options, commands, keys), not a procedure,
    whose sentences may end introducing code ("To create the file, type: `htpasswd …`")."""
    return 2 * len(_labelled(steps, words=3)) > len(steps)


def described_steps(unit: Unit, turn: Turn, steps: list[str] | None = None) -> list[str]:
    """The items of a list of labelled items (most of the unit's steps: key bindings, menu
    commands, options) whose label and first sentence say every word of the last question but
    those of the page's title (the product it names), two words or more, when at most
    :data:`MAX_DESCRIBED` do: Gwenview's "Ctrl+Shift+R: Rotate the current image to the left."
    for "And how do I rotate it to the left?", where the list's first items ("Alt+Up: Moves to
    the parent folder") led the answer, and "Edit → Crop: This operation lets you discard parts
    of the image" for "How do I crop an image in Gwenview?"; a list of options or commands, which
    holds no steps, by its items (:func:`option_items`: "dpkg --listfiles package (or -L): Lists
    the files installed by this package." for "How do I list the files installed by a
    package?"), and a list that gives no steps by the one item that says every word asked (the
    Handbook's syslog actions: "send the message to a remote `syslog` server (example:
    `@log.falcot.com`)" for "How do I send logs to a remote server?"), and a table of a dialog's
    elements, when the steps are no labelled list, by the one row that says every word asked but
    a verb that names no action (the MATE guide's "Autohide: Select this option if you want the
    panel to only be fully visible …" for "How do I make the panel hide automatically?").
    ``steps``: the unit's steps, when known."""
    question = turn.question_terms - set(terms(str(unit.meta.get("title", ""))))
    # a command's usage lists its options after what the command does: one that does the asked
    # action says it first ("Follow log output", "Automatically remove the container when it
    # exits"; not "Push all tagged images" for tagging one)
    options = [option for option in usage_options(unit)
               if not turn.action or terms(_ADVERB.sub("", option.partition(": ")[2]))[:1] == turn.action[:1]]
    steps = [*((unit_steps(unit) if steps is None else steps) or option_items(unit)), *options]
    if len(question) < 2:
        return []
    labelled = _labelled(steps)
    if not steps or 2 * len(labelled) < len(steps):
        # a list that gives no steps (the actions a setting may name: "send the message to a
        # remote `syslog` server (example: `@log.falcot.com`);"), or a table of a dialog's
        # elements, which are no steps ("| Autohide | Select this option if you want the panel to
        # only be fully visible when the mouse pointer is over it. … |"): its one item that says
        # it all, but for a verb that names no action ("How do I make the panel hide automatically?")
        rows = [f"{label}: {text}" for label, text in table_rows(unit)]
        items = rows if steps else [*list_items(unit), *rows]
        wanted = question - LIGHT_VERBS
        said = [item for item in items if wanted <= set(terms(item)) and does_asked_action(item, turn)]
        return said if len(said) == 1 else []
    found = [step for step, m in labelled
             if question <= set(terms(f"{m['label']} {first_sentence(m['text'], max_words=40)}"))
             and does_asked_action(step, turn)]
    return found if len(found) <= MAX_DESCRIBED else []


def does_asked_action(item: str, turn: Turn) -> bool:
    """Whether a list's item does the action the question names (:attr:`Turn.named_action`), by
    its label ("Edit → Crop") or as what its text says first ("Rotate the current image to the
    left", "Lists the files …"), not in a clause of its description ("Use arithmetic coding:
    Arithmetic encoding is a form of entropy encoding that … can be used in exporting as JPEG" is
    no way to export); any item when the question names no action of its own."""
    action = turn.named_action
    if not action:
        return True
    labelled = LABELLED_ITEM.match(plain_text(item))
    label, text = (labelled["label"], labelled["text"]) if labelled else ("", item)
    return bool(action & set(terms(label))) or bool(action & set(terms(_ADVERB.sub("", text))[:1]))


_ADVERB = re.compile(r"^(?:\w+ly\s+)+")  # "Automatically " before what an option does


def answers_by_option(unit: Unit, turn: Turn, steps: list[str] | None = None) -> bool:
    """The unit has no steps (``steps``, when known), and one of its list of options or commands
    does what the last question asks (:func:`described_steps`)."""
    steps = unit_steps(unit) if steps is None else steps
    return not steps and bool(described_steps(unit, turn, steps))


# a sentence that says what a thing lets one do: what follows is the thing's use ("The Network
# settings window enables you to define network proxy settings, and also to limit download and
# upload bandwidth.", "The Multi-Rename Tool allows us to rename many selected files at once")
OFFERS = re.compile(r"\b(?:enables?|lets?|allows?|permits?|helps?)\s+(?:you|us|users?|the user|one)\s+(?:to\s+)?"
                    r"(?P<use>[^.;!?]+)", re.I)
OFFERS_SHARE = 0.6  # of the question's (weighted) terms that the use names


def offering_sentence(unit: Unit, turn: Turn, weight: dict[str, float] | None = None) -> str:
    """When the user asks how to do something, the sentence of a logic unit that says that what
    it is about lets one do it (:data:`OFFERS`): the use it names says :data:`OFFERS_SHARE` of the
    last question's terms but those of the page's title, two or more ("Using the Network
    Window": "The Network settings window enables you to define network proxy settings, and also
    to limit download and upload bandwidth." for "How do I limit the upload bandwidth?", which a
    page's aside that "you can just utilize the Selective Sync feature" outranked, having a
    step); a sentence that names the page's subject before it says what that lets one do counts
    the title's terms too ("The New Layer command opens the … dialog that allows you to add a new,
    empty layer …" for "How do I add a new layer?"); or the clause of a sentence that says the
    page's subject does it (:func:`subject_does_asked`); "" when none does."""
    if not isinstance(unit, LogicUnit) or not turn.asks_how:
        return ""
    title = str(unit.meta.get("title", ""))
    subject = set(terms(_TITLE_ADDITIONS.sub("", title)))
    question = turn.question_terms - set(terms(title))
    said = split_sentences(plain_text(unit.body))
    for sentence in said:
        for offer in OFFERS.finditer(sentence):
            asked = turn.question_terms if subject and subject <= set(terms(sentence[:offer.start()])) else question
            if len(asked) >= 2 and share(asked, set(terms(offer["use"])), weight) >= OFFERS_SHARE:
                return sentence
    return next((clause for sentence in said if (clause := subject_does_asked(sentence, title, turn, weight))), "")


# what a page's title adds to the name of its subject: its number in the manual, and the chapter
# it belongs to in brackets ("2.6. Select By Color (Selection Tools)")
_TITLE_ADDITIONS = re.compile(r"^\s*[\d.]+\s+|\s*\([^()]*\)\s*$")
# a verb in the third person of the present: what a thing does ("selects", "crops", "rotates")
_DOES_WORD = re.compile(r"\b[a-z]{3,}s\b")
# where a clause of a sentence begins: after a semicolon or a colon, or at a conjunction that
# sets it beside another ("…; while the Select by Color tool selects …")
_CLAUSE_START = re.compile(r"(?:[;:]|\b(?:while|whereas|but)\b)\s+(?:(?:while|whereas|but)\s+)?", re.I)


def subject_does_asked(sentence: str, title: str, turn: Turn, weight: dict[str, float] | None = None) -> str:
    """The clause of ``sentence`` that names the subject of its page (its ``title``, without a
    number or a chapter's name) and then says that it does the action the last question asks how
    to do, as a verb in the present whose clause says :data:`OFFERS_SHARE` of the question's
    terms: a tool's page that opens with what it is for ("The Select by Color tool selects all
    pixels that are sufficiently similar in color to the pixel you click on, …" of "… while the
    Select by Color tool selects …", for "How do I select all the pixels of one color?", whose
    words are the tool's name); "" when it says none."""
    action = turn.named_action
    name = _TITLE_ADDITIONS.sub("", title)
    subject = set(terms(name))
    if not action or not subject:
        return ""
    for verb in _DOES_WORD.finditer(sentence):
        before = sentence[:verb.start()]
        if set(terms(verb[0])) != action or not subject <= set(terms(before)) \
                or share(turn.task_terms, set(terms(sentence[verb.start():])), weight) < OFFERS_SHARE:
            continue
        # the clause opens at the last boundary before the subject's first word is named
        named = min((found for word in name.casefold().split()
                     if (found := before.casefold().rfind(word)) >= 0), default=len(before))
        opening = max((m.end() for m in _CLAUSE_START.finditer(before[:named])), default=0)
        clause = sentence[opening:]
        return clause[:1].upper() + clause[1:]
    return ""


# a heading that names a task by its action: "Importing KeePass 1 Database", "Opening an Existing
# Database"; not a topic's ("Troubleshooting", "Getting Started", "Using the Network Window")
ACTION_HEADING = re.compile(r"^(?P<verb>[A-Z][a-z]{2,}ing)\b")
TOPIC_GERUNDS = frozenset({"troubleshooting", "getting", "understanding", "using", "working", "networking",
                           "logging", "printing", "scripting", "branching", "packaging", "testing"})


def section_heading(unit: Unit) -> str:
    """The heading of the unit's own section (its header without the page's title, for a
    procedure too, whose header is its goal)."""
    return str(unit.meta.get("section", "")).rsplit(" > ", 1)[-1] or own_header(unit)


def another_task(unit: Unit, best: Unit, turn: Turn) -> bool:
    """The unit's section names by its action another task than the one the user asks how to do,
    which the best unit's section names: "Importing KeePass 1 Database" and "Opening an Existing
    Database" beside "Creating Your First Database" for "How do I create a new password database
    in KeePassXC?" (each shares "database", and their steps followed the wizard's)."""
    action = set(turn.action)
    if not action or not action <= set(terms(section_heading(best))):
        return False
    heading = section_heading(unit)
    found = ACTION_HEADING.match(heading)
    return bool(found) and found["verb"].casefold() not in TOPIC_GERUNDS and not action <= set(terms(heading))


# actions that undo or reverse each other: a section headed by one ("How to Import Data from
# RoboForm") is no answer to how to do the other ("How can I export my database?")
OPPOSITE_ACTIONS = (("import", "export"), ("enable", "disable"), ("install", "uninstall"), ("add", "remove"),
                    ("add", "delete"), ("show", "hide"), ("lock", "unlock"), ("encrypt", "decrypt"),
                    ("upload", "download"), ("mount", "unmount"), ("connect", "disconnect"),
                    ("compress", "extract"), ("subscribe", "unsubscribe"), ("block", "unblock"),
                    ("merge", "split"), ("merge", "unmerge"), ("group", "ungroup"), ("protect", "unprotect"),
                    ("freeze", "unfreeze"), ("hide", "unhide"), ("insert", "delete"), ("create", "delete"),
                    # "back up" asks the verb "back"; a heading says "backing up", the one word
                    ("back", "restore"), ("backup", "restore"))
_OPPOSITE: dict[str, set[str]] = {}
for _one, _other in OPPOSITE_ACTIONS:
    _OPPOSITE.setdefault(terms(_one)[0], set()).add(terms(_other)[0])
    _OPPOSITE.setdefault(terms(_other)[0], set()).add(terms(_one)[0])
OPPOSITE_FACTOR = 0.5


def opposite_task(unit: Unit, turn: Turn) -> bool:
    """The heading of the unit's section names the action that reverses the one the question asks
    how to do, and not that one ("How to Import Data from RoboForm" for "How can I export my
    database?", though its page is "Import / Export")."""
    header = set(terms(section_heading(unit)))
    return any(_OPPOSITE.get(action, set()) & header and action not in header for action in turn.action)


def asked_steps(unit: Unit, turn: Turn) -> list[str]:
    """The entries the question names (:func:`asked_entries`), else the keys it asks for
    (:func:`asked_keys`), the labelled items that say what it asks (:func:`described_steps`) or
    the terms whose meaning it asks (:func:`defined_terms`)."""
    return asked_entries(unit, turn) or asked_keys(unit, turn) or described_steps(unit, turn) \
        or defined_terms(unit, turn)


# a key or a combination of keys, as a table's cell or a list item's label gives it: "Alt+Tab",
# "Ctrl+Shift+R", "Shift+Ctrl+Alt+Arrow keys", "F1", "Print Screen"
KEY = re.compile(r"^(?:(?:ctrl|control|alt|shift|super|meta|cmd|command|option|fn|win|windows)\s*\+\s*)+\S.{0,20}$"
                 r"|^f\d{1,2}$|^(?:esc|escape|tab|enter|return|delete|backspace|home|end|page ?up|page ?down|"
                 r"print ?screen|space(?:bar)?|insert)$", re.I)


def table_rows(unit: Unit) -> list[tuple[str, str]]:
    """The rows of the unit's tables as ``(first cell, the others)`` in plain text: a key and
    what it does, a dialog's element and what it sets; not a header row (one its separator row
    follows) nor the separator."""
    lines = unit_text(unit).splitlines()
    rows = []
    for line, after in zip(lines, [*lines[1:], ""], strict=True):
        if line.lstrip().startswith("|") and len(cells := table_cells(line)) >= 2 \
                and not TABLE_RULE.match(line) and not TABLE_RULE.match(after):
            rows.append((plain_text(cells[0]), plain_text(" ".join(cells[1:]))))
    return rows


# a key whose description opens with the action a how-question asks, and says this share of its
# task's terms, does it: "| Ctrl+K | Mark the selection as read. |" for "How do I mark all messages
# as read?", which a mail client's help says nowhere else
KEY_TASK_SHARE = 2 / 3


def asked_keys(unit: Unit, turn: Turn) -> list[str]:
    """The keys that do what the question asks a key for (:attr:`Turn.key_action`), as "key:
    what it does" lines: the rows of a table of keys, or the items of a list of them, whose
    description says every word of the action first (a desktop guide's "| Alt+Tab | Switch
    between windows. … |" for "What is the keyboard shortcut to switch between windows?"); for
    a question that asks how to do something, those that do it (:data:`KEY_TASK_SHARE`)."""
    if not turn.key_action and not (turn.asks_how and turn.named_action):
        return []

    def does_asked(said: list[str]) -> bool:  # the terms of a key's description
        if turn.key_action:  # (a how-question asks for no key)
            return turn.key_action <= set(said)
        return bool(said) and said[0] in turn.named_action and share(turn.task_terms, set(said)) >= KEY_TASK_SHARE

    pairs = table_rows(unit)
    for item in list_items(unit):
        if labelled := LABELLED_ITEM.match(item):
            pairs.append((labelled["label"].strip(), labelled["text"]))
    return [f"{key}: {text}" for key, text in pairs
            if KEY.match(key) and does_asked(terms(first_sentence(text, max_words=45)))]


# an asked entry answers the question when its name says this share of the question's terms:
# a menu reference's "View → Show Hidden Files" for "How do I show hidden files in Dolphin?", not
# "Move Into Folder" for "How do I create a filter that moves messages to a folder?" nor KMail's
# identity setting "OpenPGP encryption key" for "How do I encrypt an email with OpenPGP in KMail?"
# (at a half it did, above the composer's "select the Sign and / or Encrypt icon in the toolbar")
ENTRY_ANSWERS_SHARE = 0.6


def entry_share(unit: Unit, turn: Turn, weight: dict[str, float] | None = None) -> float:
    """The share of the last question's terms that the name of the unit's entry it names
    (:func:`asked_entries`) says; 0.0 when it names none."""
    entries = asked_entries(unit, turn)
    return share(turn.question_terms, set(terms(entries[0].partition(": ")[0])), weight) if entries else 0.0


# a setting's default value, noted after its name ("(default: 50000)", "(empty)")
DEFAULT_NOTE = re.compile(r"\((?:default\b[^)]*|empty)\)", re.I)


def defines_only(unit: Unit, steps: list[str]) -> bool:
    """Whether a unit's only step is a setting's entry, headed with its default value
    ("bounce_size_limit (default: 50000)", one of Postfix's hundreds of parameters): what the
    setting is, nothing to do, as against a command's entry ("markauto, unmarkauto: Mark packages
    as automatically installed …")."""
    return len(steps) == 1 and bool(entry_step(unit)) and bool(DEFAULT_NOTE.search(own_header(unit)))


# the actions of showing something: a command that fetches, lists or displays a thing does what
# "How do I see …?" asks
SHOWING = frozenset(terms("see view show display list fetch print inspect read look"))


def manual_share(unit: Unit, turn: Turn) -> float:
    """For a manual page's description, the share of the last question's terms that its line
    of what the command does says (:func:`command_summary`: "kzonecheck – Knot DNS zone file
    checking tool" for "How do I check a zone file for errors before loading it?", "The `docker
    rename` command renames a container." for "How do I rename a container?"), with the terms of
    what a pronoun of the question points back to (:attr:`Turn.referent_terms`: "Load an image …
    from a tar archive" for "How do I load it again …?" after one saved an image), each term counted
    alike (the words such a line uses are the manual's common ones: "zone", "file"); 0.0 for any
    other unit, and for a command that does not do the action the question asks about (`docker
    load`, "Load an image … from a tar archive", for "How do I save an image to a tar archive?";
    any way of showing a thing does what "How do I see …" asks, :data:`SHOWING`)."""
    said = set(terms(command_summary(unit)))
    if not said or not (said.issuperset(turn.action) or set(turn.action) & SHOWING and said & SHOWING):
        return 0.0
    return share(turn.question_terms | turn.referent_terms, said)


_WORD = re.compile(r"[\w$@<>/=.:-]+")
_NOTE_WORDS = {f"{label}:" for label in NOTE_LABELS.split("|")}


def is_duplicate(step: str, kept: list[str], min_words: int = 5) -> bool:
    """Near-identical to a kept step, or a part of one (the same step without its note, one of
    the sentences a kept step joins, the sentence it opens with, the same long step without the
    note put inside it: :func:`_holds_words`); not when the two name other things: parameters, settings,
    values ("for emails Sent As ...: ``-MessageCopyForSentAsEnabled $True``" and "for emails Sent
    On Behalf ...: ``-MessageCopyForSendOnBehalfEnabled $True``") or controls and panels ("Open
    the Activities overview and start typing Power." and "... typing Files.")."""
    key = step.casefold()
    start = key.rstrip(". ")
    named = names(step)
    said = set(_WORD.findall(key))
    # a short step whole, as the sentence another opens or ends with: "Click Create to
    # continue." and "Click Create to continue. Tip: …"; "Click on Settings." and the way there
    # joined with it (:func:`with_way_there`), "Open the Activities overview and start typing
    # Settings. Click on Settings."
    sentence = key.endswith(".") and len(start.split()) >= 2
    return any(fuzz.ratio(key, other.casefold()) >= DUPLICATE_SIMILARITY and _names_alike(step, named, other)
               or (len(start.split()) >= min_words and start in other.casefold())
               or (sentence and (other.casefold().startswith(key + " ") or other.casefold().endswith(". " + key)))
               or _holds_words(said, set(_WORD.findall(other.casefold())), 3 * min_words) for other in kept)


def _names_alike(step: str, named: set[str], other: str) -> bool:
    """Whether two steps name the same things (:func:`names`): a name only one of them has as
    a name, the other has as a word all the same (the sentence a command's block ran into:
    "… /path/to/ksr/file Save the output …" and "… /path/to/ksr/file: Save the output …")."""
    differ = named ^ names(other)
    return all(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", step if name not in named else other)
               for name in differ)


def _holds_words(step: set[str], other: set[str], min_words: int) -> bool:
    """A long step every word of which another says, which adds a note: the same step with a note
    put inside it ("… run the following cmdlet: Note: The value … can be found in the file that's
    saved in step 2. Set-RemoteMailbox …") holds another page's copy without the note; one that
    adds an instruction ("… make sure that Landscape is selected. In the Duplex drop-down list,
    select Short Edge. Click OK …") is another step."""
    return len(step) >= min_words and step <= other and bool(_NOTE_WORDS & (other - step))


def tells_what_it_does(steps: list[str]) -> bool:
    """Steps that each say what a command does ("Opens a dialog where you can select the source
    for your pivot table, and then create your table.", LibreOffice's entry for Insert - Pivot
    Table): a reference entry whose header restates the question ("Create (Pivot Table)" for "How
    do I create a pivot table?") answers less than a section that says how to do it."""
    return bool(steps) and all(DOES.match(plain_text(step)) for step in steps)


# what a header that names the action the question asks how to do (:attr:`Turn.named_action`)
# adds to its share of the question's terms: "Sending by Email" for "How do I email a scanned
# document …?", beside "Scanning a Page", which says more of the question's other words
ACTION_SHARE = 0.5
# a unit with steps that does not answer a question that asks for none (why, which or what: a
# procedure that shares its words) counts for this share of its score: the question asks for what
# explains or says so, not for what to do
STEPS_UNASKED_FACTOR = 0.8


def with_same_action(said: set[str], turn: Turn) -> set[str]:
    """The terms ``said`` of a text, and the verb of the action the question asks how to do
    when the text names that action by another verb (:attr:`Turn.other_verbs`): "Click File >
    New > Memo" says "create" of "How do I create a memo?", as "Send a shared memo … to create
    the entry" does."""
    return said | {verb for verb, others in turn.other_verbs.items() if others & said}


def header_share(asked: set[str], header: set[str], weight: dict[str, float] | None, turn: Turn) -> float:
    """The (weighted) share of the question's terms ``asked`` that a unit's ``header`` says, and
    :data:`ACTION_SHARE` more when it names the action the question asks how to do (in its verb
    or another verb for it, :attr:`Turn.other_verbs`). A header that names it by another verb
    says the question's verb too: "Adding a Bookmark" says "create" of "How do I create a
    bookmark in the file manager?", as much as "Create a folder (Working with Files)" says it;
    but only when it names something else the question asks ("Assigned Tasks (Adding a Task)"
    adds a task, and says nothing of "How do I create a calendar?")."""
    action = turn.named_action
    by_other_verb = with_same_action(header, turn) - header if (asked - action) & header else set()
    found = share(asked, header | by_other_verb, weight)
    named = bool(action) and (action <= header or bool(by_other_verb))
    return min(1.0, found + ACTION_SHARE) if named else found


def score(candidate: Candidate, turn: Turn, best_retrieval: float,
          weight: dict[str, float] | None = None, title_weight: dict[str, float] | None = None) -> float:
    unit = candidate.unit
    question = turn.question_terms
    header = set(terms(unit_header(unit)))
    body = set(terms(unit.render()))
    # a header asks the question without the product the question is asked in ("To Insert Page
    # Numbers" for "How do I insert page numbers in Writer?"), unless it names it too
    asked = question - (turn.scope_terms - header)
    parts = {
        "retrieval": candidate.retrieval / best_retrieval if best_retrieval else 0.0,
        "header": header_share(asked, header, weight, turn),
        "text": share(question, with_same_action(body, turn), weight),
        "context": share(turn.context_terms, body, weight),
    }
    title = set(terms(str(unit.meta.get("title", ""))))
    # the question names the page's subject, or points back to it by a pronoun ("How do I switch
    # it on …?" after "… take over my desktop …" names "Share your desktop")
    parts["title"] = share(title, question | turn.referent_terms, title_weight)
    # a reference entry that the question names is the section's header for it
    # and so is a manual page's description of a command that does what the question asks
    named = max(entry_share(unit, turn, weight), manual_share(unit, turn))
    if named >= ENTRY_ANSWERS_SHARE:
        parts["header"] = max(parts["header"], named)
    base = (0.3 * parts["retrieval"] + 0.3 * parts["header"] + 0.25 * parts["text"]
            + 0.15 * parts["context"] + TITLE_WEIGHT * parts["title"])
    said = turn.said_terms
    novelty = 1.0 - share(body, said) if body else 0.0
    steps = unit_steps(unit)
    if steps and turn.history and any(turn.asks_for_step(s) for s in steps):
        novelty = 1.0  # it says what the question asks, said or not (Turn.asks_for_step)
    elif steps and turn.history:
        # a unit whose steps an earlier answer gave has nothing new to say, however few of the
        # words around them were said
        novelty = min(novelty, sum(not turn.already_said(s) for s in steps) / len(steps))
    # what the conversation already said is no answer to a question that asks how to take back
    # what was done ("Can I reverse that?" after the steps to rename a batch of files), unless it
    # says how to undo it too (a note under the steps: "you can undo the rename")
    factor = novelty if turn.asks_to_undo and UNDO not in body else 0.5 + 0.5 * novelty
    # a section whose header is the question (an FAQ entry, background, steps), in its words or
    # in others (:attr:`Candidate.restates`), a reference entry for what the question names, a
    # manual page's description of a command that does what it asks (:func:`manual_share`), or
    # a list of options one of which does what it asks (:func:`answers_by_option`), or a sentence
    # that says what lets one do it (:func:`offering_sentence`): its opening or that entry is the
    # answer, whether or not it has steps or reads like a problem's statement
    # (a section with steps says how; a reference entry or a command's description that answers
    # says it in its own line)
    candidate.offer = offering_sentence(unit, turn, weight) if not steps and named < ENTRY_ANSWERS_SHARE else ""
    candidate.answers = candidate.restates or asks(unit, asked, terms) or defines_asked(unit, question, terms) \
        or named >= ENTRY_ANSWERS_SHARE \
        or answers_by_option(unit, turn, steps) or bool(candidate.offer) or bool(defined_terms(unit, turn)) \
        or turn.asks_how and bool(asked_keys(unit, turn))
    if candidate.answers and not (named < ENTRY_ANSWERS_SHARE and tells_what_it_does(steps)):
        factor *= ANSWERS_FACTOR
    elif (not steps or defines_only(unit, steps)) and not turn.asks_no_steps:
        factor *= 0.5  # (what explains or says so, asked why, which or what, has steps or none)
    elif steps and turn.asks_no_steps:
        factor *= STEPS_UNASKED_FACTOR
    if candidate.pointed_to and not candidate.answers:
        # its page sends the reader to it for what is asked; what it opens with need not say it
        factor *= ANSWERS_FACTOR
    if is_problem(unit) and not turn.asks_cause and not candidate.answers:
        factor *= 0.6
    if unit.kind == "chunk":
        factor *= 0.8
    if opposite_task(unit, turn):
        factor *= OPPOSITE_FACTOR
    candidate.setting = setting_factor(turn.setting, unit_settings(unit))
    factor *= candidate.setting
    if candidate.tried:
        factor *= 0.4
    if candidate.quoted or candidate.described:
        factor *= QUOTE_FACTOR
    if candidate.linked:
        factor *= 1.5
    if candidate.top_document:
        factor *= DOCUMENT_FACTOR
    if candidate.elsewhere and parts["title"] < 1 and not set(terms(candidate.manual.rsplit("/", 1)[-1])) & question \
            and not turn.referent_terms & body:
        # another product's unit whose page or product the question does not name, and which
        # names nothing of what the question points back to: "How do I find it later?" about a
        # note, and a screen reader's "Orca Find"; a mail reader's draft files ("file", "line")
        # for "dump everything the build printed into a file" about a terminal; "How do I remove
        # it again?" after adding a comment to a cell, and a contact's "Remove a contact"; even
        # when it shares the conversation's words: "I forgot my old one. What now?" after
        # changing a password on the desktop, and the office suite's "Forgot password to sign in
        # to Microsoft 365"
        factor *= ELSEWHERE_FACTOR
    parts.update(novelty=novelty, factor=factor, document=float(candidate.top_document))
    candidate.why = {k: round(v, 3) for k, v in parts.items()}
    return base * factor


def described_documents(candidates: list[Candidate]) -> set[str]:
    """The documents of the scored candidates that state the problem the user reports (when the
    user reports that what an earlier answer said did not solve it): a unit
    that states a problem (:func:`is_problem`) holds :data:`DESCRIBED_TEXT` of the last question's
    terms (by weight)."""
    return {c.doc_id for c in candidates if is_problem(c.unit) and c.why.get("text", 0.0) >= DESCRIBED_TEXT}


def quoting_documents(candidates: list[Candidate], quotes: list[str], codes: list[str]) -> set[str]:
    """The documents whose candidate units, together, contain the quoted passages
    (:func:`documents_quoting`) or name the codes (:func:`documents_naming`)."""
    texts: dict[str, list[str]] = {}
    for cand in candidates:
        texts.setdefault(cand.doc_id, []).append(plain_text(cand.unit.render()))
    return documents_quoting(texts, quotes) | documents_naming(texts, codes)


__all__ = ["Candidate", "DUPLICATE_SIMILARITY", "another_task", "described_documents", "is_duplicate", "is_problem",
           "offering_sentence", "quoting_documents", "score", "share", "speaks_of_itself", "term_weights", "title_weights", "topic_of",
           "unit_settings"]
