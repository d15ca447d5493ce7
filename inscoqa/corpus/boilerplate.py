"""What a site repeats at the top or the bottom of many of its pages: a help popup, a "Still
need help?" footer, a navigation bar.

Blocks (paragraphs and headings between blank lines; code is never one) that many documents of
a corpus, or of one part of it (its first folder), contain are the site's repeated blocks. A
document loses the run of them it ends with, and the run it starts with after its title, up to
the last heading in that run (a "## Symptoms" that the page's own text follows stays). The same
block in the middle of a page is content that pages share (the options several command pages
describe alike) and stays. So a search does not find every page by its chrome, and an answer
does not give "Go to the community" as a step.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

MIN_DOCUMENTS = 5  # a block repeated on fewer pages than this is kept
TOP_SHARE = 0.25  # a block at the top of a page is chrome on at least this share of the pages
BOTTOM_SHARE = 0.1  # ... at the bottom (a footer that ends a tenth of the pages word for word)


@dataclass(frozen=True)
class Chrome:
    """The repeated blocks of a set of pages (stripped), by the edge they are left out at."""

    top: frozenset[str] = frozenset()
    bottom: frozenset[str] = frozenset()

    def __or__(self, other: Chrome) -> Chrome:
        return Chrome(self.top | other.top, self.bottom | other.bottom)


def save_chrome(path: Path, chrome: dict[str, Chrome]) -> None:
    """Keep the chrome found per corpus or part in a JSON file (written whole, then renamed);
    a cache that cannot be written is only not kept."""
    data = {part: {"top": sorted(c.top), "bottom": sorted(c.bottom)} for part, c in chrome.items()}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def load_chrome(path: Path) -> dict[str, Chrome] | None:
    """What :func:`save_chrome` kept, or None when there is none that can be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {part: Chrome(frozenset(c["top"]), frozenset(c["bottom"])) for part, c in data.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def site_part(doc_id: str) -> str:
    """The part of a corpus whose pages may share chrome of their own: ``corpus/first-folder``
    for a document in a folder, else the corpus (``officedocs/SharePoint``, ``gnome-help``)."""
    parts = doc_id.split("/")
    return "/".join(parts[:2] if len(parts) > 2 else parts[:1])


def blocks(text: str) -> list[str]:
    return text.split("\n\n")


def _comparable(block: str) -> bool:
    text = block.strip()
    return bool(text) and "```" not in text and "~~~" not in text


def repeated_blocks(texts: Iterable[str]) -> Chrome:
    """The blocks that at least :data:`MIN_DOCUMENTS` of ``texts`` contain, and at least
    :data:`TOP_SHARE` (:data:`BOTTOM_SHARE`) of them."""
    counts: Counter[str] = Counter()
    n = 0
    for text in texts:
        n += 1
        counts.update({b.strip() for b in blocks(text) if _comparable(b)})

    def found(share: float) -> frozenset[str]:
        bar = max(MIN_DOCUMENTS, share * n)
        return frozenset(b for b, count in counts.items() if count >= bar)

    return Chrome(top=found(TOP_SHARE), bottom=found(BOTTOM_SHARE))


def without_blocks(text: str, chrome: Chrome) -> tuple[str, int]:
    """``text`` without its chrome at the top (after its ``# title``) and at the bottom (blank
    blocks pass), and how many blocks were left out."""
    parts = blocks(text)

    def repeated(i: int, found: frozenset[str]) -> bool:
        block = parts[i].strip()
        return not block or (_comparable(block) and block in found)

    start = 1 if parts and parts[0].startswith("# ") else 0
    first = start
    while first < len(parts) and repeated(first, chrome.top):
        first += 1
    headings = [i for i in range(start, first) if parts[i].lstrip().startswith("#")]
    if first < len(parts) and headings:
        first = headings[-1]  # the page's own text follows the last heading
    last = len(parts)
    while last > first and repeated(last - 1, chrome.bottom):
        last -= 1
    dropped = sum(1 for b in parts[start:first] + parts[last:] if b.strip())
    if not dropped:
        return text, 0
    return "\n\n".join(parts[:start] + parts[first:last]).rstrip("\n") + "\n", dropped


__all__ = ["BOTTOM_SHARE", "Chrome", "MIN_DOCUMENTS", "TOP_SHARE", "load_chrome", "repeated_blocks",
           "save_chrome", "site_part", "without_blocks"]
