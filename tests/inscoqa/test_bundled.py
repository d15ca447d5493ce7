"""The bundled sample: conversation files, documents they reference, dataset specs."""

from __future__ import annotations

from pathlib import Path

import pytest

from inscoqa import bundled
from inscoqa.io import save_conversations


def test_conversation_files_and_load_sample() -> None:
    files = bundled.conversation_files()
    assert set(files) == {"dev-officedocs", "dev-gnome-cooking"}
    office = bundled.load_sample("dev-officedocs")
    everything = bundled.load_sample()
    assert len(office) == 30
    assert len(everything) == len(bundled.load_sample("sample")) == 60
    assert all(c.id.startswith("dev-ods-") for c in office)
    with pytest.raises(ValueError, match="unknown bundled dataset 'nope'.*dev-officedocs"):
        bundled.load_sample("nope")


def test_sample_documents_are_every_referenced_document() -> None:
    docs = bundled.sample_documents()
    referenced = {ref.doc_id for conv in bundled.load_sample() for ref in conv.documents}
    assert [d.doc_id for d in docs] == list(dict.fromkeys(
        ref.doc_id for conv in bundled.load_sample() for ref in conv.documents))
    assert {d.doc_id for d in docs} == referenced
    assert {d.meta["corpus"] for d in docs} == {"officedocs", "gnome-help", "based-cooking"}
    assert all(d.text.strip() and d.meta["license"] for d in docs)


def test_data_lives_in_the_package() -> None:
    assert Path(bundled.__file__).resolve().parent / "data" == bundled.DATA_DIR
    for corpus in ("officedocs", "gnome-help", "based-cooking"):
        root = bundled.CORPORA_DIR / corpus
        assert any((root / n).is_file() for n in ("LICENSE", "COPYRIGHT"))


def test_resolve_dataset_specs(tmp_path: Path) -> None:
    assert len(bundled.resolve_dataset("sample")) == 60
    assert len(bundled.resolve_dataset("dev-gnome-cooking")) == 30
    subset = bundled.load_sample("dev-officedocs")[:3]
    path = save_conversations(subset, tmp_path / "three.json")
    assert [c.id for c in bundled.resolve_dataset(str(path))] == [c.id for c in subset]
    with pytest.raises(ValueError, match="cannot load dataset 'missing.jsonl'"):
        bundled.resolve_dataset("missing.jsonl")
