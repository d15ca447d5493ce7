"""Append-only JSONL files of keyed records that survive being killed at any instant.

Every record is one line written with a single ``write``, flushed and fsync'ed, so after a crash
(even SIGKILL) the file holds every line that was reported as saved plus at most one truncated
last line. Loading keeps the last record per key (a later line for a key, a retried failure,
supersedes the earlier one) and ignores that truncated line, which is cut off before the next
append, so new lines never get glued to it. The data builder's items, the review verdicts and the
benchmark's results (:class:`eval.bench.store.ResultStore`) are such files.
"""

from __future__ import annotations

import json
import os
import threading
import warnings
from pathlib import Path
from typing import Any


class KeyedStore:
    """One ``*.jsonl`` file of records, each with a string ``key_field``; the last one per key wins."""

    def __init__(self, path: str | os.PathLike[str], key_field: str = "key") -> None:
        self.path = Path(path)
        self.key_field = key_field
        self._lock = threading.Lock()

    def load(self) -> dict[str, dict[str, Any]]:
        """Records by key, in the order their keys were first written; a line that cannot be
        read, or has no string key, is skipped with a warning naming the file and line."""
        records: dict[str, dict[str, Any]] = {}
        if not self.path.exists():
            return records
        raw = self.path.read_bytes()
        for number, line in enumerate(raw.split(b"\n")[:-1], start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                warnings.warn(f"{self.path}:{number}: unreadable line skipped ({exc})", stacklevel=2)
                continue
            if isinstance(record, dict) and isinstance(record.get(self.key_field), str):
                records[record[self.key_field]] = record
            else:
                warnings.warn(f"{self.path}:{number}: line without a string '{self.key_field}' "
                              "skipped", stacklevel=2)
        return records

    def append_many(self, records: list[dict[str, Any]]) -> None:
        """Write records durably with one write and one fsync (a group commit)."""
        for record in records:
            if not isinstance(record.get(self.key_field), str):
                raise ValueError(f"a record needs a string '{self.key_field}'")
        if not records:
            return
        data = b"".join((json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
                        for r in records)
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._drop_truncated_tail()
            with open(self.path, "ab") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            self._written(records)

    def _written(self, records: list[dict[str, Any]]) -> None:
        """Called under the lock once ``records`` are durably written."""

    def append(self, record: dict[str, Any]) -> None:
        self.append_many([record])

    def _drop_truncated_tail(self) -> None:
        """Cut a partial last line left by a crash (reading back only as far as its start)."""
        if not self.path.exists():
            return
        size = self.path.stat().st_size
        if size == 0:
            return
        with open(self.path, "rb+") as fh:
            fh.seek(size - 1)
            if fh.read(1) == b"\n":
                return
            pos, keep = size, 0
            while pos > 0:
                start = max(0, pos - (1 << 16))
                fh.seek(start)
                chunk = fh.read(pos - start)
                idx = chunk.rfind(b"\n")
                if idx >= 0:
                    keep = start + idx + 1
                    break
                pos = start
            fh.truncate(keep)
            fh.flush()
            os.fsync(fh.fileno())


