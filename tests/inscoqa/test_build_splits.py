"""Deterministic splits of built data, as JSONL and as a Hugging Face DatasetDict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inscoqa.bundled import load_sample
from inscoqa.cli import main
from inscoqa.hf import load_from_disk
from inscoqa.io import load_conversations, save_conversations
from inscoqa.splits import SplitSpec, split_conversations


def test_splits_are_deterministic_disjoint_and_sized() -> None:
    convs = load_sample()
    n = len(convs)
    splits = split_conversations(convs, SplitSpec(ratios=(0.6, 0.2, 0.2)), seed=3)
    assert sum(len(s) for s in splits.values()) == n
    ids = [c.id for s in splits.values() for c in s]
    assert len(set(ids)) == n
    again = split_conversations(list(reversed(convs)), SplitSpec(ratios=(0.6, 0.2, 0.2)), seed=3)
    assert {k: {c.id for c in v} for k, v in again.items()} == \
        {k: {c.id for c in v} for k, v in splits.items()}  # the file order does not matter
    other = split_conversations(convs, SplitSpec(ratios=(0.6, 0.2, 0.2)), seed=4)
    assert {c.id for c in other["test"]} != {c.id for c in splits["test"]}
    order = {c.id: i for i, c in enumerate(convs)}
    assert all([order[c.id] for c in s] == sorted(order[c.id] for c in s) for s in splits.values())
    sized = split_conversations(convs, SplitSpec(ratios=None, sizes=(2, 1, 1)))
    assert [len(s) for s in sized.values()] == [2, 1, 1]
    assert SplitSpec(ratios=(0.8, 0.1, 0.1)).counts(11) == [9, 1, 1]
    with pytest.raises(ValueError, match="add up to 1"):
        SplitSpec(ratios=(0.8, 0.1, 0.2))
    with pytest.raises(ValueError, match=f"add up to {n + 2}"):
        split_conversations(convs, SplitSpec(ratios=None, sizes=(n, 1, 1)))


def test_split_command_writes_jsonl_and_datasets(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    data = save_conversations(load_sample(), tmp_path / "final.jsonl")
    out = tmp_path / "splits"
    assert main(["data", "split", str(data), "--out", str(out), "--ratios", "0.5,0.25,0.25",
                 "--seed", "7"]) == 0
    text = capsys.readouterr().out
    assert "split" in text and "docs/conv" in text and "train" in text
    parts = {n: list(load_conversations(out / f"{n}.jsonl")) for n in ("train", "validation", "test")}
    total = len(load_sample())
    assert sum(len(p) for p in parts.values()) == total
    loaded = load_from_disk(out / "hf")
    assert isinstance(loaded, dict) and set(loaded) == {"train", "validation", "test"}
    assert [c.id for c in loaded["test"]] == [c.id for c in parts["test"]]
    assert loaded["train"][0].procedures == parts["train"][0].procedures
    manifest = json.loads((out / "splits.json").read_text())
    assert manifest["seed"] == 7 and manifest["splits"]["test"] == [c.id for c in parts["test"]]
    # statistics of one split of the result, the datasets way
    assert main(["data", "stats", f"hf:{out / 'hf'}:test", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["overall"]["conversations"] == len(parts["test"])
    # the same command gives the same files
    before = (out / "test.jsonl").read_bytes()
    assert main(["data", "split", str(data), "--out", str(out), "--ratios", "0.5,0.25,0.25",
                 "--seed", "7", "--format", "jsonl", "--json"]) == 0
    assert (out / "test.jsonl").read_bytes() == before
    assert json.loads(capsys.readouterr().out)["splits"]["test"]["overall"]["conversations"] == \
        len(parts["test"])
    assert main(["data", "split", str(data), "--out", str(out), "--sizes", "1000,1,1"]) == 2
    assert "add up to 1002" in capsys.readouterr().err
