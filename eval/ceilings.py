"""How far an answer copied from the documents can go on the lexical figures.

Reference answers are written afresh from several documents, so even a perfect extractive answer
cannot match them word for word. These ceilings measure that limit on a conversation's own
documents, with the reference in hand (an oracle no answerer has):

* :func:`step_coverage_ceiling`: the step coverage of an answer whose steps were every passage of
  the documents (each line, and each sentence of a line);
* :func:`plain_answer_ceiling`: the best W-ROUGE-L F1 against the reference answer of one or two
  of the documents' sentences, as long as a plain answer is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from eval.rouge import rouge_l_batch
from eval.step_coverage import step_coverage
from procmem.extract.markdown import FENCE, LINK, split_sentences

_MARKER = re.compile(r"^\s*(?:#{1,6}|\d{1,3}[.)]|[-*+>|])\s+")  # a heading's, a list item's, a quote's or a table row's
PLAIN_SENTENCE_WORDS = (4, 60)  # the sentences a plain answer may be made of
PAIRED = 25  # the best single sentences among which the best pair is sought


def passages(markdown: str) -> list[str]:
    """Every candidate step a document offers: each non-blank line (list marker, heading mark and
    link targets dropped) and, when a line holds several sentences, each of them."""
    found: list[str] = []
    for line in markdown.splitlines():
        if FENCE.match(line):
            continue
        text = LINK.sub(r"\g<label>", _MARKER.sub("", line)).strip()
        if not text:
            continue
        found.append(text)
        sentences = [s.strip() for s in split_sentences(text) if s.strip()]
        if len(sentences) > 1:
            found.extend(sentences)
    return found


def step_coverage_ceiling(reference: list[str], documents: Iterable[str]) -> float:
    """The step coverage of an answer whose steps were every passage of ``documents`` (Markdown):
    the most an answer that copies the documents' lines or sentences can reach."""
    return step_coverage([p for text in documents for p in passages(text)], reference)


def plain_answer_ceiling(reference: str, documents: Iterable[str]) -> float:
    """The best word-level ROUGE-L F1 against ``reference`` of one passage of ``documents`` of
    :data:`PLAIN_SENTENCE_WORDS` words, or of two of them in either order (the pair sought among
    the :data:`PAIRED` best alone)."""
    low, high = PLAIN_SENTENCE_WORDS
    pool = list(dict.fromkeys(p for text in documents for p in passages(text) if low <= len(p.split()) <= high))
    if not pool or not reference.strip():
        return 0.0
    alone = [s.fmeasure for s in rouge_l_batch(pool, [reference] * len(pool))]
    best = sorted(range(len(pool)), key=lambda i: -alone[i])[:PAIRED]
    pairs = [f"{pool[i]} {pool[j]}" for i in best for j in best if i != j]
    together = [s.fmeasure for s in rouge_l_batch(pairs, [reference] * len(pairs))] if pairs else []
    return max([*alone, *together])
