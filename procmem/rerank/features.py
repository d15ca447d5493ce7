"""Verification features of each candidate document of a query, registered by name.

Model-free features: the retrieval evidence (fused score, reciprocal rank, retrieved units), the
query terms in the instructions (frequency and coverage) and in the title, the keywords the
candidates' instructions share, and the grounding (share and number of grounded steps). With a
chat model two more: the page's relevance to the query and the completion estimate of its steps,
both asked on a 0-1 scale with a JSON schema (prompts ``rerank/relevance``, ``rerank/completion``).
A model file stores the names of the features it was trained on, in order.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from procmem.rerank.extract import MAX_PAGE_WORDS, Candidate, trim_words
from procmem.retrieval.bm25 import tokenize
from serving.errors import LLMError
from serving.prompts import load_prompt

if TYPE_CHECKING:
    from serving.types import ChatModel


@dataclass
class Context:
    """What every feature of one query sees: the query, all its candidates, the model if any."""

    query: str
    candidates: list[Candidate]
    llm: ChatModel | None = None
    query_terms: list[str] = field(default_factory=list)
    step_tokens: list[list[str]] = field(default_factory=list)
    common: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.query_terms = list(dict.fromkeys(tokenize(self.query)))
        self.step_tokens = [tokenize(" ".join(c.steps)) for c in self.candidates]
        self.common = common_keywords(self.step_tokens)


def common_keywords(token_lists: Sequence[list[str]]) -> set[str]:
    """Words found in the instructions of at least half the candidates (and of two at least)."""
    df = Counter(t for tokens in token_lists for t in set(tokens))
    need = max(2, math.ceil(len(token_lists) / 2))
    return {t for t, n in df.items() if n >= need}


Feature = Callable[[Context, int], float]


def _retrieval_score(ctx: Context, i: int) -> float:
    return ctx.candidates[i].retrieval_score


def _retrieval_rrank(ctx: Context, i: int) -> float:
    return 1.0 / ctx.candidates[i].retrieval_rank


def _unit_hits(ctx: Context, i: int) -> float:
    return math.log1p(ctx.candidates[i].unit_hits)


def _query_term_freq(ctx: Context, i: int) -> float:
    tokens = ctx.step_tokens[i]
    terms = set(ctx.query_terms)
    return sum(t in terms for t in tokens) / len(tokens) if tokens else 0.0


def _query_coverage(ctx: Context, i: int) -> float:
    present = set(ctx.step_tokens[i])
    return sum(t in present for t in ctx.query_terms) / len(ctx.query_terms) if ctx.query_terms else 0.0


def _title_overlap(ctx: Context, i: int) -> float:
    title = set(tokenize(ctx.candidates[i].title))
    return sum(t in title for t in ctx.query_terms) / len(ctx.query_terms) if ctx.query_terms else 0.0


def _common_keywords(ctx: Context, i: int) -> float:
    return len(ctx.common.intersection(ctx.step_tokens[i])) / len(ctx.common) if ctx.common else 0.0


def _grounded_share(ctx: Context, i: int) -> float:
    c = ctx.candidates[i]
    return len(c.grounded) / len(c.steps) if c.steps else 0.0


def _grounded_steps(ctx: Context, i: int) -> float:
    return math.log1p(len(ctx.candidates[i].grounded))


RELEVANCE_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["relevance"],
    "properties": {"relevance": {"type": "number", "minimum": 0, "maximum": 1}},
}
COMPLETION_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["completion"],
    "properties": {"completion": {"type": "number", "minimum": 0, "maximum": 1}},
}
UNKNOWN = 0.5  # the scale's middle when the model gives no usable answer


def _ask_score(llm: ChatModel, prompt: str, schema: dict[str, Any], key: str, **values: str) -> float:
    try:
        result = llm.chat(load_prompt("procmem", prompt).render(**values), schema=schema,
                          temperature=0.0, max_tokens=20)
    except LLMError:
        return UNKNOWN
    value = result.data.get(key) if isinstance(result.data, dict) else None
    return min(1.0, max(0.0, float(value))) if isinstance(value, int | float) else UNKNOWN


def _llm_relevance(ctx: Context, i: int) -> float:
    if ctx.llm is None:
        raise ValueError("feature llm_relevance needs a chat model")
    c = ctx.candidates[i]
    return _ask_score(ctx.llm, "rerank/relevance", RELEVANCE_SCHEMA, "relevance", query=ctx.query,
                      title=c.title, text=trim_words(c.text, MAX_PAGE_WORDS))


def _llm_completion(ctx: Context, i: int) -> float:
    if ctx.llm is None:
        raise ValueError("feature llm_completion needs a chat model")
    c = ctx.candidates[i]
    if not c.steps:
        return 0.0
    steps = "\n".join(f"{n}. {s}" for n, s in enumerate(c.steps, 1))
    return _ask_score(ctx.llm, "rerank/completion", COMPLETION_SCHEMA, "completion", query=ctx.query,
                      steps=steps)


FEATURES: dict[str, Feature] = {
    "retrieval_score": _retrieval_score,
    "retrieval_rrank": _retrieval_rrank,
    "unit_hits": _unit_hits,
    "query_term_freq": _query_term_freq,
    "query_coverage": _query_coverage,
    "title_overlap": _title_overlap,
    "common_keywords": _common_keywords,
    "grounded_share": _grounded_share,
    "grounded_steps": _grounded_steps,
    "llm_relevance": _llm_relevance,
    "llm_completion": _llm_completion,
}
LLM_FEATURES = ("llm_relevance", "llm_completion")
MODEL_FREE = tuple(name for name in FEATURES if name not in LLM_FEATURES)


def default_features(with_llm: bool) -> list[str]:
    return list(FEATURES) if with_llm else list(MODEL_FREE)


def check_features(names: Sequence[str]) -> list[str]:
    unknown = [n for n in names if n not in FEATURES]
    if unknown:
        raise ValueError(f"unknown rerank features {unknown}; known: {list(FEATURES)}")
    return list(names)


def feature_matrix(query: str, candidates: list[Candidate], names: Sequence[str], *,
                   llm: ChatModel | None = None) -> list[list[float]]:
    """One row per candidate, one column per feature name, in the order given."""
    check_features(names)
    ctx = Context(query, candidates, llm)
    return [[float(FEATURES[name](ctx, i)) for name in names] for i in range(len(candidates))]
