"""The review page: one sample at a time with its documents, history, question, answer and
steps; accept, reject with a reason, or edit the answer and steps.

Served alone by ``inscoqa data review FILE --reviewer NAME`` and mounted as the demo's
"Review" tab. Gradio is imported inside the functions, so importing this module costs nothing.
Every verdict is saved when its button is pressed; opening the page again (or reloading it)
shows the verdicts already given and starts at the first sample not yet reviewed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inscoqa.review.session import ReviewSession, SampleView, format_steps
from inscoqa.review.verdicts import VerdictError
from inscoqa.schema import DatasetError

if TYPE_CHECKING:
    import gradio as gr

LABELS = {"accept": "accepted", "edit": "accepted with your edit", "reject": "rejected"}


def render_documents(view: SampleView) -> str:
    parts = []
    for i, doc in enumerate(view.conversation.documents, 1):
        text = doc.text
        if text is None:
            try:
                from inscoqa.bundled import corpus_index

                text = corpus_index().get(doc.doc_id).text
            except (KeyError, ValueError):
                text = "*(referenced document; its text is not in the file)*"
        parts.append(f"#### [{i}] {doc.title or doc.doc_id}\n`{doc.doc_id}`\n\n{text.strip()}")
    return "\n\n---\n\n".join(parts)


def render_history(view: SampleView) -> str:
    if not view.conversation.history:
        return "*(no earlier rounds)*"
    return "\n\n".join(f"**User:** {q}\n\n**Assistant:** {a}" for q, a in view.conversation.history)


def render_progress(session: ReviewSession, view: SampleView) -> str:
    c = view.counts
    return (f"**Sample {view.index + 1} of {view.total}** · `{view.conversation.id}` · "
            f"domain {view.conversation.domain} · reviewer **{session.reviewer}** · "
            f"reviewed {view.reviewed}/{view.total} (accepted {c['accept']}, edited {c['edit']}, "
            f"rejected {c['reject']})")


def render_verdict(view: SampleView) -> str:
    verdict = view.verdict
    if verdict is None:
        return "Not reviewed yet."
    reason = f" — {verdict.reason}" if verdict.reason else ""
    return f"Your verdict: **{LABELS[verdict.decision]}**{reason} ({verdict.at})"


def _outputs(session: ReviewSession | None, index: int, note: str = "") -> tuple[Any, ...]:
    """state, progress, question, history, answer, steps, reason, verdict, documents."""
    if session is None:
        return ({"index": 0}, note or "Open a dataset file with your name.", "", "", "", "", "",
                "", "")
    view = session.view(index)
    conv, verdict = view.conversation, view.verdict
    answer = verdict.answer if verdict is not None and verdict.answer else conv.answer
    steps = verdict.procedures if verdict is not None and verdict.procedures else conv.procedures
    status = render_verdict(view) + (f"\n\n{note}" if note else "")
    return ({"index": view.index}, render_progress(session, view),
            f"### Last question\n{conv.question}", render_history(view), answer,
            format_steps(list(steps)), verdict.reason if verdict is not None else "", status,
            render_documents(view))


def review_panel(page: gr.Blocks, dataset: str | Path | None = None,
                 reviewer: str | None = None, *, verdicts_dir: str | Path | None = None) -> None:
    """The review components, rendered into ``page`` (or a Tab of it) being built."""
    import gradio as gr

    sessions: dict[tuple[str, str], ReviewSession] = {}

    def session_for(path: str, name: str) -> ReviewSession:
        key = (str(Path(path).expanduser()), name.strip())
        if key not in sessions:
            sessions[key] = ReviewSession(key[0], key[1], verdicts_dir)
        return sessions[key]

    with gr.Row():
        path_box = gr.Textbox(value=str(dataset or ""), label="Dataset file (.jsonl or .json)",
                              elem_id="review-file", scale=4)
        name_box = gr.Textbox(value=reviewer or "", label="Your name (reviewer)",
                              elem_id="review-reviewer", scale=2)
        open_button = gr.Button("Open", elem_id="review-open", scale=1, min_width=80)
    state = gr.State({"index": 0})
    progress = gr.Markdown(elem_id="review-progress")
    with gr.Row():
        with gr.Column(scale=3):
            question = gr.Markdown(elem_id="review-question")
            gr.Markdown("#### Conversation so far")
            history = gr.Markdown(elem_id="review-history")
            answer = gr.Textbox(label="Answer (edit it if needed)", lines=5, elem_id="review-answer")
            steps = gr.Textbox(label="Procedural instructions (one step a line)", lines=8,
                               elem_id="review-steps")
            reason = gr.Textbox(label="Reason (needed to reject)", lines=1, elem_id="review-reason")
            with gr.Row():
                accept = gr.Button("Accept", variant="primary", elem_id="review-accept")
                edit = gr.Button("Save edit", elem_id="review-edit")
                reject = gr.Button("Reject", variant="stop", elem_id="review-reject")
            with gr.Row():
                previous = gr.Button("← Previous", elem_id="review-prev", size="sm")
                following = gr.Button("Next →", elem_id="review-next", size="sm")
                unreviewed = gr.Button("Next not reviewed", elem_id="review-next-open", size="sm")
            verdict = gr.Markdown(elem_id="review-verdict")
        with gr.Column(scale=2):
            gr.Markdown("#### Documents")
            documents = gr.Markdown(elem_id="review-documents", max_height=760)
    outputs = [state, progress, question, history, answer, steps, reason, verdict, documents]

    def guarded(fn: Callable[..., tuple[Any, ...]]) -> Callable[..., tuple[Any, ...]]:
        def run(path: str, name: str, st: dict[str, Any], *rest: Any) -> tuple[Any, ...]:
            if not (path or "").strip() or not (name or "").strip():
                return _outputs(None, 0, "Give the dataset file and your name, then press Open.")
            try:
                return fn(session_for(path, name), int((st or {}).get("index", 0)), *rest)
            except (DatasetError, VerdictError, ValueError, OSError) as exc:
                try:
                    return _outputs(session_for(path, name), int((st or {}).get("index", 0)),
                                    f"⚠ {exc}")
                except (DatasetError, VerdictError, ValueError, OSError):
                    return _outputs(None, 0, f"⚠ {exc}")
        return run

    def on_open(s: ReviewSession, index: int) -> tuple[Any, ...]:
        return _outputs(s, s.first_open())

    def move(delta: int) -> Callable[..., tuple[Any, ...]]:
        return lambda s, index: _outputs(s, index + delta)

    def on_next_open(s: ReviewSession, index: int) -> tuple[Any, ...]:
        return _outputs(s, s.next_open(index))

    def decide(decision: str) -> Callable[..., tuple[Any, ...]]:
        def run(s: ReviewSession, index: int, text: str, step_text: str, why: str) -> tuple[Any, ...]:
            given = s.decide(index, decision, reason=why or "", answer=text or "",  # type: ignore[arg-type]
                             steps=step_text or "")
            # go on to the next sample not reviewed yet (stay when every one is)
            return _outputs(s, s.next_open(index), f"Saved: {LABELS[given.decision]}.")
        return run

    inputs = [path_box, name_box, state]
    edits = [answer, steps, reason]
    open_button.click(guarded(on_open), inputs, outputs)
    previous.click(guarded(move(-1)), inputs, outputs)
    following.click(guarded(move(1)), inputs, outputs)
    unreviewed.click(guarded(on_next_open), inputs, outputs)
    accept.click(guarded(decide("accept")), inputs + edits, outputs)
    edit.click(guarded(decide("edit")), inputs + edits, outputs)
    reject.click(guarded(decide("reject")), inputs + edits, outputs)
    # opening or reloading the page shows the first sample not reviewed yet
    page.load(guarded(on_open), inputs, outputs)


def build_review_page(dataset: str | Path | None = None, reviewer: str | None = None, *,
                      verdicts_dir: str | Path | None = None) -> gr.Blocks:
    """The review page on its own (``inscoqa data review``)."""
    import gradio as gr

    with gr.Blocks(title="inscoqa — review built data") as page:
        gr.Markdown("## Review built conversations\nAccept a sample, reject it with a reason, or "
                    "edit its answer and steps. Every verdict is saved at once.")
        review_panel(page, dataset, reviewer, verdicts_dir=verdicts_dir)
    return page


def with_review_tab(app: gr.Blocks, dataset: str | Path | None = None,
                    reviewer: str | None = None, *, label: str = "Chat") -> gr.Blocks:
    """``app`` in a first tab and the review page in a "Review" tab (the demo's layout)."""
    import gradio as gr

    with gr.Blocks(title=app.title) as page:
        with gr.Tab(label, elem_id="tab-main"):
            app.render()
        with gr.Tab("Review", elem_id="tab-review"):
            gr.Markdown("Review a built dataset (`inscoqa data build`): give its file and your "
                        "name, then accept, reject with a reason, or edit each sample. Verdicts "
                        "are saved as you give them.")
            review_panel(page, dataset, reviewer)
    return page
