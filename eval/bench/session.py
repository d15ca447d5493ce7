"""Build and run a benchmark from command-line options: data, engines, memory, answerers.

Engines are connected lazily (:class:`serving.pool.ClientPool`), so a run with nothing left
to do starts no engine. The judge has its own configuration section (``[judge]``,
``INSCOQA_JUDGE_*``, ``--judge-*``); when none of it is set the judge uses the answerers' engine.
A second judge (section ``second_judge``) is only used when configured.

Defaults that follow the engine: the ``inscoqa`` answerer runs the paper's protocol (plain-text
sections, whole documents fitted to the context window) on vLLM and external engines and the
constrained JSON protocol on the embedded one; the judge replies in text on vLLM and external
engines and in JSON on the embedded one. ``--protocol`` and ``--judge-mode`` override them.
"""

from __future__ import annotations

import dataclasses
import shlex
import sys
from collections import defaultdict
from collections.abc import Callable
from contextlib import closing, nullcontext
from dataclasses import dataclass, field
from typing import Any

from eval.bench.keys import data_id, stable_hash
from eval.bench.runner import BenchOutcome, BenchRunner
from inscoqa.records import Conversation
from serving.config import ServingConfig, config_sources, load_section
from serving.pool import ClientPool

DEFAULT_SYSTEMS = ("extractive", "inscoqa")
DEFAULT_LIMIT = 6
# answerers that follow the InsCoQA answering protocol and take its mode
PROTOCOL_SYSTEMS = ("inscoqa",)
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
    # the memory searched through its collection in a store: qdrant://HOST:PORT, qdrant-local:DIR
    store: str | None = None
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
    # InsCoQA protocol mode of the "inscoqa" answerer: "paper" or "constrained" (None: by engine)
    protocol: str | None = None
    judge_prompt: str | None = None  # a user's judge prompt file (same placeholders)
    judge_check: int = 0  # conversations of a judge self-check run before the bench (0: none)
    alpha: float = 0.05  # significance level of the differences between systems
    retry_failed: bool = False
    progress: bool = True
    plots: bool = True
    ray: str | None = None  # run the answer phase on Ray: a cluster address, or "local"


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


def default_protocol(config: ServingConfig) -> str:
    """The paper's protocol, except on the tiny embedded model, which keeps a format only under
    constrained decoding."""
    return "constrained" if config.engine == "embedded" else "paper"


def default_judge_mode(config: ServingConfig) -> str:
    """Text replies (the paper's ``Total rating:`` lines) except on the embedded model."""
    return "json" if config.engine == "embedded" else "text"


def context_tokens(config: ServingConfig) -> int:
    """The context window the configuration gives the model, when it says (0: ask the engine)."""
    if config.engine == "embedded":
        return config.n_ctx
    if config.engine == "vllm":
        return config.max_model_len
    return 0


def system_params(options: BenchOptions, serving: ServingConfig) -> dict[str, dict[str, Any]]:
    """Answerer params with the protocol mode (and its context window) filled in by engine."""
    if options.protocol is not None and options.protocol not in ("paper", "constrained"):
        raise ValueError(f"--protocol must be 'paper' or 'constrained', got {options.protocol!r}")
    params = {name: dict(values) for name, values in options.params.items()}
    for name in options.systems:
        if name in PROTOCOL_SYSTEMS:
            own = params.setdefault(name, {})
            own.setdefault("protocol", options.protocol or default_protocol(serving))
            if own["protocol"] == "paper" and context_tokens(serving):
                own.setdefault("context_tokens", context_tokens(serving))
    return params


def judge_note(serving: ServingConfig, judge: ServingConfig) -> str | None:
    """One line when the judge is the answerers' own model (it grades its own answers)."""
    if judge != serving:
        return None
    from serving.pool import model_label

    return (f"the judge is the answerers' own model ({model_label(judge)}); set a separate judge "
            "with --judge-engine/--judge-base-url/--judge-model or [judge] in inscoqa.toml")


def judge_keywords(options: BenchOptions, judge: ServingConfig) -> dict[str, Any]:
    """InsEvalJudge keywords: the reply mode by the judge's engine unless chosen, the prompt."""
    keywords = {"mode": default_judge_mode(judge), **options.judge_options}
    if options.judge_prompt:
        keywords["prompt_file"] = options.judge_prompt
    return keywords


# -- the judge check -------------------------------------------------------------------------


def _judge_check(judge_llm: Any, keywords: dict[str, Any], conversations: list[Conversation],
                 options: BenchOptions) -> Any:
    from eval.inseval import InsEvalJudge
    from eval.judge_check import run_judge_check

    if not conversations:
        raise ValueError("--judge-check: no conversation selected")
    return run_judge_check(InsEvalJudge(judge_llm, **keywords), conversations,
                           concurrency=options.concurrency)


def judge_check_for(options: BenchOptions, conversations: list[Conversation]) -> tuple[Any, str | None]:
    """Run the judge self-check of ``options``' judge on ``conversations``:
    (:class:`eval.judge_check.JudgeCheck`, the note when the judge is the answerers' model)."""
    serving, judge, _ = judge_configs(options)
    with ClientPool() as clients:
        check = _judge_check(clients.model(judge), judge_keywords(options, judge), conversations,
                             options)
    return check, judge_note(serving, judge)


# -- the run ---------------------------------------------------------------------------------


def _memory(options: BenchOptions) -> tuple[Any, str | None, dict[str, str] | None]:
    """The memory setting's memory, its id (what it holds) and, with ``--store``, the store's
    identity (location, collection, content fingerprint), which goes into the run keys."""
    if options.setting == "given":
        if options.store:
            raise ValueError("--store applies to --setting memory")
        return None, None, None
    if options.store and options.ray is not None and options.store.startswith("qdrant-local:"):
        raise ValueError("--store qdrant-local: is open in one process only; use a Qdrant server "
                         "(--store qdrant://HOST:PORT) with --ray")
    from procmem.stores import open_memory

    memory = open_memory(options.memory, options.store, progress=options.progress)
    store = memory.store.identity() if options.store else None
    # what the memory holds, not when it was saved
    manifest = {k: v for k, v in memory.manifest.items() if k not in VOLATILE_MANIFEST_KEYS}
    return memory, stable_hash(manifest), store


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
    if not 0 < options.alpha < 1:
        raise ValueError(f"--alpha must be between 0 and 1, got {options.alpha}")
    if options.judge_check < 0:
        raise ValueError(f"--judge-check must be 0 or more conversations, got {options.judge_check}")
    spec = dataset_spec(options.data, options.split)
    everything = resolve_dataset(spec)
    if not everything:
        raise ValueError(f"dataset {spec!r} has no conversations")
    conversations = select(everything, options.limit)
    serving, judge, second = judge_configs(options)
    memory, memory_id, store = _memory(options)
    with ClientPool() as clients, closing(memory) if store else nullcontext():
        answer_llm = clients.model(serving)
        params = system_params(options, serving)
        answerers = {name: make_answerer(name, llm=answer_llm, memory=memory,
                                         **params.get(name, {}))
                     for name in options.systems}
        judge_options = judge_keywords(options, judge)
        judge_llm = clients.model(judge)
        check = (_judge_check(judge_llm, judge_options, conversations[: options.judge_check],
                              options) if options.judge_check > 0 else None)
        runner_class: type[BenchRunner] = BenchRunner
        on_ray: dict[str, Any] = {}
        if options.ray is not None:
            from eval.bench.ray_runner import RayBenchRunner, runner_options

            runner_class, on_ray = RayBenchRunner, runner_options(
                options, serving, judge, clients, params=params, judge_options=judge_options)
        runner = runner_class(
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
            judge_options=judge_options,
            # the judges pass their own sampling parameters; the answerers may rely on defaults
            key_extras={"sampling": sampling(serving), **({"store": store} if store else {})},
            retry_failed=options.retry_failed,
            progress=options.progress,
            metadata={"data": spec, "limit": options.limit,
                      "memory": options.memory if options.setting == "memory" else None,
                      "store": store,
                      "command": shlex.join(sys.argv),
                      "judge_note": judge_note(serving, judge)},
            **on_ray,
        )
        outcome = runner.run()
    summary, files = write_report(outcome, options.report_dir, plots=options.plots,
                                  alpha=options.alpha, judge_check=check.to_dict() if check is not None else None)
    return BenchResult(outcome=outcome, summary=summary, files=files)
