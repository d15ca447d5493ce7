"""What a unit's text says to do, read without a model: its steps.

A procedure's steps are its own; a logic unit's or a chunk's are its numbered lines, else its
bulleted lines (unless they only name things), else its sentences that say what to do, each with
the commands that follow it; a bulleted line that describes (a scenario, a cause, what a tool
does) rather than says what to do is no step. Page metadata ("Applies to: ..."), pointers to further
reading, questions an overview page lists and lines that are only a link are not steps; Markdown
markup, escapes and quote markers are dropped. Plain text comes from
:mod:`procmem.answerers.prose`, a text's sentences and what a sentence or a list item says from
:mod:`procmem.answerers.clauses`, and whether code is typed or shown from
:mod:`procmem.answerers.code_blocks`. The extractive answerer (:mod:`procmem.answerers.extractive`)
scores and composes with these.
"""

from __future__ import annotations

import re

from procmem.answerers.clauses import (
    ACTION_CUE,
    MORE_ONLY,
    REMARK,
    TYPE_ONLY,
    defines_terms,
    enumerates,
    instructions,
    is_metadata,
    labelled_action,
    lists_what_there_is,
    names_only,
    narrates,
    notes_only,
    purposes,
    says_what_to_do,
    sentences,
    states_quantities,
    topics,
    values_of_settings,
)
from procmem.answerers.code_blocks import (
    LABELLED,
    code_under_labels,
    command_tables,
    commands_typed,
    is_file_text,
    is_report,
    is_typed,
    names_its_file,
    shows_messages,
    without_shown_code,
)
from procmem.answerers.parsing import parse_steps
from procmem.answerers.prose import INTRODUCES, LIST_ITEM, ended, plain_text
from procmem.extract.deterministic import NOTE_LABEL, ROLE_REQUIRED
from procmem.extract.markdown import (
    LINK_ONLY,
    SENTENCE_BREAK,
    TABLE_RULE,
    code_line,
    first_sentence,
    introduces_no_steps,
    is_session,
    table_cells,
    typed_commands,
)
from procmem.units import (
    NAME_NOTE,
    PLAIN_NAME,
    SOURCE_LINE,
    LogicUnit,
    Procedure,
    Unit,
    own_header,
    part_number,
)

BOILERPLATE = re.compile(
    r"serious problems might occur|back up the registry|provide feedback|carefully\.?$|"
    r"(?:one of )?the following (?:methods|steps|options|procedures?)\W*$|:$|"
    r"couldn'?t resolve your issue|for (?:more )?(?:information|info)\b|see the following|see this article|visit the following|"
    # "For more help on include/exclude patterns, see the borg help patterns command output."
    r"^for (?:more|further|additional|detailed) [^,]{1,80}, (?:see|refer to|read|consult|check|run)\b|"
    # ... or for anything else, to be read elsewhere: "For Google's own privacy policy, please refer to …"
    r"^for (?!example\b|instance\b)[^,]{1,80}, (?:please )?(?:see|refer to|read|consult)\b(?! (?:if|whether|that|how|what)\b)|"
    r"follow the (?:instructions|steps) (?:on|in|at) the following|"
    # a pointer to a site ("go to the following Microsoft website:", "topic on the Microsoft TechNet
    # website", "see website from step 1"), not a website the steps set up ("Setting up a website
    # for the falcot.org domain ...")
    r"\bthe following (?:\S+ ){0,3}website\b|\b(?:on|at|visit|see) (?:the )?(?:\S+ ){0,3}?website\b|"
    r"\b(?:follow|complete|do) (?:these|the following) steps\W*$|"  # what they introduced is elsewhere
    r"your (?:issue|problem) is (?:now )?(?:resolved|fixed)|^if (?:yes|no|not|so),? see\b|"
    r"^(?:if|when) [^,]{1,100}, see\b|\bsee\b[^.!?]{0,80}\bfor (?:more )?details\b|"  # "If you run a registry, see ..."
    r"redistribute (?:it|them)\b|all rights reserved|under the terms of the gnu\b|"  # a licence: "you can redistribute it ..."
    # what the page shows beside its words, which an answer does not: "The following table lists
    # the expected behavior …", "The screenshot below shows the correct client ports." (not one
    # that shows it in its own words: "The following example sets it: Set-Mailbox …")
    r"^(?:the following|the|this|these)\s+(?:[\w-]+\s+){0,2}?(?:tables?|screenshots?|figures?|images?|diagrams?|"
    r"illustrations?|examples?|lists?|output)(?:\s+(?:below|above))?\s+(?:lists?|shows?|describes?|contains?|"
    r"provides?|illustrates?|displays?|summari[sz]es?|uses?|gives?|includes?|explains?)\b(?![^:]*:\s*\S)|"
    r"^see (?!if\b|whether\b|that\b|how\b)[^!?]{0,80}$|"  # only a pointer: "See package-lock.json and npm shrinkwrap."
    # ... or a sentence that only says where a thing is described: "These options are described in
    # Section 14.1.4, “Tool Options”.", "You can find its description in Section 8.1.1, …" (not
    # one that says what to do with it: "Use the command described in Section 6.3 to convert …")
    r"^(?:(?!that |which |who )[\w-]+ ){1,6}(?:is|are|was|were|will be) (?:\w+ )?(?:described|explained|discussed|covered|documented)"
    r"(?: in (?:more |greater |full )?details?| further)?(?: (?:below|above|later|elsewhere))?"
    r"(?: (?:in|under|at) [^:;!?]{0,100})?\W*$|"
    r"^you (?:can|will|may|could) (?:also )?find (?:its|their|the|a|an|more) (?:[\w-]+ ){0,2}?"
    r"(?:description|explanation|details|information)\b[^:;!?]{0,100}$|"
    # ... or to the next part of the page: "Go to the next section to learn more about this."
    r"\b(?:go|go on|continue|proceed|move on|skip|turn) to the (?:next|following|previous) (?:section|chapter)\b|"
    # ... or one to another part of the documentation: "If you're not sure, take a look at the Installation
    # chapter.", "Check the notifications chapter for detailed examples." (not "Check the Enabled box in
    # the General section.")
    r"\b(?:take a look at|refer to|read|consult|check(?: out)?|see) (?:the|our|this)\b(?![^.!?]*box\b)[^.!?]{0,60}"
    r"\b(?:chapter|section|documentation|docs|book|guide|manual|article|topic|example)s?"
    r"(?: for (?:more |further )?(?:details|detailed examples|examples|information))?\W*$",
    re.I)
COMMAND_START = re.compile(r"^[A-Za-z.$\\/~]")  # a word, a path or a variable, not output


def unit_text(unit: Unit) -> str:
    """What a unit says: a logic unit's body (a merged one's without the lines that name its
    parts' pages, "From Export As:", which introduce nothing), a chunk's text, a procedure's
    steps (one a line)."""
    if isinstance(unit, Procedure):
        return "\n".join(s if s.rstrip().endswith((".", "!", "?", ":")) else f"{s.rstrip(' ;,')}." for s in unit.steps)
    if isinstance(unit, LogicUnit) and unit.meta.get("merged_from"):
        return "\n".join(line for line in unit.body.splitlines() if not SOURCE_LINE.match(line.strip()))
    return getattr(unit, "body", None) or getattr(unit, "text", "") or unit.render()


def unit_header(unit: Unit) -> str:
    """What a unit says it is about: a procedure's goal, a logic unit's header."""
    if isinstance(unit, Procedure):
        return unit.output
    return getattr(unit, "header", "") or ""


def is_step(text: str) -> bool:
    """Whether a line says what to do: not page metadata (:func:`is_metadata`), not a pointer to
    further reading, not a question (an overview page's list of the questions it answers), not
    a type alone (an API reference's "{string}" under a property), not an action whose object
    was an icon ("On the Standard bar, click"), not a term whose description its page left
    out ("Table... —"), not a list's last line that only says there is more ("… and a lot
    more!") and not marks alone (". . .", an example's numbered line for the lines it leaves
    out)."""
    return _WORD_OR_NUMBER.search(text) is not None and not is_metadata(text) and not is_boilerplate(text) \
        and not text.endswith(("?", "—", "–")) and not TYPE_ONLY.fullmatch(text) \
        and not _WITHOUT_OBJECT.search(text) and not MORE_ONLY.match(text)


_WITHOUT_OBJECT = re.compile(r"\b(?:click|press|select|choose|tap)[:,]?$", re.I)  # the icon was its object
_WORD_OR_NUMBER = re.compile(r"\w")


def is_boilerplate(text: str) -> bool:
    """Words of the page's frame (:data:`BOILERPLATE`) before any code, a pointer in brackets
    left out: "Remove the cache (see #235 for details): `rm …`" says what to do."""
    return bool(BOILERPLATE.search(REMARK.sub("", text.split("`")[0])))


def without_boilerplate(step: str) -> str:
    """A step without its sentences that only point elsewhere ("For more information, see …"):
    the sentence that says what to do stays a step."""
    return " ".join(s for s in SENTENCE_BREAK.split(step) if not is_boilerplate(s))


# a heading that names a release with its date ("FreedomBox 23.4 (2023-02-13)", "Version 2.1,
# March 3, 2020"): what the section lists is what changed ("backups: Add restore menu item")
RELEASE_HEADING = re.compile(r"\b(?:v|version\s+)?\d+(?:\.\d+)+\b.*?\b(?:\d{4}-\d{2}-\d{2}|(?:Jan|Feb|Mar|Apr|May|Jun|"
                             r"Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d{1,2},? \d{4})\b", re.I)


# the title of a page of release notes: "Release Notes", "ReleaseNotes", "Changelog", "NEWS"
RELEASE_NOTES_TITLE = re.compile(r"^(?:release\s*notes|change\s*log|news|what'?s new)\b", re.I)


def in_release_notes(unit: Unit) -> bool:
    """Whether a unit is part of release notes: its page's title says so
    (:data:`RELEASE_NOTES_TITLE`), or a heading of its section's path or of its text (a chunk's)
    names a release with its date (:data:`RELEASE_HEADING`)."""
    headings = [*str(unit.meta.get("section", "")).split(" > "),
                *(line for line in unit.render().splitlines() if line.startswith("#"))]
    return bool(RELEASE_NOTES_TITLE.match(str(unit.meta.get("title", "")))) \
        or any(RELEASE_HEADING.search(heading) for heading in headings)


# the heading of a list of works cited: "7. References", "Bibliography", "Further reading"
REFERENCES_HEADING = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s+)?(?:references|bibliography|further reading|works cited)$", re.I)


def cites_works(unit: Unit) -> bool:
    """Whether a unit is a section of works cited (:data:`REFERENCES_HEADING`): "Mills, D.L., J.
    Levine, … Coping with overload on the Network Time Protocol public servers. … Paper: PDF" is
    nothing to do."""
    return bool(REFERENCES_HEADING.match(str(unit.meta.get("section", "")).rpartition(" > ")[2].strip()))


# a text that sets out how the guide writes things ("Before we start let us explain basic
# conventions used in this text:"), or a section headed so ("Typographic conventions", "Notation")
CONVENTIONS = re.compile(r"\bconventions (?:used |followed )?in this (?:text|document|guide|manual|book|chapter)\b", re.I)
CONVENTIONS_HEADING = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s+)?(?:(?:typographic(?:al)?|document) )?(?:conventions|notation)$",
                                 re.I)


def shows_conventions(unit: Unit) -> bool:
    """Whether a unit sets out how its guide writes things (:data:`CONVENTIONS`,
    :data:`CONVENTIONS_HEADING`): Knot Resolver's "This is Linux/Unix shell command to be
    executed and an output from this command: `echo "This is output!"`" shows what a command
    looks like; it is nothing to do."""
    return bool(CONVENTIONS_HEADING.match(str(unit.meta.get("section", "")).rpartition(" > ")[2].strip())
                or not isinstance(unit, Procedure) and CONVENTIONS.search(unit_text(unit)))


def unit_steps(unit: Unit) -> list[str]:
    """The steps a unit holds: a procedure's steps, else the numbered or bulleted lines of its
    text (a numbered list with the sentence after it that says what to do next,
    :func:`closing_instructions`), else its sentences; page metadata, boilerplate and lines that
    are only a link left out, bulleted lines and sentences that only describe (:func:`describes`) or define a term
    (:func:`defines`), a list that defines terms (:func:`defines_terms`) or says what something
    is for (:func:`purposes`), a list of what to learn or a numbered list or a procedure of what
    to consider (:func:`topics`; a bulleted one often gives the reasons an FAQ answer lists:
    "Running git bisect to find the root cause of a bug"), a numbered list or a procedure of
    events (:func:`narrates`), a list of what there is to see (:func:`lists_what_there_is`),
    lists that continue a sentence (:func:`enumerates`; joined to it when it says what to do,
    :func:`joined_enumerations`), and bulleted lists that hold only notes
    (:func:`notes_only`) or the values of settings, choices to make (:func:`values_of_settings`),
    or a page's figures (:func:`states_quantities`: a recipe's "Prep time: 90 min");
    none in release notes (:func:`in_release_notes`), works cited (:func:`cites_works`) or the
    guide's conventions (:func:`shows_conventions`). A reference entry's first step names it
    (:func:`entry_step`)."""
    if in_release_notes(unit) or cites_works(unit) or shows_conventions(unit):
        return []
    if isinstance(unit, Procedure):
        raw = [] if defines_terms(unit.steps) or purposes(unit.steps) or topics(unit.steps) \
            or narrates(unit.steps) or enumerates(unit.steps) or lists_what_there_is(unit.steps) \
            or names_grouped(unit.steps) else unit.steps
        role = _who_may_do(unit.input)
    else:
        text = unit_text(unit)
        listed = list_text(text, str(unit.meta.get("lead_in", "")))
        bulleted = [_introducing_code(step) for step in parse_steps(listed, nested=False)]
        numbered = [_introducing_code(step) for step in parse_steps(listed, numbered_only=True)]
        listed_steps = instructions(bulleted if not (names_only(bulleted) or enumerates(bulleted) or purposes(bulleted)
                                                     or notes_only(bulleted) or topics(bulleted, gerunds=False)
                                                     or narrates(bulleted) or lists_what_there_is(bulleted)
                                                     or values_of_settings(bulleted) or states_quantities(bulleted)
                                                     or names_grouped(bulleted))
                                   else [])
        steps_numbered = numbered if not (defines_terms(numbered) or purposes(numbered) or topics(numbered)
                                          or narrates(numbered) or enumerates(numbered)
                                          or lists_what_there_is(numbered) or names_grouped(numbered)) else []
        steps_listed = listed_steps if any(says_what_to_do(s) or labelled_action(s) for s in listed_steps) else []
        if steps_numbered and (closing := closing_instructions(listed)):
            steps_numbered = [*steps_numbered, *closing]
        raw = steps_numbered or (choices_after_action(text, steps_listed) if steps_listed else []) \
            or prose_steps(joined_enumerations(text)) or listed_steps
        role = _who_may_do(unit.prerequisite) if steps_numbered and isinstance(unit, LogicUnit) else ""
        if entry := entry_step(unit):  # its example shown with it is no step of its own again
            raw = [entry, *(s for s in raw if not ((run := _RUN_CODE.fullmatch(s)) and f"`{run[1]}`" in entry))]
    if raw and role and role not in raw:  # who may do them: whoever may not cannot do the rest
        raw = [role, *raw]
    return [step for step in (without_boilerplate(plain_text(s)) for s in raw if not LINK_ONLY.match(s))
            if is_step(step)]


def _who_may_do(prerequisite: str) -> str:
    """Who may do a procedure's steps, as what must hold first for them says (``"You have to be
    an Exchange Online admin … to perform this procedure."``); "" when it names no one."""
    part = next((part for part in prerequisite.split("; ") if ROLE_REQUIRED.search(part)), "")
    part = NOTE_LABEL.sub("", part)  # "Note: You must have administrator permissions …"
    return f"{part}." if part and not part.endswith((".", "!")) else part


NUMBERED_LINE = re.compile(r"^\d+[.)]\s")


def after_numbered_list(text: str) -> list[str]:
    """The paragraphs (blank-line separated blocks) of ``text`` after the last one that holds a
    numbered line; none when it has no numbered list."""
    blocks = [b.strip("\n") for b in re.split(r"\n[ \t]*\n", text.strip("\n")) if b.strip()]
    lists = [i for i, block in enumerate(blocks) if any(NUMBERED_LINE.match(line) for line in block.splitlines())]
    return blocks[lists[-1] + 1:] if lists else []


# the most sentences the paragraph after a numbered list may hold to be read as its last steps
CLOSING_SENTENCES = 3


def closing_instructions(text: str) -> list[str]:
    """The sentences of the one paragraph after ``text``'s last numbered list, when each says
    what to do next: "Use the **Test** button to check that all speakers are working.", after
    the steps that select the output device; "Use the **Acceptance delay** slider to change how
    long bounce keys waits … Select **Beep when a key is rejected** if you want …", after the
    steps that turn bounce keys on and a tip. Notes between or after are passed over. None when
    a sentence is a pointer ("For more information, see …"), says what the steps did ("The
    network connection should now …") or leads to what follows ("Select the printer from the
    list below"), when more than :data:`CLOSING_SENTENCES` sentences or another paragraph
    follow the list, or when the paragraph is a note, a table, a list or code."""
    after = [b.rstrip() for b in after_numbered_list(text) if not b.startswith(">")]
    if len(after) != 1:
        return []
    last = after[0]
    if "\n" in last or last[:1].isspace() or last.startswith(("```", "|", "*")) or LIST_ITEM.match(last):
        return []  # an item's own text, indented under it, a table, a list, code
    said = sentences(last)
    # every word of the paragraph in its sentences: none left out as too short or as metadata
    whole = len(" ".join(said).split()) >= len(plain_text(last).split())
    if not 0 < len(said) <= CLOSING_SENTENCES or not whole or not all(_says_what_to_do_next(s) for s in said):
        return []
    return said


def _says_what_to_do_next(sentence: str) -> bool:
    return sentence.endswith((".", "!")) and not POINTS_ON.search(sentence) \
        and bool(ACTION_CUE.match(sentence)) and says_what_to_do(sentence)


_NESTED_ITEM = re.compile(r"; | - ")  # where a list item's nested items join it


def names_grouped(items: list[str]) -> bool:
    """A numbered list of groups of names, each a name with the names it holds (an archive
    manager's supported formats: "1. Archive only" over "- Tape Archive File (.tar)", …),
    rather than steps: every group and every name in it is a name (:func:`names_only`)."""
    parts = [_NESTED_ITEM.split(plain_text(item)) for item in items]
    return len(items) >= 2 and any(len(group) > 1 for group in parts) \
        and names_only([part for group in parts for part in group])


def choices_after_action(text: str, listed: list[str]) -> list[str]:
    """``listed``, the steps of a bulleted list, after what the text before the list says to do
    when no item opens by saying what to do: the list holds the choices the action leads to
    (Shotwell's "… choose **File** > **Export...**, which exports photos while letting you
    fine-tune the size …. A window will appear allowing you to make several choices:" over "- A
    format for export.", "- The image quality for exporting …")."""
    if any(ACTION_CUE.match(plain_text(step)) or labelled_action(step) for step in listed):
        return listed
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if LIST_ITEM.match(line)), len(lines))
    before = [step for step in prose_steps("\n".join(lines[:first])) if step not in listed]
    return [*before, *listed]


# an item of a list of a command's options, or of commands: the name as code, what it does after
# ", which", a colon or a dash ("`--search file` (or `-S`), which finds the package(s) containing
# the file;")
OPTION_ITEM = re.compile(r"^`(?P<name>[^`\n]{1,60})`(?P<alias>\s*\([^()\n]{1,40}\))?"
                         r"(?:,\s+(?:which|that)\s+|\s*[:—–]\s+|\s+-\s+)(?P<does>\w.*)$")
_COMMAND_NAME = re.compile(r"`([a-z][\w.+-]{1,30})`")  # "we will study `dpkg` options"
_CODE_ITEM = re.compile(r"^[ \t]*(?:[-*•]|\d+[.)])[ \t]+`", re.M)  # a list item that starts with code


def option_items(unit: Unit) -> list[str]:
    """The items of a list of options or commands, as "name: What it does." (the command before
    an option that the text before the list names: "dpkg --search file (or -S): Finds the
    package(s) containing the file."), when at least two of the unit's bulleted items and most of
    them are such items; no steps (:func:`unit_steps` reads such a list as one that continues a
    sentence), but each answers a question that asks what it does."""
    text = unit_text(unit)
    if not _CODE_ITEM.search(text):
        return []
    items = parse_steps(list_text(text, str(unit.meta.get("lead_in", ""))), nested=False)
    found = [m for item in items if (m := OPTION_ITEM.match(item.strip()))]
    if len(found) < 2 or 2 * len(found) < len(items):
        return []
    at = text.find(found[0].group(0))  # the text before the list names the command
    commands = _COMMAND_NAME.findall(text[:at]) if at >= 0 else []
    options = []
    for m in found:
        name = m["name"]
        if commands and name.startswith("-"):
            name = f"{commands[-1]} {name}"
        does = m["does"].rstrip(" ;,.")
        options.append(f"{plain_text(name + (m['alias'] or ''))}: {does[0].upper()}{does[1:]}.")
    return options


_UNINTRODUCED_CODE = re.compile(r"(?<=[\w)\]`'\"”’])\s+(?=```)")  # "Add `regex` as a dependency ```cargo add regex```"


_RUN_CODE = re.compile(r"Run `([^`]+)`\.?")  # a step that runs a code block of its own


def _introducing_code(step: str) -> str:
    """A list item whose words run into the code block under it, with a colon between them
    ("Add `regex` as a dependency: cargo add regex")."""
    return _UNINTRODUCED_CODE.sub(": ", step, count=1)


# a header that is only a name: in code ("`http.proxy`"), with its other names ("`-R`,
# `--without-recommends`"), or a plain one ("sidebar_visible")
CODE_NAME = re.compile(rf"^(?:`[^`\n]+`(?:, `[^`\n]+`)*|(?P<plain>{PLAIN_NAME})(?P<note>{NAME_NOTE})?)$")
ENTRY_CODE_LINES = 2  # an example this short is shown with the entry's step


# a manual page's title, its command's name and what it does ("kzonecheck – Knot DNS zone file
# checking tool", "ntpwait - wait until ntpd is in synchronized state"), and its description's header
MANUAL_TITLE = re.compile(r"^`?(?P<name>[a-z][\w.+-]*)`?(?:\(\d\w*\))?\s+[–—-]\s+\S")
DESCRIPTION = re.compile(r"^(?:\d+\.\s*)?description$", re.I)
# a command reference page titled with the command alone, in lower case ("load", "container
# prune"), whose description's first sentence says what it does ("The `docker rename` command
# renames a container."), or the line under the usage its opening section shows, as a command's
# help prints it ("Usage:  docker logs [OPTIONS] CONTAINER", then "Fetch the logs of a container")
COMMAND_TITLE = re.compile(r"^[a-z][\w.+-]*(?: [a-z][\w.+-]*){0,2}$")
USAGE = re.compile(r"^usage:[ \t]+(?P<name>(?-i:[a-z][\w.+-]*(?: [a-z][\w.+-]*)*)).*\n(?:[ \t]+\S.*\n)*[ \t]*\n"
                   r"(?P<summary>[A-Z].*(?:\n\S.*)*)$", re.I | re.M)


def command_summary(unit: Unit) -> str:
    """What a manual page's command does, for the page's description section: its title's line
    (:data:`MANUAL_TITLE`) or, on a page titled with the command alone (:data:`COMMAND_TITLE`),
    the description's first sentence, and for the page's opening section the line under its
    usage (:data:`USAGE`); "" for any other unit."""
    if not isinstance(unit, LogicUnit):
        return ""
    title = str(unit.meta.get("title", ""))
    header = own_header(unit)
    if DESCRIPTION.match(header):
        if manual := MANUAL_TITLE.match(title):
            return title[manual.end() - 1:]
        return first_sentence(unit.body) if COMMAND_TITLE.match(title) else ""
    usage = _usage(unit)
    return " ".join(usage["summary"].split()) if usage else ""


def _usage(unit: LogicUnit) -> re.Match[str] | None:
    """The usage a command page's opening section shows, with the line under it (:data:`USAGE`)."""
    title = str(unit.meta.get("title", ""))
    return USAGE.search(unit.body) if own_header(unit) == title and COMMAND_TITLE.match(title) else None


# an option as a command's usage lists it: "  -d, --detach        Run container in background and
# print container ID", "      --add-host list   Add a custom host-to-IP mapping"; what it does
# stands two spaces or more after its name and argument, and may go on in lines set under it
USAGE_OPTION = re.compile(r"^[ \t]{0,8}(?:(?P<short>-\w),[ \t]+)?(?P<long>--?[\w][\w-]*)(?:[ =](?P<arg>[\w.<>\[\]|:-]+))?"
                          r"[ \t]{2,}(?P<does>\S.*)$")
_MORE_OF_OPTION = re.compile(r"^[ \t]{12,}(?P<more>[^\s-].*)$")  # its description going on


USAGE_LINE = re.compile(r"^usage:[ \t]+(?P<name>(?-i:[a-z][\w.+-]*(?: [a-z][\w.+-]*)*))", re.I)
_OPENING_FENCE = re.compile(r"^\s*(?:```|~~~)[^\n]*\n")


def usage_options(unit: Unit) -> list[str]:
    """The options that the usage a command's page opens with lists (:data:`USAGE`), as
    "docker run -d (or --detach): Run container in background and print container ID.", each
    with what it does (as :func:`option_items` writes a list's options), in the part that shows
    the usage and in the later parts its list of options goes on in, when the section is split
    for size (their ``code_lead`` is the usage's line); none for any other unit."""
    if not isinstance(unit, LogicUnit):
        return []
    if usage := _usage(unit):
        command, block = usage["name"], unit.body[usage.end():]
    elif (lead := USAGE_LINE.match(str(unit.meta.get("code_lead", "")))) and own_header(unit) == unit.meta.get("title") \
            and COMMAND_TITLE.match(str(unit.meta.get("title", ""))):
        command, block = lead["name"], _OPENING_FENCE.sub("", unit.body, count=1)
    else:
        return []
    found: list[list[str]] = []  # each option's name and the lines of what it does
    for line in block.split("```", 1)[0].splitlines():
        if option := USAGE_OPTION.match(line):
            name = option["short"] or option["long"]
            alias = f" (or {option['long']})" if option["short"] else ""
            found.append([f"{command} {name}{alias}", option["does"].strip()])
        elif found and (more := _MORE_OF_OPTION.match(line)) and not USAGE_OPTION.match(more["more"]):
            found[-1].append(more["more"].strip())
    options = []
    for name, *does in found:
        said = " ".join(does).rstrip(" .")
        if said and said[0].isalpha():
            options.append(f"{name}: {said[0].upper()}{said[1:]}.")
    return options


def entry_step(unit: Unit) -> str:
    """A reference entry's step: a section named by a setting, attribute or option alone
    ("`html_logo_url`") says what that name does in its first sentence, and often nothing to do:
    the name with that sentence, and the example right after it when it is a line or two
    ("`html_logo_url`: This form of the `doc` attribute lets you control the logo ...
    `#![doc(html_logo_url = "...")]`"); so does a manual page's description, for its command
    ("`kzonecheck`: The utility checks zone file syntax …", :data:`MANUAL_TITLE`), and the usage
    a command's page opens with, for its command ("`docker exec`: Run a command in a running
    container", :data:`USAGE`). "" for any other unit."""
    name = own_header(unit)
    if isinstance(unit, LogicUnit) and DESCRIPTION.match(name) \
            and (manual := MANUAL_TITLE.match(str(unit.meta.get("title", "")))):
        name = f"`{manual['name']}`"
    elif isinstance(unit, LogicUnit) and (usage := _usage(unit)):
        return f"`{usage['name']}`: {' '.join(usage['summary'].split())}"  # "`docker exec`: Run a command …"
    elif not isinstance(unit, LogicUnit) or not (named := CODE_NAME.match(name)):
        return ""
    elif named["plain"]:
        name = f"`{named['plain']}`{named['note'] or ''}"  # "`message_size_limit` (default: 10240000)"
    if part_number(unit) != 1:
        return ""
    text = unit_text(unit)
    first = next((s for s in sentences(text) if not LABELLED.match(s)), "")  # not "Type: string"
    if not first:
        return ""
    step = f"{name if name.startswith('`') else f'`{name}`'}: {first}"
    paragraph, code = _opening_code(text)
    if plain_text(paragraph).startswith(first) and 0 < len(code) <= ENTRY_CODE_LINES:
        step += f" `{code_line(code)}`"  # what is typed at a prompt, without the "$"
    return step


def _opening_code(text: str) -> tuple[str, list[str]]:
    """A text's first paragraph, and the lines of the code block right after it (none when
    something else follows it)."""
    lines = text.strip().splitlines()
    end = next((i for i, line in enumerate(lines) if not line.strip() or line.startswith("```")), len(lines))
    fence = next((i for i in range(end, len(lines)) if lines[i].strip()), len(lines))
    if fence >= len(lines) or not lines[fence].startswith("```"):
        return " ".join(lines[:end]), []
    code: list[str] = []
    for line in lines[fence + 1:]:
        if line.startswith("```"):
            return " ".join(lines[:end]), code
        code += [line.strip()] if line.strip() else []
    return " ".join(lines[:end]), []  # a block left open


# a list item that is a command alone, with what to know about it on the lines under it:
# "1. `cargo login --registry=my-registry`" / "   This only needs to be done once."
_COMMAND_ITEM = re.compile(r"^(?P<marker>[ \t]*(?:\d+[.)]|[-*•])[ \t]+)`(?P<command>(?![A-Z][a-z]+`)[A-Za-z.$\\/~][^`\n]*)`"
                           r"[ \t]*\n"
                           r"(?P<rest>[ \t]+[A-Z])", re.M)
_FENCE_INFO = re.compile(r"^(\s*```)\S.*$", re.M)  # "```powershell": the language is no word of the step


def list_items(unit: Unit) -> list[str]:
    """The items of the unit's lists, in plain text, steps or not."""
    return [plain_text(item).rstrip(";,") for item in parse_steps(unit_text(unit), nested=False)]


def list_text(text: str, lead_in: str = "") -> str:
    """``text`` as the list reader reads it: a shell session's commands without what they print
    (:func:`commands_typed`), a code block after a label under that label
    (:func:`code_under_labels`), code blocks of their own in a shown language left out
    (:func:`without_shown_code`), fences without their language, a table of the commands a
    sentence says to use as a list (:func:`command_tables`), and a command alone as an item run
    (:data:`_COMMAND_ITEM`); a list of conditions or traits left out (:func:`without_non_steps`)."""
    listed = _FENCE_INFO.sub(r"\1", without_shown_code(code_under_labels(commands_typed(
        command_tables(without_non_steps(text, lead_in))))))
    return _COMMAND_ITEM.sub(r"\g<marker>Run `\g<command>`.\n\g<rest>", listed)


def without_non_steps(text: str, lead_in: str = "") -> str:
    """``text`` without the lists that complete the sentence before them with conditions or
    list the traits their label names (:func:`introduces_no_steps`: BIND's "… does not forward
    any recursive query for which: 1. The answer is already in the cache. 2. The domain name is
    localhost.", Icinga's "Advantages:"): no steps. A part of a cut unit that starts with its list
    has that sentence as ``lead_in``."""
    out: list[str] = []
    prose = lead_in  # the last line of prose before the list
    dropping = False
    for line in text.splitlines():
        top_item = bool(LIST_ITEM.match(line))
        if dropping and (top_item or not line.strip() or line[:1].isspace()):
            continue
        dropping = top_item and introduces_no_steps(prose)
        if dropping:
            continue
        if line.strip() and not top_item and not line[:1].isspace():
            prose = line
        out.append(line)
    return "\n".join(out)


ENUMERATED_WAYS = 6  # the most items of a list that a sentence saying what to do is joined with
_WAY_OPENING = re.compile(r"^(?:From|By|Through|Via|With|In|On|Using|Either)\b")  # a way, not a name
# an item that is a way to do what the sentence before says, whole ("From the image menu through
# Tools → Paint Tools → Clone.", "By pressing the C keyboard shortcut.")
_WAY_ITEM = re.compile(r"^(?:from|by|through|via)\s", re.I)
# a sentence that tells the user what they can do, whatever the verb ("You can access …", "You can
# find the Smudge tool in various ways:"), not what is so ("… many tasks are scheduled:")
_YOU_CAN = re.compile(r"^(?:you|one) (?:can|may|should|must|need to) (?:also )?[a-z]+\b", re.I)


def joined_enumerations(text: str) -> str:
    """``text`` with each bulleted list that goes on with the sentence before it, when that
    sentence says what to do (:data:`ACTION_CUE`, :data:`_YOU_CAN`), joined to it: one sentence
    that names each way to do it. The list goes on with the sentence when it is its enumeration
    (:func:`enumerates`: "You can access these three commands from the image menubar through" over
    "- Image → Transform → Rotate 90 degrees CW,", …, "- Image → Transform → Rotate 180°."), or when
    the sentence ends in a colon and each item is a way (:data:`_WAY_ITEM`: "You can activate this
    tool in several ways:" over "- From the image menu through Tools → Paint Tools → Clone.", "- By
    clicking on the tool icon in Toolbox."). Lists with nested items or more than
    :data:`ENUMERATED_WAYS` items stay as they are."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not LIST_ITEM.match(lines[i]):
            out.append(lines[i])
            i += 1
            continue
        end = i
        while end < len(lines) and (LIST_ITEM.match(lines[end]) or lines[end][:1].isspace() and lines[end].strip()):
            end += 1
        block = lines[i:end]
        lead = next((j for j in range(len(out) - 1, -1, -1) if out[j].strip()), None)
        said = _ways(out[lead], [LIST_ITEM.sub("", line).strip() for line in block]) \
            if lead is not None and all(LIST_ITEM.match(line) for line in block) else ""
        if said:
            out[lead] = ended(f"{out[lead].rstrip()} {said}".rstrip(",;"))
            del out[lead + 1:]
        else:
            out.extend(block)
        i = end
    return "\n".join(out)


def _ways(prose: str, items: list[str]) -> str:
    """The items of a list as the words that go on with the line of prose before it, or "" when
    the list does not go on with it (:func:`joined_enumerations`)."""
    sentence = SENTENCE_BREAK.split(prose.strip())[-1]
    plain = plain_text(sentence)
    if not 2 <= len(items) <= ENUMERATED_WAYS or LIST_ITEM.match(prose) or prose[:1].isspace() \
            or not (ACTION_CUE.match(plain) or _YOU_CAN.match(plain)):
        return ""
    said = [item[:1].lower() + item[1:] if _WAY_OPENING.match(item) else item for item in items]
    if enumerates(items):
        return " ".join(said)
    if sentence.endswith(":") and all(_WAY_ITEM.match(item) for item in items):
        return ", ".join(item.rstrip(".;,") for item in said)
    return ""


def prose_steps(text: str, limit: int = 4) -> list[str]:
    """Steps of a text without a list: its sentences that say what to do, a sentence that
    introduces code ("run the following cmdlet:", "We need to run") with the commands that follow
    it, and code that follows a finished sentence as a command to run when it reads as one or
    opens with a shell's "$" prompt whatever its fence names (not a program's output such as
    "==4242== Invalid read", "8 bytes in 1 blocks" or a report of labelled values,
    :func:`is_report`, nor a block under an "Output:" label, nor a program's messages,
    :func:`shows_messages`); code that is not run (a program's,
    a file's) and is short joins the step it follows ("Add an executable to the project:
    `add_executable(<name> <source>...)`"), as does a file's stanza of a few lines
    (:func:`is_file_text`; one set under its file's path, :func:`names_its_file`, even when
    it reads as labelled values); a command is never glued to the code block after it."""
    steps: list[str] = []
    code = False
    language = ""
    introduced = False  # the last step introduces what follows it ("run the following:")
    follows_step = False  # the prose before the code block ends with a step
    output = False  # the prose before the code block labels it as output ("Output:")
    for block in re.split(r"(^```.*$)", text, flags=re.M):
        if block.startswith("```"):
            code, language = not code, block[3:].strip()
            continue
        if not code:
            block = FORM_TABLE.sub(_form_values, block)
        if code:
            written = [line.rstrip() for line in block.splitlines() if line.strip()]
            lines = [line.strip() for line in written]
            commands = typed_commands(lines, language)
            joined = code_line(lines, language)  # the commands as one line
            if commands and not output:  # not what a command printed ("Output:")
                if steps and introduced and len(commands) < len(lines) \
                        and any(f"`{joined}`" in step for step in steps[:-1]):
                    pass  # an earlier step's command shown as it runs, with what it asks and prints
                elif steps and introduced:  # what the sentence introduces, typed or said ("… saying:")
                    steps[-1] = f"{steps[-1].rstrip(':.')}: `{joined}`"
                elif shows_messages(lines):
                    pass  # what a program says, shown after a sentence that does not introduce it
                elif COMMAND_START.match(commands[0]) and not is_report(commands) \
                        and not (len(commands) == 1 and PLACE.match(commands[0])) \
                        and (is_typed(written, language) or is_session(lines, language)):
                    steps.append(f"Run `{joined}`")
                elif steps and follows_step and COMMAND_START.match(commands[0]) \
                        and (not is_report(commands) or names_its_file(written)) \
                        and (len(commands) <= SHOWN_CODE_LINES
                             or len(commands) <= SHOWN_FILE_LINES and is_file_text(written)):
                    steps[-1] = f"{steps[-1].rstrip('.')}: `{joined}`"  # what the step writes
            introduced = output = follows_step = False
        else:
            lines = block.strip().splitlines()
            output = bool(lines) and bool(OUTPUT_LABEL.match(lines[-1].strip().replace("**", "")))
            said = sentences(block)
            found = [s for s in said if is_step(s) or s.endswith(":")]
            steps += found
            introduced = bool(found) and (not found[-1].endswith((".", "!", "?")) or bool(INTRODUCES.search(found[-1]))
                                          or bool(USES_FOLLOWING.search(found[-1]))) \
                and not output and _introduces_code(lines, found[-1])
            follows_step = bool(found) and said[-1] == found[-1]
    # an introduction ("run the following cmdlet:") is a step only with the commands it introduced;
    # one that opens with what to do and says all of it ("Select Generate Drill Files to open the
    # dialog:", over the dialog's options) is a step that ends there
    done = [f"{s[:-1].rstrip()}." if s.endswith(":") and ACTION_CUE.match(s) and not POINTS_ON.search(s) else s
            for s in steps]
    return [s for s in done if not s.endswith(":") and says_what_to_do(s) and not WHAT_IT_IS_FOR.match(s)
            and not (THERE_IS.match(s) and not REMEDY_CODE.search(s))][:limit]


# a sentence that says what to do with a form, over a table of two columns that gives each field
# its value: "Register one or several Remind transaction per payee with:" and "| Payee | John Doe |"
FORM_TABLE = re.compile(r"^(?P<lead>[^|\n]*\S:)[ \t]*\n\s*\n(?P<table>(?:\|[^|\n]*\|[^|\n]*\|[ \t]*(?:\n|$)){2,12})",
                        re.M)
# the most words a field's value has: "John Doe", "01/01/2000", not a control's description
# ("Use the spin box to specify the size of the panel.")
FORM_VALUE_WORDS = 6


def _form_values(found: re.Match[str]) -> str:
    """The sentence that says what to do, with the values the table gives: "… with: Date
    01/01/2000; Payee John Doe; …" (the table's first row too, which a page whose table has no
    header row gives as the header); any other sentence and table as they were: one that says
    what to do only in a sentence before it ("In the General tab, you can modify panel size …
    The following table describes the dialog elements …:"), and a table whose second column
    describes rather than gives values."""
    lead = found["lead"].strip()
    said = sentences(plain_text(lead))
    if not said or not says_what_to_do(said[-1]):
        return found[0]
    rows = [table_cells(row) for row in found["table"].strip().splitlines() if not TABLE_RULE.match(row)]
    if any(len(value.split()) > FORM_VALUE_WORDS for _, value in rows):
        return found[0]
    pairs = [f"{name} {value}".strip() for name, value in rows if name or value]
    return f"{lead} {'; '.join(pairs)}.\n"


# what a program is for, in the words of its introduction: "You can use it to watch movies or
# stream media from the Internet."
WHAT_IT_IS_FOR = re.compile(r"^you can (?:also )?use (?:it|them) (?:to|for)\b", re.I)


# an introduction that needs what it introduces: "… the following methods to …:", "run:", "as in:",
# "Use multiple daemons when:"
POINTS_ON = re.compile(r"\b(?:the following|these|below|as follows)\b|"
                       r"\b(?:following|this|those|here|follows|like|such as|commands?|cmdlets?|code|"
                       r"scripts?|lines?|examples?|text|settings|options|values?|steps?|syntax|format|files?|"
                       r"entry|entries|parameters?|run|type|enter|use|execute|add|paste|do|try|call|write|set|"
                       r"create|specify|include|see|with|to|by|in|as|from|of|for|and|or|e\.g\.|i\.e\.|"
                       r"when|if|where|whether|that|which|because|than|on|at|via|using|into)\s*:$", re.I)


def _introduces_code(lines: list[str], introduction: str) -> bool:
    """Whether the block's ``introduction`` ("run the following:") introduces the code after
    the block: no other label after it does ("May be used in sections :", a table of the
    sections, then "Arguments :" and its code), nor does a table or a list follow it."""
    tail = introduction.rstrip(" :")[-30:]
    at = max((i for i, line in enumerate(lines) if plain_text(line).rstrip(" :").endswith(tail)), default=-1)
    return not any(line.rstrip().endswith(":") or line.lstrip().startswith("|") or LIST_ITEM.match(line.lstrip())
                   for line in lines[at + 1:] if at >= 0)


# a sentence that says to use what follows it and goes on to say where: "you can use the following
# directives, either placed in the file …/.htaccess, or placed in apache2.conf inside a <Directory …>
# section." (Apache's guide to password-protecting a directory)
USES_FOLLOWING = re.compile(r"\b(?:use|add|put|place|insert|set|type|enter|run|write|include) the following "
                            r"(?:\w+ ){0,2}?(?:directives?|lines?|commands?|code|settings?|configuration|"
                            r"entries|statements?)\b", re.I)

SHOWN_CODE_LINES = 3  # code this short that a step writes (a signature, a file's lines) joins the step
SHOWN_FILE_LINES = 8  # and a file's stanza this short (:func:`is_file_text`)

# a label that says the code block under it is what a command printed: "Output:", "Sample output::",
# "Output from "zim --help":", "You should see a display looking something like this:"
OUTPUT_LABEL = re.compile(r"^(?:\w+\s+){0,2}output(?:\s+(?:from|of)\b[^:]{1,40})?:*$"
                          r"|^.*\byou(?:['’]ll| should| will| would| may)? see\b.*:$", re.I)
# a sentence that says what there is, whatever its clauses say ("However, there is no limit to the
# number of crate versions you can publish", "For users who need to contact many people, there's
# no need to remember addresses")
THERE_IS = re.compile(r"^(?:(?:however|but|also|still|of course|in (?:addition|fact)),?\s+|[^,]{1,80},\s+)?"
                      r"there(?:['’]s| is| are| was| were)\b", re.I)
# ... unless what there is is a remedy with the code that applies it: "There is a temporary hack
# to avoid using lots of disk space for chunks.archive.d: `rm -rf chunks.archive.d; …`" (Borg's FAQ)
REMEDY_CODE = re.compile(r"\b(?:workarounds?|hacks?|tricks?|ways?|fix|solutions?|commands?|scripts?)\b[^`]*: `", re.I)
# a folder or file alone, under the home folder, an environment variable or a drive: where
# something is ("~/.cache/pip", "%LocalAppData%\\pip\\Cache"), not a command
PLACE = re.compile(r"^(?:~|%\w+%|\$\{?\w+\}?|[A-Za-z]:)[\\/]\S*$")


# a step that only gets to where the next one acts: a panel, a tool, a site or a menu opened ("Open
# the Activities overview and start typing Sound.", "Sign in to the Exchange admin center as an
# Exchange admin.", "In the Exchange Admin Center, go to Mail flow > Rules.") ...
GETS_THERE = re.compile(r"^(?:(?:on|in|from) [^,]{1,40}, )?(?:open|go to|navigate to|browse to|sign in|log on|"
                        r"log in|launch|start|click start|select start|switch to)\b", re.I)
# ... and the step done there, on what is on the screen ("Click on Sound to open the panel."), not
# by hand ("Open the rear cover." then "Pull the jammed paper out.")
DONE_THERE = re.compile(r"^(?:(?:on|in|under|from) [^,]{1,40}, )?(?:click|double-click|right-click|select|choose|"
                        r"tap|press|type|enter|find|locate|scroll|run|in the|on the|under)\b", re.I)
# the two join when they say at most this many words (step coverage with the memory over every
# bundled document 0.478 -> 0.490; given documents 0.466 -> 0.480)
WAY_THERE_WORDS = 30


def with_way_there(steps: list[str], own: list[str]) -> tuple[list[str], dict[str, str]]:
    """``steps`` (some of a unit's steps ``own``, in its order), each step that only gets to where
    the unit's next step acts (:data:`GETS_THERE`, :data:`DONE_THERE`) joined with that step, when
    the two are short: one action, as a person says it ("Open the Activities overview and start
    typing Sound. Click on Sound to open the panel."), which counts once in an answer's steps.
    Also the first of the two steps of each joined one."""
    place = {step: i for i, step in reversed(list(enumerate(own)))}
    joined: list[str] = []
    first: dict[str, str] = {}
    i = 0
    while i < len(steps):
        step = steps[i]
        after = steps[i + 1] if i + 1 < len(steps) else ""
        if after and step in place and place.get(after) == place[step] + 1 and GETS_THERE.match(step) \
                and DONE_THERE.match(after) and len(step.split()) + len(after.split()) <= WAY_THERE_WORDS:
            both = f"{ended(step.rstrip())} {after}"
            joined.append(both)
            first[both] = step
            i += 2
            continue
        joined.append(step)
        i += 1
    return joined, first
