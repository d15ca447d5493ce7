"""Lexical retrieval with bm25s: English stop words removed, Snowball (PyStemmer) stemming."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import bm25s
import numpy as np
import Stemmer
from bm25s.stopwords import STOPWORDS_EN

TOKEN = re.compile(r"(?u)\b\w\w+\b")
STOPWORDS = frozenset(STOPWORDS_EN)
TOKENIZER_NAME = "regex-w2+/stopwords-en/snowball-english"


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens of two characters or more, stop words dropped, stemmed."""
    words = [w for w in TOKEN.findall(text.lower()) if w not in STOPWORDS]
    return _stemmer().stemWords(words)


class BM25Index:
    """A bm25s index over one kind of unit; rows are in the order of the texts given."""

    def __init__(self, model: bm25s.BM25, size: int):
        self.model = model
        self.size = size

    @classmethod
    def build(cls, token_lists: list[list[str]]) -> BM25Index:
        model = bm25s.BM25()
        model.index(token_lists if token_lists else [[]], show_progress=False)
        return cls(model, len(token_lists))

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        """BM25 score of every row (0 where no query term occurs)."""
        if self.size == 0:
            return np.zeros(0, dtype=np.float32)
        known = [t for t in query_tokens if t in self.model.vocab_dict]
        if not known:
            return np.zeros(self.size, dtype=np.float32)
        return np.asarray(self.model.get_scores(known), dtype=np.float32)[: self.size]

    def save(self, directory: Path) -> None:
        self.model.save(str(directory), show_progress=False)

    @classmethod
    def load(cls, directory: Path, size: int) -> BM25Index:
        model = bm25s.BM25.load(str(directory), show_progress=False, verbosity=0)
        return cls(model, size)
