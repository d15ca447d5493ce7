"""Cost and lexical quality of each answerer per answer.

Every answerer answers the same bundled conversations (history + last question) through the
configured chat engine (the embedded one by default), in one of two settings:

* ``--setting memory`` (default): over one real memory built from those conversations'
  documents; ``--all-documents`` builds it over every bundled document instead, and
  ``--memory DIR`` loads the memory kept there (or builds it and keeps it there);
* ``--setting given``: each request carries the conversation's own documents (InsCoQA's
  protocol), as ``inscoqa bench --setting given`` gives them.

Cost: model calls, tokens and seconds, split by stage. The response cache is off unless
``--cache``, so every call reaches the engine. The reference is measured in the same run: the
``rag`` baseline (one retrieval, one generation); the cost table's last columns are each
answerer's tokens and seconds per answer relative to it.

Quality, per bundled file (no judge, no model): step coverage (the share of reference steps
that have a close match among the answer's steps: word-level ROUGE-L recall >= 0.5), W-ROUGE-L
and C-ROUGE-L F1 of the plain answer against the reference answer (the bench's figures),
W-ROUGE-L of the answer and its steps together against the reference answer, steps per answer
and words per step. Step coverage rewards long steps (a step that joins two of a page's steps
matches a reference step written from both), so compare it between answerers whose steps are of
about the same length. Below the table, each file's ceilings (``eval.ceilings``): the step
coverage of an answer whose steps were every line and every sentence of the conversation's own
documents, and the W-ROUGE-L of the best one or two of their sentences as the plain answer, the
most an answer that copies the documents' words can reach.

    python benchmarks/answerers.py [--limit 3] [--answerers aag,rag,...] [--max-tokens 200]
                                   [--setting memory|given] [--data dev-officedocs]
                                   [--memory DIR] [--all-documents]
                                   [--engine ...] [--base-url URL] [--json]
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

from eval.ceilings import plain_answer_ceiling, step_coverage_ceiling  # noqa: E402
from eval.rouge import rouge_l  # noqa: E402
from eval.step_coverage import CITATION, step_coverage  # noqa: E402
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
    # per bundled file: one dict of quality figures per answered conversation
    quality: dict[str, list[dict[str, float]]] = field(default_factory=lambda: defaultdict(list))

    def per_answer(self, cost: Cost) -> Cost:
        n = max(1, self.answers)
        return Cost(cost.calls / n, cost.tokens / n, cost.seconds / n)


def pick_conversations(limit: int, files: list[str] | None = None) -> list[tuple[str, Conversation]]:
    """The first conversations of the bundled files (``files``, default all), taken in turn from
    each file, with the name of their file; ``limit`` 0 takes them all."""
    names = files or conversation_files()
    per_file = [[(name, conv) for conv in load_sample(name)] for name in names]
    picked: list[tuple[str, Conversation]] = []
    for i in range(max(len(c) for c in per_file)):
        picked += [convs[i] for convs in per_file if i < len(convs)]
    return picked[:limit] if limit > 0 else picked


def build_memory_over(conversations: list[Conversation], *, every_document: bool) -> Any:
    """A memory over the conversations' documents, or over every bundled document."""
    from procmem.memory import build_memory

    index = corpus_index()
    if every_document:
        docs = [index.get(doc_id) for doc_id in index.doc_ids()]
    else:
        docs = list({d.doc_id: d for conv in conversations for d in index.resolve(conv)}.values())
    return build_memory(docs, progress=False)


def open_memory(path: Path | None, conversations: list[Conversation], every_document: bool) -> Any:
    from procmem.memory import Memory, MemoryStoreError

    if path is not None:
        try:
            return Memory.load(path)
        except MemoryStoreError:
            if path.exists() and any(path.iterdir()):
                raise
    memory = build_memory_over(conversations, every_document=every_document)
    if path is not None:
        memory.save(path)
    return memory


def quality(answer: Any, conv: Conversation) -> dict[str, float]:
    steps = [CITATION.sub("", s) for s in answer.procedures]
    both = " ".join([answer.answer, *steps])
    return {
        "steps": step_coverage(steps, list(conv.procedures)),
        "w_rouge": rouge_l(answer.answer, conv.answer, level="word").fmeasure,
        "c_rouge": rouge_l(answer.answer, conv.answer, level="char").fmeasure,
        "w_rouge_all": rouge_l(both, conv.answer, level="word").fmeasure,
        "n_steps": float(len(steps)),
        "step_words": sum(len(s.split()) for s in steps) / len(steps) if steps else 0.0,
    }


def measure(names: list[str], conversations: list[tuple[str, Conversation]], memory: Any, llm: Any,
            max_tokens: int, setting: str = "memory") -> list[AnswererCost]:
    results = []
    bar = tqdm(total=len(names) * len(conversations), desc="answers", unit="answer")
    for name in names:
        cost = AnswererCost(name)
        params = {} if name in MODEL_FREE else {"max_tokens": max_tokens}
        answerer = make_answerer(name, llm=None if name in MODEL_FREE else llm, memory=memory, **params)
        for file, conv in conversations:
            bar.set_postfix_str(f"{name} {conv.id}")
            documents = corpus_index().resolve(conv) if setting == "given" else None
            try:
                answer = answerer.answer(AnswerRequest(conv.question, history=conv.history,
                                                       documents=documents))
            except (LLMError, ReplyParseError) as exc:
                cost.failures.append(f"{conv.id}: {type(exc).__name__}: {exc}"[:200])
                bar.update()
                continue
            cost.answers += 1
            cost.quality[file].append(quality(answer, conv))
            for stage in answer.trace.stages:
                usage = stage.usage
                cost.stages[stage.name].add(usage.calls, usage.total_tokens, stage.seconds)
                cost.total.add(usage.calls, usage.total_tokens, stage.seconds)
            bar.update()
        results.append(cost)
    bar.close()
    return results


def ceilings(conversations: list[tuple[str, Conversation]]) -> dict[str, dict[str, float]]:
    """Per bundled file, the mean ceilings of an answer copied from each conversation's own
    documents (:mod:`eval.ceilings`): step coverage, and W-ROUGE-L of a plain answer."""
    per_file: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for file, conv in conversations:
        documents = [doc.text for doc in corpus_index().resolve(conv)]
        per_file[file].append((step_coverage_ceiling(list(conv.procedures), documents),
                               plain_answer_ceiling(conv.answer, documents)))
    return {file: {"steps": sum(r[0] for r in rows) / len(rows), "w_rouge": sum(r[1] for r in rows) / len(rows)}
            for file, rows in per_file.items()}


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


QUALITY_COLUMNS = (("steps", "step cov"), ("w_rouge", "W-RL"), ("c_rouge", "C-RL"),
                   ("w_rouge_all", "W-RL a+s"), ("n_steps", "steps/ans"), ("step_words", "words/step"))


def mean_quality(rows: list[dict[str, float]]) -> dict[str, float]:
    return {key: sum(r[key] for r in rows) / len(rows) for key, _ in QUALITY_COLUMNS} if rows else {}


def quality_table(results: list[AnswererCost]) -> str:
    header = f"{'answerer':<16} {'conversations':<20} {'n':>3}" + "".join(f" {t:>9}" for _, t in QUALITY_COLUMNS)
    lines = [header, "-" * len(header)]
    for result in results:
        groups = {**result.quality, "all": [q for rows in result.quality.values() for q in rows]}
        for file, rows in groups.items():
            if not rows or (file == "all" and len(result.quality) < 2):
                continue
            means = mean_quality(rows)
            lines.append(f"{result.name:<16} {file:<20} {len(rows):>3}"
                         + "".join(f" {means[key]:>9.3f}" for key, _ in QUALITY_COLUMNS))
    return "\n".join(lines)


def to_json(results: list[AnswererCost]) -> dict[str, Any]:
    return {r.name: {
        "answers": r.answers, "failures": r.failures,
        "per_answer": vars(r.per_answer(r.total)),
        "stages": {s: vars(r.per_answer(c)) for s, c in r.stages.items()},
        "quality": {file: mean_quality(rows) for file, rows in r.quality.items()},
    } for r in results}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=3, help="bundled conversations (default 3; 0: all)")
    parser.add_argument("--data", help="comma-separated bundled files (default: all), e.g. dev-officedocs")
    parser.add_argument("--setting", choices=["memory", "given"], default="memory",
                        help="memory: search a memory; given: each request carries its documents")
    parser.add_argument("--answerers", help="comma-separated names (default: all)")
    parser.add_argument("--max-tokens", type=int, default=200, help="per model call (default 200)")
    parser.add_argument("--memory", type=Path, help="memory directory: loaded, or built and kept "
                                                    "there (default: built, not kept)")
    parser.add_argument("--all-documents", action="store_true",
                        help="build the memory over every bundled document, not only the "
                             "conversations' documents")
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
    files = args.data.split(",") if args.data else None
    unknown_files = sorted(set(files or []) - set(conversation_files()))
    if unknown_files:
        parser.error(f"unknown bundled files {unknown_files}; known: {conversation_files()}")
    conversations = pick_conversations(args.limit, files)
    memory = None
    if args.setting == "memory":
        memory = open_memory(args.memory, [c for _, c in conversations], args.all_documents)
    with tempfile.TemporaryDirectory() as cache_dir:
        cli = {"engine": args.engine, "base_url": args.base_url, "model": args.model}
        if not args.cache:
            cli |= {"cache": False, "cache_dir": cache_dir}
        config = load_serving_config(cli)
        needs_engine = any(n not in MODEL_FREE for n in names)
        with connect(config) if needs_engine else nullcontext() as llm:
            results = measure(names, conversations, memory, llm, args.max_tokens, args.setting)
            model = getattr(llm, "model", "")
    ceiling = ceilings(conversations)
    if args.json:
        print(json.dumps({"conversations": [c.id for _, c in conversations], "model": model,
                          "setting": args.setting, "max_tokens": args.max_tokens,
                          "answerers": to_json(results), "ceilings": ceiling}, indent=2))
        return 0
    where = "the conversations' own documents"
    if memory is not None:
        units = {k: len(memory.units(k)) for k in ("procedure", "logic_unit", "chunk", "document")}
        where = f"memory {units}"
    shown = ", ".join(c.id for _, c in conversations[:8]) + (", …" if len(conversations) > 8 else "")
    print(f"{len(conversations)} conversations ({shown}), setting {args.setting}: {where}; "
          f"model {model or '-'}, max_tokens {args.max_tokens}; means per answer; "
          f"ratios against {REFERENCE} measured in this run\n")
    print(table(results))
    print(quality_table(results))
    print("\nceilings of an answer copied from each conversation's own documents (the reference in "
          "hand): step coverage of every line and sentence as a step; W-ROUGE-L of the best one or "
          "two sentences as the plain answer")
    for file, value in ceiling.items():
        print(f"  {file:<20} step cov {value['steps']:.3f}  W-RL {value['w_rouge']:.3f}")
    for result in results:
        for failure in result.failures:
            print(f"failed: {result.name} {failure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
