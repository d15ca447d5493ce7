"""Propositions: atomic, self-contained statements of a document, written by the chat model.

A document is cut into passages of at most ``passage_words`` words (recursive chunking) and the
model rewrites each passage as a list of propositions (``extract/propositions`` prompt, the reply
constrained by a JSON schema and validated by the client, which re-asks on an invalid reply).
A statement with no searchable word (no token left for BM25, e.g. "x" or "It is.") is not a
proposition and is dropped. A document's propositions are taken whole or not at all: a passage
the model fails on (a reply that never fits the schema, an engine error, no usable statement)
raises :class:`LLMExtractionError` at stage ``propositions`` and none of the document's
propositions is kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from procmem.chunking import recursive_split
from procmem.extract.base import ExtractionFailure, unit_meta
from procmem.extract.llm import LLMExtractionError, LLMExtractionSettings, _ask
from procmem.retrieval.bm25 import tokenize
from procmem.units import Chunk
from serving.prompts import load_prompt

if TYPE_CHECKING:
    from inscoqa.corpus.document import Document
    from serving.types import ChatModel

STAGE = "propositions"
PROMPT = f"extract/{STAGE}"
MAX_PER_PASSAGE = 40
PROPOSITIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["propositions"],
    "properties": {
        "propositions": {
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_PER_PASSAGE,
            "items": {"type": "string", "minLength": 1},
        },
    },
}


@dataclass
class PropositionSettings:
    passage_words: int = 300
    max_tokens: int = 700
    temperature: float = 0.0


def prompt_hash() -> str:
    """The short hash of the propositions prompt (kept in each proposition's ``meta``)."""
    return load_prompt("procmem", PROMPT).short_hash


def propositions_with_llm(doc: Document, llm: ChatModel,
                          settings: PropositionSettings | None = None) -> list[Chunk]:
    """The propositions of ``doc``, in document order; raises :class:`LLMExtractionError`."""
    settings = settings or PropositionSettings()
    asked = LLMExtractionSettings(reformulate=False, max_tokens=settings.max_tokens,
                                  temperature=settings.temperature)
    statements: dict[str, int] = {}  # statement -> passage it came from (first one)
    passages = recursive_split(doc.text, settings.passage_words)
    for number, passage in enumerate(passages):
        data = _ask(llm, doc.doc_id, STAGE, PROPOSITIONS_SCHEMA, asked, title=doc.title, text=passage)
        found = [" ".join(str(s).split()) for s in data.get("propositions", [])]
        found = [s for s in found if tokenize(s)]
        if not found:
            raise LLMExtractionError(doc.doc_id, STAGE, f"passage {number + 1}: no proposition "
                                                        f"with a searchable word")
        for statement in found:
            statements.setdefault(statement, number)
    if not statements:
        raise LLMExtractionError(doc.doc_id, STAGE, "the document has no text")
    version = prompt_hash()
    return [Chunk(text=statement, kind="proposition",
                  meta=unit_meta(doc, method="llm", order=i, start=i, passage=passage,
                                 prompt=version))
            for i, (statement, passage) in enumerate(statements.items())]


def _one(doc: Document, llm: ChatModel,
         settings: PropositionSettings | None) -> tuple[list[Chunk], ExtractionFailure | None]:
    try:
        return propositions_with_llm(doc, llm, settings), None
    except LLMExtractionError as exc:
        return [], ExtractionFailure(doc.doc_id, exc.stage, exc.problem)


def propositions_for_documents(docs: list[Document], llm: ChatModel, *,
                               settings: PropositionSettings | None = None, workers: int = 4,
                               progress: bool = False,
                               ) -> Iterator[tuple[Document, list[Chunk], ExtractionFailure | None]]:
    """Each document's propositions (or its failure), in input order; ``workers`` threads."""
    bar = tqdm(total=len(docs), desc="propositions", unit="doc", disable=not progress)
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        futures = [pool.submit(_one, doc, llm, settings) for doc in docs]
        for doc, future in zip(docs, futures, strict=True):
            yield (doc, *future.result())
            bar.update()
    bar.close()
