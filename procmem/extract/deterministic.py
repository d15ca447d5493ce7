"""Rule-based extraction of procedures and logic units from a normalised Markdown document.

- A numbered list becomes a :class:`Procedure` (output = the goal: the list's "To ..." lead-in,
  else its specific heading, else the title, with the title as context; input = what applies and
  what must hold first: "applies to", prerequisite sections and sentences, the symptom; steps =
  the items) and a Step :class:`LogicUnit` (header = the procedure's output, prerequisite = the
  input, body = the lead-in, the list and its notes, Markdown and code kept). What the section
  says before its first list's lead-in, when longer than a sentence or two, is a unit as a
  section without a numbered list is; else it opens the list's unit. Who may do the steps, when
  a note there says so, joins the input.
- In a resolution section without a numbered list, the bullet items are alternative methods: one
  procedure over them and one Step unit each, chained by CONTINUE linkers ("if this does not
  resolve the problem then <next method>"); numbered sibling sections (Method 1, Method 2 ...)
  are chained the same way.
- Other sections map to unit types by heading (see :mod:`procmem.extract.roles`); one left
  without a type that names a task or introduces a command to run is a Step unit, else an
  Appendix; a table of contents gives no unit.
- Recipes are handled by :mod:`procmem.extract.recipe`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import TYPE_CHECKING

from inscoqa.corpus.common import NOTE_LABELS
from procmem.extract.base import Extraction, unit_meta, with_title
from procmem.extract.linkers import anchor_slug, find_linkers
from procmem.extract.markdown import (
    LINK_ONLY,
    Block,
    Section,
    first_sentence,
    introduces_no_steps,
    one_line,
    parse_sections,
    split_sentences,
    summary_sentence,
)
from procmem.extract.recipe import extract_recipe, is_recipe
from procmem.extract.roles import (
    FAQ_PAGE,
    Role,
    heading_rest,
    heading_role,
    is_question,
    labels_a_part,
    states_problem,
    term_of,
)
from procmem.units import Linker, LogicUnit, LogicUnitType, Procedure

if TYPE_CHECKING:
    from inscoqa.corpus.document import Document

MIN_SECTION_WORDS = 8
MIN_SENTENCE_WORDS = 6
# a glossary: each of its sections says what the word in its heading means ("Lexicon > Balances")
GLOSSARY_PAGE = re.compile(r"^(?:glossary|lexicon|terminology|vocabulary)\b|\bglossary$", re.I)
GLOSSARY_TERM_WORDS = 4  # a longer heading on such a page names more than a term
_ONE_SENTENCE = re.compile(r"^[A-Z`*][^.!?:]*[a-z`*)]\.$")
_POINTS_AHEAD = re.compile(r"\b(?:following|these steps|below)\b", re.I)
MIN_TEXT_BEFORE_LIST_WORDS = 30  # a section's text before its numbered list that is a unit
LEAD_IN_GOAL = re.compile(r"^(?:to|in order to)\s+(?P<goal>[^,:]{3,160})\s*[,:]", re.I)
FOLLOW_GOAL = re.compile(r"(?:follow these steps|as follows|do the following)\s+to\s+(?P<goal>[^.:]{3,160})", re.I)
GENERIC_GOAL = re.compile(r"^(?:do (?:this|so|that)|resolve (?:this|the) (?:issue|problem)|fix (?:this|the) "
                          r"(?:issue|problem)|work around (?:this|the) (?:issue|problem)|verify|check)\b", re.I)
ALTERNATIVES_LEAD_IN = re.compile(
    r"following (?:methods|solutions|options|workarounds|resolutions)|one of the following|"
    r"(?:doesn'?t|does not) work,? try the next|try the next", re.I)
# what must hold before the steps; not what the user may wish for ("If you need to send a weekly
# reminder, you can configure it to repeat", "If you must have proxy settings, verify ..."), nor
# what is not needed ("there is hardly any need to explicitly save them"), nor what a dialog
# asks "before you can start" (a sentence that opens "Before you …" says what must hold)
REQUIREMENT = re.compile(r"\b(?:(?<!if you )must|(?<!if you )(?<!no )(?<!any )need to|requires?|required"
                         r"|make sure|^before you|prerequisite|you have to|only if|only when)\b", re.I)
# who may do a section's steps: "You have to be an Exchange Online admin, … or a member of the
# "Security Group Creation and Membership" role … to perform this procedure."
ROLE_REQUIRED = re.compile(r"\byou (?:must|have to|need to) (?:be|have)\b[^.;]{0,120}?\b(?:admin\w*|administrators?"
                           r"|permissions?|privileges?|owners?|managers?|access|credentials|rights)\b", re.I)
# a note's label before its words: "**Important:**", "Note:", "Note" ("Note You must have …")
NOTE_LABEL = re.compile(rf"^\**(?:{NOTE_LABELS})\b\**\s*:?\s*(?:\*\*)?\s*", re.I)
ALTERNATIVE_FAILED = "this does not resolve the problem"
SEQUENCE_DONE = "this part is done"


@dataclass
class _Context:
    doc: Document
    sections: list[Section]
    applies_to: str = ""
    prerequisites: list[str] = field(default_factory=list)
    symptom: str = ""
    anchors: dict[str, str] = field(default_factory=dict)
    order: int = 0
    first_heading: str = ""  # of the page's top level

    def next_order(self) -> int:
        self.order += 1
        return self.order

    def names_page(self, heading: str) -> bool:
        """The page's title, or the first heading of its top level (its title as the text sets it)."""
        return heading in (self.doc.title, self.first_heading)


def extract_rules(doc: Document) -> Extraction:
    """Procedures and logic units the document's structure gives, without a model."""
    sections = parse_sections(doc.text)
    if is_recipe(doc, sections):
        return extract_recipe(doc, sections)
    ctx = _context(doc, sections)
    extraction = Extraction(doc_id=doc.doc_id, method="rules")
    chains: dict[tuple[str, ...], list[tuple[Role, list[LogicUnit]]]] = {}
    # a page that is the manual's licence ("Sylpheed User's Manual: GNU Free Documentation
    # License", numbered sections "22.4 COPYING IN QUANTITY" side by side) is legal text whole:
    # its "If you publish printed copies …" answered how to copy one's mail
    legal_page = heading_role(doc.title.rpartition(": ")[2]) == "legal"
    for section in sections:
        role = "legal" if legal_page else _effective_role(section, sections)
        units = _section_units(ctx, section, role, extraction)
        if role in ("alternative", "sequence") and units:
            chains.setdefault(tuple(section.path[:-1]), []).append((role, units))
    for chain in chains.values():
        for (role, units), (_, following) in zip(chain, chain[1:], strict=False):
            condition = ALTERNATIVE_FAILED if role == "alternative" else SEQUENCE_DONE
            units[-1].linker.append(Linker(condition, following[0].header, "CONTINUE",
                                           following[0].header))
    extraction.structured = bool(extraction.procedures)
    return extraction.dedupe()


def _context(doc: Document, sections: list[Section]) -> _Context:
    applies = doc.meta.get("appliesto") or doc.meta.get("applies_to") or ""
    if isinstance(applies, list):
        applies = ", ".join(str(a) for a in applies[:4])
    ctx = _Context(doc=doc, sections=sections, applies_to=f"Applies to: {applies}" if applies else "",
                   first_heading=next((s.heading for s in sections if s.level == 1), ""))
    for section in sections:
        role = heading_role(section.heading)
        if role == "prerequisite" and section.text.strip():
            ctx.prerequisites.append(summary_sentence(section.text))
        if role == "symptom" and not ctx.symptom and section.text.strip():
            ctx.symptom = summary_sentence(section.text)
        if section.heading:
            ctx.anchors[anchor_slug(section.heading)] = _header(ctx, section.heading)
    return ctx


def _effective_role(section: Section, sections: list[Section]) -> Role:
    own = heading_role(section.heading)
    if own != "other" or section.level <= 1:
        return own
    for parent_heading in reversed(section.path[1:-1]):
        inherited = heading_role(parent_heading)
        if inherited in ("alternative", "sequence"):
            return "resolution"
        if inherited not in ("other", "contents"):
            return inherited
    return "other"  # not "contents": a page whose sections sit under its "Table of contents" heading


def _section_units(ctx: _Context, section: Section, role: Role, out: Extraction) -> list[LogicUnit]:
    """Units of one section's own blocks (subsections are separate sections)."""
    if _too_short(section) or role in ("contents", "legal", "changes", "synopsis") \
            or role == "prerequisite" and not _lists(section):
        return []
    numbered = _lists(section, ordered=True)
    if numbered:
        # what the section says before its first list's lead-in (a manual page's description and
        # options before "The scenario is as follows:") is a unit of its own, not lost; a sentence
        # or two there prefaces the list and opens its unit ("If you receive one of the following
        # errors: 5.7.57 Client not authenticated to send mail", the message a user quotes); under
        # a heading that asks what something is or means, it is the answer, and opens the list's
        # unit when the list names no task of its own (Double Commander's "What does the message
        # "This is not a valid plugin!" mean?": what it usually means, then "If this is a WDX
        # plugin written in Lua:" and its causes; not GNOME's "What is the Super key?" and "To
        # change which key is used to display the Activities overview:")
        before = replace(section, blocks=section.blocks[:_list_start(section, numbered[0])])
        answers_on = bool(term_of(section.heading)) and not _lead_in_goal(_lead_in(section, numbered[0]))
        own = len(before.text.split()) >= MIN_TEXT_BEFORE_LIST_WORDS and not answers_on
        parts = len(numbered) > 1
        # who may do the steps, said in the note that opens the section ("You have to be an
        # Exchange Online admin … to perform this procedure."), is what must hold first for them
        who = role_required(before.text)
        return (_section_units(ctx, before, role, out) if own else []) + [
            _procedure_unit(ctx, section, role, block, out, part=i if parts else 0,
                            preface="" if own or i > 1 else before.text, who=who)
            for i, block in enumerate(numbered, 1)]
    bullets = _lists(section, ordered=False)
    if role in ("resolution", "alternative") and bullets and _lists_alternatives(section):
        return _alternatives(ctx, section, role, bullets[0], out)
    unit_type, header = _typed_header(ctx, section, role)
    unit = LogicUnit(
        type=unit_type,
        prerequisite=_prerequisite(ctx, role, _prose(section)),
        header=header,
        body=section.text,
        meta=unit_meta(ctx.doc, method="rules", section=" > ".join(section.path),
                       order=ctx.next_order()),
    )
    unit.linker = find_linkers(section.text, doc_id=ctx.doc.doc_id, anchors=ctx.anchors)
    out.logic_units.append(unit)
    return [unit]


def _too_short(section: Section) -> bool:
    """A section of fewer than :data:`MIN_SECTION_WORDS` words, unless it shows code (a short
    reference page's only example is the command its question asks for: "$ docker rename
    my_container my_new_container") or says a whole thing in one sentence (a resolution: "Use
    Microsoft Outlook to move archived items.", what a command does: "The `docker rename`
    command renames a container."); a sentence that points to what follows it ("To resolve this
    issue, follow these steps.") or a label says nothing of its own."""
    text = " ".join(section.text.split())
    if len(text.split()) >= MIN_SECTION_WORDS or any(b.kind == "code" for b in section.blocks):
        return False
    return not (len(text.split()) >= MIN_SENTENCE_WORDS and _ONE_SENTENCE.match(text)
                and not _POINTS_AHEAD.search(text))


def _typed_header(ctx: _Context, section: Section, role: Role) -> tuple[LogicUnitType, str]:
    title = ctx.doc.title
    if role == "symptom":
        return "FAQ", f"{title}: {summary_sentence(section.text, 30)}"
    if role == "cause":
        return "FAQ", f"What causes this: {title}"
    if role == "info":
        return "Appendix", _header(ctx, _in_topic(section, section.heading or title))
    if term := term_of(section.heading):
        return "Terminology", term
    if is_question(section.heading) or FAQ_PAGE.search(ctx.doc.title) and states_problem(section.heading):
        return "FAQ", _header(ctx, section.heading)  # an FAQ page's entry may state the problem
    if GLOSSARY_PAGE.search(title) and 0 < len(section.heading.split()) <= GLOSSARY_TERM_WORDS \
            and section.level > 1 and section.heading.casefold() != title.casefold() \
            and not _looks_like_task(section.heading):
        return "Terminology", section.heading
    if role in ("resolution", "alternative", "sequence") or _lists(section):
        return "Step", _header(ctx, _goal(ctx, section, role, None))
    return ("Step" if _gives_instructions(section) else "Appendix"), _header(ctx, _in_topic(section, section.heading or title))


def _gives_instructions(section: Section) -> bool:
    """A section without a list that still says what to do: its heading names a task ("Enable
    or disable POP3 for a mailbox") or a paragraph introduces a command to run ("To disable
    POP3, run the following cmdlet:" and a code block)."""
    if _looks_like_task(section.heading):
        return True
    return any(first.kind == "paragraph" and first.text.rstrip().endswith(":") and then.kind == "code"
               for first, then in pairwise(section.blocks))


def _procedure_unit(ctx: _Context, section: Section, role: Role, block: Block, out: Extraction,
                    *, part: int, preface: str = "", who: str = "") -> LogicUnit:
    goal = _goal(ctx, section, role, block)
    if part and not _lead_in_goal(_lead_in(section, block)):
        goal = f"{goal} (part {part})"
    body = _list_body(section, block)
    prerequisite = "; ".join(p for p in (_prerequisite(ctx, role, body), who) if p)
    meta = unit_meta(ctx.doc, method="rules", section=" > ".join(section.path), order=ctx.next_order())
    steps = [one_line(item.text) for item in block.items if one_line(item.text)]
    out.procedures.append(Procedure(input=prerequisite, output=_header(ctx, goal), steps=steps,
                                    meta=dict(meta)))
    body = "\n\n".join(text for text in (preface.strip(), body) if text)
    unit = LogicUnit("Step", prerequisite, _header(ctx, goal), body, meta=meta)
    unit.linker = find_linkers(body, doc_id=ctx.doc.doc_id, anchors=ctx.anchors)
    out.logic_units.append(unit)
    return unit


def _alternatives(ctx: _Context, section: Section, role: Role, block: Block,
                  out: Extraction) -> list[LogicUnit]:
    goal = _goal(ctx, section, role, block)
    prerequisite = _prerequisite(ctx, role, section.text)
    section_path = " > ".join(section.path)
    steps = [one_line(item.text) for item in block.items if one_line(item.text)]
    out.procedures.append(Procedure(prerequisite, _header(ctx, goal), steps, meta=unit_meta(
        ctx.doc, method="rules", section=section_path, order=ctx.next_order())))
    units = []
    for item in block.items:
        header = _header(ctx, f"{goal}: {first_sentence(item.text, 16)}")
        unit = LogicUnit("Step", prerequisite, header, item.text, meta=unit_meta(
            ctx.doc, method="rules", section=section_path, order=ctx.next_order()))
        unit.linker = find_linkers(item.text, doc_id=ctx.doc.doc_id, anchors=ctx.anchors)
        units.append(unit)
    for unit, following in zip(units, units[1:], strict=False):
        unit.linker.append(Linker(ALTERNATIVE_FAILED, following.header, "CONTINUE", following.header))
    escalation = find_linkers(section.text, doc_id=ctx.doc.doc_id)
    units[-1].linker += [link for link in escalation if link.tag == "MITIGATE"]
    out.logic_units += units
    return units


def _goal(ctx: _Context, section: Section, role: Role, block: Block | None) -> str:
    if block is not None and (goal := _lead_in_goal(_lead_in(section, block))):
        return goal
    specific = heading_rest(section.heading) if role in ("alternative", "sequence") else section.heading
    # a level-one heading other than the page's title names a section too (SQLite's pages set
    # "1. Overview" and "3. Activating And Configuring WAL Mode" as <h1>)
    if specific and heading_role(specific) == "other" and (section.level > 1 or not ctx.names_page(specific)):
        return _in_topic(section, specific)
    if heading_role(section.heading) in ("alternative", "sequence"):
        return section.heading  # "Solution 2": keeps alternatives apart
    if role in ("resolution", "alternative") and not _looks_like_task(ctx.doc.title):
        return f"Resolve: {_topic(section) or ctx.doc.title}"
    return ctx.doc.title


def _topic(section: Section) -> str:
    """The nearest heading above ``section`` (below the page title) that names a topic, when
    ``section``'s own heading only labels a part of it; "" otherwise."""
    if not labels_a_part(section.heading):
        return ""
    return next((h for h in reversed(section.path[1:-1]) if h and not labels_a_part(h)), "")


def _in_topic(section: Section, heading: str) -> str:
    """``heading`` with the topic it labels a part of ("Forcing HTTPS: Description")."""
    topic = _topic(section)
    return f"{topic}: {heading.strip().rstrip(':')}" if topic else heading


# what a lead-in without its comma says after its goal ("To setup an entry for auto open perform
# the following steps:")
STEPS_TAIL = re.compile(r"\s+(?:please\s+)?(?:perform|follow|do|complete|take|carry out)\s+(?:the|these)\s+"
                        r"(?:following\s+)?steps?(?:\s+below)?$", re.I)


def _lead_in_goal(lead_in: str) -> str:
    plain = one_line(lead_in)
    for pattern in (LEAD_IN_GOAL, FOLLOW_GOAL):
        m = pattern.search(plain)
        if m and not GENERIC_GOAL.match(m.group("goal")):
            goal = STEPS_TAIL.sub("", m.group("goal").strip())
            return goal[0].upper() + goal[1:]
    return ""


def _looks_like_task(title: str) -> bool:
    """"How to ...", "Set up ...", "Use ..." titles and headings name a task; "Error ..." ones a
    problem."""
    return bool(re.match(r"^(?:how to|set|use|enable|disable|create|add|change|configure|manage|"
                         r"print|connect|install|choose|find|start|make|get|turn|share|restore)\b",
                         title.strip(), re.I))


def _header(ctx: _Context, goal: str) -> str:
    return with_title(goal, ctx.doc.title)


def _prose(section: Section) -> str:
    """Where a section says what must hold for all of it: its text but for its lists, whose
    sentences hold for their own item (Déjà Dup's "Note that backups can be quite large, so
    make sure you have enough free disk space" under its storage location setting), unless a
    requirement leads to the list ("Before you can do this procedure, you need the following:")."""
    return "\n\n".join(b.text for b in section.blocks
                       if b.kind != "list" or _requires_what_follows(_lead_in(section, b)))


def _requires_what_follows(lead_in: str) -> bool:
    lead_in = lead_in.rstrip()
    return lead_in.endswith(":") and bool(REQUIREMENT.search(split_sentences(lead_in)[-1]))


def _prerequisite(ctx: _Context, role: Role, text: str) -> str:
    parts = [ctx.applies_to] if ctx.applies_to else []
    parts += ctx.prerequisites
    if role in ("resolution", "alternative", "sequence", "cause") and ctx.symptom:
        parts.append(f"Problem: {ctx.symptom}")
    # sentences as the answers read them: none ends inside code or after "e.g." ("If you are using a
    # hardware key (e.g. Yubikey), it must be connected to your computer" gave "Yubikey), it must …")
    requirement = next((first_sentence(p, 40) for p in split_sentences(one_line(text, max_words=400))
                        if REQUIREMENT.search(p)), "")
    if requirement:
        parts.append(requirement)
    return "; ".join(dict.fromkeys(p for p in parts if p))


def role_required(text: str) -> str:
    """The sentence of the note that opens ``text`` that says who may do what follows
    (:data:`ROLE_REQUIRED`), without the note's label; "" when there is none."""
    note = []
    for line in text.lstrip("\n").splitlines():
        if not line.startswith(">"):
            break
        note.append(line.lstrip("> ").strip())
    said = split_sentences(NOTE_LABEL.sub("", " ".join(n for n in note if n)))
    return next((one_line(sentence).rstrip(".") for sentence in said if ROLE_REQUIRED.search(sentence)), "")


def _lists(section: Section, *, ordered: bool | None = None) -> list[Block]:
    """The section's lists, but for a list of further articles (every item only a link):
    what to read, not steps or alternatives; and for a list of the conditions that the
    sentence before it leads to, or of the traits its label names (:func:`introduces_no_steps`)."""
    return [b for b in section.blocks if b.kind == "list" and (ordered is None or b.ordered == ordered)
            and not all(LINK_ONLY.match(item.text.strip()) for item in b.items)
            and not introduces_no_steps(_lead_in(section, b))]


def _lists_alternatives(section: Section) -> bool:
    return bool(ALTERNATIVES_LEAD_IN.search(one_line(section.text, max_words=2000)))


def _lead_in(section: Section, block: Block) -> str:
    i = section.blocks.index(block)
    for previous in reversed(section.blocks[:i]):
        if previous.kind == "paragraph":
            return previous.text
        if previous.kind == "list":
            return ""
    return ""


def _list_start(section: Section, block: Block) -> int:
    """Where the list's unit starts: at its lead-in paragraph, else at the list."""
    i = section.blocks.index(block)
    return i - 1 if i > 0 and section.blocks[i - 1].kind == "paragraph" else i


def _list_body(section: Section, block: Block) -> str:
    """The lead-in paragraph, the list, and the notes and paragraphs up to the next list."""
    i = section.blocks.index(block)
    start = _list_start(section, block)
    end = i + 1
    while end < len(section.blocks) and section.blocks[end].kind != "list":
        end += 1
    if end < len(section.blocks) and end - 1 > i and section.blocks[end - 1].kind == "paragraph":
        end -= 1  # that paragraph leads in to the next list
    return "\n\n".join(b.text for b in section.blocks[start:end])
