"""Build and run a benchmark from command-line options: data, engines, memory, answerers.

Engines are connected lazily (:class:`serving.pool.ClientPool`), so a run with nothing left
to do starts no engine. The judge has its own configuration section (``[judge]``,
``INSCOQA_JUDGE_*``, ``--judge-*``); when none of it is set the judge uses the answerers' engine.
A second judge (section ``second_judge``) is only used when configured.
"""

from __future__ import annotations

import dataclasses
import shlex
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from eval.bench.keys import data_id, stable_hash
from eval.bench.runner import BenchOutcome, BenchRunner
from inscoqa.records import Conversation
from serving.config import ServingConfig, config_sources, load_section
from serving.pool import ClientPool

DEFAULT_SYSTEMS = ("extractive", "inscoqa")
DEFAULT_LIMIT = 6
# serving fields that change what a model replies (part of the run key)
SAMPLING_FIELDS = ("temperature", "max_tokens", "seed")
VOLATILE_MANIFEST_KEYS = ("saved_at", "files")


@dataclass
class BenchOptions:
    systems: list[str] = field(default_factory=lambda: list(DEFAULT_SYSTEMS))
    data: str = "sample"
    split: str | None = None
    limit: int | None = DEFAULT_LIMIT  # None: every conversation
    setting: str = "given"  # "given" documents (InsCoQA protocol) or "memory" (open setting)
    memory: str | None = None  # memory dir; None: the bundled sample memory
    out: str = "runs"
    report_dir: str | None = None
    concurrency: int = 4
    pairwise: bool = False
    howto: bool = False
    serving: dict[str, Any] = field(default_factory=dict)  # CLI overrides of [serving]
    judge: dict[str, Any] = field(default_factory=dict)  # CLI overrides of [judge]
    second_judge: dict[str, Any] = field(default_factory=dict)  # CLI overrides of [second_judge]
    params: dict[str, dict[str, Any]] = field(default_factory=dict)  # answerer params by system
    judge_options: dict[str, Any] = field(default_factory=dict)  # InsEvalJudge: mode, max_tokens
    retry_failed: bool = False
    progress: bool = True
    plots: bool = True


@dataclass
class BenchResult:
    outcome: BenchOutcome
    summary: dict[str, Any]
    files: Any  # eval.report.ReportFiles


# -- data ------------------------------------------------------------------------------------


def dataset_spec(data: str, split: str | None) -> str:
    """The dataset spec with ``--split`` applied (splits exist for ``hf:`` datasets)."""
    if not split:
        return data
    if not data.startswith("hf:"):
        raise ValueError(f"--split {split!r} applies to hf:<dir> datasets; got --data {data!r}")
    return data if data.count(":") >= 2 else f"{data}:{split}"


def select(conversations: list[Conversation], limit: int | None) -> list[Conversation]:
    """The first ``limit`` conversations taking domains in turn (a small but mixed subset)."""
    if limit is None or limit >= len(conversations):
        return list(conversations)
    by_domain: dict[str, list[Conversation]] = defaultdict(list)
    for conv in conversations:
        by_domain[conv.domain].append(conv)
    queues = list(by_domain.values())
    chosen: list[Conversation] = []
    while len(chosen) < limit:
        for queue in queues:
            if queue and len(chosen) < limit:
                chosen.append(queue.pop(0))
    order = {c.id: i for i, c in enumerate(conversations)}
    return sorted(chosen, key=lambda c: order[c.id])


# -- engines ---------------------------------------------------------------------------------


def layered(base: ServingConfig, section: str, cli: dict[str, Any]) -> ServingConfig | None:
    """``base`` with the fields set for ``section`` (flags, env, file) replaced; None if none is."""
    sources = config_sources(ServingConfig, section, cli=cli)
    changed = [name for name, source in sources.items() if source != "default"]
    if not changed:
        return None
    loaded = load_section(ServingConfig, section, cli=cli)
    return dataclasses.replace(base, **{name: getattr(loaded, name) for name in changed})


def judge_configs(options: BenchOptions) -> tuple[ServingConfig, ServingConfig,
                                                   ServingConfig | None]:
    """(answerers', judge's, second judge's or None) serving configs.

    The judge inherits every setting it does not set from the answerers' config; the second
    judge inherits from the judge and exists only when something is set for it.
    """
    serving = load_section(ServingConfig, "serving", cli=options.serving)
    judge = layered(serving, "judge", options.judge) or serving
    second = layered(judge, "second_judge", options.second_judge)
    return serving, judge, second


def sampling(config: ServingConfig) -> dict[str, Any]:
    return {name: getattr(config, name) for name in SAMPLING_FIELDS}


# -- the run ---------------------------------------------------------------------------------


def _memory(options: BenchOptions) -> tuple[Any, str | None]:
    if options.setting == "given":
        return None, None
    from procmem.memory import Memory, sample_memory

    memory = (Memory.load(options.memory) if options.memory
              else sample_memory(progress=options.progress))
    # what the memory holds, not when it was saved
    manifest = {k: v for k, v in memory.manifest.items() if k not in VOLATILE_MANIFEST_KEYS}
    return memory, stable_hash(manifest)


def _documents(options: BenchOptions) -> Callable[[Conversation], list[Any]] | None:
    if options.setting != "given":
        return None
    from inscoqa.bundled import corpus_index

    return corpus_index().resolve


def run_bench(options: BenchOptions) -> BenchResult:
    """Run (or resume) a benchmark and write its report."""
    from eval.report import write_report
    from inscoqa.bundled import resolve_dataset
    from procmem.answerers import make_answerer

    if options.setting not in ("given", "memory"):
        raise ValueError(f"--setting must be 'given' or 'memory', got {options.setting!r}")
    if not options.systems:
        raise ValueError("--systems: name at least one answerer")
    spec = dataset_spec(options.data, options.split)
    everything = resolve_dataset(spec)
    if not everything:
        raise ValueError(f"dataset {spec!r} has no conversations")
    conversations = select(everything, options.limit)
    serving, judge, second = judge_configs(options)
    memory, memory_id = _memory(options)
    with ClientPool() as clients:
        answer_llm = clients.model(serving)
        answerers = {name: make_answerer(name, llm=answer_llm, memory=memory,
                                         **options.params.get(name, {}))
                     for name in options.systems}
        judge_llm = clients.model(judge)
        runner = BenchRunner(
            conversations=conversations,
            data_id=data_id(spec, everything),
            answerers=answerers,
            judge_llm=judge_llm,
            out_dir=options.out,
            documents=_documents(options),
            memory_id=memory_id,
            concurrency=options.concurrency,
            pairwise_llm=judge_llm if options.pairwise else None,
            second_judge_llm=clients.model(second) if second is not None else None,
            howto_llm=judge_llm if options.howto else None,
            judge_options=options.judge_options,
            # the judges pass their own sampling parameters; the answerers may rely on defaults
            key_extras={"sampling": sampling(serving)},
            retry_failed=options.retry_failed,
            progress=options.progress,
            metadata={"data": spec, "limit": options.limit,
                      "memory": options.memory if options.setting == "memory" else None,
                      "command": shlex.join(sys.argv)},
        )
        outcome = runner.run()
    summary, files = write_report(outcome, options.report_dir, plots=options.plots)
    return BenchResult(outcome=outcome, summary=summary, files=files)
