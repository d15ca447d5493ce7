"""Merging logic units whose headers are near-identical (THREAD's merge step).

Two units of the same type from different documents are merged when their headers score at least
``threshold`` (0-100) under rapidfuzz's ``token_sort_ratio`` on case-folded text, and so do their
goals: the headers without the document title that extraction appends for context ("Install
(Guide)"), so that short section names under one long title ("`close` (Node.js Documentation)",
"`open` (Node.js Documentation)") are not taken for one unit, and the headers' words with digits
(error codes, versions: "550 5.7.12", "Exchange Server 2003") are the same, and a word that one
has in place of a word of the other is a spelling of it ("folder", "folders"; not "files",
"folders": :func:`same_subject`); headers that carry their
pages' titles merge only when the titles are near-identical too ("Synopsis (npm-install)" and
"Synopsis (npm-uninstall)" are different sections). Sections of one document are never
merged: a document names its sections apart; nor are sections written in two languages (a page
and its translation). Merging is transitive (union-find).
A merged unit keeps the first header, the distinct prerequisites, the bodies labelled with their
source titles and the union of linkers; its ``meta`` lists every source (``doc_ids``) and the ids
of its parts (``merged_from``), so a document revision can take exactly its parts out again.
With a chat model, :func:`llm_merge` writes the merged prerequisite/body instead.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np
from rapidfuzz import fuzz, process

from procmem.extract.llm import LLMExtractionError, merge_with_llm
from procmem.retrieval.language import text_language
from procmem.units import Linker, LogicUnit, source_line

DEFAULT_THRESHOLD = 92.0


def _key(unit: LogicUnit) -> str:
    return " ".join(unit.header.casefold().split())


def _goal_key(unit: LogicUnit) -> str:
    """The header without the ``" (title)"`` suffix extraction adds for context."""
    header = " ".join(unit.header.casefold().split())
    title = " ".join(str(unit.meta.get("title", "")).casefold().split())
    suffix = f" ({title})"
    return header[:-len(suffix)] if title and header.endswith(suffix) and header != suffix[1:] else header


def _title_key(unit: LogicUnit) -> str:
    return " ".join(str(unit.meta.get("title", "")).casefold().split())


def _same_page_kind(x: LogicUnit, y: LogicUnit, threshold: float) -> bool:
    """Two sections that carry their pages' titles in their headers belong to pages of the same
    title (near-identical): the "Synopsis" of `npm-install` and of `npm-uninstall`, whose
    headers are near-identical only because the titles are, are different sections."""
    if _goal_key(x) == _key(x) or _goal_key(y) == _key(y):
        return True  # a header without its page's title
    return fuzz.token_sort_ratio(_title_key(x), _title_key(y)) >= threshold


def _same_language(x: LogicUnit, y: LogicUnit) -> bool:
    """Two sections not written in two languages (a page and its translation, whose headers are
    the same command or code name: "`impl Trait`")."""
    found = {text_language(f"{u.prerequisite}\n{u.body}") for u in (x, y)} - {""}
    return len(found) < 2


class UnionFind:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _codes(key: str) -> set[str]:
    """The words with a digit: error codes and versions, which no near-identical header may differ in."""
    return {word.strip(".,;:()[]\"'") for word in key.split() if any(c.isdigit() for c in word)}


# a word of one header stands for a word of the other when they are spelt nearly alike: "folder"
# and "folders", "colour" and "color", "organize" and "organise" (rapidfuzz ratio, 0-100)
VARIANT_RATIO = 75.0
_WORD_EDGES = ".,;:()[]\"'`"


def _header_words(key: str) -> set[str]:
    return {word.strip(_WORD_EDGES) for word in key.split()} - {""}


def same_subject(a: str, b: str) -> bool:
    """Whether two near-identical headers name the same thing: every word that one has in place
    of a word of the other is a spelling of it ("Getting started comparing files" and "... comparing
    folders", "Cheesy Pasta Bake" and "Cheesy Potatoe Bake" are different sections, though
    their headers score 92 or more). A header that only adds a word to the other's ("Install Git"
    and "Install Git manually") is left to the threshold, and so is one that writes two words as
    one ("set up", "setup")."""
    only_a, only_b = _header_words(a) - _header_words(b), _header_words(b) - _header_words(a)
    if not only_a or not only_b or a.replace(" ", "") == b.replace(" ", ""):
        return True
    def spelt(words: set[str], other: set[str]) -> bool:
        return all(any(fuzz.ratio(w, o) >= VARIANT_RATIO for o in other) for w in words)
    return spelt(only_a, only_b) or spelt(only_b, only_a)


def _length_window(length: int, threshold: float) -> tuple[float, float]:
    """The lengths a key may have to score ``threshold`` against a key of ``length``: the ratio
    is at most ``1 - |la - lb| / (la + lb)`` (an edit per character of the length difference)."""
    c = 1 - threshold / 100
    return length * (1 - c) / (1 + c) - 1, length * (1 + c) / (1 - c) + 1  # +-1: rounding


def similar_pairs(new: list[LogicUnit], pool: list[LogicUnit],
                  threshold: float = DEFAULT_THRESHOLD) -> list[tuple[str, str]]:
    """``(new id, pool id)`` pairs of the same type and of different documents whose headers and
    goals are near-identical. Each header is compared only with those of a length that can reach
    the threshold, not with every other one."""
    pairs: list[tuple[str, str]] = []
    if not new or not pool or threshold <= 0:
        return pairs
    for unit_type in {u.type for u in new}:
        a = [u for u in new if u.type == unit_type]
        b = [u for u in pool if u.type == unit_type]
        if not b:
            continue
        keys_a, keys_b = [_key(u) for u in a], [_key(u) for u in b]
        by_length = np.argsort([len(k) for k in keys_b], kind="stable")
        lengths = np.array([len(keys_b[j]) for j in by_length])
        rows_of: dict[int, list[int]] = {}
        for i, key in enumerate(keys_a):
            rows_of.setdefault(len(key), []).append(i)
        found: list[tuple[int, int]] = []
        for length, rows in rows_of.items():
            low, high = _length_window(length, threshold)
            cols = by_length[np.searchsorted(lengths, low, "left"):np.searchsorted(lengths, high, "right")]
            if not len(cols):
                continue
            scores = process.cdist([keys_a[i] for i in rows], [keys_b[j] for j in cols],
                                   scorer=fuzz.token_sort_ratio, score_cutoff=threshold, dtype=np.uint8,
                                   workers=-1)
            found += [(rows[i], int(cols[j])) for i, j in zip(*np.nonzero(scores), strict=True)]
        for i, j in sorted(found):
            x, y = a[i], b[j]
            if (x.id != y.id and x.meta.get("doc_id") != y.meta.get("doc_id")
                    and _codes(keys_a[i]) == _codes(keys_b[j])
                    and fuzz.token_sort_ratio(_goal_key(x), _goal_key(y)) >= threshold
                    and same_subject(_goal_key(x), _goal_key(y))
                    and _same_page_kind(x, y, threshold) and _same_language(x, y)):
                pairs.append((x.id, y.id))
    return pairs


def group_units(units: list[LogicUnit], threshold: float = DEFAULT_THRESHOLD,
                *, seed_pairs: Iterable[tuple[str, str]] = ()) -> list[list[LogicUnit]]:
    """Connected groups of near-identical headers, in first-seen order (singletons included)."""
    uf = UnionFind()
    for a, b in [*seed_pairs, *similar_pairs(units, units, threshold)]:
        uf.union(a, b)
    groups: dict[str, list[LogicUnit]] = {}
    for unit in units:
        groups.setdefault(uf.find(unit.id), []).append(unit)
    return list(groups.values())


def merge_units(parts: list[LogicUnit]) -> LogicUnit:
    """One unit from several (a single part comes back unchanged)."""
    if len(parts) == 1:
        return parts[0]
    first = parts[0]
    prerequisites = list(dict.fromkeys(p.prerequisite for p in parts if p.prerequisite))
    bodies: dict[str, str] = {}
    for part in parts:
        bodies.setdefault(part.body.strip(), part.meta.get("title", ""))
    body = "\n\n".join(f"{source_line(title)}\n{text}" if title else text for text, title in bodies.items())
    linkers: list[Linker] = []
    seen: set[tuple[str, str, str, str]] = set()
    for link in (link for p in parts for link in p.linker):
        key = (link.condition, link.next, link.tag, link.target)
        if key not in seen:
            seen.add(key)
            linkers.append(link)
    return LogicUnit(first.type, "; ".join(prerequisites), first.header, body, linkers,
                     merged_meta(parts))


def merged_meta(parts: list[LogicUnit]) -> dict[str, Any]:
    meta = dict(parts[0].meta)
    meta["doc_ids"] = list(dict.fromkeys(p.meta.get("doc_id", "") for p in parts))
    meta["merged_from"] = [p.id for p in parts]
    meta["date"] = max(str(p.meta.get("date", "")) for p in parts)
    meta["content_hash"] = hashlib.sha256(
        "".join(str(p.meta.get("content_hash", "")) for p in parts).encode()
    ).hexdigest()[:16]
    return meta


def llm_merge(parts: list[LogicUnit], llm: Any) -> LogicUnit:
    """Merge with a chat model (prerequisite, body, linkers); falls back to the rule merge on error."""
    merged = merge_units(parts)
    try:
        return merge_with_llm(parts, merged, llm)
    except LLMExtractionError:
        return merged


class MergeGroups:
    """Which logic units are merged into which, kept up to date as documents come and go.

    Only the units a change touches are compared again: new units against all units of their
    type, and the remaining parts of any merged unit that lost a part.
    """

    def __init__(self, threshold: float = DEFAULT_THRESHOLD,
                 merger: Callable[[list[LogicUnit]], LogicUnit] = merge_units):
        self.threshold = threshold
        self.merger = merger
        self.merged: dict[str, LogicUnit] = {}
        self.parts_of: dict[str, list[str]] = {}
        self.group_of: dict[str, str] = {}

    def is_hidden(self, part_id: str) -> bool:
        return part_id in self.group_of

    def restore(self, merged_units: list[LogicUnit]) -> None:
        for unit in merged_units:
            self._register(unit, list(unit.meta.get("merged_from", [])))

    def _register(self, unit: LogicUnit, part_ids: list[str]) -> None:
        self.merged[unit.id] = unit
        self.parts_of[unit.id] = part_ids
        for p in part_ids:
            self.group_of[p] = unit.id

    def _dissolve(self, merged_id: str) -> list[str]:
        self.merged.pop(merged_id, None)
        part_ids = self.parts_of.pop(merged_id, [])
        for p in part_ids:
            self.group_of.pop(p, None)
        return part_ids

    def update(self, parts: Mapping[str, LogicUnit], new_ids: list[str], removed_ids: set[str]) -> int:
        """Regroup after ``removed_ids`` left and ``new_ids`` arrived; returns merged units changed."""
        if self.threshold <= 0:  # merging off: only take merged units apart that lost a part
            affected = {self.group_of[p] for p in removed_ids if p in self.group_of}
            for merged_id in affected:
                self._dissolve(merged_id)
            return len(affected)
        uf = UnionFind()
        touched: set[str] = set(new_ids)
        for merged_id in {self.group_of[p] for p in removed_ids if p in self.group_of}:
            remaining = [parts[p] for p in self._dissolve(merged_id) if p in parts]
            touched |= {u.id for u in remaining}
            for a, b in similar_pairs(remaining, remaining, self.threshold):
                uf.union(a, b)
        new_units = [parts[i] for i in new_ids]
        pool = [u for i, u in parts.items() if i not in touched]
        for a, b in similar_pairs(new_units, pool + new_units, self.threshold):
            uf.union(a, b)
            touched.add(b)
        for p in list(touched):
            for q in self.parts_of.get(self.group_of.get(p, ""), []):
                uf.union(p, q)
                touched.add(q)
        # the groups in the order of their first part, whatever the order of a set of strings
        # (which changes from one run to the next): the same documents make the same memory
        order = {part_id: i for i, part_id in enumerate(parts)}
        components: dict[str, list[str]] = {}
        for p in sorted(touched, key=lambda p: order.get(p, 0)):
            components.setdefault(uf.find(p), []).append(p)
        changed = 0
        for members in components.values():
            for merged_id in {self.group_of[p] for p in members if p in self.group_of}:
                self._dissolve(merged_id)
            if len(members) >= 2:
                members.sort(key=lambda p: order.get(p, 0))
                self._register(self.merger([parts[p] for p in members]), members)
                changed += 1
        return changed
