"""Query latency of the two search backends of a memory: the built-in index and Qdrant.

Units are synthetic chunks at each size (default 10k and 100k): texts of 40-120 words drawn from
the vocabulary of the bundled documents, with random unit vectors of the embedding model's width
(384), so building is quick and only the search structures are measured. Both backends index the
same units and get the same queries (word sequences taken from the bundled conversations'
questions, with a vector each): p50/p95 wall-clock milliseconds per query for BM25, dense and
hybrid (reciprocal-rank fusion of both sides' top 100), and the ratio Qdrant / built-in. The
Qdrant side is the client's local mode unless ``--store qdrant://HOST:PORT`` names a server
(local mode scans every point: it is meant for small memories, and says so above 20,000).

    python benchmarks/store_latency.py [--sizes 10000 100000] [--queries 30] [--store LOC] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inscoqa.bundled import load_sample, sample_documents  # noqa: E402
from procmem.retrieval.bm25 import BM25Index, tokenize  # noqa: E402
from procmem.retrieval.index import SearchIndex  # noqa: E402
from procmem.stores.qdrant import QdrantStore  # noqa: E402
from procmem.units import Chunk  # noqa: E402

DIM = 384
METHODS = ("bm25", "dense", "hybrid")
LOCAL = "qdrant-local::memory:"


def synthetic_units(n: int, rng: np.random.Generator) -> tuple[list[Chunk], np.ndarray]:
    words = [w for d in sample_documents() for w in re.findall(r"[A-Za-z]{3,}", d.text)]
    vocabulary = np.array(sorted(set(words)))
    units = []
    for i in range(n):
        size = int(rng.integers(40, 121))
        text = " ".join(vocabulary[rng.integers(0, len(vocabulary), size)])
        units.append(Chunk(text=text, meta={"doc_id": f"doc-{i // 10}", "start": i % 10}))
    vectors = rng.standard_normal((n, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return units, vectors


def percentiles(seconds: list[float]) -> tuple[float, float]:
    ms = np.array(seconds) * 1000
    return float(np.percentile(ms, 50)), float(np.percentile(ms, 95))


def measure(size: int, queries: list[str], location: str, rng: np.random.Generator) -> dict[str, Any]:
    units, vectors = synthetic_units(size, rng)
    started = time.perf_counter()
    index = SearchIndex.build(units, vectors, lambda u: tokenize(u.text),
                              {"chunk": BM25Index.build([tokenize(u.text) for u in units])})
    built_in_build = time.perf_counter() - started
    memory = SimpleNamespace(index=lambda: index, config=SimpleNamespace(unit_index="content"))
    store = QdrantStore.open(location, f"latency-{size}")
    store.drop()
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the local mode's note about large collections
        store.sync(memory)  # type: ignore[arg-type]
    qdrant_build = time.perf_counter() - started
    query_vectors = rng.standard_normal((len(queries), DIM)).astype(np.float32)
    query_vectors /= np.linalg.norm(query_vectors, axis=1, keepdims=True)
    row: dict[str, Any] = {"size": size, "built_in_build_s": built_in_build,
                           "qdrant_build_s": qdrant_build}
    for method in METHODS:
        ours, theirs = [], []
        for query, vector in zip(queries, query_vectors, strict=True):
            tokens = tokenize(query)
            started = time.perf_counter()
            index.search(tokens, lambda v=vector: v, k=10, kinds=("chunk",), method=method)
            ours.append(time.perf_counter() - started)
            started = time.perf_counter()
            store.search(tokens, vector, k=10, kinds=("chunk",), method=method)
            theirs.append(time.perf_counter() - started)
        row[method] = {"built_in_ms": percentiles(ours), "qdrant_ms": percentiles(theirs),
                       "qdrant_vs_built_in": percentiles(theirs)[0] / percentiles(ours)[0]}
    store.drop()
    store.close()
    return row


def run(sizes: list[int], queries: list[str], location: str) -> list[dict[str, Any]]:
    """One row per size: both backends over the same synthetic units and queries."""
    rng = np.random.default_rng(0)
    rows = []
    for size in sizes:
        rows.append(measure(size, queries, location, rng))
        print(f"  {size} units done", file=sys.stderr)
    return rows


def table(rows: list[dict[str, Any]], queries: int, location: str) -> str:
    """The rows as a Markdown table (ratios against the built-in index of the same run)."""
    lines = [f"{queries} queries, k=10, Qdrant at {location}", "",
             "| units | method | built-in p50 / p95 ms | Qdrant p50 / p95 ms | Qdrant / built-in |",
             "|---|---|---|---|---|"]
    for row in rows:
        for method in METHODS:
            r = row[method]
            lines.append(f"| {row['size']} | {method} | {r['built_in_ms'][0]:.2f} / "
                         f"{r['built_in_ms'][1]:.2f} | {r['qdrant_ms'][0]:.2f} / "
                         f"{r['qdrant_ms'][1]:.2f} | {r['qdrant_vs_built_in']:.1f}x |")
    lines.append("")
    lines += [f"build {row['size']} units: built-in {row['built_in_build_s']:.1f} s, "
              f"Qdrant {row['qdrant_build_s']:.1f} s" for row in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--store", default=LOCAL,
                        help="Qdrant location (default: the client's local mode, in memory)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    queries = [c.question for c in load_sample("all")][: args.queries]
    rows = run(args.sizes, queries, args.store)
    print(json.dumps(rows, indent=2) if args.json else table(rows, len(queries), args.store))
    return 0


if __name__ == "__main__":
    sys.exit(main())
