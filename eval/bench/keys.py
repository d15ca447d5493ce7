"""Content keys: a run is identified by everything that determines its results.

A run key hashes the answerer's configuration (its parameters, prompt hashes and model), the
judge's configuration (prompt hash and model), the data id (the content of the dataset) and the
setting (given documents, or the memory's manifest). Change any of them and results go to a new
directory; change none and a run picks up where it stopped.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from typing import Any

from inscoqa.records import Conversation

KEY_LENGTH = 12


def stable_hash(obj: Any, length: int = KEY_LENGTH) -> str:
    """SHA-256 of the canonical JSON form of ``obj`` (sorted keys), truncated."""
    text = json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


def data_id(name: str, conversations: Iterable[Conversation]) -> str:
    """A readable, content-addressed id of a dataset: ``<name>@<hash of every record>``."""
    h = hashlib.sha256()
    for conv in conversations:
        h.update(json.dumps(conv.to_dict(), sort_keys=True, ensure_ascii=False).encode("utf-8"))
        h.update(b"\n")
    return f"{slug(name)}@{h.hexdigest()[:KEY_LENGTH]}"


def slug(text: str, max_len: int = 40) -> str:
    """A file-name-safe short form of a name."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")
    return (cleaned or "x")[:max_len]


def run_key(system: str, spec: dict[str, Any]) -> str:
    """Directory name of one system's run: ``<system>-<hash of spec>``."""
    return f"{slug(system)}-{stable_hash(spec)}"
