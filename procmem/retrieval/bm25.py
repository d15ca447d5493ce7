"""Lexical retrieval with bm25s: English stop words removed, Snowball (PyStemmer) stemming after
irregular verb forms are brought to their base ("hidden": "hide"); a name joined with
underscores (``html_logo_url``) is a token and so is each of its words."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import bm25s
import numpy as np
import Stemmer
from bm25s.stopwords import STOPWORDS_EN

from procmem.retrieval.verbs import BASE_FORM

TOKEN = re.compile(r"(?u)\b\w\w+\b")
STOPWORDS = frozenset(STOPWORDS_EN)
TOKENIZER_NAME = "regex-w2+/underscore-parts/stopwords-en/irregular-verbs/snowball-english"


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


def words(text: str) -> list[str]:
    """Lower-cased words of two characters or more, stop words dropped; after a name joined with
    underscores, its own words ("html_logo_url", "html", "logo", "url": the question says "logo")."""
    found: list[str] = []
    for word in TOKEN.findall(text.lower()):
        if word not in STOPWORDS:
            found.append(word)
        if "_" in word.strip("_"):
            found += [part for part in word.split("_") if len(part) >= 2 and part not in STOPWORDS]
    return found


def stems(found: list[str]) -> list[str]:
    """The Snowball stem of each word, an irregular verb form's that of its base form."""
    return _stemmer().stemWords([BASE_FORM.get(word, word) for word in found])


def tokenize(text: str) -> list[str]:
    """The stems of :func:`words`."""
    return stems(words(text))


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
