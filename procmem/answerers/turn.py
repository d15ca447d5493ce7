"""What the last turn of a conversation asks, read without a model.

- the terms of the last question (its intent) and of the earlier questions (the context);
- the user's setting: the platforms, editions, product versions, numbered variants ("DHCPv4")
  and roles the user named about themselves;
- whether the message reports that an earlier step did not work;
- the messages the user quotes (an error, a dialog's text), to be looked for word for word;
- what the assistant already said, so an answer need not say it again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise

from procmem.answerers.common import names
from procmem.extract.markdown import SENTENCE_BREAK
from procmem.retrieval.bm25 import compound_parts, said_verbs
from procmem.retrieval.query import HOW_DO_I, asks_how_to, other_verbs, terms
from procmem.retrieval.quotes import QUOTED, named_codes, quoted_fragments

# One entry per setting a user may name; each lists the words that name it.
SETTINGS: dict[str, tuple[str, ...]] = {
    "mac": ("mac", "macos", "macbook", "osx", "imac"),
    "windows": ("windows", "pc"),
    "ios": ("iphone", "ipad", "ios"),
    "android": ("android",),
    "linux": ("linux", "ubuntu", "gnome"),
    "web": ("web", "browser"),
    "on-premises": ("premises", "premise"),
    "cloud": ("cloud",),
    "admin": ("admin", "administrator", "administrators", "admins"),
    # the database engine a project runs on ("MySQL notes" answer no PostgreSQL user)
    "postgresql": ("postgresql", "postgres"),
    "mysql": ("mysql", "mariadb"),
    "sqlite": ("sqlite", "sqlite3"),
}
# settings named by two words ("Exchange Online" is the cloud service, "Exchange Server" is not)
SETTING_PHRASES: dict[str, tuple[str, ...]] = {
    "cloud": ("exchange online", "sharepoint online", "office 365", "microsoft 365", "onedrive for business"),
    "on-premises": ("exchange server", "sharepoint server", "skype for business server"),
}


@dataclass(frozen=True)
class SettingGroup:
    """Settings that exclude each other: a unit written for one of them fits a user in that one
    (``match``) and not a user in another (``mismatch``); both factors multiply a unit's score."""

    names: frozenset[str]
    match: float
    mismatch: float


SETTING_GROUPS: dict[str, SettingGroup] = {
    "platform": SettingGroup(frozenset({"mac", "windows", "ios", "android", "linux"}), 1.3, 0.3),
    "deployment": SettingGroup(frozenset({"on-premises", "cloud"}), 1.3, 0.5),
    "database": SettingGroup(frozenset({"postgresql", "mysql", "sqlite"}), 1.3, 0.3),
}
# products whose versions exclude each other: "Outlook 2016", "Exchange Server 2013 and 2016",
# "Windows 10"; a version setting is named "<product>@<version>" ("exchange@2016")
VERSIONED_PRODUCTS = ("exchange", "sharepoint", "skype for business", "lync", "outlook", "office", "windows",
                      "word", "excel", "powerpoint", "visio", "project", "ios", "android", "macos", "gnome")
# a mild mismatch: "Applies to" lists name the versions a page was written for, and most of
# its steps still hold for a later one (given documents, Office conversations: step coverage
# 0.189 at 0.5, 0.215 at 0.8, 0.202 without version factors)
VERSION_MATCH, VERSION_MISMATCH = 1.3, 0.8
_NUMBER = r"(?:(?:19|20)\d\d|\d{1,2}(?:\.\d+)?)\b"  # a year or a small number ("365" is no version)
_VERSIONS = re.compile(
    rf"\b(?P<product>{'|'.join(re.escape(p) for p in VERSIONED_PRODUCTS)})(?: server)?\s+"
    rf"(?P<versions>{_NUMBER}(?:(?:\s*[,/]\s*|\s+(?:and|or)\s+){_NUMBER})*)")
# one of several numbered variants of a thing, written as one word, its name in capitals: "DHCPv4"
# and "DHCPv6", "IPv4", "GTK3", "SP1"; a variant setting is named like a version, "<thing>@<number>"
# ("dhcp@4"), so a unit for another variant fits less and never joins (Kea's "9. The DHCPv6
# Server" gave its pools to "How do I configure a subnet and address pool for DHCPv4?"). An
# example's name ("User1", "mailbox1"), a number of three digits or more ("SHA256", "Office 365")
# and one with a leading zero ("SERVER01") name no variant.
_VARIANT = re.compile(r"\b(?P<thing>[A-Z]{2,}?)v?(?P<number>[1-9]\d?)\b")
_SETTING_WORD = {word: name for name, words in SETTINGS.items() for word in words}
_PHRASE = re.compile("|".join(rf"\b{re.escape(p)}\b" for ps in SETTING_PHRASES.values() for p in ps))
_PHRASE_SETTING = {p: name for name, ps in SETTING_PHRASES.items() for p in ps}
_WORD = re.compile(r"[a-z0-9]+")
# words of a setting that name something else here: a network card's MAC address is no Mac
_NOT_A_SETTING = re.compile(r"\bmac[ -]address(?:es)?\b")

# the user says something did not work (tried again, still, same error, never, it keeps
# failing, ...) or asks what is next after doing it; "can I still see ..." and "I keep it off"
# are no failure, nor is an action asked for again ("How do I load it again on another machine?"),
# nor what the user does not want ("sometimes I don't want any of the original text in my reply")
FAILED = re.compile(
    r"\b(?:didn'?t|did not|doesn'?t|does not|(?:don'?t|do not)(?!\s+(?:really\s+)?(?:want|wish|need|like|care|mind)\b)|isn'?t|wasn'?t|won'?t|can'?t|cannot|couldn'?t|could not"
    r"|not work\w*|what did (?:i|we) miss"
    r"|(?<!can i )(?<!can we )(?<!could i )still|same (?:error|problem|message|issue)|no luck"
    r"|nothing (?:happen|change)\w*|fail\w*|no change|keeps? (?:on )?\w+ing|never|even after"
    r"|(?:tried|did|done|redid|happen\w*|occur\w*|came back|comes back|appear\w*|shows? up) (?:it |that |this )?again"
    r"|what(?:'s| is) next|what else|check next"
    # ... or that it worked, and goes on from there: "Done, it shows as Connected now.", "OK, she
    # can send now. But …", "Now the rest of the library shows …"
    r"|^(?:done|now)|works again|(?:that|it|this) (?:fixed|worked|solved)|(?:can|could) \w+ now|shows? (?:as )?\w+ now)\b", re.I)
# a sentence that has the user check something: "Check for errors …", "Then, verify that …"
CHECK = re.compile(r"(?:(?:then|next|first|also|now|finally),?\s+)?"
                   r"(?:check|verify|make sure|ensure|confirm|look (?:at|for|in)|see (?:if|whether))\b", re.I)
# what the user says passed or works: "the test passes", "Autodiscover resolves to our server"
PASSED = re.compile(r"\b(?:pass(?:es|ed)?|succeed(?:s|ed)?|successful(?:ly)?|works|worked|resolves|resolved|is fine)\b", re.I)
FAILED_TERMS = frozenset(terms("fail fails failed failing not work works"))
UNDO = terms("undo")[0]
UNDO_WORDS = frozenset(terms("reverse reversing roll rolling take back"))  # how a user may say it
# the action a "how do I" question asks about, and a question that asks it of what the
# conversation was about, by a pronoun ("How do I load it again …?", "How do I make them?")
ASKED_ACTION = re.compile(HOW_DO_I + r" ([a-z]+)", re.I)
# a verb's object that is itself an action: "How do I record buying shares?" asks how to record a
# purchase, a section on "Buying Shares" (words in -ing that are no verb's form are not one)
GERUND_OBJECT = re.compile(r" ((?!(?:(?:some|any|every|no)thing|during|morning|evening|string|ceiling|pudding"
                           r"|wedding)\b)[a-z]{3,}ing)\b", re.I)
# verbs that name no action of their own ("How do I make the font bigger?", "How do I get him back
# onto …?", "How do I set one up …?", "How do I turn on …?"): a section's header need not say them
LIGHT_VERBS = frozenset(t for word in ("get", "make", "do", "have", "go", "let", "keep", "use", "try", "set",
                                       "fix", "put", "take", "see", "turn") for t in terms(word))
# a how-question that asks for more than one thing: "How do I steep black tea and brew green tea?"
SEVERAL_ASKED = re.compile(HOW_DO_I + r" [^?.!]*\band\b", re.I)
REFERS_BACK = re.compile(ASKED_ACTION.pattern + r" (?:it|them|this one|that one)\b", re.I)
# ... or asks whether it can be done to it, first thing: "Can I make it smaller too?", "Could I give it
# its own key?" (not after naming a thing of its own: "I don't have any mayo. Can I make it myself?")
_FIRST = r"^\W*(?:(?:and|so|but|ok|okay|also)\W+)?"
ASKS_IF_IT_CAN = re.compile(_FIRST + r"(?:can|could) (?:i|we|you) [a-z]+ (?:it|them|this one|that one)\b", re.I)
# ... or asks, first thing, how to do something to "this" or "that": "How do I make that the
# default?" (not "The topping is orange jam. How do I make that …?", nor "that one", above)
DOES_IT_TO_THAT = re.compile(_FIRST + HOW_DO_I + r" [a-z]+ (?:this|that)\b(?! (?:one|is|was)\b)", re.I)
# ... or acts on a thing of its own where the pronoun stands: "How do I add a row to it?", "How do I
# send the photos to it?" (not what it is for: "Can I make my own for it?" asks about its own thing)
REFERS_BACK_AS_PLACE = re.compile(ASKED_ACTION.pattern + r"\b[^?.!,;]{0,40}? (?:to|into|in|on|onto|from) (?:it|them)"
                                  r"(?= *(?:[?.!,;]|$|and\b|again\b))", re.I)


def points_back(question: str) -> bool:
    """``question`` asks to do something to what the conversation was about, by a pronoun
    (:data:`REFERS_BACK`, :data:`REFERS_BACK_AS_PLACE`, :data:`ASKS_IF_IT_CAN`,
    :data:`DOES_IT_TO_THAT`)."""
    return any(p.search(question) for p in (REFERS_BACK, REFERS_BACK_AS_PLACE, ASKS_IF_IT_CAN, DOES_IT_TO_THAT))


# a sentence that says one can do something: "You can back up your data.", "Users may also …"
CAN_DO = re.compile(r"\s*(?:you|users?|one) (?:can|may|are able to|is able to)\b", re.I)
# the thing the user chooses among those the conversation offered: "Fine, a standard account
# then.", "Let's do the sticky pork chops.", "I'll go with the cloud one."
CHOICE = re.compile(r"^(?:\w+,\s+)?(?:an?|the)\s+(?P<then>[^.,?!]{2,40}?)\s+then\b"
                    r"|\b(?:let['’]s (?:do|go with|make|use|try)|i['’]ll (?:go with|make|use|take|do|try)"
                    r"|i['’]d rather (?:go with|make|use|have))\s+(?:an?\s+|the\s+)?(?P<named>[^.,?!]{2,40})", re.I)
# a question that asks what to do in other words than "how": "What should I check?", "What can we do?"
WHAT_TO_DO = re.compile(r"\bwhat (?:else )?(?:should|can|could|must|do|would) (?:i|we)\b", re.I)
CAUSE_QUESTION = re.compile(r"\b(?:why|cause[sd]?|reason|how come)\b", re.I)
# the user asks what a word means: "What does it mean when a process says zombie?"
MEANING_QUESTION = re.compile(r"\bwhat (?:does|do|did) .{0,80}\bmean\b|\bmeaning of\b", re.I)
# the user asks what a thing does or is for: "What does the Modelines plugin do in gedit?", "What
# is the Trash folder for?" (not what the user should do: "What do I do now?")
WHAT_IT_DOES = re.compile(r"\bwhat (?:does|do|did|will|would) (?!(?:i|we|you)\b)\S.{0,80}\bdo\b"
                          r"|\bwhat (?:is|are) (?!(?:i|we|you)\b)\S.{0,80}\b(?:used )?for\s*\?", re.I)
# the user asks which or what a thing is, or where, in a sentence of its own: "Which file formats
# can the document viewer open?", "What's the shortcut to print?", "Where does it get saved?" (not
# "What now?", "What else?" nor "What should I check?", which ask what to do, nor "Where do I …?")
FACT_QUESTION = re.compile(r"(?:^|[.!?]\s+)(?:which|what|where)(?:['’]s\b| (?!(?:now|next|else)\b)(?:[\w-]+ ){0,3}?"
                           r"(?:is|are|does|do|can|could|will|would|should)\b(?! (?:i|we)\b))", re.I)


# a question for the key that does something: "What is the keyboard shortcut to switch between
# windows?", "Is there a hotkey for closing a tab?", "Which key do I press to undo?"
KEY_QUESTION = re.compile(r"\b(?:(?:keyboard )?shortcut|hot ?key|key(?:board)? (?:combination|binding)|key)s?"
                          r"(?: (?:do|can|should) (?:i|we|you) (?:press|use|type))? (?:to|for) "
                          r"(?P<action>[^?.!]{3,80})", re.I)


# what the user wants to do once the asked action is done, said after it: "How do I save a
# selection so I can use it again later?", "… in order to print it"
PURPOSE = re.compile(r",?\s+(?:so (?:that )?(?:i|we|you|they|he|she|it) (?:can|could|will|would|may|might)|in order to)\b"
                     r"[^?.!]*", re.I)


def settings_named(text: str) -> set[str]:
    """The settings ``text`` names (see :data:`SETTINGS` and :data:`SETTING_PHRASES`), the
    product versions (:data:`_VERSIONS`) and the numbered variants (:data:`_VARIANT`) it names."""
    named = {f"{m['thing'].casefold()}@{m['number']}" for m in _VARIANT.finditer(text)
             if m["thing"].casefold() not in VERSIONED_PRODUCTS}
    text = _NOT_A_SETTING.sub(" ", text.casefold())
    named |= {_SETTING_WORD[w] for w in _WORD.findall(text) if w in _SETTING_WORD}
    named |= {f"{m.group('product')}@{v}" for m in _VERSIONS.finditer(text)
              for v in re.findall(_NUMBER, m.group("versions"))}
    return named | {_PHRASE_SETTING[m.group(0)] for m in _PHRASE.finditer(text)}


# the label a step opens with, which says what setting it is for: "On Linux distributions:",
# "(64-bit-Windows)", "macOS:", "For Windows users,"
STEP_LABEL = re.compile(r"^(?:\((?P<bracket>[^()]{1,40})\)|(?:(?:on|in|for|with|under)\s+)?"
                        r"(?P<label>(?:[\w.+-]+\s+){0,4}?[\w.+-]+)\s*[:,])\s", re.I)


def step_settings(step: str) -> set[str]:
    """The settings the label a step opens with names (:data:`STEP_LABEL`): the Linux and macOS
    places of a file beside the Windows one ("On Linux distributions: `$HOME/.config/…`"); none
    for a step without such a label."""
    found = STEP_LABEL.match(step.lstrip())
    return settings_named(found["bracket"] or found["label"]) if found else set()


def _exclusive_kind(setting: str) -> str | None:
    """What a setting excludes others of: its group ("platform", "deployment"), the product of a
    version ("exchange" for "exchange@2010"), or None (a role, "web": excludes nothing)."""
    group = next((name for name, g in SETTING_GROUPS.items() if setting in g.names), None)
    return group or (setting.split("@")[0] if "@" in setting else None)


def narrowed(own: set[str], page: set[str]) -> set[str]:
    """The settings a unit is written for: those it names itself (``own``: its header, its
    opening words) and those its page names (``page``: title, "applies to" lines) of kinds it
    names none of. A section "Exchange Server 2010" of a page that applies to Exchange Online is
    for Exchange Server."""
    named = {_exclusive_kind(s) for s in own}
    return own | {s for s in page if _exclusive_kind(s) is None or _exclusive_kind(s) not in named}


def setting_factor(user: set[str], written_for: set[str]) -> float:
    """How well a unit written for ``written_for`` fits a user in ``user``: the product over
    :data:`SETTING_GROUPS` where both name a setting of the group (1.0 where either names none),
    and over the products whose versions both name (the versions of one product form a group)."""
    factor = 1.0
    for group in SETTING_GROUPS.values():
        mine, its = user & group.names, written_for & group.names
        if mine and its:
            factor *= group.match if mine & its else group.mismatch
    for product in {s.split("@")[0] for s in user if "@" in s}:
        mine = {s for s in user if s.startswith(f"{product}@")}
        its = {s for s in written_for if s.startswith(f"{product}@")}
        if its:
            factor *= VERSION_MATCH if any(_same_version(a, b) for a in mine for b in its) else VERSION_MISMATCH
    return factor


def _same_version(a: str, b: str) -> bool:
    """``ios@17`` and ``ios@17.2`` are the same version; ``ios@17`` and ``ios@16`` are not."""
    return a == b or a.startswith(f"{b}.") or b.startswith(f"{a}.")


# the product or part of one a question is asked in, named at its end: "… in Writer?", "… in
# Exchange Online?", "… with Git?" (names, capitalised; "in a spreadsheet" names none)
SCOPE = re.compile(r"\s(?:in|on|with|using|for|from)\s+(?:the\s+)?(?P<name>[A-Z][\w+.#-]*(?:\s+[A-Z0-9][\w+.#-]*){0,2})"
                   r"\s*[?.!]*\s*$")


def asked_verb(question: str) -> tuple[str, str]:
    """The verb of a "how do I" question as it says it, and the action the verb takes as its
    object when that is one (``("record", "buying")`` of "How do I record buying shares?");
    ``("", "")`` when it asks none."""
    found = ASKED_ACTION.search(question)
    if not found:
        return "", ""
    gerund = GERUND_OBJECT.match(question, found.end())
    return found[1], gerund[1] if gerund else ""


def asked_action(question: str) -> list[str]:
    """The term of the action a "how do I" question asks about: ``["renam"]`` of "How do I
    rename a container?", the action its verb takes as its object when that is one (``["buy"]``
    of "How do I record buying shares?"); empty when it asks none."""
    verb, action = asked_verb(question)
    return terms(action or verb)


ASKING_TERMS = 3  # the fewest terms of its own with which a question's asking sentences say what they ask


_TOKEN = re.compile(r"[\w$]+(?:[.'’][\w$]+)*")


def word_pairs(text: str) -> set[tuple[str, str]]:
    """Each two content words written next to each other in ``text``, as terms ("MAPI Status"
    of "check that MAPI Status shows OK"; none across a stop word: "set on her mailbox" holds no
    pair)."""
    stems = [terms(word) for word in _TOKEN.findall(text)]
    return {(a[0], b[0]) for a, b in pairwise(stems) if len(a) == 1 and len(b) == 1}


def mostly_in(wanted: set[str], said: set[str], share: float, min_terms: int) -> bool:
    """Whether at least ``share`` of the terms ``wanted`` (and at least ``min_terms`` of them)
    are among the terms ``said``."""
    return len(wanted) >= min_terms and len(wanted & said) >= share * len(wanted)


@dataclass
class Turn:
    """The last question and the conversation before it; the words of both are read once, when
    first asked for (a turn is made for one answer and not changed)."""

    question: str
    history: list[tuple[str, str]] = field(default_factory=list)
    # what was said counts as unsaid: the user asks again for what an earlier answer gave
    # (:meth:`asked_again`)
    repeated: bool = False

    def asked_again(self) -> Turn:
        """This turn, with nothing the assistant said kept out of the answer: "How do I ungroup
        them again?" after an answer that gave the ungrouping step with the grouping one."""
        return Turn(self.question, self.history, repeated=True)

    @cached_property
    def question_terms(self) -> set[str]:
        """The terms of the last question; of two nouns written apart that are also one word
        ("command line"), the one word ("commandline"), which a text that writes them apart says too;
        "undo" for the words a user asks it with ("Can I reverse that?")."""
        found = set(terms(self.question)) - compound_parts(self.question)
        if UNDO in said_verbs(self.question):
            # "reverse that" asks to undo, not for a reversed order ("turn it on" keeps its words:
            # a page says them as often as "enable")
            return found - UNDO_WORDS | {UNDO}
        return found

    @cached_property
    def task_terms(self) -> set[str]:
        """The terms of the last question but those of what the user wants to do once it is done
        (:data:`PURPOSE`: "save" and "selection" of "How do I save a selection so I can use it
        again later?"); all its terms when fewer than two are left."""
        task = self.question_terms & set(terms(PURPOSE.sub(" ", self.question)))
        return task if len(task) >= 2 else self.question_terms

    @cached_property
    def asking_terms(self) -> set[str]:
        """The terms of the last question's sentences that ask (end in a question mark) when
        others only tell ("I keep location services off for privacy. How do I set Tokyo time
        myself?"): what it asks, not what the user says of their setting; all its terms when
        every sentence asks, none does, or what asks names too little of its own ("What now?",
        "How do I set that up?": the telling sentences say what it is about)."""
        parts = SENTENCE_BREAK.split(self.question.strip())
        asked = self.question_terms & {t for part in parts if part.rstrip().endswith("?") for t in terms(part)}
        return asked if len(asked) >= ASKING_TERMS and len(parts) > 1 else self.question_terms

    @cached_property
    def scope_terms(self) -> set[str]:
        """The terms of the product the last question is asked in, named at its end ("writer" of
        "How do I insert page numbers in Writer?"): a section's header need not say them, its
        page is written for that product; none when the question says nothing else."""
        found = SCOPE.search(self.question)
        scope = set(terms(found["name"])) if found else set()
        return scope if self.question_terms - scope else set()

    @cached_property
    def referent_terms(self) -> set[str]:
        """What a question that asks how to do something to what the conversation was about, by a
        pronoun ("How do I load it again on another machine?", "How do I add a row to it?"), is
        about: the terms of the
        question before it ("How do I save an image to a tar archive?"), without the action that
        question asked how to do (the user now asks another), and, when that question pointed
        back too, what it pointed to ("How do I delete it?" after "How do I rename it?" after "How
        do I create a new folder?" is about the folder); none for any other question (one that
        names a thing of its own, "Can I make my own for it?", asks about that thing)."""
        if not self.history or not points_back(self.question):
            return set()
        earlier = Turn(self.history[-1][0], self.history[:-1])
        return set(terms(earlier.question)) - set(earlier.action) | earlier.referent_terms

    @cached_property
    def key_action(self) -> set[str]:
        """What the last question asks the key for, as terms: those of "switch between windows"
        in "What is the keyboard shortcut to switch between windows?", of "undo" in "Which key do
        I press to undo?"; empty for a question that asks for no key, or how to do something with one
        ("How do I change the shortcut for the terminal?")."""
        found = None if self.asks_how else KEY_QUESTION.search(self.question)
        return set(terms(found["action"])) if found else set()

    @cached_property
    def action(self) -> list[str]:
        """The action the last question asks how to do, as a term ("rename" of "How do I rename
        a container?"); empty for a question that asks none."""
        return asked_action(self.question)

    @cached_property
    def action_verb(self) -> str:
        """The verb of :attr:`named_action` as the question says it ("rotate" of "How do I rotate
        a picture 90 degrees?"); "" when it names none, or asks an action by its verb's object
        ("How do I record buying shares?")."""
        verb, action = asked_verb(self.question)
        return verb.lower() if self.named_action and not action else ""

    @cached_property
    def named_action(self) -> set[str]:
        """The action the last question asks how to do, when it names one of its own and asks no
        more ("email" of "How do I email a scanned document?"): none for a light verb ("How do
        I make the font bigger?", :data:`LIGHT_VERBS`), for an action on what a pronoun points back
        to ("How do I find it later?": which finding, its referent says), or when the question
        asks for several ("How do I steep black tea and brew green tea?")."""
        if REFERS_BACK.search(self.question) or self.asks_several:
            return set()
        return set(self.action) - LIGHT_VERBS

    @cached_property
    def other_verbs(self) -> dict[str, frozenset[str]]:
        """Each verb of :attr:`named_action` that other verbs also name, with those verbs
        (:func:`other_verbs`)."""
        return other_verbs(self.question, self.named_action)

    @cached_property
    def context_terms(self) -> set[str]:
        """Terms of the earlier questions."""
        return {t for q, _ in self.history for t in terms(q)}

    @cached_property
    def said_terms(self) -> set[str]:
        """Terms of everything already said in the conversation (both sides; none when asked again)."""
        return set() if self.repeated else {t for q, a in self.history for t in terms(f"{q} {a}")}

    @cached_property
    def answered_terms(self) -> set[str]:
        """Terms of the assistant's earlier answers (none when asked again)."""
        return set() if self.repeated else {t for _, a in self.history for t in terms(a)}

    @cached_property
    def _answered_words(self) -> set[str]:
        """The words of the assistant's earlier answers, as names are written."""
        return set() if self.repeated else {
            word for _, answer in self.history for word in re.findall(r"[\w$-]+(?:\.[\w$-]+)*", answer.casefold())}

    @property
    def setting(self) -> set[str]:
        """What the user said about their own setting, the latest mention first in weight:
        settings named in the user's messages (never in the assistant's answers)."""
        return settings_named(" ".join([*(q for q, _ in self.history), self.question]))

    @property
    def reports_failure(self) -> bool:
        """The user did what an earlier answer said and it did not solve the problem ("it still
        fails"), or asks what is next after doing it ("The test passes. What's next?"), or says
        it worked and goes on from there ("OK, she can send now. But …")."""
        return bool(self.history) and bool(FAILED.search(self.question))

    def says_passed(self, condition: str) -> bool:
        """Whether the last question says that what ``condition`` reports failing passed: "the
        Remote Connectivity Analyzer test passes" against "the Exchange connectivity tests fail
        for autodiscover"."""
        if not FAILED.search(condition) or not PASSED.search(self.question):
            return False
        return bool((set(terms(condition)) - FAILED_TERMS) & self.question_terms)

    @cached_property
    def told_pairs(self) -> set[tuple[str, str]]:
        """What the last question tells: the word pairs (:func:`word_pairs`) of its sentences that
        do not ask, outside what it quotes (the error the user got), that no earlier question
        said ("event logs" of "The app pool is running, I recycled it, and the event logs show
        nothing. What should I check next?"); none for a first question or one asked again."""
        if self.repeated or not self.history:
            return set()
        told = " ".join(part for part in SENTENCE_BREAK.split(QUOTED.sub(" ", self.question).strip())
                        if not part.rstrip().endswith("?"))
        earlier = {pair for question, _ in self.history for pair in word_pairs(question)}
        return word_pairs(told) - earlier

    @cached_property
    def reported_pairs(self) -> set[tuple[str, str]]:
        """What the user reports of what the last answer told them to do or check: the pairs the
        last question tells (:attr:`told_pairs`) that the last answer says ("MAPI Status" of "Both
        show MAPI Status OK, but …" after "… check that MAPI Status shows MAPI Status Ok")."""
        return self.told_pairs & word_pairs(self.history[-1][1]) if self.told_pairs else set()

    def reports_on(self, text: str) -> bool:
        """Whether the last question reports on what ``text`` says to do or check, as the last
        answer told it: they share two words in a row with the last question and that answer."""
        return bool(self.reported_pairs & word_pairs(text))

    def reports_checked(self, text: str) -> bool:
        """Whether ``text`` has the user check what the last question tells of already: "Then,
        check for errors or warnings in the event logs." after "… and the event logs show
        nothing", "Verify that the autodiscover endpoint is pointing to the on-premises Exchange
        Hybrid Server(s)." after "Autodiscover resolves to our hybrid server"."""
        return bool(CHECK.match(text.lstrip())) and bool(self.told_pairs & word_pairs(text))

    @property
    def asks_to_undo(self) -> bool:
        """The user asks how to take back what they did ("Oops, I renamed the wrong batch. Can I
        reverse that?"): what the last answer said to do is not the answer again."""
        return bool(self.history) and UNDO in self.question_terms

    @property
    def quotes(self) -> list[str]:
        """What the user quoted (an error message, a dialog's text): in the last question, or
        else in the latest earlier question that quotes something (the error the conversation
        is about)."""
        for text in [self.question, *(q for q, _ in reversed(self.history))]:
            if found := quoted_fragments(text):
                return found
        return []

    @property
    def codes(self) -> list[str]:
        """The codes of dotted numbers the last question names ("5.7.57", :func:`named_codes`),
        as the search lifts the pages that name them; an earlier question's code is the
        conversation's error, which the pages on its other causes name too ("4.4.0 DNS query
        failed": the send connector's smart host, and a domain controller's Kerberos clock)."""
        return named_codes(self.question)

    @cached_property
    def choice(self) -> set[str]:
        """The terms of what the last question says the user chooses (:data:`CHOICE`: "standard"
        and "account" of "Fine, a standard account then."); none when it chooses nothing."""
        found = CHOICE.search(self.question)
        return set(terms(found["then"] or found["named"])) if found else set()

    @property
    def asks_cause(self) -> bool:
        return bool(CAUSE_QUESTION.search(self.question))

    @property
    def asks_no_steps(self) -> bool:
        """The question asks why, or which or what a thing is, and not how to do anything nor what
        to do ("The highlight tool is greyed out. Why can't I annotate it?", "Which file formats
        can the document viewer open?"): what explains or what says so answers it, a passage
        without steps too."""
        return (self.asks_cause or bool(FACT_QUESTION.search(self.question)) and not self.asks_what_to_do) \
            and not self.asks_how

    @property
    def asks_meaning(self) -> bool:
        """The question asks what a word means ("What does it mean when a process says zombie?")."""
        return bool(MEANING_QUESTION.search(self.question))

    @property
    def asks_what_it_does(self) -> bool:
        """The question asks what a thing does or is for ("What does the Modelines plugin do?")."""
        return bool(WHAT_IT_DOES.search(self.question))

    @property
    def asks_how(self) -> bool:
        """The question asks how to do something ("How do I record a macro?")."""
        return asks_how_to(self.question)

    @property
    def asks_several(self) -> bool:
        """The question asks how to do more than one thing ("How do I make both the headphones
        and its microphone the defaults, and check that they actually work?")."""
        return bool(SEVERAL_ASKED.search(self.question))

    @property
    def asks_what_to_do(self) -> bool:
        """The question asks what to do in other words ("… What should I check?")."""
        return bool(WHAT_TO_DO.search(self.question))

    @cached_property
    def user_terms(self) -> set[str]:
        """Terms of what the user said in a conversation: the last question and the earlier ones
        (none for a first question, which establishes nothing yet)."""
        return set(terms(self.question)) | self.context_terms if self.history else set()

    def user_said(self, text: str, share: float = 0.8, min_terms: int = 3) -> bool:
        """Whether ``text`` says again what the user said in the conversation: at least
        ``share`` of its terms (and at least ``min_terms``) are the user's. "If the pool is
        running, try to recycle it." to "The app pool is running, I recycled it, and the event
        logs show nothing"; the error the user quoted; what the user read out of the recipe."""
        return mostly_in(set(terms(text)), self.user_terms, share, min_terms)

    def restates(self, text: str) -> bool:
        """Whether ``text`` says that one can do what the last question asks, in nothing but its
        words (two or more): "You can back up your Evolution data." for "How do I back up my
        Evolution data?" tells nothing of how (a step that names them, "Run checker
        your-program.", says what to type)."""
        if not CAN_DO.match(text):
            return False
        said = set(terms(text))
        return len(said) >= 2 and said <= self.question_terms

    def asks_for_step(self, step: str) -> bool:
        """Whether the last question asks how to do what ``step`` says, in the step's own words:
        every term of its task but a light verb, two at least ("How do I print a test page on
        it?" and "… Select Print Test Page to print a test page, or Options …"). Such a step is
        the answer, though an earlier answer gave it among others."""
        return self._asks_for(set(terms(step)))

    @cached_property
    def _step_task(self) -> set[str]:
        """The terms by which a step says what the last question asks (:meth:`asks_for_step`)."""
        return self.task_terms - LIGHT_VERBS

    def _asks_for(self, step_terms: set[str]) -> bool:
        return len(self._step_task) >= 2 and self._step_task <= step_terms

    def already_said(self, text: str, share: float = 0.8, min_terms: int = 3) -> bool:
        """Whether the assistant already said ``text``: at least ``share`` of its terms (and at
        least ``min_terms`` of them) are in the earlier answers, and every thing it names ("Open
        the Activities overview and start typing Power": not said when the answer opened the
        Screen Lock panel); never a step the last question asks for (:meth:`asks_for_step`)."""
        found = set(terms(text))
        if not mostly_in(found, self.answered_terms, share, min_terms) or self._asks_for(found):
            return False
        return all(name.casefold() in self._answered_words for name in names(text))
