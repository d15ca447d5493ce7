"""The model layer: one OpenAI-compatible chat client over an embedded llama.cpp engine,
vLLM, or any external endpoint, with a response cache and typed configuration.

This package knows nothing of memories, answers or benchmarks.
"""

from serving.errors import (
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
    "LLMConnectionError",
    "LLMError",
    "LLMHTTPError",
    "LLMResponseError",
    "LLMSchemaError",
    "LLMTimeoutError",
    "Message",
    "Usage",
]
