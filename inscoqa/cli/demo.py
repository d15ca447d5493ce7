"""``inscoqa demo``: the Gradio chat demo (the same as ``python app.py``).

The demo owns its flags (``app.add_arguments``); this command hands every argument after
``demo`` to ``app.main``, so ``inscoqa demo --help`` prints the demo's own help.
"""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("demo", help="chat with a memory in the browser (Gradio demo)",
                            description="Launch the Gradio chat demo over a memory; every "
                                        "argument goes to the demo (inscoqa demo --help).",
                            add_help=False)
    parser.set_defaults(func=_run, passthrough=True)


def _run(args: argparse.Namespace) -> int:
    import app

    return app.main(list(args.passthrough_args))
