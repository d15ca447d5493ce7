"""The benchmark runner: answer, judge and compare, concurrently, resumably.

Work is split into samples (one conversation for one system, or for one pair of systems). Each
finished sample is appended durably to a JSONL store under a key that names everything its result
depends on, so a run killed at any instant resumes with only unfinished samples left, and a
finished run does no work at all (no engine started, no LLM call). Phases:

1. *answer*: every system answers every selected conversation; the InsEval judge scores the
   answer; ROUGE-L, retrieval and cost are recorded -> ``<out>/<run key>/results.jsonl``;
2. *extra*: optional second judge and how-to metrics on those answers (files beside the
   results) and pairwise comparisons between systems (``<out>/pairwise-.../results.jsonl``).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eval.bench import compare, extras
from eval.bench.keys import run_key, slug, stable_hash
from eval.bench.sample import DocumentSource, now_iso, run_sample
from eval.bench.store import ResultStore, write_json_atomic
from eval.howto import HowToScorer
from eval.inseval import InsEvalJudge
from inscoqa.dirlock import DirectoryLock
from inscoqa.records import Conversation
from inscoqa.work_pool import WorkPool
from procmem.answerers.base import Answerer
from serving.pool import PooledModel
from serving.types import ChatModel

RESULT_FORMAT = 1
# At most one durable write (fsync) per store per interval: results finishing in between are
# saved together. A kill loses only results not yet saved, which a resumed run redoes.
COMMIT_INTERVAL_S = 0.02


@dataclass
class SystemRun:
    """One system's run: its key, directory and result store."""

    name: str
    key: str
    dir: Path
    spec: dict[str, Any]
    answerer: Answerer

    @property
    def store(self) -> ResultStore:
        return ResultStore(self.dir / "results.jsonl")


@dataclass
class PairRun:
    a: str
    b: str
    key: str
    dir: Path
    spec: dict[str, Any]

    @property
    def store(self) -> ResultStore:
        return ResultStore(self.dir / "results.jsonl")


@dataclass
class BenchOutcome:
    """Everything a report needs: the selection, the stores' records, keys and work done."""

    conversations: list[Conversation]
    data_id: str
    setting: str
    runs: dict[str, SystemRun]
    results: dict[str, list[dict[str, Any]]]
    judge_config: dict[str, Any]
    pairs: list[PairRun] = field(default_factory=list)
    pairwise: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)
    second_judge: dict[str, list[dict[str, Any]]] | None = None
    second_judge_config: dict[str, Any] | None = None
    howto: dict[str, list[dict[str, Any]]] | None = None
    howto_config: dict[str, Any] | None = None
    work: dict[str, int] = field(default_factory=dict)
    started_at: str = ""
    finished_at: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    # why the run stopped sending work (an engine that died, an endpoint that refuses), if it did
    stopped: str | None = None

    @property
    def new_samples(self) -> int:
        return sum(self.work.values())


@dataclass
class _Task:
    phase: str
    store: ResultStore
    fn: Callable[..., dict[str, Any]]
    args: tuple[Any, ...]


class BenchRunner:
    """Runs named answerers over conversations and scores them; see the module docstring."""

    def __init__(
        self,
        *,
        conversations: list[Conversation],
        data_id: str,
        answerers: dict[str, Answerer],
        judge_llm: ChatModel,
        out_dir: str | Path,
        documents: DocumentSource | None = None,
        memory_id: str | None = None,
        concurrency: int = 4,
        pairwise_llm: ChatModel | None = None,
        second_judge_llm: ChatModel | None = None,
        howto_llm: ChatModel | None = None,
        judge_options: dict[str, Any] | None = None,
        key_extras: dict[str, Any] | None = None,
        retry_failed: bool = False,
        progress: bool = True,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        if not answerers:
            raise ValueError("no system to run")
        dupes = sorted(i for i, n in Counter(c.id for c in conversations).items() if n > 1)
        if dupes:
            raise ValueError(f"duplicate conversation ids in the data: {', '.join(dupes[:5])}")
        self.conversations = conversations
        self.data_id = data_id
        self.answerers = answerers
        self.judge_llm = PooledModel.around(judge_llm)
        self.judge_options = dict(judge_options or {})  # InsEvalJudge keywords (mode, max_tokens)
        self.out_dir = Path(out_dir)
        self.documents = documents
        self.setting = "given" if documents is not None else "memory"
        self.memory_id = memory_id
        self.concurrency = max(1, int(concurrency))
        self.pairwise_llm = PooledModel.around(pairwise_llm) if pairwise_llm is not None else None
        self.second_judge_llm = PooledModel.around(second_judge_llm) if second_judge_llm is not None else None
        self.howto_llm = PooledModel.around(howto_llm) if howto_llm is not None else None
        self.key_extras = dict(key_extras or {})
        self.retry_failed = retry_failed
        self.progress = progress
        self.metadata = dict(metadata or {})
        self.stopped: str | None = None

    # -- keys ----------------------------------------------------------------------------------

    def judge(self, llm: ChatModel) -> InsEvalJudge:
        return InsEvalJudge(llm, **self.judge_options)

    def plan(self) -> dict[str, SystemRun]:
        """Each system's run key and directory (computed without any LLM call)."""
        judge = dict(self.judge(self.judge_llm).config())
        runs: dict[str, SystemRun] = {}
        for name, answerer in self.answerers.items():
            spec = {
                "format": RESULT_FORMAT, "system": name, "answerer": answerer.config(),
                "judge": judge, "data": self.data_id, "setting": self.setting,
                "memory": self.memory_id, **self.key_extras,
            }
            key = run_key(name, spec)
            runs[name] = SystemRun(name, key, self.out_dir / key, spec, answerer)
        return runs

    def plan_pairs(self, runs: dict[str, SystemRun]) -> list[PairRun]:
        if self.pairwise_llm is None:
            return []
        config = dict(compare.make_pairwise_judge(self.pairwise_llm).config())
        pairs = []
        for a, b in itertools.combinations(list(runs), 2):
            spec = {"format": RESULT_FORMAT, "a": runs[a].key, "b": runs[b].key,
                    "judge": config}
            key = f"pairwise-{slug(a, 20)}-vs-{slug(b, 20)}-{stable_hash(spec)}"
            pairs.append(PairRun(a, b, key, self.out_dir / key, spec))
        return pairs

    # -- running -------------------------------------------------------------------------------

    def run(self) -> BenchOutcome:
        """Run every phase, holding each run directory's lock (one writer per run)."""
        runs = self.plan()
        with ExitStack() as locks:
            for directory in [*(r.dir for r in runs.values()),
                              *(p.dir for p in self.plan_pairs(runs))]:
                locks.enter_context(DirectoryLock(directory))
            return self._run(runs)

    def _run(self, runs: dict[str, SystemRun]) -> BenchOutcome:
        started = now_iso()
        outcome = BenchOutcome(conversations=self.conversations, data_id=self.data_id,
                               setting=self.setting, runs=runs, results={},
                               judge_config=runs[next(iter(runs))].spec["judge"],
                               started_at=started, metadata=self.metadata)
        for run in runs.values():
            self._write_run_meta(run.dir, run.key, run.spec)

        judge = self.judge(self.judge_llm)
        answer_tasks = [
            _Task("answer", store, run_sample,
                  (conv, run.name, run.answerer, judge, self.documents))
            for run in runs.values()
            for store in [run.store]
            for conv in self._pending(store)
        ]
        answer_llms = [self.judge_llm, *(getattr(a, "llm", None) for a in self.answerers.values())]
        outcome.work["answer"] = self._execute("answer + judge", answer_tasks, answer_llms)
        outcome.results = {name: self._ordered(run.store) for name, run in runs.items()}
        if self.stopped is not None:  # the engine is gone: no extra phase, report what is done
            outcome.stopped = self.stopped
            outcome.finished_at = now_iso()
            return outcome

        extra_tasks = self._extra_tasks(runs, outcome)
        outcome.work["extra"] = self._execute(
            "extra scores", extra_tasks,
            [self.pairwise_llm, self.second_judge_llm, self.howto_llm])
        self._collect_extras(runs, outcome)
        outcome.stopped = self.stopped
        outcome.finished_at = now_iso()
        return outcome

    def _pending(self, store: ResultStore) -> list[Conversation]:
        done = store.load()
        pending = []
        for conv in self.conversations:
            record = done.get(conv.id)
            if (record is None or record.get("transient")
                    or (self.retry_failed and record.get("status") != "ok")):
                pending.append(conv)
        return pending

    def _ordered(self, store: ResultStore) -> list[dict[str, Any]]:
        records = store.load()
        return [records[c.id] for c in self.conversations if c.id in records]

    def _extra_tasks(self, runs: dict[str, SystemRun], outcome: BenchOutcome) -> list[_Task]:
        tasks: list[_Task] = []
        # extra scores only exist for answered samples; the others are reported as skipped
        by_id = {name: {r["sample_id"]: r for r in recs if r.get("answer") is not None}
                 for name, recs in outcome.results.items()}
        if self.second_judge_llm is not None:
            judge2 = self.judge(self.second_judge_llm)
            outcome.second_judge_config = dict(judge2.config())
            tasks += self._scorer_tasks("judge2", judge2, outcome.second_judge_config,
                                        extras.second_judge_sample, runs, by_id)
        if self.howto_llm is not None:
            scorer = HowToScorer(self.howto_llm)
            outcome.howto_config = dict(scorer.config())
            tasks += self._scorer_tasks("howto", scorer, outcome.howto_config,
                                        extras.howto_sample, runs, by_id)
        outcome.pairs = self.plan_pairs(runs)
        if outcome.pairs:
            assert self.pairwise_llm is not None
            judge = compare.make_pairwise_judge(self.pairwise_llm)
            for pair in outcome.pairs:
                self._write_run_meta(pair.dir, pair.key, pair.spec)
                store = pair.store
                tasks += [
                    _Task("pairwise", store, compare.compare_sample,
                          (conv, by_id[pair.a][conv.id], by_id[pair.b][conv.id], judge))
                    for conv in self._pending(store)
                    if conv.id in by_id[pair.a] and conv.id in by_id[pair.b]
                ]
        return tasks

    def _scorer_tasks(self, prefix: str, scorer: Any, config: dict[str, Any],
                      fn: Callable[..., dict[str, Any]], runs: dict[str, SystemRun],
                      by_id: dict[str, dict[str, dict[str, Any]]]) -> list[_Task]:
        """One task per answered sample of every run not yet scored by ``scorer``."""
        tasks = []
        for run in runs.values():
            store = self._extra_store(run, prefix, config)
            tasks += [_Task(prefix, store, fn, (conv, by_id[run.name][conv.id], scorer))
                      for conv in self._pending(store) if conv.id in by_id[run.name]]
        return tasks

    def _extra_store(self, run: SystemRun, prefix: str, config: dict[str, Any]) -> ResultStore:
        return ResultStore(run.dir / f"{prefix}-{stable_hash(config)}.jsonl")

    def _collect_extras(self, runs: dict[str, SystemRun], outcome: BenchOutcome) -> None:
        if outcome.second_judge_config is not None:
            outcome.second_judge = {
                name: self._ordered(self._extra_store(run, "judge2", outcome.second_judge_config))
                for name, run in runs.items()}
        if outcome.howto_config is not None:
            outcome.howto = {
                name: self._ordered(self._extra_store(run, "howto", outcome.howto_config))
                for name, run in runs.items()}
        outcome.pairwise = {(p.a, p.b): self._ordered(p.store) for p in outcome.pairs}

    def _execute(self, label: str, tasks: list[_Task], llms: list[Any]) -> int:
        """Run tasks on the thread pool; each result is saved as soon as it is finished."""
        if not tasks:
            return 0
        # connect (or start engines) here, in the calling thread, only when there is work
        phases = {t.phase for t in tasks}
        for llm in llms:
            opener = getattr(llm, "open", None)
            if llm is not None and callable(opener) and _used(llm, phases, self):
                opener()
        pool = WorkPool(lambda task: task.fn(*task.args),
                        lambda finished: self._save([(task.store, r) for task, r in finished]),
                        stop_reason=lambda r: r["error"] if _unreachable(r) else None,
                        concurrency=self.concurrency, label=label, unit="sample",
                        progress=self.progress, commit_interval=COMMIT_INTERVAL_S)
        # an engine that is gone leaves the samples not yet started to a re-run
        stopped = pool.run(tasks)
        if stopped is not None and self.stopped is None:
            self.stopped = stopped
        return len(tasks)

    @staticmethod
    def _save(finished: list[tuple[ResultStore, dict[str, Any]]]) -> None:
        """Save every result finished so far, one durable write per store (a group commit)."""
        by_store: dict[int, tuple[ResultStore, list[dict[str, Any]]]] = {}
        for store, record in finished:
            by_store.setdefault(id(store), (store, []))[1].append(record)
        for store, records in by_store.values():
            store.append_many(records)

    def _write_run_meta(self, directory: Path, key: str, spec: dict[str, Any]) -> None:
        path = directory / "run.json"
        created = now_iso()
        if path.exists():
            try:
                import json

                created = json.loads(path.read_text(encoding="utf-8")).get("created_at", created)
            except (OSError, ValueError):
                pass
        write_json_atomic(path, {"key": key, "spec": spec, "created_at": created,
                                 "updated_at": now_iso()})


UNREACHABLE_ERRORS = ("EngineDiedError:", "EngineStartError:", "LLMConnectionError:")


def _unreachable(record: dict[str, Any]) -> bool:
    """Whether a sample failed because its engine is gone or cannot be reached at all."""
    error = record.get("error") or ""
    return bool(record.get("transient")) and error.startswith(UNREACHABLE_ERRORS)


def _used(llm: Any, phases: set[str], runner: BenchRunner) -> bool:
    """Whether ``llm`` serves one of the phases that has work."""
    if "answer" in phases:
        return True
    wanted = {"pairwise": runner.pairwise_llm, "judge2": runner.second_judge_llm,
              "howto": runner.howto_llm}
    return any(llm is wanted.get(p) for p in phases)

