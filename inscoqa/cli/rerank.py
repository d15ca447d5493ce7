"""``inscoqa rerank features|train|eval``: verified reranking of a memory's candidate documents.

Labels come from conversations (any InsCoQA-format file, or the bundled ones): a conversation's
last question is the query, its reference documents are the relevant ones.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("rerank", help="verified reranking: grounded instructions, features, a learned ranker",
                            description="Rerank a memory's candidate documents for how-to questions: "
                                        "extract and ground each document's steps, compute verification "
                                        "features, learn a pairwise logistic-regression ranker.")
    commands = parser.add_subparsers(dest="rerank_command", required=True)

    def common(cmd: argparse.ArgumentParser) -> None:
        source = cmd.add_mutually_exclusive_group()
        source.add_argument("--data", default="sample", metavar="SPEC",
                            help="labelled conversations: sample (default), a bundled name, a .jsonl file")
        source.add_argument("--features", type=Path, metavar="FILE", dest="features_file",
                            help="read labelled queries with their features from this file (written by "
                                 "'rerank features') instead of computing them")
        cmd.add_argument("--memory", type=Path, metavar="DIR",
                         help="memory to retrieve candidates from (default: the bundled sample memory)")
        cmd.add_argument("--candidates", type=int, default=10, metavar="N", help="candidate documents per query")
        cmd.add_argument("--llm", action="store_true",
                         help="ask the chat model for the instructions, relevance and completion features "
                              "(default: the memory's procedures and the model-free features)")
        cmd.add_argument("--feature", action="append", dest="feature_names", metavar="NAME",
                         help="use only these features; repeatable (default: all available)")

    features = commands.add_parser("features", help="compute labelled queries with their features")
    common(features)
    features.add_argument("--out", type=Path, required=True, metavar="FILE", help="JSONL file to write")
    features.set_defaults(func=_features)

    train = commands.add_parser("train", help="train the ranker on all labelled queries and save it")
    common(train)
    train.add_argument("--model", type=Path, required=True, metavar="FILE", help="model file to write (JSON)")
    train.add_argument("-C", type=float, default=1.0, dest="c", help="inverse regularisation strength")
    train.set_defaults(func=_train)

    evaluate = commands.add_parser("eval", help="k-fold cross-validation: retrieval order, ranker, "
                                               "single feature, oracle")
    common(evaluate)
    evaluate.add_argument("--folds", type=int, default=5, help="number of folds (default 5)")
    evaluate.add_argument("--seed", type=int, default=0)
    evaluate.add_argument("-C", type=float, default=1.0, dest="c", help="inverse regularisation strength")
    evaluate.add_argument("--model", type=Path, metavar="FILE",
                          help="also score this trained model on all the labelled queries (no folds)")
    evaluate.add_argument("--json", action="store_true", help="print the results as JSON")
    evaluate.set_defaults(func=_eval)


def _queries(args: argparse.Namespace) -> tuple[list[Any], dict[str, Any]]:
    from procmem.rerank.dataset import Verifier, labelled_queries, read_queries
    from procmem.rerank.features import check_features, default_features

    if args.features_file:
        queries = read_queries(args.features_file)
        if args.feature_names:
            names = check_features(args.feature_names)
            for q in queries:
                missing = [n for n in names if n not in q.feature_names]
                if missing:
                    raise ValueError(f"{args.features_file}: query {q.id} has no feature {missing}")
                cols = [q.feature_names.index(n) for n in names]
                q.features = [[row[c] for c in cols] for row in q.features]
                q.feature_names = names
        return queries, {"features_file": str(args.features_file)}

    from inscoqa.bundled import resolve_dataset
    from procmem.memory import Memory, sample_memory

    convs = resolve_dataset(args.data)
    if not convs:
        raise ValueError(f"{args.data}: no conversations")
    memory = Memory.load(args.memory) if args.memory else sample_memory(progress=False)
    names = check_features(args.feature_names or default_features(args.llm))
    context: Any = nullcontext()
    if args.llm:
        from serving import connect, load_serving_config

        context = connect(load_serving_config())
    with context as llm:
        verifier = Verifier(memory, names, llm=llm, candidates=args.candidates)

        def progress(n: int, q: Any) -> None:
            print(f"\r{n}/{len(convs)} queries", end="", file=sys.stderr, flush=True)

        queries = labelled_queries(convs, verifier, progress=progress)
        print(file=sys.stderr)
    return queries, {"dataset": str(args.data), "memory": str(args.memory or "sample"),
                     "candidates": args.candidates, "llm": bool(args.llm)}


def _run(args: argparse.Namespace, body: Any) -> int:
    try:
        return int(body() or 0)
    except (ValueError, OSError) as exc:
        print(f"rerank {args.rerank_command}: {exc}", file=sys.stderr)
        return 1


def _features(args: argparse.Namespace) -> int:
    def body() -> int:
        from procmem.rerank.dataset import write_queries

        queries, _ = _queries(args)
        path = write_queries(args.out, queries)
        verified = sum(sum(q.verified) for q in queries)
        total = sum(len(q.doc_ids) for q in queries)
        print(f"{len(queries)} labelled queries, {verified}/{total} candidates verified -> {path}")
        return 0
    return _run(args, body)


def _train(args: argparse.Namespace) -> int:
    def body() -> int:
        from procmem.rerank.ranker import PairwiseRanker

        queries, info = _queries(args)
        train = [q for q in queries if set(q.relevant) & set(q.doc_ids)]
        ranker = PairwiseRanker.fit(train, c=args.c, **info)
        path = ranker.save(args.model)
        weights = ", ".join(f"{n} {w:+.3f}" for n, w in zip(ranker.features, ranker.coef, strict=True))
        print(f"trained on {len(train)} queries ({ranker.trained['pairs']} pairs) -> {path}\nweights: {weights}")
        return 0
    return _run(args, body)


def _eval(args: argparse.Namespace) -> int:
    def body() -> int:
        from procmem.rerank.ranker import PairwiseRanker, cross_validate, evaluate

        queries, info = _queries(args)
        result = cross_validate(queries, k=args.folds, seed=args.seed, c=args.c)
        out: dict[str, Any] = {**result.to_dict(), "source": info}
        if args.model:
            model = PairwiseRanker.load(args.model)
            out["model"] = {"file": str(args.model), "metrics": evaluate(queries, model.rank)}
        if args.json:
            print(json.dumps(out, indent=2))
        else:
            print(result.format())
            print("mean weights: " + ", ".join(f"{n} {w:+.3f}" for n, w in result.weights.items()))
            if args.model:
                print(f"model {args.model} on all queries: " +
                      ", ".join(f"{m} {v:.3f}" for m, v in out["model"]["metrics"].items()))
        return 0
    return _run(args, body)
