"""A help page that includes sections it shares with other pages (XInclude), built into a memory
with ``inscoqa memory build --path`` and answered by the extractive answerer: the real reader,
units, embedding model and search."""

from __future__ import annotations

from pathlib import Path

import pytest

from procmem.answerers import make_answerer
from tests.inscoqa.test_xinclude import SECTIONS, SHARED, page
from tests.procmem.answerers.conftest import memory_from_files, two_turns


@pytest.mark.slow
def test_a_follow_up_is_answered_from_a_section_the_page_includes(clean_env: Path) -> None:
    memory = memory_from_files(clean_env, {"shared-searching.xml": SHARED, "mail-searching.page": page(SECTIONS)})
    assert memory.doc_ids() == ["docs/mail-searching.page"]  # the shared file is no page of its own
    answerer = make_answerer("extractive", memory=memory)
    _, reply = two_turns(answerer, "How do I search my mail?", "Can I save that search?")
    said = "\n".join([reply.answer, *reply.procedures])
    assert "Search > Save Search" in said, said
