"""Helpers shared by the readers: decoding, YAML front matter, dates and Markdown tidying."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from inscoqa.corpus.document import DocumentError

_FRONT_MATTER_END = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)
_FENCE = re.compile(r"^ *(```+|~~~+)")
_US_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")


def read_text(path: Path, *, declared: Callable[[bytes], str | None] | None = None) -> str:
    """The file's text as UTF-8 (a BOM is dropped). A file that is not UTF-8 is read in the
    encoding it declares, where ``declared`` finds one in its bytes (an HTML page's charset);
    otherwise, or when that fails too, it is a DocumentError."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentError(path, f"cannot read file: {exc.strerror or exc}") from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        problem = f"not UTF-8 text (byte {exc.start}, line {line})"
        encoding = declared(data) if declared else None
        if encoding is None:
            raise DocumentError(path, problem) from exc
        try:
            text = data.decode(encoding)
        except (LookupError, UnicodeDecodeError):
            raise DocumentError(path, f"{problem}, nor {encoding}") from exc
    return text.replace("\r\n", "\n").replace("\r", "\n")


def split_front_matter(text: str, path: Path) -> tuple[dict[str, Any], str, int]:
    """Split ``---`` YAML front matter from the body: ``(fields, body, body_start_line)``."""
    if not text.startswith("---\n"):
        return {}, text, 1
    end = _FRONT_MATTER_END.search(text, 4)
    if end is None:
        raise DocumentError(path, "front matter opened with '---' on line 1 is never closed")
    raw = text[4 : end.start()]
    try:
        fields = _load_yaml(raw)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 2}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise DocumentError(path, f"invalid YAML front matter{where}: {problem}") from exc
    if not isinstance(fields, dict):
        raise DocumentError(path, "front matter is not a mapping of fields")
    body = text[end.end() :].lstrip("\n")
    body_line = text[: len(text) - len(body)].count("\n") + 1
    return {str(k): plain_value(v) for k, v in fields.items()}, body, body_line


def _load_yaml(raw: str) -> Any:
    """YAML, forgiving the common hand-edit of a tab after ``key:`` (YAML forbids tabs there)."""
    if not raw.strip():
        return {}
    try:
        return yaml.safe_load(raw)
    except yaml.YAMLError:
        relaxed = re.sub(r"^([\w.-]+:)\t+", r"\1 ", raw, flags=re.MULTILINE)
        if relaxed == raw:
            raise
        return yaml.safe_load(relaxed)


def plain_value(value: Any) -> Any:
    """Front-matter values made JSON-friendly (dates become ISO strings)."""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, list):
        return [plain_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain_value(v) for k, v in value.items()}
    return value


def iso_date(value: Any) -> str | None:
    """An ISO ``YYYY-MM-DD`` date from front-matter styles (``2024-01-24``, ``01/24/2024``)."""
    if value is None:
        return None
    text = str(value).strip()
    us = _US_DATE.match(text)
    if us:
        month, day, year = (int(g) for g in us.groups())
        try:
            return dt.date(year, month, day).isoformat()
        except ValueError:
            return text
    return text[:10] if re.match(r"^\d{4}-\d{2}-\d{2}", text) else text or None


def map_outside_code(text: str, transform: Any) -> str:
    """Apply ``transform`` to the prose of a Markdown text, leaving fenced code blocks as they are.

    A fence opened inside an indented list item also ends where that item ends (a non-blank line
    indented less than the fence), as in CommonMark, so one unclosed fence cannot swallow the rest.
    """
    out: list[str] = []
    prose: list[str] = []
    fence: str | None = None
    fence_indent = 0
    for line in text.split("\n"):
        indent = len(line) - len(line.lstrip(" "))
        if fence is not None and line.strip() and indent < fence_indent:
            fence = None
        match = _FENCE.match(line)
        if fence is None and match:
            out.append(transform("\n".join(prose)))
            prose = []
            fence, fence_indent = match.group(1), indent
            out.append(line)
        elif fence is not None:
            out.append(line)
            if match and match.group(1) == fence and not line.strip().lstrip("`~"):
                fence = None
        else:
            prose.append(line)
    out.append(transform("\n".join(prose)))
    return "\n".join(out)


# a heading that only labels a note (DocBook's <h3 class="title">Note</h3>, a text's "Note" line)
NOTE_LABELS = "note|tip|hint|warning|important|caution|attention"  # the words that label a note
# a note's label as a heading, or as a line of its own (Sphinx's admonition title: "Warning")
_NOTE_HEADING = re.compile(rf"^(?:#{{1,6}}\s+)?\**({NOTE_LABELS})\**:?\s*$", re.I)
_BLOCK_START = re.compile(r"^(?:#|>|\||\s{4}|\s*(?:\d{1,3}[.)]|[-*+])\s)")


def notes_as_quotes(markdown: str, *, wrapped: bool = True) -> str:
    """A heading or a line that only says "Note" (or "Warning", "Tip", ...) and the paragraph under it as a
    quote that opens with the label ("> **Note:** ..."), as the readers give any note: what
    follows the note belongs to the section again, not to a section called "Note". ("Notes" is
    a reference page's section, as its man page has NOTES.) With ``wrapped`` a paragraph is its
    lines up to a blank one (plain text wraps it); without, it is one line (as the HTML reader
    writes a paragraph, and the next line may be the next paragraph, in a list item)."""

    def quote(prose: str) -> str:
        lines = prose.split("\n")
        out: list[str] = []
        i = 0
        while i < len(lines):
            m = _NOTE_HEADING.match(lines[i])
            j = next((k for k in range(i + 1, len(lines)) if lines[k].strip()), len(lines))
            end = next((k for k in range(j, len(lines)) if not lines[k].strip()), len(lines)) if wrapped else j + 1
            if m and j < len(lines) and not _BLOCK_START.match(lines[j]):
                label = m.group(1).capitalize()
                out += [f"> **{label}:** {lines[j].strip()}", *(f"> {x.strip()}" for x in lines[j + 1 : end])]
                i = end
                continue
            out.append(lines[i])
            i += 1
        return "\n".join(out)

    return map_outside_code(markdown, quote)


def tidy_markdown(text: str) -> str:
    """Trailing spaces off, tabs to spaces, at most one blank line in a row, one final newline."""
    lines = [line.replace("\t", "    ").rstrip() for line in text.split("\n")]
    out: list[str] = []
    for line in lines:
        if not line and (not out or not out[-1]):
            continue
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n" if out else ""


def flush_running_text(loose: list[str], out: list[str]) -> None:
    """The running text gathered between an XML element's blocks (``loose``) as one more block
    of ``out``, spaces collapsed; ``loose`` is emptied."""
    text = collapse_spaces("".join(loose))
    if text:
        out.append(text)
    loose.clear()


def pipe_table(rows: list[list[str]]) -> str:
    """Rows of cell texts as a Markdown pipe table: the first row is its header, a short row is
    padded with empty cells, and a "|" in a cell is escaped."""
    width = max(len(r) for r in rows)
    rows = [[cell.replace("|", "\\|") for cell in r] + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
    lines.extend("| " + " | ".join(r) + " |" for r in rows[1:])
    return "\n".join(lines)


def quoted_note(label: str, body: list[str]) -> str:
    """A note's blocks as the readers give every note: a quote that opens with its label
    ("> **Warning:** …")."""
    lines = [f"> **{label}:** {body[0]}".replace("\n", "\n> ")]
    lines.extend("> " + b.replace("\n", "\n> ") for b in body[1:])
    return "\n>\n".join(lines)


def collapse_spaces(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# the label that Sphinx's directives of a version or a pointer put before their text
SPHINX_LABELS = {"versionadded": "New in version {}", "versionchanged": "Changed in version {}",
                 "deprecated": "Deprecated since version {}", "seealso": "See also"}
# Sphinx roles whose text is code (in reStructuredText ``:command:`pip```, in MyST
# ``{command}`pip```): commands, options, files, the names of a programming language's objects
_CODE_ROLES = re.compile(r"^(?:[\w.+-]+:)?(?:command|program|option|envvar|file|samp|kbd|makevar|class|func|"
                         r"meth|mod|attr|data|exc|obj|const|var|member|type|macro|confval|setting|"
                         r"directive|role|pypi|code|literal)$")
_ROLE_TARGET = re.compile(r"\s*<[^<>]*>$")  # "Installing <install>": the title shown, not the target


def role_text(name: str, text: str) -> tuple[str, bool]:
    """What a Sphinx role shows, and whether it is code: ``ref`` with ``Installing <install>``
    shows "Installing"; ``command`` with ``pip`` the code ``pip`` (without the "~" and "!"
    markers of a cross-reference)."""
    shown = (_ROLE_TARGET.sub("", text) or text).lstrip("~!")
    return shown, bool(_CODE_ROLES.match(name))
