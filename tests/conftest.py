"""Shared fixtures. Real parts by default; the scripted model is for control-flow unit tests.

Fixtures that start the embedded engine or load the embedding model are session-scoped so a
test run pays for them once.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# test doubles shared by several test folders live in tests/support (imported as ``support``)
sys.path.insert(0, str(Path(__file__).resolve().parent))

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")


@pytest.fixture(scope="session")
def session_tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("session")


@pytest.fixture(scope="session")
def embedded_llm(session_tmp: Path) -> Iterator[object]:
    """The real embedded engine (llama.cpp + SmolLM2-135M), started once per test session.

    Its response cache lives in a fresh directory so tests see real server calls.
    """
    from serving import connect
    from serving.config import ServingConfig

    config = ServingConfig(
        engine="embedded",
        cache_dir=str(session_tmp / "llm-cache"),
        log_dir=str(session_tmp / "llm-logs"),
    )
    with connect(config) as client:
        yield client


@pytest.fixture
def clean_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No config file or INSCOQA_* variable of the machine; caches inside tmp_path."""
    for name in list(os.environ):
        if name.startswith("INSCOQA_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("INSCOQA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("INSCOQA_LOG_DIR", str(tmp_path / "logs"))
    return tmp_path
