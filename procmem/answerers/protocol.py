"""The InsCoQA answering protocol ("inscoqa"): history + documents + last question ->
``Answer:`` and ``Procedural instructions:``.

Two protocol modes (``protocol=``), named in the answerer's config and so in run keys:

* ``"paper"`` (the benchmark's default for vLLM and external engines): the model writes plain
  text, whose ``Answer:`` and ``Procedural instructions:`` sections are both required and read
  strictly (:func:`parse_protocol_text`, nothing else); the referenced documents and the whole
  history go into the prompt, cut only when the prompt would not fit the model's context window
  (counted in the model's own tokens, see :class:`TokenCounter`); steps are capped by
  ``max_tokens`` alone, whose default (1,536) leaves room for InsCoQA's longest procedures
  (~36 steps).
* ``"constrained"`` (the default for the tiny embedded model, which keeps a format only under
  constrained decoding): a JSON schema whose caps fit ``max_tokens``
  (:func:`procmem.answerers.schemas.protocol_caps`), documents clipped to ``context_words``
  and the history to its last rounds.

In the paper's setting the documents come with the request. In the open setting the answerer
retrieves units from the memory for the conversation's standalone query and gives those instead.
"""

from __future__ import annotations

import dataclasses
import math
import threading
from dataclasses import dataclass
from typing import Any, Literal

import httpx

from inscoqa.corpus.document import Document
from procmem.answerers.base import Answer, AnswerRequest, StageRecord, Trace, record_call, register
from procmem.answerers.common import (
    ANSWER_FORMATS,
    LLMParams,
    ModelAnswerer,
    clean_answer,
    clip_words,
    format_history,
    generate_answer,
    make_params,
    render,
    render_units,
)
from procmem.answerers.parsing import ReplyParseError, parse_protocol_text
from procmem.answerers.retrieval import Hit, Retriever, hit_record, sources_from_hits
from procmem.answerers.rewrite import PROMPTS as REWRITE_PROMPTS
from procmem.answerers.rewrite import standalone_query
from procmem.answerers.schemas import protocol_caps
from procmem.units import Chunk, UnitKind
from serving.types import ChatModel, Message

ProtocolMode = Literal["paper", "constrained"]
PROTOCOL_MODES: tuple[ProtocolMode, ...] = ("paper", "constrained")
# default max_tokens of each mode (0 in the params means "the mode's default")
MODE_MAX_TOKENS: dict[str, int] = {"paper": 1536, "constrained": 384}
DEFAULT_CONTEXT_TOKENS = 8192  # when neither the params nor the engine say
PROMPT_MARGIN_TOKENS = 64  # chat-template tokens and rounding, kept free
WORDS_TO_TOKENS = 1.5  # the fallback estimate when no tokenizer answers (English, generous)


@dataclass
class ProtocolParams(LLMParams):
    k: int = 5  # units retrieved in the open setting
    unit_kind: UnitKind = "chunk"
    protocol: ProtocolMode = "constrained"
    max_tokens: int = 0  # 0: the mode's default (MODE_MAX_TOKENS)
    # paper mode: the model's context window in tokens (0: ask the engine, else 8,192)
    context_tokens: int = 0
    context_words: int = 1200  # constrained mode: word budget of the documents
    unit_words: int = 220  # words per retrieved unit in the prompt

    def effective(self) -> ProtocolParams:
        """The params with the mode's default ``max_tokens`` filled in."""
        return dataclasses.replace(self, max_tokens=self.max_tokens or MODE_MAX_TOKENS[self.protocol])


def protocol_label(params: dict[str, Any]) -> str:
    """How a report names an answerer's protocol mode (with the caps of the constrained one)."""
    mode = params.get("protocol", "constrained")
    max_tokens = params.get("max_tokens") or MODE_MAX_TOKENS.get(mode, 384)
    if mode == "paper":
        return f"paper (plain text, strict sections, max_tokens {max_tokens})"
    caps = protocol_caps(max_tokens)
    return (f"constrained (JSON schema: at most {caps['max_steps']} steps of "
            f"≤{caps['max_step_chars']} chars, answer ≤{caps['max_answer_chars']} chars; documents "
            f"clipped to {params.get('context_words', 1200)} words, last 6 rounds of history)")


# --------------------------------------------------------------------------- token counting


class TokenCounter:
    """Counts prompt tokens with the engine's own tokenizer: llama-cpp-python's
    ``/extras/tokenize`` or vLLM's ``/tokenize`` at the client's base URL. When neither answers
    (a scripted model, an engine without the endpoint) it estimates from words
    (``words x 1.5``), and says so in ``method``."""

    _endpoints: dict[str, str | None] = {}  # base URL -> working endpoint (None: none works)
    _windows: dict[str, int | None] = {}  # base URL -> context length the engine reported
    _lock = threading.Lock()

    def __init__(self, llm: ChatModel) -> None:
        client = llm.open() if callable(getattr(llm, "open", None)) else llm
        self.base_url: str = getattr(client, "base_url", "") or ""
        self.model = getattr(llm, "model", "")

    def _ask(self, endpoint: str, text: str) -> int:
        body = ({"input": text} if endpoint == "/extras/tokenize"
                else {"model": self.model, "prompt": text, "add_special_tokens": False})
        reply = httpx.post(self.base_url + endpoint, json=body, timeout=30.0)
        reply.raise_for_status()
        data = reply.json()
        return int(data["count"]) if "count" in data else len(data["tokens"])

    def count(self, text: str) -> tuple[int, str]:
        """(tokens, method): ``method`` is the endpoint used, or ``"estimate (words x 1.5)"``."""
        if self.base_url:
            known = self._endpoints.get(self.base_url, "")
            for endpoint in ([known] if known else [] if known is None
                             else ["/extras/tokenize", "/tokenize"]):
                try:
                    tokens = self._ask(endpoint, text)
                except (httpx.HTTPError, ValueError, KeyError, TypeError):
                    continue
                with self._lock:
                    self._endpoints[self.base_url] = endpoint
                return tokens, endpoint
            with self._lock:
                self._endpoints[self.base_url] = None
        return math.ceil(len(text.split()) * WORDS_TO_TOKENS), f"estimate (words x {WORDS_TO_TOKENS})"

    def context_window(self) -> int | None:
        """The served model's context length when the engine says (vLLM: ``max_model_len``);
        asked once per endpoint."""
        if not self.base_url:
            return None
        if self.base_url in self._windows:
            return self._windows[self.base_url]
        try:
            reply = httpx.get(self.base_url + "/v1/models", timeout=10.0)
            models = reply.json().get("data") or []
            value = next((m.get("max_model_len") for m in models if m.get("max_model_len")), None)
        except (httpx.HTTPError, ValueError, AttributeError):
            value = None
        with self._lock:
            self._windows[self.base_url] = int(value) if value else None
        return self._windows[self.base_url]


def messages_text(messages: list[Message]) -> str:
    return "\n".join(m["content"] for m in messages)


# --------------------------------------------------------------------------- documents


def document_hits(documents: list[Document]) -> list[Hit]:
    """The given documents as hits (rank = given order), so sources and traces look alike."""
    return [
        Hit(Chunk(text=doc.text, meta={"doc_id": doc.doc_id, "title": doc.title}, kind="document"),
            1.0, rank, "given")
        for rank, doc in enumerate(documents, 1)
    ]


def share_words(lengths: list[int], budget: int, floor: int = 60) -> list[int]:
    """Words each document keeps within ``budget``: short documents stay whole and the rest is
    shared evenly among the longer ones (each keeps at least ``floor``)."""
    keep = [0] * len(lengths)
    left = budget
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    for position, i in enumerate(order):
        share = max(floor, left // max(1, len(order) - position))
        keep[i] = min(lengths[i], share)
        left = max(0, left - keep[i])
    return keep


def render_documents(documents: list[Document], budget_words: int | None) -> str:
    """Each document under its title, all of them within ``budget_words`` (None: whole)."""
    texts = [doc.text.strip() for doc in documents]
    if budget_words is not None:
        shares = share_words([len(t.split(" ")) for t in texts], budget_words)
        texts = [clip_words(t, share) for t, share in zip(texts, shares, strict=True)]
    return "\n\n".join(f"## {doc.title}\n{text}" for doc, text in zip(documents, texts, strict=True))


def whole_history(history: list[tuple[str, str]]) -> str:
    """Every earlier round, unclipped (the paper mode gives the whole history)."""
    return format_history(history, max_turns=max(1, len(history)), max_chars=1 << 30)


@dataclass
class FittedPrompt:
    messages: list[Message]
    tokens: int
    budget: int
    method: str
    truncated: bool
    document_words: int
    history_rounds: int


def fit_prompt(build: Any, documents: list[Document], history: list[tuple[str, str]],
               counter: TokenCounter, budget: int, rounds: int = 12) -> FittedPrompt:
    """The prompt with every document and every earlier round when it fits ``budget`` tokens;
    else documents cut (longest first) and then the oldest rounds dropped until it fits.

    ``build(documents_text, history_text)`` renders the messages."""
    total_words = sum(len(d.text.split(" ")) for d in documents)
    words, kept_rounds = total_words, len(history)
    floor_words = 60 * len(documents)
    for _ in range(rounds):
        docs = render_documents(documents, None if words >= total_words else words)
        hist = whole_history(history[len(history) - kept_rounds:]) if kept_rounds else \
            format_history([])
        messages = build(docs, hist)
        tokens, method = counter.count(messages_text(messages))
        if tokens <= budget:
            return FittedPrompt(messages, tokens, budget, method,
                                words < total_words or kept_rounds < len(history), words,
                                kept_rounds)
        ratio = budget / tokens * 0.95
        if words > floor_words:
            words = max(floor_words, int(words * ratio))
        elif kept_rounds > 0:
            kept_rounds -= 1
        else:
            break
    raise ValueError(f"the prompt needs {tokens} tokens ({method}) even with the documents cut to "
                     f"{words} words and no history; the context window leaves {budget}")


# --------------------------------------------------------------------------- the answerer


def ask_paper(llm: ChatModel, stage: StageRecord, messages: list[Message],
              params: ProtocolParams) -> dict[str, Any]:
    """One plain-text call read strictly: both sections or :class:`ReplyParseError`."""
    result = record_call(stage, llm.chat(messages, temperature=params.temperature,
                                         max_tokens=params.max_tokens, seed=params.seed))
    entry: dict[str, Any] = {"structured": False, "finish_reason": result.finish_reason,
                             "cached": result.cached}
    stage.details.setdefault("calls", []).append(entry)
    try:
        data = clean_answer(parse_protocol_text(result.text), result.text)
    except ReplyParseError:
        entry.update(reader=None, raw=result.text[:500])
        raise
    entry["reader"] = "text-strict"
    return data


class ProtocolAnswerer(ModelAnswerer):
    name = "inscoqa"
    prompt_names = ("answer/protocol", *ANSWER_FORMATS, *REWRITE_PROMPTS)

    def config(self) -> dict[str, Any]:
        config = super().config()
        config["protocol"] = self.params.protocol
        return config

    def answer(self, request: AnswerRequest) -> Answer:
        self.check(request)
        p: ProtocolParams = self.params.effective()
        trace = Trace()
        paper = p.protocol == "paper"
        if request.documents:
            hits = document_hits(request.documents)
            if paper:
                return self._answer_paper(request, p, trace, hits)
            with trace.stage("documents", n=len(request.documents)) as stage:
                context = render_documents(request.documents, p.context_words)
                stage.details.update(hits=[hit_record(h) for h in hits], words=len(context.split()))
            history = format_history(request.history)
        else:
            retriever = Retriever(self.memory)
            query = standalone_query(trace, request.history, request.question, llm=self.llm, params=p)
            with trace.stage("retrieve", query=query.query, k=p.k) as stage:
                hits, kind = retriever.search(query.query, k=p.k, kind=p.unit_kind,
                                              question=query.question)
                context = render_units([h.unit for h in hits], p.unit_words)
                stage.details.update(kind=kind, hits=[hit_record(h) for h in hits])
            history = whole_history(request.history) if paper else format_history(request.history)
        with trace.stage("generate", protocol=p.protocol) as stage:
            if paper:
                messages = render(trace, "answer/protocol", ANSWER_FORMATS[1], documents=context,
                                  history=history, question=request.question)
                data = ask_paper(self.llm, stage, messages, p)
            else:
                data = generate_answer(self.llm, trace, stage, "answer/protocol", p,
                                       documents=context, history=history,
                                       question=request.question)
        return Answer(answer=data["answer"], procedures=data["procedures"],
                      sources=sources_from_hits(hits), trace=trace)

    def _answer_paper(self, request: AnswerRequest, p: ProtocolParams, trace: Trace,
                      hits: list[Hit]) -> Answer:
        documents = request.documents or []
        with trace.stage("documents", n=len(documents), protocol="paper") as stage:
            counter = TokenCounter(self.llm)
            window = p.context_tokens or counter.context_window() or DEFAULT_CONTEXT_TOKENS
            budget = window - p.max_tokens - PROMPT_MARGIN_TOKENS

            def build(docs: str, hist: str) -> list[Message]:
                return render(trace, "answer/protocol", ANSWER_FORMATS[1], documents=docs,
                              history=hist, question=request.question)

            fitted = fit_prompt(build, documents, list(request.history), counter, budget)
            stage.details.update(
                hits=[hit_record(h) for h in hits], prompt_tokens=fitted.tokens,
                context_tokens=window, budget_tokens=budget, token_count=fitted.method,
                truncated=fitted.truncated, document_words=fitted.document_words,
                history_rounds=fitted.history_rounds)
        with trace.stage("generate", protocol="paper") as stage:
            data = ask_paper(self.llm, stage, fitted.messages, p)
        return Answer(answer=data["answer"], procedures=data["procedures"],
                      sources=sources_from_hits(hits), trace=trace)


@register("inscoqa")
def make_protocol(*, llm: Any = None, memory: Any = None, **params: Any) -> ProtocolAnswerer:
    return ProtocolAnswerer(llm=llm, memory=memory, params=make_params(ProtocolParams, "inscoqa", params))
