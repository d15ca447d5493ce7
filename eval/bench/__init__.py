"""Benchmark runs: answer with named systems, score with InsEval, compare pairwise, resumably.

* :mod:`eval.bench.store`: durable append-only JSONL result stores;
* :mod:`eval.bench.keys`: run keys and data ids;
* :mod:`eval.bench.sample`, :mod:`eval.bench.compare`, :mod:`eval.bench.extras`: one unit of work;
* :mod:`eval.bench.runner`: :class:`BenchRunner`, the concurrent, resumable loop;
* :mod:`eval.bench.session`: building a run from command-line options (engines, data, memory).
"""

from eval.bench.runner import BenchOutcome, BenchRunner, PairRun, SystemRun
from eval.bench.store import ResultStore

__all__ = ["BenchOutcome", "BenchRunner", "PairRun", "ResultStore", "SystemRun"]
