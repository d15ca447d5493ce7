"""What a unit's text says, read without a model: its steps and its prose sentences.

A procedure's steps are its own; a logic unit's or a chunk's are its numbered lines, else its
bulleted lines (unless they only name things), else its sentences that say what to do, each with
the commands that follow it; a bulleted line that describes (a scenario, a cause, what a tool
does) rather than says what to do is no step. Page metadata ("Applies to: ..."), pointers to further
reading, questions an overview page lists and lines that are only a link are not steps; Markdown
markup, escapes and quote markers are dropped. The extractive answerer (:mod:`procmem.answerers.extractive`) scores and
composes with these.
"""

from __future__ import annotations

import re

from procmem.answerers.parsing import parse_steps
from procmem.extract.markdown import (
    LINK_ONLY,
    UNTYPED,
    code_line,
    introduces_conditions,
    is_session,
    language_name,
    sentence_words,
    typed_commands,
)
from procmem.units import (
    PLAIN_NAME,
    SOURCE_LINE,
    LogicUnit,
    Procedure,
    Unit,
    own_header,
    part_number,
)

# (not after "e.g." or "i.e.": "Run the program (e.g. `./main`) to get a profile.")
SENTENCE_BREAK = re.compile(r"(?<=[.!?])(?<![( ]e\.g\.)(?<![( ]i\.e\.)\s+(?=[A-Z0-9\"“(`*])")
# the HTML elements a Markdown page writes in its prose (not a placeholder: "Rename the remote
# named <old> to <new>")
_INLINE_TAGS = (r"(?:a|abbr|b|br|center|code|del|details|div|em|font|i|img|ins|kbd|li|mark|ol|p|s|small|span"
                r"|strong|sub|summary|sup|table|td|th|tr|u|ul)\b")
# markup to drop: emphasis marks (a pair around words; the underscores of INSTALL_BASE and the
# stars of `*.pm` or Net::* are no emphasis), a link (its text kept), an HTML tag (of the
# elements above, lower-case, attributes with values), a stray backtick; a code span keeps its
# text as written, placeholders such as <mailbox name> included
_MARKUP_RE = re.compile(
    r"`+(?P<code>[^`]*)`+|\[(?P<link>[^\]]*)\]\([^)]*\)"
    r"|(?<![\w*])(?P<stars>\*{1,3})(?=[^\s*])(?P<starred>[^*]*?[^\s*])(?P=stars)(?![\w*])"
    # bold that touches a word, where a page left out the space ("by using the**Actions**menu")
    r"|(?P<bold>\*\*)(?=[A-Za-z])(?P<touching>[^*]*?[^\s*])(?P=bold)(?!\*)"
    r"|(?<![\w_])(?P<lines>_{1,3})(?=[^\s_])(?P<underlined>[^_]*?[^\s_])(?P=lines)(?![\w_])"
    r"|</?" + _INLINE_TAGS + r"(?:\s+[\w:-]+=(?:\"[^\"]*\"|'[^']*'|[^\s>]+))*\s*/?>|`+")
_KEPT = ("code", "link", "starred", "underlined")
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
BOILERPLATE = re.compile(
    r"serious problems might occur|back up the registry|provide feedback|carefully\.?$|"
    r"(?:one of )?the following (?:methods|steps|options|procedures?)\W*$|:$|"
    r"couldn'?t resolve your issue|for (?:more )?(?:information|info)\b|see the following|see this article|visit the following|"
    r"follow the (?:instructions|steps) (?:on|in|at) the following|website|"
    r"\b(?:follow|complete|do) (?:these|the following) steps\W*$|"  # what they introduced is elsewhere
    r"your (?:issue|problem) is (?:now )?(?:resolved|fixed)|^if (?:yes|no|not|so),? see\b|"
    r"^(?:if|when) [^,]{1,100}, see\b|\bsee\b[^.!?]{0,80}\bfor (?:more )?details\b|"  # "If you run a registry, see ..."
    r"redistribute (?:it|them)\b|all rights reserved|under the terms of the gnu\b|"  # a licence: "you can redistribute it ..."
    r"^see (?!if\b|whether\b|that\b|how\b)[^!?]{0,80}$|"  # only a pointer: "See package-lock.json and npm shrinkwrap."
    # ... or one to another part of the documentation: "If you're not sure, take a look at the Installation chapter."
    r"\b(?:take a look at|refer to|read|consult|check out|see) (?:the|our|this)\b[^.!?]{0,60}"
    r"\b(?:chapter|section|documentation|docs|book|guide|manual|article|topic|example)s?\W*$",
    re.I)
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
    "drain", "rinse", "peel", "melt", "cover", "transfer", "blend", "strain", "reduce", "brown")
# what has been done, of the verbs above that a page says something "has to be" ("disabled")
DONE = ("added", "changed", "checked", "configured", "created", "deleted", "disabled", "enabled",
        "installed", "removed", "restarted", "run", "turned off", "turned on", "updated")
# words that open a sentence with a comma but set no condition: "For example, let's say ..."
ASIDE = r"(?:for (?:example|instance)|in (?:other words|short|general|practice|addition|particular|fact)|on the other hand)\b"
_IMPERATIVE = r"(?:" + "|".join(IMPERATIVES) + r")\b(?!['’]s\b)"  # "Let's say ..." tells a scenario
ACTION_CUE = re.compile(
    r"^(?:(?:first|then|instead|alternatively|next|finally|for (?:example|instance)),?\s+)?" + _IMPERATIVE
    # "..., to fix this", "use it to resolve the issue"; a sentence that opens so goes on with what
    # to do (below), not with what a program does ("To avoid this, Wireshark tries to ...")
    + r"|(?:,\s+|\b(?:it|this|that|them|these)\s+)to (?:fix|resolve|work around|avoid|solve|correct|prevent) (?:this|the|it)\b"
    r"|\byou (?:can|should|must|need to) " + _IMPERATIVE
    + r"|^to \w+ [^,]{1,120},\s+(?:simply |just |you (?:simply |just )?)?" + _IMPERATIVE  # "To create a pre script, simply create ...", "..., you add ..."
    # how a guide written as prose says what to do: "This is typically done using the adduser command"
    # ("done by calling setup.py" says rather what the program does)
    + r"|\b(?:is|are|can be) (?:\w+ly )?(?:done|achieved|accomplished|performed) (?:with|using|through|via)\b"
    # ... and a reference manual, of a setting: "The poll exponent can be set using the minpoll and
    # maxpoll options" ("The argument can be specified with or without a leading dot" says what it is)
    + r"|\b(?:is|are|can be) (?:\w+ly )?(?:set|configured|changed|enabled|disabled|adjusted) (?:with|using|through"
      r"|via) (?:\S+ ){0,5}?(?:options?|commands?|directives?|statements?|settings?|parameters?|flags?|keywords?)\b"
    # the purpose, then the command it introduces without a comma: "To enable a firewall in Debian execute:"
    + r"|^to \w+ [^,:]{1,120}\b(?:run|execute|type|enter)(?: the following(?: commands?)?)?:"
    # ... or the control to use: "To create a new account go to Actions → New Account"
    + r"|^to \w+ [^,:]{1,80}?\s(?:go to|click|double-click|right-click|select|press|choose|tap) (?:on )?\S", re.I)
# what to do in a case: "If you're using Linux or macOS, open a terminal and enter ..."
CASE_ACTION = re.compile(r"^(?:if|when|once|after|before)\b[^,]{1,120},\s+(?:then\s+)?" + _IMPERATIVE, re.I)
# what to do after an opening clause ("If the pool is running, recycle it"), with a modal ("you
# can modify the file", "an administrator can manually add ...") or a command in code
LATER_ACTION = re.compile(
    r"^(?!" + ASIDE + r")(?:if|when|after|once|before|to|in|on|from|for)\b[^,]{1,120},\s+(?:then\s+)?"
    r"(?!(?:the|this|that|these|those|it|its|you|your|they|there|we|he|she|a|an|all|any|each|every|some|no|not"
    r"|assume|suppose|imagine|in|on|at|of|for|with|by|from|as|into)\b|let['’]s\b|(?!bring\b)[a-z]+ing\b)"
    r"(?-i:[a-z])[a-z]*\b"  # in lower case: a capital opens a name ("To avoid this, Wireshark tries ...")
    r"|\b(?:you|administrators?|admins?)\s+(?:can|should|must|need to|have to)\s+(?:\w+ly\s+)?(?!be\b|see\b)\w+"
    r"|\b(?:can|should|must|need to|have to)\s+(?:\w+ly\s+)?" + _IMPERATIVE
    + r"|\byou(?:['’]ll| will)? need (?:a|an|the)\b"  # what to get first: "you'll need a copy of the NDK"
    # what has to be done, said without "you": "it is necessary to boot into Windows", "the feature
    # has to be disabled within Windows"
    + r"|\bit(?: is|['’]s) (?:\w+ly )?(?:necessary|recommended|suggested|advisable|required|a good idea) to \w+"
    + r"|\b(?:has|have|needs?) to be (?:re-?)?(?:" + "|".join(DONE) + r")\b"
    + r"|`", re.I)
COMMAND_SPAN = re.compile(r"`[^`]*[^`\s]\s+[^`\s][^`]*`")  # code of several words: a command, not a name
DESCRIPTION = re.compile(
    r"^(?:(?:first|then|next|finally|also|however|instead|otherwise|by default|in this case|"
    + ASIDE + r"),?\s+|"
    r"(?:after|when|if|once|because|since|while) [^,]{1,120},\s+)?"
    r"(?:the|this|these|that|those|a|an|all|some|most|many|every|here|there|it|its|so|such|each|both|whether|"
    r"you (?!can\b|should\b|must\b|need\b|may want\b|have to\b)\w+|you['’](?:re|ve)|"
    r"let['’]s (?:\w+ )?(?:say|assume|suppose|imagine))\b",
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
_TYPE_ONLY = re.compile(_TYPE + r"(?:\s*\|\s*" + _TYPE + r")*")  # "{string}", "{Buffer} | {string}"
PARAMETER = re.compile(r"^(?:`[^`]+`|[\w.$\[\]'\"-]+) " + _TYPE + r"(?: \| " + _TYPE + r")*(?:\s+\S.*)?$")
# a cmdlet (Get-Mailbox), a variable ($ssa), a UNC path or a program: a sentence with one is a step
COMMAND_WORD = re.compile(
    r"\b(?:Get|Set|New|Remove|Add|Enable|Disable|Test|Start|Stop|Export|Import|Update|Invoke|Clear|"
    r"Install|Uninstall|Connect|Disconnect|Search|Restore|Resume|Suspend|Grant|Revoke|Move|Register|"
    r"Reset|Repair|Format|Select|Where)-[A-Z][A-Za-z]+|\$\w+|\\\\|\b\w+\.exe\b")
# Markdown's backslash escapes of punctuation; a backslash itself stays (a \\server path)
_ESCAPED = re.compile(r"\\([`*_{}\[\]()#+\-.!<>|\"@?])")
LIST_ITEM = re.compile(r"^(?:\d+[.)]|[-*•])\s")
_LABELLED = re.compile(r"^[A-Za-z][\w ()'/]{0,40}:(?:\s+\S|$)")  # "definitely lost: 48 bytes"
_SETTING = re.compile(r"^[A-Za-z_][\w.\-]*(?:\[\])?\s+=\s+\S")  # "cache = ${HOME}/.npm-packages" (an ini file's line)
_NAMED = re.compile(r"^[a-z][\w.+-]*\s+-\s+[A-Z0-9]")  # a name and what it is: "ap1394 - Apple IP-over-IEEE 1394"
COMMAND_START = re.compile(r"^[A-Za-z.$\\/~]")  # a word, a path or a variable, not output
_EDGE_DASH = re.compile(r"^-+(?:\s|$)|\s-+$")  # a list marker's dash, not an option's ("-gdb")
_INNER_QUOTE = re.compile(r"(?<=[.!?:])\s+>[\s>]*")  # "... setting. > Note: ..." in a joined step


def plain_text(text: str) -> str:
    """Plain text: markup and footnote marks dropped, Markdown's escapes (``Recipients \\>
    Groups``) undone, quote markers left out, at the start and where a quoted note follows a
    sentence."""
    text = _ESCAPED.sub(r"\1", _MARKUP_RE.sub(_markup_text, _FOOTNOTE_MARK.sub("", text)))
    text = _INNER_QUOTE.sub(" ", re.sub(r"^\s*>[\s>]*", "", text))
    # a dash left of a list marker goes, the dash of an option ("-gdb tcp::3333") stays
    return _EDGE_DASH.sub("", " ".join(text.split()).strip(" :")).strip(" :")


# a mark that points to a footnote: Markdown's "[^3]", DocBook's "[[10]](#ftn.idm17115)", a
# numbered link to a place on the page ("[1](#id3)")
_FOOTNOTE_MARK = re.compile(r"\s*(?:\[\^[\w-]{1,12}\](?!:)|\[\[\d{1,3}\]\]\([^)\s]*\)|\[\d{1,3}\]\(#[^)\s]*\))")


def _markup_text(m: re.Match[str]) -> str:
    """What a piece of markup shows; bold that touches a word on either side is set apart from it."""
    if m["touching"]:
        before = " " if m.start() and m.string[m.start() - 1].isalnum() else ""
        after = " " if m.end() < len(m.string) and m.string[m.end()].isalnum() else ""
        return f"{before}{m['touching']}{after}"
    return next((m[k] for k in _KEPT if m[k]), "")


def _is_prose_line(line: str) -> bool:
    """Not a heading, table row, linker line, footnote ("[^1]: ..."), list item or a merged
    unit's "From <title>:" line."""
    return not line.startswith(("#", "|", "[CONTINUE]", "[CROSS]", "[MITIGATE]", "[^")) \
        and not LIST_ITEM.match(line) and not SOURCE_LINE.match(line)


def _prose_runs(text: str) -> list[str]:
    """Runs of prose lines: paragraphs. A line ending with a colon ends its run, as what it
    introduced was left out (a list) or follows it inline (fenced code, as
    ``: `command; command` ``). Indented lines under a list item are the item's, not prose
    (the error message a symptom's bullet quotes)."""
    runs: list[str] = []
    current: list[str] = []
    code: list[str] | None = None  # lines of the fenced block being read
    in_item = False  # the lines read since the last list item are indented or blank
    for raw in text.splitlines():
        line = raw.strip().lstrip(">").strip()  # a quoted block's lines read as any other
        if code is None and line and not line.startswith("```"):
            if LIST_ITEM.match(raw.lstrip()):
                in_item = True
            elif not raw[:1].isspace():
                in_item = False
            elif in_item:
                continue
        if line.startswith("```"):
            if code is None:
                code = []
                continue
            if current:
                runs.append(" ".join(current))
                current = []
            if code and runs and runs[-1].endswith(":"):
                runs[-1] = f"{runs[-1]} `{code_line(code)}`"
            code = None
        elif code is not None:
            if line:
                code.append(line)
        elif not line and current:
            runs.append(" ".join(current))  # a blank line ends a paragraph, and its sentence
            current = []
        elif line and _is_prose_line(line):
            current.append(line)
            if line.endswith(":"):
                runs.append(" ".join(current))
                current = []
    return runs + ([" ".join(current)] if current else [])


def paragraphs(text: str) -> list[str]:
    """The prose paragraphs of a text, as plain text (headings, lists, tables and code left out)."""
    return [p for p in (plain_text(run) for run in _prose_runs(text)) if p]


_UNBROKEN = re.compile(r"`[^`\n]*`|\[[^\[\]\n]*\]\([^()\s]*\)")  # code, a link: no sentence ends inside


def split_sentences(text: str) -> list[str]:
    """``text`` cut at its sentence breaks (:data:`SENTENCE_BREAK`), none inside code or a link
    ("[`ALTER TABLE ... ENABLE ROW LEVEL SECURITY`](sql-altertable.html)")."""
    unbroken = [m.span() for m in _UNBROKEN.finditer(text)]
    pieces, start = [], 0
    for found in SENTENCE_BREAK.finditer(text):
        if not any(a < found.start() < b for a, b in unbroken):
            pieces.append(text[start:found.start()])
            start = found.end()
    return [*pieces, text[start:]]


# the half of a bold span that a sentence break cut ("**Example 11.21." / "Mounting a share**")
_UNPAIRED_BOLD = re.compile(r"^\*\*|\*\*$")


def sentences(text: str) -> list[str]:
    """The prose sentences of a text: headings, tables and list items left out, a fenced
    command kept with the sentence that introduces it."""
    found = [plain_text(_UNPAIRED_BOLD.sub("", s) if s.count("**") % 2 else s) + (":" if s.endswith(":") else "")
             for run in _prose_runs(text) for s in split_sentences(run)]
    return [s for s in found if len(s.split()) >= 4 and not is_metadata(s)]


# a sentence that ends by introducing what follows it without a colon: "You can change it by the
# following.", "Make the image from the CD-ROM device as follows."
INTRODUCES = re.compile(r"\b(?:the following|as follows|like this)\s*[.:]?$", re.I)


def _introduces(line: str) -> bool:
    return line.endswith(":") or bool(INTRODUCES.search(line))


def introduced(text: str) -> list[str]:
    """What a text's first paragraph introduces when it ends with a colon ("It identifies local
    ports this way:") or says that it does (:data:`INTRODUCES`): the list items or lines of code
    that follow it, as plain text; none when the first paragraph ends otherwise."""
    lines = text.splitlines()
    i = 0
    while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith("#")):
        i += 1
    while i < len(lines) and lines[i].strip() and _is_prose_line(lines[i].strip()):
        if _introduces(lines[i].rstrip()):
            break
        i += 1
    if i >= len(lines) or not _introduces(lines[i].rstrip()):
        return []
    items: list[str] = []
    in_code = False
    for raw in lines[i + 1:]:
        line = raw.strip()
        if line.startswith(("```", "~~~")):
            in_code = not in_code
            if not in_code:
                break  # the code it introduced ends
        elif in_code:
            items += [line] if line else []
        elif not line:
            continue
        elif LIST_ITEM.match(line):
            items.append(LIST_ITEM.sub("", line))
        elif raw[:1].isspace() and items:
            items[-1] += " " + line  # an item's wrapped line
        else:
            if not items:
                items.append(line)  # a line of its own: the message it quotes
            break
    return [plain_text(item) for item in items if plain_text(item)]


def unit_text(unit: Unit) -> str:
    """What a unit says: a logic unit's body, a chunk's text, a procedure's steps (one a line)."""
    if isinstance(unit, Procedure):
        return "\n".join(s if s.rstrip().endswith((".", "!", "?", ":")) else f"{s.rstrip(' ;,')}." for s in unit.steps)
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
    out ("Table... —") and not a list's last line that only says there is more ("… and a lot
    more!")."""
    return bool(text) and not is_metadata(text) and not BOILERPLATE.search(text.split("`")[0]) \
        and not text.endswith(("?", "—", "–")) and not _TYPE_ONLY.fullmatch(text) \
        and not _WITHOUT_OBJECT.search(text) and not _MORE.match(text)


def is_metadata(text: str) -> bool:
    """A page's metadata ("Applies to: ...", "Last updated ...") or a line of labelled values."""
    return bool(METADATA.match(text)) or labelled_values(text)


_FIELD_LABEL = re.compile(r"(?:^|\s)([A-Z][A-Za-z/-]*(?: [a-z]+)?):\s")  # "Type: ", "Applies to: "
FIELD_WORDS = 4  # at most, in a labelled value


def labelled_values(text: str) -> bool:
    """A line of labelled values, a reference entry's or a page's metadata ("Type: boolean
    Default: yes", "Applies to: Windows 10 Version: 1909"): two labels or more, each with a
    value of a few words that is no action ("ask-yes" is a value)."""
    parts = _FIELD_LABEL.split(plain_text(text))
    values = [v.strip() for v in parts[2::2]]
    return (len(values) >= 2 and not parts[0].strip()
            and all(0 < len(v.split()) <= FIELD_WORDS and not (ACTION_CUE.match(v) and re.match(r"\w+(?:\s|$)", v))
                    for v in values))



_WITHOUT_OBJECT = re.compile(r"\b(?:click|press|select|choose|tap)[:,]?$", re.I)  # the icon was its object
# a list's last line that only says there is more: "… and many other things!", "... and so on"
_MORE = re.compile(r"^(?:…|\.\.\.)[\s\u200b]*(?:and\s+)?(?:(?:a\s+lot|many|much|lots)\s+)?(?:more|others?|so\s+on|etc)\b",
                   re.I)


def without_boilerplate(step: str) -> str:
    """A step without its sentences that only point elsewhere ("For more information, see …"):
    the sentence that says what to do stays a step."""
    return " ".join(s for s in SENTENCE_BREAK.split(step)
                    if not BOILERPLATE.search(s.split("`")[0]))


def unit_steps(unit: Unit) -> list[str]:
    """The steps a unit holds: a procedure's steps, else the numbered or bulleted lines of its
    text, else its sentences; page metadata, boilerplate and lines that are only a link left out,
    bulleted lines and sentences that only describe (:func:`describes`) or define a term
    (:func:`defines`), a list that defines terms (:func:`defines_terms`) or says what something
    is for (:func:`purposes`), a list of what to learn or a numbered list or a procedure of what
    to consider (:func:`topics`; a bulleted one often gives the reasons an FAQ answer lists:
    "Running git bisect to find the root cause of a bug"), a numbered list or a procedure of
    events (:func:`narrates`), lists that continue a sentence (:func:`enumerates`), and bulleted
    lists that hold only notes (:func:`notes_only`).
    A reference entry's first step names it (:func:`entry_step`)."""
    if isinstance(unit, Procedure):
        raw = [] if defines_terms(unit.steps) or purposes(unit.steps) or topics(unit.steps) \
            or narrates(unit.steps) or enumerates(unit.steps) else unit.steps
    else:
        text = unit_text(unit)
        listed = list_text(text, str(unit.meta.get("lead_in", "")))
        bulleted = [_introducing_code(step) for step in parse_steps(listed, nested=False)]
        numbered = [_introducing_code(step) for step in parse_steps(listed, numbered_only=True)]
        listed_steps = instructions(bulleted if not (names_only(bulleted) or enumerates(bulleted) or purposes(bulleted)
                                                     or notes_only(bulleted) or topics(bulleted, gerunds=False)
                                                     or narrates(bulleted)) else [])
        raw = ((numbered if not (defines_terms(numbered) or purposes(numbered) or topics(numbered)
                                 or narrates(numbered) or enumerates(numbered)) else [])
               or (listed_steps if any(says_what_to_do(s) for s in listed_steps) else [])
               or prose_steps(text) or listed_steps)
        if entry := entry_step(unit):  # its example shown with it is no step of its own again
            raw = [entry, *(s for s in raw if not ((run := _RUN_CODE.fullmatch(s)) and f"`{run[1]}`" in entry))]
    return [step for step in (without_boilerplate(plain_text(s)) for s in raw if not LINK_ONLY.match(s))
            if is_step(step)]


_UNINTRODUCED_CODE = re.compile(r"(?<=[\w)\]`'\"”’])\s+(?=```)")  # "Add `regex` as a dependency ```cargo add regex```"


_RUN_CODE = re.compile(r"Run `([^`]+)`\.?")  # a step that runs a code block of its own


def _introducing_code(step: str) -> str:
    """A list item whose words run into the code block under it, with a colon between them
    ("Add `regex` as a dependency: cargo add regex")."""
    return _UNINTRODUCED_CODE.sub(": ", step, count=1)


# a header that is only a name: in code ("`http.proxy`"), or a plain one ("sidebar_visible")
CODE_NAME = re.compile(rf"^(?:`[^`\n]+`|{PLAIN_NAME})$")
ENTRY_CODE_LINES = 2  # an example this short is shown with the entry's step


def entry_step(unit: Unit) -> str:
    """A reference entry's step: a section named by a setting, attribute or option alone
    ("`html_logo_url`") says what that name does in its first sentence, and often nothing to do:
    the name with that sentence, and the example right after it when it is a line or two
    ("`html_logo_url`: This form of the `doc` attribute lets you control the logo ...
    `#![doc(html_logo_url = "...")]`"). "" for any other unit."""
    name = own_header(unit)
    if not isinstance(unit, LogicUnit) or not CODE_NAME.match(name) or part_number(unit) != 1:
        return ""
    text = unit_text(unit)
    first = next((s for s in sentences(text) if not _LABELLED.match(s)), "")  # not "Type: string"
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


def list_text(text: str, lead_in: str = "") -> str:
    """``text`` as the list reader reads it: a shell session's commands without what they print
    (:func:`commands_typed`), a code block after a label under that label
    (:func:`code_under_labels`), code blocks of their own in a shown language left out
    (:func:`without_shown_code`), fences without their language, and a command alone as an item
    run (:data:`_COMMAND_ITEM`); a list of conditions left out (:func:`without_conditions`)."""
    listed = _FENCE_INFO.sub(r"\1", without_shown_code(code_under_labels(commands_typed(without_conditions(text, lead_in)))))
    return _COMMAND_ITEM.sub(r"\g<marker>Run `\g<command>`.\n\g<rest>", listed)


def without_conditions(text: str, lead_in: str = "") -> str:
    """``text`` without the lists that complete the sentence before them with conditions
    (:func:`introduces_conditions`: BIND's "… does not forward any recursive query for which:
    1. The answer is already in the cache. 2. The domain name is localhost."): no steps. A part
    of a cut unit that starts with its list has that sentence as ``lead_in``."""
    out: list[str] = []
    prose = lead_in  # the last line of prose before the list
    dropping = False
    for line in text.splitlines():
        top_item = bool(LIST_ITEM.match(line))
        if dropping and (top_item or not line.strip() or line[:1].isspace()):
            continue
        dropping = top_item and introduces_conditions(prose)
        if dropping:
            continue
        if line.strip() and not top_item and not line[:1].isspace():
            prose = line
        out.append(line)
    return "\n".join(out)


def commands_typed(text: str) -> str:
    """``text`` with each code block that is a session at a prompt (:func:`is_session`) holding
    only what is typed at the prompts (:func:`typed_commands`), not what the
    commands print ("Proceed (Y/n)? y", "Successfully uninstalled simplejson")."""
    out: list[str] = []
    block: list[str] | None = None
    indent = language = ""
    for line in text.splitlines():
        if block is None:
            out.append(line)
            if line.lstrip().startswith("```"):
                block, indent, language = [], line[:len(line) - len(line.lstrip())], line.strip()[3:]
        elif line.lstrip().startswith("```"):
            lines = [code.strip() for code in block if code.strip()]
            typed = typed_commands(lines, language) if is_session(lines, language) else None
            out += [f"{indent}{command}" for command in typed] if typed else block
            out.append(line)
            block = None
        else:
            block.append(line)
    return "\n".join(out + (block or []))


def code_under_labels(text: str) -> str:
    """``text`` with a code block that follows a list item written as a label (no final period:
    "- Ubuntu 18.04 or newer", "- On Windows:"), only blank lines and quoted notes between,
    indented as the item's own: the command is what to do for that case (a Markdown page that
    starts each case's list again, as the Embedded Rust Book's Linux packages do)."""
    kept: list[str] = []
    label = False  # the last list item is a label, and only blank or quoted lines followed it
    indenting = False  # in the code block that goes under it
    for line in text.splitlines():
        if indenting:
            kept.append(f"   {line}" if line.strip() else line)
            indenting = not line.startswith("```")
            continue
        if label and line.startswith("```"):
            kept.append(f"   {line}")
            label, indenting = False, True
            continue
        if LIST_ITEM.match(line):
            label = not plain_text(LIST_ITEM.sub("", line)).endswith((".", "!", "?"))
        elif line.strip() and not line.lstrip().startswith(">") and not line[:1].isspace():
            label = False
        kept.append(line)
    return "\n".join(kept)


def without_shown_code(text: str) -> str:
    """``text`` without its code blocks of their own in a language that is shown, not run
    (:func:`shown_language`): a YAML workflow's ``- name: Run Clippy`` is no list of steps. A block
    under a list item (only blank or indented lines between) stays the item's, and so does every
    block whose fence names no language or a shell's."""
    kept: list[str] = []
    skipping = False
    in_item = False  # the lines since the last list item are blank or indented
    for line in text.splitlines():
        if skipping:
            skipping = not line.lstrip().startswith("```")
            continue
        if line.startswith("```") and not in_item and shown_language(line[3:]):
            skipping = True
            continue
        if LIST_ITEM.match(line.lstrip()):
            in_item = True
        elif line.strip() and not line[:1].isspace():
            in_item = False
        kept.append(line)
    return "\n".join(kept)


def says_what_to_do(sentence: str) -> bool:
    """A sentence of prose that is a step: it says what to do (an imperative, one after an
    opening clause or with a modal, a command), rather than what a tool is or does ("Memcheck is
    the default tool", "Tools will complain at startup"). What a clause of purpose, result or
    reason lets someone do is no step (:func:`without_consequences`): "The emails that you send
    are saved in the Sent folder, so that you can recall what you wrote"."""
    sentence = without_consequences(sentence)
    plain = plain_text(sentence)
    return bool(ACTION_CUE.search(plain) or LATER_ACTION.search(sentence) or COMMAND_WORD.search(sentence))


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


def defines(item: str) -> bool:
    """A bulleted line that says what a term is rather than what to do: a name, a code span or a
    link, then a dash or a colon and a description ("`members` — Packages to include in the
    workspace", "0: no optimizations"), or a parameter with its type (:data:`PARAMETER`); not an
    action ("Windows: Open Settings") nor an amount ("Flour: 500 g")."""
    if PARAMETER.match(item.strip()):
        return True
    found = DEFINITION.match(item.strip())
    if not found:
        return False
    rest = plain_text(found["rest"])
    return not rest[:1].isdigit() and not ACTION_CUE.match(rest) and not COMMAND_WORD.search(rest)


def defines_terms(items: list[str]) -> bool:
    """A list of terms and what they are rather than steps, numbered or not: three in four of
    its items define a term (Cargo's order of precedence of profile settings)."""
    return len(items) >= 2 and 4 * sum(map(defines, items)) >= 3 * len(items)


# a statement's verb after its subject: "Ordinal dates are not supported", "Offsets may have ..."
_STATES = re.compile(r"^\S+(?:\s+\S+){0,5}?\s+(?:is|are|was|were|may|might|can|cannot|will|would|has|have|"
                     r"had|does|do|must|should|shall)\b", re.I)


def notes_only(items: list[str]) -> bool:
    """A bulleted list of notes (a reference page's "Time zone offsets may have fractional
    seconds.", "Ordinal dates are not currently supported."): every item states something (a
    subject, then its verb, :data:`_STATES`), and none says what to do (:func:`says_what_to_do`)
    or opens with an amount (an ingredient). An item that says what to do with a verb this
    module does not know ("Collect the log soon after a failure") states nothing, and keeps its
    list."""
    plain = [plain_text(item).strip() for item in items]
    return bool(plain) and all(_STATES.match(item) and not says_what_to_do(item) and not item[:1].isdigit()
                               for item in plain)


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
    whatever they say (a step that says what the screen shows next is part of the procedure)."""
    return [item for item in items if not describes(plain_text(item)) and not defines(item)]


def names_only(items: list[str], words: int = 6) -> bool:
    """A bulleted list that names things (``- Post Office Protocol (POP)``, ``- Outlook on the
    web``, ``- `BookInPolicy` ``) rather than saying what to do: every item short, without a
    final period, a command (a code span of several words) or a leading quantity (ingredients
    stay steps), and not an action."""
    def name(item: str) -> bool:
        plain = plain_text(item)  # without markup, so without the backticks of a command
        named = [word for word in plain.split() if any(c.isalnum() for c in word)]  # not the "/" of alternatives
        return (len(named) <= words and not plain.endswith((".", "!", "?"))
                and not COMMAND_SPAN.search(item) and not plain[:1].isdigit()
                and not ACTION_CUE.search(plain))
    named_items = [item for item in items if not _MORE.match(plain_text(item).strip())]  # not "… and more!"
    return len(named_items) >= 2 and all(name(i) for i in named_items)


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
_GERUND = re.compile(r"^([A-Za-z]{3,}ing)\b")
_ASKS = re.compile(r"^(?:how|what|why|when|where|which)\b(?!.*\?$)", re.I)  # "How the user interface works"


def topics(items: list[str], *, gerunds: bool = True) -> bool:
    """A list of what to consider or learn rather than what to do ("1. Knowing what to backup
    and recover. 2. Assessing risks and costs involved.", "- How to capture packets in
    Wireshark"): every item opens with a verb's -ing form (unless ``gerunds`` is false: a
    bulleted list of them often gives the reasons an FAQ answer lists) or asks how, what or why
    without a question mark, and none says what to do, before a colon or after it ("Serving: pour
    the soup"); an item that only says there is more ("… and many other things!") is no topic."""
    plain = [item for item in (plain_text(item).strip() for item in items) if not _MORE.match(item)]

    def topic(item: str) -> bool:
        found = _GERUND.match(item) if gerunds else None
        labelled = item.split(":", 1)[1].strip() if ":" in item else ""  # "Serving: pour the soup"
        return (bool(found) and found.group(1).lower() not in _NOT_GERUND or bool(_ASKS.match(item))) \
            and not ACTION_CUE.match(item) and not (labelled and says_what_to_do(labelled))
    return len(plain) >= 2 and all(topic(item) for item in plain)


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
    (:func:`is_file_text`); a command is never glued to the code block after it."""
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
        if code:
            written = [line.rstrip() for line in block.splitlines() if line.strip()]
            lines = [line.strip() for line in written]
            commands = typed_commands(lines, language)
            joined = code_line(lines, language)  # the commands as one line
            if commands and not output:  # not what a command printed ("Output:")
                if steps and introduced:  # what the sentence introduces, typed or said ("… saying:")
                    steps[-1] = f"{steps[-1].rstrip(':.')}: `{joined}`"
                elif shows_messages(lines):
                    pass  # what a program says, shown after a sentence that does not introduce it
                elif COMMAND_START.match(commands[0]) and not is_report(commands) \
                        and not (len(commands) == 1 and PLACE.match(commands[0])) \
                        and (is_typed(written, language) or is_session(lines, language)):
                    steps.append(f"Run `{joined}`")
                elif steps and follows_step and COMMAND_START.match(commands[0]) and not is_report(commands) \
                        and (len(commands) <= SHOWN_CODE_LINES
                             or len(commands) <= SHOWN_FILE_LINES and is_file_text(written)):
                    steps[-1] = f"{steps[-1].rstrip('.')}: `{joined}`"  # what the step writes
            introduced = output = follows_step = False
        else:
            lines = block.strip().splitlines()
            output = bool(lines) and bool(OUTPUT_LABEL.match(lines[-1].strip()))
            said = sentences(block)
            found = [s for s in said if is_step(s) or s.endswith(":")]
            steps += found
            introduced = bool(found) and (not found[-1].endswith((".", "!", "?")) or bool(INTRODUCES.search(found[-1]))) \
                and not output and _introduces_code(lines, found[-1])
            follows_step = bool(found) and said[-1] == found[-1]
    # an introduction ("run the following cmdlet:") is a step only with the commands it introduced;
    # one that opens with what to do and says all of it ("Select Generate Drill Files to open the
    # dialog:", over the dialog's options) is a step that ends there
    done = [f"{s[:-1].rstrip()}." if s.endswith(":") and ACTION_CUE.match(s) and not POINTS_ON.search(s) else s
            for s in steps]
    return [s for s in done if not s.endswith(":") and says_what_to_do(s) and not THERE_IS.match(s)][:limit]


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


SHOWN_CODE_LINES = 3  # code this short that a step writes (a signature, a file's lines) joins the step
SHOWN_FILE_LINES = 8  # and a file's stanza this short (:func:`is_file_text`)

# a label that says the code block under it is what a command printed: "Output:", "Sample output::",
# "You should see a display looking something like this:"
OUTPUT_LABEL = re.compile(r"^(?:\w+\s+){0,2}output:*$|^.*\byou(?:['’]ll| should| will| would| may)? see\b.*:$", re.I)
# a sentence that says what there is, whatever its clauses say ("However, there is no limit to the
# number of crate versions you can publish", "For users who need to contact many people, there's
# no need to remember addresses")
THERE_IS = re.compile(r"^(?:(?:however|but|also|still|of course|in (?:addition|fact)),?\s+|[^,]{1,80},\s+)?"
                      r"there(?:['’]s| is| are| was| were)\b", re.I)
# a folder or file alone, under the home folder, an environment variable or a drive: where
# something is ("~/.cache/pip", "%LocalAppData%\\pip\\Cache"), not a command
PLACE = re.compile(r"^(?:~|%\w+%|\$\{?\w+\}?|[A-Za-z]:)[\\/]\S*$")


# the languages of code blocks that are typed at a prompt: shells, Windows' command lines, SQL
RUN_LANGUAGES = frozenset({"sh", "bash", "shell", "zsh", "fish", "ksh", "csh", "console", "terminal",
                           "shellsession", "shell-session", "powershell", "ps", "ps1", "pwsh", "posh",
                           "cmd", "bat", "batch", "dos", "doscon", "sql", "psql", "mysql", "sqlite"})


def shown_language(language: str) -> bool:
    """A code block's language (its fence's first word) that is shown, not typed at a prompt: a
    program's (``rust``), a file's (``yml``, ``toml``) or a program's ``output``; not a shell's,
    nor none."""
    name = language_name(language)
    return name not in UNTYPED and name not in RUN_LANGUAGES


def is_typed(lines: list[str], language: str = "") -> bool:
    """A code block (its lines as written, indented) that is typed at a prompt rather than
    shown: its language is a shell's, or, where the fence names none, its text is no program's
    (:func:`is_source_code`), no file's (:func:`is_file_text`) and no usage line's
    (:data:`SYNOPSIS`)."""
    name = language_name(language)
    if name not in UNTYPED:
        return name in RUN_LANGUAGES
    return not is_source_code([line.strip() for line in lines]) and not is_file_text(lines) \
        and not any(SYNOPSIS.search(line) for line in lines)


# a usage line's placeholders, not a command as typed: "alias [ -group name ...] key address",
# "unalias { * | key ... }"
SYNOPSIS = re.compile(r"\.\.\.\s*[\]}]|[\[{]\s*[^\[\]{}]*\s\|\s[^\[\]{}]*[\]}]")


# a line that the line under it goes on from: a shell's "\\", a pipe, an opened block or list,
# an assignment, or a shell's "do", "then" or "else"
_GOES_ON = re.compile(r"(?:[\\|`^{(\[,=+]|&&|(?:^|[\s;])(?:do|then|else))\s*$")


def is_file_text(lines: list[str]) -> bool:
    """A file's lines shown in a block (a configuration file's stanza: "iface eth0 inet static"
    with "address 192.168.0.3/24" indented under it; YAML), not commands typed one per line: a
    line is indented further than the line before it, which does not go on into it
    (:data:`_GOES_ON`: a command continued, a shell loop's body)."""
    def indent(line: str) -> int:
        return len(line) - len(line.lstrip())
    return any(indent(line) > indent(before) and not _GOES_ON.search(before)
               for before, line in zip(lines, lines[1:], strict=False))


def is_source_code(lines: list[str]) -> bool:
    """A program's text (C, Java, ...: its lines end statements with ";" and open and close
    blocks), which is shown, not run; a script (shell, PowerShell) does not end its lines so."""
    statements = sum(line.endswith(";") for line in lines)
    ends = statements + sum(line.endswith(("{", "}")) for line in lines)
    return len(lines) >= 3 and statements >= 2 and ends * 2 >= len(lines)


def is_report(lines: list[str]) -> bool:
    """What a program printed or a file holds, which is shown, not run: most of its lines are
    labelled values ("LEAK SUMMARY:", "definitely lost: 48 bytes in 3 blocks."), names with what
    they are ("ap1394 - Apple IP-over-IEEE 1394", a list a program prints), settings of a
    configuration file ("cache = ${HOME}/.npm-packages"; not PowerShell's "$ssa = Get-…") or
    sentences (a poem the example reads: "I'm nobody! Who are you?"; a licence's lines, with the
    words of a sentence: "if you want it, that you can change the software")."""
    shown = sum(bool(_LABELLED.match(line) or _SETTING.match(line) or _NAMED.match(line))
                or (line.endswith((".", "!", "?")) and is_prose(line))
                or (len(line.split()) >= 6 and sentence_words(line) >= 3) for line in lines)
    return 2 * shown > len(lines)


def shows_messages(lines: list[str]) -> bool:
    """A block that shows what a program says rather than what to type: it opens with a
    sentence of six words or more that starts with a capital (not a directive such as "Require
    not ip 192.168.205"), and its words read as prose
    (:func:`is_prose`), however its lines wrap ("Please give the distribution tag to get or a
    path to the / package file ending in a /.", as APT's guide printed as text shows its set-up
    dialog)."""
    return bool(lines) and lines[0][:1].isupper() and len(lines[0].split()) >= 6 and is_prose(lines[0]) \
        and is_prose(" ".join(lines))


def is_prose(sentence: str) -> bool:
    """Words rather than commands, paths or markup."""
    words = sentence.split()
    plain = sum(1 for w in words if re.fullmatch(r"[A-Za-z][a-z'’]*[,.;:!?]?", w))
    return plain >= 0.75 * len(words)
