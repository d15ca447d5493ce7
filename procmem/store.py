"""Crash-safe storage of a memory directory.

Layout::

    <memory dir>/
      CURRENT              name of the complete version in force, e.g. "v-1718000000000000000"
      v-<ns>/              one complete version
        manifest.json      written last: format version, models, counts, hashes, and the size and
                           sha256 of every other file of the version
        units.jsonl ...    whatever the writer put there

A save writes a new ``v-<ns>.partial`` directory, fsyncs every file and the directory, renames it
to ``v-<ns>``, then replaces ``CURRENT`` atomically (``os.replace``) and only then deletes older
versions. A crash at any point leaves ``CURRENT`` naming a complete version. Loading verifies
the manifest and every file it lists, and says which file is missing or damaged.
``INSCOQA_MEMORY_SAVE_DELAY_S`` makes a save pause after each file (to test a killed save).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from procmem.retrieval.bm25 import BM25Index
from procmem.units import Unit, unit_from_dict, unit_to_dict

# 2: a unit not embedded yet has a row of NaN in embeddings.npy (1: every unit had its vector)
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)
CURRENT = "CURRENT"
MANIFEST = "manifest.json"
SAVE_DELAY_ENV = "INSCOQA_MEMORY_SAVE_DELAY_S"


class MemoryStoreError(RuntimeError):
    """A memory directory that cannot be loaded; the message names the path and the problem."""


def _fsync_file(path: Path) -> None:
    with open(path, "rb") as fh:
        os.fsync(fh.fileno())


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def pause_between_writes() -> None:
    delay = float(os.environ.get(SAVE_DELAY_ENV, "0") or 0)
    if delay > 0:
        time.sleep(delay)


def save_version(root: Path, write: Callable[[Path], dict[str, Any]]) -> Path:
    """Write a new version with ``write(dir) -> manifest fields`` and make it current."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    name = f"v-{time.time_ns()}"
    partial = root / f"{name}.partial"
    partial.mkdir()
    manifest = dict(write(partial))
    files: dict[str, dict[str, Any]] = {}
    for path in sorted(p for p in partial.rglob("*") if p.is_file()):
        _fsync_file(path)
        files[path.relative_to(partial).as_posix()] = {"bytes": path.stat().st_size,
                                                      "sha256": file_digest(path)}
    manifest.update(format_version=FORMAT_VERSION, files=files, saved_at=time.strftime("%Y-%m-%dT%H:%M:%S"))
    (partial / MANIFEST).write_text(json.dumps(manifest, indent=1, ensure_ascii=False), encoding="utf-8")
    _fsync_file(partial / MANIFEST)
    for directory in {p.parent for p in partial.rglob("*")} | {partial}:
        _fsync_dir(directory)
    final = root / name
    os.rename(partial, final)
    _fsync_dir(root)
    pointer = root / f"{CURRENT}.tmp"
    pointer.write_text(name + "\n", encoding="utf-8")
    _fsync_file(pointer)
    os.replace(pointer, root / CURRENT)
    _fsync_dir(root)
    for old in root.iterdir():
        if old.is_dir() and old.name.startswith("v-") and old.name != name:
            shutil.rmtree(old, ignore_errors=True)
    return final


def open_version(root: Path, *, verify: bool = True) -> tuple[Path, dict[str, Any]]:
    """``(version dir, manifest)`` of the memory at ``root``, checked; raises MemoryStoreError."""
    root = Path(root)
    if not root.is_dir():
        raise MemoryStoreError(f"{root}: no memory here (the directory does not exist)")
    pointer = root / CURRENT
    if pointer.is_file():
        name = pointer.read_text(encoding="utf-8").strip()
        version = root / name
        if not name or not version.is_dir():
            raise MemoryStoreError(f"{pointer}: names version {name!r}, which is missing")
    elif (root / MANIFEST).is_file():
        version = root  # a version directory given directly
    elif any(p.name.endswith(".partial") or p.name.startswith("v-") for p in root.iterdir()):
        raise MemoryStoreError(
            f"{root}: half-written memory: a save did not finish and no complete version exists "
            "(rebuild it with `inscoqa memory build`)"
        )
    else:
        raise MemoryStoreError(f"{root}: not a memory directory (no {CURRENT} and no {MANIFEST})")
    manifest_path = version / MANIFEST
    if not manifest_path.is_file():
        raise MemoryStoreError(f"{version}: half-written memory: {MANIFEST} is missing")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MemoryStoreError(f"{manifest_path}: corrupted manifest: {exc}") from exc
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise MemoryStoreError(f"{manifest_path}: corrupted manifest: no 'files' table")
    if manifest.get("format_version") not in READABLE_VERSIONS:
        raise MemoryStoreError(
            f"{manifest_path}: format version {manifest.get('format_version')!r}, this version of "
            f"the software reads {FORMAT_VERSION}: rebuild the memory"
        )
    for rel, info in manifest["files"].items():
        path = version / rel
        if not path.is_file():
            raise MemoryStoreError(f"{path}: missing (listed in {MANIFEST})")
        if path.stat().st_size != info.get("bytes"):
            raise MemoryStoreError(
                f"{path}: corrupted: {path.stat().st_size} bytes, the manifest says {info.get('bytes')}"
            )
        if verify and file_digest(path) != info.get("sha256"):
            raise MemoryStoreError(f"{path}: corrupted: checksum differs from the manifest")
    return version, manifest


@dataclass
class MemoryFiles:
    """What a memory version holds besides its manifest.

    ``units.jsonl`` the served units (in index order, kinds grouped), ``parts.jsonl`` the logic
    units merged into others, ``documents.json`` the per-document records, ``embeddings.npy``
    one row per served unit (NaN for a unit of a kind not embedded yet: it is embedded at its
    kind's first dense search), ``bm25/<kind>/`` the bm25s index of each kind.
    """

    units: list[Unit]
    hidden: list[Unit]
    documents: list[dict[str, Any]]
    matrix: np.ndarray
    bm25: dict[str, BM25Index]


def _write_units(path: Path, units: list[Unit]) -> None:
    path.write_text("".join(json.dumps(unit_to_dict(u), ensure_ascii=False) + "\n" for u in units),
                    encoding="utf-8")


def write_memory_files(directory: Path, files: MemoryFiles) -> None:
    _write_units(directory / "units.jsonl", files.units)
    pause_between_writes()
    _write_units(directory / "parts.jsonl", files.hidden)
    (directory / "documents.json").write_text(json.dumps(files.documents, ensure_ascii=False), encoding="utf-8")
    pause_between_writes()
    np.save(directory / "embeddings.npy", files.matrix)
    pause_between_writes()
    for kind, index in files.bm25.items():
        index.save(directory / "bm25" / kind)
        pause_between_writes()


def _read_units(path: Path) -> list[Unit]:
    units = []
    with open(path, encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                units.append(unit_from_dict(json.loads(line)))
            except (json.JSONDecodeError, TypeError, ValueError, KeyError) as exc:
                raise MemoryStoreError(f"{path}:{line_no}: corrupted unit record: {exc}") from exc
    return units


def read_memory_files(version: Path) -> MemoryFiles:
    """Read a version checked by :func:`open_version`; MemoryStoreError names what is unreadable."""
    units = _read_units(version / "units.jsonl")
    hidden = _read_units(version / "parts.jsonl")
    try:
        documents = json.loads((version / "documents.json").read_text("utf-8"))
        matrix = np.load(version / "embeddings.npy")
    except (OSError, ValueError, TypeError) as exc:
        raise MemoryStoreError(f"{version}: corrupted memory data: {exc}") from exc
    if matrix.shape[0] != len(units):
        raise MemoryStoreError(f"{version}/embeddings.npy: {matrix.shape[0]} rows for {len(units)} units")
    bm25 = {}
    for kind in dict.fromkeys(u.kind for u in units):
        size = sum(1 for u in units if u.kind == kind)
        try:
            bm25[kind] = BM25Index.load(version / "bm25" / kind, size)
        except (OSError, ValueError, KeyError) as exc:
            raise MemoryStoreError(f"{version}/bm25/{kind}: cannot load the BM25 index: {exc}") from exc
    return MemoryFiles(units, hidden, documents, matrix, bm25)
