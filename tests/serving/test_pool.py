"""The client pool opens one client per configuration on first use; the pooled model charges
each call's usage to the tabs open in the calling thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from serving.config import ServingConfig
from serving.pool import ClientPool, PooledModel, usage_tab
from serving.scripted import ScriptedLLM

ASK = [{"role": "user", "content": "hi"}]


LLMS: list[ScriptedLLM] = []


def counting_pool() -> tuple[ClientPool, list[ServingConfig], list[str]]:
    opened: list[ServingConfig] = []
    closed: list[str] = []

    @contextmanager
    def connect(config: ServingConfig) -> Iterator[ScriptedLLM]:
        opened.append(config)
        LLMS.append(ScriptedLLM(lambda messages, schema: "ok"))
        yield LLMS[-1]
        closed.append(config.model)

    return ClientPool(connect), opened, closed


def test_nothing_is_opened_until_the_first_call_and_once_per_config() -> None:
    pool, opened, closed = counting_pool()
    a, b = ServingConfig(model="a"), ServingConfig(model="b")
    first, again, other = pool.model(a), pool.model(a), pool.model(b)
    assert opened == [] and not first.connected and first.model == "a"
    first.chat(ASK)
    again.chat(ASK)
    assert [c.model for c in opened] == ["a"]  # the same configuration shares one client
    other.chat(ASK)
    assert [c.model for c in opened] == ["a", "b"]
    pool.close()
    assert sorted(closed) == ["a", "b"]


def test_a_fixed_temperature_applies_to_every_call() -> None:
    pool, _, _ = counting_pool()
    warm = pool.model(ServingConfig(), temperature=0.7)
    warm.chat(ASK)
    warm.chat(ASK, temperature=0.1)
    pool.model(ServingConfig()).chat(ASK, temperature=0.1)
    assert [c.params["temperature"] for c in LLMS[-1].calls] == [0.7, 0.7, 0.1]


def test_usage_is_charged_to_the_calling_threads_tab_only() -> None:
    shared = PooledModel.around(ScriptedLLM(lambda messages, schema: "ok"))
    counts: dict[str, int] = {}

    def work(name: str, calls: int) -> None:
        with usage_tab() as tab:
            for _ in range(calls):
                shared.chat(ASK)
        counts[name] = tab.usage.calls

    threads = [threading.Thread(target=work, args=(f"t{i}", i + 1)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counts == {"t0": 1, "t1": 2, "t2": 3, "t3": 4}
    assert PooledModel.around(shared) is shared


def test_a_client_whose_engine_died_is_replaced_once() -> None:
    from serving.errors import EngineDiedError

    class DyingClient(ScriptedLLM):
        def __init__(self) -> None:
            super().__init__(lambda messages, schema: "ok")
            self.dead = False

        def check_engine(self) -> None:
            if self.dead:
                raise EngineDiedError("the embedded engine died (signal 11 (SIGSEGV))")

    opened: list[DyingClient] = []

    @contextmanager
    def connect(config: ServingConfig) -> Iterator[DyingClient]:
        opened.append(DyingClient())
        yield opened[-1]

    pool = ClientPool(connect, restarts=1)
    model = pool.model(ServingConfig())
    model.chat(ASK)
    opened[-1].dead = True
    assert pool.client(ServingConfig()) is not opened[0]  # restarted
    assert len(opened) == 2
    opened[-1].dead = True
    assert pool.client(ServingConfig()) is opened[1]  # no second restart: the caller is told
    pool.close()


def test_an_engine_process_killed_between_calls_is_started_again(
        clean_env, monkeypatch) -> None:
    """A real engine process that crashes: the call in flight fails naming the signal, and the
    pool's next call runs on a new engine."""
    import pytest
    from support.engines import FakeEngineProcess

    from serving.engines import ENGINES
    from serving.errors import EngineDiedError

    # the readiness probe and one reply, then the process kills itself (SIGSEGV)
    monkeypatch.setitem(ENGINES, "embedded", FakeEngineProcess(2))
    with ClientPool() as pool:
        model = pool.model(ServingConfig(engine="embedded", retries=0))
        assert model.chat(ASK, use_cache=False).text
        with pytest.raises(EngineDiedError, match=r"signal 11 \(SIGSEGV\)"):
            model.chat(ASK, use_cache=False)
        assert model.chat(ASK, use_cache=False).text  # the restarted engine answers
