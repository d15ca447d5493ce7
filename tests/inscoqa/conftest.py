"""Fixtures for the data-layer tests: real bundled records and files built from them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from inscoqa.bundled import conversation_files


@pytest.fixture(scope="session")
def real_records() -> list[dict[str, Any]]:
    """The bundled officedocs conversations as raw JSON objects."""
    path = conversation_files()["dev-officedocs"]
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture
def write_jsonl(tmp_path: Path) -> Callable[..., Path]:
    """Write lines (dicts are JSON-encoded, str/bytes written as given) to a JSONL file."""

    def write(lines: list[Any], name: str = "data.jsonl") -> Path:
        path = tmp_path / name
        chunks: list[bytes] = []
        for line in lines:
            if isinstance(line, bytes):
                chunks.append(line)
            elif isinstance(line, str):
                chunks.append(line.encode("utf-8"))
            else:
                chunks.append(json.dumps(line, ensure_ascii=False).encode("utf-8"))
        path.write_bytes(b"\n".join(chunks) + b"\n")
        return path

    return write
