"""Engines by name: ``embedded`` (llama.cpp), ``vllm`` and ``external``."""

from serving.engines import embedded, external, vllm  # noqa: F401  (register the engines)
from serving.engines.base import ENGINES, Endpoint, Engine, get_engine, register_engine

__all__ = ["ENGINES", "Endpoint", "Engine", "get_engine", "register_engine"]
