"""Retrieval quality over every bundled document, and speed of the memory at 1k-100k units.

(a) Quality, as users meet it: one memory over every document of the bundled corpora (the
    documents the conversations cite are a small part of it; the rest are distractors).
    - Conversations: a history-aware query (last question + recent history) retrieves units;
      their source documents, deduplicated in rank order, are scored against the conversation's
      reference documents (recall@1/5/10, MRR) and its evidence documents (evidence at rank 1),
      with the mean words of the top-5 results, per unit kind and method.
    - FAQ passages: every question of the Debian FAQ (its plain-text edition) is a query and the
      answer under it the passage to find, searched with the FAQ's HTML chapters left out; a result holds the passage when at least half of the
      answer's words are in it or at least half of its words are the answer's. Top-1 / top-5 and
      words per result, per unit kind.
    The embedding model is the configured one (``[memory] embedder``, ``INSCOQA_MEMORY_EMBEDDER``).
    Vectors are cached by text and model in ``--cache`` (default a folder under the system's temp dir), so
    a second run embeds only the texts it has not seen; the cold build time, its units/s and the
    encoder's raw throughput on the same texts are printed.
(b) Speed: memories of about 1k, 10k and 100k units made by repeating the sample documents
    under new ids (copies are extracted, chunked and indexed like new documents; merging is off,
    since copies would merge). Identical texts are embedded once and their vectors reused, so
    build times leave out the encoding of repeats (the encoding time of the distinct texts is
    printed apart). Query latency p50/p95 (wall clock) over the conversations' queries for BM25
    (bm25s), query encoding alone, dense and hybrid, and the ratio of hybrid to BM25 + encoding
    (target <= 1.2x). At 10k units: updating one changed document vs rebuilding (target <= 2%).

(c) With ``--store-latency [LOCATION]``: query latency of the two search backends, the built-in
    index and a Qdrant store (default the client's local mode), over the same synthetic units at
    ``--store-sizes`` (default 10k and 100k) and the first 30 conversation queries, with the
    ratio Qdrant / built-in of the same run (:mod:`store_latency` does the measuring).

(d) With ``--build-speed [BACKEND ...]`` (default torch onnx onnx-int8 onnx-int8:128): a cold build of the
    memory over every bundled document (or ``--distractors N``) per embedding backend, the
    default (onnx-int8) once more with every chunk's text encoded rather than its vector pooled
    from its logic units', and the build as memories were made before, the reference of the
    speed ratios: torch, in batches of 64 texts, embedding every kind at build (before kinds
    that the default search never scores densely were left for their first dense search) and
    every chunk: build seconds (wall and process CPU), the seconds to save it (which embeds
    nothing), units/s, units given a vector at build and texts encoded for them, the encoder's
    raw throughput on the same sample of unit texts, and recall@5 of the bundled conversations
    (the default search, dense search, documents from units) as a ratio to the torch build of
    the same run.

    python benchmarks/retrieval.py [--sizes 1000 10000 100000] [--repeats 3] [--json]
    python benchmarks/retrieval.py --skip-quality --sizes --store-latency   # (c) alone
    python benchmarks/retrieval.py --skip-quality --sizes --build-speed     # (d) alone
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from eval.retrieval_metrics import dedupe, mrr, recall_at_k  # noqa: E402
from inscoqa.bundled import corpus_index, load_sample, sample_documents  # noqa: E402
from procmem.config import load_memory_config  # noqa: E402
from procmem.embed import DEFAULT_MODEL, Embedder  # noqa: E402
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


DEFAULT_CACHE = Path(tempfile.gettempdir()) / "inscoqa-retrieval-bench"
FAQ_DOC = "debian-faq/debian-faq.en.txt"
FAQ_HTML = "debian-faq/html/"
FAQ_QUESTION = re.compile(r"^(\d+(?:\.\d+)+)\.\s+(\S.*)$")
WORD = re.compile(r"\w\w+")


class ZeroEmbedder:
    """No vectors at all, for a BM25-only measurement (dense and hybrid rows are left out)."""

    def __init__(self, name: str, dim: int = 384):
        self.name, self.dim = name, dim

    def encode_unique(self, texts: list[str], progress: bool = False) -> np.ndarray:
        return np.zeros((len(texts), self.dim), dtype=np.float32)

    encode = encode_unique


class CachedEmbedder:
    """Encodes each distinct text once, keeping vectors on disk by the text's hash."""

    def __init__(self, embedder: Embedder, cache_dir: Path):
        self.inner, self.name = embedder, embedder.name
        self.path = cache_dir / f"vectors-{embedder.name.replace('/', '_')}.npz"
        self.cache: dict[str, np.ndarray] = {}
        if self.path.is_file():
            with np.load(self.path) as data:
                self.cache = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))
        self.encoded = 0
        self.encode_seconds = 0.0

    @property
    def dim(self) -> int:
        return self.inner.dim

    @staticmethod
    def key(text: str) -> str:
        return hashlib.sha1(text.encode("utf-8")).hexdigest()

    def encode_unique(self, texts: list[str], progress: bool = False) -> np.ndarray:
        keys = [self.key(t) for t in texts]
        todo = {k: t for k, t in zip(keys, texts, strict=True) if k not in self.cache}
        if todo:
            started = time.perf_counter()
            vectors = self.inner.encode(list(todo.values()), progress=progress)
            self.encode_seconds += time.perf_counter() - started
            self.encoded += len(todo)
            self.cache.update(zip(todo, vectors, strict=True))
        return np.stack([self.cache[k] for k in keys]) if keys else np.zeros((0, self.dim), np.float32)

    encode = encode_unique

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        keys = list(self.cache)
        tmp = self.path.with_suffix(".tmp.npz")
        np.savez(tmp, keys=np.array(keys), vectors=np.stack([self.cache[k] for k in keys]))
        os.replace(tmp, self.path)


def faq_questions(doc: Any) -> list[tuple[str, str]]:
    """``(question, answer)`` pairs of the Debian FAQ's plain-text edition: a numbered question
    at the margin (possibly wrapped) and the indented text under it up to the next heading."""
    lines = Path(doc.meta["path"]).read_text(encoding="utf-8").replace("\xa0", " ").splitlines()
    pairs: list[tuple[str, str]] = []
    i = 0
    while i < len(lines):
        m = FAQ_QUESTION.match(lines[i])
        if not m or lines[i].startswith(" "):
            i += 1
            continue
        question = [m.group(2).strip()]
        i += 1
        while i < len(lines) and lines[i].strip() and not lines[i].startswith(" "):
            question.append(lines[i].strip())
            i += 1
        answer = []
        while i < len(lines) and not (lines[i].strip() and not lines[i].startswith(" ")):
            answer.append(lines[i].strip())
            i += 1
        text = " ".join(question)
        body = " ".join(a for a in answer if a)
        if text.endswith("?") and len(body.split()) >= 5:
            pairs.append((text, body))
    return pairs


def holds_passage(result: str, passage: str) -> bool:
    """Half of the passage's words are in the result, or half of the result's are the passage's."""
    got, want = set(WORD.findall(result.lower())), set(WORD.findall(passage.lower()))
    if not got or not want:
        return False
    common = len(got & want)
    return common >= 0.5 * len(want) or common >= 0.5 * len(got)


def _words(unit: Any) -> int:
    return len(unit.render().split())


def _mean(values: list[float]) -> float:
    return float(np.mean(values)) if values else 0.0


def conversation_quality(memory: Memory, convs: list[Any],
                         variants: list[tuple[str, Any, str]]) -> list[dict[str, Any]]:
    rows = []
    queries = [conversation_query(c.history, c.question, turns=memory.config.history_turns) for c in convs]
    for name, kinds, method in variants:
        scores: dict[str, list[float]] = {"r@1": [], "r@5": [], "r@10": [], "mrr": [], "evidence@1": [],
                                          "words": []}
        for conv, query in zip(convs, queries, strict=True):
            # the last question orders the first results, as in Memory.search_conversation
            question = conv.question if conv.history else None
            ranked, words = _ranked_documents(memory, query, kinds, method, question)
            gold = [d.doc_id for d in conv.documents]
            for k in (1, 5, 10):
                scores[f"r@{k}"].append(recall_at_k(ranked, gold, k))
            scores["mrr"].append(mrr(ranked, gold))
            evidence = set(conv.evidence) or set(gold)
            scores["evidence@1"].append(float(bool(ranked) and ranked[0] in evidence))
            scores["words"].append(words)
        rows.append({"units": name, "method": method, **{m: _mean(v) for m, v in scores.items()}})
    return rows


def _ranked_documents(memory: Memory, query: str, kinds: Any, method: str,
                      question: str | None) -> tuple[list[str], float]:
    """Documents in rank order and the mean words of the top-5 results."""
    if kinds == "documents-from-units":
        ranking = memory.search_documents(query, k=20, method=method, question=question)  # type: ignore[attr-defined]
        return [d.doc_id for d in ranking], _mean([sum(_words(h.unit) for h in d.hits[:1])
                                                    for d in ranking[:5]])
    hits = memory.search(query, k=100, kind=kinds, method=method, question=question)
    return dedupe(h.doc_id for h in hits), _mean([_words(h.unit) for h in hits[:5]])


def faq_quality(memory: Memory, pairs: list[tuple[str, str]],
                variants: list[tuple[str, Any, str]]) -> list[dict[str, Any]]:
    """The FAQ as plain text: its HTML chapters (whose heading tags would give the questions
    away) are left out of the search; every other document stays a distractor."""
    rows = []
    searched = [d for d in memory.doc_ids() if not d.startswith(FAQ_HTML)]
    for name, kinds, method in variants:
        top1, top5, words = [], [], []
        for question, answer in pairs:
            hits = memory.search(question, k=5, kind=kinds, method=method, doc_ids=searched)
            found = [holds_passage(h.unit.render(), answer) for h in hits]
            top1.append(float(bool(found) and found[0]))
            top5.append(float(any(found)))
            words.append(_mean([_words(h.unit) for h in hits]))
        rows.append({"units": name, "method": method, "top1": _mean(top1), "top5": _mean(top5),
                     "words": _mean(words)})
    return rows


def bench_documents(distractors: int | None = None) -> list[Any]:
    """Every bundled document, or the cited ones, the FAQ and ``distractors`` others at random."""
    docs = list(corpus_index().iter_documents())
    if distractors is not None:
        keep = {d.doc_id for d in sample_documents()}
        others = [d for d in docs if d.doc_id not in keep and not d.doc_id.startswith("debian-faq/")]
        rng = np.random.default_rng(0)
        picked = {others[i].doc_id for i in rng.choice(len(others), min(distractors, len(others)), replace=False)}
        docs = [d for d in docs if d.doc_id in keep or d.doc_id in picked or d.doc_id.startswith("debian-faq/")]
    return docs


def distractor_memory(cache_dir: Path, embedder: Embedder, *, bm25_only: bool = False,
                      distractors: int | None = None) -> tuple[Memory, list[Any], dict[str, Any]]:
    """The memory over every bundled document (or the cited ones, the FAQ and ``distractors``
    others drawn at random), with vectors from the cache where it has them."""
    docs = bench_documents(distractors)
    cached = ZeroEmbedder(embedder.name) if bm25_only else CachedEmbedder(embedder, cache_dir)
    memory = Memory(embedder=embedder)
    memory._embedder = cached  # type: ignore[assignment]
    started = time.perf_counter()
    report = memory.add_documents(docs, progress=True)
    build = time.perf_counter() - started
    memory._embedder = embedder
    if isinstance(cached, CachedEmbedder):
        cached.save()
    info = {"documents": len(docs), "units": len(memory), "build_s": build,
            "encoded": getattr(cached, "encoded", 0), "encode_s": getattr(cached, "encode_seconds", 0.0),
            "failures": len(report.failures), "stats": memory.stats()}
    return memory, docs, info


def raw_throughput(embedder: Embedder, memory: Memory, n: int = 512) -> dict[str, float]:
    """The encoder alone on a sample of the memory's own index texts (units/s)."""
    texts = [u.index_text for u in memory.units()]
    step = max(1, len(texts) // n)
    sample = texts[::step][:n]
    embedder.encode(sample[:8])  # load the model
    started = time.perf_counter()
    embedder.encode(sample)
    seconds = time.perf_counter() - started
    return {"texts": len(sample), "seconds": seconds, "units_per_s": len(sample) / seconds}


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


def quality_variants(memory: Memory, methods: tuple[str, ...] = METHODS) -> list[tuple[str, Any, str]]:
    default = memory.config.method if memory.config.method in methods else methods[0]
    variants: list[tuple[str, Any, str]] = [("default", None, default)]
    if hasattr(memory, "search_documents"):
        variants.append(("documents-from-units", "documents-from-units", default))
    for name, kinds in UNIT_SETS.items():
        variants += [(name, list(kinds), method) for method in methods]
    return variants


def print_quality(results: dict[str, Any]) -> None:
    info = results["distractors"]
    print(f"\n(a) quality over every bundled document: {info['documents']} documents, "
          f"{info['units']} units; build {info['build_s']:.1f}s ({info['encoded']} texts encoded in "
          f"{info['encode_s']:.1f}s, the rest from the cache)")
    print("words per unit:", info["stats"].get("words_per_unit", info["stats"]["avg_tokens_per_unit"]))
    print("\nreference documents of the bundled conversations (history-aware queries)")
    print(f"{'units':<22}{'method':<8}{'R@1':>7}{'R@5':>7}{'R@10':>7}{'MRR':>7}{'ev@1':>7}{'words':>7}")
    for row in results["conversations"]:
        print(f"{row['units']:<22}{row['method']:<8}{row['r@1']:>7.3f}{row['r@5']:>7.3f}"
              f"{row['r@10']:>7.3f}{row['mrr']:>7.3f}{row['evidence@1']:>7.3f}{row['words']:>7.0f}")
    print(f"\nDebian FAQ: {results['faq_questions']} questions, the answer under each as the passage")
    print(f"{'units':<22}{'method':<8}{'top1':>7}{'top5':>7}{'words':>7}")
    for row in results["faq"]:
        print(f"{row['units']:<22}{row['method']:<8}{row['top1']:>7.3f}{row['top5']:>7.3f}{row['words']:>7.0f}")
    speed = results.get("build_speed")
    if speed:
        print(f"\nbuild: {speed['units']} units in {speed['build_s']:.1f}s = {speed['units_per_s']:.1f} "
              f"units/s; the encoder alone: {speed['raw_units_per_s']:.1f} texts/s")


STORE_QUERIES = 30


def store_latency(queries: list[str], sizes: list[int], location: str) -> list[dict[str, Any]]:
    """(c): p50/p95 ms per query of the built-in index and the Qdrant store at each size."""
    import store_latency as backends  # benchmarks/store_latency.py, beside this script

    return backends.run(sizes, queries[:STORE_QUERIES], location)


BUILD_BACKENDS = ("torch", "onnx", "onnx-int8", "onnx-int8:128")  # ":128": texts cut at 128 tokens
BEFORE = "before: torch, batch 64, all kinds"  # the reference build: as memories were made before
ENCODED_CHUNKS = "onnx-int8, chunks encoded"  # the default, with every chunk's text encoded
BUILD_QUALITY = [("default", None, "hybrid"), ("default", None, "dense"),
                 ("documents-from-units", "documents-from-units", "hybrid")]


def encoder_throughput(embedder: Embedder, texts: list[str]) -> dict[str, float]:
    """The encoder alone on ``texts``: texts/s by wall clock and per CPU second of the process."""
    embedder.encode(texts[:8])  # load (and on first use export) the model
    started, started_cpu = time.perf_counter(), time.process_time()
    embedder.encode(texts)
    wall, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    return {"texts": len(texts), "seconds": wall, "cpu_s": cpu, "units_per_s": len(texts) / wall,
            "units_per_cpu_s": len(texts) / cpu}


def build_speed(backends: list[str], distractors: int | None, convs: list[Any],
                sample_size: int = 256) -> dict[str, Any]:
    """(d): a cold build per backend, the default one with every chunk encoded rather than
    pooled from its logic units, and the build as it was before (torch, batches of 64, every
    kind at build, chunks encoded); raw encoder throughput on one sample of unit texts,
    recall@5; speed ratios to the build before, recall ratios to the torch build."""
    docs = bench_documents(distractors)
    if "torch" not in backends:
        backends = [*backends, "torch"]  # the reference
    # (label, backend, as before: batches of 64 and every kind embedded at build, chunk vectors)
    runs = [(b, b, False, "pooled") for b in backends]
    if "onnx-int8" in backends:
        runs.append((ENCODED_CHUNKS, "onnx-int8", False, "encoded"))
    runs.append((BEFORE, "torch", True, "encoded"))
    rows: list[dict[str, Any]] = []
    sample: list[str] = []
    for label, backend, eager, chunk_vectors in runs:
        embedder = Embedder(DEFAULT_MODEL if backend == "torch" else f"{DEFAULT_MODEL}@{backend}",
                            batch_size=64 if eager else None)
        started = time.perf_counter()
        embedder.encode(["load the model"])
        load_s = time.perf_counter() - started
        config = MemoryConfig(chunk_vectors=chunk_vectors)
        if eager:
            config = dataclasses.replace(config, search_kinds=list(Memory().kinds))
        memory = Memory(embedder=embedder, config=config)
        started, started_cpu = time.perf_counter(), time.process_time()
        report = memory.add_documents(docs, progress=True)
        build_s, build_cpu = time.perf_counter() - started, time.process_time() - started_cpu
        with tempfile.TemporaryDirectory() as tmp:  # what `memory build --out` pays besides
            started = time.perf_counter()
            memory.save(Path(tmp) / "memory")
            save_s = time.perf_counter() - started
        if not sample:
            texts = [memory._index_text(u) for u in memory.units()]
            sample = texts[:: max(1, len(texts) // sample_size)][:sample_size]
        row = {"run": label, "backend": backend, "embedder": embedder.name, "documents": len(docs),
               "units": len(memory), "embedded": report.embedded, "encoded": report.encoded, "load_s": load_s,
               "build_s": build_s, "build_cpu_s": build_cpu, "save_s": save_s,
               "units_per_s": len(memory) / build_s,
               "raw": encoder_throughput(embedder, sample)}
        if not eager:
            quality = conversation_quality(memory, convs, BUILD_QUALITY)
            row["recall@5"] = {f"{q['units']} {q['method']}": q["r@5"] for q in quality}
        rows.append(row)
        print(f"  {label}: {json.dumps(row)}", file=sys.stderr)
    before = next(r for r in rows if r["run"] == BEFORE)
    reference = next(r for r in rows if r["run"] == "torch")
    for row in rows:
        row["build_speedup"] = before["build_s"] / row["build_s"]
        row["build_cpu_speedup"] = before["build_cpu_s"] / row["build_cpu_s"]
        row["raw_speedup"] = row["raw"]["units_per_cpu_s"] / before["raw"]["units_per_cpu_s"]
        if "recall@5" in row:
            row["recall@5_ratio"] = {k: (v / reference["recall@5"][k] if reference["recall@5"][k] else 0.0)
                                     for k, v in row["recall@5"].items()}
    return {"sample_texts": len(sample), "runs": rows}


def print_build_speed(result: dict[str, Any]) -> None:
    runs = result["runs"]
    first = runs[0]
    print(f"\n(d) build speed per embedding backend: {first['documents']} documents, {first['units']} units; "
          f"ratios (x) to the build before ({BEFORE}) of this run; raw = the encoder alone on "
          f"{result['sample_texts']} "
          "unit texts (texts per CPU second, and per wall second)")
    print(f"{'run':<38}{'embedded':>9}{'encoded':>8}{'build s':>9}{'cpu s':>8}{'save s':>8}{'units/s':>9}{'x wall':>8}{'x cpu':>7}"
          f"{'raw/cpu-s':>10}{'raw/s':>7}{'x raw':>7}")
    for r in runs:
        print(f"{r['run']:<38}{r['embedded']:>9}{r['encoded']:>8}{r['build_s']:>9.1f}{r['build_cpu_s']:>8.1f}{r['save_s']:>8.1f}"
              f"{r['units_per_s']:>9.1f}"
              f"{r['build_speedup']:>7.2f}x{r['build_cpu_speedup']:>6.2f}x{r['raw']['units_per_cpu_s']:>10.2f}"
              f"{r['raw']['units_per_s']:>7.1f}{r['raw_speedup']:>6.2f}x")
    print("recall@5 of the bundled conversations (ratio to torch)")
    for r in runs:
        if "recall@5" in r:
            print(f"{r['run']:<20}" + "".join(f"  {k} {v:.3f} ({r['recall@5_ratio'][k]:.3f})"
                                             for k, v in r["recall@5"].items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000, 100000])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-quality", action="store_true")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE,
                        help="folder for cached vectors (by text); --no-cache builds cold")
    parser.add_argument("--no-cache", action="store_true", help="embed everything (measures build speed)")
    parser.add_argument("--bm25-only", action="store_true",
                        help="embed nothing and measure BM25 alone (fast on a busy machine)")
    parser.add_argument("--distractors", type=int, metavar="N",
                        help="the cited documents, the FAQ and N other documents instead of all")
    parser.add_argument("--store-latency", nargs="?", const="qdrant-local::memory:",
                        metavar="LOCATION", help="(c) query latency of the built-in index vs a "
                        "Qdrant store (default: the client's local mode, in memory)")
    parser.add_argument("--store-sizes", type=int, nargs="+", default=[10_000, 100_000],
                        help="units for --store-latency (default 10000 100000)")
    parser.add_argument("--build-speed", nargs="*", choices=BUILD_BACKENDS, metavar="BACKEND",
                        help="(d) cold build per embedding backend (default: torch onnx onnx-int8)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    embedder = Embedder(load_memory_config().embedder)  # [memory] embedder / INSCOQA_MEMORY_EMBEDDER
    docs = sample_documents()
    convs = load_sample()
    queries = [conversation_query(c.history, c.question) for c in convs]
    print(f"{len(docs)} cited documents, {len(convs)} conversations", file=sys.stderr)

    results: dict[str, Any] = {}
    if not args.skip_quality:
        cache = args.cache
        if args.no_cache:
            cache = Path(tempfile.mkdtemp(prefix="inscoqa-cold-"))
        memory, all_docs, info = distractor_memory(cache, embedder, bm25_only=args.bm25_only,
                                                   distractors=args.distractors)
        methods = ("bm25",) if args.bm25_only else METHODS
        variants = quality_variants(memory, methods)
        results["distractors"] = info
        results["conversations"] = conversation_quality(memory, convs, variants)
        faq_doc = next((d for d in all_docs if d.doc_id == FAQ_DOC), None)
        pairs = faq_questions(faq_doc) if faq_doc else []
        results["faq_questions"] = len(pairs)
        results["faq"] = faq_quality(memory, pairs, [v for v in variants if v[1] != "documents-from-units"])
        if not args.bm25_only and (info["encoded"] == info["units"] or args.no_cache):
            raw = raw_throughput(embedder, memory)
            results["build_speed"] = {"units": info["units"], "build_s": info["build_s"],
                                      "units_per_s": info["units"] / info["build_s"],
                                      "raw_units_per_s": raw["units_per_s"]}
    if args.sizes:
        sample = sample_memory(progress=not args.json)
        results["speed"] = scale(docs, float(len(sample)), args.sizes, embedder, queries, args.repeats)

    if args.store_latency:
        results["store_latency"] = store_latency(queries, args.store_sizes, args.store_latency)
    if args.build_speed is not None:
        results["backend_builds"] = build_speed(args.build_speed or list(BUILD_BACKENDS), args.distractors, convs)

    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    if "conversations" in results:
        print_quality(results)
    if "backend_builds" in results:
        print_build_speed(results["backend_builds"])
    if "store_latency" in results:
        import store_latency as backends

        print("\n(c) query latency by search backend, ms per query (query vectors given)")
        print(backends.table(results["store_latency"], min(len(queries), STORE_QUERIES),
                             args.store_latency))
    if "speed" not in results:
        return 0
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
