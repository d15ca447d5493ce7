"""The ``inscoqa`` command: one entry point, one module per subcommand group.

Each module in this package exposes ``register(subparsers)``; commands import upper layers
(procmem, eval, app) only inside their functions so ``inscoqa --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

GROUPS = ["data", "config", "serve", "memory", "answer", "bench", "judge", "demo", "thread", "rerank"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="inscoqa",
        description="Conversational how-to QA over instructional documents, and its benchmark.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for group in GROUPS:
        try:
            module = importlib.import_module(f"inscoqa.cli.{group}")
        except ModuleNotFoundError as exc:
            if exc.name == f"inscoqa.cli.{group}":
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    # a command that hands its arguments on (the demo) gets the ones it did not declare
    args, rest = parser.parse_known_args(argv)
    if rest and not getattr(args, "passthrough", False):
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    args.passthrough_args = rest
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
