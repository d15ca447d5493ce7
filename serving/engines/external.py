"""Any OpenAI-compatible endpoint reached by URL and key (another vLLM, a hosted API)."""

from __future__ import annotations

from serving.engines.base import Engine, register_engine


@register_engine
class ExternalEngine(Engine):
    name = "external"
    schema_format = "json_schema"
