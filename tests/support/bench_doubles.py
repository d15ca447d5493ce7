"""Shared pieces of the runner tests (no tests here): a deterministic test answerer, a scripted
model that answers any judge request validly, and a script entry point used by the SIGKILL test.

Run as a script: ``python bench_doubles.py OUT_DIR N DELAY`` runs the test answerer over
the first N bundled conversations with one sample in flight at a time.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # make the project importable when run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from procmem.answerers.base import (  # noqa: E402
    Answer,
    AnswerRequest,
    Source,
    Trace,
    record_call,
    register,
)
from serving.scripted import ScriptedLLM  # noqa: E402
from serving.types import Message  # noqa: E402

ANSWERER = "test-echo"
ANSWER_MARKER = "TEST-ANSWERER"
BAD_JUDGE_MARKER = "BADJUDGE"


def _digest(text: str) -> int:
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8], 16)


def instance_for(schema: dict[str, Any], seed: str) -> Any:
    """A value valid under a (simple) JSON schema, chosen deterministically from ``seed``."""
    h = _digest(seed)
    if "enum" in schema:
        return schema["enum"][h % len(schema["enum"])]
    if "const" in schema:
        return schema["const"]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return instance_for(schema[key][0], seed)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = next(k for k in kind if k != "null")
    if kind == "object":
        props = schema.get("properties", {})
        return {name: instance_for(sub, seed + name) for name, sub in props.items()}
    if kind == "array":
        count = max(int(schema.get("minItems", 1)), 1)
        return [instance_for(schema.get("items", {"type": "string"}), f"{seed}{i}")
                for i in range(count)]
    if kind in ("integer", "number"):
        low = schema.get("minimum", 0)
        high = schema.get("maximum", low + 100)
        value = low + h % (int(high - low) + 1)
        return int(value) if kind == "integer" else float(value)
    if kind == "boolean":
        return bool(h % 2)
    text = f"step {h % 97}"
    return text[: schema["maxLength"]] if "maxLength" in schema else text


def reply_for(prompt: str, schema: dict[str, Any] | None) -> str | dict[str, Any]:
    """What the scripted model says: the test answerer's reply, or a valid judge reply (a bad
    one when the judged answer carries the bad-judge marker)."""
    if ANSWER_MARKER in prompt:
        return f"Answer: {prompt.splitlines()[-1][:120]}"
    if BAD_JUDGE_MARKER in prompt:
        return "I would rather not give a number."
    if schema is not None:
        return instance_for(schema, prompt)
    h = _digest(prompt)
    return f"Feedback: fine.\nTotal rating: {1 + h % 10}\nTask completion rate: {h % 101}"


def server_reply(body: dict[str, Any]) -> str:
    """:func:`reply_for` as a fake OpenAI server's reply to a chat request ``body``."""
    prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
    fmt = body.get("response_format") or {}
    schema = (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema")
    reply = reply_for(prompt, schema)
    return reply if isinstance(reply, str) else json.dumps(reply)


def scripted_model(model: str = "scripted") -> ScriptedLLM:
    def reply(messages: list[Message], schema: dict[str, Any] | None) -> Any:
        return reply_for("\n".join(m["content"] for m in messages), schema)

    return ScriptedLLM(replies=reply, model=model)


def answer_calls(llm: ScriptedLLM) -> int:
    return sum(1 for c in llm.calls if ANSWER_MARKER in c.prompt)


class EchoAnswerer:
    """One LLM call per answer; fails or provokes a bad judge reply on request."""

    name = ANSWERER

    def __init__(self, llm: Any, *, delay: float = 0.0, fail_on: tuple[str, ...] = (),
                 bad_judge_on: tuple[str, ...] = (), variant: str = "a") -> None:
        self.llm = llm
        self.delay = delay
        self.fail_on = tuple(fail_on)
        self.bad_judge_on = tuple(bad_judge_on)
        self.variant = variant

    def answer(self, request: AnswerRequest) -> Answer:
        if any(s in request.question for s in self.fail_on):
            raise RuntimeError("test answerer told to fail")
        time.sleep(self.delay)
        trace = Trace()
        with trace.stage("answer") as stage:
            reply = record_call(stage, self.llm.chat([{"role": "user", "content":
                                f"{ANSWER_MARKER} {self.variant}\n{request.question}"}]))
        text = reply.text
        if any(s in request.question for s in self.bad_judge_on):
            text += f" {BAD_JUDGE_MARKER}"
        docs = request.documents or []
        sources = [Source(doc_id=d.doc_id, title=d.title) for d in docs[:2]]
        steps = [f"Step {i + 1}: {w}" for i, w in enumerate(request.question.split()[:3])]
        return Answer(answer=text, procedures=steps, sources=sources, trace=trace)

    def config(self) -> dict[str, Any]:
        return {"name": self.name, "variant": self.variant, "model": self.llm.model,
                "fail_on": list(self.fail_on), "bad_judge_on": list(self.bad_judge_on)}


@register(ANSWERER)
def make_echo(*, llm: Any, memory: Any = None, **params: Any) -> EchoAnswerer:
    return EchoAnswerer(llm, **params)


def run_once(out_dir: str, n: int, delay: float) -> None:
    from eval.bench import BenchRunner
    from inscoqa.bundled import corpus_index, load_sample

    llm = scripted_model()
    runner = BenchRunner(
        conversations=load_sample()[:n], data_id="sample-test", judge_llm=llm, out_dir=out_dir,
        answerers={ANSWERER: EchoAnswerer(llm, delay=delay)},
        documents=corpus_index().resolve, concurrency=1, progress=False)
    runner.run()


if __name__ == "__main__":
    run_once(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]))
