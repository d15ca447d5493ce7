"""``inscoqa data``: validate conversation files and print their statistics.

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

DESCRIPTION = """Validate conversation files and print their statistics.

PATH is 'sample' (every bundled file), a bundled name (dev-officedocs, dev-gnome-cooking),
a .jsonl/.json file, or hf:<dir saved with datasets>[:split]."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("data", help="validate InsCoQA-format data and print its statistics",
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
