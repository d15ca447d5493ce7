"""``inscoqa demo``: the Gradio chat demo (the same as ``python app.py``)."""

from __future__ import annotations

import argparse

from inscoqa.cli.options import add_engine_flags


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The demo's flags, shared by ``inscoqa demo`` and ``python app.py``."""
    parser.add_argument("--memory", help="memory directory (default: a working copy of the "
                                         "bundled sample memory, built on the first start)")
    parser.add_argument("--host", help="interface to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default 7860)")
    parser.add_argument("--answerer", help="answerer selected when the page opens")
    parser.add_argument("--max-upload-kb", type=int, help="size limit of an uploaded document")
    add_engine_flags(parser, whose="the chat")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("demo", help="chat with a memory in the browser (Gradio demo)",
                            description="Launch the Gradio chat demo over a memory.")
    add_arguments(parser)
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    import app

    return app.run(args)
