"""Logic units of a useful size: a long body is split into parts linked by CONTINUE.

A body longer than ``max_words`` is cut at paragraph boundaries, then before list items (a step
keeps its notes and sub-items), then at lines and sentences, and neighbouring pieces are packed
back together up to the limit (:func:`procmem.chunking.recursive_split`). Every part keeps the
unit's type and prerequisite; its header is the unit's header with ``(part i of n)``; each part
but the last links to the next with ``[CONTINUE] if this part is done then <next header>``; a
short piece that only leads to the next ("To add an entry, perform the following steps:") is
joined to it, even past the limit; a part that starts with a list keeps the sentence before it
that leads to the list (``lead_in``, in its ``meta``), and one that starts inside a code block
cut between two parts keeps the block's first line (``code_lead``: a command's usage line over
the rest of its options); each
of the unit's own linkers goes with the part whose text names where it leads (a link's words),
the others with the last part (a page of contents kept its 1,333 links' linkers on its last part,
whose text read 12,735 words for 139 of its own). A blank line inside a code block is no paragraph
boundary (a shell session's output stays with the command that printed it); a code block too long
for one part is cut between two parts at a line, closed at the end of the first and opened again
(with its language) at the start of the next, so each part's code stays code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from procmem.chunking import FENCE, Separator, n_words, split_keeping_code, with_fences
from procmem.units import Linker, LogicUnit

DEFAULT_UNIT_WORDS = 200
PART_DONE = "this part is done"
ITEM_START = r"\s{0,3}(?:\d{1,3}[.)]|[-*+])\s"  # a list item's marker at the start of a line
SEPARATORS: tuple[Separator, ...] = ((r"\n\s*\n", "\n\n"), (rf"\n(?={ITEM_START})", "\n\n"),
                                     (r"\n", "\n"), (r"(?<=[.!?])\s+", " "), (r"\s+", " "))


def split_logic_unit(unit: LogicUnit, max_words: int = DEFAULT_UNIT_WORDS) -> list[LogicUnit]:
    """``[unit]`` when its body fits, else its parts in order (``max_words`` 0: never split)."""
    if max_words <= 0 or n_words(unit.body) <= max_words:
        return [unit]
    raw = _leads_kept_on(piece for piece in split_keeping_code(unit.body, max_words, SEPARATORS) if piece.strip())
    pieces = with_fences(raw)
    if len(pieces) < 2:
        return [unit]
    total = len(pieces)
    parts = [replace(unit, header=f"{unit.header} (part {i} of {total})", body=piece, linker=[],
                     meta={**unit.meta, "part": i, "parts": total, "split_from": unit.id,
                           **({"lead_in": lead_in} if (lead_in := _lead_in(pieces[i - 2], piece) if i > 1 else "")
                              else {}),
                           **({"code_lead": code_lead} if code_lead else {})})
             for i, (piece, code_lead) in enumerate(zip(pieces, _code_leads(raw), strict=True), 1)]
    for link in unit.linker:  # where the link or sentence it comes from is, else after the last part
        place = next((part for part in parts if link.next and link.next in part.body), parts[-1])
        place.linker.append(link)
    for part, following in zip(parts, parts[1:], strict=False):
        part.linker.append(Linker(PART_DONE, following.header, "CONTINUE", following.header))
    return parts


_ITEM = re.compile(f"^{ITEM_START}")
LEAD_WORDS = 40  # a piece this short that ends with ":" only leads to the next


def _leads_kept_on(pieces: Iterable[str]) -> list[str]:
    """The pieces, each that only leads to the next (at most :data:`LEAD_WORDS` words of prose
    ending with ":", "To add an entry, perform the following steps:") joined to it: the steps
    are too long to share a part with the sentence before them, and a part of that sentence
    alone says nothing."""
    out: list[str] = []
    for piece in pieces:
        if out and out[-1].rstrip().endswith(":") and n_words(out[-1]) <= LEAD_WORDS \
                and not any(FENCE.match(line) for line in out[-1].splitlines()):
            piece = f"{out.pop().rstrip()}\n\n{piece.lstrip()}"
        out.append(piece)
    return out


def _lead_in(before: str, piece: str) -> str:
    """The sentence that leads to the list a part starts with, when the part before ends with it
    ("… does not forward any recursive query for which:"): kept in the part's ``meta`` as
    ``lead_in``, so the list is read as that sentence says, while the part's text stays its own."""
    last = before.rstrip().rsplit("\n", 1)[-1].strip()
    return last if _ITEM.match(piece) and last.endswith(":") and not _ITEM.match(last) else ""


def _code_leads(pieces: list[str]) -> list[str]:
    """For each piece, the first line of the code block it starts inside of (one cut between it
    and the piece before: "Usage:  docker run [OPTIONS] IMAGE [COMMAND] [ARG...]" over the rest of
    the command's options), kept in the part's ``meta`` as ``code_lead``; "" for the others."""
    leads: list[str] = []
    opened, first = False, ""
    for piece in pieces:
        leads.append(first if opened else "")
        for line in piece.splitlines():
            if FENCE.match(line):
                opened, first = not opened, ""
            elif opened and not first and line.strip():
                first = line.strip()
    return leads


def split_logic_units(units: list[LogicUnit], max_words: int = DEFAULT_UNIT_WORDS) -> list[LogicUnit]:
    return [part for unit in units for part in split_logic_unit(unit, max_words)]
