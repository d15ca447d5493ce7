"""Where the user queries of a build come from: a file, or the documents' titles and headings.

A query file is plain text (one query a line, ``#`` comments) or JSONL (objects with a
``query`` field, or JSON strings). Generated queries turn each title and section heading into a
how-to question, so a team with documents and no query log can still start.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path

from inscoqa.corpus.document import Document
from inscoqa.schema import DatasetError

HEADING = re.compile(r"^#{1,3}\s+(.+?)\s*#*\s*$", re.MULTILINE)
# headings that name a part of a page rather than something to do
GENERIC = {"directions", "instructions", "steps", "method", "overview", "introduction", "about", "see also", "notes", "note", "ingredients",
           "contributors", "contributor", "more information", "related topics", "summary",
           "references", "tips", "prerequisites", "requirements", "next steps", "learn more"}
LEADS = ("how ", "what ", "why ", "when ", "where ", "which ", "can ", "do ", "does ", "is ",
         "should ")


def query_key(query: str) -> str:
    """The stable key of a query (the unit of resumption of a build)."""
    normal = " ".join(query.split()).casefold()
    return "q-" + hashlib.sha256(normal.encode("utf-8")).hexdigest()[:12]


def read_queries(path: str | Path) -> list[str]:
    """Queries from a ``.txt`` (one a line) or ``.jsonl`` file; an error names file and line."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(path, None, None, "a readable UTF-8 file of queries", got=str(exc)) from exc
    queries: list[str] = []
    jsonl = path.suffix.lower() in (".jsonl", ".json")
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or (not jsonl and text.startswith("#")):
            continue
        if jsonl:
            try:
                value = json.loads(text)
            except json.JSONDecodeError as exc:
                raise DatasetError(path, number, None, 'a JSON object {"query": ...} or a string',
                                   got=f"invalid JSON: {exc.msg}") from exc
            value = value.get("query") if isinstance(value, dict) else value
            if not isinstance(value, str) or not value.strip():
                raise DatasetError(path, number, "query", "a non-empty string")
            text = value.strip()
        queries.append(text)
    return unique(queries)


def unique(queries: Iterable[str]) -> list[str]:
    """Queries in order, each once (by :func:`query_key`)."""
    seen: dict[str, str] = {}
    for query in queries:
        seen.setdefault(query_key(query), " ".join(query.split()))
    return list(seen.values())


def as_question(phrase: str) -> str | None:
    """A title or heading as a how-to question; None for a heading that names no task."""
    text = re.sub(r"[`*_\[\]]", "", phrase).strip().rstrip(".:")
    if text.casefold() in GENERIC or not re.search(r"[A-Za-z]", text):
        return None
    if text.endswith("?"):
        return text
    if text.casefold().startswith(LEADS):
        return text[0].upper() + text[1:] + "?"
    words = text.split()
    first = words[0]
    if first.lower().endswith("ing") and len(first) > 4:  # "Connecting to a network"
        words[0] = first[:-3]
        if words[0][-1] == words[0][-2]:  # "Setting" -> "Sett" -> "Set"
            words[0] = words[0][:-1]
    # lower-case except acronyms and product names written in capitals (USB, PowerPoint)
    words = [w if (w.isupper() and len(w) > 1) or any(c.isupper() for c in w[1:]) else w.lower()
             for w in words]
    body = " ".join(words)
    if _verb_like(words[0]):
        return f"How do I {body}?"
    return f"What are the steps for {body}?"


VERBS = {"add", "change", "check", "clean", "connect", "copy", "create", "delete", "disable",
         "edit", "enable", "find", "fix", "install", "make", "manage", "move", "open", "print",
         "remove", "rename", "reset", "restore", "save", "set", "share", "sort", "start", "stop",
         "turn", "update", "use", "view", "cook", "bake", "prepare", "insert", "format", "apply",
         "choose", "select", "send", "sign", "switch", "back", "protect", "recover", "import",
         "export", "convert", "merge", "split", "hide", "show", "lock", "unlock", "adjust",
         "configure", "setup", "get", "keep", "run", "write", "read", "track", "record", "play",
         "join", "log", "upload", "download", "sync", "replace", "resize", "rotate", "crop",
         "align", "mark", "pin", "search", "filter", "schedule", "test", "troubleshoot",
         "work", "wash", "grill", "fry", "boil", "roast", "mix", "store", "serve", "cut"}


def _verb_like(word: str) -> bool:
    return word.casefold() in VERBS


def queries_from_documents(documents: Iterable[Document], *, headings: bool = True,
                           per_document: int = 3) -> list[str]:
    """How-to questions from each document's title and (up to ``per_document``) headings."""
    out: list[str] = []
    for doc in documents:
        phrases = [doc.title]
        if headings:
            phrases += HEADING.findall(doc.text)
        found: list[str] = []
        for phrase in phrases:
            question = as_question(phrase)
            if question and question not in found:
                found.append(question)
            if len(found) >= per_document:
                break
        out.extend(found)
    return unique(out)
