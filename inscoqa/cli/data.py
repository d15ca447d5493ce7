"""``inscoqa data``: validate conversation files and print their statistics; build new data
from a team's own documents, review it, and split it.

PATH is ``sample``/``all`` (every bundled file), a bundled name (``dev-officedocs``), a
``.jsonl``/``.json`` file, or ``hf:<saved datasets dir>[:split]``.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inscoqa import bundled
from inscoqa.corpus.index import CorpusIndex
from inscoqa.io import load_conversations
from inscoqa.records import Conversation
from inscoqa.schema import DatasetError, validate_record

DESCRIPTION = """Validate conversation files and print their statistics; build conversations
from your own documents (build), review them (review, review-export, review-import) and split
them (split).

PATH is 'sample' (every bundled file), a bundled name (dev-officedocs, dev-gnome-cooking),
a .jsonl/.json file, or hf:<dir saved with datasets>[:split]."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("data", help="validate, build, review and split InsCoQA-format data",
                            description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="data_command", required=True)

    validate = commands.add_parser(
        "validate", help="check every record against the schema and resolve its doc_ids",
        description="Check every record against the conversation schema, that ids are unique and "
                    "that every referenced doc_id resolves in the corpora. Lists every bad record; "
                    "exits with 1 if there is one (0 with --skip-bad, the bad records are then "
                    "reported as skipped).")
    validate.add_argument("path", metavar="PATH", help="sample, a bundled name, a .jsonl/.json file "
                                                       "or hf:<dir>[:split]")
    validate.add_argument("--skip-bad", action="store_true",
                          help="report bad records as skipped and exit 0 if any record is valid")
    validate.add_argument("--corpus", action="append", default=[], metavar="NAME=DIR",
                          help="resolve doc_ids of corpus NAME in DIR (repeatable; default: the "
                               "bundled corpora)")
    validate.add_argument("--no-resolve", action="store_true",
                          help="do not check that doc_ids resolve to documents")
    validate.add_argument("--json", action="store_true", help="print a JSON report")
    validate.set_defaults(func=run_validate)

    stats = commands.add_parser(
        "stats", help="InsCoQA Table 1/2 style statistics",
        description="Documents and words per conversation, rounds, steps per procedure, answer "
                    "length, overall and per domain.")
    stats.add_argument("path", metavar="PATH", help="sample, a bundled name, a .jsonl/.json file "
                                                    "or hf:<dir>[:split]")
    stats.add_argument("--corpus", action="append", default=[], metavar="NAME=DIR",
                       help="read documents of corpus NAME from DIR (default: the bundled corpora)")
    stats.add_argument("--json", action="store_true", help="print the statistics as JSON")
    stats.set_defaults(func=run_stats)

    register_build(commands)
    register_review(commands)
    register_split(commands)


# ---------------------------------------------------------------- validate


@dataclass
class FileReport:
    source: str
    valid: list[Conversation] = field(default_factory=list)
    errors: list[DatasetError] = field(default_factory=list)

    @property
    def records(self) -> int:
        return len(self.valid) + len(self.errors)

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "records": self.records, "valid": len(self.valid),
                "invalid": len(self.errors), "errors": [e.to_dict() for e in self.errors]}


def _corpus_index(specs: list[str]) -> CorpusIndex:
    if not specs:
        return bundled.corpus_index()
    roots: dict[str, Path] = dict(bundled.corpus_roots())
    for spec in specs:
        name, sep, directory = spec.partition("=")
        if not sep or not name or not directory:
            raise SystemExit(f"inscoqa data: --corpus expects NAME=DIR, got '{spec}'")
        if not Path(directory).is_dir():
            raise SystemExit(f"inscoqa data: corpus directory '{directory}' does not exist")
        roots[name] = Path(directory)
    return CorpusIndex(roots)


def _sources(spec: str) -> list[str]:
    """Files (or hf: specs) behind a PATH argument."""
    if spec in bundled.ALL_NAMES:
        return [str(p) for p in bundled.conversation_files().values()]
    files = bundled.conversation_files()
    if spec in files:
        return [str(files[spec])]
    if spec.startswith(bundled.HF_PREFIX):
        return [spec]
    path = Path(spec)
    if not path.is_file():
        raise FileNotFoundError(f"no such dataset '{spec}': expected sample, a bundled name "
                                f"({', '.join(files)}), a .jsonl/.json file or hf:<dir>[:split]")
    return [spec]


def _validate_hf(spec: str, index: CorpusIndex | None) -> FileReport:
    """Every row of a saved ``datasets`` directory, collecting all errors."""
    import datasets

    from inscoqa.hf import _record

    target = spec[len(bundled.HF_PREFIX):]
    path, split = Path(target), None
    if not path.exists() and ":" in target:
        head, _, split = target.rpartition(":")
        path = Path(head)
    loaded = datasets.load_from_disk(str(path))
    parts = {split: loaded[split]} if split else (dict(loaded) if isinstance(loaded, datasets.DatasetDict)
                                                  else {None: loaded})
    report = FileReport(spec)
    for name, dataset in parts.items():
        where = f"{path}:{name}" if name else str(path)
        for line, row in enumerate(dataset, start=1):
            try:
                conv = validate_record(_record(row), where=where, line=line)
                missing = index.missing(conv) if index is not None else []
                if missing:
                    i = [r.doc_id for r in conv.documents].index(missing[0])
                    raise DatasetError(where, line, f"documents[{i}].doc_id",
                                       "a doc_id that resolves in the corpora", record_id=conv.id,
                                       got=f"'{missing[0]}'")
                report.valid.append(conv)
            except DatasetError as error:
                report.errors.append(error)
    return report


def validate_source(source: str, index: CorpusIndex | None) -> FileReport:
    if source.startswith(bundled.HF_PREFIX):
        return _validate_hf(source, index)
    io_log = logging.getLogger("inscoqa.io")
    level = io_log.level
    io_log.setLevel(logging.ERROR)  # the report below lists every skipped record itself
    try:
        loaded = load_conversations(source, skip_bad=True, corpus=index)
    finally:
        io_log.setLevel(level)
    return FileReport(source, list(loaded), list(loaded.errors))


def _display(source: str) -> str:
    try:
        return str(Path(source).resolve().relative_to(Path.cwd()))
    except ValueError:
        return source


def run_validate(args: argparse.Namespace) -> int:
    index = None if args.no_resolve else _corpus_index(args.corpus)
    try:
        reports = [validate_source(s, index) for s in _sources(args.path)]
    except (FileNotFoundError, DatasetError) as exc:
        print(f"inscoqa data validate: {exc}", file=sys.stderr)
        return 2
    invalid = sum(len(r.errors) for r in reports)
    valid = sum(len(r.valid) for r in reports)
    ok = invalid == 0 or (args.skip_bad and valid > 0)
    if args.json:
        print(json.dumps({"ok": ok, "valid": valid, "invalid": invalid,
                          "resolved_doc_ids": index is not None,
                          "files": [r.to_dict() for r in reports]}, ensure_ascii=False, indent=2))
        return 0 if ok else 1
    for report in reports:
        docs = len({ref.doc_id for c in report.valid for ref in c.documents})
        resolved = f"; {docs} distinct documents resolve" if index is not None and docs else ""
        bad = f", {len(report.errors)} {'skipped' if args.skip_bad else 'INVALID'}" if report.errors else ""
        print(f"{_display(report.source)}: {report.records} records: {len(report.valid)} valid"
              f"{bad}{resolved}")
        for error in report.errors:
            print(f"  {error}")
    if invalid == 0:
        print(f"OK: all {valid} conversations are valid")
    elif ok:
        print(f"OK with skipped records: {valid} valid, {invalid} skipped")
    else:
        files = sum(1 for r in reports if r.errors)
        print(f"FAILED: {invalid} invalid record{'s' if invalid != 1 else ''} in {files} "
              f"file{'s' if files != 1 else ''}")
    return 0 if ok else 1


# ---------------------------------------------------------------- stats


def run_stats(args: argparse.Namespace) -> int:
    from inscoqa.stats import compute_stats, format_stats

    try:
        convs = bundled.resolve_dataset(args.path)
    except (ValueError, DatasetError, KeyError) as exc:
        print(f"inscoqa data stats: {exc}", file=sys.stderr)
        return 2
    try:
        stats = compute_stats(convs, _corpus_index(args.corpus))
    except ValueError as exc:  # a referenced document that cannot be read
        print(f"inscoqa data stats: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"source": args.path, **stats.to_dict()}, ensure_ascii=False, indent=2))
    else:
        print(format_stats(stats, title=args.path), end="")
    return 0


# ---------------------------------------------------------------- build


def register_build(commands: argparse._SubParsersAction) -> None:
    from inscoqa.builder.pipeline import BuildOptions
    from inscoqa.cli.options import add_engine_flags
    from inscoqa.records import DOMAINS

    defaults = BuildOptions()
    build = commands.add_parser(
        "build", help="build InsCoQA-format conversations from your own documents",
        description="Filter user queries, retrieve 1-N documents per query from a memory, generate "
                    "a history and a last question, answer it, judge the sample and summarise the "
                    "answer into steps (SPEC 1). Resumable: run the same command again after an "
                    "interruption. Writes OUT/dataset.jsonl (kept conversations), "
                    "OUT/rejected.jsonl (rejected and failed items with their reason), "
                    "OUT/items.jsonl and OUT/summary.json.")
    source = build.add_mutually_exclusive_group(required=True)
    source.add_argument("--memory", type=Path, metavar="DIR", help="a memory built with "
                                                                  "'inscoqa memory build'")
    source.add_argument("--docs", type=Path, metavar="DIR",
                        help="a folder of documents (.md, .rst, .page, .txt, .html); a memory over it "
                             "is built in OUT/memory")
    source.add_argument("--corpus", action="append", metavar="NAME",
                        help="a bundled corpus (officedocs, gnome-help, based-cooking); repeatable")
    build.add_argument("--out", type=Path, required=True, metavar="DIR", help="build directory")
    build.add_argument("--queries", type=Path, metavar="FILE",
                       help="user queries: .txt (one a line) or .jsonl ({\"query\": ...}); "
                            "default: questions made from the documents' titles and headings")
    build.add_argument("--limit", type=int, help="use the first N queries")
    build.add_argument("--no-filter", action="store_true",
                       help="skip step 1 and take every query as it is (a curated query list)")
    build.add_argument("--domain", choices=DOMAINS, default=defaults.domain,
                       help=f"domain of the built conversations (default {defaults.domain})")
    build.add_argument("--max-documents", type=int, default=defaults.max_documents,
                       help=f"documents per conversation at most (default {defaults.max_documents})")
    build.add_argument("--min-score-ratio", type=float, default=defaults.min_score_ratio,
                       help="a further document is used when its retrieval score is at least this "
                            f"share of the best one (default {defaults.min_score_ratio})")
    build.add_argument("--method", choices=["dense", "bm25", "hybrid"], default="dense",
                       help="retrieval method (default dense: cosine scores)")
    build.add_argument("--max-rounds", type=int, default=defaults.max_rounds,
                       help=f"earlier rounds at most (default {defaults.max_rounds})")
    build.add_argument("--concurrency", type=int, default=4, help="queries in flight at once")
    build.add_argument("--retry-failed", action="store_true",
                       help="run failed items again (infrastructure failures always are)")
    build.add_argument("--restart", action="store_true",
                       help="discard the items of OUT and build anew")
    add_engine_flags(build, whose="the builder's")
    build.add_argument("--max-tokens", dest="max_tokens", type=int, help="max tokens per reply")
    build.add_argument("--no-progress", action="store_true", help="no progress bar")
    build.add_argument("--json", action="store_true", help="print the summary as JSON")
    build.set_defaults(func=run_build)


def _build_memory(args: argparse.Namespace) -> Any:
    """The memory the command retrieves from (imports of procmem stay inside the command)."""
    from procmem.memory import Memory, MemoryStoreError, build_memory

    if args.memory is not None:
        try:
            return Memory.load(args.memory)
        except (MemoryStoreError, FileNotFoundError) as exc:
            raise ValueError(f"--memory {args.memory}: {exc}") from exc
    if args.docs is not None:
        if not args.docs.is_dir():
            raise ValueError(f"--docs {args.docs}: not a directory")
        docs = list(CorpusIndex({args.docs.resolve().name: args.docs}).iter_documents())
    else:
        index = bundled.corpus_index()
        try:
            docs = [d for name in args.corpus for d in index.iter_documents(corpus=name)]
        except KeyError as exc:
            raise ValueError(f"--corpus: {exc.args[0]}") from exc
    if not docs:
        raise ValueError("no documents found")
    path = args.out / "memory"
    try:
        memory = Memory.load(path)
        memory.add_documents(docs)
    except (MemoryStoreError, FileNotFoundError):
        memory = build_memory(docs, kinds=["document"], progress=not args.no_progress)
    memory.save(path)
    return memory


def memory_retriever(memory: Any, method: str) -> Any:
    """A :class:`inscoqa.builder.Retriever` over a procmem memory: whole documents when it holds
    them, else the best unit of each document."""
    from inscoqa.builder import SourceDocument

    kind = "document" if "document" in memory.kinds else None

    def retrieve(query: str, k: int) -> list[SourceDocument]:
        hits = memory.search(query, k=k if kind else 4 * k, kind=kind, method=method)
        best: dict[str, SourceDocument] = {}
        for hit in hits:
            if hit.doc_id not in best:
                title = str(hit.unit.meta.get("title", "")) or hit.doc_id
                best[hit.doc_id] = SourceDocument(hit.doc_id, title, hit.unit.render(), hit.score)
        return list(best.values())[:k]

    return retrieve


def memory_documents(memory: Any) -> list[Any]:
    """The memory's documents (title and text) for generated queries."""
    from inscoqa.corpus.document import Document

    docs: dict[str, Any] = {}
    for unit in memory.units("document") if "document" in memory.kinds else []:
        doc_id = str(unit.meta.get("doc_id", ""))
        docs.setdefault(doc_id, Document(doc_id, str(unit.meta.get("title", "")), unit.render()))
    if not docs:
        for doc_id in memory.doc_ids():
            record = memory.document(doc_id)
            docs[doc_id] = Document(doc_id, record.title if record else doc_id, "")
    return list(docs.values())


def run_build(args: argparse.Namespace) -> int:
    from inscoqa.builder import (
        BuildOptions,
        BuildSpecError,
        DatasetBuilder,
        DirectoryLockedError,
        queries_from_documents,
        read_queries,
    )
    from inscoqa.cli.options import engine_overrides, first_line
    from serving.config import ConfigError, load_serving_config
    from serving.errors import LLMError
    from serving.pool import ClientPool

    try:
        options = BuildOptions(domain=args.domain, filter=not args.no_filter,
                               max_documents=args.max_documents,
                               candidates=max(6, args.max_documents),
                               min_score_ratio=args.min_score_ratio,
                               max_rounds=args.max_rounds)
        queries = read_queries(args.queries) if args.queries else None
        memory = _build_memory(args)
        if queries is None:
            queries = queries_from_documents(memory_documents(memory))
        if args.limit is not None:
            queries = queries[: args.limit]
        if not queries:
            raise ValueError("no queries: give --queries FILE, or documents with titles")
        config = load_serving_config(engine_overrides(args))
    except (ValueError, DatasetError, ConfigError, OSError) as exc:
        print(f"inscoqa data build: {exc}", file=sys.stderr)
        return 2
    try:
        with ClientPool() as clients:
            builder = DatasetBuilder(clients.model(config), memory_retriever(memory, args.method),
                                     args.out, options=options, concurrency=args.concurrency,
                                     retry_failed=args.retry_failed, restart=args.restart,
                                     progress=not args.no_progress and not args.json)
            summary = builder.run(queries)
    except (BuildSpecError, DirectoryLockedError) as exc:
        print(f"inscoqa data build: {exc}", file=sys.stderr)
        return 1
    except LLMError as exc:  # an engine that cannot start or be reached at all
        print(f"inscoqa data build: {first_line(exc)}", file=sys.stderr)
        return 1
    print(json.dumps(summary.to_dict(), indent=2, ensure_ascii=False) if args.json
          else summary.text())
    if summary.left:
        reason = first_line(Exception(summary.stopped or "the engine failed"))
        print(f"inscoqa data build: {reason}; run the same command again to retry {summary.left} "
              "item(s)", file=sys.stderr)
        return 1
    return 0


# ---------------------------------------------------------------- review


def register_review(commands: argparse._SubParsersAction) -> None:
    review = commands.add_parser(
        "review", help="review a built dataset in the browser (accept, reject, edit)",
        description="Serve the review page for FILE: one sample at a time with its documents, "
                    "history, question, answer and steps. Verdicts are saved as they are given, "
                    "in FILE's folder under <name>.review/<reviewer>.jsonl.")
    review.add_argument("file", metavar="FILE", help="a .jsonl/.json dataset (e.g. OUT/dataset.jsonl)")
    review.add_argument("--reviewer", required=True, help="your name (letters, digits, . _ -)")
    review.add_argument("--host", default="127.0.0.1", help="interface (default 127.0.0.1)")
    review.add_argument("--port", type=int, default=7861, help="port (default 7861)")
    review.set_defaults(func=run_review)

    export = commands.add_parser(
        "review-export", help="write a review sheet (CSV or JSONL) for reviewers who work elsewhere",
        description="One row per sample with empty columns decision (accept/reject/edit), reason, "
                    "edited_answer, edited_procedures (one step a line) and reviewer; prefilled "
                    "with --reviewer's verdicts when there are any.")
    export.add_argument("file", metavar="FILE")
    export.add_argument("--out", type=Path, required=True, metavar="SHEET", help=".csv or .jsonl")
    export.add_argument("--reviewer", default="", help="prefill this reviewer's name and verdicts")
    export.set_defaults(func=run_review_export)

    finish = commands.add_parser(
        "review-import", help="import verdicts, report acceptance and agreement, write the final data",
        description="Record the verdicts of filled sheets (if given), then combine every reviewer's "
                    "verdicts on FILE: a sample is kept when more reviewers accepted (or edited) it "
                    "than rejected it, with the latest edit applied. Prints the acceptance rate and "
                    "the reviewers' agreement (share of agreeing pairs, Cohen's kappa per pair) and "
                    "writes --out with the kept samples only.")
    finish.add_argument("file", metavar="FILE")
    finish.add_argument("sheets", nargs="*", metavar="SHEET", help="filled review sheets (.csv/.jsonl)")
    finish.add_argument("--reviewer", help="the reviewer of the sheets (default: their column)")
    finish.add_argument("--out", type=Path, required=True, metavar="FINAL", help="final .jsonl/.json")
    finish.add_argument("--json", action="store_true", help="print the report as JSON")
    finish.set_defaults(func=run_review_import)


def run_review(args: argparse.Namespace) -> int:
    from inscoqa.review.page import build_review_page
    from inscoqa.review.session import ReviewSession
    from inscoqa.review.verdicts import VerdictError

    try:
        ReviewSession(args.file, args.reviewer)  # a bad file or name fails here, in one line
    except (DatasetError, VerdictError, ValueError) as exc:
        print(f"inscoqa data review: {exc}", file=sys.stderr)
        return 2
    print(f"reviewing {args.file} as {args.reviewer} on http://{args.host}:{args.port}/")
    build_review_page(args.file, args.reviewer).launch(server_name=args.host,
                                                        server_port=args.port, footer_links=[])
    return 0


def run_review_export(args: argparse.Namespace) -> int:
    from inscoqa.review import VerdictError, VerdictStore, export_sheet

    try:
        convs = list(load_conversations(args.file))
        verdicts = VerdictStore(args.file).of(args.reviewer) if args.reviewer else {}
        path = export_sheet(convs, args.out, reviewer=args.reviewer, verdicts=verdicts)
    except (DatasetError, VerdictError, OSError) as exc:
        print(f"inscoqa data review-export: {exc}", file=sys.stderr)
        return 2
    print(f"{path}: {len(convs)} samples to review")
    return 0


def run_review_import(args: argparse.Namespace) -> int:
    from inscoqa.review import VerdictError, VerdictStore, read_sheet, write_final

    try:
        convs = list(load_conversations(args.file))
        store = VerdictStore(args.file)
        imported = [v for sheet in args.sheets for v in read_sheet(sheet, convs,
                                                                   reviewer=args.reviewer)]
        store.save_many(imported)
        report = write_final(convs, store.all(), args.out)
    except (DatasetError, VerdictError, OSError) as exc:
        print(f"inscoqa data review-import: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"imported": len(imported), **report.to_dict()}, indent=2,
                         ensure_ascii=False))
    else:
        if args.sheets:
            print(f"imported {len(imported)} verdicts from {len(args.sheets)} sheet(s)")
        print(report.text())
    if report.reviewed == 0:
        print("inscoqa data review-import: no verdict on any sample yet", file=sys.stderr)
        return 1
    return 0


# ---------------------------------------------------------------- split


def register_split(commands: argparse._SubParsersAction) -> None:
    split = commands.add_parser(
        "split", help="deterministic train/validation/test splits as JSONL and datasets",
        description="Split a dataset by a hash of --seed and each conversation's id (the same data "
                    "and seed give the same splits). Writes OUT/<split>.jsonl, OUT/hf (a datasets "
                    "DatasetDict saved with save_to_disk) and OUT/splits.json, and prints Table 1 "
                    "statistics per split.")
    split.add_argument("path", metavar="PATH", help="a .jsonl/.json file (e.g. the final reviewed "
                                                    "data), a bundled name or hf:<dir>[:split]")
    split.add_argument("--out", type=Path, required=True, metavar="DIR")
    size = split.add_mutually_exclusive_group()
    size.add_argument("--ratios", default=None, help="ratios train,validation,test (default 0.8,0.1,0.1)")
    size.add_argument("--sizes", help="conversations per split, e.g. 100,20,30")
    split.add_argument("--names", default="train,validation,test", help="split names")
    split.add_argument("--seed", type=int, default=0, help="the split's seed (default 0)")
    split.add_argument("--format", default="jsonl,hf", help="jsonl, hf or both (default jsonl,hf)")
    split.add_argument("--json", action="store_true", help="print the splits' statistics as JSON")
    split.set_defaults(func=run_split)


def run_split(args: argparse.Namespace) -> int:
    from inscoqa.splits import SplitSpec, split_conversations, write_splits
    from inscoqa.stats import compute_stats

    names = [n.strip() for n in args.names.split(",") if n.strip()]
    try:
        spec = (SplitSpec.of_sizes(args.sizes, names) if args.sizes
                else SplitSpec.of_ratios(args.ratios or "0.8,0.1,0.1", names))
        convs = bundled.resolve_dataset(args.path)
        splits = split_conversations(convs, spec, seed=args.seed)
        files = write_splits(splits, args.out, formats=[f.strip() for f in args.format.split(",")],
                             seed=args.seed, spec=spec)
    except (ValueError, DatasetError, KeyError, OSError) as exc:
        print(f"inscoqa data split: {exc}", file=sys.stderr)
        return 2
    stats = {name: compute_stats(part) for name, part in splits.items()}
    if args.json:
        print(json.dumps({"files": files, "splits": {n: s.to_dict() for n, s in stats.items()}},
                         indent=2, ensure_ascii=False))
        return 0
    print(f"{len(convs)} conversations of {args.path} (seed {args.seed}):")
    header = ["split", "convs", "docs/conv", "rounds", "steps", "max steps", "domains"]
    rows = [[name, str(s.overall.conversations), _mean(s.overall.documents_per_conversation.mean),
             _mean(s.overall.rounds.mean), _mean(s.overall.steps_per_procedure.mean),
             _mean(s.overall.steps_per_procedure.max), str(len(s.domains))]
            for name, s in stats.items()]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    for row in [header, *rows]:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(row, widths, strict=True))))
    for name, path in files.items():
        print(f"{name}: {path}")
    return 0


def _mean(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"
