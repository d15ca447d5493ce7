"""``inscoqa judge check``: does a judge order answers of known quality correctly on this data?

From each conversation's reference it builds answers of known quality (the reference, its
procedure with 25/50/75 % of the steps removed, the steps shuffled, another conversation's
answer, an empty reply), runs the InsEval judge on them and reports rank correlations with the
known order, the TCR error, parse failures and one verdict line (see ``eval.judge_check``).
"""

from __future__ import annotations

import argparse
import json
import sys

from inscoqa.cli.options import add_engine_flags, engine_overrides, first_line

DEFAULT_LIMIT = 6


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("judge", help="check a judge before trusting its scores")
    commands = parser.add_subparsers(dest="judge_command", required=True)
    check = commands.add_parser(
        "check", help="run the judge on answers of known quality built from the references",
        description="Builds answers of known quality from each conversation's reference, runs "
                    "the InsEval judge on them, and reports Spearman/Kendall with the known "
                    "order, the TCR error, parse failures and whether the judge is usable.")
    check.add_argument("--data", default="sample",
                       help="'sample' (bundled), a bundled name, a .jsonl/.json file, or "
                            "hf:<dir>[:split]")
    check.add_argument("--split", help="split of an hf: dataset")
    size = check.add_mutually_exclusive_group()
    size.add_argument("--limit", type=int, help=f"conversations to use, domains taken in turn "
                                                f"(default {DEFAULT_LIMIT}; each costs 7 judge calls)")
    size.add_argument("--all", action="store_true", help="use every conversation")
    add_engine_flags(check, "judge", "judge_", "the judge's")
    check.add_argument("--judge-mode", choices=["json", "text"],
                       help="judge replies as JSON (default on the embedded engine) or as "
                            "'Total rating:' text (default elsewhere)")
    check.add_argument("--judge-prompt", metavar="FILE",
                       help="a judge prompt file with the bundled prompt's placeholders")
    check.add_argument("--judge-max-tokens", type=int, help="max tokens of a judge reply")
    check.add_argument("--concurrency", type=int, default=4, help="judge calls in flight")
    check.add_argument("--out", metavar="FILE", help="also write the full result as JSON here")
    check.add_argument("--json", action="store_true", help="print the result as JSON")
    check.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    from eval.bench.session import BenchOptions, dataset_spec, judge_check_for, select
    from eval.bench.store import write_json_atomic
    from eval.judge_check import check_lines
    from inscoqa.bundled import resolve_dataset
    from serving.errors import LLMError

    try:
        spec = dataset_spec(args.data, args.split)
        conversations = resolve_dataset(spec)
        if not conversations:
            raise ValueError(f"dataset {spec!r} has no conversations")
        limit = None if args.all else (args.limit or DEFAULT_LIMIT)
        options = BenchOptions(
            judge=engine_overrides(args, "judge_"), judge_prompt=args.judge_prompt,
            judge_options={k: v for k, v in (("mode", args.judge_mode),
                                             ("max_tokens", args.judge_max_tokens))
                           if v is not None},
            concurrency=args.concurrency)
        check, note = judge_check_for(options, select(conversations, limit))
    except LLMError as exc:
        print(f"inscoqa judge check: {first_line(exc)}", file=sys.stderr)
        return 1
    except (ValueError, KeyError, TypeError, OSError) as exc:
        print(f"inscoqa judge check: {exc}", file=sys.stderr)
        return 2
    if args.out:
        write_json_atomic(args.out, check.to_dict())
    if args.json:
        print(json.dumps({**check.to_dict(), "note": note}, ensure_ascii=False, indent=2))
        return 0
    print(f"judge check on {check.n_conversations} conversations of {spec} "
          f"({check.n_probes} judged answers of known quality)\n")
    print("\n".join(check_lines(check)).replace("**", ""))
    if note:
        print(f"\nnote: {note}")
    return 0
