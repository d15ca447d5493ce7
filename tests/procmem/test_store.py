"""The crash-safe version store on its own (no model): what loads, and what is refused and why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from procmem.store import FORMAT_VERSION, MemoryStoreError, open_version, save_version


def writer(payload: str):
    def write(directory: Path) -> dict:
        (directory / "units.jsonl").write_text(payload)
        (directory / "bm25").mkdir()
        (directory / "bm25" / "params.json").write_text("{}")
        return {"counts": {"units": 1}}
    return write


def test_save_switches_versions_and_keeps_only_the_current(tmp_path):
    first = save_version(tmp_path, writer("one\n"))
    second = save_version(tmp_path, writer("two\n"))
    version, manifest = open_version(tmp_path)
    assert version == second and not first.exists()
    assert (version / "units.jsonl").read_text() == "two\n"
    assert manifest["format_version"] == FORMAT_VERSION and manifest["counts"] == {"units": 1}
    assert set(manifest["files"]) == {"units.jsonl", "bm25/params.json"}


def test_a_version_directory_loads_directly(tmp_path):
    version = save_version(tmp_path, writer("x\n"))
    assert open_version(version)[0] == version


@pytest.mark.parametrize(("damage", "message"), [
    (lambda root, v: (v / "bm25" / "params.json").unlink(), "params.json: missing"),
    (lambda root, v: (v / "units.jsonl").write_text("y\n"), "units.jsonl: corrupted: checksum"),
    (lambda root, v: (v / "units.jsonl").write_text("longer\n"), "units.jsonl: corrupted: 7 bytes"),
    (lambda root, v: (root / "CURRENT").write_text("v-0\n"), "names version 'v-0', which is missing"),
    (lambda root, v: (v / "manifest.json").unlink(), "half-written memory: manifest.json is missing"),
])
def test_damage_is_named(tmp_path, damage, message):
    version = save_version(tmp_path, writer("x\n"))
    damage(tmp_path, version)
    with pytest.raises(MemoryStoreError, match=message):
        open_version(tmp_path)


def test_format_version_mismatch(tmp_path):
    version = save_version(tmp_path, writer("x\n"))
    manifest = json.loads((version / "manifest.json").read_text())
    manifest["format_version"] = FORMAT_VERSION + 1
    (version / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(MemoryStoreError, match="format version"):
        open_version(tmp_path)


def test_missing_and_foreign_directories(tmp_path):
    with pytest.raises(MemoryStoreError, match="does not exist"):
        open_version(tmp_path / "nothing")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("hi")
    with pytest.raises(MemoryStoreError, match="not a memory directory"):
        open_version(tmp_path / "other")
