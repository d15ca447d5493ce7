"""ROUGE-L (longest common subsequence) at word and character level.

Word level reproduces Google's ``rouge-score`` package (``RougeScorer(["rougeL"])``) exactly:

* tokens: the text lower-cased, every run of characters outside ``[a-z0-9]`` treated as a
  separator, empty tokens dropped (``rouge_score.tokenize.tokenize``); with ``stemmer=True``
  tokens longer than 3 characters go through NLTK's Porter stemmer, as ``use_stemmer=True`` does;
* precision = LCS / candidate tokens, recall = LCS / reference tokens, and
  F = (1 + beta^2) * P * R / (beta^2 * P + R), which for beta = 1 is rouge-score's
  ``2 * P * R / (P + R)`` bit for bit; all three are 0 when either side has no tokens.

Character level compares the characters of each text with all whitespace removed, keeping case
and punctuation. It therefore captures word form and punctuation and works for text written
without spaces (Chinese, Japanese), where the word tokenizer above finds no tokens at all.

The LCS length comes from rapidfuzz's C++ ``LCSseq`` (bit-parallel), never from a Python
dynamic program. Word tokens are mapped to private code points so that a token sequence becomes
a plain ``str`` and the LCS of two token sequences is the LCS of two strings, with no hashing
(hence no collisions). Batches tokenize each distinct text once and score all pairs in one
``rapidfuzz.process.cpdist`` call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import chain
from typing import Literal, NamedTuple

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import LCSseq

Level = Literal["word", "char"]

_TOKEN_RE = re.compile(r"[a-z0-9]+")
_NON_ALNUM_RE = re.compile(r"[^a-z0-9]+")
_VALID_TOKEN_RE = re.compile(r"^[a-z0-9]+$")
_SURROGATES = range(0xD800, 0xE000)
# Distinct tokens one vocabulary can map to code points (all of Unicode minus surrogates).
_MAX_VOCAB = 0x110000 - len(_SURROGATES)


class RougeScore(NamedTuple):
    precision: float
    recall: float
    fmeasure: float


ZERO = RougeScore(0.0, 0.0, 0.0)


# ---------------------------------------------------------------------------------------------
# Tokenization


@lru_cache(maxsize=1)
def _porter() -> Callable[[str], str]:
    from nltk.stem import porter

    stem = porter.PorterStemmer().stem
    return lru_cache(maxsize=65536)(stem)


def tokenize(text: str, *, stemmer: bool = False) -> list[str]:
    """Word tokens exactly as ``rouge_score``'s default tokenizer produces them."""
    if not stemmer:
        # Same result as lower -> non-alnum runs to spaces -> split -> drop empty tokens.
        return _TOKEN_RE.findall(text.lower())
    stem = _porter()
    tokens = _NON_ALNUM_RE.sub(" ", text.lower()).split()
    stemmed = [stem(t) if len(t) > 3 else t for t in tokens]
    return [t for t in stemmed if _VALID_TOKEN_RE.match(t)]


def char_units(text: str) -> str:
    """The characters ROUGE-L compares at character level: the text without whitespace."""
    return "".join(text.split())


def _ascii_tokens(text: str) -> list[bytes]:
    """:func:`tokenize` without stemming, as bytes, in a few C-level passes.

    Every character outside ``[a-z0-9]`` after lower-casing is a separator, so non-ASCII
    characters may become ``?`` before the byte-level translation without changing the tokens.
    """
    return text.lower().encode("ascii", "replace").translate(_SEPARATORS).split()


_SEPARATORS = bytes(
    b if chr(b) in "abcdefghijklmnopqrstuvwxyz0123456789" else 32 for b in range(256)
)


def _code_point(i: int) -> str:
    return chr(i if i < _SURROGATES.start else i + len(_SURROGATES))


# ---------------------------------------------------------------------------------------------
# Scores


def _fbeta(precision: float, recall: float, beta: float) -> float:
    if precision + recall <= 0:
        return 0.0
    b2 = beta * beta
    return (1 + b2) * precision * recall / (b2 * precision + recall)


def _score(lcs: int, n_cand: int, n_ref: int, beta: float) -> RougeScore:
    if n_cand == 0 or n_ref == 0:
        return ZERO
    precision = lcs / n_cand
    recall = lcs / n_ref
    return RougeScore(precision, recall, _fbeta(precision, recall, beta))


def _check(level: str, beta: float) -> None:
    if level not in _BATCH_ENCODERS:
        raise ValueError(f"level must be one of {sorted(_BATCH_ENCODERS)}, got {level!r}")
    if not beta > 0:
        raise ValueError(f"beta must be > 0, got {beta!r}")


def rouge_l(
    cand: str,
    ref: str,
    *,
    level: Level = "word",
    beta: float = 1.0,
    stemmer: bool = False,
) -> RougeScore:
    """ROUGE-L of a candidate text against a reference text.

    ``stemmer`` applies to the word level only (rouge-score's ``use_stemmer``).
    """
    _check(level, beta)
    (a,), (b,) = _BATCH_ENCODERS[level]([cand], [ref], stemmer)
    return _score(LCSseq.similarity(a, b), len(a), len(b), beta)


# ---------------------------------------------------------------------------------------------
# Batches

Encoded = tuple[list[str], list[str]]


def _encode_words(cands: Sequence[str], refs: Sequence[str], stemmer: bool) -> Encoded:
    """Each distinct text tokenized once; tokens mapped to code points, one per distinct token."""
    texts = list(dict.fromkeys(chain(cands, refs)))
    if stemmer:
        token_lists: list[list[str]] | list[list[bytes]] = [
            tokenize(t, stemmer=True) for t in texts
        ]
    else:
        token_lists = [_ascii_tokens(t) for t in texts]
    distinct = set().union(*token_lists)
    if len(distinct) > _MAX_VOCAB:
        raise ValueError(f"{len(distinct)} distinct tokens in one batch (at most {_MAX_VOCAB})")
    vocab = {token: _code_point(i) for i, token in enumerate(distinct)}
    code = vocab.__getitem__
    encoded = dict(zip(texts, ["".join(map(code, tokens)) for tokens in token_lists], strict=True))
    return list(map(encoded.__getitem__, cands)), list(map(encoded.__getitem__, refs))


def _encode_chars(cands: Sequence[str], refs: Sequence[str], stemmer: bool) -> Encoded:
    return [char_units(t) for t in cands], [char_units(t) for t in refs]


_BATCH_ENCODERS: dict[str, Callable[[Sequence[str], Sequence[str], bool], Encoded]] = {
    "word": _encode_words,
    "char": _encode_chars,
}

# Pairs per chunk in a batch: bounds the vocabulary (and memory) of one encoding pass.
_CHUNK = 20_000


def rouge_l_batch(
    cands: Sequence[str],
    refs: Sequence[str],
    *,
    level: Level = "word",
    beta: float = 1.0,
    stemmer: bool = False,
    workers: int = 1,
) -> list[RougeScore]:
    """ROUGE-L of ``cands[i]`` against ``refs[i]`` for every i, same values as :func:`rouge_l`.

    ``workers`` is passed to rapidfuzz (``-1`` = all cores).
    """
    _check(level, beta)
    if len(cands) != len(refs):
        raise ValueError(f"{len(cands)} candidates but {len(refs)} references")
    out: list[RougeScore] = []
    for start in range(0, len(cands), _CHUNK):
        enc_c, enc_r = _BATCH_ENCODERS[level](
            cands[start : start + _CHUNK], refs[start : start + _CHUNK], stemmer
        )
        out.extend(_score_encoded(enc_c, enc_r, beta, workers))
    return out


def _score_encoded(
    enc_c: list[str], enc_r: list[str], beta: float, workers: int
) -> list[RougeScore]:
    if not enc_c:
        return []
    lcs = process.cpdist(enc_c, enc_r, scorer=LCSseq.similarity, dtype=np.int64, workers=workers)
    n_c = np.fromiter(map(len, enc_c), dtype=np.int64, count=len(enc_c))
    n_r = np.fromiter(map(len, enc_r), dtype=np.int64, count=len(enc_r))
    valid = (n_c > 0) & (n_r > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(valid, lcs / n_c, 0.0)
        recall = np.where(valid, lcs / n_r, 0.0)
        b2 = beta * beta
        total = precision + recall
        fmeasure = np.where(
            total > 0, (1 + b2) * precision * recall / (b2 * precision + recall), 0.0
        )
    return list(map(RougeScore, precision.tolist(), recall.tolist(), fmeasure.tolist()))
