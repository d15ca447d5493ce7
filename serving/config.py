"""Typed configuration from one place: CLI flags over environment variables over a config file.

The config file is TOML (``inscoqa.toml`` in the working directory, or the path in
``$INSCOQA_CONFIG``), one table per section: ``[serving]``, ``[judge]``, ``[memory]``, ... Each
layer of the project declares its own dataclass and loads it with :func:`load_section`.
Environment variables are ``INSCOQA_<FIELD>`` for the ``serving`` section and
``INSCOQA_<SECTION>_<FIELD>`` for the others (e.g. ``INSCOQA_JUDGE_BASE_URL``).
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

T = TypeVar("T")

CONFIG_ENV = "INSCOQA_CONFIG"
DEFAULT_CONFIG_FILE = "inscoqa.toml"

EngineName = Literal["embedded", "vllm", "external"]


class ConfigError(ValueError):
    """A configuration value could not be read; the message names its source and field."""


def api_root(base_url: str) -> str:
    """The server root of an OpenAI-compatible endpoint, written with or without ``/v1``.

    ``http://host:8000``, ``http://host:8000/`` and ``http://host:8000/v1`` all give
    ``http://host:8000``: the client adds ``/v1/...`` paths itself.
    """
    root = base_url.strip().rstrip("/")
    if root.endswith("/v1"):
        root = root[: -len("/v1")]
    return root


@dataclass
class ServingConfig:
    """How to reach (or start) the chat engine."""

    engine: EngineName = "embedded"
    model: str = ""  # empty: the engine's default (the bundled SmolLM2 for "embedded")
    base_url: str = ""  # set for "external"; filled in when an engine is started
    api_key: str = ""
    concurrency: int = 4
    timeout_s: float = 300.0
    retries: int = 3
    backoff_s: float = 0.5
    schema_retries: int = 2
    temperature: float = 0.0
    max_tokens: int = 512
    seed: int = 0
    cache_dir: str = "~/.cache/inscoqa"
    cache: bool = True
    # retry policy: exponential backoff with jitter, capped; whole call bounded by max_total_s
    max_backoff_s: float = 30.0
    max_retry_after_s: float = 60.0  # cap on a server's Retry-After
    max_total_s: float = 0.0  # 0: timeout_s * (retries + 1) + backoffs
    # how a JSON schema is sent: "auto" (the engine's dialect), "json_schema" (OpenAI, vLLM)
    # or "llama_cpp" (llama-cpp-python's json_object + schema)
    schema_format: str = "auto"
    # started engines
    host: str = "127.0.0.1"
    port: int = 0  # 0: a free port
    startup_timeout_s: float = 120.0
    log_dir: str = "~/.cache/inscoqa/logs"
    # embedded engine (llama.cpp)
    n_ctx: int = 8192
    # 0: half the cores, at least 1 (llama.cpp slows down sharply when its threads compete for
    # cores with other work, e.g. 22 vs 1 tokens/s on a busy 2-core machine)
    n_threads: int = 0
    # vLLM engine
    tensor_parallel_size: int = 1
    max_model_len: int = 0  # 0: the model's own
    dtype: str = "auto"
    enforce_eager: bool = False
    vllm_python: str = ""  # interpreter with vllm installed; empty: this one
    vllm_args: str = ""  # extra command-line arguments, shell-quoted

    def cache_path(self) -> Path:
        return Path(self.cache_dir).expanduser()

    def log_path(self) -> Path:
        return Path(self.log_dir).expanduser()


def config_file(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """The config file in force: explicit path, else ``$INSCOQA_CONFIG``, else ./inscoqa.toml."""
    if explicit:
        return Path(explicit)
    if os.environ.get(CONFIG_ENV):
        return Path(os.environ[CONFIG_ENV])
    default = Path(DEFAULT_CONFIG_FILE)
    return default if default.exists() else None


def _convert(value: Any, annotation: Any, where: str) -> Any:
    hint = annotation
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None or value == "":
            return None
        hint = args[0]
        origin = typing.get_origin(hint)
    if origin is Literal:
        allowed = typing.get_args(hint)
        if value not in allowed:
            raise ConfigError(f"{where}: expected one of {list(allowed)}, got {value!r}")
        return value
    try:
        if hint is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in {"1", "true", "yes", "on"}:
                return True
            if text in {"0", "false", "no", "off"}:
                return False
            raise ValueError(value)
        if hint in (int, float, str):
            return hint(value)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}: expected {hint.__name__}, got {value!r}") from exc
    return value


def load_section(
    cls: type[T],
    section: str,
    *,
    cli: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    file: str | os.PathLike[str] | None = None,
) -> T:
    """Build ``cls`` from defaults, then the config file, then env, then CLI values (not None)."""
    env = os.environ if env is None else env
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    path = config_file(file)
    if path is not None:
        try:
            table = tomllib.loads(path.read_text(encoding="utf-8")).get(section, {})
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"{path}: cannot read config file: {exc}") from exc
        for key, value in table.items():
            if key not in hints:
                raise ConfigError(f"{path} [{section}] {key}: unknown setting")
            values[key] = _convert(value, hints[key], f"{path} [{section}] {key}")
    prefix = "INSCOQA_" if section == "serving" else f"INSCOQA_{section.upper()}_"
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        name = prefix + f.name.upper()
        if name in env:
            values[f.name] = _convert(env[name], hints[f.name], f"environment {name}")
    for key, value in (cli or {}).items():
        if value is not None and key in hints:
            values[key] = _convert(value, hints[key], f"--{key.replace('_', '-')}")
    return cls(**values)


def describe(obj: Any) -> dict[str, Any]:
    """A config as a plain dict, with the API key masked."""
    data = dataclasses.asdict(obj)
    if data.get("api_key"):
        data["api_key"] = "***"
    return data


def load_serving_config(
    cli: Mapping[str, Any] | None = None, section: str = "serving"
) -> ServingConfig:
    """The serving config of ``section``: CLI values over ``INSCOQA_*`` env over inscoqa.toml."""
    return load_section(ServingConfig, section, cli=cli)


def config_sources(
    cls: type[Any],
    section: str,
    *,
    cli: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    file: str | os.PathLike[str] | None = None,
) -> dict[str, str]:
    """Where each field of ``cls`` comes from under :func:`load_section`'s layering."""
    env = os.environ if env is None else env
    sources = {f.name: "default" for f in dataclasses.fields(cls)}
    path = config_file(file)
    if path is not None and path.exists():
        try:
            table = tomllib.loads(path.read_text(encoding="utf-8")).get(section, {})
        except (OSError, tomllib.TOMLDecodeError):
            table = {}
        for key in table:
            if key in sources:
                sources[key] = f"file {path}"
    prefix = "INSCOQA_" if section == "serving" else f"INSCOQA_{section.upper()}_"
    for name in sources:
        if prefix + name.upper() in env:
            sources[name] = f"env {prefix + name.upper()}"
    for key, value in (cli or {}).items():
        if value is not None and key in sources:
            sources[key] = f"flag --{key.replace('_', '-')}"
    return sources
