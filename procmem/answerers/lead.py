"""The plain answer of the extractive answerer: one or two sentences of the selected units.

What to do, then why (the cause, the setting, the limit): the sentences of the chosen units that
say what to do are scored by the last question's words and their unit's place
(:func:`plain_answer`); a section that answers the question by its header opens with its answer
(:func:`section_answer`); a reference entry or an option that the question names leads with its
name and what it does. Sentences that need the one before them, notes, other ways, and how to
undo what the user did not ask to undo lead nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from procmem.answerers.candidates import (
    LABELLED_ITEM,
    Candidate,
    answers_by_option,
    asked_entries,
    asked_keys,
    asked_steps,
    defined_terms,
    described_steps,
    entries_by_name,
    is_duplicate,
    opposite_task,
    share,
    speaks_of_itself,
    with_same_action,
)
from procmem.answerers.clauses import (
    defines,
    describes,
    is_metadata,
    is_prose,
    labelled_values,
    says_what_to_do,
    sentences,
)
from procmem.answerers.code_blocks import commands_typed
from procmem.answerers.prose import (
    INTRODUCES,
    LIST_ITEM,
    colon_outside_brackets,
    ended,
    introduced,
    paragraphs,
    plain_text,
    unended,
)
from procmem.answerers.sentence_roles import (
    ANAPHORIC,
    GOES_ON,
    GOES_ON_FROM_STEP,
    NAMES_AN_ACTION,
    NAMES_WHAT_CAME_BEFORE,
    NOTE_LABEL,
    NOTE_OPENING,
    OTHER_WAY,
    PLACEHOLDER,
    SEQUENCE_WORD,
    STATEMENT,
    WHY_OF_BEFORE,
    acts,
    advises_asked,
    case_user_denies,
    does_asked,
    for_asked_action,
    says_why,
    sends_to_steps,
    troubleshoots_unasked,
    undoes_unasked,
    unnamed_case,
    wish_not_asked,
)
from procmem.answerers.steps import (
    BOILERPLATE,
    NUMBERED_LINE,
    after_numbered_list,
    entry_step,
    list_items,
    unit_steps,
    unit_text,
    usage_options,
)
from procmem.answerers.turn import Turn
from procmem.extract.markdown import SENTENCE_BREAK, first_sentence
from procmem.retrieval.query import terms
from procmem.units import LogicUnit, Unit, entry_name, own_header

NOTHING_FOUND = "No matching instructions were found."
CITED = re.compile(r"\s*\[\d+\]$")  # the citation that ends a step

def _sentence_score(sentence: str, turn: Turn, position: int) -> float:
    """How well a sentence answers the question; ``position`` is its unit's place in the
    selection (the best unit first). The words of what the question asks count twice as much as
    those only of what the user tells in it (:attr:`Turn.asking_terms`: "I keep location services
    off for privacy." before "How do I set Tokyo time myself?"). A sentence for a case the
    conversation has not named ("If you get linker errors, install a C compiler" to "How do I
    install Rust?") scores half. A sentence that names the asked action by another verb says the
    question's verb (:func:`with_same_action`: "Click File > New > Calendar." for "How do I
    create a calendar?")."""
    found = with_same_action(set(terms(sentence)), turn)
    score = (share(turn.question_terms, found) + share(turn.asking_terms, found) + 0.5 * share(turn.context_terms, found)
             + 0.2 * bool(found - turn.said_terms) + 1.2 / (1 + position))
    return score / 2 if unnamed_case(sentence, turn) else score


# a name as written in code: "http.proxy", "html_logo_url"; a command that names an entry, before
# what it does ("neighbor A.B.C.D activate: This configuration modifies ..."), or a command and
# its subcommand ("docker rename: Rename a container")
NAME_FIRST = re.compile(r"^[a-z][\w-]*[._(\[:$][\w.()\[\]-]*"
                        r"|^[a-z](?=(?:[^:.]|\.\S){0,80}?(?:\b[A-Z][A-Z0-9_.]*[A-Z0-9]\b|[\[<{(|_]|\w-\w))"
                        r"(?:[^:.]|\.\S){0,80}: [A-Z]"
                        r"|^[a-z][\w.+-]*(?: [a-z][\w.+-]*){1,2}: [A-Z]")


def _opening(sentence: str) -> str:
    """A sentence as the answer's first: without the word that placed it in a sequence ("Then,
    check ..."), starting with a capital ("bring the milk to 45°C") unless it starts with a name
    as written in code ("http.proxy: Sets ...", "neighbor PEER activate: Enables ...")."""
    sentence = SEQUENCE_WORD.sub("", sentence)
    return sentence if NAME_FIRST.match(sentence) else sentence[:1].upper() + sentence[1:]


def _reads_as_prose(sentence: str) -> bool:
    """Prose, or prose that introduces the command it ends with ("If you're using Linux or
    macOS, open a terminal and enter the following command: $ curl ... | sh") or the settings
    of its example (:func:`settings_shown`), not a session with what its commands print."""
    head, colon, tail = sentence.partition(": ")
    introduces = bool(colon) and len(head.split()) >= 5 and is_prose(head)
    return is_prose(sentence) or (introduces and ("; " not in tail or len(tail.split()) <= 12  # one command, or a few
                                                  or tail.endswith(SETTINGS_CUT)))


LEAD_CODE_WORDS = 12  # code this short that a sentence introduces may lead with it, as what to do
LEAD_CODE = re.compile(r"[A-Za-z.$\\/~<:]")  # ... when it is a command, a path or markup, not a drawing ("---o---o")
LEAD_STEP_WORDS = 40  # a step longer than this leads the answer with its opening only
# a line of a configuration file that sets a value ("relayhost = [mail.example.com]"), in code a
# sentence introduces, its lines joined by "; "
SETTING = re.compile(r"^[A-Za-z_][\w.-]*\s*=(?:\s|$)")
LEAD_SETTINGS = 3  # a long example of settings leads with this many of them
SETTINGS_CUT = "; …"  # ... and says that more follow
CONFIG_FILE = re.compile(r"^[\w.~/$-]*[./][\w.~/$-]*:$")  # the file an example's settings go in: "/etc/postfix/main.cf:"


def settings_shown(sentence: str) -> str:
    """A sentence that introduces a longer example of configuration (more than
    :data:`LEAD_CODE_WORDS` words that open by setting values: :data:`SETTING`) with the
    example's first :data:`LEAD_SETTINGS` settings only, and the file they go in when it comes
    first ("Here is an example of a virtual mailbox domain: /etc/postfix/main.cf:;
    virtual_mailbox_domains = …; virtual_mailbox_base = …; virtual_mailbox_maps = …; …"). The
    settings are the example's first lines, comments left out, up to its first line of another
    kind; "" for any other sentence."""
    colon = colon_outside_brackets(sentence)
    code = sentence[colon + 1:].strip() if colon >= 0 else ""
    if len(code.split()) <= LEAD_CODE_WORDS:
        return ""
    lines = [line.strip() for line in code.split("; ") if line.strip()]
    file = lines[:1] if CONFIG_FILE.match(lines[0]) else []
    settings: list[str] = []
    for line in lines[len(file):]:
        if len(settings) == LEAD_SETTINGS or not (SETTING.match(line) or line.startswith("#")):
            break
        if SETTING.match(line):
            settings.append(line)
    if not settings:
        return ""
    return f"{sentence[:colon]}: " + "; ".join([*file, *settings]) + SETTINGS_CUT


# the words with which a text introduces ways to choose among rather than steps to follow
ALTERNATIVES = re.compile(r"\b(?:one|any|either) of the following\b|\bin (?:one of )?the following ways\b"
                          r"|\bin (?:several|two|three|multiple) ways\b", re.I)
# the words with which a sentence points to its example: "…, as in the following example"
POINTS_AHEAD = re.compile(r",?\s+(?:as (?:in|shown in|seen in) (?:the following|this) example|as follows"
                          r"|like (?:this|so)|as (?:shown|seen) below)$", re.I)


def _step_opening(step: str) -> str:
    """A step as the answer's lead: whole, or when longer than :data:`LEAD_STEP_WORDS` words
    (the code of a file with the notes on it) the words that introduce its code ("Add the
    following domain XML elements to share the host directory /path with the guest"), without
    those that point to it (:data:`POINTS_AHEAD`), else its first sentence; "" for such a step
    that runs code alone."""
    if len(step.split()) <= LEAD_STEP_WORDS:
        return step
    colon = colon_outside_brackets(step)  # not a note's in brackets: "(note: there must be …): postlog …"
    head = step[:colon] if colon >= 0 else ""
    if head and 5 <= len(head.split()) <= LEAD_STEP_WORDS and not SENTENCE_BREAK.search(head):
        # the words that introduce its code, when they are one sentence ("Sign in as an admin.
        # Note: …" opens with its first)
        return POINTS_AHEAD.sub("", head)  # the code it points to is in the steps
    if step.startswith("Run "):
        return ""  # a long block of code with no words of its own (a table's schema) leads nothing
    return SENTENCE_BREAK.split(step, maxsplit=1)[0]


def is_faq(unit: Unit) -> bool:
    """An FAQ entry, or a section whose header asks a question: its opening answers the question
    ("No." and why; "Why did MakeMaker reinvent the wheel? …"), whatever it says."""
    return isinstance(unit, LogicUnit) and (unit.type == "FAQ" or own_header(unit).rstrip().endswith("?"))


# the case a section opens with, which the user's question has said already: "You want all HTTP
# requests to be redirected to HTTPS."
SCENARIO = re.compile(r"^(?:description:\s*)?(?:you (?:want|would like|wish)|you['’]d like|suppose|imagine|say you)\b",
                      re.I)


# two sentences of one unit that score less than this apart name the same words of the last question
# (each of its words adds up to 2 / their number): a word or two of the history tells them apart
STEP_TIE = 0.05


def steps_in_order(actions: list[str], pool: dict[str, float], place: dict[str, tuple[int, int]],
                   before: dict[str, str] | None = None, for_asked: frozenset[str] = frozenset()) -> list[str]:
    """``actions`` (best first; ``pool``: their scores; ``place``: each sentence's unit and its
    place in the texts) led by the earliest sentence of the best one's unit that scores within
    :data:`STEP_TIE` of it: when the question's words cannot tell two steps apart, the one the user
    does first leads ("Type in the IP Address and Gateway, as well as the appropriate Netmask."
    before "Enter the IP address of a DNS server you want to use." for a fixed address), unless a
    later one says it is for the asked action (``for_asked``: "To log out of your session or
    switch users, click on the Log Out button …" before "Choose Add to Panel, then choose Log Out
    from the Add to Panel dialog." for "How do I log out?"). A step
    that goes on from an action before it (``before``: each sentence's, in its unit) is done
    after it, which leads ("… add a splash.png picture of 640x480 pixels." before "Then, remove
    the splash.svg file.")."""
    if not actions or actions[0] not in place:
        return actions
    best = actions[0]
    seen = {best}
    # (the earlier step is done first even where it would lead no answer of its own: "When
    # modifying one of the default themes, if you want to use a personalized background image …,
    # add a splash.png picture of 640x480 pixels." names a wish the user did not say)
    while GOES_ON_FROM_STEP.match(best) and (earlier := (before or {}).get(best, "")) in pool \
            and earlier not in seen and acts(earlier):
        best = earlier
        seen.add(best)
    if best != actions[0]:
        return [best, *(s for s in actions if s != best)]
    tied = [s for s in actions if s in place and place[s][0] == place[best][0] and pool[best] - pool[s] <= STEP_TIE]
    first = min(tied, key=lambda s: (s not in for_asked, place[s][1]))
    return [first, *(s for s in actions if s != first)]


def after_numbered_steps(unit: Unit) -> list[str]:
    """The sentences a logic unit says after its numbered steps, when it has two or more
    (:func:`after_numbered_list`): a remark on them (what happens then, another task, a way to
    filter what they made: "Drag a button to the Filters area to create a button and a listbox on
    top of the generated pivot table." after the steps to create a pivot table), not what to do
    first; for a question that asks one thing, they lead no answer (they may say why)."""
    if not isinstance(unit, LogicUnit):
        return []
    text = unit_text(unit)
    if sum(bool(NUMBERED_LINE.match(line)) for line in text.splitlines()) < 2:
        return []
    return sentences("\n\n".join(after_numbered_list(text)))


def plain_answer(chosen: list[Candidate], extra: list[Unit], turn: Turn, steps: list[str]) -> str:
    """One or two sentences of the selected units: the opening of a section that answers the
    question (:func:`section_answer`) when it is an FAQ entry's, says what to do or introduces
    code, or when the user asks no how-to or the section has no steps; else what to do, then
    why; a section that says what lets one do what is asked, or that its page's subject does it
    (:func:`offering_sentence`), leads with that sentence. A sentence that starts in lower case is
    the rest of one that a list or a command broke off, and is left out, and so are exclamations,
    questions, sentences that need the one before them (:data:`ANAPHORIC`) or fill in its
    example's placeholder (:data:`PLACEHOLDER`), words of the page's frame (:data:`BOILERPLATE`: a table or a picture the answer does not show), a
    labelled value ("Type: string (host and path)") and sentences that end introducing what
    follows them ("You can change it by the following."); a sentence of the chosen documents'
    other units (``extra``) leads only if it names something the question asks about and its unit
    is no section in which the page speaks of itself (:func:`speaks_of_itself`: it may say why); a note's
    sentence (:data:`NOTE_OPENING`) may say why, without its label, but not what to do, and one that offers another
    way (:data:`OTHER_WAY`) or names what the one before it listed (:data:`NAMES_WHAT_CAME_BEFORE`)
    does not lead, nor does one that says how to undo something when the
    user asks to undo nothing (:func:`undoes_unasked`), or what the best unit says after its
    numbered steps when the question asks one thing (:func:`after_numbered_steps`), or what to do
    when something goes wrong when the user reports nothing wrong (:func:`troubleshoots_unasked`), or what to do in a case
    that the user says is not so (:func:`case_user_denies`), or for a wish that names nothing
    of what the user says they chose or asks (:func:`wish_not_asked`). A sentence that introduces a short
    command says what to do with it ("For mail through a smarthost, you reconfigure the packages
    as the following: sudo dpkg-reconfigure exim4-config"), unless it goes on from the one
    before it (:data:`GOES_ON`); one that introduces a longer example of settings does so with
    the example's first ones (:func:`settings_shown`). A reference entry that the question names
    (:func:`asked_entries`), or the option of a list of options that does what it asks
    (:func:`answers_by_option`), leads, and says why only in its own words. A sentence that says
    why of the one before it (:data:`WHY_OF_BEFORE`: "However, this is expected …") is the why
    only of that sentence, when it leads; a sentence of another page than the best unit's and the
    lead's says why only when it names something the question or the lead names.

    The steps: the opening of the section that answers (:func:`_section_opening`); else the
    sentences of the chosen units and ``extra`` (:class:`_Pool`), those that say what to do and
    those that say why (:func:`_actions_and_causes`), the lead (:func:`_lead`) and its why
    (:func:`_why`)."""
    if said := _section_opening(chosen, turn):
        return said
    pool = _Pool.of(chosen, extra, turn, steps)
    actions, causes = _actions_and_causes(pool, chosen, turn)
    lead, asked = _lead(actions, pool, chosen, turn, steps)
    why = _why(causes, lead, asked, actions, pool, chosen, turn)
    answer = " ".join(ended(s) for s in ((why, lead) if turn.asks_cause else (lead, why)) if s)
    return answer or NOTHING_FOUND


def _section_opening(chosen: list[Candidate], turn: Turn) -> str:
    """The plain answer when the best unit answers by its own opening (:func:`section_answer`),
    or by its one command alone; "" when it does not."""
    # a section that answers by an entry the question names (or an option that does what it asks)
    # leads with that entry, not its opening
    # (and so does an option of a command's usage that does what is asked, in whichever part of it)
    by_option = any(usage_options(c.unit) and described_steps(c.unit, turn) for c in chosen)
    # (and so does a section without steps that a question asking which or what chose: "The
    # document viewer supports the following formats: …" for "Which file formats can it open?";
    # asked why, its opening may only state the problem again, and the sentence that says why leads)
    opens = bool(chosen) and (chosen[0].answers or turn.asks_no_steps and not turn.asks_cause
                              and not unit_steps(chosen[0].unit))
    entry_asked = bool(chosen) and bool(asked_entries(chosen[0].unit, turn))
    said = section_answer(chosen[0].unit) if opens and not by_option \
        and not (entry_asked or answers_by_option(chosen[0].unit, turn)
                 or defined_terms(chosen[0].unit, turn) or asked_keys(chosen[0].unit, turn)) else ""
    page_steps = bool(chosen) and any(c.doc_id == chosen[0].doc_id and unit_steps(c.unit) for c in chosen[1:])
    if said and not (turn.asks_how and not is_faq(chosen[0].unit) and (unit_steps(chosen[0].unit) or page_steps)
                     and not introduced(unit_text(chosen[0].unit))
                     and not any(says_what_to_do(s) and not advises_asked(s, turn) for s in sentences(said))):
        return said  # unless it only sets the scene for the steps (its own, its page's) of what the user asks how to do
    only = unit_steps(chosen[0].unit) if chosen and chosen[0].answers and not by_option and not entry_asked else []
    if len(only) == 1:  # a section that answers with one command alone (not by an entry the question names)
        return ended(_opening(only[0]))
    return ""


@dataclass
class _Pool:
    """The sentences of the chosen units and of ``extra`` that may lead the plain answer or say
    why, each with its score (:func:`_sentence_score`), and what the choice reads of each."""

    units: list[Unit]  # the chosen units, then the extra ones
    # whether each unit names something of what a pronoun of the question points back to (each
    # does when it points back to nothing): one that does not ("Deleting a panel" for "How do I
    # delete it?" after a folder was made) leads nothing before the best unit's steps and says why
    # of nothing
    of_referent: list[bool]
    score: dict[str, float] = field(default_factory=dict)
    aside: set[str] = field(default_factory=set)  # sentences that lead nothing
    best_said: set[str] = field(default_factory=set)  # the best unit's sentences
    gives_code: set[str] = field(default_factory=set)  # sentences that introduce what to type, with it
    before: dict[str, str] = field(default_factory=dict)  # the sentence before each, in its unit
    place: dict[str, tuple[int, int]] = field(default_factory=dict)  # each one's unit and place in the texts
    unit_of: dict[str, int] = field(default_factory=dict)  # the place of the unit of each in the pool

    @classmethod
    def of(cls, chosen: list[Candidate], extra: list[Unit], turn: Turn, steps: list[str]) -> _Pool:
        units = [c.unit for c in chosen] + extra
        pool = cls(units, [position == 0 or not turn.referent_terms
                           or bool(turn.referent_terms & set(terms(u.render())))
                           for position, u in enumerate(units)])
        # a step that a sentence introducing code became, with the code: "You can change it by the
        # following: `sudo update-alternatives --config editor`"
        with_code = {step.split(": ", 1)[0]: step for step in (CITED.sub("", s) for s in steps) if ": " in step}
        for position, unit in enumerate(units):
            unit_sentences = []
            for said in sentences(commands_typed(unit_text(unit))):  # a session's commands, not what they print
                shown = settings_shown(said)  # a long example of settings: its first ones
                unit_sentences.append(shown or said)
                if shown and not GOES_ON.match(shown):
                    pool.gives_code.add(shown)
            if position == 0 and not turn.asks_several:  # (what follows the steps may answer another part)
                pool.aside.update(after_numbered_steps(unit))
            # a section of the task that reverses the asked one leads nothing ("If you do not have a
            # backup, go to the next page." of "Restore from backup", to "How do I back up …?")
            reverses = opposite_task(unit, turn)
            for earlier, s in zip(["", *unit_sentences], unit_sentences, strict=False):
                pool.before.setdefault(s, earlier)
                pool.place.setdefault(s, (position, len(pool.place)))
                if not _may_lead(s, turn):
                    continue
                introduces = INTRODUCES.search(s) or s.rstrip(".:") in with_code
                if introduces:  # "... you can specify: `Pgp: E`"
                    s = with_code.get(s.rstrip(".:"), "")
                # what to type, in the sentence that introduces it (a session's command stands in it
                # already: "… as the following: sudo dpkg-reconfigure exim4-config")
                code = s.partition(": ")[2]
                if (introduces or with_code.get(s.partition(": ")[0]) == s) and len(code.split()) <= LEAD_CODE_WORDS \
                        and LEAD_CODE.match(code) and not GOES_ON.match(s):
                    pool.gives_code.add(s)
                if s and position == 0:
                    pool.best_said.add(s)
                if s and s not in pool.score:
                    pool.score[s] = _sentence_score(s, turn, position)
                    pool.unit_of[s] = position
                    if reverses:
                        pool.aside.add(s)
                    if position >= len(chosen) and (not turn.question_terms & set(terms(s)) or speaks_of_itself(unit)):
                        # another section's, naming nothing asked, or one in which the page speaks
                        # of itself ("Conclusion": "With minimal effort, you can use rsyslogd to
                        # write syslog messages to a database"): no lead
                        pool.aside.add(s)
        return pool


def _may_lead(s: str, turn: Turn) -> bool:
    """Whether sentence ``s`` may lead or say why at all: prose of 5 to 45 words that starts a
    sentence, no exclamation or question ("... quite enterprising so you decide to try to fix the
    bug!" sets a scene), nothing the conversation said, and none of the kinds
    :func:`plain_answer` leaves out."""
    return 5 <= len(s.split()) <= 45 and s[0].isupper() and _reads_as_prose(s) and not BOILERPLATE.search(s) \
        and not ANAPHORIC.match(s) and not PLACEHOLDER.match(s) and not s.endswith(("!", "?")) \
        and not turn.already_said(s, 0.7) and not turn.user_said(s) and not turn.reports_checked(s) \
        and not turn.restates(s) and not labelled_values(s, labels=1)


def _actions_and_causes(pool: _Pool, chosen: list[Candidate], turn: Turn) -> tuple[list[str], list[str]]:
    """The sentences that say what to do, best first, and those that say why."""
    # what a clause of purpose or result lets someone do is no action ("This way, you can search ...")
    # a note says what to mind, not what to do first: it may say why, but leads nothing; nor does how
    # to undo something, unless the user asks to undo
    actions = sorted((s for s in pool.score if (acts(s) or s in pool.gives_code or does_asked(s, turn))
                      and not NOTE_OPENING.match(s) and not OTHER_WAY.match(s) and s not in pool.aside
                      and not NAMES_WHAT_CAME_BEFORE.match(s)
                      and not undoes_unasked(s, turn) and not troubleshoots_unasked(s, turn)
                      and not case_user_denies(s, turn) and not wish_not_asked(s, turn)),
                     key=lambda s: -pool.score[s])
    actions = steps_in_order(actions, pool.score, pool.place, pool.before,
                             frozenset(s for s in actions if for_asked_action(s, turn)))
    causes = sorted((s for s in pool.score if says_why(s)), key=lambda s: -pool.score[s])
    if chosen and not pool.best_said and unit_steps(chosen[0].unit):
        # the best unit says what to do in its list alone: another unit's sentence leads before
        # its steps only if it names as much of what is asked as the best unit's header does (and
        # its unit names what the question points back to, above)
        named = len(turn.question_terms & set(terms(own_header(chosen[0].unit))))
        actions = [s for s in actions if len(turn.question_terms & set(terms(s))) >= named
                   and pool.of_referent[pool.unit_of[s]]]
    elif chosen and turn.asks_how and unit_steps(chosen[0].unit):
        # nor does one that names nothing asked ("Move the mouse or press any key and then click
        # Leave Message." of the section's second part, before "Choose System → Lock Screen."),
        # nor one of a unit that names nothing the question points back to (above)
        actions = [s for s in actions if pool.unit_of[s] == 0 or turn.question_terms & set(terms(s))
                   and pool.of_referent[pool.unit_of[s]]]
    if not (turn.asks_how or turn.asks_what_to_do or turn.reports_failure) \
            and (not pool.best_said.intersection(actions) or turn.asks_what_it_does):
        # asked what happens or what a thing does, not how to do something ("My disk is almost
        # full, what does the client do?"): what the best unit says of it, before another unit's
        # action ("Before enabling core dumps …, ensure that you have enough disk space"), and
        # why in its words
        own = sorted((s for s in pool.score if s in pool.best_said and turn.question_terms & set(terms(s))
                      and not NOTE_OPENING.match(s)), key=lambda s: -pool.score[s])  # ties in the page's order
        if turn.asks_what_it_does:  # what a thing does, before what to do with it ("To enable it, …")
            own = [s for s in own if s not in actions] or own
        if own:  # why in its words, unless why is what the user asks
            actions, causes = own, causes if turn.asks_cause else [s for s in causes if s in pool.best_said]
    return actions, causes


def _lead(actions: list[str], pool: _Pool, chosen: list[Candidate], turn: Turn,
          steps: list[str]) -> tuple[str, str]:
    """What the plain answer says to do, and the entry or list item the question asks for that
    leads it ("" when none does)."""
    lead = _opening(actions[0]) if actions else ""
    if chosen and chosen[0].offer:
        # what lets one do what is asked, or does it, before the steps that get there (its page's)
        lead = _opening(chosen[0].offer)
    if asked := next((entry for c in chosen for entry in asked_steps(c.unit, turn)), ""):
        if labelled := LABELLED_ITEM.match(asked):  # the name as typed: "debug bgp updates: Enable or ..."
            lead = f"{plain_text(labelled['label'])}: {first_sentence(labelled['text'], max_words=45)}"
        else:  # a list's item that says what is asked: "send the message to a remote syslog server …"
            lead = _opening(first_sentence(asked, max_words=45))
    if lead or not steps:
        return lead, asked
    # a step that describes is no lead ("The opt-level setting controls the level of optimization")
    doing = [step for step in (CITED.sub("", s) for s in steps) if not describes(step) and not NOTE_OPENING.match(step)]
    # a reference entry: what the name does ("http.proxy: Sets ..."), the best unit's if it is
    # one, or a chosen unit's entry for its name ("docker rename: Rename a container")
    best = unit_steps(chosen[0].unit)[:1] if chosen else []
    named = {steps_of[0] for c in chosen if entry_step(c.unit) and (steps_of := unit_steps(c.unit))}
    entry = next((step for step in doing if step in best and (defines(step) or step in named)), "") \
        or next((step for step in doing if step in named), "")
    if entry or doing and defines(doing[0]):
        lead = _opening(entry or doing[0])
    elif doing and not STATEMENT.match(plain_text(doing[0])) and (opening := _step_opening(doing[0])) \
            and not NAMES_AN_ACTION.match(opening):  # a step's label ("Comparing the red globe …: …")
        lead = _opening(unended(opening))
        # what to do sends the user on to the other steps (:func:`sends_to_steps`)
        # (not to ways to choose among: "To lock the screen, perform one of the following actions:")
        if sends_to_steps(opening) and len(steps) > 1 \
                and not (chosen and ALTERNATIVES.search(unit_text(chosen[0].unit))):
            lead = f"{lead}, then follow the steps below."
    elif pool.score:  # the user's wish said again (:data:`SCENARIO`) only when nothing else is said
        lead = max(pool.score, key=lambda s: (not SCENARIO.match(s), pool.score[s]))
    return lead, asked


def _why(causes: list[str], lead: str, asked: str, actions: list[str], pool: _Pool,
         chosen: list[Candidate], turn: Turn) -> str:
    """The sentence that says why of what is asked or of the lead, without a note's label; ""
    when none does."""
    # the entry asked, or the one that leads, says why in its own words, not in another entry's
    # (a menu's "Only available if the Spell Checker plugin is enabled." is said of "Check Spelling")
    label = lead.partition(": ")[0]
    entry = asked or next((line for c in chosen if (line := entries_by_name(c.unit).get(label))), "")
    if entry and not turn.asks_cause:
        causes = [s for s in causes if s in plain_text(entry)]
    led_by = actions[0] if actions and lead == _opening(actions[0]) else None  # the sentence that leads
    # a why from another page than the best unit's and the one that leads says why of what is
    # asked or done: it names something of the question or of the lead (the MATE guide's "Click
    # Night Light to open the settings." is not followed by another page's "When you leave your
    # computer, you can lock your screen …")
    units = pool.units
    pages = {_page(unit) for unit in units[:1]} | ({_page(units[pool.unit_of[led_by]])} if led_by else set())
    named = turn.question_terms | set(terms(lead))
    why = next((s for s in causes if not is_duplicate(s, [lead])  # not the lead again
                and (not WHY_OF_BEFORE.match(s) or pool.before.get(s) == led_by) and pool.of_referent[pool.unit_of[s]]
                and (_page(units[pool.unit_of[s]]) in pages or bool(named & set(terms(s))))), "")
    return NOTE_LABEL.sub("", why)  # a note's why, in its own words (asked why, it comes first)


def _page(unit: Unit) -> str:
    return str(unit.meta.get("doc_id", ""))


def section_answer(unit: Unit, max_words: int = 60) -> str:
    """The answer of a section that asks the question (an FAQ entry) as it opens: its first two
    sentences ("No." with the one that says why; a third when two make fewer than 8 words, from
    the next paragraph when its first says only "Yes!"), at most ``max_words`` words, code left
    out. An opening that ends introducing a list, a message or a command ("It identifies local
    ports this way:") goes on with what it introduces, as far as the words allow; a reference
    entry's opens with the name it defines ("port (integer): The TCP port ..."); an FAQ entry
    whose answer is a list alone, of no steps, answers with its items ("Where do they go?": "A
    screenshot image is automatically saved in …"). "" when another section opens with no prose
    (a list alone, a shell session alone), or with its list: its steps answer, not a sentence
    after them ("You can also use the keyboard shortcuts:")."""
    text = unit_text(unit)
    faq = is_faq(unit)
    if not faq and LIST_ITEM.match(text.lstrip()):
        return ""  # a section that opens with its list answers with its steps, not the prose after them
    # (an FAQ entry that answers with a list alone, of no steps, answers with its items: "Where do
    # they go?" and "A screenshot image is automatically saved in the Pictures/Screenshots folder …")
    found = paragraphs(text) or (list_items(unit) if faq and not unit_steps(unit) else [])
    opening = next(iter(found), "")
    # an opening that introduces a list or a command goes on with it, not with the next paragraph
    # ("The document viewer supports the following formats:" and its list, not its note); an FAQ
    # entry's answer goes on (lsof's "If lsof issues this complaint:", its message, then the fix)
    introduces_items = introduced(commands_typed(text))
    introduces = not faq and bool(introduces_items)
    answer: list[str] = []
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
        if len(" ".join(answer).split()) >= 8 or introduces and answer:
            break  # a paragraph of its own that says only "Yes!" goes on with the next
    said = " ".join(answer)
    name = entry_name(unit)  # a reference entry's answer says what it is the entry for
    # what a session at a prompt introduces is what is typed, not what the commands print
    follows = introduces_items if said and said == opening else []
    if follows and follows[0] in said:
        follows = []  # the opening holds the command it introduces already
    if follows:
        room = max_words - len(said.split())
        items = " ".join(f if f.endswith((".", "!", "?", ";")) else f"{f};" for f in follows)
        words = items.rstrip(";").split()  # items that are no sentences join with ";"
        shown = " ".join(words[:room]) + (" …" if len(words) > room else "")
        if said.endswith(","):  # the sentence goes on: "To fix that, ensure the box knows its domain."
            said = f"{said} {shown[:1].lower() if shown[1:2].islower() else shown[:1]}{shown[1:]}"
        else:
            said = f"{said.rstrip(':')}: {shown}"
    return f"{name}: {said}" if name and said else said


