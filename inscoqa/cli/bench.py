"""``inscoqa bench``: score answerers on InsCoQA-format conversations with the InsEval judge.

Runs are resumable: results go to ``<out>/<run key>/results.jsonl`` as each sample finishes, so
running the same command again continues an interrupted run, or just prints the report of a
finished one without calling any model.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from inscoqa.cli.options import (
    add_engine_flags,
    engine_overrides,
    first_line,
    parse_system_params,
)

DEFAULT_SYSTEMS = "extractive,inscoqa"
DEFAULT_LIMIT = 6


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "bench", help="benchmark answerers with the InsEval judge (resumable)",
        description="Answer conversations with named systems, score every answer with the "
                    "InsEval judge (JS, TCR), W/C-ROUGE-L, retrieval and cost, optionally compare "
                    "systems pairwise; writes report.md, report.json and PNG plots.")
    parser.add_argument("--systems", default=DEFAULT_SYSTEMS,
                        help=f"comma-separated answerer names (default {DEFAULT_SYSTEMS})")
    parser.add_argument("--data", default="sample",
                        help="'sample' (bundled), a bundled name, a .jsonl/.json file, or "
                             "hf:<dir>[:split]")
    parser.add_argument("--split", help="split of an hf: dataset")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--limit", type=int,
                      help=f"conversations to run, domains taken in turn (default: all of a "
                           f"dataset given with --data; {DEFAULT_LIMIT} of the bundled sample)")
    size.add_argument("--all", action="store_true", help="run every conversation")
    parser.add_argument("--setting", choices=["given", "memory"], default="given",
                        help="'given' documents (InsCoQA protocol) or open 'memory' setting")
    parser.add_argument("--memory", help="memory directory (memory setting; default: the "
                                         "bundled sample memory)")
    parser.add_argument("--store", metavar="LOCATION",
                        help="memory setting: search the memory's collection in Qdrant, "
                             "qdrant://HOST:PORT or qdrant-local:DIR (see memory build --store)")
    parser.add_argument("--out", default="runs", help="runs directory (default ./runs)")
    parser.add_argument("--report-dir", help="where to write the report (default: "
                                             "<out>/report-<key>)")
    parser.add_argument("--concurrency", type=int, default=4,
                        help="samples in flight at once (the client bounds requests too)")
    parser.add_argument("--pairwise", action="store_true",
                        help="compare the systems' procedures pairwise (10 judge calls each)")
    parser.add_argument("--howto", action="store_true",
                        help="linear how-to metrics: action-item precision/recall/F1/success")
    parser.add_argument("--retry-failed", action="store_true",
                        help="run failed samples again (infrastructure failures always are)")
    parser.add_argument("--param", action="append", default=[], metavar="SYSTEM.KEY=VALUE",
                        help="answerer parameter (JSON value or string), repeatable")
    add_engine_flags(parser, "", "", "the answerers'")
    parser.add_argument("--max-tokens", dest="max_tokens", type=int,
                        help="the answerers' default max tokens per reply")
    add_engine_flags(parser, "judge", "judge_", "the judge's")
    parser.add_argument("--judge-mode", choices=["json", "text"],
                        help="judge replies as schema-constrained JSON (default) or as "
                             "'Total rating:' / 'Task completion rate:' text")
    parser.add_argument("--judge-max-tokens", type=int, help="max tokens of a judge reply")
    parser.add_argument("--protocol", choices=["paper", "constrained"],
                        help="InsCoQA protocol mode of the inscoqa answerer: 'paper' (plain-text "
                             "sections, whole documents and history; default for vLLM and "
                             "external engines) or 'constrained' (capped JSON schema; default on "
                             "the embedded engine)")
    parser.add_argument("--judge-prompt", metavar="FILE",
                        help="a judge prompt file with the bundled prompt's placeholders (e.g. "
                             "the paper's appendix prompt); its hash goes into the run key")
    parser.add_argument("--judge-check", type=int, default=0, metavar="N",
                        help="first check the judge on answers of known quality built from N "
                             "conversations' references; the result goes into the report")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="significance level of differences between systems (default 0.05)")
    add_engine_flags(parser, "second-judge", "second_judge_", "a second judge's")
    parser.epilog = ("Setting any --second-judge-* flag (or [second_judge] in inscoqa.toml) scores "
                     "the same answers with a second judge and reports judge agreement.")
    parser.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                        help="answer and judge on Ray: an actor pool of --concurrency actors on "
                             "the cluster at ADDRESS (e.g. auto, ray://head:10001), or on a "
                             "local Ray instance when no address is given (pip install "
                             "'inscoqa[ray]')")
    parser.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(func=cmd_bench)


def selected_limit(args: argparse.Namespace) -> int | None:
    """--limit if given; else a quick subset of the bundled sample, and all of a user's data."""
    if args.all:
        return None
    if args.limit is not None:
        return args.limit
    return DEFAULT_LIMIT if args.data == "sample" else None


def cmd_bench(args: argparse.Namespace) -> int:
    from eval.bench.session import BenchOptions, run_bench
    from eval.report import pairwise_table, summary_table, verdict_lines
    from inscoqa.dirlock import DirectoryLockedError
    from procmem.stores import StoreUnavailableError
    from serving.errors import LLMError

    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    try:
        options = BenchOptions(
            systems=systems, data=args.data, split=args.split,
            limit=selected_limit(args), setting=args.setting, memory=args.memory,
            store=args.store,
            out=args.out, report_dir=args.report_dir, concurrency=args.concurrency,
            pairwise=args.pairwise, howto=args.howto,
            serving=engine_overrides(args, ""), judge=engine_overrides(args, "judge_"),
            second_judge=engine_overrides(args, "second_judge_"),
            params=parse_system_params(args.param), retry_failed=args.retry_failed,
            judge_options={k: v for k, v in (("mode", args.judge_mode),
                                             ("max_tokens", args.judge_max_tokens))
                           if v is not None},
            protocol=args.protocol, judge_prompt=args.judge_prompt,
            judge_check=args.judge_check, alpha=args.alpha,
            progress=not args.no_progress and not args.json, plots=not args.no_plots,
            ray=args.ray)
        result = run_bench(options)
    except DirectoryLockedError as exc:
        print(f"inscoqa bench: {exc}", file=sys.stderr)
        return 1
    except LLMError as exc:  # an engine that cannot start, or an endpoint that cannot be reached
        print(f"inscoqa bench: {first_line(exc)}", file=sys.stderr)
        return 1
    except StoreUnavailableError as exc:  # a memory store that cannot be reached
        print(f"inscoqa bench: {first_line(exc)}", file=sys.stderr)
        return 1
    except (ValueError, KeyError, TypeError, OSError) as exc:
        print(f"inscoqa bench: {exc}", file=sys.stderr)
        return 2
    summary, files = result.summary, result.files
    if args.json:
        out = {k: v for k, v in summary.items() if k != "distributions"}
        out["report"] = {"markdown": str(files.markdown), "json": str(files.json),
                         "plots": [str(p) for p in files.plots]}
        print(json.dumps(out, ensure_ascii=False, indent=2, default=str))
        return infrastructure_status(result.outcome)
    meta = summary["meta"]
    print(f"\n{meta['n_conversations']} conversations of {meta['data_id']}, setting "
          f"{meta['setting']}, judge {meta['judge'].get('model', '?')}; "
          f"new samples this run: {sum(meta['new_samples'].values())}\n")
    print(summary_table(summary))
    print("\n" + "\n".join(verdict_lines(summary)))
    if summary["pairwise"]:
        print()
        print(pairwise_table(summary))
    failed = sum(s["n"] - s["judged"] for s in summary["systems"].values())
    if failed:
        print(f"\n{failed} sample(s) not judged: the failures are listed in the report")
    print(f"\nreport: {files.markdown}")
    return infrastructure_status(result.outcome)


def infrastructure_status(outcome: Any) -> int:
    """1 (with one line on stderr) when samples are left undone by the infrastructure, else 0."""
    left = [(name, conv.id) for name, records in outcome.results.items()
            for conv in outcome.conversations
            if (record := next((r for r in records if r["sample_id"] == conv.id), None)) is None
            or record.get("transient")]
    if not left:
        return 0
    errors = [r.get("error") or "" for records in outcome.results.values() for r in records
              if r.get("transient")]
    reason = outcome.stopped or (max(set(errors), key=errors.count) if errors else
                                 "samples were not run")
    reason = reason.split(": ", 1)[-1] if reason.split(": ", 1)[0].endswith("Error") else reason
    print(f"inscoqa bench: {first_line(Exception(reason))}; run the same command again to retry "
          f"{len(left)} sample(s)", file=sys.stderr)
    return 1
