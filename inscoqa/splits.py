"""Deterministic train / validation / test splits of a conversation dataset, written as JSONL
and as a Hugging Face ``DatasetDict``.

A conversation's place is decided by a hash of the seed and its id, not by the order of the file
or a random generator, so the same data and seed always give the same splits, and adding
conversations to a dataset moves none of the others between splits when sizes are ratios.
Within a split, conversations keep the order of the input file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from inscoqa.io import atomic_write_text, save_conversations
from inscoqa.records import Conversation

SPLIT_NAMES = ("train", "validation", "test")
Format = Literal["jsonl", "hf"]
FORMATS: tuple[str, ...] = get_args(Format)
MANIFEST = "splits.json"


@dataclass(frozen=True)
class SplitSpec:
    """Either ``ratios`` (summing to 1) or ``sizes`` (conversation counts), one per split name."""

    names: tuple[str, ...] = SPLIT_NAMES
    ratios: tuple[float, ...] | None = (0.8, 0.1, 0.1)
    sizes: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        values = self.ratios if self.ratios is not None else self.sizes
        if (self.ratios is None) == (self.sizes is None):
            raise ValueError("give either ratios or sizes")
        if values is None or len(values) != len(self.names):
            raise ValueError(f"give one value per split ({', '.join(self.names)})")
        if any(v < 0 for v in values):
            raise ValueError("split sizes and ratios cannot be negative")
        if self.ratios is not None and abs(sum(self.ratios) - 1.0) > 1e-6:
            raise ValueError(f"ratios must add up to 1; these add up to {sum(self.ratios):g}")

    @classmethod
    def of_ratios(cls, text: str, names: Sequence[str] = SPLIT_NAMES) -> SplitSpec:
        """``"0.8,0.1,0.1"``."""
        try:
            return cls(tuple(names), tuple(float(p) for p in text.split(",")), None)
        except ValueError as exc:
            raise ValueError(f"ratios {text!r}: {exc}") from exc

    @classmethod
    def of_sizes(cls, text: str, names: Sequence[str] = SPLIT_NAMES) -> SplitSpec:
        """``"100,20,30"``."""
        try:
            return cls(tuple(names), None, tuple(int(p) for p in text.split(",")))
        except ValueError as exc:
            raise ValueError(f"sizes {text!r}: {exc}") from exc

    def counts(self, n: int) -> list[int]:
        """Conversations per split for a dataset of ``n`` (largest remainders for ratios)."""
        if self.sizes is not None:
            if sum(self.sizes) > n:
                raise ValueError(f"the split sizes add up to {sum(self.sizes)}, but the data has "
                                 f"{n} conversations")
            return list(self.sizes)
        assert self.ratios is not None
        exact = [r * n for r in self.ratios]
        counts = [int(x) for x in exact]
        by_remainder = sorted(range(len(exact)), key=lambda i: (-(exact[i] - counts[i]), i))
        for i in by_remainder[: n - sum(counts)]:
            counts[i] += 1
        return counts


def _rank(seed: int, conv_id: str) -> str:
    return hashlib.sha256(f"{seed}\x1f{conv_id}".encode()).hexdigest()


def split_conversations(convs: Sequence[Conversation], spec: SplitSpec | None = None, *,
                        seed: int = 0) -> dict[str, list[Conversation]]:
    """The splits, each in input order (sizes that add up to less than the data leave the rest out)."""
    spec = spec or SplitSpec()
    ids = [c.id for c in convs]
    if len(set(ids)) != len(ids):
        raise ValueError("conversation ids must be unique to split a dataset")
    shuffled = sorted(range(len(convs)), key=lambda i: _rank(seed, convs[i].id))
    out: dict[str, list[Conversation]] = {}
    start = 0
    for name, count in zip(spec.names, spec.counts(len(convs)), strict=True):
        chosen = sorted(shuffled[start:start + count])
        out[name] = [convs[i] for i in chosen]
        start += count
    return out


def write_splits(splits: dict[str, list[Conversation]], out_dir: str | Path, *,
                 formats: Sequence[str] = FORMATS, seed: int = 0,
                 spec: SplitSpec | None = None) -> dict[str, str]:
    """``<out>/<split>.jsonl`` and/or ``<out>/hf`` (``DatasetDict.save_to_disk``), and a manifest."""
    unknown = sorted(set(formats) - set(FORMATS))
    if unknown:
        raise ValueError(f"unknown format {', '.join(unknown)}: choose from {', '.join(FORMATS)}")
    out = Path(out_dir)
    written: dict[str, str] = {}
    if "jsonl" in formats:
        for name, convs in splits.items():
            written[name] = str(save_conversations(convs, out / f"{name}.jsonl"))
    if "hf" in formats:
        from inscoqa.hf import save_to_disk

        written["hf"] = str(save_to_disk(splits, out / "hf"))
    manifest = {"seed": seed, "ratios": spec.ratios if spec else None,
                "sizes": spec.sizes if spec else None,
                "splits": {name: [c.id for c in convs] for name, convs in splits.items()}}
    atomic_write_text(out / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    written["manifest"] = str(out / MANIFEST)
    return written
