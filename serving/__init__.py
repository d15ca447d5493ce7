"""The model layer: one OpenAI-compatible chat client over an embedded llama.cpp engine,
vLLM, or any external endpoint, with a response cache and typed configuration.

This package knows nothing of memories, answers or benchmarks.
"""

from serving.cache import ResponseCache
from serving.client import LLMClient
from serving.config import ServingConfig, load_serving_config
from serving.connect import connect
from serving.errors import (
    EngineDiedError,
    EngineStartError,
    LLMConnectionError,
    LLMError,
    LLMHTTPError,
    LLMResponseError,
    LLMSchemaError,
    LLMTimeoutError,
)
from serving.types import ChatModel, ChatResult, Message, Usage

__all__ = [
    "ChatModel",
    "ChatResult",
    "EngineDiedError",
    "EngineStartError",
    "LLMClient",
    "ResponseCache",
    "ServingConfig",
    "connect",
    "load_serving_config",
    "LLMConnectionError",
    "LLMError",
    "LLMHTTPError",
    "LLMResponseError",
    "LLMSchemaError",
    "LLMTimeoutError",
    "Message",
    "Usage",
]
