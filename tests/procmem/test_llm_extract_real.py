"""LLM extraction with the real embedded engine on one small document the rules cannot structure."""

from __future__ import annotations

import pytest

from procmem.memory import Memory, MemoryConfig

pytestmark = pytest.mark.slow

DOC = "gnome-help/net-what-is-ip-address.page"


def test_real_model_extraction_is_stored_whole_or_recorded_as_a_failure(embedded_llm, corpus, embedder):
    doc = corpus.get(DOC)
    config = MemoryConfig(reformulate=False, llm_max_tokens=320, llm_workers=1)
    memory = Memory(kinds=("procedure", "logic_unit"), embedder=embedder, config=config)
    report = memory.add_documents([doc], llm=embedded_llm)
    assert report.added == [DOC]
    units = memory.units()
    assert units and all(u.meta["doc_id"] == DOC for u in units)
    if report.llm_extracted:
        assert not report.failures
        assert all(u.meta["extraction"] == "llm" for u in units)
        for unit in memory.units("logic_unit"):
            assert unit.type in ("Step", "Terminology", "FAQ", "Appendix")
            assert unit.header.strip() and unit.body.strip()
        assert memory.document(DOC).extraction == "llm"
    else:
        (failure,) = report.failures
        assert failure.doc_id == DOC and failure.stage == "units" and failure.error
        assert all(u.meta["extraction"] == "rules" for u in units)  # nothing half-valid stored
        assert memory.failures == report.failures
