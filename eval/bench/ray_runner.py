"""The answer phase of a benchmark run on Ray: a Ray Data dataset processed by an actor pool.

:class:`RayBenchRunner` is a :class:`~eval.bench.runner.BenchRunner` whose answer + judge phase
runs on a Ray cluster (or a local Ray instance) instead of the thread pool:

* every pending (conversation, system) pair becomes one row of a Ray Data dataset;
* ``map_batches`` runs it through a pool of ``concurrency`` actors; each actor builds the
  answerers and the judge once, over its own clients to the configured OpenAI-compatible
  endpoints, and answers + judges its rows (each conversation's calls carry its id as the
  session header, so a router keeps a conversation on one replica);
* the driver reads the rows back as they finish and appends them to the same keyed result
  stores as the thread runner, holding the same run locks: one writer per run, and a restarted
  run skips every finished sample (Ray Data keeps no job checkpoint of its own).

Engines that the configuration says to start (the embedded engine, vLLM) are started once, by
the driver, and the actors are pointed at their endpoint: on a multi-node cluster give endpoints
the nodes can reach (``--base-url``). The extra phase (second judge, how-to metrics, pairwise)
runs in the driver as in the thread runner.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tqdm.auto import tqdm

from eval.bench.runner import BenchRunner, _Task, _unreachable
from eval.bench.store import ResultStore
from serving.config import ServingConfig
from serving.pool import ClientPool

LOCAL = "local"
# Ray's CPUs per actor: the actors mostly wait on the endpoints, so several share a core
DEFAULT_CPUS_PER_ACTOR = 0.25


@dataclass(frozen=True)
class WorkerSpec:
    """What an actor needs to rebuild the answerers and the judge in its own process."""

    serving: ServingConfig
    judge: ServingConfig
    systems: dict[str, dict[str, Any]]  # answerer name -> its parameters
    judge_options: dict[str, Any] = field(default_factory=dict)
    setting: str = "given"  # "given" documents or "memory"
    memory: str | None = None  # memory directory (memory setting); None: the bundled sample
    store: str | None = None  # the store the memory is searched in (a Qdrant server)


class SampleWorker:
    """A Ray Data actor: answers and judges the rows of its batches (one sample per row)."""

    def __init__(self, spec: WorkerSpec) -> None:
        from eval.inseval import InsEvalJudge
        from procmem.answerers import make_answerer

        self.clients = ClientPool()
        answer_llm = self.clients.model(spec.serving)
        memory = None
        if spec.setting == "memory":
            from procmem.stores import open_memory

            memory = open_memory(spec.memory, spec.store)
        self.answerers = {name: make_answerer(name, llm=answer_llm, memory=memory, **params)
                          for name, params in spec.systems.items()}
        self.judge = InsEvalJudge(self.clients.model(spec.judge), **spec.judge_options)
        self.documents = None
        if spec.setting == "given":
            from inscoqa.bundled import corpus_index

            self.documents = corpus_index().resolve

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[str]]:
        from eval.bench.sample import run_sample
        from inscoqa.records import Conversation
        from serving.headers import session

        systems, records = [], []
        for system, conv_json in zip(batch["system"], batch["conversation"], strict=True):
            conv = Conversation.from_dict(json.loads(conv_json))
            with session(conv.id):
                record = run_sample(conv, str(system), self.answerers[str(system)], self.judge,
                                    self.documents)
            systems.append(str(system))
            records.append(json.dumps(record, ensure_ascii=False, default=str))
        return {"system": systems, "record": records}

    def __del__(self) -> None:
        clients = getattr(self, "clients", None)
        if clients is not None:
            clients.close()


@contextmanager
def ray_session(address: str | None, *, num_cpus: int | None = None) -> Iterator[Any]:
    """Connect to the Ray cluster at ``address`` (``local`` or None: start a local instance).

    A Ray already initialised in this process is used as it is and left running."""
    try:
        import ray
    except ImportError as exc:
        raise ValueError("--ray needs Ray Data: pip install 'inscoqa[ray]'") from exc
    if ray.is_initialized():
        yield ray
        return
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                              "configure_logging": False}
    if address in (None, "", LOCAL):
        # a private local instance: no cluster token to hand out
        os.environ.setdefault("RAY_AUTH_MODE", "disabled")
        kwargs["num_cpus"] = num_cpus
    else:
        kwargs["address"] = address
    ray.init(**kwargs)
    try:
        yield ray
    finally:
        ray.shutdown()


class RayBenchRunner(BenchRunner):
    """A :class:`BenchRunner` whose answer phase runs on Ray (see the module docstring).

    ``clients`` is the driver's pool: engines that must be started are started through it, once.
    """

    def __init__(self, *, worker: WorkerSpec, clients: ClientPool, address: str | None = None,
                 num_cpus: int | None = None,
                 cpus_per_actor: float = DEFAULT_CPUS_PER_ACTOR, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.worker = worker
        self.clients = clients
        self.address = address
        self.num_cpus = num_cpus
        self.cpus_per_actor = cpus_per_actor

    def _endpoint(self, config: ServingConfig) -> ServingConfig:
        """``config`` pointing at a running server: engines to start are started here, once."""
        if config.base_url:
            return config
        client = self.clients.client(config)
        return dataclasses.replace(config, base_url=client.base_url, model=client.model)

    def _execute(self, label: str, tasks: list[_Task], llms: list[Any]) -> int:
        if not tasks or any(task.phase != "answer" for task in tasks):
            return super()._execute(label, tasks, llms)
        worker = dataclasses.replace(self.worker, serving=self._endpoint(self.worker.serving),
                                     judge=self._endpoint(self.worker.judge))
        stores: dict[str, ResultStore] = {}
        rows = []
        for task in tasks:
            conv, system = task.args[0], task.args[1]
            stores[system] = task.store
            rows.append({"system": system,
                         "conversation": json.dumps(conv.to_dict(), ensure_ascii=False)})
        bar = tqdm(total=len(tasks), desc=f"{label} (ray)", unit="sample",
                   disable=not self.progress, dynamic_ncols=True)
        try:
            with ray_session(self.address, num_cpus=self.num_cpus) as ray:
                import ray.data

                context = ray.data.DataContext.get_current()
                context.enable_progress_bars = False
                context.print_on_execution_start = False
                results = ray.data.from_items(rows).map_batches(
                    SampleWorker, fn_constructor_kwargs={"spec": worker}, batch_size=1,
                    compute=ray.data.ActorPoolStrategy(size=min(self.concurrency, len(rows))),
                    num_cpus=self.cpus_per_actor)
                for row in results.iter_rows():
                    record = json.loads(row["record"])
                    # the driver is the only writer: it holds the run locks (see BenchRunner.run)
                    self._save([(stores[row["system"]], record)])
                    bar.update(1)
                    if _unreachable(record):
                        # every later sample would fail the same way: leave them for a re-run
                        self.stopped = record["error"]
                        break
        finally:
            bar.close()
        return len(tasks)


def runner_options(options: Any, serving: ServingConfig, judge: ServingConfig,
                   clients: ClientPool, *, params: dict[str, dict[str, Any]],
                   judge_options: dict[str, Any]) -> dict[str, Any]:
    """The :class:`RayBenchRunner` keywords of a run built by ``eval.bench.session``: the
    answerers' ``params`` and the judge's keywords exactly as the driver built its own with
    (``options.ray`` is the cluster address, or ``local``)."""
    return {
        "worker": WorkerSpec(
            serving=serving, judge=judge,
            systems={name: dict(params.get(name, {})) for name in options.systems},
            judge_options=dict(judge_options), setting=options.setting, memory=options.memory,
            store=options.store),
        "clients": clients,
        "address": options.ray,
    }
