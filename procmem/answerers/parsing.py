"""Readers of model replies: JSON (validated, truncated JSON repaired) and the plain-text forms
that engines without constrained decoding produce.

Every reader returns plain data shaped like the matching JSON schema, or raises
:class:`ReplyParseError` naming what it expected; nothing half-read is ever returned.
"""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema

from procmem.extract.markdown import CODE_ONLY, FENCE, TITLE_ONLY, one_line

NO_UPDATE = "NO UPDATE REQUIRED"

_STEP_RE = re.compile(r"^\s*(?:\d+\s*[.):]|[-*•])\s+(.*\S)\s*$")
_NUMBERED_RE = re.compile(r"^\s*\d+\s*[.):]\s+(.*\S)\s*$")
_ITEM_START = re.compile(r"[\w`\"'“‘(\[<$~./]")  # how an item's text starts, in a code block too
_WORD = re.compile(r"\w")


class ReplyParseError(ValueError):
    """A model reply could not be read as the expected structure."""

    def __init__(self, what: str, raw: str) -> None:
        excerpt = raw.strip().replace("\n", " ")[:160]
        super().__init__(f"cannot read {what} from the reply: {excerpt!r}")
        self.what = what
        self.raw = raw


_PLACEHOLDER_RE = re.compile(r"^\s*(?:<[^<>]*>?|\.{3}|…|\[[^\]]*\]|null|none|n/a)\s*$", re.I)


def is_placeholder(text: str) -> bool:
    """A format placeholder copied instead of content (``<first step>``, ``...``), or nothing."""
    return not text.strip() or bool(_PLACEHOLDER_RE.match(text))


def _clean_label(line: str) -> str:
    """A line without markdown decoration, for label matching (``**Answer:**`` -> ``answer:``)."""
    return re.sub(r"^[#>*_\s]+|[*_]+", "", line).strip().casefold()


def _sections(text: str, labels: dict[str, tuple[str, ...]]) -> dict[str, list[str]]:
    """Split ``text`` into labelled sections; a label line may carry content after its colon."""
    found: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.splitlines():
        cleaned = _clean_label(line)
        hit = None
        for key, names in labels.items():
            for name in names:
                if cleaned.startswith(name + ":") or cleaned == name:
                    hit = key
                    rest = line.split(":", 1)[1] if ":" in line else ""
                    break
            if hit:
                break
        if hit:
            current = hit
            found.setdefault(hit, [])
            rest = re.sub(r"^[*_\s]+", "", rest).strip()
            if rest:
                found[hit].append(rest)
        elif current is not None:
            found[current].append(line)
    return found


_QUOTE_MARKS = re.compile(r"^(?:>\s?)+")  # a quote's markers at a line's start ("> **Note:** …")


def parse_steps(lines: list[str] | str, *, numbered_only: bool = False, nested: bool = True) -> list[str]:
    """Numbered (``1. x``) or bulleted (``- x``) items; continuation lines join their item (a
    title in bold with a colon); without ``nested``, an item indented under another joins it,
    after a semicolon where the item does not end a sentence ("Add the files: `a.dsc`;
    `a.orig.tar.gz`"), and items under a title in bold alone are items in its place. A paragraph
    of text at the margin (not a quoted note, nor a code block written at the margin under its
    item) ends the list's last item: lines indented after it (a code block's) are not the item's.
    An item with a code block under it reads as :func:`one_line` writes it: the block's commands
    joined as a shell takes them, without their prompts or what they print ("Delete the branch:
    `git branch -D test`")."""
    if isinstance(lines, str):
        lines = lines.splitlines()
    pattern = _NUMBERED_RE if numbered_only else _STEP_RE
    steps: list[str] = []
    indents: list[int] = []  # of each step's item
    titled = False  # the line before is a title in bold further on in a step
    fenced = False  # in a code block
    ended = False  # a paragraph at the margin ended the last item: what is indented after it is not the item's
    blank = True  # the line before is blank
    written: list[list[str]] = []  # each step's lines as written
    for line in lines:
        fenced = fenced != line.lstrip().startswith("```")
        match = pattern.match(line)
        if not match and blank and line.strip() and not line.startswith((" ", "\t", "```", ">")) and not fenced:
            ended = True  # ("Enable them in configuration files:", then a file's indented lines)
        blank = not line.strip()
        if match:
            ended = False
        if match and (fenced and not _ITEM_START.match(match.group(1)) or not _WORD.search(match.group(1))):
            # a line of code that only looks like an item: a crontab's " *  */2  *  *  *  backup",
            # or marks alone (an example's numbered line "19      . . ." for the lines it leaves out)
            match = None
        indent = len(line) - len(line.lstrip())
        if match and not nested and steps and indent > indents[-1] and TITLE_ONLY.match(steps[-1]):
            steps[-1], indents[-1] = match.group(1).strip(), indent  # a label over its items: the items
            written[-1] = [match.group(1)]
        elif match and not nested and steps and indent > indents[-1]:
            end = "" if steps[-1].endswith((":", ";", ",", ".", "!", "?")) else ";"
            steps[-1] = f"{steps[-1]}{end} {match.group(1).strip()}"
            written[-1].append(line)
        elif match:
            steps.append(match.group(1).strip())
            indents.append(indent)
            written.append([match.group(1)])
        elif steps and line.strip() and line.startswith((" ", "\t")) and not ended:
            # a title in bold, or a name in code: "**Create a Starting Point**: Click ...", "`Replaces`: Use
            # this when ..."; a title further on ends what came before it, and its text follows it after a colon
            written[-1].append(line)
            title = TITLE_ONLY.match(line.strip())
            end = (":" if TITLE_ONLY.match(steps[-1]) or CODE_ONLY.fullmatch(steps[-1]) or titled
                   else "." if title and not steps[-1].endswith((":", ";", ",", ".", "!", "?")) else "")
            steps[-1] = f"{steps[-1]}{end} {_QUOTE_MARKS.sub('', line.strip())}"  # a note set under it: its words
            titled = bool(title)
            continue
        titled = False
    steps = [one_line("\n".join(lines)) if any(FENCE.match(line) for line in lines) else step
             for step, lines in zip(steps, written, strict=True)]
    return [s for s in steps if s]


# --------------------------------------------------------------------------- protocol reply


def parse_protocol_text(text: str) -> dict[str, Any]:
    """``Answer: ...`` then ``Procedural instructions:`` with ``1. ...`` steps (both mandatory)."""
    sections = _sections(text, {
        "answer": ("answer",),
        "procedures": ("procedural instructions", "procedure", "procedures", "steps", "instructions"),
    })
    answer = " ".join(line.strip() for line in sections.get("answer", []) if line.strip())
    steps = parse_steps(sections.get("procedures", []))
    if not answer:
        raise ReplyParseError("an 'Answer:' section", text)
    if not steps:
        raise ReplyParseError("numbered 'Procedural instructions:'", text)
    return {"answer": answer, "procedures": steps}


def parse_protocol_lenient(text: str) -> dict[str, Any]:
    """Unlabelled replies: the numbered lines are the steps, the other lines the answer."""
    lines = [line for line in text.splitlines() if line.strip()]
    steps = parse_steps(lines, numbered_only=True)
    prose = [line.strip() for line in lines if not _NUMBERED_RE.match(line)]
    prose = [p for p in prose if _clean_label(p).rstrip(":") not in
             {"answer", "procedural instructions", "steps"}]
    answer = re.sub(r"^(?:\**answer\**\s*:\s*)", "", " ".join(prose), flags=re.I).strip()
    if not steps:
        raise ReplyParseError("numbered steps", text)
    return {"answer": answer or steps[0], "procedures": steps}


# --------------------------------------------------------------------------- AAG rewriting


def parse_rewrite_text(text: str, n_queries: int) -> dict[str, Any]:
    """``steps:`` bullets (an outline) then ``queries:`` bullets, capped at ``n_queries``."""
    sections = _sections(text, {"steps": ("steps", "outline"), "queries": ("queries", "questions")})
    queries = parse_steps(sections.get("queries", []))
    if not queries:
        raise ReplyParseError("'queries:' bullets", text)
    return {"steps": parse_steps(sections.get("steps", [])), "queries": queries[:n_queries]}


# --------------------------------------------------------------------------- AAG critic


def _is_no_update(text: str) -> bool:
    return re.sub(r"[^A-Z ]", "", text.upper()).split() == NO_UPDATE.split()


def parse_critic_text(text: str) -> dict[str, Any]:
    """Exactly ``NO UPDATE REQUIRED``, or bullet edits."""
    if _is_no_update(text.strip()):
        return {"verdict": NO_UPDATE, "edits": []}
    edits = parse_steps(text)
    if edits:
        return {"verdict": "EDITS", "edits": edits}
    if NO_UPDATE in text.upper():
        return {"verdict": NO_UPDATE, "edits": []}
    raise ReplyParseError(f"'{NO_UPDATE}' or bullet edits", text)


# --------------------------------------------------------------------------- standalone query


def parse_query_text(text: str) -> dict[str, Any]:
    """``Query: ...`` or else the first non-empty line."""
    sections = _sections(text, {"query": ("query", "standalone query", "search query")})
    lines = sections.get("query") or [line for line in text.splitlines() if line.strip()][:1]
    query = " ".join(line.strip() for line in lines).strip().strip('"').strip()
    if not query:
        raise ReplyParseError("a query", text)
    return {"query": query}


# --------------------------------------------------------------------------- JSON


def _close_json(text: str) -> str:
    """``text`` with an open string and every open bracket closed."""
    stack: list[str] = []
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            stack.append("]" if char == "[" else "}")
        elif char in "]}" and stack:
            stack.pop()
    out = text + ('\\"' if escaped else "") + ('"' if in_string else "")
    out = re.sub(r"[,:\s]+$", "", out)
    return out + "".join(reversed(stack))


def repair_json(raw: str, schema: dict[str, Any]) -> Any:
    """Read a reply that strict JSON rejects: raw control characters in strings, or cut off by
    the token limit (closed, or cut back to an earlier comma).

    Returns schema-valid data or raises :class:`ReplyParseError`.
    """
    text = raw.strip()
    start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
    if start < 0:
        raise ReplyParseError("JSON", raw)
    text = text[start:]
    candidates = [text] + [text[:i] for i in range(len(text) - 1, 0, -1) if text[i] == ","][:40]
    for candidate in candidates:
        try:
            data = fit_to_schema(json.loads(_close_json(candidate), strict=False), schema)
            jsonschema.validate(data, schema)
        except (json.JSONDecodeError, jsonschema.ValidationError):
            continue
        return data
    raise ReplyParseError("JSON matching the schema", raw)


_BOUND_RE = re.compile(r"\{(\d+),(\d+)\}\$$")


def fit_to_schema(data: Any, schema: dict[str, Any]) -> Any:
    """Read data trimmed to a schema's caps, so that a long but well-formed reply is not
    rejected: items beyond ``maxItems`` and unknown keys dropped, strings made one line (quotes
    and backslashes replaced when a pattern forbids them) and cut to their bound."""
    kind = schema.get("type")
    if kind == "object" and isinstance(data, dict):
        props = schema.get("properties", {})
        closed = schema.get("additionalProperties") is False
        return {k: fit_to_schema(v, props[k]) if k in props else v
                for k, v in data.items() if k in props or not closed}
    if kind == "array" and isinstance(data, list):
        item_schema = schema.get("items", {})
        items = [fit_to_schema(v, item_schema) for v in data]
        if item_schema.get("type") == "string":  # drop strings the item schema still rejects
            valid = jsonschema.Draft202012Validator(item_schema).is_valid
            items = [v for v in items if valid(v)]
        return items[: schema["maxItems"]] if "maxItems" in schema else items
    if kind == "string" and isinstance(data, str):
        limit = schema.get("maxLength")
        if "pattern" in schema:
            data = re.sub(r"[\x00-\x1f]+", " ", data).replace('"', "'").replace("\\", "/").strip()
            bound = _BOUND_RE.search(schema["pattern"])
            limit = int(bound.group(2)) if bound else limit
        return data[:limit] if limit else data
    return data
