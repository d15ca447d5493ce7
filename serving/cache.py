"""An on-disk response cache (SQLite, WAL) shared by threads and processes.

Keys are :func:`serving.protocol.cache_key` hashes of the full request. Only successful, valid
replies are stored, so a reply that failed validation is asked for again on the next run.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path

from serving.types import ChatResult, Usage

SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    text TEXT NOT NULL,
    data TEXT,
    finish_reason TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    created REAL NOT NULL
)
"""


class ResponseCache:
    """``get``/``put`` of chat results by request key; one connection per thread and process."""

    FILE_NAME = "responses.sqlite3"

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.path = Path(directory).expanduser() / self.FILE_NAME
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._connect().execute(SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None or getattr(self._local, "pid", None) != os.getpid():
            conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn, self._local.pid = conn, os.getpid()
        return conn

    def get(self, key: str) -> ChatResult | None:
        """The stored result (``cached=True``, ``usage.calls == 0``), or ``None``."""
        row = (
            self._connect()
            .execute(
                "SELECT model, text, data, finish_reason, prompt_tokens, completion_tokens"
                " FROM responses WHERE key = ?",
                (key,),
            )
            .fetchone()
        )
        if row is None:
            return None
        model, text, data, finish_reason, _prompt_tokens, _completion_tokens = row
        return ChatResult(
            text=text,
            data=None if data is None else json.loads(data),
            usage=Usage(cached_calls=1),  # a hit spends no tokens
            model=model,
            cached=True,
            finish_reason=finish_reason,
        )

    def put(
        self, key: str, result: ChatResult, *, prompt_tokens: int, completion_tokens: int
    ) -> None:
        """Store a valid result; ``*_tokens`` are those of the one reply that is stored."""
        data = None if result.data is None else json.dumps(result.data, ensure_ascii=False)
        self._connect().execute(
            "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                result.model,
                result.text,
                data,
                result.finish_reason,
                prompt_tokens,
                completion_tokens,
                time.time(),
            ),
        )

    def __len__(self) -> int:
        return int(self._connect().execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
