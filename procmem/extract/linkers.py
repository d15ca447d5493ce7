"""Linkers from wording and links: how to go on after a unit (THREAD's ``if <outcome> then <next>``).

- ``If <failure>, <next>`` ("if that doesn't work", "if the problem persists", "if it still ...")
  and ``If <x>, then <y>`` give CONTINUE linkers; ``Otherwise, <next>`` negates the sentence before.
- A ``<next>`` that escalates (contact support, an administrator, a community forum, "Still need
  help?") gives MITIGATE.
- A link to another document gives CROSS with ``target`` = that document's id (relative Markdown
  paths and Mallard page ids are resolved; other addresses are kept as they are); a link to an
  anchor in the same document gives CONTINUE with ``target`` = the header of the unit there.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

from procmem.extract.markdown import LINK, one_line, strip_inline
from procmem.units import Linker

FAILURE = re.compile(
    r"\b(?:doesn'?t|does not|didn'?t|did not|won'?t|will not|can'?t|cannot|isn'?t|is not|aren'?t|"
    r"are not|wasn'?t|fails?|failed|persists?|continues?|still|unavailable|unable)\b"
    r"|\bnot (?:resolved|fixed|solved|work)",
    re.I,
)
ESCALATE = re.compile(
    r"\b(?:contact|call|ask|escalate)\b.{0,60}\b(?:support|administrator|admin|help ?desk|"
    r"microsoft|vendor|manufacturer)\b|still need help|\bcommunity\b|\bforums?\b|"
    r"open a (?:support )?(?:ticket|case|request)",
    re.I,
)
NAVIGATE = re.compile(r"^(?:see|go to|try|refer to|continue|skip|repeat|return|use|run|follow|restart)\b",
                      re.I)
IF_CLAUSE = re.compile(
    r"(?:^|\b)if\s+(?P<cond>[^,]{2,200}?(?:,\s*(?:or|and)\s+(?:if\s+)?[^,]{2,200}?)*)\s*,\s*"
    r"(?P<then>then\s+)?(?P<next>.+)$",
    re.I,
)
OTHERWISE = re.compile(r"^otherwise,?\s+(?P<next>.+)$", re.I)
NEXT_ALTERNATIVE = re.compile(r"\bnext (?:method|solution|option|resolution|workaround|step)\b", re.I)
STILL_NEED_HELP = re.compile(r"still need help[^?]*\?\s*(?P<next>[^.]*)", re.I)
STILL_NEED_HELP_LINE = re.compile(r"still need help\?[^\n]*", re.I)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\[*_`\"])")
VAGUE_CONDITION = {"so", "not", "yes", "no", "none", "this is the case", "it is"}


def anchor_slug(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading (lower case, punctuation dropped)."""
    text = strip_inline(heading).lower()
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"\s", "-", text.strip())


def resolve_link(doc_id: str, target: str) -> tuple[str, str]:
    """``(kind, where)`` with kind ``anchor``, ``document`` (a corpus doc id) or ``external``.

    Relative paths resolve against the document's folder, site-absolute paths (``/x/y``) against
    its corpus root, Mallard page ids to ``<corpus>/<id>.page``.
    """
    target = target.strip().strip("<>")
    if target.startswith("#"):
        return "anchor", target[1:]
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("//"):
        return "external", target
    path = target.split("#", 1)[0].split("?", 1)[0]
    if not path:
        return "external", target
    corpus, _, inner = doc_id.partition("/")
    if path.startswith("/"):  # site-absolute: the corpus root is the site root
        path = posixpath.relpath(posixpath.join(corpus, path.lstrip("/")), posixpath.dirname(doc_id))
    if doc_id.endswith(".page"):  # Mallard: links name page ids in the same folder
        folder = posixpath.dirname(inner)
        name = path if path.endswith(".page") else f"{path}.page"
        return "document", posixpath.normpath(posixpath.join(corpus, folder, name))
    if not posixpath.splitext(path)[1] and doc_id.endswith(".md"):
        path += ".md"
    return "document", posixpath.normpath(posixpath.join(posixpath.dirname(doc_id), path))


def sentences(markdown: str) -> list[str]:
    """Sentences of a body, one per list item or paragraph at least, links kept as Markdown."""
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n|\n(?=\s*(?:\d+[.)]|[-*+])\s)", markdown):
        line = " ".join(x.strip().lstrip(">").strip() for x in paragraph.splitlines() if x.strip())
        line = re.sub(r"^(?:\d+[.)]|[-*+])\s+", "", line)
        out += [s.strip() for s in SENTENCE_END.split(line) if s.strip()]
    return out


def find_linkers(body: str, *, doc_id: str, anchors: Mapping[str, str] | None = None,
                 next_header: str = "") -> list[Linker]:
    """All linkers a unit body implies (deduplicated, in reading order)."""
    anchors = anchors or {}
    found: list[Linker] = []
    used_links: set[str] = set()
    previous = ""
    all_sentences = sentences(body)
    for i, sentence_md in enumerate(all_sentences):
        plain = strip_inline(sentence_md)
        if re.search(r"(?:following \w+|below)\s*:?$|:$", plain) and i + 1 < len(all_sentences):
            plain = f"{plain.rstrip(':')}: {one_line(all_sentences[i + 1], max_words=30)}"
        link = _first_link(sentence_md, doc_id, anchors)
        linker = _conditional(plain, previous, link, next_header)
        if linker is not None:
            found.append(linker)
            if link:
                used_links.add(link[2])
        previous = plain
    links_body = STILL_NEED_HELP_LINE.sub("", body)
    for match in LINK.finditer(links_body):
        label, target = strip_inline(match.group("label")), match.group("target")
        if not label or target in used_links or links_body[max(0, match.start() - 1)] == "!":
            continue
        kind, where = resolve_link(doc_id, target)
        if kind == "anchor":
            found.append(Linker(f"you need details on {label}", label, "CONTINUE",
                                anchors.get(where, where)))
        else:
            found.append(Linker(f"you need details on {label}", label, "CROSS", where))
        used_links.add(target)
    for match in STILL_NEED_HELP.finditer(strip_inline(body)):
        found.append(Linker("the problem is still not solved",
                            match.group("next").strip() or "ask for support", "MITIGATE"))
    return _dedupe(found)


def _first_link(sentence_md: str, doc_id: str, anchors: Mapping[str, str]) -> tuple[str, str, str] | None:
    """``(tag, target, raw target)`` of the first link in a sentence."""
    match = LINK.search(sentence_md)
    if not match:
        return None
    kind, where = resolve_link(doc_id, match.group("target"))
    if kind == "anchor":
        return "CONTINUE", anchors.get(where, where), match.group("target")
    return "CROSS", where, match.group("target")


def _conditional(plain: str, previous: str, link: tuple[str, str, str] | None,
                 next_header: str) -> Linker | None:
    if STILL_NEED_HELP.search(plain):
        return None  # handled once for the whole body
    condition = nxt = ""
    explicit = False
    if m := IF_CLAUSE.search(plain):
        condition, nxt, explicit = m.group("cond"), m.group("next"), bool(m.group("then"))
        if condition.lower().strip() in VAGUE_CONDITION and previous:
            condition = f"{condition} ({one_line(previous, max_words=20)})"
    elif m := OTHERWISE.match(plain):
        condition = _negate(previous)
        nxt, explicit = m.group("next"), True
    elif ESCALATE.search(plain) and re.search(r"\b(?:contact|call|ask)\b", plain, re.I):
        return Linker("the problem persists", _clean(plain), "MITIGATE")
    else:
        return None
    nxt = _clean(nxt)
    wanted = explicit or FAILURE.search(condition) or NAVIGATE.match(nxt) or link is not None
    if not wanted or not nxt:
        return None
    if ESCALATE.search(nxt):
        return Linker(_clean(condition), nxt, "MITIGATE", link[1] if link else "")
    if link is not None:
        return Linker(_clean(condition), nxt, link[0], link[1])
    target = next_header if NEXT_ALTERNATIVE.search(nxt) else ""
    return Linker(_clean(condition), nxt, "CONTINUE", target)


def _negate(previous: str) -> str:
    if re.search(r"\b(?:resolved|fixed|solved|works?)\b", previous, re.I):
        return "the issue is not resolved"
    return f"not: {_clean(previous)}" if previous else "otherwise"


def _clean(text: str, max_words: int = 40) -> str:
    words = text.strip().rstrip(".:;").split()
    return " ".join(words[:max_words]) + (" ..." if len(words) > max_words else "")


def _dedupe(linkers: list[Linker]) -> list[Linker]:
    seen: set[tuple[str, str, str, str]] = set()
    out = []
    for link in linkers:
        key = (link.condition.lower(), link.next.lower(), link.tag, link.target)
        if key not in seen:
            seen.add(key)
            out.append(link)
    return out
