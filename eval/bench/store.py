"""Append-only JSONL result files that survive being killed at any instant.

Every finished sample is one line, written with a single ``write`` and then flushed and
fsync'ed, so after a crash (even SIGKILL) the file holds every line that was reported as saved
plus at most one truncated last line. Loading ignores that truncated line (and cuts it off
before the next append, so new lines never get glued to it) and keeps one record per sample id:
a later line for the same id (a retried failure) supersedes the earlier one.
"""

from __future__ import annotations

import json
import os
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ID_FIELD = "sample_id"


class ResultStore:
    """One ``*.jsonl`` file of records keyed by ``sample_id``."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._records: dict[str, dict[str, Any]] = {}
        self._loaded = False

    # -- reading -------------------------------------------------------------------------------

    def load(self) -> dict[str, dict[str, Any]]:
        """Records by sample id (last one wins); a truncated final line is dropped."""
        records: dict[str, dict[str, Any]] = {}
        if self.path.exists():
            raw = self.path.read_bytes()
            # what follows the last newline is empty for a clean file, else a line cut short by
            # a crash in the middle of a write: it is ignored here and removed on next append
            complete = raw.split(b"\n")[:-1]
            for number, line in enumerate(complete, start=1):
                record = self._parse(line, number)
                if record is not None:
                    records[record[ID_FIELD]] = record
        self._records = records
        self._loaded = True
        return dict(records)

    def _parse(self, line: bytes, number: int) -> dict[str, Any] | None:
        if not line.strip():
            return None
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            warnings.warn(f"{self.path}:{number}: unreadable result line skipped ({exc})",
                          stacklevel=3)
            return None
        if not isinstance(record, dict) or not isinstance(record.get(ID_FIELD), str):
            warnings.warn(f"{self.path}:{number}: result line without a string '{ID_FIELD}' skipped",
                          stacklevel=3)
            return None
        return record

    @property
    def records(self) -> dict[str, dict[str, Any]]:
        if not self._loaded:
            self.load()
        return dict(self._records)

    def __contains__(self, sample_id: object) -> bool:
        return sample_id in self.records

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.records.values())

    # -- writing -------------------------------------------------------------------------------

    def append(self, record: dict[str, Any]) -> None:
        """Write one record durably (one write, flush, fsync) before returning."""
        self.append_many([record])

    def append_many(self, records: list[dict[str, Any]]) -> None:
        """Write records durably with one write and one fsync (a group commit).

        A crash during the write leaves whole lines plus at most one partial last line."""
        for record in records:
            if not isinstance(record.get(ID_FIELD), str):
                raise ValueError(f"a result record needs a string '{ID_FIELD}'")
        if not records:
            return
        data = b"".join((json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
                        for r in records)
        with self._lock:
            if not self._loaded:
                self.load()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._drop_truncated_tail()
            with open(self.path, "ab") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            for record in records:
                self._records[record[ID_FIELD]] = record

    def _drop_truncated_tail(self) -> None:
        """Cut a partial last line left by a crash, so the next line starts on its own."""
        if not self.path.exists():
            return
        size = self.path.stat().st_size
        if size == 0:
            return
        with open(self.path, "rb+") as fh:
            fh.seek(size - 1)
            if fh.read(1) == b"\n":
                return
            # find the last newline; everything after it is the partial line
            block = 1 << 16
            pos = size
            keep = 0
            while pos > 0:
                start = max(0, pos - block)
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


def write_json_atomic(path: str | os.PathLike[str], data: Any) -> None:
    """Replace a JSON file atomically (write a temporary file, fsync, rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=2, sort_keys=True, default=str)
        fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
