"""Fixtures of the answerer tests: a minimal memory double, a small unit world, and a router
that gives a scripted reply per prompt (recognised by its system text)."""

from __future__ import annotations

import glob
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from inscoqa.cli import main
from procmem.answerers import AnswerRequest
from procmem.answerers import retrieval as given
from procmem.answerers.base import Answer, Answerer
from procmem.answerers.retrieval import Hit
from procmem.memory import Memory, build_memory
from procmem.retrieval.query import terms
from procmem.units import Chunk, Linker, LogicUnit, Procedure, Unit
from serving.prompts import load_prompt
from serving.scripted import ScriptedLLM


def memory_from_files(root: Path, files: dict[str, str]) -> Memory:
    """A memory built by ``inscoqa memory build --path`` from a folder of these files (name:
    text), as a user builds one from their own documents."""
    folder = root / "docs"
    folder.mkdir()
    for name, text in files.items():  # a name may hold folders ("mail/index.md")
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    assert main(["memory", "build", "--path", str(folder), "--out", str(root / "m")]) == 0
    return Memory.load(root / "m")


def help_pages_memory(corpus: Any, embedder: Any, pages: list[str]) -> Memory:
    """A memory of these GNOME help pages (names without ``.page``), built as ``memory build``
    builds one: the real reader, units and embedding model."""
    return build_memory([corpus.get(f"gnome-help/{page}.page") for page in pages], embedder=embedder,
                        progress=False)


def two_turns(answerer: Answerer, first: str, follow_up: str) -> tuple[Answer, Answer]:
    """The answers to a first question and to a follow-up asked after it, the first answer (its
    text, then its steps) as the conversation keeps it."""
    opening = answerer.answer(AnswerRequest(first))
    said = opening.answer + "\n" + "\n".join(opening.procedures)
    return opening, answerer.answer(AnswerRequest(follow_up, history=[(first, said)]))


def unit_meta(doc_id: str, title: str, order: int = 0) -> dict[str, Any]:
    """A unit's ``meta`` as a memory gives it: its document, the page title, its place there."""
    return {"doc_id": doc_id, "title": title, "order": order}


def step_unit(header: str, body: str, doc_id: str, title: str, order: int = 0,
              unit_type: str = "Step") -> LogicUnit:
    """A logic unit of one page section."""
    return LogicUnit(unit_type, "", header, body, [], unit_meta(doc_id, title, order))


@dataclass
class MemoryDouble:
    """Only what answerers use: ``search``, ``search_conversation`` and ``units``.

    Scores are word overlap with the unit's index text; every search is recorded."""

    all_units: list[Unit]
    searches: list[dict[str, Any]] = field(default_factory=list)

    def units(self, kind: str | None = None) -> list[Unit]:
        return [u for u in self.all_units if kind is None or u.kind == kind]

    def search(self, query: str, *, k: int = 5, kind: str | None = None,
               doc_ids: list[str] | None = None, question: str | None = None,
               **_: Any) -> list[Hit]:
        self.searches.append({"query": query, "k": k, "kind": kind, "doc_ids": doc_ids,
                              "question": question})
        words = set(terms(query))
        scored = []
        for i, unit in enumerate(self.units(kind)):
            if doc_ids is not None and unit.meta["doc_id"] not in doc_ids:
                continue
            overlap = len(words & set(terms(unit.index_text)))
            if overlap:
                scored.append((overlap, -i, unit))
        scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
        return [Hit(u, float(s), r, "overlap") for r, (s, _, u) in enumerate(scored[:k], 1)]

    def search_conversation(self, history: list[tuple[str, str]], question: str,
                            **kwargs: Any) -> list[Hit]:
        return self.search(" ".join([q for q, _ in history] + [question]), **kwargs)


def _meta(doc_id: str, title: str, order: int) -> dict[str, Any]:
    return {"doc_id": doc_id, "title": title, "order": order, "date": "", "content_hash": doc_id}


def unit_world() -> list[Unit]:
    tea, coffee, printer = "cooking/tea.md", "cooking/coffee.md", "help/printer.page"
    return [
        Procedure("green tea leaves, kettle, cup", "brew green tea",
                  ["Heat water to 80 C in the kettle", "Put the green tea leaves in the cup",
                   "Pour the water and steep for 2 minutes"], _meta(tea, "Green tea", 0)),
        Procedure("black tea bag, kettle, cup", "steep black tea",
                  ["Boil water in the kettle", "Pour the water over the tea bag",
                   "Steep for 4 minutes and remove the bag"], _meta(tea, "Green tea", 1)),
        Procedure("ground coffee, filter, kettle", "make pour-over coffee",
                  ["Boil water in the kettle", "Rinse the filter", "Pour water over the coffee slowly"],
                  _meta(coffee, "Pour-over coffee", 0)),
        Procedure("printer, paper", "clear a printer paper jam",
                  ["Turn the printer off", "Open the rear cover", "Pull the jammed paper out gently"],
                  _meta(printer, "Printer problems", 3)),
        LogicUnit("Step", "", "Install the printer driver",
                  "1. Open Settings > Printers.\n2. Choose Add printer and pick the model.",
                  [Linker("the driver installs", "Print a test page", "CONTINUE"),
                   Linker("the installer reports an error", "Troubleshoot printer driver errors", "CROSS")],
                  _meta(printer, "Printer problems", 0)),
        LogicUnit("Step", "The printer driver is installed", "Print a test page",
                  "1. Open the printer properties.\n2. Press Print test page.",
                  [Linker("the test page prints", "Done", "MITIGATE")],
                  _meta(printer, "Printer problems", 1)),
        LogicUnit("FAQ", "The computer runs Windows", "Troubleshoot printer driver errors",
                  "Run the printer troubleshooter from Settings, then reinstall the driver.",
                  [], _meta(printer, "Printer problems", 2)),
        Chunk("Green tea tastes bitter when the water is too hot. Use water at 80 C.",
              _meta(tea, "Green tea", 5)),
    ]


@pytest.fixture
def lexical(monkeypatch):
    """Given-documents memories as without an installed embedding model: BM25 only."""
    monkeypatch.setattr(given, "_embedders", {})
    monkeypatch.setattr(given, "_cache", type(given._cache)())

    def missing(name):
        raise given.EmbedderNotFound(name)

    monkeypatch.setattr(given, "model_dir", missing)


@pytest.fixture
def memory() -> MemoryDouble:
    return MemoryDouble(unit_world())


# --------------------------------------------------------------------------- real parts (slow tests)

CONVERSATION = "dev-ods-003"  # Exchange Online: 2 earlier rounds, units with prerequisites


@pytest.fixture(scope="session")
def conversation() -> Any:
    from inscoqa.bundled import load_sample

    return next(c for c in load_sample() if c.id == CONVERSATION)


@pytest.fixture(scope="session")
def conversation_documents(conversation: Any) -> list[Any]:
    from inscoqa.bundled import corpus_index

    return corpus_index().resolve(conversation)


@pytest.fixture(scope="session")
def small_memory(conversation_documents: list[Any]) -> Any:
    """A real memory (rules extraction, BM25 + embeddings) over the conversation's documents."""
    from procmem.memory import build_memory

    return build_memory(conversation_documents, progress=False)


# --------------------------------------------------------------------------- scripted replies


def _prompt_names() -> list[str]:
    root = os.path.join(os.path.dirname(__import__("procmem").__file__), "prompts")
    return sorted(os.path.relpath(p, root)[:-4].replace(os.sep, "/")
                  for p in glob.glob(os.path.join(root, "*", "*.txt")))


SYSTEM_TO_PROMPT = {load_prompt("procmem", n).system: n for n in _prompt_names()
                    if load_prompt("procmem", n).system}

Reply = Any


@dataclass
class Router:
    """Replies per prompt name: a list (consumed in order) or a function of the call."""

    replies: dict[str, list[Reply] | Callable[[list[dict[str, str]], Any], Reply]]
    names: list[str] = field(default_factory=list)

    def __call__(self, messages: list[dict[str, str]], schema: Any) -> Reply:
        name = SYSTEM_TO_PROMPT.get(messages[0]["content"], "?")
        self.names.append(name)
        source = self.replies.get(name)
        if source is None:
            raise AssertionError(f"no scripted reply for prompt {name!r}")
        if callable(source):
            return source(messages, schema)
        if not source:
            raise AssertionError(f"scripted replies for {name!r} ran out")
        return source.pop(0) if len(source) > 1 else source[0]


def scripted(replies: dict[str, Any]) -> tuple[ScriptedLLM, Router]:
    router = Router(replies)
    return ScriptedLLM(replies=router), router


@pytest.fixture
def script() -> Callable[[dict[str, Any]], tuple[ScriptedLLM, Router]]:
    """``llm, router = script({"aag/critic": [...], ...})``."""
    return scripted
