"""Step coverage: how many of a reference answer's steps an answer's steps match.

A reference step is *covered* when one of the answer's steps holds at least half of its words in
order (word-level ROUGE-L recall >= 0.5). :mod:`eval.ceilings` measures how much of it an answer
copied from the documents could reach.
"""

from __future__ import annotations

import re

from eval.rouge import rouge_l_batch

STEP_MATCH_RECALL = 0.5
CITATION = re.compile(r"\s*\[\d+\]$")  # a step's trailing "[2]": which source it cites, not what to do


def step_coverage(steps: list[str], reference: list[str]) -> float:
    """The share of ``reference`` steps that some step of ``steps`` covers (citations ignored)."""
    if not reference or not steps:
        return 0.0
    plain = [CITATION.sub("", s) for s in steps]
    scores = rouge_l_batch([c for _ in reference for c in plain], [r for r in reference for _ in plain])
    best = [max(s.recall for s in scores[i * len(plain):(i + 1) * len(plain)]) for i in range(len(reference))]
    return sum(b >= STEP_MATCH_RECALL for b in best) / len(reference)
