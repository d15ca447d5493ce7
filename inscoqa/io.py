"""Load and save conversations as JSONL (one per line) or JSON (an array), validating every record.

Loading fails whole on the first bad record, unless ``skip_bad=True``: then the good records
are returned and every skipped one is reported (``result.errors`` and a logged warning).
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inscoqa.corpus.document import DocumentError
from inscoqa.records import Conversation
from inscoqa.schema import DatasetError, describe, validate_record

if TYPE_CHECKING:
    from inscoqa.corpus.index import CorpusIndex

__all__ = ["ConversationList", "DatasetError", "iter_records", "load_conversations",
           "save_conversations"]

log = logging.getLogger(__name__)


class ConversationList(list[Conversation]):
    """The loaded conversations, with ``errors``: the records that were skipped and why."""

    def __init__(self, items: Iterable[Conversation] = (), errors: Iterable[DatasetError] = ()) -> None:
        super().__init__(items)
        self.errors: list[DatasetError] = list(errors)


def _json_error(file: str, line: int, exc: json.JSONDecodeError, line_offset: int = 0) -> DatasetError:
    return DatasetError(file, line, None, "a JSON object (one conversation)",
                        got=f"invalid JSON: {exc.msg} at column {exc.colno + line_offset}")


def iter_records(path: str | Path) -> Iterator[tuple[int, Any | DatasetError]]:
    """``(line, parsed JSON value or DatasetError)`` for each record of a JSONL or JSON file."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DatasetError(path, None, None, "a readable JSONL or JSON file",
                           got=exc.strerror or str(exc)) from exc
    if path.suffix.lower() == ".json":
        yield from _iter_json_array(str(path), data)
    else:
        yield from _iter_jsonl(str(path), data)


def _iter_jsonl(file: str, data: bytes) -> Iterator[tuple[int, Any | DatasetError]]:
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield number, DatasetError(file, number, None, "UTF-8 text",
                                       got=f"the byte 0x{raw[exc.start]:02x} at column {exc.start + 1}")
            continue
        if not text.strip():
            continue
        try:
            yield number, json.loads(text)
        except json.JSONDecodeError as exc:
            yield number, _json_error(file, number, exc)


def _iter_json_array(file: str, data: bytes) -> Iterator[tuple[int, Any | DatasetError]]:
    """Records of a JSON file (an array, or an object with a ``conversations`` array), with lines."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        yield line, DatasetError(file, line, None, "UTF-8 text", got=f"the byte 0x{data[exc.start]:02x}")
        return
    decoder = json.JSONDecoder()
    try:
        whole = json.loads(text)
    except json.JSONDecodeError as exc:
        yield exc.lineno, _json_error(file, exc.lineno, exc)
        return
    if isinstance(whole, dict) and isinstance(whole.get("conversations"), list):
        start = text.index("[", text.index('"conversations"'))
    elif isinstance(whole, list):
        start = text.index("[")
    else:
        yield 1, DatasetError(file, 1, None, 'an array of conversations (or {"conversations": [...]})',
                              got=describe(whole))
        return
    # Walk the array with raw_decode to know the line each record starts on.
    pos = start + 1
    while True:
        while text[pos] in " \t\r\n,":
            pos += 1
        if text[pos] == "]":
            return
        value, end = decoder.raw_decode(text, pos)
        yield text.count("\n", 0, pos) + 1, value
        pos = end


def _check_documents(conv: Conversation, corpus: CorpusIndex, file: str, line: int) -> None:
    for i, ref in enumerate(conv.documents):
        if ref.text is not None:
            continue
        try:
            corpus.path(ref.doc_id)
        except DocumentError as exc:
            known = ", ".join(corpus.roots)
            raise DatasetError(file, line, f"documents[{i}].doc_id",
                               f"a doc_id that resolves in the corpora ({known}) or an inlined text",
                               record_id=conv.id, got=f"'{ref.doc_id}': {exc.problem}") from exc


def load_conversations(
    path: str | Path,
    *,
    skip_bad: bool = False,
    corpus: CorpusIndex | None = None,
) -> ConversationList:
    """Conversations from a ``.jsonl`` (one per line) or ``.json`` (array) file.

    Every record is validated against the schema; ids must be unique; with ``corpus`` every
    referenced ``doc_id`` must resolve. The first bad record raises ``DatasetError`` unless
    ``skip_bad`` is set: then bad records are left out, listed in ``.errors`` and logged.
    """
    file = str(path)
    good: list[Conversation] = []
    errors: list[DatasetError] = []
    seen: dict[str, int] = {}
    for line, record in iter_records(path):
        try:
            if isinstance(record, DatasetError):
                raise record
            conv = validate_record(record, where=file, line=line)
            if conv.id in seen:
                raise DatasetError(file, line, "id", "an id unique in the file", record_id=conv.id,
                                   got=f"'{conv.id}', already used on line {seen[conv.id]}")
            if corpus is not None:
                _check_documents(conv, corpus, file, line)
        except DatasetError as error:
            if not skip_bad:
                raise
            errors.append(error)
            log.warning("skipped bad record: %s", error)
            continue
        seen[conv.id] = line
        good.append(conv)
    if errors:
        log.warning("%s: skipped %d bad record(s), kept %d", file, len(errors), len(good))
    return ConversationList(good, errors)


def atomic_write_text(path: Path, text: str) -> None:
    """Replace a text file atomically: a temporary file beside it, fsync'ed, then renamed over
    it, so the file is either the old one or the complete new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save_conversations(convs: Iterable[Conversation], path: str | Path) -> Path:
    """Write conversations to ``.jsonl`` (one per line) or ``.json`` (an indented array), atomically:
    the file is either the old one or the complete new one, never half-written."""
    path = Path(path)
    records = [c.to_dict() for c in convs]
    if path.suffix.lower() == ".json":
        text = json.dumps(records, ensure_ascii=False, indent=2) + "\n"
    else:
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    atomic_write_text(path, text)
    return path
