"""What a user quotes (an error message, a dialog's text, a status code) and the documents that hold it.

A user who pastes the message they got wants the page that quotes it: a search lifts the
documents whose retrieved units hold the quoted passages to the front (:func:`quoting_first`),
and the extractive answerer scores their units higher. A code of dotted numbers ("5.7.57") is
such a quote with or without quote marks: the pages that name it come first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from rapidfuzz import fuzz

from procmem.retrieval.bm25 import DOTTED_CODE

# text in quotes: "...", “...”, or '...' whose quote marks are not apostrophes (don't)
QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|(?<!\w)'(.+?)'(?!\w)")
ELLIPSIS = re.compile(r"\.{3,}|…")
MIN_QUOTE_WORDS = 3  # shorter quotes are mostly labels ('Anyone'), found by the words anyway
QUOTE_SHARE = 0.6  # a document holds the quotes when it holds this share of the quoted words ...
QUOTE_SIMILARITY = 90.0  # ... each word for word, or near enough (rapidfuzz partial ratio)
_LINK_TARGET = re.compile(r"\]\([^)\s]*\)")  # a Markdown link's target: "[text](url)"
_NOT_WORD = re.compile(r"[^a-z0-9]+")


def quoted_fragments(text: str) -> list[str]:
    """The quoted passages of ``text`` of at least :data:`MIN_QUOTE_WORDS` words, split where
    the user left something out ("... couldn't be attached: ... Please try again later.")."""
    found = []
    for match in QUOTED.finditer(text):
        passage = next(g for g in match.groups() if g is not None)
        for part in ELLIPSIS.split(passage):
            part = " ".join(part.split()).strip(" :;,")
            if len(part.split()) >= MIN_QUOTE_WORDS and part not in found:
                found.append(part)
    return found


def _words(text: str) -> str:
    """``text`` as its words alone, in lower case: punctuation, markup and link targets aside."""
    return " ".join(_NOT_WORD.split(_LINK_TARGET.sub("]", text).casefold())).strip()


def documents_quoting(texts: dict[str, list[str]], quotes: Sequence[str]) -> set[str]:
    """The documents (``texts``: each one's texts, such as its retrieved units) that together
    hold the quoted passages: at least :data:`QUOTE_SHARE` of their words, word for word once
    punctuation and markup are set aside, or near enough for a paraphrased apostrophe."""
    wanted = [(_words(q), len(q.split())) for q in quotes]
    total = sum(n for _, n in wanted)
    if not total:
        return set()
    found = set()
    for doc_id, parts in texts.items():
        text = " ".join(_words(part) for part in parts)
        held = sum(n for q, n in wanted if q in text or fuzz.partial_ratio(q, text) >= QUOTE_SIMILARITY)
        if held >= QUOTE_SHARE * total:
            found.add(doc_id)
    return found


def named_codes(text: str) -> list[str]:
    """The codes of dotted numbers ``text`` names (:data:`DOTTED_CODE`: "5.7.57", "4.4.0")."""
    return list(dict.fromkeys(DOTTED_CODE.findall(text)))


def documents_naming(texts: dict[str, list[str]], codes: Sequence[str]) -> set[str]:
    """The documents (``texts``: each one's texts) that name every one of ``codes`` whole:
    "5.7.13" is not named by a page on "5.7.133", nor "4.4.0" by one on "4.4.0.1"."""
    if not codes:
        return set()
    wanted = [re.compile(rf"(?<![\w.]){re.escape(code)}(?!\w|\.\d)") for code in codes]
    return {doc_id for doc_id, parts in texts.items()
            if all(any(code.search(part) for part in parts) for code in wanted)}


Found = TypeVar("Found")


def quoting_first(found: list[Found], quotes: Sequence[str], doc_id: Callable[[Found], str],
                  text: Callable[[Found], str], codes: Sequence[str] = ()) -> list[Found]:
    """``found`` (best first) with the best result of each document that holds the ``quotes``
    (:func:`documents_quoting`, over that document's results) or names the ``codes``
    (:func:`documents_naming`) first, in their order; the other results keep theirs."""
    if not (quotes or codes) or not found:
        return found
    texts: dict[str, list[str]] = {}
    for item in found:
        texts.setdefault(doc_id(item), []).append(text(item))
    quoting = documents_quoting(texts, quotes) | documents_naming(texts, codes)
    first: dict[str, int] = {}  # a quoting document: the place of its best result
    for place, item in enumerate(found):
        if doc_id(item) in quoting:
            first.setdefault(doc_id(item), place)
    lifted = set(first.values())
    return [found[place] for place in first.values()] + [item for place, item in enumerate(found) if place not in lifted]
