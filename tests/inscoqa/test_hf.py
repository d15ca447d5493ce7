"""Round trips through Hugging Face ``datasets`` with the bundled conversations."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from inscoqa import hf
from inscoqa.bundled import conversation_files, load_sample, resolve_dataset
from inscoqa.io import DatasetError, save_conversations

datasets = pytest.importorskip("datasets")


def test_dataset_round_trip() -> None:
    convs = load_sample()
    convs[1].documents[0].text = "# Inlined document\n\n1. First step.\n"
    dataset = hf.to_dataset(convs)
    assert isinstance(dataset, datasets.Dataset)
    assert dataset.num_rows == 60
    assert dataset.column_names == list(hf.FIELDS)
    assert dataset[0]["documents"][0]["text"] is None
    assert dataset[1]["documents"][0]["text"] == "# Inlined document\n\n1. First step.\n"
    assert hf.from_dataset(dataset) == convs


def test_dataset_dict_save_to_disk_and_load_from_disk(tmp_path: Path) -> None:
    splits = {"validation": load_sample("dev-officedocs"), "test": load_sample("dev-gnome-cooking")}
    target = hf.save_to_disk(splits, tmp_path / "splits")
    raw = datasets.load_from_disk(str(target))
    assert isinstance(raw, datasets.DatasetDict) and set(raw) == {"validation", "test"}
    assert hf.load_from_disk(target) == splits
    assert hf.load_from_disk(target, split="test") == splits["test"]
    with pytest.raises(KeyError, match="no split 'train'"):
        hf.load_from_disk(target, split="train")
    assert resolve_dataset(f"hf:{target}:validation") == splits["validation"]
    assert resolve_dataset(f"hf:{target}") == splits["validation"] + splits["test"]


def test_single_dataset_save_and_load(tmp_path: Path) -> None:
    convs = load_sample("dev-gnome-cooking")
    target = hf.save_to_disk(convs, tmp_path / "one")
    assert hf.load_from_disk(target) == convs


def test_load_dataset_json_back_to_conversations(tmp_path: Path) -> None:
    path = conversation_files()["dev-officedocs"]
    dataset = hf.load_json_dataset(path, cache_dir=tmp_path / "cache")
    assert dataset.num_rows == 30
    assert hf.from_dataset(dataset) == load_sample("dev-officedocs")
    copy = save_conversations(load_sample(), tmp_path / "all.jsonl")
    assert hf.conversations_from_json_dataset(copy, cache_dir=tmp_path / "cache") == load_sample()


def test_bad_row_names_its_row() -> None:
    rows = hf.to_dataset(load_sample("dev-officedocs")[:3])
    rows = rows.map(lambda row, i: {"domain": "Cooking" if i == 2 else row["domain"]}, with_indices=True)
    with pytest.raises(DatasetError) as info:
        hf.from_dataset(rows, where="rows")
    assert (info.value.file, info.value.line, info.value.field) == ("rows", 3, "domain")


def test_datasets_is_imported_lazily() -> None:
    code = ("import sys, inscoqa.hf, inscoqa.io, inscoqa.bundled, inscoqa.cli.data; "
            "print('datasets' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
