"""Pairwise comparison of two procedures for the same task (AAG's protocol).

An LLM judge sees the task (resources given, goal) and two procedures, never the reference
steps, and says which is better on (a) reaching the goal, (b) clarity, flow and detail,
(c) using only the given resources. It is asked ``n_calls`` times (default 10) at temperature
0.7 with fixed seeds; the order of the two procedures alternates between calls (system A is
shown first on even calls, second on odd calls: 5 calls each way), and every answer is mapped
back to the systems before counting.

Votes are ``"A"`` (system A better), ``"B"``, ``"tie"`` or ``"invalid"`` (the reply could not
be used: schema or response error). :func:`majority_vote` turns them into the result from
system A's side:

* invalid votes are counted separately and never for a side;
* ``"win"`` when votes for A outnumber both the votes for B and the tie votes, ``"loss"``
  when votes for B do; ``"tie"`` otherwise (equal counts for A and B, or as many tie votes as
  the leading side, or more);
* ``"invalid"`` when no vote is valid (a caller should count it as a failure, not a tie).

Transport failures (connection, timeout, HTTP status) propagate so that a caller can retry.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from serving.errors import LLMResponseError, LLMSchemaError
from serving.prompts import load_prompt, prompts_hash
from serving.types import ChatModel, ChatResult, Message

Vote = Literal["A", "B", "tie", "invalid"]
Result = Literal["win", "loss", "tie", "invalid"]
VOTES: tuple[Vote, ...] = ("A", "B", "tie", "invalid")

PAIRWISE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "reasoning": {"type": "string"},
        "better": {"type": "string", "enum": ["A", "B", "tie"]},
    },
    "required": ["reasoning", "better"],
    "additionalProperties": False,
}

# What a shown position means for the systems when the order is swapped.
_SWAPPED: dict[str, Vote] = {"A": "B", "B": "A", "tie": "tie"}


@dataclass(frozen=True)
class PairwiseCall:
    """One judge call: the order shown, its seed, and the vote mapped back to the systems."""

    seed: int
    swapped: bool  # True: system B was shown as "Procedure A"
    shown_better: str | None  # the judge's answer about the shown order
    vote: Vote
    reasoning: str = ""
    error: str | None = None
    raw: str = ""


@dataclass(frozen=True)
class PairwiseOutcome:
    votes: list[Vote]
    result: Result
    calls: list[PairwiseCall] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        counted = Counter(self.votes)
        return {v: counted.get(v, 0) for v in VOTES}

    def to_dict(self) -> dict[str, Any]:
        return {
            "votes": list(self.votes),
            "result": self.result,
            "counts": self.counts,
            "calls": [asdict(c) for c in self.calls],
        }


def majority_vote(votes: list[Vote] | list[str]) -> Result:
    """Win / loss / tie for system A from per-call votes (see the module docstring for the rule)."""
    unknown = sorted({v for v in votes if v not in VOTES})
    if unknown:
        raise ValueError(f"unknown votes {unknown}; expected {list(VOTES)}")
    counts = Counter(votes)
    a, b, tie = counts["A"], counts["B"], counts["tie"]
    if a + b + tie == 0:
        return "invalid"
    if a > b and a > tie:
        return "win"
    if b > a and b > tie:
        return "loss"
    return "tie"


def _format_steps(steps: list[str]) -> str:
    return "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1)) if steps else "(no steps)"


class PairwiseJudge:
    """Compares system A's and system B's procedures with ``n_calls`` votes."""

    def __init__(
        self,
        llm: ChatModel,
        n_calls: int = 10,
        temperature: float = 0.7,
        seeds: tuple[int, ...] = tuple(range(10)),
        *,
        max_tokens: int = 256,
    ) -> None:
        if n_calls < 1:
            raise ValueError(f"n_calls must be >= 1, got {n_calls}")
        if len(seeds) < n_calls:
            raise ValueError(f"{n_calls} calls need {n_calls} seeds, got {len(seeds)}")
        self.llm = llm
        self.n_calls = n_calls
        self.temperature = temperature
        self.seeds = tuple(seeds[:n_calls])
        self.max_tokens = max_tokens
        self._prompt = load_prompt("eval", "pairwise/compare")

    def config(self) -> dict[str, Any]:
        return {
            "judge": "pairwise",
            "prompt_hash": prompts_hash([self._prompt]),
            "model": self.llm.model,
            "n_calls": self.n_calls,
            "temperature": self.temperature,
            "seeds": list(self.seeds),
            "max_tokens": self.max_tokens,
        }

    def plan(self) -> list[tuple[int, bool]]:
        """(seed, swapped) of every call: the order alternates, starting with A shown first."""
        return [(seed, i % 2 == 1) for i, seed in enumerate(self.seeds)]

    def messages(
        self,
        task_input: str,
        task_output: str,
        steps_a: list[str],
        steps_b: list[str],
        swapped: bool,
    ) -> list[Message]:
        first, second = (steps_b, steps_a) if swapped else (steps_a, steps_b)
        return self._prompt.render(
            task_input=task_input.strip() or "(none)",
            task_output=task_output.strip(),
            steps_a=_format_steps(first),
            steps_b=_format_steps(second),
        )

    def _params(self, seed: int) -> dict[str, Any]:
        return {
            "schema": PAIRWISE_SCHEMA,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": seed,
        }

    @staticmethod
    def _read(result: ChatResult, seed: int, swapped: bool) -> PairwiseCall:
        data = result.data if isinstance(result.data, dict) else {}
        shown = data.get("better")
        if shown not in _SWAPPED:
            return PairwiseCall(
                seed,
                swapped,
                None,
                "invalid",
                error=f"no valid 'better' in {data!r}",
                raw=result.text,
            )
        vote = _SWAPPED[shown] if swapped else shown
        return PairwiseCall(
            seed, swapped, shown, vote, str(data.get("reasoning", "")), raw=result.text
        )

    @staticmethod
    def _failed(exc: LLMSchemaError | LLMResponseError, seed: int, swapped: bool) -> PairwiseCall:
        return PairwiseCall(
            seed, swapped, None, "invalid", error=f"{type(exc).__name__}: {exc}", raw=exc.raw
        )

    @staticmethod
    def _outcome(calls: list[PairwiseCall]) -> PairwiseOutcome:
        votes = [c.vote for c in calls]
        return PairwiseOutcome(votes=votes, result=majority_vote(votes), calls=calls)

    def compare(
        self, task_input: str, task_output: str, steps_a: list[str], steps_b: list[str]
    ) -> PairwiseOutcome:
        """``result`` is from system A's side: "win" means ``steps_a`` is better."""
        calls = []
        for seed, swapped in self.plan():
            messages = self.messages(task_input, task_output, steps_a, steps_b, swapped)
            try:
                result = self.llm.chat(messages, **self._params(seed))
            except (LLMSchemaError, LLMResponseError) as exc:
                calls.append(self._failed(exc, seed, swapped))
                continue
            calls.append(self._read(result, seed, swapped))
        return self._outcome(calls)

    async def acompare(
        self, task_input: str, task_output: str, steps_a: list[str], steps_b: list[str]
    ) -> PairwiseOutcome:
        """Like :meth:`compare`, with the calls in flight together."""

        async def one(seed: int, swapped: bool) -> PairwiseCall:
            messages = self.messages(task_input, task_output, steps_a, steps_b, swapped)
            try:
                result = await self.llm.achat(messages, **self._params(seed))
            except (LLMSchemaError, LLMResponseError) as exc:
                return self._failed(exc, seed, swapped)
            return self._read(result, seed, swapped)

        calls = await asyncio.gather(*(one(seed, swapped) for seed, swapped in self.plan()))
        return self._outcome(list(calls))
