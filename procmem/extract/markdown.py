"""A small block parser for the normalised Markdown of :class:`inscoqa.corpus.Document`.

It understands what the corpus readers produce: ``#`` headings, ordered and bullet lists (nested
by indentation, continuation paragraphs indented under their item), fenced code, ``>`` quotes,
``|`` tables and paragraphs. Sections form a flat list in document order, each with its heading
path, so extraction can look at a section's own blocks and at its parents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

# where a sentence ends: after ".", "!" or "?" before a capital, a digit, a quote, a bracket or code
# (not after "e.g." or "i.e.": "Run the program (e.g. `./main`) to get a profile."), and after
# the quotation mark that closes a sentence: 'The dash means "do not rewrite." Combined with …'
SENTENCE_BREAK = re.compile(r"(?:(?<=[.!?])(?<![( ]e\.g\.)(?<![( ]i\.e\.)|(?<=[.!?][\"”]))\s+(?=[A-Z0-9\"“(`*])")


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


BlockKind = Literal["paragraph", "list", "code", "quote", "table"]

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s{0,12}(```|~~~)")
MARKER = re.compile(r"^(?P<indent>\s*)(?P<marker>\d{1,3}[.)]|[-*+])\s+(?P<rest>.*)$")
LINK = re.compile(r"\[(?P<label>[^\]]*)\]\((?P<target>[^()\s]*(?:\([^()]*\)[^()\s]*)*)(?:\s+\"[^\"]*\")?\)")
# a line that is nothing but a link ("[Age limit settings not applied](#age-limit-...)"): an item of
# a page's table of contents or of its list of further articles, not something to do
LINK_ONLY = re.compile(r"^\W*\[[^\]]+\]\([^)\s]*\)\W*$")
HTML_TAG = re.compile(r"</?(?:br|b|i|u|em|strong|sup|sub|span|kbd|a|p|div|img)\b[^>]*>", re.I)


@dataclass
class ListItem:
    text: str  # the item's Markdown, dedented (first line + continuation + nested lists)

    @property
    def first_paragraph(self) -> str:
        return self.text.split("\n\n", 1)[0].strip()


@dataclass
class Block:
    kind: BlockKind
    text: str
    ordered: bool = False
    items: list[ListItem] = field(default_factory=list)


@dataclass
class Section:
    level: int  # 0 for text before the first heading
    heading: str
    path: list[str]  # headings of the parents, outermost first, then this heading
    blocks: list[Block] = field(default_factory=list)
    order: int = 0

    @property
    def text(self) -> str:
        return "\n\n".join(b.text for b in self.blocks)


def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def parse_sections(text: str) -> list[Section]:
    """Split ``text`` into sections at headings (headings inside code fences do not count)."""
    sections = [Section(level=0, heading="", path=[], order=0)]
    stack: list[tuple[int, str]] = []
    lines: list[str] = []
    in_fence = False
    chunks: list[list[str]] = []
    for line in text.replace("\t", "    ").splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
        match = None if in_fence else HEADING.match(line)
        if match and not line.startswith(" "):
            chunks.append(lines)
            lines = []
            level, heading = len(match.group(1)), strip_inline(match.group(2))
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, heading))
            sections.append(Section(level=level, heading=heading, path=[h for _, h in stack],
                                    order=len(sections)))
        else:
            lines.append(line)
    chunks.append(lines)
    for section, section_lines in zip(sections, chunks, strict=True):
        section.blocks = parse_blocks(section_lines)
    return sections


def parse_blocks(lines: list[str]) -> list[Block]:
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if FENCE.match(line):
            end = _fence_end(lines, i)
            blocks.append(Block("code", "\n".join(lines[i : end + 1])))
            i = end + 1
        elif (m := MARKER.match(line)) and indent_of(line) < 4:
            i = _parse_list(lines, i, m, blocks)
        elif line.lstrip().startswith(">"):
            end = i
            while end < len(lines) and lines[end].lstrip().startswith(">"):
                end += 1
            blocks.append(Block("quote", "\n".join(lines[i:end])))
            i = end
        elif line.lstrip().startswith("|"):
            end = i
            while end < len(lines) and lines[end].lstrip().startswith("|"):
                end += 1
            blocks.append(Block("table", "\n".join(lines[i:end])))
            i = end
        else:
            end = i
            while end < len(lines) and lines[end].strip() and not FENCE.match(lines[end]) and not (
                end > i and MARKER.match(lines[end]) and indent_of(lines[end]) < 4
            ):
                end += 1
            blocks.append(Block("paragraph", "\n".join(x.strip() for x in lines[i:end])))
            i = end
    return _with_callouts_folded(blocks)


# a callout at the end of a code line, which a numbered list after the block explains
# ("$ git reset --soft HEAD^      <1>", "autocrlf = true  # (2)")
CALLOUT = re.compile(r"\s+(?:(?:#|//|--|;)\s*)?(?:<(?P<angle>\d{1,2})>|\((?P<round>\d{1,2})\))\s*$")


def _with_callouts_folded(blocks: list[Block]) -> list[Block]:
    """A code block whose lines carry callouts (``<1>``, ``<2>`` …: AsciiDoc's) followed by the
    numbered list that explains them, as that list with each item's lines of code under it: the
    list's items are the steps, and what each step types is in its lines. A line without a callout
    goes with the next line that has one (an example's first ``$ git commit ...`` before ``$ git
    reset --soft HEAD^ <1>``), the lines after the last one with the last."""
    folded: list[Block] = []
    for block in blocks:
        explained = folded[-1] if folded and block.kind == "list" and block.ordered else None
        parts = _callout_parts(explained.text, len(block.items)) if explained and explained.kind == "code" else None
        if parts is None:
            folded.append(block)
            continue
        fence = explained.text.splitlines()[0].strip()
        items = [ListItem(f"{item.text}\n\n{fence}\n" + "\n".join(lines) + f"\n{fence[:3]}")
                 for lines, item in zip(parts, block.items, strict=True)]
        text = "\n".join(f"{n}. {_indent_rest(item.text)}" for n, item in enumerate(items, 1))
        folded[-1] = Block("list", text, ordered=True, items=items)
    return folded


def _callout_parts(code: str, count: int) -> list[list[str]] | None:
    """The lines of a fenced code block for each of its callouts 1 … ``count``, without the
    callouts, or None unless its callouts are exactly those."""
    lines = code.splitlines()[1:-1]
    marks = [CALLOUT.search(line) for line in lines]
    numbers = {int(m["angle"] or m["round"]) for m in marks if m}
    if count < 1 or numbers != set(range(1, count + 1)):
        return None
    parts: list[list[str]] = [[] for _ in range(count)]
    pending: list[str] = []
    last = 0
    for line, mark in zip(lines, marks, strict=True):
        if not mark:
            pending.append(line)
            continue
        last = int(mark["angle"] or mark["round"]) - 1
        parts[last] += [*pending, line[:mark.start()]]
        pending = []
    parts[last] += [line for line in pending if line.strip()]
    return parts


def _fence_end(lines: list[str], start: int) -> int:
    for j in range(start + 1, len(lines)):
        if FENCE.match(lines[j]):
            return j
    return len(lines) - 1


def _parse_list(lines: list[str], start: int, first: re.Match[str], blocks: list[Block]) -> int:
    base = len(first.group("indent"))
    ordered = first.group("marker")[0].isdigit()
    items: list[list[str]] = []
    content_indent = 0
    i = start
    blank_before = False
    in_fence = False
    while i < len(lines):
        line = lines[i]
        m = MARKER.match(line)
        if in_fence:
            items[-1].append(_dedent(line, content_indent))
            if FENCE.match(line):
                in_fence = False
        elif not line.strip():
            blank_before = True
            items[-1].append("")
        elif m and len(m.group("indent")) <= base + 1 and (m.group("marker")[0].isdigit()) == ordered:
            items.append([m.group("rest")])
            content_indent = len(m.group("indent")) + len(m.group("marker")) + 1
            blank_before = False
        elif indent_of(line) > base:
            items[-1].append(_dedent(line, content_indent))
            in_fence = bool(FENCE.match(line))
            blank_before = False
        elif not blank_before and not m and not line.lstrip().startswith((">", "|", "#")):
            items[-1].append(line.strip())  # lazy continuation
        else:
            break
        i += 1
    list_items = [ListItem("\n".join(item).strip()) for item in items]
    text = "\n".join(
        f"{n}. {_indent_rest(it.text)}" if ordered else f"- {_indent_rest(it.text)}"
        for n, it in enumerate(list_items, 1)
    )
    blocks.append(Block("list", text, ordered=ordered, items=list_items))
    return i


def _dedent(line: str, width: int) -> str:
    return line[min(width, indent_of(line)) :]


def _indent_rest(text: str) -> str:
    return text.replace("\n", "\n   ")


def strip_inline(text: str) -> str:
    """Plain text of an inline Markdown fragment: links to labels, no emphasis markers."""
    text = LINK.sub(lambda m: m.group("label"), text)
    text = re.sub(r"(\*\*|__)(.+?)\1", r"\2", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?!\w)", r"\1", text)
    text = re.sub(r"(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)", r"\1", text)
    text = HTML_TAG.sub(" ", text)
    return re.sub(r"\s+", " ", text).strip()


# a line that is a title in bold ("**Create a Starting Point**", a DocBook step's title): the
# text under it in the same item follows it after a colon
TITLE_ONLY = re.compile(r"^\*\*[^*]*[^*\s.!?:;,]\*\*$")
# an item that is a command in code and nothing else; a capitalised word alone is a name ("`Replaces`", a field)
COMMAND_ALONE = re.compile(r"`(?![A-Z][a-z]+`)[A-Za-z.$\\/~][^`]*`")
CODE_ONLY = re.compile(r"`[^`]+`")


@dataclass(frozen=True)
class Prompt:
    """A program's prompt before what is typed, and the prompt it shows while what was typed
    goes on over further lines; ``joined``: such a line continues the statement (Python's "...
    ", psql's "testdb-> "), rather than being a line of its own (a shell's here-document)."""

    at: re.Pattern[str]
    more: re.Pattern[str]
    joined: bool


_USER_AT_HOST = r"[\w.-]+@[\w.-]+"
_FOLLOWED = r"\s+(?=\S)"  # a prompt is followed by what is typed
_SHELL_MORE = re.compile(rf"^>{_FOLLOWED}")  # a here-document's next line
PROMPTS = (
    # a shell's: "$ npm outdated", "$> virsh start vm1", "root@host:~# apt update",
    # "[root@host ~]# yum update", "guest# mount -t virtiofs tag /mnt"
    Prompt(re.compile(rf"^(?:\$>?|{_USER_AT_HOST}:\S*[$#]|\[{_USER_AT_HOST}(?: [^\]]*)?\][$#]|[a-z][\w-]{{0,14}}\w[$#])"
                      rf"{_FOLLOWED}"), _SHELL_MORE, False),
    Prompt(re.compile(rf"^PS [A-Za-z]:\\[^>]{{0,80}}>{_FOLLOWED}"), re.compile(rf"^>>{_FOLLOWED}"), True),
    Prompt(re.compile(rf"^>>>{_FOLLOWED}"), re.compile(rf"^\.\.\.{_FOLLOWED}"), True),
    Prompt(re.compile(rf"^mysql>{_FOLLOWED}"), re.compile(rf"^\s*->{_FOLLOWED}"), True),
    # psql's: "testdb=> ", "peter@localhost testdb=> ", continued at "testdb-> " or "testdb(# "
    Prompt(re.compile(rf"^(?:{_USER_AT_HOST}\s+)?[\w.-]+=[>#]{_FOLLOWED}"),
           re.compile(rf"^(?:{_USER_AT_HOST}\s+)?[\w.-]+[-('\"][>#]{_FOLLOWED}"), True),
)
PROMPT = re.compile("|".join(f"(?:{p.at.pattern})" for p in PROMPTS))  # any of them
# root's prompt, "# apt-get install foo", which a shell's comment looks like (:func:`at_root`)
ROOT = Prompt(re.compile(r"^#\s+(?=[a-z(./~])"), _SHELL_MORE, False)
# what surely is a command after it, with no word of a sentence: a hyphenated name with
# arguments ("dpkg-reconfigure tzdata"), an option ("mount -t auto ..."), an absolute path ("ls
# /var/lib/libvirt/sanlock/") or the shell's signs (a pipe, a redirection, ";")
_ROOT_COMMAND = re.compile(r"^#\s+(?:[a-z][\w.+]*-[\w.+-]+\s|.*\s(?:-{1,2}\w|[/~]\S)|.*(?:[|;<>]|&&|\$\())")
# what a code block's fence names when it names no language
UNTYPED = frozenset({"", "text", "txt", "plain", "plaintext", "none", "nohighlight"})
# the languages of a code block in which "#" may be root's prompt rather than a comment: none
# named, or a session's
ROOT_LANGUAGES = UNTYPED | {"console", "terminal", "shellsession", "shell-session", "screen"}
_BECOMES_ROOT = re.compile(r"(?:sudo\s+(?:-[is]\b|su\b)|su\b)")  # "su - root", "sudo -i"
# words of a sentence, which a comment or a text has and a command has not ("if=" is dd's operand)
_SENTENCE_WORD = re.compile(r"(?<![-=])\b(?:the|an?|to|is|are|if|of|for|and|or|no|not|this|that|it|there"
                            r"|here|what|each|just|will|with|on|in|into|by|from|so|when|be|you|your|we|our"
                            r"|then|can|should|only|which|as|all|also)\b(?![=-])")
# a comment's label ("# /etc/fstab: static file system information") or a sentence's end
_NO_COMMAND = re.compile(r"^#\s+\S+:(?:\s|$)|[A-Za-z]\.$")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")  # what a command quotes is no sentence of the page's
_PRINTED_SENTENCE = re.compile(r"^[A-Z][a-z]+(?: \S+){2,}\.$")  # "Module 'ido-mysql' was enabled."


def language_name(info: str) -> str:
    """The language a fence's info string names: its first word ("rust" of "rust compile_fail")."""
    return info.split()[0].strip("{}.").lower() if info.split() else ""


# the rule under a table's header row: "|---|---|", "| :--- | ---: |"
TABLE_RULE = re.compile(r"^\s*\|(?:\s*:?-+:?\s*\|)+\s*$")


def table_cells(row: str) -> list[str]:
    """The cells of one row of a ``|`` table, stripped: "| Payee | John Doe |" → ["Payee", "John Doe"]."""
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def sentence_words(line: str) -> int:
    """How many words of a sentence ("the", "to", "if", ...; in lower case, so not SQL's "FROM")
    a line of code has outside what it quotes: a comment or a text has several, a command few."""
    return len(_SENTENCE_WORD.findall(_QUOTED.sub("", line)))


def at_root(lines: list[str], language: str = "") -> list[bool]:
    """For each line of a code block, whether it is typed at root's "# " prompt: the block's
    language (its fence's info string) is none or a session's (:data:`ROOT_LANGUAGES`; in a
    script's, "#" opens a comment), the line starts with the prompt, is no label nor sentence
    and has at most one word of a sentence ("# use /bin/sh to run commands, no matter what
    /etc/passwd says" is a file's comment), in a block that shows a session: one that opens
    at root's prompt, where a line surely is a command (:data:`_ROOT_COMMAND`: "# wodim --devices",
    with what it prints under it) or every line starts with the prompt ("# adduser fish"); in a
    session at another prompt, the lines that surely are commands and those after the user
    became root ("$ su - root", then "# yum install libvirt-lock-sanlock"; without it, "# ...
    hack hack hack ..." is a comment)."""
    if language_name(language) not in ROOT_LANGUAGES:
        return [False] * len(lines)
    words = [sentence_words(line) for line in lines]
    root = [bool(ROOT.at.match(line)) and not _NO_COMMAND.search(line) and n < 2
            for line, n in zip(lines, words, strict=True)]
    # ... or a line that a sentence the command prints follows ("# icinga2 feature enable ido-mysql",
    # then "Module 'ido-mysql' was enabled.")
    printed = [bool(_PRINTED_SENTENCE.match(line)) and not root[i] for i, line in enumerate(lines)]
    sure = [r and not n and (bool(_ROOT_COMMAND.match(line)) or any(printed[i + 1:i + 3]))
            for i, (r, n, line) in enumerate(zip(root, words, lines, strict=True))]
    shown = [(r, line) for r, line in zip(root, lines, strict=True) if line.strip()]
    if shown and shown[0][0] and (any(sure) or all(r for r, _ in shown)):
        return root
    if not any(PROMPT.match(line) for line in lines):
        return [False] * len(lines)
    became = False
    for i, line in enumerate(lines):
        prompt = PROMPT.match(line)
        became = became or bool(prompt and _BECOMES_ROOT.match(line[prompt.end():]))
        root[i] = sure[i] or root[i] and became
    return root


def is_session(lines: list[str], language: str = "") -> bool:
    """A code block that shows a session at a prompt (:data:`PROMPTS`, root's :func:`at_root`): a
    line of it starts with one (the first, or one after what an earlier command printed)."""
    return any(PROMPT.match(line) for line in lines) or any(at_root(lines, language))


def typed_commands(lines: list[str], language: str = "") -> list[str]:
    """The commands of a code block, a line that ends with a shell's "\\" joined to the next
    (``qemu-system-arm \\`` / ``-cpu cortex-m3 \\`` / ...): of a shell session
    (:func:`is_session`), what is typed after each prompt and at the continuation prompts that
    follow it (a here-document's lines after a shell's "> ", or up to its end word after a
    command that opens it with ``<<EOF``; a statement that Python's "... " or a database
    client's "testdb-> " continues, as one line), without the output the commands print
    ("$ npm outdated", then its table); of any other block, every line."""
    prompts = [ROOT if root else next((p for p in PROMPTS if p.at.match(line)), None)
               for line, root in zip(lines, at_root(lines, language), strict=True)]  # each line's, if any
    if not any(prompts):  # no session (is_session)
        return _continued(lines)
    typed: list[str] = []
    prompt: Prompt | None = None  # of the line before, when it was typed
    until = ""  # the word that ends the here-document a typed line opened ("cat >>~/.bashrc <<EOF")
    for line, found in zip(lines, prompts, strict=True):
        more = prompt.more.match(line) if prompt else None
        if until:  # the here-document's lines, after the shell's "> " or not, up to its end word
            content = (line[more.end():] if more else line).strip()
            typed.append(content)
            until = "" if content == until else until
        elif found:
            typed.append(found.at.sub("", line))
            prompt = found
            until = heredoc[1] if (heredoc := _HEREDOC.search(typed[-1])) else ""
        elif prompt and more:
            if prompt.joined:  # the statement goes on: "for line in f:" "print(line)", one line
                typed[-1] = f"{typed[-1].rstrip()} {line[more.end():].strip()}"
            else:
                typed.append(line[more.end():])
        elif prompt and typed[-1].endswith("\\"):
            typed.append(line)
        else:
            prompt = None
    return _continued(typed)


_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?\s*$")  # a command that a here-document follows


def code_line(lines: list[str], language: str = "") -> str:
    """A code block as one line: a session's commands (:func:`typed_commands`, not what they
    print) joined with semicolons, as a shell takes them; of any other block, each line joined
    to the next with a semicolon only where a statement ends there, not inside brackets, after a
    line that ends with ";", "{" or "," or before one that closes a bracket (rsyslog's
    ``action(type="omfwd"`` / ``port="514")`` is one statement; BIND's ``zone "x" {`` /
    ``type primary;`` / ``};`` reads ``zone "x" { type primary; };``), without the numbers a page
    set before a listing's lines (:func:`without_line_numbers`)."""
    if is_session(lines, language):
        return "; ".join(typed_commands(lines, language))
    joined = ""
    for line in _continued([line.strip() for line in without_line_numbers(lines) if line.strip()]):
        statement_ends = not (_open_brackets(joined) or joined.endswith(_JOINS_NEXT) or line.startswith(_CLOSES))
        joined = f"{joined}{'; ' if statement_ends else ' '}{line}" if joined else line
    return joined


def without_line_numbers(lines: list[str]) -> list[str]:
    """A listing's lines without the numbers a page set before them (1, 2, 3, … in order, on
    every line: "1  gentoo (0.9.12-1) UNRELEASED; urgency=low" / "2" / "3    * Initial Release.").
    Lines numbered with a letter are alternatives, each run of them counting from where they
    branch off (Postfix's "6a" … "10a", then "6b" … "10b", then "11")."""
    found = [_LINE_NUMBER.match(line) for line in lines]
    if len(lines) < 3 or not all(found):
        return lines
    last = highest = 0
    for m in found:
        number, alternative = int(m[1]), bool(m[2])
        if not (number == last + 1 or number == highest + 1 or alternative and 1 < number <= last + 1):
            return lines
        last, highest = number, max(highest, number)
    return [line[m.end():] for line, m in zip(lines, found, strict=True)]


_LINE_NUMBER = re.compile(r"^\s*(\d{1,4})([a-z]?)(?:\s+|$)")
_JOINS_NEXT = (";", "{", "(", "[", ",", "|", "&&", "||", " do", " then", " else")
_CLOSES = (")", "]", "}")


def _open_brackets(code: str) -> bool:
    """Whether ``code`` leaves a round or square bracket open (quoted text not counted)."""
    depth = 0
    for token in re.findall(r'"(?:\\.|[^"\\])*"|\'[^\']*\'|[()\[\]]', code):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(token, 0)
    return depth > 0


def _continued(lines: list[str]) -> list[str]:
    """``lines`` with each that ends with a shell's "\\" joined to the next."""
    joined: list[str] = []
    for line in lines:
        if joined and joined[-1].endswith("\\"):
            joined[-1] = f"{joined[-1][:-1].rstrip()} {line}"
        else:
            joined.append(line)
    return joined


def one_line(markdown: str, *, max_words: int = 120) -> str:
    """A list item or paragraph as one plain line: notes dropped, code inline (after a colon
    where the words before it end without one: "Add `regex` as a dependency: `cargo add regex`";
    of a shell session, the commands typed, not what they print),
    sub-items joined with semicolons, a title in bold joined to the text under it with a colon
    (one further on ends the sentence before it: "… to be imported. Import preview Controls:
    …"); an item that is a command alone, with sentences under it, runs it ("Run `cargo
    login`. This only needs to be done once."), and a name alone in code, with what it is under
    it, names it ("`Replaces`: Use this when …")."""
    parts: list[str] = []
    in_fence = titled = False
    labelled = ""  # the part before is a title further on: a "line" of its own, or a list "item"
    code: list[str] = []
    language = ""  # of the open code block
    for line in markdown.splitlines():
        if FENCE.match(line):
            if in_fence and code:
                if parts and parts[-1] and not parts[-1].endswith((":", ";", ",", ".", "!", "?")):
                    parts[-1] += ":"
                parts.append(f"`{code_line(code, language)}`")
            in_fence, code, language = not in_fence, [], line.strip()[3:]
            continue
        if in_fence:
            if line.strip():
                code.append(line.strip())
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith(">") or stripped.startswith("|"):
            continue
        m = MARKER.match(stripped)
        if not parts:
            titled = bool(TITLE_ONLY.match(m.group("rest") if m else stripped))
        part = strip_inline(m.group("rest") if m else stripped)
        label = bool(parts) and not m and bool(TITLE_ONLY.match(stripped))  # a title further on
        if label and not parts[-1].endswith((":", ";", ",", ".", "!", "?")):
            parts[-1] += "."  # what came before it ends: "… to be imported. Import preview controls: …"
        elif m and parts and part and not parts[-1].endswith((":", ";", ",", ".", "!", "?")):
            parts[-1] += ":" if labelled == "line" else ";"  # sub-items stay apart: "files: Local Data; Sniffer"
        elif labelled and part:
            parts[-1] += ":"  # a title, then its text: "Load and Save Settings: The settings group …"
        elif len(parts) == 1 and titled and part:
            parts[0] += ":"  # "Create a Starting Point: Click on the paintbrush ..."
        elif len(parts) == 1 and COMMAND_ALONE.fullmatch(parts[0]) and part[:1].isupper():
            parts[0] = f"Run {parts[0]}."  # a command, then what to know about it
        elif len(parts) == 1 and CODE_ONLY.fullmatch(parts[0]) and part[:1].isupper():
            parts[0] += ":"  # a name, then what it is: "`Replaces`: Use this when ..."
        parts.append(part)
        labelled = "line" if label else "item" if m and len(parts) > 1 and TITLE_ONLY.match(m.group("rest")) else ""
    text = " ".join(p for p in parts if p)
    text = re.sub(r"\s+([,.;:])(?=\s|$)", r"\1", text)  # not a file's ".eml" or a "..." placeholder
    words = text.split()
    return " ".join(words[:max_words]) + (" ..." if len(words) > max_words else "")


# a sentence that the list after it completes with conditions, not steps ("… does not forward
# any recursive query for which:", "This happens when:", "Run `dig` with these options, where:")
CONDITIONS_LEAD_IN = re.compile(r"(?:\b(?:for|in|on|to|by|of) which|\b(?:when|whenever|if|unless|where|while)):$",
                                re.I)


# a label over a list of what something has for or against it: "Advantages:", "Drawbacks:"
TRAITS_LABEL = re.compile(r"^(?:(?:the )?(?:main |key )?(?:advantages|disadvantages|pros|cons|benefits|drawbacks|"
                          r"downsides|limitations)(?: of [^:]{1,60})?|pros and cons):$", re.I)


# a sentence over a list of the modes or kinds something comes in, each said what it is: "The
# signing can operate in two modes:", "There are three types of zones:"
KINDS_LEAD_IN = re.compile(r"\b(?:two|three|four|five|several|different|various|these|the following) "
                           r"(?:\w+ )?(?:modes|kinds|types|levels|flavou?rs)(?: of [^:]{1,60})?:$", re.I)


# a sentence over a list of the parts something is made of: "It is made from the following
# parts:", "The Process Payment application consists of:" (not "… consists of the following steps:")
PARTS_LEAD_IN = re.compile(r"\b(?:(?:is|are) (?:made|composed|built) (?:up )?(?:of|from)|consists? of|comprises?)"
                           r"(?![^:]*\b(?:steps|stages|tasks|actions)\b)[^:]{0,60}:$", re.I)


def introduces_no_steps(paragraph: str) -> bool:
    """Whether ``paragraph`` ends with a lead-in that its list completes with conditions, with
    the kinds something comes in (Knot DNS's "The signing can operate in two modes:", then what
    each does) or with the parts it is made of (a live system's "It is made from the following
    parts:" over "**Linux kernel image**, usually named `vmlinuz*`"), or is the label of a list of
    traits (Icinga's "Advantages:" over "Central certificate request signing management."): the
    list holds no steps."""
    plain = strip_inline(paragraph).strip()
    return bool(CONDITIONS_LEAD_IN.search(plain) or KINDS_LEAD_IN.search(plain) or PARTS_LEAD_IN.search(plain)
                or TRAITS_LABEL.match(plain))


def first_sentence(text: str, max_words: int = 24) -> str:
    sentence = split_sentences(strip_inline(text))[0]
    words = sentence.split()
    return " ".join(words[:max_words]).rstrip(".:") + (" ..." if len(words) > max_words else "")


BOILERPLATE = re.compile(r"^(?:consider the following scenario|assume the following|the following|"
                         r"in this scenario|original kb number)\b", re.I)


def summary_sentence(text: str, max_words: int = 40) -> str:
    """The first informative sentence of a section ("Consider the following scenario" skipped)."""
    plain = one_line(text, max_words=400)
    for sentence in re.split(r"(?<=[.!?:])\s+", plain):
        if len(sentence.split()) >= 3 and not BOILERPLATE.match(sentence):
            words = sentence.split()
            return " ".join(words[:max_words]).rstrip(".:") + (" ..." if len(words) > max_words else "")
    return first_sentence(text, max_words)
