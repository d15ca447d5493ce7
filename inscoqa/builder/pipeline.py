"""Build InsCoQA-format conversations from documents and user queries, resumably.

One item is one query. It goes through the steps of :mod:`inscoqa.builder.steps` (filter,
retrieve 1-N documents, generate history + last question, answer, judge, summarise), then the
conversation is validated against the schema. Its outcome — ``kept`` (with the conversation),
``rejected`` (the step and the reason) or ``failed`` (the step and the error) — is appended
durably to ``<out>/items.jsonl`` as soon as it is known, so a build killed at any instant resumes
with only unfinished items left and none written twice. Failures of the infrastructure (engine
down, timeouts, HTTP 429/5xx) are retried by the next run; other failures stay recorded
(``retry_failed`` runs them again). At the end ``dataset.jsonl`` (kept conversations, in query
order), ``rejected.jsonl`` (rejected and failed items with their reasons) and ``summary.json``
are written atomically.
"""

from __future__ import annotations

import json
import time
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from inscoqa.builder.queries import query_key
from inscoqa.builder.steps import (
    Rejected,
    Sampling,
    SourceDocument,
    StepName,
    answer_question,
    filter_query,
    generate_dialogue,
    judge_sample,
    prompt_hashes,
    summarise_steps,
)
from inscoqa.dirlock import DirectoryLock
from inscoqa.io import atomic_write_text, save_conversations
from inscoqa.keyed_store import KeyedStore
from inscoqa.records import DOMAINS, Conversation
from inscoqa.schema import DatasetError, validate_record
from inscoqa.work_pool import WorkPool
from serving.errors import LLMSchemaError, is_infrastructure_error
from serving.types import ChatModel

BUILD_FORMAT = 1
ITEMS_FILE = "items.jsonl"
DATASET_FILE = "dataset.jsonl"
REJECTED_FILE = "rejected.jsonl"
SUMMARY_FILE = "summary.json"
SPEC_FILE = "build.json"


class Retriever(Protocol):
    """Documents for a query, best first, each with its score (higher is better)."""

    def __call__(self, query: str, k: int) -> Sequence[SourceDocument]: ...


@dataclass(frozen=True)
class BuildOptions:
    """What decides a build's samples (recorded in ``build.json``)."""

    domain: str = "Others"
    filter: bool = True  # False: every query is taken as it is (a curated list)
    candidates: int = 6  # documents retrieved per query before the multi-document rule
    max_documents: int = 3
    # a document beyond the first is kept when its score is at least this share of the best one
    min_score_ratio: float = 0.8
    min_rounds: int = 1
    max_rounds: int = 3
    max_doc_chars: int = 2500  # of each document shown to the model
    temperature: float | None = None
    max_tokens: int | None = 512
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.domain not in DOMAINS:
            raise ValueError(f"domain {self.domain!r}: choose one of {', '.join(DOMAINS)}")
        if not 1 <= self.max_documents <= self.candidates:
            raise ValueError("max_documents must be between 1 and candidates")
        if not 0 <= self.min_rounds <= self.max_rounds:
            raise ValueError("min_rounds must be between 0 and max_rounds")
        if not 0.0 <= self.min_score_ratio <= 1.0:
            raise ValueError("min_score_ratio must be between 0 and 1")

    @property
    def sampling(self) -> Sampling:
        return Sampling(self.temperature, self.max_tokens, self.seed)


class BuildSpecError(ValueError):
    """The output directory holds a build made with other options or prompts."""


def select_documents(hits: Sequence[SourceDocument], max_documents: int,
                     min_score_ratio: float) -> list[SourceDocument]:
    """The best document, and the next ones whose score is close enough to it (multi-document)."""
    chosen: list[SourceDocument] = []
    for hit in sorted(hits, key=lambda h: -h.score):
        if any(c.doc_id == hit.doc_id for c in chosen):
            continue
        if chosen and (chosen[0].score <= 0 or hit.score < min_score_ratio * chosen[0].score):
            break
        chosen.append(hit)
        if len(chosen) == max_documents:
            break
    return chosen


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"


@dataclass
class BuildSummary:
    """Counts of a build: kept, rejected by step, failed by step, and what this run did."""

    out_dir: str
    queries: int
    kept: int
    rejected: dict[str, int]
    failed: dict[str, int]
    left: int  # items the infrastructure left undone (a re-run retries them)
    new_items: int
    seconds: float
    stopped: str | None = None
    files: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        def by_step(counts: dict[str, int]) -> str:
            return ", ".join(f"{step} {n}" for step, n in counts.items()) or "none"
        lines = [f"{self.queries} queries: {self.kept} kept, {sum(self.rejected.values())} rejected "
                 f"({by_step(self.rejected)}), {sum(self.failed.values())} failed "
                 f"({by_step(self.failed)})",
                 f"{self.new_items} processed in this run ({self.seconds:.1f} s)"]
        if self.left:
            lines.append(f"{self.left} left undone by the engine: run the same command again")
        lines += [f"{name}: {path}" for name, path in self.files.items()]
        return "\n".join(lines)


class DatasetBuilder:
    """Runs the construction pipeline over queries; see the module docstring."""

    def __init__(self, llm: ChatModel, retrieve: Retriever, out_dir: str | Path, *,
                 options: BuildOptions | None = None, concurrency: int = 4,
                 retry_failed: bool = False, restart: bool = False, progress: bool = True) -> None:
        self.llm = llm
        self.retrieve = retrieve
        self.out_dir = Path(out_dir)
        self.options = options or BuildOptions()
        self.concurrency = max(1, int(concurrency))
        self.retry_failed = retry_failed
        self.restart = restart
        self.progress = progress
        self.store = KeyedStore(self.out_dir / ITEMS_FILE)
        self.stopped: str | None = None

    def spec(self) -> dict[str, Any]:
        return {"format": BUILD_FORMAT, "options": asdict(self.options),
                "prompts": prompt_hashes()["all"]}

    def _check_spec(self) -> None:
        path = self.out_dir / SPEC_FILE
        spec = self.spec()
        if path.exists() and not self.restart:
            old = json.loads(path.read_text(encoding="utf-8")).get("spec")
            if old != spec and self.store.path.exists():
                changed = sorted(k for k in {**old, **spec} if old.get(k) != spec.get(k))
                if "options" in changed:
                    changed += sorted(k for k in spec["options"]
                                      if old.get("options", {}).get(k) != spec["options"][k])
                raise BuildSpecError(
                    f"{self.out_dir} holds a build made with other settings ({', '.join(changed)}); "
                    "use another --out, or --restart to start this one anew")
        if self.restart and self.store.path.exists():
            self.store.path.unlink()
        atomic_write_text(path, json.dumps({"spec": spec, "model": self.llm.model,
                                            "prompts": prompt_hashes(), "updated_at": now_iso()},
                                           indent=2, ensure_ascii=False) + "\n")

    # -- one item ----------------------------------------------------------------------------

    def build_item(self, query: str) -> dict[str, Any]:
        """Every step for one query; never raises for a rejection or a model failure."""
        key = query_key(query)
        record: dict[str, Any] = {"key": key, "query": query, "status": "failed", "step": None,
                                  "reason": None, "transient": False, "conversation": None,
                                  "documents": [], "details": {}}
        start = time.perf_counter()
        step: StepName = "filter"
        opts, sampling = self.options, self.options.sampling
        try:
            if opts.filter:
                record["details"]["filter"] = filter_query(self.llm, query, sampling)
            step = "retrieve"
            documents = select_documents(self.retrieve(query, opts.candidates), opts.max_documents,
                                         opts.min_score_ratio)
            record["documents"] = [{"doc_id": d.doc_id, "title": d.title, "score": d.score}
                                   for d in documents]
            if not documents:
                raise Rejected("retrieve", "no document matches the query")
            step = "generate"
            dialogue = generate_dialogue(self.llm, query, documents, sampling,
                                         min_rounds=opts.min_rounds, max_rounds=opts.max_rounds,
                                         max_doc_chars=opts.max_doc_chars)
            step = "answer"
            answer = answer_question(self.llm, dialogue, documents, sampling,
                                     max_doc_chars=opts.max_doc_chars)
            step = "judge"
            judgement = judge_sample(self.llm, dialogue, answer, sampling)
            record["details"]["judge"] = judgement.to_dict()
            step = "summarise"
            steps = summarise_steps(self.llm, dialogue, answer, sampling)
            step = "validate"
            data = {
                "id": f"build-{key[2:]}", "domain": opts.domain,
                "documents": [{"doc_id": d.doc_id, "title": d.title, "text": d.text}
                              for d in documents],
                "history": [[q, a] for q, a in dialogue.history], "question": dialogue.question,
                "answer": answer, "procedures": steps,
                "meta": {"query": query, "judge": judgement.to_dict(),
                         "retrieval_scores": {d.doc_id: d.score for d in documents}},
            }
            record["conversation"] = validate_record(data, where=f"build item '{key}'").to_dict()
            record.update(status="kept", step=None)
        except Rejected as rejection:
            record.update(status="rejected", step=rejection.step, reason=rejection.reason)
            record["details"].update(rejection.details)
        except LLMSchemaError as exc:  # the client has re-asked already; the reply stays invalid
            record.update(step=step, reason=f"invalid reply: {exc}")
            record["details"]["raw"] = exc.raw
        except DatasetError as exc:
            record.update(step=step, reason=str(exc))
        except Exception as exc:  # recorded and counted, never lost
            record.update(step=step, reason=error_text(exc), transient=is_infrastructure_error(exc))
            record["details"]["traceback"] = traceback.format_exc(limit=6)
        record["seconds"] = round(time.perf_counter() - start, 3)
        record["finished_at"] = now_iso()
        return record

    # -- the run -----------------------------------------------------------------------------

    def pending(self, queries: Sequence[str], done: dict[str, dict[str, Any]]) -> list[str]:
        out = []
        for query in queries:
            record = done.get(query_key(query))
            if (record is None or record.get("transient")
                    or (self.retry_failed and record.get("status") == "failed")):
                out.append(query)
        return out

    def run(self, queries: Sequence[str]) -> BuildSummary:
        if not queries:
            raise ValueError("no queries to build from")
        started = time.perf_counter()
        with DirectoryLock(self.out_dir):
            self._check_spec()
            todo = self.pending(queries, self.store.load())
            new = self._execute(todo)
            return self._finish(queries, new, time.perf_counter() - started)

    def _execute(self, todo: list[str]) -> int:
        if not todo:
            return 0
        opener = getattr(self.llm, "open", None)
        if callable(opener):
            opener()  # start or connect the engine here, once, before the workers
        pool = WorkPool(self.build_item, lambda finished: self.store.append_many([r for _, r in finished]),
                        stop_reason=_unreachable, concurrency=self.concurrency, label="build",
                        unit="query", progress=self.progress,
                        postfix=lambda records: f"+{sum(r['status'] == 'kept' for r in records)} kept")
        stopped = pool.run(todo)  # every later item would fail the same way: left to a re-run
        if stopped is not None and self.stopped is None:
            self.stopped = stopped
        return len(todo)

    def _finish(self, queries: Sequence[str], new: int, seconds: float) -> BuildSummary:
        records = self.store.load()
        ordered = [records[k] for k in dict.fromkeys(query_key(q) for q in queries) if k in records]
        kept = [Conversation.from_dict(r["conversation"]) for r in ordered if r["status"] == "kept"]
        others = [r for r in ordered if r["status"] != "kept"]
        rejected = Counter(r["step"] for r in ordered if r["status"] == "rejected")
        failed = Counter(r["step"] for r in ordered if r["status"] == "failed")
        files = {"dataset": str(save_conversations(kept, self.out_dir / DATASET_FILE)),
                 "rejected": str(self.out_dir / REJECTED_FILE),
                 "items": str(self.store.path)}
        atomic_write_text(self.out_dir / REJECTED_FILE,
                          "".join(json.dumps({k: r[k] for k in ("key", "query", "status", "step",
                                                                "reason", "transient", "documents")},
                                             ensure_ascii=False) + "\n" for r in others))
        order = {s: i for i, s in enumerate(("filter", "retrieve", "generate", "answer", "judge",
                                             "summarise", "validate"))}
        summary = BuildSummary(
            out_dir=str(self.out_dir), queries=len(set(query_key(q) for q in queries)),
            kept=len(kept),
            rejected={s: rejected[s] for s in sorted(rejected, key=lambda s: order.get(s, 99))},
            failed={s: failed[s] for s in sorted(failed, key=lambda s: order.get(s, 99))},
            left=(len(set(query_key(q) for q in queries)) - len(ordered)
                  + sum(1 for r in ordered if r.get("transient"))),
            new_items=new, seconds=round(seconds, 2), stopped=self.stopped, files=files)
        atomic_write_text(self.out_dir / SUMMARY_FILE,
                          json.dumps(summary.to_dict(), indent=2, ensure_ascii=False) + "\n")
        return summary


_UNREACHABLE = ("EngineDiedError:", "EngineStartError:", "LLMConnectionError:")


def _unreachable(record: dict[str, Any]) -> str | None:
    """Why the engine cannot do any more items, when the record says it is gone."""
    return record["reason"] if record["transient"] and record["reason"].startswith(_UNREACHABLE) else None
