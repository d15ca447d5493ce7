"""Logic units of a useful size: a long body is split into parts linked by CONTINUE.

A body longer than ``max_words`` is cut at paragraph boundaries, then before list items (a step
keeps its notes and sub-items), then at lines and sentences, and neighbouring pieces are packed
back together up to the limit (:func:`procmem.chunking.recursive_split`). Every part keeps the
unit's type and prerequisite; its header is the unit's header with ``(part i of n)``; each part
but the last links to the next with ``[CONTINUE] if this part is done then <next header>``, and
the last part keeps the unit's own linkers.
"""

from __future__ import annotations

from dataclasses import replace

from procmem.chunking import Separator, n_words, recursive_split
from procmem.units import Linker, LogicUnit

DEFAULT_UNIT_WORDS = 200
PART_DONE = "this part is done"
SEPARATORS: tuple[Separator, ...] = ((r"\n\s*\n", "\n\n"), (r"\n(?=\s{0,3}(?:\d{1,3}[.)]|[-*+])\s)", "\n\n"),
                                     (r"\n", "\n"), (r"(?<=[.!?])\s+", " "), (r"\s+", " "))


def split_logic_unit(unit: LogicUnit, max_words: int = DEFAULT_UNIT_WORDS) -> list[LogicUnit]:
    """``[unit]`` when its body fits, else its parts in order (``max_words`` 0: never split)."""
    if max_words <= 0 or n_words(unit.body) <= max_words:
        return [unit]
    pieces = recursive_split(unit.body, max_words, SEPARATORS)
    if len(pieces) < 2:
        return [unit]
    total = len(pieces)
    parts = [replace(unit, header=f"{unit.header} (part {i} of {total})", body=piece, linker=[],
                     meta={**unit.meta, "part": i, "parts": total, "split_from": unit.id})
             for i, piece in enumerate(pieces, 1)]
    for part, following in zip(parts, parts[1:], strict=False):
        part.linker.append(Linker(PART_DONE, following.header, "CONTINUE", following.header))
    parts[-1].linker = list(unit.linker)
    return parts


def split_logic_units(units: list[LogicUnit], max_words: int = DEFAULT_UNIT_WORDS) -> list[LogicUnit]:
    return [part for unit in units for part in split_logic_unit(unit, max_words)]
