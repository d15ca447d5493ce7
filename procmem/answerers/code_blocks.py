"""Code blocks, read without a model: whether a block is typed at a prompt or shown (a
program's source, a file's lines, a usage line, a report of what a program printed, a program's
messages), and a text's code blocks made ready for the list reader: a session at a prompt holding
only what is typed, a block under the list item that labels it, shown code left out, a table of
the commands a sentence says to use as a list of them.
"""

from __future__ import annotations

import re

from procmem.answerers.clauses import is_prose, says_what_to_do
from procmem.answerers.prose import LIST_ITEM, plain_text
from procmem.extract.markdown import (
    UNTYPED,
    is_session,
    language_name,
    sentence_words,
    table_cells,
    typed_commands,
)

LABELLED = re.compile(r"^[A-Za-z][\w ()'/]{0,40}:(?:\s+\S|$)")  # "definitely lost: 48 bytes"
# a configuration file's setting: "cache = ${HOME}/.npm-packages" (an ini file's line), Exim's
# "require verify = recipient" (a verb and its option; a command types no " = ")
_SETTING = re.compile(r"^[A-Za-z_][\w.\-]*(?:\s+[A-Za-z_][\w.\-]*){0,2}(?:\[\])?\s+=\s+\S")
_NAMED = re.compile(r"^[a-z][\w.+-]*\s+-\s+[A-Z0-9]")  # a name and what it is: "ap1394 - Apple IP-over-IEEE 1394"


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


_CODE_CELL = re.compile(r"^`[^`]+`$")  # a table cell that is one command, a name or a value in code
_TABLE_CAPTION = re.compile(r"^\*\*Table\b[^*]*\*\*$", re.I)  # "**Table 9.16. List of commands for …**"
_POINTS_ON = re.compile(r"\b(?:following|these|below)\b|:$", re.I)
_COMMAND_HEADER = re.compile(r"^(?:commands?|cmdlets?|command lines?)$", re.I)  # a table's column of commands


def command_tables(text: str) -> str:
    """``text`` with each table of commands that the sentence before it says to use ("For
    disabling the screen saver, use following commands.", then "| The Linux console |
    `setterm -powersave off` |") written as a list of steps that run them
    (:func:`_command_items`). A table that only lists commands ("Here are few notable commands
    …") stays, and so does one without a column of commands."""
    lines = text.splitlines()
    out: list[str] = []
    prose = ""  # the last line of prose, a table's caption aside
    i = 0
    while i < len(lines):
        end = i
        while end < len(lines) and lines[end].lstrip().startswith("|"):
            end += 1
        if end == i:
            if lines[i].strip() and not _TABLE_CAPTION.match(lines[i].strip()):
                prose = lines[i].strip()
            out.append(lines[i])
            i += 1
            continue
        items = _command_items(lines[i:end]) if _POINTS_ON.search(prose) and says_what_to_do(prose) else []
        out += items or lines[i:end]
        prose = ""
        i = end
    return "\n".join(out)


def _command_items(table: list[str]) -> list[str]:
    """A pipe table's body rows as steps that run its commands, what the row's other cells say
    in brackets ("- Run `xset s off` (The X Window (turning off screensaver))"); none unless the
    header names one column of commands and every row has one cell of code, in that column."""
    rows = [table_cells(line) for line in table]
    column = [i for i, name in enumerate(rows[0]) if _COMMAND_HEADER.search(plain_text(name))]
    if len(column) != 1 or len(rows) < 3:
        return []
    items = []
    for cells in rows[2:]:  # past the header and the rule under it
        code = [i for i, cell in enumerate(cells) if _CODE_CELL.match(cell)]
        said = ", ".join(cell for i, cell in enumerate(cells) if i not in code and cell)
        if code != column:
            return []
        items.append(f"- Run {cells[column[0]]}" + (f" ({said})" if said else ""))
    return items


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


# a file's path as the label over the lines it holds: "/etc/postfix/main.cf:", "~/.forward:"
_FILE_LABEL = re.compile(r"^(?:~|\.{1,2})?(?:/[\w.@%+-]+)+:$")


def names_its_file(lines: list[str]) -> bool:
    """A file's lines shown under its path (:func:`is_file_text`), as Postfix's guides set what
    to write: "/etc/aliases:", then "postmaster: you" indented under it. They are what to
    write in the file, not what it printed, however much they look like labelled values."""
    return len(lines) > 1 and bool(_FILE_LABEL.match(lines[0].strip())) and is_file_text(lines)


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
    shown = sum(bool(LABELLED.match(line) or _SETTING.match(line) or _NAMED.match(line))
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
