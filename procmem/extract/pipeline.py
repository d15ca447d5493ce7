"""Which extractor runs on which document, and many documents at once.

``mode``: ``fallback`` (default) asks the model only for documents the rules cannot structure,
``all`` asks it for every document, ``never`` uses the rules alone. Without a model the rules
are used. A document whose LLM extraction fails keeps its rule units and gets a recorded failure.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Literal

from tqdm import tqdm

from procmem.extract.base import Extraction, ExtractionFailure
from procmem.extract.deterministic import extract_rules
from procmem.extract.llm import LLMExtractionError, LLMExtractionSettings, extract_with_llm

if TYPE_CHECKING:
    from inscoqa.corpus.document import Document
    from serving.types import ChatModel

ExtractMode = Literal["fallback", "all", "never"]


def extract_document(doc: Document, *, llm: ChatModel | None = None, mode: ExtractMode = "fallback",
                     settings: LLMExtractionSettings | None = None,
                     ) -> tuple[Extraction, ExtractionFailure | None]:
    rules = extract_rules(doc)
    if llm is None or mode == "never" or (mode == "fallback" and rules.structured):
        return rules, None
    try:
        return extract_with_llm(doc, llm, settings), None
    except LLMExtractionError as exc:
        return rules, ExtractionFailure(doc.doc_id, exc.stage, exc.problem)


def extract_documents(docs: list[Document], *, llm: ChatModel | None = None,
                      mode: ExtractMode = "fallback", settings: LLMExtractionSettings | None = None,
                      workers: int = 4, progress: bool = False,
                      ) -> Iterator[tuple[Document, Extraction, ExtractionFailure | None]]:
    """Extractions in input order; model calls run on ``workers`` threads."""
    bar = tqdm(total=len(docs), desc="extracting", unit="doc", disable=not progress)
    if llm is None or mode == "never":
        for doc in docs:
            yield (doc, *extract_document(doc))
            bar.update()
    else:
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            futures = [pool.submit(extract_document, d, llm=llm, mode=mode, settings=settings) for d in docs]
            for doc, future in zip(docs, futures, strict=True):
                yield (doc, *future.result())
                bar.update()
    bar.close()
