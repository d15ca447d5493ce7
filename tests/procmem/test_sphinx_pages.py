"""A memory over Sphinx sources (reStructuredText and MyST pages) answers with their commands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inscoqa.corpus.readers import read_document
from procmem.answerers import AnswerRequest, make_answerer
from procmem.memory import build_memory
from tests.inscoqa.test_sphinx_readers import MYST, RST


def _page(folder: Path, name: str, text: str) -> Any:
    (folder / name).write_text(text, encoding="utf-8")
    return read_document(folder / name)


def test_a_sphinx_page_answers_with_its_command(tmp_path: Path, embedder: Any) -> None:
    """pip's "Uninstall a package": a shell session under a section named by the question; its
    command is the step and the answer (not what the command prints)."""
    docs = [_page(tmp_path, "uninstall.rst", RST),
            _page(tmp_path, "install.md", MYST)]
    memory = build_memory(docs, embedder=embedder, progress=False)
    answer = make_answerer("extractive", memory=memory).answer(AnswerRequest("How do I uninstall a package?"))
    assert any("python -m pip uninstall simplejson" in step for step in answer.procedures)
    assert not any("Successfully uninstalled" in step for step in answer.procedures)
