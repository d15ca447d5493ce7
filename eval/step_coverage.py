"""Step coverage: how many of a reference answer's steps an answer's steps match, and the most that
any answer built from the documents' own words could match.

A reference step is *covered* when one of the answer's steps holds at least half of its words in
order (word-level ROUGE-L recall >= 0.5). Reference steps are often written afresh from several
sentences of a page, so even a perfect extractive answer cannot cover them all:
:func:`extraction_ceiling` measures that limit by offering every line of the conversation's
documents, and every sentence of each line, as a candidate step.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from eval.rouge import rouge_l_batch

STEP_MATCH_RECALL = 0.5
CITATION = re.compile(r"\s*\[\d+\]$")  # a step's trailing "[2]": which source it cites, not what to do

_MARKER = re.compile(r"^\s*(?:#{1,6}|\d{1,3}[.)]|[-*+>|])\s+")
_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")
_FENCE = re.compile(r"^\s*(```|~~~)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(`])")


def step_coverage(steps: list[str], reference: list[str]) -> float:
    """The share of ``reference`` steps that some step of ``steps`` covers (citations ignored)."""
    if not reference or not steps:
        return 0.0
    plain = [CITATION.sub("", s) for s in steps]
    scores = rouge_l_batch([c for _ in reference for c in plain], [r for r in reference for _ in plain])
    best = [max(s.recall for s in scores[i * len(plain):(i + 1) * len(plain)]) for i in range(len(reference))]
    return sum(b >= STEP_MATCH_RECALL for b in best) / len(reference)


def passages(markdown: str) -> list[str]:
    """Every candidate step a document offers: each non-blank line (list marker, heading mark and
    link targets dropped) and, when a line holds several sentences, each of them."""
    found: list[str] = []
    for line in markdown.splitlines():
        if _FENCE.match(line):
            continue
        text = _LINK.sub(r"\1", _MARKER.sub("", line)).strip()
        if not text:
            continue
        found.append(text)
        sentences = [s for s in _SENTENCE_END.split(text) if s.strip()]
        if len(sentences) > 1:
            found.extend(sentences)
    return found


def extraction_ceiling(reference: list[str], documents: Iterable[str]) -> float:
    """The step coverage of an answer whose steps were every passage of ``documents`` (Markdown):
    the most an answer that copies the documents' lines or sentences can reach."""
    return step_coverage([p for text in documents for p in passages(text)], reference)
