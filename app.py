"""The Gradio chat demo: a multi-turn how-to chat over a procedural memory.

``python app.py`` (or ``inscoqa demo``) opens a chat over the bundled sample memory (built on the
first start) or over ``--memory DIR``. Every reply shows the plain answer, the numbered steps,
the sources with the snippets that support them, and an expandable trace. Each step shows the
snippet of a source that grounds it (with the source's title), or a marker when none does. In logic-unit mode the
linker's outcomes appear as buttons that continue the conversation. Documents uploaded in the
page are added to the memory; a failed upload leaves the memory as it was.

The page is a thin layer over :class:`DemoService`, whose methods are plain Python (tested
without a browser): :meth:`DemoService.respond` streams :class:`ChatState` snapshots and
:meth:`DemoService.upload` adds files to the memory.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import re
import signal
import sys
import threading
import time
import typing
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inscoqa.corpus import FORMAT_BY_SUFFIX, read_document
from procmem.answerers import (
    Answer,
    AnswerRequest,
    Source,
    answer_with_fallback,
    answerer_names,
    by_document,
    make_answerer,
)
from serving.config import ConfigError, EngineName, ServingConfig, load_section
from serving.errors import LLMConnectionError, LLMError
from serving.pool import ClientPool, Connect, PooledModel, model_label
from serving.types import ChatModel

if TYPE_CHECKING:
    import gradio as gr

ENGINE_NAMES: tuple[str, ...] = typing.get_args(EngineName)


def set_offline_environment() -> None:
    """No telemetry, no model hub, no proxy for the local engine and the local page.

    Called before gradio is first imported (it reads these at import time)."""
    os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
    os.environ["HF_HUB_OFFLINE"] = "1"
    for name in ("NO_PROXY", "no_proxy"):
        hosts = [h for h in os.environ.get(name, "").split(",") if h]
        os.environ[name] = ",".join(dict.fromkeys([*hosts, "127.0.0.1", "localhost"]))


log = logging.getLogger("inscoqa.demo")

DEFAULT_MEMORY_DIR = "~/.cache/inscoqa/memories/demo"
N_FOLLOW_UP_BUTTONS = 4
FALLBACK_ANSWERER = "extractive"  # needs no engine: answers when the engine is down


@dataclass
class DemoConfig:
    """The ``[demo]`` section: ``INSCOQA_DEMO_<FIELD>`` or ``inscoqa.toml`` or the flags."""

    memory: str = ""  # empty: a working copy of the bundled sample memory (DEFAULT_MEMORY_DIR)
    host: str = "127.0.0.1"
    port: int = 7860
    answerer: str = "extractive"
    temperature: float = 0.0
    max_upload_kb: int = 2048
    stream_delay_s: float = 0.02  # pause between streamed pieces of a reply
    thinking_tick_s: float = 1.0  # how often a reply being prepared shows the time it took

    def memory_dir(self) -> Path:
        return Path(self.memory or DEFAULT_MEMORY_DIR).expanduser()


# --------------------------------------------------------------------------- the engine

class EngineProvider:
    """The demo's engines: one :class:`ClientPool` (a client per base URL and model chosen in the
    page, the embedded engine started on first use) and a status line for the page."""

    def __init__(self, base: ServingConfig, connect: Connect | None = None):
        self.base = base
        self.pool = ClientPool(connect)
        self.status = (f"{base.engine} engine: starts with the first question to a "
                       "model-based answerer")

    def config_for(self, base_url: str, model: str) -> ServingConfig:
        if base_url.strip():
            return dataclasses.replace(self.base, engine="external", base_url=base_url.strip(),
                                       model=model.strip() or self.base.model)
        return dataclasses.replace(self.base, model=model.strip() or self.base.model)

    def model(self, base_url: str = "", model: str = "",
              temperature: float | None = None) -> PooledModel:
        """The model one reply uses: connects on its first call (so the extractive answerer
        never starts an engine) and samples at the temperature chosen in the page."""
        config = self.config_for(base_url, model)
        return PooledModel(lambda: self.client(config), model=model_label(config),
                           temperature=temperature)

    def client(self, config: ServingConfig) -> ChatModel:
        where = config.base_url or f"the {config.engine} engine"
        try:
            client = self.pool.client(config)
        except LLMError as exc:
            self.status = f"⚠ {where} is not available: {first_line(exc)}"
            raise
        except Exception as exc:  # an engine that cannot start is an engine that is down
            self.status = f"⚠ {where} could not be started: {exc}"
            raise LLMConnectionError(f"cannot start or reach {where}: {exc}",
                                     url=config.base_url) from exc
        url = getattr(client, "base_url", "") or where
        self.status = f"engine: {getattr(client, 'model', '') or config.engine} at {url}"
        return client

    def close(self) -> None:
        self.pool.close()


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def engine_down_message(error: str, answerer: str, *, fallback: bool = True) -> str:
    """The notice above a reply whose answerer failed; ``error`` is ``"<ErrorType>: message"``."""
    kind = error.split(":", 1)[0]
    what = {"LLMTimeoutError": "did not answer in time",
            "ReplyParseError": "gave a reply that could not be read",
            "LLMSchemaError": "gave a reply that could not be read"}.get(kind, "is not reachable")
    head = (f"⚠ **The chat engine {what}**, so the `{answerer}` answerer cannot reply.\n\n"
            f"Details: {error.split(': ', 1)[-1]}\n\n")
    if fallback:
        return head + (f"Below is the `{FALLBACK_ANSWERER}` answer, taken from the documents "
                       "without a model. Set a working base URL in *Settings* to use a model.")
    return head + (f"The `{FALLBACK_ANSWERER}` answerer works without an engine: choose it in "
                   "*Settings*, or set a working base URL there.")


# --------------------------------------------------------------------------- the memory


class MemoryHolder:
    """The memory the chat uses: loaded (or built from the bundled sample) in the background,
    replaced as a whole when an upload succeeds, so readers never see a half-updated memory."""

    def __init__(self, path: Path, loader: Callable[[Path], Any]):
        self.path = path
        self._loader = loader
        self._memory: Any = None
        self._error: str | None = None
        self._started = time.monotonic()
        self._ready = threading.Event()
        self._write_lock = threading.Lock()

    @classmethod
    def of(cls, memory: Any, path: Path,
           loader: Callable[[Path], Any] | None = None) -> MemoryHolder:
        """A holder over an already loaded memory."""
        holder = cls(path, loader or load_memory)
        holder._memory = memory
        holder._ready.set()
        return holder

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self._load, name="memory-loader", daemon=True)
        thread.start()
        return thread

    def _load(self) -> None:
        try:
            self._memory = self._loader(self.path)
        except Exception as exc:
            log.exception("cannot load the memory at %s", self.path)
            self._error = f"{type(exc).__name__}: {exc}"
        finally:
            self._ready.set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._ready.wait(timeout)

    @property
    def memory(self) -> Any:
        """The current memory, or None while it loads or when it failed to load."""
        return self._memory

    def status(self) -> str:
        if not self._ready.is_set():
            seconds = int(time.monotonic() - self._started)
            return (f"⏳ Loading the memory at `{self.path}` ({seconds} s; on the first start the "
                    "bundled sample memory is built, with progress in the console) …")
        if self._error is not None:
            return f"⚠ The memory at `{self.path}` could not be loaded: {self._error}"
        return describe_memory(self._memory, self.path)

    def replace_with(self, update: Callable[[Any], Any]) -> Any:
        """Apply ``update`` to a fresh copy of the saved memory, save it, then swap it in.

        If anything fails, the memory in use and the one on disk stay as they were.
        """
        with self._write_lock:
            copy = self._loader(self.path)
            result = update(copy)
            copy.save(self.path)
            self._memory = copy
            return result


def load_memory(path: Path) -> Any:
    """The memory saved at ``path``; for the default directory, a copy of the bundled sample
    memory (built and saved there on the first start)."""
    if not has_memory(path) and path != Path(DEFAULT_MEMORY_DIR).expanduser():
        raise FileNotFoundError(f"{path}: no memory here; build one with "
                                f"`inscoqa memory build --out {path}`")
    from procmem.memory import Memory, sample_memory

    if has_memory(path):
        return Memory.load(path)
    memory = sample_memory(progress=True)
    memory.save(path)
    return memory


def has_memory(path: Path) -> bool:
    return path.is_dir() and any(path.iterdir())


def describe_memory(memory: Any, path: Path) -> str:
    kinds = Counter(unit.kind for unit in memory.units())
    per_kind = ", ".join(f"{n} {kind.replace('_', ' ')}s" for kind, n in sorted(kinds.items()))
    return f"Memory `{path}`: {len(memory.doc_ids())} documents ({per_kind or 'no units'})."


# --------------------------------------------------------------------------- rendering

_NUMBERED = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+")


def shown(text: str) -> str:
    """Text from documents or a model, safe to put in Markdown: angle brackets stay visible
    instead of being taken (and dropped) as HTML tags."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


UNGROUNDED = "⚠ *not found in the sources*"  # after a step no source snippet backs
_METHOD = {"rouge": "ROUGE-L", "embedding": "embedding similarity"}


def render_steps(steps: list[str], ungrounded: frozenset[int] = frozenset()) -> str:
    """Numbered steps; those at the (0-based) positions ``ungrounded`` carry the marker."""
    return "\n".join(f"{i}. {shown(_NUMBERED.sub('', step).strip())}"
                     + (f" {UNGROUNDED}" if i - 1 in ungrounded else "")
                     for i, step in enumerate(steps, 1))


def ungrounded_steps(answer: Answer) -> frozenset[int]:
    """Positions of the steps that were checked and matched no snippet of the sources."""
    return frozenset(i for i, g in enumerate(answer.groundings or []) if g is None)


def source_title(answer: Answer, unit: str) -> str:
    """The title of the source a grounding names (a unit id, or a document id)."""
    for source in answer.sources:
        if unit in (source.unit_id, source.doc_id):
            return source.title or source.doc_id
    return unit


def render_grounded_steps(answer: Answer, snippet_chars: int = 240) -> str:
    """The steps panel: each step, then the snippet that grounds it with its source's title,
    or the marker when none does (plain steps when the answer's steps were not checked)."""
    if answer.groundings is None:
        return render_steps(answer.procedures)
    lines = []
    for i, (step, g) in enumerate(zip(answer.procedures, answer.groundings, strict=True), 1):
        text = shown(_NUMBERED.sub("", step).strip())
        if g is None:
            lines.append(f"{i}. {text} {UNGROUNDED}")
            continue
        snippet = " ".join(g.snippet.split())
        if len(snippet) > snippet_chars:
            snippet = snippet[:snippet_chars] + " …"
        lines += [f"{i}. {text}",
                  f"   > “{shown(snippet)}” — **{shown(source_title(answer, g.unit))}** "
                  f"({_METHOD.get(g.by, g.by)} {g.score:.2f})"]
    return "\n".join(lines)


def _title(group: list[tuple[int, Source]]) -> str:
    numbers = "".join(f"[{n}]" for n, _ in group)
    source = group[0][1]
    return f"{numbers} {shown(source.title or source.doc_id)}"


def render_reply(answer: Answer) -> str:
    """The assistant's message: answer, numbered steps, source titles, question back."""
    parts = [shown(answer.answer.strip()) or "_(no plain answer)_"]
    if answer.procedures:
        parts.append("**Steps**\n\n" + render_steps(answer.procedures, ungrounded_steps(answer)))
    cited, _ = answer.cited_sources()
    if cited:
        parts.append("**Sources:** " + " · ".join(map(_title, by_document(cited).values())))
    if answer.clarification:
        parts.append(f"**Question for you:** {shown(answer.clarification)}")
    if answer.follow_ups:
        parts.append("_How did it go? Pick an outcome below, or type your own._")
    return "\n\n".join(parts)


def render_sources(answer: Answer, snippet_chars: int = 400) -> str:
    """Each cited document's title with the numbered snippets that support the steps; then the
    titles of the other retrieved documents."""
    cited, others = answer.cited_sources()
    blocks = []
    for doc_id, group in by_document(cited).items():
        lines = [f"**{shown(group[0][1].title or doc_id)}** · `{doc_id}`"]
        for n, source in group:
            snippet = " ".join(source.snippet.split())
            if len(snippet) > snippet_chars:
                snippet = snippet[:snippet_chars] + " …"
            section = f"*{shown(source.section)}* — " if source.section else ""
            lines.append(f"> **[{n}]** {section}{shown(snippet)}")
        blocks.append("\n\n".join(lines))
    if others:
        blocks.append("_Also retrieved:_ " + " · ".join(map(_title, by_document(others).values())))
    return "\n\n".join(blocks) or "_No sources._"


def render_trace_summary(trace: dict[str, Any], detail_chars: int = 160) -> str:
    """One table row per stage: time, model calls, tokens and what the stage decided."""
    if not trace.get("stages"):
        return ""
    rows = ["| stage | seconds | calls | tokens | details |", "|---|---:|---:|---:|---|"]
    for stage in trace["stages"]:
        usage = stage.get("usage", {})
        tokens = usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)
        details = "; ".join(f"{key}: {json.dumps(value, ensure_ascii=False, default=str)}"
                            for key, value in stage.get("details", {}).items())
        if len(details) > detail_chars:
            details = details[:detail_chars] + " …"
        details = details.replace("|", "\\|").replace("\n", " ")
        rows.append(f"| {stage['name']} | {stage.get('seconds', 0):.2f} | {usage.get('calls', 0)} "
                    f"| {tokens} | {details} |")
    usage = trace.get("usage", {})
    tokens = usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)
    rows.append(f"| **total** | {trace.get('seconds_total', trace.get('seconds', 0)):.2f} "
                f"| {usage.get('calls', 0)} | {tokens} | |")
    return "\n".join(rows)


def stream_pieces(text: str, words_per_piece: int = 4) -> Iterator[str]:
    """Growing prefixes of ``text``, a few words longer each time; the last one is ``text``."""
    tokens = re.findall(r"\s*\S+", text)
    for end in range(words_per_piece, len(tokens), words_per_piece):
        yield "".join(tokens[:end])
    yield text


# --------------------------------------------------------------------------- the chat


@dataclass
class Settings:
    """What the page's settings panel chooses for the next reply."""

    answerer: str = "extractive"
    temperature: float | None = None
    base_url: str = ""
    model: str = ""


@dataclass
class ChatState:
    """One browser session's conversation and what the side panels show for the last reply."""

    messages: list[dict[str, str]] = field(default_factory=list)  # the chat, Gradio's format
    turns: list[tuple[str, str]] = field(default_factory=list)  # (question, answer) history
    steps: str = ""
    sources: str = ""
    trace: dict[str, Any] = field(default_factory=dict)
    follow_ups: list[str] = field(default_factory=list)


class DemoService:
    """Everything the page does, as plain Python."""

    def __init__(self, memory: MemoryHolder, engines: EngineProvider, *,
                 config: DemoConfig | None = None,
                 answerer_factory: Callable[..., Any] = make_answerer):
        self.memory = memory
        self.engines = engines
        self.config = config or DemoConfig()
        self._make_answerer = answerer_factory

    # -- chat

    def respond(self, question: str, state: ChatState, settings: Settings) -> Iterator[ChatState]:
        """Answer ``question`` in the conversation ``state``; yields the state as it grows."""
        question = (question or "").strip()
        if not question:
            yield state
            return
        state.follow_ups = []
        state.messages.append({"role": "user", "content": question})
        reply = {"role": "assistant", "content": "_Thinking …_"}
        state.messages.append(reply)
        yield state

        memory = self.memory.memory
        if memory is None:
            reply["content"] = f"The memory is not ready yet. {self.memory.status()}"
            yield state
            return
        started = time.perf_counter()
        llm = self.engines.model(settings.base_url, settings.model, settings.temperature)
        request = AnswerRequest(question, history=list(state.turns))
        # the answerer works in a thread; meanwhile the reply shows how long it has been thinking
        with ThreadPoolExecutor(1, thread_name_prefix="answerer") as pool:
            job = pool.submit(self._answer, request, settings.answerer, llm, memory)
            while not wait([job], timeout=self.config.thinking_tick_s).done:
                reply["content"] = f"_Thinking … {time.perf_counter() - started:.0f} s_"
                yield state
        answer, used, notice = job.result()
        if answer is None:
            reply["content"] = notice
            yield state
            return

        # the side panels show the whole reply at once; the chat streams it
        state.steps = render_grounded_steps(answer) or "_No steps in this reply._"
        state.sources = render_sources(answer)
        state.trace = {"answerer": used, "model": llm.model if llm.connected else None,
                       "seconds_total": round(time.perf_counter() - started, 3),
                       **answer.trace.to_dict()}
        lead = f"{notice}\n\n---\n\n" if notice else ""
        for piece in stream_pieces(render_reply(answer)):
            reply["content"] = lead + piece
            yield state
            if self.config.stream_delay_s:
                time.sleep(self.config.stream_delay_s)
        state.turns.append((question, answer.said()))
        state.follow_ups = list(answer.follow_ups)
        yield state

    def _answer(self, request: AnswerRequest, name: str, llm: PooledModel,
                memory: Any) -> tuple[Answer | None, str, str]:
        """``(answer, answerer used, notice)``. The engine-failure rule is the project's one
        (:func:`answer_with_fallback`): the extractive answer, with the failure in the trace;
        the notice says why. When nothing can answer, only the notice."""
        try:
            answerer = self._make_answerer(name, llm=llm, memory=memory)
        except Exception as exc:
            log.exception("the %s answerer failed", name)
            return None, name, f"⚠ **The `{name}` answerer failed:** {type(exc).__name__}: {exc}"
        fallback = None
        if name != FALLBACK_ANSWERER:
            try:
                fallback = self._make_answerer(FALLBACK_ANSWERER, llm=None, memory=memory)
            except Exception:
                log.exception("the %s answerer is not available", FALLBACK_ANSWERER)
        try:
            answer = (answer_with_fallback(answerer, fallback, request) if fallback is not None
                      else answerer.answer(request))
        except Exception as exc:
            engine = exc if isinstance(exc, LLMError) else exc.__context__
            if isinstance(engine, LLMError):  # the engine failed, and no fallback could answer
                log.warning("engine failure with the %s answerer: %s", name, engine)
                self.engines.status = f"⚠ engine failure: {engine}"
                return None, name, engine_down_message(f"{type(engine).__name__}: {engine}",
                                                       name, fallback=False)
            log.exception("the %s answerer failed", name)
            return None, name, f"⚠ **The `{name}` answerer failed:** {type(exc).__name__}: {exc}"
        failure = next((s.details for s in answer.trace.stages if s.name == "fallback"), None)
        if failure is None:
            return answer, name, ""
        error = str(failure["error"])
        log.warning("the %s answerer failed: %s", name, error)
        self.engines.status = f"⚠ engine failure: {error.split(': ', 1)[-1]}"
        return answer, f"{FALLBACK_ANSWERER} (for {name})", engine_down_message(error, name)

    # -- uploads

    def upload(self, paths: list[str]) -> str:
        """Add uploaded files to the memory; returns the message shown under the upload box."""
        if not paths:
            return ""
        if self.memory.memory is None:
            return f"⚠ Nothing added: the memory is not ready. {self.memory.status()}"
        documents, problems = [], []
        for path in map(Path, paths):
            try:
                documents.append(self._check_and_read(path))
            except UploadRejected as exc:
                problems.append(f"⚠ `{path.name}`: {exc}")
        lines = []
        if documents:
            try:
                report = self.memory.replace_with(
                    lambda memory: memory.add_documents(documents, progress=False))
            except Exception as exc:
                log.exception("cannot add uploaded documents")
                problems.append(f"⚠ Nothing added, the memory is unchanged: "
                                f"{type(exc).__name__}: {exc}")
            else:
                lines += upload_outcome(documents, report)
        return "\n\n".join(lines + problems)

    def _check_and_read(self, path: Path) -> Any:
        limit_kb = self.config.max_upload_kb
        suffix = path.suffix.lower()
        if suffix not in FORMAT_BY_SUFFIX:
            kinds = ", ".join(sorted(FORMAT_BY_SUFFIX))
            raise UploadRejected(f"unsupported file type {suffix or '(none)'!r}; "
                                 f"upload one of {kinds}")
        size = path.stat().st_size
        if size > limit_kb * 1024:
            raise UploadRejected(f"{size / 1024:.0f} KB is over the {limit_kb} KB limit")
        if size == 0:
            raise UploadRejected("the file is empty")
        try:
            document = read_document(path, doc_id=f"upload/{path.name}")
        except (ValueError, UnicodeError, OSError) as exc:  # DocumentError is a ValueError
            problem = getattr(exc, "problem", None) or str(exc)
            raise UploadRejected(
                f"cannot read it as {FORMAT_BY_SUFFIX[suffix]}: {problem}") from exc
        if not document.text.strip():
            raise UploadRejected(f"no text found in it as {FORMAT_BY_SUFFIX[suffix]}")
        return document


class UploadRejected(ValueError):
    """An uploaded file that is not added, with the reason shown to the user."""


UPLOAD_OUTCOMES = {  # what the memory's update report says of a document -> how we say it
    "added": "✅ Added to the memory",
    "updated": "✅ Updated in the memory",
    "unchanged": "ℹ Already in the memory, unchanged",
}


def upload_outcome(documents: list[Any], report: Any) -> list[str]:
    """One line per outcome (added / updated / unchanged), naming the documents, from the
    memory's update report; documents the report does not mention count as added."""
    outcome_of = {doc_id: outcome for outcome in UPLOAD_OUTCOMES
                  for doc_id in getattr(report, outcome, None) or []}
    by_outcome: dict[str, list[str]] = {}
    for doc in documents:
        by_outcome.setdefault(outcome_of.get(doc.doc_id, "added"), []).append(f"“{doc.title}”")
    lines = [f"{UPLOAD_OUTCOMES[outcome]}: {', '.join(titles)}."
             for outcome, titles in by_outcome.items()]
    lines += [f"⚠ `{f.doc_id}`: extraction failed at {f.stage}: {f.error}"
              for f in getattr(report, "failures", None) or []]
    return lines


# --------------------------------------------------------------------------- the page

CSS = """
#steps, #sources { min-height: 3em; }
#upload-status { font-size: 0.95em; }
"""


def _theme() -> gr.themes.Base:
    import gradio as gr

    # system fonts only: the page must not fetch fonts from the network
    return gr.themes.Soft(font=["ui-sans-serif", "system-ui", "sans-serif"],
                          font_mono=["ui-monospace", "monospace"])


def follow_up_buttons(follow_ups: list[str]) -> list[dict[str, Any]]:
    """Updates of the fixed follow-up button slots: the first ones labelled, the rest hidden."""
    import gradio as gr

    labels = follow_ups[:N_FOLLOW_UP_BUTTONS]
    return [gr.update(visible=i < len(labels), value=labels[i] if i < len(labels) else "")
            for i in range(N_FOLLOW_UP_BUTTONS)]


def page_outputs(state: ChatState, engine_status: str) -> tuple[Any, ...]:
    """What a chat event shows: chat, state, emptied question box, steps, sources, trace
    summary, trace, engine status, follow-up buttons (in the order of ``build_app``'s outputs)."""
    return (state.messages, state, "", state.steps, state.sources,
            render_trace_summary(state.trace), state.trace, engine_status,
            *follow_up_buttons(state.follow_ups))


def with_review_tab(app: gr.Blocks) -> gr.Blocks:
    """The chat page, and a "Review" tab for checking built data (``inscoqa data build``)."""
    from inscoqa.review.page import with_review_tab as tabs

    return tabs(app)


def build_app(service: DemoService) -> gr.Blocks:
    set_offline_environment()
    import gradio as gr

    config = service.config
    names = answerer_names()
    default = config.answerer if config.answerer in names else next(iter(names), None)

    with gr.Blocks(title="inscoqa — how-to chat") as page:
        gr.Markdown("## How-to chat over a procedural memory\nAsk how to do something; "
                    "follow up in the same conversation.")
        memory_status = gr.Markdown(service.memory.status(), elem_id="memory-status")
        engine_status = gr.Markdown(service.engines.status, elem_id="engine-status")
        state = gr.State(ChatState())
        with gr.Row():
            with gr.Column(scale=3):
                chat = gr.Chatbot(elem_id="chat", label="Conversation", height=520,
                                  feedback_options=None)
                with gr.Row():
                    follow_ups = [gr.Button(visible=False, size="sm", elem_id=f"followup-{i}")
                                  for i in range(N_FOLLOW_UP_BUTTONS)]
                with gr.Row():
                    question = gr.Textbox(elem_id="question", show_label=False, scale=8,
                                          placeholder="How do I …?", lines=1, max_lines=4)
                    send = gr.Button("Send", elem_id="send", variant="primary", scale=1,
                                     min_width=80)
                    new = gr.Button("New chat", elem_id="new-conversation", scale=1,
                                    min_width=80)
            with gr.Column(scale=2):
                gr.Markdown("#### Steps")
                steps = gr.Markdown(elem_id="steps")
                gr.Markdown("#### Sources")
                sources = gr.Markdown(elem_id="sources")
                with gr.Accordion("Trace (queries, critic rounds, selector, timings, tokens)",
                                  open=False, elem_id="trace-accordion"):
                    trace_summary = gr.Markdown(elem_id="trace-summary")
                    trace = gr.JSON(elem_id="trace")
                with gr.Accordion("Settings", open=True, elem_id="settings"):
                    answerer = gr.Dropdown(names, value=default, label="Answerer",
                                           elem_id="answerer")
                    temperature = gr.Slider(0.0, 1.5, value=config.temperature, step=0.05,
                                            label="Temperature (every model call)",
                                            elem_id="temperature")
                    base_url = gr.Textbox(label="Engine base URL (empty: the configured engine)",
                                          placeholder="http://host:8000/v1", elem_id="base-url")
                    model = gr.Textbox(label="Model (empty: the engine's default)",
                                       elem_id="model")
                with gr.Accordion("Add documents", open=False, elem_id="add-documents"):
                    upload = gr.File(file_count="multiple", elem_id="upload",
                                     label="Markdown, reStructuredText, Mallard .page, HTML or text "
                                           f"(up to {config.max_upload_kb} KB each)")
                    upload_status = gr.Markdown(elem_id="upload-status")

        outputs = [chat, state, question, steps, sources, trace_summary, trace, engine_status,
                   *follow_ups]
        settings_inputs = [answerer, temperature, base_url, model]

        def show(s: ChatState) -> tuple[Any, ...]:
            return page_outputs(s, service.engines.status)

        def on_question(text: str, s: ChatState, name: str, temp: float, url: str,
                        model_name: str) -> Iterator[tuple[Any, ...]]:
            # fields of a panel that was never opened arrive as None
            settings = Settings(name or default or "", temp, (url or "").strip(),
                                (model_name or "").strip())
            for snapshot in service.respond(text, s, settings):
                yield show(snapshot)

        for trigger in (send.click, question.submit):
            trigger(on_question, [question, state, *settings_inputs], outputs)
        for button in follow_ups:
            button.click(on_question, [button, state, *settings_inputs], outputs)
        new.click(lambda: show(ChatState()), None, outputs)

        def on_upload(files: list[Any] | None) -> tuple[str, None, str]:
            paths = [getattr(f, "name", f) for f in (files or [])]
            return service.upload(paths), None, service.memory.status()

        upload.upload(on_upload, upload, [upload_status, upload, memory_status])

        timer = gr.Timer(1.0, active=service.memory.memory is None)

        def on_tick() -> tuple[str, Any]:
            loading = not service.memory.wait(0)
            return service.memory.status(), gr.Timer(active=loading)

        timer.tick(on_tick, None, [memory_status, timer])
        page.load(on_tick, None, [memory_status, timer])
    return page


# --------------------------------------------------------------------------- start-up


def run(args: argparse.Namespace) -> int:
    set_offline_environment()
    import serving

    values = vars(args)
    try:
        config = load_section(DemoConfig, "demo", cli={k: values.get(k) for k in (
            "memory", "host", "port", "answerer", "max_upload_kb")})
        serving_config = serving.load_serving_config(cli={k: values.get(k) for k in (
            "engine", "base_url", "model")})
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    path = config.memory_dir()
    if config.memory and not has_memory(path):
        print(f"error: {path}: no memory here; build one with "
              f"`inscoqa memory build --out {path}`", file=sys.stderr)
        return 2
    _log_to_console()
    _stop_on_sigterm()
    memory = MemoryHolder(path, load_memory)
    memory.start()
    engines = EngineProvider(serving_config)
    service = DemoService(memory, engines, config=config)
    try:
        with_review_tab(build_app(service)).launch(
            server_name=config.host, server_port=config.port, theme=_theme(), css=CSS,
            max_file_size=f"{config.max_upload_kb * 4}kb", footer_links=[])
    finally:
        engines.close()
    return 0


def _stop_on_sigterm() -> None:
    """``kill`` stops the app like Ctrl-C does, so the engine it started is stopped too."""
    if threading.current_thread() is threading.main_thread():
        def interrupt(signum: int, frame: Any) -> None:
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, interrupt)


def _log_to_console() -> None:
    if not log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The demo's flags (``python app.py`` and ``inscoqa demo`` alike)."""
    parser.add_argument("--memory", help="memory directory (default: a working copy of the "
                                         "bundled sample memory, built on the first start)")
    parser.add_argument("--host", help="interface to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default 7860)")
    parser.add_argument("--answerer", help="answerer selected when the page opens")
    parser.add_argument("--max-upload-kb", type=int, help="size limit of an uploaded document")
    parser.add_argument("--engine", choices=ENGINE_NAMES,
                        help="chat engine (default: configured, else embedded)")
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint (with or without /v1)")
    parser.add_argument("--model", help="model name at the engine")


def main(argv: list[str] | None = None) -> int:
    set_offline_environment()
    parser = argparse.ArgumentParser(prog="inscoqa demo", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


def reload_demo() -> gr.Blocks:
    """The page over the configured memory and engine, built on first access of ``app.demo``
    (what ``gradio app.py`` reload mode looks for); ``python app.py`` uses :func:`run`."""
    set_offline_environment()
    import serving

    config = load_section(DemoConfig, "demo")
    memory = MemoryHolder(config.memory_dir(), load_memory)
    memory.start()
    engines = EngineProvider(serving.load_serving_config())
    return with_review_tab(build_app(DemoService(memory, engines, config=config)))


def __getattr__(name: str) -> Any:
    if name == "demo":
        globals()["demo"] = built = reload_demo()
        return built
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    raise SystemExit(main())
