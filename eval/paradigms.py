"""THREAD's paradigm comparison: the same questions answered from each kind of memory unit.

A *paradigm* is a unit kind the memory offers (``procmem.memory.Memory.kinds`` of which it
holds units: ``procedure``, ``logic_unit``, ``chunk``, ``semantic_chunk``, ``proposition``,
``document``; a kind added to the memory joins with no change here). In the given-documents
setting they are the configured ``[memory] kinds`` and semantic chunks (propositions need a
model, so not there); a memory over given documents builds a kind when an answerer first asks
for it (:class:`procmem.answerers.retrieval.Retriever`). Each is answered by the answerer its rule names (:data:`RULES`): logic units
by ``logic-units`` (single-turn: the whole plan along CONTINUE linkers; multi-turn: one step per
turn, linkers on reported outcomes), every other kind by ``rag`` over the top-k units of that
kind (``unit_kind=<kind>``). k is 1 for documents and 5 otherwise (THREAD's setup), unless set.

Two studies, both resumable and keyed like the benchmark (:mod:`eval.bench.keys`, one
:class:`~eval.bench.store.ResultStore` per paradigm):

* :func:`compare_paradigms` (single turn): the benchmark runner answers every conversation
  with every paradigm and scores the answer with the InsEval judge; then the linear how-to
  metrics (action items, success) are added beside the results. Reported per paradigm: evidence
  recall of the units sent to the generator, units and tokens sent to the generator, JS, TCR,
  action-item P/R/F1 and Success Rate.
* :func:`dialogue_paradigms` (multi-turn, :mod:`eval.multiturn`): a simulated user does the task
  with each paradigm; reported per paradigm are SR and P/R/F1 single-turn (the single-turn
  answer) and multi-turn (every step given in the dialogue), turns, and the outcomes reported.

Reports are written as Markdown and JSON.
"""

from __future__ import annotations

import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from eval.bench.keys import run_key, stable_hash
from eval.bench.sample import error_text, is_transient, now_iso
from eval.bench.store import ResultStore, write_json_atomic
from eval.howto import HowToScorer
from eval.multiturn import DEFAULT_MAX_TURNS, UserSimulator, run_dialogue
from inscoqa.corpus.document import Document
from inscoqa.dirlock import DirectoryLock
from inscoqa.records import Conversation
from procmem.answerers.base import Answer, Answerer, AnswerRequest, Searchable, StageRecord
from procmem.answerers.retrieval import Retriever
from procmem.memory import TOKEN_COUNT

RESULT_FORMAT = 1
DEFAULT_K = 5


@dataclass(frozen=True)
class Rule:
    """How one kind of unit is answered from: an answerer and its parameters per mode."""

    answerer: str
    single: dict[str, Any] = field(default_factory=dict)
    multi: dict[str, Any] = field(default_factory=dict)
    kind_param: str | None = None  # the answerer parameter that names the unit kind
    k: int = DEFAULT_K
    unit_words: int = 300  # words of each unit shown to the generator


RAG_RULE = Rule("rag", kind_param="unit_kind")
RULES: dict[str, Rule] = {
    "logic_unit": Rule("logic-units", single={"mode": "single"}, multi={"mode": "multi"}),
    "document": Rule("rag", kind_param="unit_kind", k=1, unit_words=2000),
    # a semantic chunk has no size limit: shown whole up to the size of a long section
    "semantic_chunk": Rule("rag", kind_param="unit_kind", unit_words=600),
}


@dataclass(frozen=True)
class Paradigm:
    name: str  # the unit kind
    answerer: str
    single: dict[str, Any]
    multi: dict[str, Any]


def make_paradigms(kinds: Sequence[str], only: Sequence[str] | None = None,
                   k: dict[str, int] | None = None) -> list[Paradigm]:
    """One paradigm per unit kind offered (``only``: a selection of them, in that order)."""
    names = list(only) if only else list(kinds)
    unknown = [n for n in names if n not in kinds]
    if unknown:
        raise ValueError(f"paradigm(s) {unknown} not offered by the memory; it offers {list(kinds)}")
    unused = sorted(set(k or {}) - set(names))
    if unused:
        raise ValueError(f"--k for {unused}: not among the paradigms {names}")
    paradigms = []
    for name in names:
        rule = RULES.get(name, RAG_RULE)
        common: dict[str, Any] = {"temperature": 0.0, "k": (k or {}).get(name, rule.k),
                                  "unit_words": rule.unit_words}
        if rule.kind_param:
            common[rule.kind_param] = name
        paradigms.append(Paradigm(name, rule.answerer, {**common, **rule.single},
                                  {**common, **rule.multi}))
    return paradigms


# --------------------------------------------------------------------------- measuring


def count_tokens(text: str) -> int:
    """Word and punctuation tokens, counted as ``Memory.stats`` counts a unit's."""
    return len(TOKEN_COUNT.findall(text))


class MeasuredAnswerer:
    """An answerer whose answers also record what was sent to the generator: the units (its
    sources), their tokens and documents (a ``paradigm`` stage appended to the trace)."""

    def __init__(self, inner: Answerer, paradigm: str, memory: Searchable | None) -> None:
        self.inner = inner
        self.name = inner.name
        self.paradigm = paradigm
        self.memory = memory
        self.llm = getattr(inner, "llm", None)

    def config(self) -> dict[str, Any]:
        return {**self.inner.config(), "paradigm": self.paradigm}

    def answer(self, request: AnswerRequest) -> Answer:
        answer = self.inner.answer(request)
        memory = Retriever(self.memory, request.documents).holding(self.paradigm)
        units = []
        for source in answer.sources:
            unit = memory.get(source.unit_id) if hasattr(memory, "get") else None
            if unit is not None:
                units.append(unit)
        generate = next((s for s in answer.trace.stages if s.name == "generate"), None)
        kinds = Counter(u.kind for u in units)
        answer.trace.stages.append(StageRecord("paradigm", details={
            "paradigm": self.paradigm, "kinds": dict(kinds),
            "units": len(units), "doc_ids": [str(u.meta.get("doc_id", "")) for u in units],
            "unit_tokens": [count_tokens(u.render()) for u in units],
            "generator_prompt_tokens": generate.usage.prompt_tokens if generate else None,
        }))
        return answer


def paradigm_stage(trace: dict[str, Any] | None) -> dict[str, Any] | None:
    for stage in (trace or {}).get("stages", []):
        if stage["name"] == "paradigm":
            return stage["details"]
    return None


def gold_doc_ids(conv: Conversation) -> set[str]:
    """The documents that support the reference answer (its evidence), else all of them."""
    return set(conv.evidence) or {d.doc_id for d in conv.documents}


def evidence_recall(details: dict[str, Any], conv: Conversation) -> float:
    gold = gold_doc_ids(conv)
    return len(gold & set(details["doc_ids"])) / len(gold)


def _mean(values: list[float]) -> float | None:
    return round(float(np.mean(values)), 4) if values else None


# --------------------------------------------------------------------------- setup


@dataclass
class StudyOptions:
    data: str = "sample"
    limit: int | None = 2
    setting: str = "given"  # "given": each conversation's documents; "memory": a saved memory
    memory: str | None = None  # memory dir (memory setting); None: the bundled sample memory
    paradigms: list[str] = field(default_factory=list)  # empty: every kind the memory offers
    k: dict[str, int] = field(default_factory=dict)
    out: str = "runs"
    report_dir: str | None = None
    matcher: str = "judge"
    serving: dict[str, Any] = field(default_factory=dict)
    judge: dict[str, Any] = field(default_factory=dict)
    max_turns: int = DEFAULT_MAX_TURNS
    simulator: str = "rules"
    progress: bool = True


class StudyStopped(RuntimeError):
    """The engine is gone or cannot be reached: the rest is left for a re-run."""


@dataclass
class Study:
    conversations: list[Conversation]
    data_id: str
    memory: Any
    memory_id: str | None
    kinds: tuple[str, ...]
    documents: Callable[[Conversation], list[Document]] | None


def given_kinds() -> tuple[str, ...]:
    """The paradigms over given documents: the configured kinds and semantic chunks (none that
    a model writes: those memories are built without one)."""
    from procmem.config import ALL_KINDS, kind_names, load_memory_config
    from procmem.units import MODEL_KINDS

    wanted = {*kind_names(load_memory_config().kinds), "semantic_chunk"}
    return tuple(k for k in ALL_KINDS if k in wanted and k not in MODEL_KINDS)


def load_study(options: StudyOptions) -> Study:
    from eval.bench.keys import data_id
    from eval.bench.session import BenchOptions, _documents, _memory, select
    from inscoqa.bundled import resolve_dataset

    if options.setting not in ("given", "memory"):
        raise ValueError(f"setting must be 'given' or 'memory', got {options.setting!r}")
    everything = resolve_dataset(options.data)
    if not everything:
        raise ValueError(f"dataset {options.data!r} has no conversations")
    conversations = select(everything, options.limit)
    bench = BenchOptions(setting=options.setting, memory=options.memory, progress=options.progress)
    memory, memory_id, _ = _memory(bench)
    kinds = (tuple(k for k in memory.kinds if memory.units(k)) if memory is not None
             else given_kinds())
    return Study(conversations, data_id(options.data, everything), memory, memory_id, kinds,
                 _documents(bench))


# --------------------------------------------------------------------------- single turn


def compare_paradigms(options: StudyOptions) -> dict[str, Any]:
    """Run (or resume) the single-turn comparison and write its report."""
    from eval.bench.extras import howto_sample
    from eval.bench.runner import BenchRunner
    from eval.bench.session import judge_configs, sampling
    from procmem.answerers import make_answerer
    from serving.pool import ClientPool

    study = load_study(options)
    paradigms = make_paradigms(study.kinds, options.paradigms, options.k)
    serving, judge, _ = judge_configs(_bench_options(options))
    with ClientPool() as clients:
        llm = clients.model(serving)
        judge_llm = clients.model(judge)
        answerers: dict[str, Answerer] = {
            p.name: MeasuredAnswerer(make_answerer(p.answerer, llm=llm, memory=study.memory,
                                                   **p.single), p.name, study.memory)
            for p in paradigms}
        runner = BenchRunner(
            conversations=study.conversations, data_id=study.data_id, answerers=answerers,
            judge_llm=judge_llm, out_dir=options.out, documents=study.documents,
            memory_id=study.memory_id, concurrency=1,
            key_extras={"sampling": sampling(serving), "study": "paradigms"},
            progress=options.progress, metadata={"data": options.data})
        outcome = runner.run()
        if outcome.stopped is not None:
            raise StudyStopped(f"{outcome.stopped}; run the same command again to go on")
        scorer = HowToScorer(judge_llm, matcher=options.matcher)
        howto: dict[str, list[dict[str, Any]]] = {}
        for name, run in outcome.runs.items():
            store = ResultStore(run.dir / f"howto-{stable_hash(scorer.config())}.jsonl")
            done = store.load()
            by_id = {r["sample_id"]: r for r in outcome.results[name]}
            for conv in study.conversations:
                record = done.get(conv.id)
                if conv.id in by_id and (record is None or record.get("transient")):
                    store.append(_checked(howto_sample(conv, by_id[conv.id], scorer)))
            records = store.load()
            howto[name] = [records[c.id] for c in study.conversations if c.id in records]
    summary = summarize_comparison(study, paradigms, outcome.results, howto,
                                   {"scorer": scorer.config(),
                                    "runs": {n: r.key for n, r in outcome.runs.items()}})
    report_dir = Path(options.report_dir or Path(options.out) / f"paradigms-{stable_hash(summary['meta']['runs'])}")
    summary["files"] = write_study_report(report_dir, summary, comparison_markdown(summary))
    return summary


def _checked(record: dict[str, Any]) -> dict[str, Any]:
    """``record``; :class:`StudyStopped` instead when its failure says the engine is gone (every
    later sample would fail the same way; this one is left unsaved, for the next run)."""
    from eval.bench.runner import _unreachable

    if _unreachable(record):
        raise StudyStopped(f"{record['error']}; run the same command again to go on")
    return record


def _bench_options(options: StudyOptions) -> Any:
    from eval.bench.session import BenchOptions

    return BenchOptions(serving=options.serving, judge=options.judge)


def summarize_comparison(study: Study, paradigms: list[Paradigm],
                         results: dict[str, list[dict[str, Any]]],
                         howto: dict[str, list[dict[str, Any]]],
                         meta: dict[str, Any]) -> dict[str, Any]:
    convs = {c.id: c for c in study.conversations}
    rows: dict[str, Any] = {}
    for p in paradigms:
        recs = results.get(p.name, [])
        answered = [r for r in recs if r.get("answer") is not None]
        measured = [(r, d) for r in answered if (d := paradigm_stage(r["trace"])) is not None]
        judged = [r["judge"] for r in recs if r.get("status") == "ok"]
        scored = [r["howto"] for r in howto.get(p.name, []) if r.get("status") == "ok"]
        prompt_tokens = [d["generator_prompt_tokens"] for _, d in measured
                         if d.get("generator_prompt_tokens")]
        rows[p.name] = {
            "answerer": p.answerer, "params": p.single, "n": len(recs), "answered": len(answered),
            "evidence_recall": _mean([evidence_recall(d, convs[r["sample_id"]])
                                      for r, d in measured]),
            "units_sent": _mean([d["units"] for _, d in measured]),
            "tokens_per_unit": _mean([t for _, d in measured for t in d["unit_tokens"]]),
            "tokens_sent": _mean([sum(d["unit_tokens"]) for _, d in measured]),
            "generator_prompt_tokens": _mean(prompt_tokens),
            "js": _mean([j["score"] for j in judged]), "tcr": _mean([j["tcr"] for j in judged]),
            "precision": _mean([s["precision"] for s in scored]),
            "recall": _mean([s["recall"] for s in scored]),
            "f1": _mean([s["f1"] for s in scored]),
            "success_rate": _mean([s["success"] for s in scored]),
            # a how-to record is "skipped" when there was no answer: that failure is listed once
            "failures": [{"sample_id": r["sample_id"], "error": r.get("error")}
                         for r in [*recs, *howto.get(p.name, [])]
                         if r.get("status") not in ("ok", "skipped")],
        }
    return {"meta": {"study": "paradigms", "data_id": study.data_id,
                     "conversations": [c.id for c in study.conversations],
                     "setting": "given" if study.documents else "memory",
                     "memory": study.memory_id, "kinds": list(study.kinds), **meta,
                     "written_at": now_iso()},
            "paradigms": rows}


def _fmt(value: Any, pct: bool = False) -> str:
    if value is None:
        return "–"
    return f"{100 * value:.1f}" if pct else f"{value:.1f}" if isinstance(value, float) else str(value)


def comparison_markdown(summary: dict[str, Any]) -> str:
    meta = summary["meta"]
    lines = [
        "# Paradigm comparison (single turn)", "",
        f"{len(meta['conversations'])} conversations of {meta['data_id']}, setting "
        f"{meta['setting']}; how-to matcher {meta['scorer']['matcher']}, judge "
        f"{meta['scorer']['model']}.", "",
        "Evidence recall: share of the reference's evidence documents among the units sent to the "
        "generator. Tokens: word and punctuation tokens of those units (as `Memory.stats`). "
        "JS/TCR: InsEval judge. P/R/F1: action items; SR: success rate (%).", "",
        "| paradigm | answerer | n | evidence recall | units sent | tokens/unit | tokens sent "
        "| generator prompt tokens | JS | TCR | P | R | F1 | SR |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in summary["paradigms"].items():
        lines.append(
            f"| {name} | {r['answerer']} | {r['answered']}/{r['n']} | "
            f"{_fmt(r['evidence_recall'], True)} | {_fmt(r['units_sent'])} | "
            f"{_fmt(r['tokens_per_unit'])} | {_fmt(r['tokens_sent'])} | "
            f"{_fmt(r['generator_prompt_tokens'])} | {_fmt(r['js'])} | {_fmt(r['tcr'])} | "
            f"{_fmt(r['precision'], True)} | {_fmt(r['recall'], True)} | {_fmt(r['f1'], True)} | "
            f"{_fmt(r['success_rate'], True)} |")
    lines += _failure_lines(summary)
    return "\n".join(lines) + "\n"


def _failure_lines(summary: dict[str, Any]) -> list[str]:
    failures = [(name, f) for name, r in summary["paradigms"].items() for f in r["failures"]]
    if not failures:
        return []
    return ["", "## Failures", "", *[f"- {name} / {f['sample_id']}: {f['error']}"
                                     for name, f in failures]]


def write_study_report(report_dir: Path, summary: dict[str, Any], markdown: str) -> dict[str, str]:
    report_dir.mkdir(parents=True, exist_ok=True)
    files = {"markdown": str(report_dir / "report.md"), "json": str(report_dir / "report.json")}
    Path(files["markdown"]).write_text(markdown, encoding="utf-8")
    write_json_atomic(files["json"], {**summary, "files": files})
    return files


# --------------------------------------------------------------------------- multi-turn


def _score(scorer: HowToScorer, conv: Conversation, steps: list[str]) -> dict[str, Any]:
    found = scorer.score(conv.question, steps, list(conv.procedures))
    return {"precision": found.precision, "recall": found.recall, "f1": found.f1,
            "success": float(found.success), "generated_items": list(found.generated_items),
            "reference_items": list(found.reference_items),
            "matches": [list(m) for m in found.matches]}


def dialogue_sample(conv: Conversation, paradigm: Paradigm, single: Answerer, multi: Answerer,
                    simulator: UserSimulator, scorer: HowToScorer, *,
                    documents: list[Document] | None, max_turns: int) -> dict[str, Any]:
    """One conversation with one paradigm: the single-turn answer, the dialogue, both scored.
    Never raises for a failure: the failure is the record."""
    record: dict[str, Any] = {"sample_id": conv.id, "paradigm": paradigm.name, "status": "failed",
                              "transient": False, "error": None, "single": None, "multi": None}
    start = time.perf_counter()
    try:
        dialogue = run_dialogue(conv, multi, simulator, max_turns=max_turns, documents=documents)
        record["dialogue"] = dialogue.to_dict()
        if single.config() == multi.config():  # the first turn is the single-turn answer
            first = dialogue.exchanges[0].answer
        else:
            first = single.answer(AnswerRequest(conv.question, list(conv.history), documents))
        record["single_answer"] = {"answer": first.answer, "procedures": list(first.procedures),
                                   "trace": first.trace.to_dict()}
        record["single"] = _score(scorer, conv, list(first.procedures))
        record["multi"] = _score(scorer, conv, dialogue.steps)
        record["status"] = "ok"
    except Exception as exc:  # recorded, reported, retried when transient
        record.update(error=error_text(exc), transient=is_transient(exc),
                      traceback=traceback.format_exc(limit=6))
    record["seconds"] = round(time.perf_counter() - start, 3)
    record["finished_at"] = now_iso()
    return record


def dialogue_paradigms(options: StudyOptions) -> dict[str, Any]:
    """Run (or resume) the multi-turn study and write its report."""
    from eval.bench.session import judge_configs, sampling
    from eval.multiturn import make_simulator
    from procmem.answerers import make_answerer
    from serving.pool import ClientPool

    study = load_study(options)
    paradigms = make_paradigms(study.kinds, options.paradigms, options.k)
    serving, judge, _ = judge_configs(_bench_options(options))
    records: dict[str, list[dict[str, Any]]] = {}
    keys: dict[str, str] = {}
    with ClientPool() as clients:
        llm = clients.model(serving)
        judge_llm = clients.model(judge)
        simulator = make_simulator(options.simulator, llm=llm)
        scorer = HowToScorer(judge_llm, matcher=options.matcher)
        for p in paradigms:
            single = MeasuredAnswerer(make_answerer(p.answerer, llm=llm, memory=study.memory,
                                                    **p.single), p.name, study.memory)
            multi = MeasuredAnswerer(make_answerer(p.answerer, llm=llm, memory=study.memory,
                                                   **p.multi), p.name, study.memory)
            spec = {"format": RESULT_FORMAT, "study": "dialogue", "paradigm": p.name,
                    "single": single.config(), "multi": multi.config(),
                    "simulator": simulator.config(), "scorer": scorer.config(),
                    "max_turns": options.max_turns, "data": study.data_id,
                    "setting": options.setting, "memory": study.memory_id,
                    "sampling": sampling(serving)}
            keys[p.name] = key = run_key(f"dialogue-{p.name}", spec)
            directory = Path(options.out) / key
            with DirectoryLock(directory):
                write_json_atomic(directory / "run.json", {"key": key, "spec": spec})
                store = ResultStore(directory / "results.jsonl")
                done = store.load()
                for conv in study.conversations:
                    if conv.id in done and not done[conv.id].get("transient"):
                        continue
                    docs = study.documents(conv) if study.documents else None
                    store.append(_checked(dialogue_sample(
                        conv, p, single, multi, simulator, scorer, documents=docs,
                        max_turns=options.max_turns)))
                stored = store.load()
            records[p.name] = [stored[c.id] for c in study.conversations if c.id in stored]
    summary = summarize_dialogues(study, paradigms, records,
                                  {"scorer": scorer.config(), "simulator": simulator.config(),
                                   "max_turns": options.max_turns, "runs": keys})
    report_dir = Path(options.report_dir or Path(options.out) / f"dialogue-{stable_hash(keys)}")
    summary["files"] = write_study_report(report_dir, summary, dialogue_markdown(summary))
    return summary


def summarize_dialogues(study: Study, paradigms: list[Paradigm],
                        records: dict[str, list[dict[str, Any]]],
                        meta: dict[str, Any]) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    for p in paradigms:
        recs = records.get(p.name, [])
        ok = [r for r in recs if r["status"] == "ok"]
        row: dict[str, Any] = {"answerer": p.answerer, "n": len(recs), "scored": len(ok)}
        for mode in ("single", "multi"):
            row[mode] = {m: _mean([r[mode][m] for r in ok])
                         for m in ("precision", "recall", "f1", "success")}
        turns = [t for r in ok for t in r["dialogue"]["turns"]]
        row["turns"] = _mean([r["dialogue"]["n_turns"] for r in ok])
        row["done_rate"] = _mean([float(r["dialogue"]["outcome"] == "done") for r in ok])
        row["outcomes"] = dict(Counter(t["feedback"]["outcome"] for t in turns))
        row["linker_followed"] = sum(1 for t in turns if (t["linker"] or {}).get("matched"))
        row["failures"] = [{"sample_id": r["sample_id"], "error": r["error"]}
                           for r in recs if r["status"] != "ok"]
        rows[p.name] = row
    return {"meta": {"study": "dialogue", "data_id": study.data_id,
                     "conversations": [c.id for c in study.conversations],
                     "setting": "given" if study.documents else "memory",
                     "memory": study.memory_id, "kinds": list(study.kinds), **meta,
                     "written_at": now_iso()},
            "paradigms": rows}


def dialogue_markdown(summary: dict[str, Any]) -> str:
    meta = summary["meta"]
    lines = [
        "# Paradigms, single turn and multi-turn", "",
        f"{len(meta['conversations'])} conversations of {meta['data_id']}, setting "
        f"{meta['setting']}; user simulator {meta['simulator']['simulator']}, at most "
        f"{meta['max_turns']} turns; how-to matcher {meta['scorer']['matcher']}, judge "
        f"{meta['scorer']['model']}.", "",
        "SR: success rate; P/R/F1: action items (all in %). Single turn: the answer to the "
        "question; multi-turn: every step given in the dialogue.", "",
        "| paradigm | answerer | n | single SR | single P | single R | single F1 | multi SR "
        "| multi P | multi R | multi F1 | turns | done | outcomes | linkers followed |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in summary["paradigms"].items():
        s, m = r["single"], r["multi"]
        outcomes = ", ".join(f"{k} {v}" for k, v in sorted(r["outcomes"].items())) or "–"
        lines.append(
            f"| {name} | {r['answerer']} | {r['scored']}/{r['n']} | "
            + " | ".join(_fmt(x[k], True) for x in (s, m)
                         for k in ("success", "precision", "recall", "f1"))
            + f" | {_fmt(r['turns'])} | {_fmt(r['done_rate'], True)} | {outcomes} | "
              f"{r['linker_followed']} |")
    lines += _failure_lines(summary)
    return "\n".join(lines) + "\n"
