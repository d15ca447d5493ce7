"""What a sentence or a list item says, read without a model: what to do (an imperative, what
to do in a case, a command), or else a description, a term's definition, a note, an event, a
purpose, a topic to learn or a page's metadata; and a text's prose sentences, metadata left out
(:func:`sentences`). The step reader (:mod:`procmem.answerers.steps`) keeps or leaves out lines
and whole lists by these.
"""

from __future__ import annotations

import re

from procmem.answerers.prose import plain_text, prose_runs
from procmem.extract.markdown import split_sentences

# lines that describe the page rather than the task
METADATA = re.compile(
    r"^\W*(?:note:\s*)?(?:applies to|original kb|kb number|original product version|product|products|"
    r"version|versions|author|last updated|updated|ms\.\w+|keywords|audience|"
    r"this article (?:applies|describes|explains)|in this article|"
    # who wrote it and where it comes from: "This tutorial is based on text Copyright © 2002 ...",
    # "The original tutorial can be found ...", "Originally written by ..."
    r"(?:text and images )?copyright|©|(?:originally )?(?:written|contributed|translated) by|"
    r"this (?:tutorial|article|page|document|guide|section) (?:is|was) (?:based on|adapted from|originally)|"
    r"the original (?:tutorial|article|text|version|document) (?:can be found|is available|is at))\b", re.I)
IMPERATIVES = (
    "add", "allow", "assign", "change", "check", "choose", "click", "configure", "connect",
    "create", "delete", "disable", "enable", "enter", "go", "grant", "install", "make", "open",
    "press", "remove", "reinstall", "restart", "run", "select", "set", "sign", "switch", "try",
    "turn", "type", "update", "use", "mix", "heat", "bake", "cook", "put", "stir", "cut",
    "let", "keep", "wait", "place", "pour", "serve", "boil", "preheat", "combine", "whisk",
    "rename", "recycle", "download", "upload", "verify", "ensure", "confirm", "restore", "reset",
    "copy", "save", "edit", "close", "exit", "start", "stop", "navigate", "locate", "expand", "find",
    "search", "repeat", "replace", "move", "apply", "review", "contact", "ask", "clear", "modify",
    "specify", "increase", "adjust", "log", "import", "export", "uninstall", "fry", "chop", "dice",
    "slice", "knead", "roast", "simmer", "season", "sprinkle", "spread", "fold", "roll", "beat",
    "drain", "rinse", "peel", "melt", "cover", "transfer", "blend", "strain", "reduce", "brown",
    # what a command's reference says its examples do: "List all archives in the repository: borg list …"
    r"list(?!\s+of\b)", "mount", "unmount", "activate",
    # what a desktop's help has the user do with the mouse and the controls
    r"right[- ]click", r"double[- ]click", "drag", "uncheck", "untick", "tick", "tap", "scroll", "insert",
    "highlight", "flip",
    # what an administrator's guide has typed: "Execute the command "newaliases" after changing the aliases file."
    "execute",
    # what a form is filled with, and an action said again: "Register one Remind transaction per
    # payee with: …", "Do the same for any other lend you make"
    "register", "record", "fill", r"do the same")
# what has been done, of the verbs above that a page says something "has to be" ("disabled")
DONE = ("added", "changed", "checked", "configured", "created", "deleted", "disabled", "edited", "enabled",
        "installed", "removed", "restarted", "run", "turned off", "turned on", "uncommented", "updated")
# words that open a sentence with a comma but set no condition: "For example, let's say ..."
ASIDE = r"(?:for (?:example|instance)|in (?:other words|short|general|practice|addition|particular|fact)|on the other hand)\b"
_IMPERATIVE = r"(?:" + "|".join(IMPERATIVES) + r")\b(?!['’]s\b)"  # "Let's say ..." tells a scenario
# what is done, as a guide written in prose says it: "by running ...", "a simple matter of creating ..."
# ... and a help page says in the passive: "A slideshow … can be started from the image browser by pressing F5"
_DOING = (r"running|executing|typing|entering|calling|creating|adding|editing|enabling|disabling|setting|"
          r"installing|changing|removing|putting|writing|copying|pressing|clicking|(?:right|double)-clicking|"
          r"selecting|choosing|opening|dragging|tapping|checking|unchecking")
ACTION_CUE = re.compile(
    r"^(?:(?:first|then|instead|alternatively|next|finally|for (?:example|instance)),?\s+)?" + _IMPERATIVE
    # "..., to fix this", "use it to resolve the issue"; a sentence that opens so goes on with what
    # to do (below), not with what a program does ("To avoid this, Wireshark tries to ...")
    + r"|(?:,\s+|\b(?:it|this|that|them|these)\s+)to (?:fix|resolve|work around|avoid|solve|correct|prevent) (?:this|the|it)\b"
    # ... and one that opens so and goes on with what to do without a comma: "To avoid this either
    # use the Source View plugin or verbatim formatting."
    + r"|^to (?:fix|resolve|work around|avoid|solve|correct|prevent) (?:this|that|it),?\s+(?:either |simply |just )?"
    + _IMPERATIVE
    + r"|\byou (?:can|should|must|need to|are able to) " + _IMPERATIVE
    # "To create a pre script, simply create ...", "..., you add ...", "To use it, first choose a
    # brush …", "To save the modified image to a new location instead, leaving the original image
    # unchanged, use Save As."
    + r"|^to \w+ [^,]{1,120},(?:\s+\w+ing\b[^,]{1,80},)?\s+(?:simply |just |first |then |you (?:simply |just |first )?)?"
    + _IMPERATIVE
    # how a guide written as prose says what to do: "This is typically done using the adduser command"
    # ("done by calling setup.py" says rather what the program does)
    + r"|\b(?:is|are|can be) (?:\w+ly )?(?:done|achieved|accomplished|performed) (?:with|using|through|via)\b"
    # ... and a reference manual, of a setting: "The poll exponent can be set using the minpoll and
    # maxpoll options" ("The argument can be specified with or without a leading dot" says what it is)
    + r"|\b(?:is|are|can be) (?:\w+ly )?(?:set|configured|changed|enabled|disabled|adjusted) (?:with|using|through"
      r"|via) (?:\S+ ){0,5}?(?:options?|commands?|directives?|statements?|settings?|parameters?|flags?|keywords?)\b"
    # ... or by what does it: "It can be edited by running crontab -e", "this option can be set with
    # the help of debconf by running dpkg-reconfigure -plow unattended-upgrades", "This can be done by
    # creating a customlog.conf file"
    + r"|\bcan be (?:\w+ly )?(?:\w+(?:ed|en)|set|run|put|done) (?:[^.;:]{0,60}?\s)?by (?:" + _DOING + r")\s\S"
    # ... or, opening with the verb, by what the user does with the controls: "Access Full
    # Screen Mode by clicking on the button that appears when you move the mouse over the
    # thumbnails" (a verb the list above does not hold)
    + r"|^(?!(?:the|an?|this|that|these|those|it|its|they|you|we|there|each|every)\b)[a-z]+ [^.;:]{0,80}?\bby (?:"
      r"clicking|pressing|selecting|choosing|(?:right|double)-clicking|dragging|tapping)\s\S"
    # ... or with what: "Tags can be used anywhere in a page using the "@" prefix"
    + r"|\bcan be (?:\w+ly )?(?:\w+(?:ed|en)|set|run|put|done) (?:[^.;:]{0,60}?\s)?using (?:the|an?) \S"
    # ... or what serves to do it: "In particular, Cockpit can be used to open custom services or ports"
    + r"|\bcan be used to (?:\w+ly )?" + _IMPERATIVE
    # ... or what a program may do to have it: "Applications can activate foreign key enforcement at
    # run-time using the PRAGMA foreign_keys statement."
    + r"|^(?:the |an? )?(?:application|program|script|client|developer)s? can (?:also )?" + _IMPERATIVE
    # ... or what the user does, and with what: "The user generates a key pair on the client machine
    # with ssh-keygen -t rsa"
    + r"|^(?:the |a )?(?:user|administrator|admin)s? (?:then |first |simply |just )?[a-z]+s\b[^.;:]{0,80}?"
      r"\b(?:with|using|by running|by typing) (?:the )?(?-i:[a-z][\w.-]*) (?:--?\w|\S*[/:]\S)"
    # ... or how little it takes: "Setting up a website is therefore a simple matter of creating the
    # following file, then enabling the virtual host with a2ensite"
    + r"|\bis (?:\w+ )?(?:a (?:simple |quick )?matter of|as (?:simple|easy) as) (?:" + _DOING + r")\b"
    # ... or that doing it is all it takes: "Installing the apache2 package is all that is needed."
    + r"|^(?:simply |just )?(?:" + _DOING + r")\b[^.;:]{1,80}?\bis all (?:that |that's |you )?(?:is )?(?:needed|required|needs?)\b"
    # the way to do it, named as such: "The usual way to deal with this is to use `git revert`", "The
    # preferred approach uses a Redirect directive in a dedicated HTTP virtual host:"
    + r"|^(?:the|an?|one|another)\s+(?:\w+\s+){0,2}?(?:way|solution|fix|remedy|workaround|approach|option|procedure|method)\b"
      r"[^.;:]{0,80}?\s(?:(?:is|would be)\s+(?:to|by)\s+(?!be\b)\w+|uses\s)"
    # the steps it takes, listed after a colon: "The basic outline of putting static files into
    # production consists of two steps: run the collectstatic command …, then arrange for …"
    + r"|\b(?:steps?|stages?|phases?)\s*:\s+(?:first,?\s+)?" + _IMPERATIVE
    # the purpose, then the command it introduces without a comma: "To enable a firewall in Debian execute:"
    + r"|^to \w+ [^,:]{1,120}\b(?:run|execute|type|enter)(?: the following(?: commands?)?)?:"
    # ... or the control to use: "To create a new account go to Actions → New Account"
    + r"|^to \w+ [^,:]{1,80}?\s(?:go to|click|double-click|right-click|select|press|choose|tap) (?:on )?\S"
    # ... or where in the program's menus it is done: "This can be edited under Edit > Preferences >
    # Mail Accounts > Edit > Identity", "The name resolution settings are located in Central
    # Administration > Security" (a path of menus, not "are stored in the /etc folder")
    + r"|\b(?:is|are|can be) (?:\w+ly )?(?:edited|changed|set|configured|adjusted|enabled|disabled|managed|"
      r"defined|specified|found|located|modified) (?:under|in|via|from|at|through|on) (?:[^.;\s]+ ){0,8}?[^.;\s]+(?: > | ?→ ?)(?-i:[A-Z])"
    # ... or what a control does when the user uses it, by its name: "When you select "Delete
    # Page" by default zim will try to trash the page"
    + r"|^(?:when|once|if) you (?:select|click|choose|press|tap) (?:on )?(?:the )?[\"“'*]*(?-i:[A-Z])", re.I)
# what to do in a case ("If you're using Linux or macOS, open a terminal and enter ...", "For a new
# connection, type the network name", "When modifying one of the default themes, if you want to use
# a personalized background image …, add a splash.png picture"), or in a place of the window the
# step is in ("Under Page Sides, in the Include drop-down list, select Front sides", "In the DNS
# section, switch the Automatic switch to off")
_PLACE = r"(?:under|in|on|from|at|within|inside)\s+[^,]{1,60}"
CASE_ACTION = re.compile(rf"^(?:(?:if|when|once|after|before|for)\b[^,]{{1,120}}|{_PLACE}),\s+"
                         rf"(?:(?:if|when|once)\b[^,]{{1,120}},\s+|{_PLACE},\s+)?(?:then\s+)?" + _IMPERATIVE, re.I)
# what to do after an opening clause ("If the pool is running, recycle it"), with a modal ("you
# can modify the file", "an administrator can manually add ...") or a command in code
LATER_ACTION = re.compile(
    r"^(?!" + ASIDE + r")(?:if|when|after|once|before|to|in|on|from|for)\b[^,]{1,120},\s+(?:then\s+)?"
    r"(?!(?:the|this|that|these|those|it|its|you|your|they|there|we|he|she|a|an|all|any|each|every|some|no|not"
    r"|assume|suppose|imagine|in|on|at|of|for|with|by|from|as|into)\b|let['’]s\b|(?!bring\b)[a-z]+ing\b"
    # a past participle describes a subject ("When no integrity checks are performed, corrupted data
    # might be incorporated"); a verb that ends so says what to do ("If so, proceed to …")
    r"|(?!(?:need|proceed|embed|feed|seed|shred|speed)\b)[a-z]+ed\b)"
    r"(?-i:[a-z])[a-z]*\b"  # in lower case: a capital opens a name ("To avoid this, Wireshark tries ...")
    # ... and not the subject of a verb: "If you have only one server, things are simple"
    r"(?!\s+(?:is|are|was|were|can|could|will|would|may|might|must|should|has|have|had|does|do|did)\b)"
    # (what to know is nothing to do: "In addition to these guide lines, you should know the following")
    r"|\b(?:(?:you|administrators?|admins?)\s+(?:also\s+)?(?:can|should|must|need to|have to|are able to)"
    r"|one\s+(?:also\s+)?(?:should|must|needs to|has to))\s+(?:\w+ly\s+)?"
    r"(?!be\b|see\b|know\b|understand\b|notice\b|expect\b)\w+"
    # not of a relative clause: "any external program which can make a connection"
    # nor what need not be done: "you don't have to create a file named git-daemon-export-ok"
    r"|(?<!\bwhich )(?<!\bthat )(?<!\bwho )(?<!n't )(?<!n’t )(?<!\bnot )"
    r"\b(?:can|should|must|need to|have to)\s+(?:\w+ly\s+)?" + _IMPERATIVE
    + r"|\b(?:remember|be sure|make sure|don['’]t forget) to \w+"  # "…, but remember to exclude /dev"
    + r"|\byou(?:['’]ll| will)? need (?:a|an|the)\b"  # what to get first: "you'll need a copy of the NDK"
    # what has to be done, said without "you": "it is necessary to boot into Windows", "the feature
    # has to be disabled within Windows", "the `authoritative` directive must also be enabled"
    + r"|\bit(?: is|['’]s) (?:\w+ly )?(?:necessary|recommended|suggested|advisable|required|a good idea) to \w+"
    + r"|\b(?:(?:has|have|needs?) to|must|should) (?:also |first )?be (?:re-?)?(?:" + "|".join(DONE) + r")\b"
    + r"|`", re.I)
COMMAND_SPAN = re.compile(r"`[^`]*[^`\s]\s+[^`\s][^`]*`")  # code of several words: a command, not a name
DESCRIPTION = re.compile(
    r"^(?:(?:first|then|next|finally|also|however|instead|otherwise|by default|in this case|"
    + ASIDE + r"),?\s+|"
    r"(?:after|when|if|once|because|since|while) [^,]{1,120},\s+)?"
    r"(?:the|this|these|that|those|a|an|all|some|most|many|every|here|there|it|its|so|such|each|both|whether|"
    r"you (?!can\b|should\b|must\b|need\b|may want\b|have to\b)\w+|you['’](?:re|ve)|"
    r"let['’]s (?:\w+ )?(?:say|assume|suppose|imagine)|"
    # a thing named, then what it does: "CSR Auto-Signing which uses a ticket generated on the master"
    r"[\w/()-]+(?: [\w/()-]+){0,4} which (?:is|are|can|will|has|have|\w*[^\Ws]s))\b",
    re.I)
# what a thing does or is, as a list of its properties says it: "Represents ...", "Is easy to ...",
# "Composes well ..." (an instruction's verb ends in "s" only as "Press", "Focus"; a label such as
# "Windows:" or a path "Settings > ..." is no verb)
DOES = re.compile(r"^(?:(?:is|are|has|does)\b(?!\s+(?:there|it|this|that|these|those|the|an?|you|your|my|i|we|they)\b)"
                  r"|[a-z]{3,}[^su\W'’]s\b)(?!\s*[:>])", re.I)  # not a question: "Is there a ...?"
# a term and what it is: "`members` — Packages to include", "0: no optimizations", "**Cause:** ..."
DEFINITION = re.compile(
    r"^(?:\*\*[^*]+:\*\*|(?:`[^`]+`|\[(?:[^\[\]]|\[[^\]]*\])*\]\([^)]*\)|\*\*[^*]+\*\*|[\w\"'.*\[\]-]+(?: [\w\"'.*-]+){0,2})"
    r"\s*(?:—|–|:| - )|`[^`]+`(?: \([^)]*\))?\.?\s+(?=[A-Z]))\s*(?P<rest>\S.*)$")  # "`*` Matches any version", "`-S`. This ..."
# a parameter of an API with its type, and what it is if anything: "path {string|URL} filename",
# "`callback` <Function>", "encoding [<string>](…) | [<null>](…) Default: null" (Node.js's reference)
_TYPE = r"(?:\{[^{}]+\}|\[<[^<>\]]+>\]\([^)]*\)|<[^<>]+>)"
TYPE_ONLY = re.compile(_TYPE + r"(?:\s*\|\s*" + _TYPE + r")*")  # "{string}", "{Buffer} | {string}"
PARAMETER = re.compile(r"^(?:`[^`]+`|[\w.$\[\]'\"-]+) " + _TYPE + r"(?: \| " + _TYPE + r")*(?:\s+\S.*)?$"
                       # ... and Sphinx's field list of them: "**exact_name** (*bool*) – if set to `true`, …",
                       # "**count** *(integer)* - number of items removed …"
                       r"|^\*\*[\w.$-]+\*\* (?:\(\*[^*()\n]+\*(?:, \*?optional\*?)?\)|\*\([^*()\n]+\)\*)"
                       r"(?:\s+[–—-]\s+\S.*)?$")
# a cmdlet (Get-Mailbox), a variable ($ssa, $HOME, Windows' %APPDATA%), a UNC path or a program: a
# sentence with one is a step
COMMAND_WORD = re.compile(
    r"\b(?:Get|Set|New|Remove|Add|Enable|Disable|Test|Start|Stop|Export|Import|Update|Invoke|Clear|"
    r"Install|Uninstall|Connect|Disconnect|Search|Restore|Resume|Suspend|Grant|Revoke|Move|Register|"
    r"Reset|Repair|Format|Select|Where)-[A-Z][A-Za-z]+|\$\w+|%[A-Za-z_]\w*%|\\\\|\b\w+\.exe\b")


# the half of a bold span that a sentence break cut ("**Example 11.21." / "Mounting a share**")
_UNPAIRED_BOLD = re.compile(r"^\*\*|\*\*$")


MIN_SENTENCE_WORDS = 4
POINTS_BACK = re.compile(r"^(?:it|this|that|these|those|they|here|(?:for )?example)\b", re.I)  # "It is:", "Example:"
# a paragraph that is only a path through menus: "**Menu Button** > **Find and Replace…**"
MENU_PATH = re.compile(r"^[^.:;>]{1,40}(?: > [^.:;>]{1,40})+$")


def sentences(text: str) -> list[str]:
    """The prose sentences of a text: headings, tables and list items left out, a fenced
    command kept with the sentence that introduces it. A sentence of fewer than four words is
    left out, unless it introduces what follows as what the sentence before it named ("It is:"):
    then it joins that sentence ("Vim has a quit-and-throw-things-away command. It is:"). A
    paragraph that is only a path through menus joins the sentence that introduces it ("To open
    the Find and Replace dialog, click on: Menu Button > Find and Replace…")."""
    found: list[str] = []
    for run in prose_runs(text):
        said: list[str] = []
        for s in split_sentences(run):
            s = plain_text(_UNPAIRED_BOLD.sub("", s) if s.count("**") % 2 else s) + (":" if s.endswith(":") else "")
            if len(s.split()) < MIN_SENTENCE_WORDS and s.endswith(":") and said and POINTS_BACK.match(s):
                said[-1] = f"{said[-1]} {s}"
            elif found and not said and found[-1].endswith(":") and MENU_PATH.match(s):
                found[-1] = f"{found[-1]} {s}"  # "To open the Find and Replace dialog, click on:" and its path
            else:
                said.append(s)
        found += said
    return [s for s in found if len(s.split()) >= MIN_SENTENCE_WORDS and not is_metadata(s)]


def is_metadata(text: str) -> bool:
    """A page's metadata ("Applies to: ...", "Last updated ...") or a line of labelled values."""
    return bool(METADATA.match(text)) or labelled_values(text)


_FIELD_LABEL = re.compile(r"(?:^|\s)([A-Z][A-Za-z/-]*(?: [a-z]+)?):\s")  # "Type: ", "Applies to: "
FIELD_WORDS = 4  # at most, in a labelled value


def labelled_values(text: str, labels: int = 2) -> bool:
    """A line of labelled values, a reference entry's or a page's metadata ("Type: boolean
    Default: yes", "Applies to: Windows 10 Version: 1909"): ``labels`` labels or more, each with
    a value of a few words that is no action ("ask-yes" is a value)."""
    parts = _FIELD_LABEL.split(plain_text(text))
    values = [v.strip() for v in parts[2::2]]
    return (len(values) >= labels and not parts[0].strip()
            and all(0 < len(v.split()) <= FIELD_WORDS and not (ACTION_CUE.match(v) and re.match(r"\w+(?:\s|$)", v))
                    for v in values))


# a list's last line that only says there is more: "… and many other things!", "... and so on"
MORE_ONLY = re.compile(r"^(?:…|\.\.\.)[\s\u200b]*(?:and\s+)?(?:(?:a\s+lot|many|much|lots)\s+)?(?:more|others?|so\s+on|etc)\b",
                       re.I)


# a remark in brackets after a word: what it says is an aside ("This invocation tries to reuse the
# address (this can save you some debugging)"), unlike "file(s)" or "init(config)"
_REMARK_AFTER_WORD = re.compile(r"(?<=\S)\s+\([^()]*\)")


def says_what_to_do(sentence: str) -> bool:
    """A sentence of prose that is a step: it says what to do (an imperative, one after an
    opening clause or with a modal, a command), rather than what a tool is or does ("Memcheck is
    the default tool", "Tools will complain at startup"). What a clause of purpose, result or
    reason lets someone do is no step (:func:`without_consequences`): "The emails that you send
    are saved in the Sent folder, so that you can recall what you wrote"; nor what an attacker
    can do (:data:`ADVERSARY`)."""
    sentence = without_consequences(_REMARK_AFTER_WORD.sub("", sentence))
    plain = plain_text(sentence)
    if ADVERSARY.match(plain):
        return False  # what an attacker can do ("An attacker can use a DNS server as an amplification source")
    return bool(ACTION_CUE.search(plain) or LATER_ACTION.search(sentence) or COMMAND_WORD.search(sentence))


# a sentence whose subject is whoever attacks the system: what they can do is the threat, not a step
ADVERSARY = re.compile(r"^(?:an?|the|any|some)\s+(?:(?:malicious|remote|local|determined|potential)\s+)?"
                       r"(?:attackers?|adversar(?:y|ies)|intruders?|hackers?|spammers?|eavesdroppers?|crackers?)\b", re.I)


# a clause that says what something lets someone do, or why: "..., so that you can recall what
# you wrote", "... so the recipient can verify its validity", "as you can see", "This way, you
# can search ..."; it runs to the next comma, semicolon or colon
_CONSEQUENCE = re.compile(
    r"(?:^(?:this|that|in this|in that) way,?\s.*"
    r"|\bso(?: that)?\s+(?:[\w'’-]+\s+){0,4}?(?:can|could|will|would|may|might)\s[^,;:]*"
    r"|\b(?:as|because|since)\s+(?:you|users?|they|it|we)\s+(?:can|could|will|would|may|might)\s[^,;:]*)",
    re.I)


def without_consequences(sentence: str) -> str:
    """``sentence`` without its clauses of purpose, result or reason that hold a modal
    (:data:`_CONSEQUENCE`): what is left says what to do, if anything does ("Use the -v option
    so that you can see what happens": "Use the -v option")."""
    return _CONSEQUENCE.sub("", sentence).strip()


def describes(sentence: str) -> bool:
    """A sentence that describes (a scenario, a symptom, a cause, what a tool does) rather than
    says what to do: after an opening clause or word, if any ("By default,", "After a mailbox
    receives a request,"), it goes on with a determiner, "there", "it" or "you" and a verb of the
    scenario ("You try to open ...", "This issue occurs ...", "First, it examines ...") or with
    "whether" (a setting's description: "Whether the symbol is excluded from the PCB."), and
    names no action or command; or it opens with a verb that says what something does
    ("Represents different errors with the same type", "Is easy to compare")."""
    return bool(DESCRIPTION.match(sentence) or DOES.match(sentence)) and not ACTION_CUE.search(sentence) \
        and not COMMAND_WORD.search(sentence)


# a version a name needs or comes in, not an amount: "10.12 or newer (…)", ">= 2.28", "12.1 (…)"
VERSION_VALUE = re.compile(r"^(?:[<>]=?\s*)?v?\d+(?:\.\d+)+[a-z\d]*(?:\s+or\s+(?:newer|later|higher|above|greater|"
                           r"earlier|older)|\+)?(?=\s*(?:[(,;.]|$))", re.I)


# an amount: a number, then a unit or a word ("500 g", "1/2 cup", "2x"); not the values a
# parameter takes ("1/True/true or 0/False/false")
AMOUNT_FIRST = re.compile(r"^\d+(?:[.,/]\d+)*(?=\s|[^\W\d_]|%|°|$)")


def defines(item: str) -> bool:
    """A bulleted line that says what a term is rather than what to do: a name, a code span or a
    link, then a dash or a colon and a description ("`members` — Packages to include in the
    workspace", "0: no optimizations") or the version it needs ("MacOS: 10.12 or newer"), or a
    parameter with its type (:data:`PARAMETER`); not an action ("Windows: Open Settings") nor an
    amount ("Flour: 500 g")."""
    if PARAMETER.match(item.strip()):
        return True
    found = DEFINITION.match(item.strip())
    if not found:
        return False
    rest = plain_text(found["rest"])
    return (not AMOUNT_FIRST.match(rest) or bool(VERSION_VALUE.match(rest))) and not ACTION_CUE.match(rest) \
        and not COMMAND_WORD.search(rest)


def defines_terms(items: list[str]) -> bool:
    """A list of terms and what they are rather than steps, numbered or not: three in four of
    its items define a term (Cargo's order of precedence of profile settings)."""
    return len(items) >= 2 and 4 * sum(map(defines, items)) >= 3 * len(items)


# a statement's verb after its subject: "Ordinal dates are not supported", "Offsets may have ..."
_STATES = re.compile(r"^\S+(?:\s+\S+){0,5}?\s+(?:is|are|was|were|may|might|can|cannot|will|would|has|have|"
                     r"had|does|do|must|should|shall)\b", re.I)


def states(sentence: str) -> bool:
    """A sentence that says how something is (a subject, then its verb, :data:`_STATES`: "Time
    zone offsets may have fractional seconds", "Libvirt does support SEV") and not what to do
    (:func:`says_what_to_do`), nor opens with an amount (an ingredient). One that says what to do
    with a verb this module does not know ("Collect the log soon after a failure") states nothing."""
    plain = plain_text(sentence).strip()
    return bool(_STATES.match(plain)) and not says_what_to_do(plain) and not plain[:1].isdigit()


def notes_only(items: list[str]) -> bool:
    """A bulleted list of notes (a reference page's "Time zone offsets may have fractional
    seconds.", "Ordinal dates are not currently supported."): every item :func:`states`
    something; an item that says what to do keeps its list."""
    return bool(items) and all(map(states, items))


# what a sentence of events starts with: its subject, not a verb ("The Postfix queue manager
# deletes …", "New mail arrives …", "postsuper(1) deletes …", "You open the Solution Gallery …")
_SUBJECT_FIRST = re.compile(r"^(?:the|a|an|this|that|these|those|both|some|each|every|new|you|it|they|we|"
                            r"[a-z][\w.-]*\(\d\w*\))(?=\W)", re.I)


def narrates(items: list[str]) -> bool:
    """A list of events, not steps (postsuper's "The scenario is as follows: 1) The Postfix
    queue manager deletes the message …; 2) New mail arrives …; 3) postsuper(1) deletes the new
    message …"; BIND's "1. Upon receiving a DNS query …, the validating resolver follows …
    2. The isc.org name server responds …"): none says what must be (a list of conditions: "The
    index type must support index-only scans"), and of a list of two or three items none says
    what to do and each starts with its subject; of a longer one, at most one item in four says
    what to do ("At this point, the validating resolver can verify the answers") and at most one
    in four does not start with its subject, after an opening clause or not."""
    plain = [plain_text(item).strip() for item in items]
    share = 0 if len(plain) < 4 else len(plain) // 4  # of items that may read otherwise
    subject_first = sum(bool(_SUBJECT_FIRST.match(_OPENING_CLAUSE.sub("", item))) for item in plain)
    doing = sum(says_what_to_do(item) for item in plain)
    return len(plain) >= 2 and subject_first >= len(plain) - share and doing <= share \
        and not any(_REQUIRES.match(item) for item in plain)


# a clause or a word of sequence that opens a sentence before its subject: "Upon receiving a DNS
# query from a client, ", "Then "
_OPENING_CLAUSE = re.compile(r"^(?:(?:upon|after|when|once|as soon as|as|while|if)\b[^,]{1,100},\s+"
                             r"|(?:then|next|finally|afterwards),?\s+)", re.I)


# what a list of conditions says, not a list of events: "The index type must support index-only scans"
_REQUIRES = re.compile(r"^\S+(?:\s+\S+){0,4}?\s+(?:must|should|shall|needs? to|has to|have to)\b", re.I)


def instructions(items: list[str]) -> list[str]:
    """``items`` less those that describe or define a term; a numbered list's items stay steps
    whatever they say (a step that says what the screen shows next is part of the procedure),
    and so does a labelled item whose text after the label says what to do (a setting's
    "**Folders to Ignore**: Choose a list of folders to not save in your backup.")."""
    return [item for item in items
            if labelled_action(item) or not describes(plain_text(item)) and not defines(item)]


def labelled_action(item: str) -> bool:
    """An item that names something in a short label (at most :data:`LABEL_WORDS` words), then
    says what to do with it right after the colon (not "**Storage location**: The storage
    location is where … If you'd like to use an external drive, plug it in")."""
    label, colon, rest = plain_text(item).strip().partition(": ")
    return bool(colon) and len(label.split()) <= LABEL_WORDS and bool(ACTION_CUE.match(rest))


REMARK = re.compile(r"\s*\([^()]*\)")  # a remark in brackets: "(experimental, no binaries yet)"


NAMED_SHARE = 0.75  # of a long list's items (NAMED_LIST or more) that name things
NAMED_LIST = 8


_SMALL_WORDS = frozenset({"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to",
                          "with"})


def _capitalised(words: list[str]) -> bool:
    """Every word but the small ones opens with a capital: a name ("Print to Browser")."""
    return all(word[:1].isupper() for word in words if word.lower() not in _SMALL_WORDS)


def names_only(items: list[str], words: int = 6) -> bool:
    """A bulleted list that names things (``- Post Office Protocol (POP)``, ``- Outlook on the
    web``, ``- `BookInPolicy` ``) rather than saying what to do: every item short, without a
    final period, a command (a code span of several words), a leading quantity (ingredients
    stay steps) or a description after a colon (a key's: "]n: move to the next note"), and not
    an action (a verb alone names a tool, "import (ImageMagick)", and words in capitals a
    feature, "Insert Screenshot"); or, in a long list, most of them, and none saying what to do
    (Knot DNS's features: "Minimal responses", "Name server identification using NSID or Chaos
    TXT records")."""
    def name(item: str) -> bool:
        plain = plain_text(item)  # without markup, so without the backticks of a command
        # not the "/" of alternatives, nor a remark in brackets: "Cygwin (experimental, no binaries yet)"
        named = [word for word in REMARK.sub("", plain).split() if any(c.isalnum() for c in word)]
        described = len(plain.partition(": ")[2].split()) >= 2  # "]n: move to the next note"
        # a verb alone, with at most a remark, names a tool ("import (ImageMagick)", beside "scrot"),
        # and words in capitals a feature ("Insert Screenshot", "Print to Browser", beside "Arithmetic")
        return (len(named) <= words and not plain.endswith((".", "!", "?")) and not described
                and not COMMAND_SPAN.search(item) and not plain[:1].isdigit()
                and (len(named) == 1 or _capitalised(named) or not ACTION_CUE.search(plain)))
    named_items = [item for item in items if not MORE_ONLY.match(plain_text(item).strip())]  # not "… and more!"
    if len(named_items) < 2:
        return False
    named = sum(map(name, named_items))
    # a long list of features, most of them names and the rest longer ones ("Name server
    # identification using NSID or Chaos TXT records"), none of them saying what to do
    return named == len(named_items) or named >= NAMED_SHARE * len(named_items) and len(named_items) >= NAMED_LIST \
        and not any(says_what_to_do(plain_text(item)) for item in named_items)


def lists_what_there_is(items: list[str]) -> bool:
    """A list of what there is to see, not steps (a file browser's "You can see these items:
    1. The name of the browsing tool and its version number … 4. How names are to be sorted"):
    none says what to do, and each names a thing (it opens with an article or another
    determiner) or a topic (it asks how, what or whether, without a question mark); a list of what must be
    ("The index type must support index-only scans") is one of conditions to meet."""
    plain = [plain_text(item).strip() for item in items]
    return len(plain) >= 2 and not any(says_what_to_do(item) or _REQUIRES.match(item) for item in plain) \
        and all(_SUBJECT_FIRST.match(item) or _ASKS.match(item) for item in plain)


_SETTING_VALUE = re.compile(r"^`(?P<setting>[^`=\n]{1,60}=)[^`\n]*`")  # "`-o page-border=double`; draw …"


def values_of_settings(items: list[str]) -> bool:
    """Lists of the values a setting takes, each a choice and none a step to follow (CUPS's
    "`-o page-border=double`; draw two hairline borders around each page", "`-o
    page-border=none`; do not draw a border (default)", then the values of `-o
    number-up-layout=`): every item opens with a setting's code and a value of it, and each
    setting has two items or more."""
    settings = [m["setting"] if (m := _SETTING_VALUE.match(item.strip())) else None for item in items]
    return bool(items) and None not in settings and all(settings.count(x) >= 2 for x in settings)


# an item that gives a quantity under a short label: "⏲️ Prep time: 90 min", "Servings: 4"
_QUANTITY = re.compile(r"^\W*(?:\w+ ){0,3}\w+:\s*\d[\d.,/–-]*(?: \w+){0,2}$")


# an item that is an amount of something: "20 GB of maximum storage space.", "500 MB of RAM"
_AMOUNT_OF = re.compile(r"^\d[\d.,]*\s?[A-Za-z]{1,5} of [^.;:]{1,60}\.?$")


def states_quantities(items: list[str]) -> bool:
    """Lists of a page's figures, each a quantity under a short label, none a step (a recipe's
    "⏲️ Prep time: 90 min", "🍳 Cook time: 30 min", "🍽️ Servings: 4"), or each an amount of
    something (what a virtual machine is given: "20 GB of maximum storage space.", "500 MB of
    RAM."), its notes aside."""
    first = [next(iter(split_sentences(plain_text(item).strip())), "") for item in items]
    return len(items) >= 2 and (all(_QUANTITY.match(line) for line in first)
                                or all(_AMOUNT_OF.match(line) for line in first))


_CONTINUED = re.compile(r"(?:[;,]|[;,]? (?:and|or))$")  # an item the next one continues: "rotating the logs;"


def enumerates(items: list[str]) -> bool:
    """Lists that are sentences' enumerations ("such as: - rotating the logs; - back-ups;
    - maintenance scripts."; rsyslog "1. first receives messages, 2. then parses them and
    3. then processes them."): half their items or more end with a semicolon, a comma or "and"
    (each but the last of its list), and fewer than half of them say what to do."""
    plain = [plain_text(item).strip() for item in items]
    return (len(plain) >= 2 and 2 * sum(bool(_CONTINUED.search(item)) for item in plain) >= len(plain)
            and 2 * sum(bool(ACTION_CUE.match(item)) for item in plain) < len(plain))


_PURPOSE = re.compile(r"^to \w+\b", re.I)  # "To recover or reuse disk space ..."


def purposes(items: list[str]) -> bool:
    """A list, numbered or not, of what something is for rather than what to do ("for several
    reasons: 1. To recover disk space. 2. To update statistics."): every item opens with "To"
    and a verb, and none goes on to say what to do ("To add a rule, open ...")."""
    plain = [plain_text(item).strip() for item in items]
    return len(plain) >= 2 and all(_PURPOSE.match(item) and not ACTION_CUE.match(item) for item in plain)


# a word ending in "ing" that is no verb's -ing form, or is an imperative ("Bring the water to
# the boil")
_NOT_GERUND = frozenset({"bring", "string", "sing", "ring", "swing", "sting", "fling", "wring", "cling",
                         "spring", "during", "thing", "nothing", "something", "anything", "everything",
                         "morning", "evening", "king", "wing", "ceiling", "icing", "pudding", "stuffing"})
_GERUND = re.compile(r"^([A-Za-z]{2,}ing)\b")  # "Using", "Splitting"
# "How the user interface works", "Whether it is a request to add or remove DNS entries"
_ASKS = re.compile(r"^(?:how|what|why|when|where|which|whether)\b(?!.*\?$)", re.I)


LABEL_WORDS = 5  # at most, in the label of a topic ("Serving:")


def topics(items: list[str], *, gerunds: bool = True) -> bool:
    """A list of what to consider or learn rather than what to do ("1. Knowing what to backup
    and recover. 2. Assessing risks and costs involved.", "- How to capture packets in
    Wireshark"): every item opens with a verb's -ing form (unless ``gerunds`` is false: a
    bulleted list of them often gives the reasons an FAQ answer lists) or asks how, what or why
    without a question mark, and none says what to do, before a colon or after it ("Serving: pour
    the soup"); an item that only says there is more ("… and many other things!") is no topic."""
    plain = [item for item in (plain_text(item).strip() for item in items) if not MORE_ONLY.match(item)]

    def topic(item: str) -> bool:
        found = _GERUND.match(item) if gerunds else None
        label, colon, rest = item.partition(":")  # "Serving: pour the soup", not a sentence and its list
        labelled = rest.strip() if colon and len(label.split()) <= LABEL_WORDS else ""
        return (bool(found) and found.group(1).lower() not in _NOT_GERUND or bool(_ASKS.match(item))) \
            and not ACTION_CUE.match(item) and not (labelled and says_what_to_do(labelled))
    return len(plain) >= 2 and all(topic(item) for item in plain)


# a word, or a name of two capitalised words written as one ("AutoCorrect", "LibreOffice")
_PLAIN_WORD = re.compile(r"[(“‘\"]?(?:[A-Za-z][a-z'’]*|[A-Z][a-z]+[A-Z][a-z]+)[)”’\"]?[,.;:!?]?")


# what a path through menus is written with between its items: "Tools - AutoCorrect - Options",
# "Image → Canvas Size", "File > New > Task", "Setup -> Domains" (">" and "->" before a capital only:
# "ruleset > /etc/nftables.conf" sends a command's output to a file)
_MENU_SEPARATOR = re.compile(r"[-–—→»]")
_MENU_ARROW = re.compile(r"(?:^|(?<=\s))-?>(?=\s+[A-Z])")


def is_prose(sentence: str) -> bool:
    """Words rather than commands, paths or markup; a word in brackets or quotes is a word
    ("To limit upload (i.e. borg create) bandwidth, use the --remote-ratelimit option."), and the
    marks between a menu path's items are none ("Choose Image → Canvas Size.", "Click File > New >
    Task, or press Shift+Ctrl+T.")."""
    words = [w for w in _MENU_ARROW.sub(" ", sentence).split() if not _MENU_SEPARATOR.fullmatch(w)]
    plain = sum(1 for w in words if _PLAIN_WORD.fullmatch(w))
    return bool(words) and plain >= 0.75 * len(words)
