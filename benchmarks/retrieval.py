"""Retrieval quality on the bundled conversations, and speed of the memory at 1k-100k units.

(a) Quality: for every bundled conversation, a history-aware query (last question + recent
    history) retrieves units; their source documents, deduplicated in rank order, are scored
    against the conversation's reference documents: recall@1/5/10 and MRR, for BM25, dense and
    hybrid (RRF, k = 60), over units (procedures + logic units), procedures, logic units,
    documents and chunks. A question-only row shows what the history adds.
(b) Speed: memories of about 1k, 10k and 100k units made by repeating the sample documents
    under new ids (copies are extracted, chunked and indexed like new documents; merging is off,
    since copies would merge). Identical texts are embedded once and their vectors reused, so
    build times leave out the encoding of repeats (the encoding time of the distinct texts is
    printed apart). Query latency p50/p95 (wall clock) over the conversations' queries for BM25
    (bm25s), query encoding alone, dense and hybrid, and the ratio of hybrid to BM25 + encoding
    (target <= 1.2x). At 10k units: updating one changed document vs rebuilding (target <= 2%).

    python benchmarks/retrieval.py [--sizes 1000 10000 100000] [--repeats 3] [--json]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from eval.retrieval_metrics import dedupe, mrr, recall_at_k  # noqa: E402
from inscoqa.bundled import load_sample, sample_documents  # noqa: E402
from procmem.embed import Embedder  # noqa: E402
from procmem.memory import Memory, MemoryConfig, sample_memory  # noqa: E402
from procmem.retrieval.query import conversation_query  # noqa: E402

METHODS = ("bm25", "dense", "hybrid")
UNIT_SETS = {
    "units": ("procedure", "logic_unit"),
    "procedures": ("procedure",),
    "logic_units": ("logic_unit",),
    "documents": ("document",),
    "chunks": ("chunk",),
}


class ReusingEmbedder:
    """Encodes each distinct text once across builds (for the scale runs only, not for queries)."""

    def __init__(self, embedder: Embedder):
        self.inner, self.name = embedder, embedder.name
        self.cache: dict[str, np.ndarray] = {}
        self.encode_seconds = 0.0

    @property
    def dim(self) -> int:
        return self.inner.dim

    def encode_unique(self, texts: list[str], progress: bool = False) -> np.ndarray:
        todo = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if todo:
            started = time.perf_counter()
            for text, vector in zip(todo, self.inner.encode(todo, progress=progress), strict=True):
                self.cache[text] = vector
            self.encode_seconds += time.perf_counter() - started
        return np.stack([self.cache[t] for t in texts])

    encode = encode_unique


class PrecomputedEmbedder:
    def __init__(self, vectors: dict[str, np.ndarray], name: str):
        self.vectors, self.name = vectors, name

    def encode(self, texts: list[str], progress: bool = False) -> np.ndarray:
        return np.stack([self.vectors[t] for t in texts])


def quality(memory: Memory, convs: list[Any]) -> list[dict[str, Any]]:
    rows = []
    variants = [(name, kinds, method, True) for name, kinds in UNIT_SETS.items() for method in METHODS]
    variants += [("units (question only)", UNIT_SETS["units"], "hybrid", False)]
    for name, kinds, method, with_history in variants:
        scores = {"r@1": [], "r@5": [], "r@10": [], "mrr": []}
        for conv in convs:
            query = (conversation_query(conv.history, conv.question, turns=memory.config.history_turns)
                     if with_history else conv.question)
            hits = memory.search(query, k=100, kind=list(kinds), method=method)
            ranked = dedupe(h.doc_id for h in hits)
            gold = [d.doc_id for d in conv.documents]
            for k in (1, 5, 10):
                scores[f"r@{k}"].append(recall_at_k(ranked, gold, k))
            scores["mrr"].append(mrr(ranked, gold))
        rows.append({"units": name, "method": method, **{m: float(np.mean(v)) for m, v in scores.items()}})
    return rows


def copies(docs: list[Any], n: int) -> list[Any]:
    out = list(docs)
    for i in range(1, n):
        out += [dataclasses.replace(d, doc_id=f"{d.doc_id}#copy{i}") for d in docs]
    return out


def percentiles(seconds: list[float]) -> tuple[float, float]:
    ms = np.array(seconds) * 1000
    return float(np.percentile(ms, 50)), float(np.percentile(ms, 95))


def latency(memory: Memory, embedder: Embedder, queries: list[str], repeats: int) -> dict[str, Any]:
    """Wall-clock and CPU (process) time per query; CPU time is what other load cannot inflate."""
    names = ("bm25", "encode", "dense", "hybrid")
    wall: dict[str, list[float]] = {n: [] for n in names}
    cpu: dict[str, list[float]] = {n: [] for n in names}
    memory.search(queries[0], method="hybrid")  # warm up
    for _ in range(repeats):
        for query in queries:
            for name in names:
                started, started_cpu = time.perf_counter(), time.process_time()
                if name == "encode":
                    embedder.encode([query])
                else:
                    memory.search(query, k=10, method=name)
                wall[name].append(time.perf_counter() - started)
                cpu[name].append(time.process_time() - started_cpu)
    # the same searches with each query's vector already computed: what retrieval adds to encoding
    vectors = {q: embedder.encode([q])[0] for q in queries}
    real = memory._embedder
    memory._embedder = PrecomputedEmbedder(vectors, embedder.name)
    for name in ("bm25", "hybrid"):
        key = f"{name} (vector given)"
        wall[key], cpu[key] = [], []
        for _ in range(repeats):
            for query in queries:
                started, started_cpu = time.perf_counter(), time.process_time()
                memory.search(query, k=10, method=name)
                wall[key].append(time.perf_counter() - started)
                cpu[key].append(time.process_time() - started_cpu)
    memory._embedder = real
    result: dict[str, Any] = {name: percentiles(values) for name, values in wall.items()}
    result["dense_and_fusion_ms"] = result["hybrid (vector given)"][0] - result["bm25 (vector given)"][0]
    result["cpu"] = {name: percentiles(values) for name, values in cpu.items()}
    result["ratio_hybrid_vs_bm25_plus_encode"] = result["hybrid"][0] / (result["bm25"][0] + result["encode"][0])
    c = result["cpu"]
    result["cpu_ratio_hybrid_vs_bm25_plus_encode"] = c["hybrid"][0] / (c["bm25"][0] + c["encode"][0])
    return result


def scale(docs: list[Any], per_copy: float, sizes: list[int], embedder: Embedder, queries: list[str],
          repeats: int) -> list[dict[str, Any]]:
    config = MemoryConfig(merge_threshold=0)
    reusing = ReusingEmbedder(embedder)
    rows = []
    for size in sizes:
        corpus = copies(docs, max(1, round(size / per_copy)))[: max(1, round(len(docs) * size / per_copy))]
        encoded_before = reusing.encode_seconds
        started = time.perf_counter()
        memory = Memory(embedder=embedder, config=config)
        memory._embedder = reusing  # build with reused vectors for repeated texts
        memory.add_documents(corpus)
        build = time.perf_counter() - started
        encode = reusing.encode_seconds - encoded_before
        memory._embedder = embedder  # queries are encoded for real
        row = {"size": len(memory), "documents": len(corpus), "build_s": build,
               "of_which_encoding_distinct_s": encode, **latency(memory, embedder, queries, repeats)}
        if 5000 <= size <= 20000:
            changed = dataclasses.replace(corpus[len(corpus) // 2],
                                          text=corpus[len(corpus) // 2].text + "\n\n## Note\n\nRevised.\n")
            started = time.perf_counter()
            report = memory.add_documents([changed])
            row["update_one_s"] = time.perf_counter() - started
            row["update_embedded"] = report.embedded
            row["update_vs_rebuild"] = row["update_one_s"] / build
        rows.append(row)
        print(f"  {row['size']} units done", file=sys.stderr)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-quality", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    embedder = Embedder()
    docs = sample_documents()
    convs = load_sample()
    queries = [conversation_query(c.history, c.question) for c in convs]
    print(f"{len(docs)} documents, {len(convs)} conversations", file=sys.stderr)

    started = time.perf_counter()
    memory = sample_memory(progress=not args.json)  # built and saved on first use, then loaded
    results: dict[str, Any] = {"sample_memory_s": time.perf_counter() - started,
                               "sample_units": len(memory), "stats": memory.stats()}
    if not args.skip_quality:
        results["quality"] = quality(memory, convs)
    results["speed"] = scale(docs, float(len(memory)), args.sizes, embedder, queries, args.repeats)

    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(f"\nsample memory: {results['sample_units']} units ({results['sample_memory_s']:.1f}s to load or build)")
    print("tokens per retrieval unit:", results["stats"]["avg_tokens_per_unit"])
    if "quality" in results:
        print("\n(a) reference-document retrieval on the bundled conversations (history-aware queries)")
        print(f"{'units':<22}{'method':<8}{'R@1':>7}{'R@5':>7}{'R@10':>7}{'MRR':>7}")
        for row in results["quality"]:
            print(f"{row['units']:<22}{row['method']:<8}{row['r@1']:>7.3f}{row['r@5']:>7.3f}"
                  f"{row['r@10']:>7.3f}{row['mrr']:>7.3f}")
    print("\n(b) speed, ms per query p50/p95 wall clock (CPU p50 in brackets); build s excludes "
          "re-encoding repeated texts, enc s = encoding of the distinct ones")
    print(f"{'units':>8}{'build s':>9}{'enc s':>7}{'bm25':>18}{'encode':>20}{'dense':>20}{'hybrid':>20}"
          f"{'ratio':>7}{'cpu':>7}")
    for row in results["speed"]:
        cells = "".join(f"{row[m][0]:>7.1f}/{row[m][1]:<6.1f}({row['cpu'][m][0]:>5.1f})"
                        for m in ("bm25", "encode", "dense", "hybrid"))
        print(f"{row['size']:>8}{row['build_s']:>9.1f}{row['of_which_encoding_distinct_s']:>7.1f}{cells}"
              f"{row['ratio_hybrid_vs_bm25_plus_encode']:>6.2f}x{row['cpu_ratio_hybrid_vs_bm25_plus_encode']:>6.2f}x")
        print(f"{'':>8} with the query vector given: bm25 {row['bm25 (vector given)'][0]:.1f} ms, hybrid "
              f"{row['hybrid (vector given)'][0]:.1f} ms: dense scoring + fusion add "
              f"{row['dense_and_fusion_ms']:.1f} ms to bm25 + encoding")
        if "update_one_s" in row:
            print(f"{'':>8} update one document: {row['update_one_s']:.2f}s vs rebuild {row['build_s']:.1f}s "
                  f"= {100 * row['update_vs_rebuild']:.2f}% ({row['update_embedded']} units embedded)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
