"""Fixtures of the eval tests: real texts from the bundled sample data."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import pytest

from inscoqa.bundled import load_sample, sample_documents
from inscoqa.records import Conversation


@dataclass
class RealTexts:
    conversations: list[Conversation]
    answers: list[str]
    history_answers: list[str]
    procedures: list[str]  # each conversation's steps joined into one text
    steps: list[str]
    paragraphs: list[str]

    def pairs(self, n: int, seed: int = 0) -> list[tuple[str, str]]:
        """``n`` deterministic (candidate, reference) pairs mixing every kind of text."""
        rng = random.Random(seed)
        pools = [self.answers, self.history_answers, self.procedures, self.steps, self.paragraphs]
        return [(rng.choice(rng.choice(pools)), rng.choice(rng.choice(pools))) for _ in range(n)]


@pytest.fixture(scope="session")
def conversations() -> list[Conversation]:
    return load_sample("all")


@pytest.fixture(scope="session")
def real_texts(conversations: list[Conversation]) -> RealTexts:
    paragraphs = [
        " ".join(p.split())
        for doc in sample_documents()
        for p in re.split(r"\n\s*\n", doc.text)
        if 5 <= len(p.split()) <= 150
    ]
    return RealTexts(
        conversations=conversations,
        answers=[c.answer for c in conversations],
        history_answers=[a for c in conversations for _, a in c.history],
        procedures=[" ".join(c.procedures) for c in conversations],
        steps=[s for c in conversations for s in c.procedures],
        paragraphs=paragraphs,
    )
