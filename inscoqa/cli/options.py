"""Command-line pieces shared by several commands: engine flags, ``--param`` values, errors."""

from __future__ import annotations

import argparse
import json
import typing
from typing import Any

from serving.config import EngineName

ENGINE_NAMES: tuple[str, ...] = typing.get_args(EngineName)
STARTED_ENGINES: tuple[str, ...] = tuple(n for n in ENGINE_NAMES if n != "external")


def add_engine_flags(parser: argparse.ArgumentParser, prefix: str = "", dest: str = "",
                     whose: str = "the") -> None:
    """``--[prefix-]engine``, ``--[prefix-]base-url`` and ``--[prefix-]model`` for one role."""
    dash = f"--{prefix}-" if prefix else "--"
    parser.add_argument(f"{dash}engine", dest=f"{dest}engine", choices=ENGINE_NAMES,
                        help=f"{whose} engine (default: configured, else embedded; "
                             f"'external' when only a base URL is given)")
    parser.add_argument(f"{dash}base-url", dest=f"{dest}base_url",
                        help=f"{whose} OpenAI-compatible endpoint (with or without /v1)")
    parser.add_argument(f"{dash}model", dest=f"{dest}model", help=f"{whose} model name")


def engine_overrides(args: argparse.Namespace, dest: str = "") -> dict[str, Any]:
    """The serving fields given on the command line for one role (answerers, judge, ...)."""
    values = {name: getattr(args, f"{dest}{name}", None)
              for name in ("engine", "base_url", "model", "max_tokens")}
    if values["base_url"] and not values["engine"]:
        values["engine"] = "external"
    return {k: v for k, v in values.items() if v is not None}


def parse_value(raw: str) -> Any:
    """A ``--param`` value: JSON when it parses (5, false, [1, 2]), else the string itself."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def parse_params(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` items -> {key: value}; raises ValueError naming a malformed item."""
    params: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--param {item!r}: expected KEY=VALUE")
        params[key.strip()] = parse_value(raw)
    return params


def parse_system_params(items: list[str]) -> dict[str, dict[str, Any]]:
    """``SYSTEM.KEY=VALUE`` items -> {system: {key: value}}."""
    params: dict[str, dict[str, Any]] = {}
    for item in items:
        head, sep, raw = item.partition("=")
        system, dot, key = head.partition(".")
        if not sep or not dot or not system.strip() or not key.strip():
            raise ValueError(f"--param {item!r}: expected SYSTEM.KEY=VALUE")
        params.setdefault(system.strip(), {})[key.strip()] = parse_value(raw)
    return params


def first_line(exc: BaseException) -> str:
    """An error as one line for the console (engine errors carry a log tail below it)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
