"""The InsCoQA answering protocol ("inscoqa"): history + documents + last question ->
``Answer:`` and ``Procedural instructions:``.

In the paper's setting the documents come with the request and are given whole (clipped to a
word budget). In the open setting the answerer retrieves units from the memory for the
conversation's standalone query and gives those instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inscoqa.corpus.document import Document
from procmem.answerers.base import Answer, AnswerRequest, Trace, register
from procmem.answerers.common import (
    ANSWER_FORMATS,
    LLMParams,
    ModelAnswerer,
    clip_words,
    format_history,
    generate_answer,
    make_params,
    render_units,
)
from procmem.answerers.retrieval import Hit, Retriever, hit_record, sources_from_hits
from procmem.answerers.rewrite import PROMPTS as REWRITE_PROMPTS
from procmem.answerers.rewrite import standalone_query
from procmem.units import Chunk, UnitKind


@dataclass
class ProtocolParams(LLMParams):
    k: int = 5  # units retrieved in the open setting
    unit_kind: UnitKind = "chunk"
    context_words: int = 1200  # word budget of the documents given to the model
    unit_words: int = 220  # words per retrieved unit in the prompt


def document_hits(documents: list[Document]) -> list[Hit]:
    """The given documents as hits (rank = given order), so sources and traces look alike."""
    return [
        Hit(Chunk(text=doc.text, meta={"doc_id": doc.doc_id, "title": doc.title}, kind="document"),
            1.0, rank, "given")
        for rank, doc in enumerate(documents, 1)
    ]


def render_documents(documents: list[Document], budget_words: int) -> str:
    """Each document under its title, all of them within ``budget_words`` (shared evenly)."""
    share = max(60, budget_words // max(1, len(documents)))
    return "\n\n".join(f"## {doc.title}\n{clip_words(doc.text.strip(), share)}" for doc in documents)


class ProtocolAnswerer(ModelAnswerer):
    name = "inscoqa"
    prompt_names = ("answer/protocol", *ANSWER_FORMATS, *REWRITE_PROMPTS)

    def answer(self, request: AnswerRequest) -> Answer:
        self.check(request)
        p: ProtocolParams = self.params
        trace = Trace()
        if request.documents:
            with trace.stage("documents", n=len(request.documents)) as stage:
                hits = document_hits(request.documents)
                context = render_documents(request.documents, p.context_words)
                stage.details.update(hits=[hit_record(h) for h in hits], words=len(context.split()))
        else:
            retriever = Retriever(self.memory)
            query = standalone_query(trace, request.history, request.question, llm=self.llm, params=p)
            with trace.stage("retrieve", query=query.query, k=p.k) as stage:
                hits, kind = retriever.search(query.query, k=p.k, kind=p.unit_kind)
                context = render_units([h.unit for h in hits], p.unit_words)
                stage.details.update(kind=kind, hits=[hit_record(h) for h in hits])
        with trace.stage("generate") as stage:
            data = generate_answer(self.llm, trace, stage, "answer/protocol", p, documents=context,
                                   history=format_history(request.history), question=request.question)
        return Answer(answer=data["answer"], procedures=data["procedures"],
                      sources=sources_from_hits(hits), trace=trace)


@register("inscoqa")
def make_protocol(*, llm: Any = None, memory: Any = None, **params: Any) -> ProtocolAnswerer:
    return ProtocolAnswerer(llm=llm, memory=memory, params=make_params(ProtocolParams, "inscoqa", params))
