"""Review sheets for reviewers who work elsewhere: CSV (a spreadsheet) or JSONL.

An exported sheet has one row per sample with what a reviewer needs (documents' titles, the
history, the question, the answer, the steps) and empty verdict columns: ``decision``
(accept / reject / edit), ``reason``, ``edited_answer``, ``edited_procedures`` (one step a line)
and ``reviewer``. Importing a filled sheet records its verdicts; a row without a decision is
skipped, a bad row is an error naming the file, the row and the column.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from inscoqa.io import atomic_write_text
from inscoqa.records import Conversation
from inscoqa.review.verdicts import Verdict, VerdictError
from inscoqa.schema import DatasetError

COLUMNS = ("sample_id", "documents", "history", "question", "answer", "procedures", "decision",
           "reason", "edited_answer", "edited_procedures", "reviewer")


def _row(conv: Conversation, verdict: Verdict | None, reviewer: str) -> dict[str, Any]:
    return {
        "sample_id": conv.id,
        "documents": [f"{d.title} ({d.doc_id})" for d in conv.documents],
        "history": [[q, a] for q, a in conv.history],
        "question": conv.question, "answer": conv.answer, "procedures": list(conv.procedures),
        "decision": verdict.decision if verdict else "",
        "reason": verdict.reason if verdict else "",
        "edited_answer": (verdict.answer or "") if verdict else "",
        "edited_procedures": list(verdict.procedures or []) if verdict else [],
        "reviewer": verdict.reviewer if verdict else reviewer,
    }


def _flat(row: dict[str, Any]) -> dict[str, str]:
    out = dict(row)
    out["documents"] = "\n".join(row["documents"])
    out["history"] = "\n\n".join(f"Q: {q}\nA: {a}" for q, a in row["history"])
    out["procedures"] = "\n".join(f"{i}. {s}" for i, s in enumerate(row["procedures"], 1))
    out["edited_procedures"] = "\n".join(row["edited_procedures"])
    return out


def export_sheet(convs: list[Conversation], path: str | Path, *, reviewer: str = "",
                 verdicts: dict[str, Verdict] | None = None) -> Path:
    """Write a sheet (``.csv``, else JSONL), prefilled with ``verdicts`` when given."""
    path = Path(path)
    rows = [_row(c, (verdicts or {}).get(c.id), reviewer) for c in convs]
    if path.suffix.lower() == ".csv":
        import io

        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(_flat(r) for r in rows)
        atomic_write_text(path, buffer.getvalue())
    else:
        atomic_write_text(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return path


def _read_rows(path: Path) -> list[tuple[int, dict[str, Any]]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(path, None, None, "a readable UTF-8 review sheet", got=str(exc)) from exc
    if path.suffix.lower() == ".csv":
        reader = csv.DictReader(text.splitlines(keepends=True))
        missing = [c for c in ("sample_id", "decision") if c not in (reader.fieldnames or [])]
        if missing:
            raise DatasetError(path, 1, missing[0], f"a header row with the columns {', '.join(COLUMNS)}")
        return [(reader.line_num, dict(row)) for row in reader]
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(path, number, None, "a JSON object (one sheet row)",
                               got=f"invalid JSON: {exc.msg}") from exc
        if not isinstance(value, dict):
            raise DatasetError(path, number, None, "a JSON object (one sheet row)")
        rows.append((number, value))
    return rows


def _steps(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(s) for s in value]
    return [line for line in str(value or "").splitlines() if line.strip()]


def read_sheet(path: str | Path, convs: list[Conversation], *, reviewer: str | None = None,
               ) -> list[Verdict]:
    """The verdicts of a filled sheet (rows without a decision are skipped)."""
    path = Path(path)
    by_id = {c.id: c for c in convs}
    verdicts: list[Verdict] = []
    for line, row in _read_rows(path):
        decision = str(row.get("decision") or "").strip().lower()
        if not decision:
            continue
        sample_id = str(row.get("sample_id") or "")
        if sample_id not in by_id:
            raise DatasetError(path, line, "sample_id", "the id of a sample in the reviewed dataset",
                               got=repr(sample_id))
        name = reviewer or str(row.get("reviewer") or "").strip()
        if not name:
            raise DatasetError(path, line, "reviewer", "the reviewer's name (or --reviewer)",
                               record_id=sample_id)
        edited = decision == "edit"
        try:
            verdicts.append(Verdict(
                sample_id, name, decision,  # type: ignore[arg-type]
                reason=str(row.get("reason") or "").strip(),
                answer=str(row.get("edited_answer") or by_id[sample_id].answer) if edited else None,
                procedures=(_steps(row.get("edited_procedures"))
                            or list(by_id[sample_id].procedures)) if edited else None))
        except VerdictError as exc:
            field, _, expected = str(exc).partition(": ")
            raise DatasetError(path, line, field, expected, record_id=sample_id) from exc
    return verdicts
