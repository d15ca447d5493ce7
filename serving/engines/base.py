"""What an engine is, and the registry of engines by name."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import ClassVar

from serving.config import ConfigError, ServingConfig


@dataclass(frozen=True)
class Endpoint:
    """Where a running engine answers, the model name to send it, and (for an engine this
    program started) ``check(grace_s)``, which raises :class:`serving.errors.EngineDiedError` once
    it died (waiting up to ``grace_s`` seconds for a dying process to go)."""

    base_url: str
    model: str
    check: Callable[[float], None] | None = field(default=None, compare=False)


class Engine:
    """An engine knows how to launch its server and which structured-output dialect it speaks.

    Subclasses set ``name`` and ``schema_format`` and override :meth:`launch` (engines that
    start nothing, like ``external``, keep the default which refuses).
    """

    name: ClassVar[str]
    schema_format: ClassVar[str] = "json_schema"

    def default_model(self, config: ServingConfig) -> str:
        """The model name to send when attaching to an already-running server."""
        return config.model

    @contextmanager
    def launch(self, config: ServingConfig) -> Iterator[Endpoint]:
        raise ConfigError(f"engine {self.name!r} does not start a server: set base_url")
        yield  # pragma: no cover


ENGINES: dict[str, Engine] = {}


def register_engine(engine_cls: type[Engine]) -> type[Engine]:
    """Class decorator adding an engine to the registry under its ``name``."""
    ENGINES[engine_cls.name] = engine_cls()
    return engine_cls


def get_engine(name: str) -> Engine:
    try:
        return ENGINES[name]
    except KeyError:
        raise ConfigError(f"engine {name!r}: expected one of {sorted(ENGINES)}") from None
