"""``inscoqa thread``: THREAD's studies, the paradigm comparison and multi-turn evaluation.

``compare``: the same questions answered from each kind of memory unit (top-1 document, top-5
chunks, top-5 semantic chunks, top-5 propositions when the memory has them, top-K logic units,
...), with retrieval recall, tokens sent to the generator, judge and how-to scores side by side. ``dialogue``: a simulated user does each task with each
paradigm over several turns; single-turn and multi-turn SR and action-item P/R/F1. Both resume
where they stopped and write report.md + report.json.
"""

from __future__ import annotations

import argparse
import json
import sys

from inscoqa.cli.options import add_engine_flags, engine_overrides, first_line, parse_params


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("thread", help="THREAD: paradigm comparison and multi-turn evaluation",
                            description=__doc__.split("\n\n", 1)[1] if __doc__ else None)
    commands = parser.add_subparsers(dest="thread_command", required=True)
    compare = commands.add_parser("compare", help="answer the same questions from each paradigm")
    _common(compare)
    compare.set_defaults(func=cmd_compare)
    dialogue = commands.add_parser("dialogue", help="multi-turn evaluation with a simulated user")
    _common(dialogue)
    dialogue.add_argument("--max-turns", type=int, default=5,
                          help="answers per dialogue at most (default 5)")
    dialogue.add_argument("--simulator", choices=["rules", "llm"], default="rules",
                          help="'rules': deterministic, from the reference steps and the "
                               "answers' linker conditions (default); 'llm': the chat model "
                               "plays the user")
    dialogue.set_defaults(func=cmd_dialogue)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", default="sample",
                        help="'sample' (bundled), a bundled name, a .jsonl/.json file, or hf:<dir>")
    parser.add_argument("--limit", type=int, default=2,
                        help="conversations, domains taken in turn (default 2; 0: all)")
    parser.add_argument("--setting", choices=["given", "memory"], default="given",
                        help="each conversation's own documents (default) or a whole memory")
    parser.add_argument("--memory", help="memory directory (memory setting; default: the "
                                         "bundled sample memory)")
    parser.add_argument("--paradigms",
                        help="comma-separated unit kinds (default: every kind the memory holds "
                             "units of; given documents: all but proposition)")
    parser.add_argument("--k", action="append", default=[], metavar="KIND=N",
                        help="units retrieved for a paradigm (default 1 document, 5 otherwise)")
    parser.add_argument("--matcher", choices=["judge", "lexical", "embedding"], default="judge",
                        help="action-item matching: one judge call extracting and pairing both "
                             "sides (default), or the lexical / embedding matcher")
    parser.add_argument("--out", default="runs", help="runs directory (default ./runs)")
    parser.add_argument("--report-dir", help="where to write report.md and report.json")
    add_engine_flags(parser, "", "", "the answerers'")
    parser.add_argument("--max-tokens", dest="max_tokens", type=int,
                        help="the answerers' default max tokens per reply")
    add_engine_flags(parser, "judge", "judge_", "the judge's")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def _options(args: argparse.Namespace) -> object:
    from eval.paradigms import StudyOptions

    k = {}
    for kind, value in parse_params(args.k).items():
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"--k {kind}={value!r}: expected a positive whole number")
        k[kind] = value
    return StudyOptions(
        data=args.data, limit=args.limit or None, setting=args.setting, memory=args.memory,
        paradigms=[p.strip() for p in (args.paradigms or "").split(",") if p.strip()], k=k,
        out=args.out, report_dir=args.report_dir, matcher=args.matcher,
        serving=engine_overrides(args, ""), judge=engine_overrides(args, "judge_"),
        max_turns=getattr(args, "max_turns", 5), simulator=getattr(args, "simulator", "rules"),
        progress=not args.no_progress and not args.json)


def _run(args: argparse.Namespace, study: str) -> int:
    from eval.paradigms import (
        StudyStopped,
        compare_paradigms,
        comparison_markdown,
        dialogue_markdown,
        dialogue_paradigms,
    )
    from inscoqa.dirlock import DirectoryLockedError
    from serving.errors import LLMError

    run, markdown = ((compare_paradigms, comparison_markdown) if study == "compare"
                     else (dialogue_paradigms, dialogue_markdown))
    try:
        summary = run(_options(args))
    except (DirectoryLockedError, LLMError, StudyStopped) as exc:
        print(f"inscoqa thread {study}: {first_line(exc)}", file=sys.stderr)
        return 1
    except (ValueError, KeyError, TypeError, OSError) as exc:
        print(f"inscoqa thread {study}: {first_line(exc)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2, default=str))
    else:
        print(markdown(summary))
        print(f"report: {summary['files']['markdown']}")
    failed = sum(len(r["failures"]) for r in summary["paradigms"].values())
    if failed:
        print(f"inscoqa thread {study}: {failed} sample(s) failed; see the report",
              file=sys.stderr)
        return 1
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    return _run(args, "compare")


def cmd_dialogue(args: argparse.Namespace) -> int:
    return _run(args, "dialogue")
