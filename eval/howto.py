"""Linear how-to metrics (THREAD's evaluation): action-item precision, recall, F1, success rate.

1. An LLM lists the action items of the generated steps and, separately, of the reference
   steps (schema-constrained: ``{"actions": [str, ...]}``).
2. Items are matched one to one. Matchers (``matcher=``):

   * ``"judge"`` (THREAD's protocol): steps 1 and 2 in one call: the LLM lists the action
     items of both sides and pairs those of similar intent (``{"reference": [str, ...],
     "generated": [str, ...], "pairs": [{"generated": i, "reference": j}, ...]}``, numbers
     from 1). Pairs naming an item that does not exist, or an item already paired, are
     dropped, so the matching stays one to one;
   * ``"lexical"`` (default; ``"rouge"`` is the same matcher under its former name): the items
     are extracted separately, then a similarity matrix between generated and reference
     items and the assignment that maximises the total similarity (``scipy``'s Hungarian
     solver); a matched pair must reach ``threshold``. Word-level ROUGE-L F1 with Porter
     stemming, threshold 0.5. No model for the matching, deterministic;
   * ``"embedding"``: as ``lexical`` with the cosine similarity of sentence embeddings
     (``procmem.embed.Embedder``, MiniLM from an installed package), threshold 0.7; better
     for paraphrases, needs torch.

3. precision = matched / generated items, recall = matched / reference items, F1 their
   harmonic mean.
4. Success: an LLM judge says whether following the generated steps fully solves the task
   (``{"reasoning": str, "solved": bool}``); it sees one reference solution as a guide.

Empty generated steps score 0 and are not successful, without any LLM call. Reply
failures of the LLM (schema, response) and a reference with no extractable action propagate as
exceptions, for the caller to record as failed samples.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
from scipy.optimize import linear_sum_assignment

from eval.rouge import rouge_l_batch
from serving.prompts import load_prompt, prompts_hash
from serving.types import ChatModel

EXTRACT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "actions": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 60}
    },
    "required": ["actions"],
    "additionalProperties": False,
}
PAIR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        # both sides have steps (the scorer calls no model otherwise), so each has an action
        "reference": {"type": "array", "items": {"type": "string", "minLength": 1},
                      "minItems": 1, "maxItems": 60},
        "generated": {"type": "array", "items": {"type": "string", "minLength": 1},
                      "minItems": 1, "maxItems": 60},
        "pairs": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"generated": {"type": "integer", "minimum": 1},
                               "reference": {"type": "integer", "minimum": 1}},
                "required": ["generated", "reference"],
                "additionalProperties": False,
            },
            "maxItems": 60,
        },
    },
    "required": ["reference", "generated", "pairs"],
    "additionalProperties": False,
}
SUCCESS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"reasoning": {"type": "string"}, "solved": {"type": "boolean"}},
    "required": ["reasoning", "solved"],
    "additionalProperties": False,
}


class HowToError(ValueError):
    """The scorer cannot compute the metrics (e.g. no action item in the reference steps)."""


def rouge_similarity(generated: list[str], reference: list[str]) -> np.ndarray:
    cands = [g for g in generated for _ in reference]
    refs = [r for _ in generated for r in reference]
    scores = rouge_l_batch(cands, refs, level="word", stemmer=True)
    return np.array([s.fmeasure for s in scores], dtype=float).reshape(
        len(generated), len(reference)
    )


@cache
def _embedder() -> Any:
    from procmem.embed import Embedder

    return Embedder()


def embedding_similarity(generated: list[str], reference: list[str]) -> np.ndarray:
    vectors = _embedder().encode([*generated, *reference])
    return np.asarray(vectors[: len(generated)] @ vectors[len(generated) :].T, dtype=float)


@dataclass(frozen=True)
class Matcher:
    similarity: Callable[[list[str], list[str]], np.ndarray]
    threshold: float


MATCHERS: dict[str, Matcher] = {
    "lexical": Matcher(rouge_similarity, 0.5),
    "rouge": Matcher(rouge_similarity, 0.5),  # the lexical matcher's former name
    "embedding": Matcher(embedding_similarity, 0.7),
}
JUDGE_MATCHER = "judge"
MATCHER_NAMES: tuple[str, ...] = (JUDGE_MATCHER, *MATCHERS)


def judged_pairs(pairs: list[dict[str, Any]], n_generated: int,
                 n_reference: int) -> list[tuple[int, int, float]]:
    """The judge's pairs (numbers from 1) as one-to-one matches (0-based indices, similarity
    1.0): pairs naming a missing item, or an item already paired, are dropped."""
    matches: list[tuple[int, int, float]] = []
    used_g: set[int] = set()
    used_r: set[int] = set()
    for pair in pairs:
        g, r = int(pair["generated"]) - 1, int(pair["reference"]) - 1
        if 0 <= g < n_generated and 0 <= r < n_reference and g not in used_g and r not in used_r:
            used_g.add(g)
            used_r.add(r)
            matches.append((g, r, 1.0))
    return matches


def match_items(sim: np.ndarray, threshold: float) -> list[tuple[int, int, float]]:
    """One-to-one matches (generated index, reference index, similarity) reaching ``threshold``,
    chosen to maximise the total similarity."""
    if sim.size == 0:
        return []
    eligible = np.where(sim >= threshold, sim, 0.0)
    rows, cols = linear_sum_assignment(eligible, maximize=True)
    return [
        (int(r), int(c), float(sim[r, c]))
        for r, c in zip(rows, cols, strict=True)
        if sim[r, c] >= threshold
    ]


def prf(n_matched: int, n_generated: int, n_reference: int) -> tuple[float, float, float]:
    precision = n_matched / n_generated if n_generated else 0.0
    recall = n_matched / n_reference if n_reference else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return precision, recall, f1


@dataclass(frozen=True)
class HowToScore:
    precision: float
    recall: float
    f1: float
    success: bool
    generated_items: list[str] = field(default_factory=list)
    reference_items: list[str] = field(default_factory=list)
    matches: list[tuple[int, int, float]] = field(default_factory=list)
    success_reasoning: str = ""


def _format_steps(steps: list[str]) -> str:
    return "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1)) if steps else "(no steps)"


class HowToScorer:
    """Action-item P/R/F1 and success of generated steps against reference steps."""

    def __init__(
        self,
        llm: ChatModel,
        *,
        matcher: str = "lexical",
        threshold: float | None = None,
        max_tokens: int = 384,
        seed: int = 0,
    ) -> None:
        if matcher not in MATCHER_NAMES:
            raise ValueError(f"matcher must be one of {list(MATCHER_NAMES)}, got {matcher!r}")
        self.llm = llm
        self.matcher = matcher
        default = MATCHERS[matcher].threshold if matcher in MATCHERS else None
        self.threshold = default if threshold is None else threshold
        self.max_tokens = max_tokens
        self.seed = seed
        self._extract = load_prompt("eval", "howto/extract")
        self._success = load_prompt("eval", "howto/success")
        self._pair = load_prompt("eval", "howto/pair")

    @property
    def _schemas(self) -> list[dict[str, Any]]:
        return [PAIR_SCHEMA if self.matcher == JUDGE_MATCHER else EXTRACT_SCHEMA, SUCCESS_SCHEMA]

    @property
    def _templates(self) -> list[Any]:
        first = [self._pair] if self.matcher == JUDGE_MATCHER else [self._extract]
        return [*first, self._success]

    def config(self) -> dict[str, Any]:
        return {
            "scorer": "howto",
            "prompt_hash": prompts_hash(self._templates),
            "schema_hash": hashlib.sha256(json.dumps(self._schemas, sort_keys=True).encode())
            .hexdigest()[:16],
            "model": self.llm.model,
            "matcher": self.matcher,
            "threshold": self.threshold,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
        }

    def _ask(self, messages: Any, schema: dict[str, Any]) -> dict[str, Any]:
        result = self.llm.chat(
            messages, schema=schema, temperature=0.0, max_tokens=self.max_tokens, seed=self.seed
        )
        return result.data

    def action_items(self, task: str, steps: list[str]) -> list[str]:
        """The action items of ``steps`` (no call for no steps)."""
        if not steps:
            return []
        data = self._ask(
            self._extract.render(task=task, steps=_format_steps(steps)), EXTRACT_SCHEMA
        )
        return [" ".join(a.split()) for a in data["actions"] if a.strip()]

    def judge_success(
        self, task: str, steps: list[str], reference_steps: list[str]
    ) -> tuple[bool, str]:
        if not steps:
            return False, "no steps"
        data = self._ask(
            self._success.render(
                task=task,
                steps=_format_steps(steps),
                reference_steps=_format_steps(reference_steps),
            ),
            SUCCESS_SCHEMA,
        )
        return bool(data["solved"]), str(data.get("reasoning", ""))

    def score(
        self, task: str, generated_steps: list[str], reference_steps: list[str]
    ) -> HowToScore:
        if not generated_steps:
            return HowToScore(0.0, 0.0, 0.0, False, success_reasoning="no steps")
        if self.matcher == JUDGE_MATCHER:
            generated_items, reference_items, matches = self.judge_pairs(
                task, generated_steps, reference_steps)
        else:
            generated_items, reference_items, matches = self._match_lexically(
                task, generated_steps, reference_steps)
        precision, recall, f1 = prf(len(matches), len(generated_items), len(reference_items))
        success, reasoning = self.judge_success(task, generated_steps, reference_steps)
        return HowToScore(
            precision, recall, f1, success, generated_items, reference_items, matches, reasoning
        )

    def judge_pairs(
        self, task: str, generated_steps: list[str], reference_steps: list[str]
    ) -> tuple[list[str], list[str], list[tuple[int, int, float]]]:
        """One call: the action items of both sides and the pairs of similar intent."""
        data = self._ask(
            self._pair.render(task=task, steps=_format_steps(generated_steps),
                              reference_steps=_format_steps(reference_steps)),
            PAIR_SCHEMA,
        )
        generated_items = [" ".join(a.split()) for a in data["generated"]]
        reference_items = [" ".join(a.split()) for a in data["reference"]]
        if not any(reference_items):
            raise HowToError("no action item in the reference steps: recall is undefined")
        return (generated_items, reference_items,
                judged_pairs(data["pairs"], len(generated_items), len(reference_items)))

    def _match_lexically(
        self, task: str, generated_steps: list[str], reference_steps: list[str]
    ) -> tuple[list[str], list[str], list[tuple[int, int, float]]]:
        reference_items = self.action_items(task, reference_steps)
        if not reference_items:
            raise HowToError("no action item in the reference steps: recall is undefined")
        generated_items = self.action_items(task, generated_steps)
        matches: list[tuple[int, int, float]] = []
        if generated_items:
            assert self.threshold is not None
            sim = MATCHERS[self.matcher].similarity(generated_items, reference_items)
            matches = match_items(sim, self.threshold)
        return generated_items, reference_items, matches
