"""What a sentence of the selected units does for the last turn, read without a model: says why
(the cause, the setting, the limit: :func:`says_why`), tells what to do (:func:`acts`,
:func:`orders`, :func:`does_asked`), or speaks of what the user did not ask (a case the
conversation has not named, how to undo or troubleshoot, a wish the user did not say, a case the
user denied); and the openings by which it needs the sentence before it (:data:`ANAPHORIC`,
:data:`NAMES_WHAT_CAME_BEFORE`) or sets itself aside (:data:`NOTE_OPENING`, :data:`OTHER_WAY`).
The plain answer (:mod:`procmem.answerers.lead`) chooses among them.
"""

from __future__ import annotations

import re

from inscoqa.corpus.common import NOTE_LABELS
from procmem.answerers.clauses import (
    ACTION_CUE,
    CASE_ACTION,
    describes,
    states,
    without_consequences,
)
from procmem.answerers.common import names
from procmem.answerers.prose import colon_outside_brackets
from procmem.answerers.turn import Turn
from procmem.retrieval.query import terms

# a sentence that says why: the cause, the setting or the limit behind what to do
# "means" as a verb ("This means that …"), not a way ("another means to manage your files", "by
# means of a hook")
_MEANS = r"(?<!\ba )(?<!\bby )(?<!\bno )(?<!\bthe )(?<!\bany )(?<!\bother )(?<!\banother )means"
# "only" as a limit ("works only if …", "the only supported way"), not a word's part ("a cloud-only
# mailbox", "read-only") nor "not only … but also"
_ONLY = r"(?<![-\w])(?<!\bnot )only(?!-)"
# "expected" as what is meant to happen ("This behavior is expected", "it is expected to be still a
# little runny"), not a symptom's "doesn't work as expected" nor "the expected name"
_EXPECTED = r"(?<!\bas )(?<!\bthan )(?<!\bthe )(?<!\ban )expected"
CAUSE_CUE = re.compile(
    rf"\b(?:because|causes?|caused|occurs?|happens?|due to|{_ONLY}|not supported|unsupported|"
    # "is designed to", "by design"; not what something is made for ("keyboards designed for Windows")
    rf"requires?|required|must|limit\w*|by default|{_EXPECTED}|(?:is|are|was|were|be|not) designed|by design|{_MEANS})\b",
    re.I)

# ... what says it in an order: "Lower the heat and keep stirring, because the sauce burns easily"
# says why; "Make sure that both tests pass and that no actions are required." is one more step
GIVES_REASON = re.compile(r"\b(?:because|since|so that|(?<!\bor )otherwise|or else|due to|to (?:avoid|prevent)|causes?|caused|"
                          rf"{_MEANS}|not supported|by design)\b", re.I)
# the label of a note that says why, left out of the answer: "Tip: We recommend that you use ..."
NOTE_LABEL = re.compile(rf"^(?:{NOTE_LABELS})\s*:\s*(?=[A-Z])", re.I)
# an example shows a case, not why: "For example, if a workspace that has 10 desks is booked ..."
EXAMPLE_OPENING = re.compile(r"^(?:for (?:example|instance)|e\.g\.)\b", re.I)


# what the user must do next, which "must" does not make a reason: "You must do the following:
# Configurations > Options... > Keys > Hot keys > …"
OBLIGED_TO_FOLLOW = re.compile(r"\byou (?:must|should|need to|have to) (?:do|follow|perform|complete|take) "
                               r"(?:the following|these|this|the steps)\b", re.I)


# advice to do something, not how: "It is a good idea to change your password from time to time"
ADVICE = re.compile(r"^(?:it(?: is|['’]s) (?:\w+ly )?(?:a good idea|recommended|advisable|wise|good practice) to"
                    r"|we (?:strongly )?recommend(?: that)? you|you should)\b", re.I)


def advises_asked(sentence: str, turn: Turn) -> bool:
    """A sentence that advises doing what the question asks how to do, without saying how: "It
    is a good idea to change your password from time to time, …" of "How do I change my
    password?" (the page's opening sets the scene for its steps; it may say why)."""
    return bool(ADVICE.match(sentence)) and bool(turn.task_terms) and turn.task_terms <= set(terms(sentence))


def says_why(sentence: str) -> bool:
    """A sentence that says why (:data:`CAUSE_CUE`) or gives its reason (:data:`GIVES_REASON`),
    but not an example; one that tells the user what to do (:func:`acts`, past a note's label,
    or :data:`OBLIGED_TO_FOLLOW`) only when it gives its reason."""
    reason = bool(GIVES_REASON.search(sentence))
    if not (reason or CAUSE_CUE.search(sentence)) or EXAMPLE_OPENING.match(sentence):
        return False
    order = acts(NOTE_LABEL.sub("", sentence)) or bool(OBLIGED_TO_FOLLOW.search(sentence))
    return not order or reason


CONDITION = re.compile(r"^(?:for (?:example|instance),?\s+)?(?:if|when|whenever|in case)\b([^,]{1,120}),", re.I)


def unnamed_case(sentence: str, turn: Turn) -> bool:
    """A sentence that opens with a case ("If you get linker errors, ...") of which the
    question and the conversation name nothing."""
    case = CONDITION.match(sentence)
    return bool(case) and not set(terms(case[1])) & (turn.question_terms | turn.context_terms)


# a sentence for undoing something: "To cancel a task scheduled by cron, simply run crontab -e and
# delete the corresponding line", "You can stop the firewall by executing nft flush ruleset as root."
UNDO_VERBS = ("cancel", "remove", "delete", "undo", "disable", "uninstall", "revert", "unmount", "deactivate",
              "unsubscribe", "unschedule", "unlock", "unshare", "turn off", "switch off", "stop")
UNDONE = ("cancell?ed", "removed", "deleted", "undone", "disabled", "uninstalled", "reverted", "unmounted",
          "deactivated", "turned off", "switched off", "stopped")
# ... or says it can be undone: "Debian activates it by default, but this can be deactivated by changing ..."
UNDOING = re.compile(rf"^(?:for (?:example|instance),?\s+)?(?:to|you can(?: also)?) (?:{'|'.join(UNDO_VERBS)})\b"
                     rf"|\bcan be (?:\w+ly )?(?:{'|'.join(UNDONE)})\b", re.I)
_UNDO_TERMS = frozenset(term for verb in UNDO_VERBS for term in terms(verb)) - {"turn", "switch"}


def undoes_unasked(sentence: str, turn: Turn) -> bool:
    """A sentence that says how to undo or stop something ("To cancel a task scheduled by cron,
    ...", "You can stop the firewall by …") when the question asks to undo nothing ("How do I
    schedule a command ...?", "How do I set up a firewall?"; "delete" asks what "To remove ..."
    says, and "stop" what "To disable ..." says)."""
    return bool(UNDOING.search(sentence)) and not _UNDO_TERMS & turn.question_terms


NEGATION = re.compile(r"\b(?:not|no longer|never)\b|n['’]t\b", re.I)


def case_user_denies(sentence: str, turn: Turn) -> bool:
    """A sentence for a case that is not so ("If the desired device is not shown as Connected in
    the list, …") when the last question says, without a negation, that it is so ("Done, it shows
    as Connected now."): the label the case names (:func:`names`: "Connected") is the question's."""
    case = CONDITION.match(sentence)
    if not case or not NEGATION.search(case[1]) or NEGATION.search(turn.question):
        return False
    return bool({n.casefold() for n in names(case[1])} & {n.casefold() for n in names(turn.question)})


# a case of what the user would want: "If you want the new user to have administrative access to the computer, …"
WISH = re.compile(r"^(?:if|when)\s+you\s+(?:want|wish|would like|['’]d like|prefer)\b([^,]{1,120}),", re.I)


WISH_ASKED_SHARE = 0.5  # of the question's terms, that a wish for the asked task names (wish_not_asked)
# a wish to do something ("If you want to print …"), not for a thing or a property ("If you want
# administrative access, …", an option of the asked task)
WISHED_ACTION = re.compile(r"\s*to\s+[a-z]+\b", re.I)


def wish_not_asked(sentence: str, turn: Turn) -> bool:
    """A sentence for a wish (:data:`WISH`) that names nothing of what the user says they chose
    (:attr:`Turn.choice`): "If you want the new user to have administrative access to the
    computer, select Administrator …" to "Fine, a standard account then. How do I create it?"; or,
    when the user chose nothing and the question names an action of its own
    (:attr:`Turn.named_action`), a wish to do something (:data:`WISHED_ACTION`) that names neither
    that action nor half of what the question asks: another task, said beside the steps ("If you
    want to print a certain row on all pages of a document, choose Format - Print ranges - Edit."
    under the steps to freeze rows, for "How do I freeze the top row so it stays visible when I
    scroll down?")."""
    wish = WISH.match(sentence)
    if not wish:
        return False
    wished = set(terms(wish[1]))
    if turn.choice:
        return not wished & turn.choice
    return bool(turn.named_action) and bool(WISHED_ACTION.match(wish[1])) and not wished & turn.named_action \
        and len(wished & turn.task_terms) < WISH_ASKED_SHARE * len(turn.task_terms)


# what to do when something goes wrong: "If you've problems getting the vacation reply, try deleting
# this file."
TROUBLE_CASE = re.compile(r"^(?:if|when)\s+(?:you(?:['’]ve| have| are having| experience| run into| get| see)|there (?:is|are))"
                          r"\s+(?:any |a )?(?:problems?|trouble|issues?|errors?)\b"
                          # ... or when what the steps do does not happen: "If the process does not
                          # close after a few seconds, right-click it and select Kill"
                          r"|^if\b[^,]{1,80}\b(?:does not|doesn['’]t|did not|didn['’]t|fails?|still)\b", re.I)
# the user reports that something goes wrong
TROUBLE_WORDS = re.compile(r"\b(?:problems?|trouble|issues?|errors?|fail\w*|broken|wrong|not work\w*|doesn['’]t|"
                           r"does not|don['’]t|can['’]t|cannot|won['’]t|isn['’]t|unable)\b", re.I)


def troubleshoots_unasked(sentence: str, turn: Turn) -> bool:
    """A sentence for when something goes wrong ("If you've problems getting the vacation
    reply, try deleting this file.") when the user reports nothing wrong ("How do I set up a
    vacation auto-reply?")."""
    return bool(TROUBLE_CASE.match(sentence)) and not TROUBLE_WORDS.search(
        " ".join([*(q for q, _ in turn.history), turn.question]))


# a step that states how things are once a condition holds, and says nothing to do: "If you use
# rustup, Clippy is usually already installed" (no lead to the steps: "..., then follow the steps below")
STATEMENT = re.compile(r"^(?:if|when|once|after|where)\b[^,]{1,120},\s+(?!you\b)(?:[\w’']+\s+){1,2}"
                       r"(?:is|are|was|were|will|has|have|does)\b", re.I)
# the clause a sentence may open with before what it says: "To avoid breaking legacy databases, ",
# "If the name is unique, then ", or the setting it holds for: "On Linux, "
OPENING_CLAUSE = re.compile(r"^(?:(?:if|when|once|after|because|since|to \w+)\b[^,]{1,120}"
                            r"|(?:on|in|under|with|for) [^,]{1,40}),\s+(?:then\s+)?", re.I)


def states_after_clause(sentence: str) -> bool:
    """A sentence that says how things are (:func:`states`), after the clause it may open with:
    "To avoid breaking those legacy databases, foreign key constraint enforcement is turned off
    by default"."""
    rest = OPENING_CLAUSE.sub("", sentence, count=1)
    return states(sentence) or (rest != sentence and states(rest))


# a step that the one before it leads to: "Then, remove the splash.svg file.", "After that, …"
GOES_ON_FROM_STEP = re.compile(r"^(?:then|afterwards|after that|next(?! to\b)|finally)\b", re.I)
# the word that places a step in a sequence, which a lead goes without (not a conjunction or a
# preposition that starts with one: "Now that the tree exists, build it", "Next to the search box, …")
SEQUENCE_WORD = re.compile(r"^(?:then|next(?! to\b)|finally|also|afterwards|now(?! that\b)|additionally),?\s+(?=\w)",
                           re.I)
# what a reference page or section is about, which "this" names without the sentence before it:
# "You can access this command from the image menubar through Colors → Desaturate"
_SUBJECT_KINDS = r"(?:command|tool|dialog|filter|option|feature|menu|plug-?in|function)s?\b"
# a sentence that needs the one before it to be understood: "If that happens, ...", "In that case, ...",
# "If it isn't, ...", "If it complains about something, then check your configuration.", "You can use
# it to monitor several systems", "Next check that it also works from remote host: …", "In the
# window that appears, select …", "To update your time zone manually, set this to off.", "To do
# this, run the following cmdlet", "To change this, you must rebuild Tux Paint from source.", "In
# this situation, there is only the default profile", "This can be verified by an administrator by
# running …", "You can change this behaviour in the Preferences …" (not "this command" of a
# command's page: :data:`_SUBJECT_KINDS`)
ANAPHORIC = re.compile(r"^(?:if so|if not|in (?:that|this|either) (?:case|situation|scenario)|otherwise"
                       r"|if (?:it|this|that|these|those|they)|to do (?:this|that|so)|to \w+ (?:this|that)(?=\s*,)"
                       r"|this (?:can|could|should|may|must|will) be \w+ed by"
                       r"|in the (?:\w+ ){1,2}that (?:appears|opens|pops up|is shown|is displayed)"
                       r"|(?:to \w+[^,]{0,80},\s+)?\w+ (?:this|that)(?= to\b| on\b| off\b|[.,;!]|$)"
                       r"|you (?:can|could|should|must|may|need to) \w+ (?:it|them|(?:this|these|those) (?!" + _SUBJECT_KINDS
                       + r")\w+"
                       # "that" pointing back ("that setting"), not saying what is so ("check that the …")
                       r"|that (?!(?:the|an?|your|you|it|its|they|their|there|this|these|those|all|no|each"
                       r"|every|he|she|we|i|our|my|his|her)\b)\w+)"
                       r"|(?:\w+\s+){0,3}(?:it|this|they) also)\b",
                       re.I)
# a sentence that names what the sentence before it listed or showed, by "these" or "those": "These
# arrows can be used to scroll the tabs", "When these choices have been made, …", "Each of these
# elements can be added by …"; it leads no answer, but may say why ("These values indicate that
# the meeting invitation wasn't processed …")
NAMES_WHAT_CAME_BEFORE = re.compile(r"^(?:(?:when|once|after|with|for|of|in|on|from|by|all|both|each|any)\s+"
                                    r"(?:of\s+)?)?(?:these|those)\b", re.I)
# a sentence that fills in a placeholder of the example before it: "Replace package with the name of
# a source or a binary package.", "Replace HOST with your server's name."
PLACEHOLDER = re.compile(r"^(?:replace|substitute)\s+\S+(?:\s+\S+)?\s+(?:with|by)\s+(?:the\s+(?:name|path|address|"
                         r"number|id|version|value)s?\s+of\b|your\b|the\s+(?:actual|real|correct)\b)", re.I)
# a sentence that goes on from the one before it: "And to reset back to the default driver: …",
# "They can be listed with their size by the following: …", "That's all the information you need to provide: …"
GOES_ON = re.compile(r"^(?:and|but|so|they|it|this|that|these|those|then)\b", re.I)
# a sentence that says why of the one before it ("However, this is expected behavior because …",
# "This should happen automatically every 24 hours, but …", "After this date, support for these
# modules is limited …", "So make sure to add only as much as you want to eat."): the answer's
# why only right after that sentence, its lead
WHY_OF_BEFORE = re.compile(r"^(?:however|therefore|thus|hence|so|consequently|as a result|for (?:this|that) reason"
                           r"|(?:because of|due to|after|before|until|since) (?:this|that|these|those)"
                           r"|this (?:is|was|can|could|may|might|should|will|would)(?! (?:not )?(?:required|necessary))"
                           r")\b", re.I)
# what to do instead of what the page said first: "Another option is to generate an empty bare
# repository at the client", "Alternatively, you can delete just the local cache": no lead
OTHER_WAY = re.compile(r"^(?:another|alternatively|instead|or)\b", re.I)
# a note's sentence, set aside from what to do ("Warning: If you plan to copy the binary ...", "Use
# this option with caution: …"): no lead
NOTE_OPENING = re.compile(rf"^(?:(?:{NOTE_LABELS})\s*:|(?:use|apply|run|enable|set)\b[^.:;]{{0,40}}\bwith "
                          rf"(?:great |extreme )?(?:caution|care)\b)", re.I)
# a sentence that tells what not to do: "If you do use plain text, you should not use the same passwords"
PROHIBITS = re.compile(r"(?:^|,\s+)(?:you\s+)?(?:should|must|need)\s+not\b|(?:^|,\s+)(?:do\s+not|don['’]t|never)\s", re.I)


# an entry of a list of terms or options: its name, then what it is or does in prose ("Use
# arithmetic coding: Arithmetic encoding is a form of entropy encoding …", "Save window positions
# on exit: If this option is checked, …"); not a sentence that introduces what follows it ("There
# are a few things you should check: Get-CASMailbox …")
TERM_ENTRY = re.compile(r"^(?P<name>(?![^:]*\b(?i:you|we|i|there|it|this|these|following)\b)[^:.!?]{1,60}):\s+"
                        r"(?P<text>[A-Z][a-z]*[\s,].*)$")


def acts(sentence: str) -> bool:
    """A sentence that says what to do as a lead may: an imperative or a modal's ("you can set
    ..."), after the case it is for, if any ("If the pool is running, recycle it"), not in a
    clause of purpose or result ("This way, you can search ..."). An entry of a list of terms or
    options (:data:`TERM_ENTRY`) says it in its description, not by its name: "Use arithmetic
    coding: Arithmetic encoding is …" describes an option, "Create a starting point: Click on the
    paintbrush …" says what to do."""
    if (entry := TERM_ENTRY.match(sentence)) and len(entry["name"].split()) <= 7:
        sentence = entry["text"]
    return bool(ACTION_CUE.search(without_consequences(sentence)) or CASE_ACTION.match(sentence))


# a sentence shaped as an order, whatever its verb ("Bring the milk to 45°C", "Migrate the crate"):
# its first word is none that opens a statement, a case or a value ("0 Success", "Actually you can
# call the method whatever you like", "In deciding how often ..., you will need to balance ...", "If
# jennifer connected ..., she would have gotten ...", "To fully work, rsyslogd must run ..."), nor
# a file's name ("builtin.vcl sets beresp.uncacheable to true …"), nor a gerund (:data:`GERUND`)
_SEQUENCE = r"first|then|next|now|finally"
# a word that names an action, as a label does: "Comparing the red globe to the yellow sunflower"
# ("Bring", "String" are orders)
GERUND = r"[a-z]*[aeiouy][a-z]*ing"
NAMES_AN_ACTION = re.compile(rf"^{GERUND}\b", re.I)
ORDER_SHAPED = re.compile(
    rf"^(?:(?:{_SEQUENCE}),?\s+)?(?!(?:{_SEQUENCE}|i|you|we|they|he|she|it|this|that|these|those|there|"
    r"here|one|the|an?|all|some|most|many|each|every|both|no|any|such|my|your|our|their|its|if|when|"
    r"once|after|before|while|because|since|although|though|as|in|on|at|by|for|from|with|without|to|"
    r"of|and|but|or|so|not|only|also|just|however|\w+ly|" + GERUND + r")\b)[a-z][a-z-]*\b(?![’']|\.\w)", re.I)
# what the user has to do, in a sentence that is no order: "If you'd like to wait for it, you must call ..."
OBLIGED = re.compile(r"\byou (?:must|should|need to|have to) \w+", re.I)


def orders(sentence: str) -> bool:
    """A sentence that tells the user what to do (:func:`acts`, :data:`ORDER_SHAPED`,
    :data:`OBLIGED`)."""
    return acts(sentence) or bool(ORDER_SHAPED.match(sentence) or OBLIGED.search(sentence))


def does_asked(sentence: str, turn: Turn) -> bool:
    """A sentence that says to do what the question asks how to do, in the question's own verb,
    as an order or a modal's: "You can rotate the image 90° clockwise …" for "How do I rotate a
    picture 90 degrees?", whose verb :func:`acts` does not know (:data:`ACTION_CUE`)."""
    verb = turn.action_verb
    return bool(verb) and bool(re.match(rf"(?:(?:{_SEQUENCE}),?\s+)?(?:you (?:can|should|must|need to|may) )?"
                                        rf"{re.escape(verb)}\b", without_consequences(sentence), re.I))


def for_asked_action(sentence: str, turn: Turn) -> bool:
    """A sentence that opens with the purpose of doing what the question asks how to do, in its
    own verb, and says no more of it than the question does, but for what it is done to when the
    question names nothing: "To log out of your session, click on the Log Out button …" for "How
    do I log out?", "To flip a layer, use …" for "How do I flip a layer horizontally?" (not "To
    freeze both horizontally and vertically, select …" for "How do I freeze the top row …?")."""
    verb = turn.action_verb
    purpose = re.match(rf"(?:(?:{_SEQUENCE}),?\s+)?to {re.escape(verb)}\b(?P<rest>[^,:]*)", sentence, re.I) \
        if verb else None
    if not purpose:
        return False
    more = set(terms(f"{verb}{purpose['rest']}")) - turn.question_terms
    return not more or len(turn.question_terms) <= 1  # (the action alone: "log out")


def sends_to_steps(sentence: str) -> bool:
    """A step's opening that can send the user on to the steps: one that says what to do
    (:func:`orders`; not "You can filter quite a bit with varnishlog", nor a value's
    "0 Success", nor "In deciding how often ..., you will need to balance ..."), not one that describes what
    something does (:func:`describes`: "Redirects a set of URLs externally"), says how things are
    (:func:`states_after_clause`: "Libvirt does support SEV, but …") or what not to do
    (:data:`PROHIBITS`); an entry's name is passed by ("?narrow(filter, pattern): This term
    “narrows” the search …" describes)."""
    colon = colon_outside_brackets(sentence)  # an entry's name, not a note in brackets
    rest = sentence[colon + 2:] if colon >= 0 else ""
    return orders(sentence) \
        and not any(describes(said) for said in (sentence, rest) if said) \
        and not states_after_clause(sentence) and not PROHIBITS.search(sentence)
