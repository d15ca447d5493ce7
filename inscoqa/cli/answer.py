"""``inscoqa answer``: answer one how-to question with a chosen answerer over a memory."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from inscoqa.cli.options import add_engine_flags, engine_overrides, first_line, parse_params


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "answer", help="answer a how-to question with a chosen answerer",
        description="Answer the last question of a conversation from a procedural memory and "
                    "print the answer, the steps and the sources (--json: everything, with the "
                    "trace of every stage).")
    parser.add_argument("question", nargs="?", help="the (last) question")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--memory", type=Path, metavar="DIR", help="memory directory")
    source.add_argument("--sample", action="store_true",
                        help="the bundled sample memory, built on first use (the default)")
    parser.add_argument("--store", metavar="LOCATION",
                        help="search the memory's collection in Qdrant: qdrant://HOST:PORT or "
                             "qdrant-local:DIR (see memory build --store)")
    parser.add_argument("--system", default="extractive", metavar="NAME",
                        help="answerer (default extractive, which needs no engine); --list shows all")
    parser.add_argument("--history", type=Path, metavar="FILE",
                        help='earlier rounds: a JSON list of [question, answer] pairs')
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="answerer parameter, value read as JSON when it can be "
                             "(e.g. --param k=5 --param critique=false); repeatable; "
                             "rerank=MODEL_FILE orders the memory's candidate documents with a "
                             "ranker trained by 'inscoqa rerank train'")
    parser.add_argument("--fallback", action="store_true",
                        help="answer extractively (and say so in the trace) when the engine fails")
    add_engine_flags(parser, whose="the answerer's")
    parser.add_argument("--list", action="store_true", help="list the answerers and exit")
    parser.add_argument("--json", action="store_true", help="print the answer and its trace as JSON")
    parser.set_defaults(func=_run)


def read_history(path: Path) -> list[tuple[str, str]]:
    """A JSON list of ``[question, answer]`` pairs; errors name the file and the entry."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise SystemExit(f"--history {path}: cannot read JSON: {exc}") from exc
    if not isinstance(data, list):
        raise SystemExit(f"--history {path}: expected a list of [question, answer] pairs")
    history = []
    for i, pair in enumerate(data):
        if not (isinstance(pair, list | tuple) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            raise SystemExit(f"--history {path}: entry {i}: expected [question, answer] strings, got {pair!r}")
        history.append((pair[0], pair[1]))
    return history


def _memory(args: argparse.Namespace) -> Any:
    from procmem.memory import Memory, MemoryStoreError, sample_memory
    from procmem.stores import StoreUnavailableError, open_memory_store

    if args.memory is None:
        memory = sample_memory(progress=True)
    else:
        try:
            memory = Memory.load(args.memory)
        except (MemoryStoreError, FileNotFoundError) as exc:
            raise SystemExit(f"--memory {args.memory}: {exc}") from exc
    if not args.store:
        return memory
    try:
        return open_memory_store(memory, args.store)
    except (StoreUnavailableError, ValueError) as exc:
        raise SystemExit(f"inscoqa answer: {first_line(exc)}") from exc


def _source_lines(sources: list[Any], *, sections: bool = False) -> list[str]:
    """One line per document: the numbers that cite it, its title and id, its best score; with
    ``sections``, under it one indented line per section its sources name, with their numbers
    (a one-page manual's sources are all one document)."""
    from procmem.answerers import by_document

    lines = []
    for doc_id, group in by_document(sources).items():
        scores = [s.score for _, s in group if s.score is not None]
        score = f"  (score {max(scores):.4f})" if scores else ""
        lines.append(f"{''.join(f'[{n}]' for n, _ in group)} {group[0][1].title or doc_id} — {doc_id}{score}")
        if sections:
            named: dict[str, list[int]] = {}
            for n, source in group:
                if source.section:
                    named.setdefault(source.section, []).append(n)
            lines += [f"    {''.join(f'[{n}]' for n in numbers)} {section}"
                      for section, numbers in named.items()]
    return lines


def format_answer(answer: Any) -> str:
    lines = [f"Answer: {answer.answer}", "", "Procedural instructions:"]
    groundings = answer.groundings or [None] * len(answer.procedures)
    for i, (step, grounding) in enumerate(zip(answer.procedures, groundings, strict=True), 1):
        mark = " (not found in the sources)" if answer.groundings is not None and grounding is None else ""
        lines.append(f"{i}. {step}{mark}")
    if not answer.procedures:
        lines.append("(none)")
    elif answer.groundings is not None:
        lines.append(f"({answer.grounded_steps}/{len(answer.procedures)} steps grounded in the sources)")
    if answer.clarification:
        lines += ["", f"Question for you: {answer.clarification}"]
    if answer.follow_ups:
        lines += ["", "You can tell me:"] + [f"- {f}" for f in answer.follow_ups]
    cited, others = answer.cited_sources()
    lines += ["", "Sources:"] + (_source_lines(cited, sections=True) or ["(none)"])
    if others:
        lines += ["", "Also retrieved:"] + _source_lines(others)
    usage = answer.trace.usage
    lines += ["", f"{len(answer.trace.stages)} stages, {usage.calls} model calls, "
                  f"{usage.total_tokens} tokens, {answer.trace.seconds:.1f} s"]
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:
    from contextlib import closing, nullcontext

    from procmem.answerers import AnswerRequest, answerer_names

    if args.list:
        print("\n".join(answerer_names()))
        return 0
    if not args.question or not args.question.strip():
        raise SystemExit("inscoqa answer: give the question (or --list)")
    if args.system not in answerer_names():
        raise SystemExit(f"--system {args.system!r}: unknown answerer; choose one of {answerer_names()}")
    try:
        params = parse_params(args.param)
    except ValueError as exc:
        raise SystemExit(f"inscoqa answer: {exc}") from exc
    request = AnswerRequest(args.question, history=read_history(args.history) if args.history else [])
    memory = _memory(args)
    with closing(memory) if args.store else nullcontext():  # a store's client lets go of it
        return _answer(args, request, memory, params)


def _answer(args: argparse.Namespace, request: Any, memory: Any, params: dict[str, Any]) -> int:
    from contextlib import nullcontext

    from procmem.answerers import answer_with_fallback, make_answerer
    from serving import LLMError, connect, load_serving_config

    needs_engine = args.system != "extractive"
    config = load_serving_config(engine_overrides(args))
    try:
        with (connect(config) if needs_engine else nullcontext()) as llm:
            try:
                answerer = make_answerer(args.system, llm=llm, memory=memory, **params)
            except (TypeError, ValueError) as exc:
                raise SystemExit(f"--param: {exc}") from exc
            if args.fallback and needs_engine:
                answer = answer_with_fallback(answerer, make_answerer("extractive", memory=memory), request)
            else:
                answer = answerer.answer(request)
    except LLMError as exc:
        if args.fallback:
            answer = answer_with_fallback(_Failed(args.system, exc), make_answerer("extractive", memory=memory),
                                          request)
        else:
            print(f"inscoqa answer: the {args.system} answerer's engine failed: {first_line(exc)} "
                  "(--system extractive needs no engine; --fallback answers with it then)",
                  file=sys.stderr)
            return 1
    if args.json:
        print(json.dumps(answer.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(format_answer(answer))
    return 0


class _Failed:
    """An answerer whose engine could not even be started (for the fallback's trace)."""

    def __init__(self, name: str, error: Exception) -> None:
        self.name = name
        self.error = error

    def answer(self, request: Any) -> Any:
        raise self.error

    def config(self) -> dict[str, Any]:
        return {"answerer": self.name}
