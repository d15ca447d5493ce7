"""``connect(config)``: the one way callers obtain a client, starting an engine when needed."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import httpx

from serving.client import LLMClient
from serving.config import ServingConfig, api_root
from serving.engines import Endpoint, get_engine
from serving.errors import LLMConnectionError


def discover_model(base_url: str, api_key: str = "") -> str:
    """The first model a running server lists under ``/v1/models``."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    url = api_root(base_url) + "/v1/models"
    try:
        response = httpx.get(url, headers=headers, timeout=10.0, trust_env=False)
        response.raise_for_status()
        return str(response.json()["data"][0]["id"])
    except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError) as exc:
        raise LLMConnectionError(
            f"cannot list models at {url} ({exc!r}); set the model name with --model", url=url
        ) from exc


@contextmanager
def connect(config: ServingConfig) -> Iterator[LLMClient]:
    """Yield a client for ``config``.

    With ``base_url`` set nothing is started: the client attaches to that server (the engine
    name still selects its structured-output dialect). Otherwise the engine is launched and
    stopped when the context exits.
    """
    engine = get_engine(config.engine)
    with ExitStack() as stack:
        if config.base_url:
            model = (
                config.model
                or engine.default_model(config)
                or discover_model(config.base_url, config.api_key)
            )
            endpoint = Endpoint(base_url=api_root(config.base_url), model=model)
        else:
            endpoint = stack.enter_context(engine.launch(config))
        client = LLMClient(
            dataclasses.replace(config, base_url=endpoint.base_url, model=endpoint.model),
            engine_check=endpoint.check,
        )
        stack.callback(client.close)
        yield client
