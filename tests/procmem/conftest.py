"""Fixtures of the memory tests: real bundled documents, the real embedding model, small memories."""

from __future__ import annotations

import pytest

from inscoqa.bundled import corpus_index, load_sample
from inscoqa.corpus.document import Document
from inscoqa.records import Conversation

# Conversations whose reference documents (plus the distractors below) form the test memory.
CONVERSATIONS = 6
DISTRACTORS = [
    "gnome-help/printing-2sided.page",
    "gnome-help/shell-apps-open.page",
    "based-cooking/lasagna.md",
    "officedocs/Microsoft365/admin/active-directory/restore-deleted-user-accounts.md",
]


@pytest.fixture(scope="session")
def corpus():
    return corpus_index()


@pytest.fixture(scope="session")
def conversations() -> list[Conversation]:
    convs = load_sample()
    by_file: dict[str, list[Conversation]] = {}
    for conv in convs:
        by_file.setdefault(conv.id.rsplit("-", 1)[0], []).append(conv)
    picked: list[Conversation] = []
    while len(picked) < CONVERSATIONS and any(by_file.values()):
        for group in by_file.values():
            if group and len(picked) < CONVERSATIONS:
                picked.append(group.pop(0))
    return picked


@pytest.fixture(scope="session")
def test_documents(corpus, conversations) -> list[Document]:
    seen: dict[str, Document] = {}
    for conv in conversations:
        for doc in corpus.resolve(conv):
            seen.setdefault(doc.doc_id, doc)
    for doc_id in DISTRACTORS:
        seen.setdefault(doc_id, corpus.get(doc_id))
    return list(seen.values())


@pytest.fixture(scope="session")
def embedder():
    from procmem.embed import Embedder

    return Embedder()


@pytest.fixture(scope="session")
def built_memory(test_documents, embedder):
    """A memory over the test documents (built once; tests must not change it)."""
    from procmem.memory import build_memory

    return build_memory(test_documents, embedder=embedder, progress=False)
