"""The benchmark's result files, and atomic JSON files.

A result file is a :class:`inscoqa.keyed_store.KeyedStore` keyed by ``sample_id``: every finished
sample is one line, durable before it is reported as saved, and a retried sample's later line
supersedes the earlier one. :class:`ResultStore` also keeps the records it has read or written,
so a run asks "is this sample done?" without reading the file again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from inscoqa.io import atomic_write_text
from inscoqa.keyed_store import KeyedStore

ID_FIELD = "sample_id"


class ResultStore(KeyedStore):
    """One ``*.jsonl`` file of records keyed by ``sample_id``."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(path, key_field=ID_FIELD)
        self._records: dict[str, dict[str, Any]] = {}
        self._loaded = False

    def load(self) -> dict[str, dict[str, Any]]:
        """Records by sample id (last one wins); a truncated final line is dropped."""
        self._records = super().load()
        self._loaded = True
        return dict(self._records)

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

    def _written(self, records: list[dict[str, Any]]) -> None:
        if not self._loaded:
            self.load()  # the file already holds ``records``: they are read back with the rest
            return
        for record in records:
            self._records[record[ID_FIELD]] = record


def write_json_atomic(path: str | os.PathLike[str], data: Any) -> None:
    """Replace a JSON file atomically (:func:`inscoqa.io.atomic_write_text`)."""
    atomic_write_text(Path(path), json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True,
                                             default=str) + "\n")
