"""Cost of each answerer per answer: model calls, tokens and seconds, split by stage.

Every answerer answers the same bundled conversations (history + last question) over one real
memory built from those conversations' documents (or ``--memory DIR``), through the configured
chat engine (the embedded one by default). The response cache is off unless ``--cache``, so every
call reaches the engine. The reference is measured in the same run: the ``rag`` baseline (one
retrieval, one generation); the table's last columns are each answerer's tokens and seconds per
answer relative to it.

    python benchmarks/answerers.py [--limit 3] [--answerers aag,rag,...] [--max-tokens 200]
                                   [--memory DIR] [--engine ...] [--base-url URL] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm  # noqa: E402

from inscoqa.bundled import conversation_files, corpus_index, load_sample  # noqa: E402
from inscoqa.records import Conversation  # noqa: E402
from procmem.answerers import AnswerRequest, answerer_names, make_answerer  # noqa: E402
from procmem.answerers.parsing import ReplyParseError  # noqa: E402
from serving import LLMError, connect, load_serving_config  # noqa: E402

REFERENCE = "rag"
MODEL_FREE = {"extractive"}


@dataclass
class Cost:
    calls: float = 0.0
    tokens: float = 0.0
    seconds: float = 0.0

    def add(self, calls: int, tokens: int, seconds: float) -> None:
        self.calls += calls
        self.tokens += tokens
        self.seconds += seconds


@dataclass
class AnswererCost:
    name: str
    answers: int = 0
    failures: list[str] = field(default_factory=list)
    stages: dict[str, Cost] = field(default_factory=lambda: defaultdict(Cost))
    total: Cost = field(default_factory=Cost)

    def per_answer(self, cost: Cost) -> Cost:
        n = max(1, self.answers)
        return Cost(cost.calls / n, cost.tokens / n, cost.seconds / n)


def pick_conversations(limit: int) -> list[Conversation]:
    """The first conversations of the bundled files, taken in turn from each file."""
    per_file = [load_sample(name) for name in conversation_files()]
    picked: list[Conversation] = []
    for i in range(max(len(c) for c in per_file)):
        picked += [convs[i] for convs in per_file if i < len(convs)]
    return picked[:limit]


def build_small_memory(conversations: list[Conversation]) -> Any:
    from procmem.memory import build_memory

    index = corpus_index()
    docs = {d.doc_id: d for conv in conversations for d in index.resolve(conv)}
    return build_memory(list(docs.values()), progress=False)


def measure(names: list[str], conversations: list[Conversation], memory: Any, llm: Any,
            max_tokens: int) -> list[AnswererCost]:
    results = []
    bar = tqdm(total=len(names) * len(conversations), desc="answers", unit="answer")
    for name in names:
        cost = AnswererCost(name)
        params = {} if name in MODEL_FREE else {"max_tokens": max_tokens}
        answerer = make_answerer(name, llm=None if name in MODEL_FREE else llm, memory=memory, **params)
        for conv in conversations:
            bar.set_postfix_str(f"{name} {conv.id}")
            try:
                answer = answerer.answer(AnswerRequest(conv.question, history=conv.history))
            except (LLMError, ReplyParseError) as exc:
                cost.failures.append(f"{conv.id}: {type(exc).__name__}: {exc}"[:200])
                bar.update()
                continue
            cost.answers += 1
            for stage in answer.trace.stages:
                usage = stage.usage
                cost.stages[stage.name].add(usage.calls, usage.total_tokens, stage.seconds)
                cost.total.add(usage.calls, usage.total_tokens, stage.seconds)
            bar.update()
        results.append(cost)
    bar.close()
    return results


def table(results: list[AnswererCost]) -> str:
    reference = next((r for r in results if r.name == REFERENCE and r.answers), None)
    ref = reference.per_answer(reference.total) if reference else None
    header = f"{'answerer':<16} {'stage':<17} {'calls':>6} {'tokens':>8} {'seconds':>8} {'tok×rag':>8} {'s×rag':>7}"
    lines = [header, "-" * len(header)]
    for result in results:
        for stage, cost in result.stages.items():
            c = result.per_answer(cost)
            lines.append(f"{result.name:<16} {stage:<17} {c.calls:>6.1f} {c.tokens:>8.0f} {c.seconds:>8.2f}")
        total = result.per_answer(result.total)
        tok_ratio = f"{total.tokens / ref.tokens:>8.2f}" if ref and ref.tokens else f"{'-':>8}"
        sec_ratio = f"{total.seconds / ref.seconds:>7.2f}" if ref and ref.seconds else f"{'-':>7}"
        failed = f"  ({len(result.failures)} failed)" if result.failures else ""
        lines.append(f"{result.name:<16} {'= per answer':<17} {total.calls:>6.1f} {total.tokens:>8.0f} "
                     f"{total.seconds:>8.2f} {tok_ratio} {sec_ratio}{failed}")
        lines.append("")
    return "\n".join(lines)


def to_json(results: list[AnswererCost]) -> dict[str, Any]:
    return {r.name: {
        "answers": r.answers, "failures": r.failures,
        "per_answer": vars(r.per_answer(r.total)),
        "stages": {s: vars(r.per_answer(c)) for s, c in r.stages.items()},
    } for r in results}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=3, help="bundled conversations (default 3)")
    parser.add_argument("--answerers", help="comma-separated names (default: all)")
    parser.add_argument("--max-tokens", type=int, default=200, help="per model call (default 200)")
    parser.add_argument("--memory", type=Path, help="memory directory (default: built from the "
                                                    "conversations' documents)")
    parser.add_argument("--cache", action="store_true", help="keep the response cache on")
    parser.add_argument("--engine", choices=["embedded", "vllm", "external"])
    parser.add_argument("--base-url")
    parser.add_argument("--model")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    names = args.answerers.split(",") if args.answerers else answerer_names()
    unknown = sorted(set(names) - set(answerer_names()))
    if unknown:
        parser.error(f"unknown answerers {unknown}; known: {answerer_names()}")
    if REFERENCE in names:  # the reference first, so every ratio has it
        names = [REFERENCE] + [n for n in names if n != REFERENCE]
    conversations = pick_conversations(args.limit)
    if args.memory:
        from procmem.memory import Memory

        memory = Memory.load(args.memory)
    else:
        memory = build_small_memory(conversations)
    with tempfile.TemporaryDirectory() as cache_dir:
        cli = {"engine": args.engine, "base_url": args.base_url, "model": args.model}
        if not args.cache:
            cli |= {"cache": False, "cache_dir": cache_dir}
        config = load_serving_config(cli)
        needs_engine = any(n not in MODEL_FREE for n in names)
        with connect(config) if needs_engine else nullcontext() as llm:
            results = measure(names, conversations, memory, llm, args.max_tokens)
            model = getattr(llm, "model", "")
    if args.json:
        print(json.dumps({"conversations": [c.id for c in conversations], "model": model,
                          "max_tokens": args.max_tokens, "answerers": to_json(results)}, indent=2))
        return 0
    units = {k: len(memory.units(k)) for k in ("procedure", "logic_unit", "chunk", "document")}
    print(f"{len(conversations)} conversations ({', '.join(c.id for c in conversations)}), "
          f"model {model or '-'}, max_tokens {args.max_tokens}, memory {units}; "
          f"means per answer; ratios against {REFERENCE} measured in this run\n")
    print(table(results))
    for result in results:
        for failure in result.failures:
            print(f"failed: {result.name} {failure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
