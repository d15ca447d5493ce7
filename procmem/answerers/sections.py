"""How a section stands among its page's: a section split for size and its parts, and one that
introduces the sections below it (its notes alone, what one can do, a pointer on).

The extractive answerer reads a split section on into its next part, from its first part, and
lets a section that introduces the answer bring the ones below it (:mod:`procmem.answerers.gathering`,
:func:`procmem.answerers.extractive.select`).
"""

from __future__ import annotations

import re

from inscoqa.corpus.common import NOTE_LABELS
from procmem.answerers.candidates import is_labelled_list
from procmem.answerers.clauses import defines, describes
from procmem.answerers.lead import is_faq
from procmem.answerers.steps import unit_steps
from procmem.units import LogicUnit, Unit, own_header, part_count, part_number

_NOTE = re.compile(rf"^(?:{NOTE_LABELS})\s*:", re.I)  # a note's words: "Warning: Make sure …"
_CAN = re.compile(r"^(?:you|users?|one)\s+can\s+(?:also\s+|even\s+)?\w", re.I)  # "You can even override …"
# a section split for size into at most this many parts is read from its start; a longer one is
# a reference's list of entries (aptitude's 32 parts of configuration options), each its own
FIRST_PART_OF = 3
# a section split into at most this many parts is one procedure read on into its next part (a
# 1,200-word section); a longer one is a list of entries, each its own
NEXT_PART_OF = 6


def points_on(unit: Unit) -> bool:
    """A section whose one step points on to the sections below it ("Now we need to edit the
    configuration file that starts Varnish."): not an FAQ entry or a section whose header asks a
    question (its step is the answer), nor a step that is an entry ("update: Updates the list of
    available packages") or says what something is ("rotatelogs is a simple program …")."""
    steps = unit_steps(unit)
    return isinstance(unit, LogicUnit) and len(steps) == 1 and not is_faq(unit) \
        and not defines(steps[0]) and not describes(steps[0])


def cautions_only(unit: Unit) -> bool:
    """A section whose steps are all its notes' words (Knot DNS's "Automatic DNSSEC signing",
    which names the two ways to sign and warns "Make sure to set the KASP database permissions
    correctly.", its steps in the sections below)."""
    steps = unit_steps(unit)
    return isinstance(unit, LogicUnit) and bool(steps) and all(_NOTE.match(step) for step in steps)


def possibilities_only(unit: Unit) -> bool:
    """A section whose one or two steps only say what one can do, in prose without code
    (Django's "Overriding admin templates": "You can override many of the templates which the
    admin module uses …", "You can even override a few of these templates for a specific app, or
    a specific model."): it introduces what the sections below it say how to do."""
    steps = unit_steps(unit)
    return isinstance(unit, LogicUnit) and 0 < len(steps) <= 2 \
        and all(_CAN.match(step) and "`" not in step and ": " not in step for step in steps)


def continues(unit: Unit, earlier: Unit) -> bool:
    """Whether ``unit`` is the part after ``earlier`` of one section of a page split for size."""
    return isinstance(unit, LogicUnit) and isinstance(earlier, LogicUnit) \
        and unit.meta.get("doc_id") == earlier.meta.get("doc_id") \
        and part_number(unit) == part_number(earlier) + 1 and own_header(unit) == own_header(earlier)


def steps_going_on(unit: Unit) -> list[str]:
    """The steps of a part of a section split into at most :data:`NEXT_PART_OF` parts, not its
    last, that may go on in its next part: none for a list of entries (:func:`is_labelled_list`:
    the next part of `apache2ctl`'s options is more options)."""
    if not (isinstance(unit, LogicUnit) and part_number(unit) < part_count(unit) <= NEXT_PART_OF):
        return []
    steps = unit_steps(unit)
    return [] if is_labelled_list(steps) else steps


def goes_on(unit: Unit, earlier: Unit, shown: int) -> bool:
    """Whether the steps of ``earlier`` go on in ``unit``, its next part (:func:`continues`,
    :func:`steps_going_on`): it has steps, at most ``shown`` (an answer gives them all). A
    longer part's last steps are in its page's procedure, which its next part would push out (a
    lasagna's "Place the tray in the centre of your oven")."""
    return continues(unit, earlier) and 0 < len(steps_going_on(earlier)) <= shown
