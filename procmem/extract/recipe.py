"""Recipes: ingredients are the procedure's input, directions its steps, the title its output.

A recipe whose directions have sub-headings ("Pizza sauce", "Dough") also gives one procedure
per part, with the ingredients listed under the same sub-heading as its input when there are.
Units: a Step unit with the directions (prerequisite = the ingredients), an Appendix with the
ingredient list, one Step unit per directions part, and an Appendix for the introduction. The
procedures and Step units keep the recipe's ingredient lines in ``meta["ingredients"]`` (the
input joins them with commas, which some lines hold too), so an answer can give each step's
amounts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from procmem.extract.base import Extraction, unit_meta, with_title
from procmem.extract.linkers import find_linkers
from procmem.extract.markdown import Section, one_line
from procmem.extract.roles import heading_role
from procmem.units import LogicUnit, Procedure

if TYPE_CHECKING:
    from inscoqa.corpus.document import Document


def is_recipe(doc: Document, sections: list[Section]) -> bool:
    if doc.meta.get("format") == "recipe":
        return True
    roles = {heading_role(s.heading) for s in sections}
    return {"ingredients", "directions"} <= roles


def _part(sections: list[Section], role: str) -> list[Section]:
    """The section with that role and its subsections."""
    out: list[Section] = []
    level = None
    for section in sections:
        if level is not None and section.level <= level:
            break
        if level is None and heading_role(section.heading) == role:
            level = section.level
        if level is not None:
            out.append(section)
    return out


def _items(section: Section) -> list[str]:
    return [one_line(item.text) for b in section.blocks if b.kind == "list" for item in b.items]


def _ingredients_text(parts: list[Section]) -> str:
    groups = []
    for i, section in enumerate(parts):
        items = _items(section)
        if items:
            groups.append(", ".join(items) if i == 0 else f"{section.heading}: {', '.join(items)}")
    return "; ".join(groups)


def extract_recipe(doc: Document, sections: list[Section]) -> Extraction:
    extraction = Extraction(doc_id=doc.doc_id, method="rules")
    title = doc.title
    ingredient_parts = _part(sections, "ingredients")
    direction_parts = _part(sections, "directions")
    ingredients = _ingredients_text(ingredient_parts)
    ingredient_lines = [item for part in ingredient_parts for item in _items(part)]
    steps = [s for part in direction_parts for s in _items(part)]
    order = iter(range(1, 10_000))

    def meta(section: str, **extra: object) -> dict:
        return unit_meta(doc, method="rules", section=section, order=next(order), **extra)

    def directions_meta(section: str) -> dict:
        return meta(section, ingredients=ingredient_lines)

    if steps:
        extraction.procedures.append(Procedure(ingredients, title, steps, directions_meta("Directions")))
        body = "\n\n".join(s.text for s in direction_parts if s.text)
        unit = LogicUnit("Step", f"Ingredients: {ingredients}", f"How to make {title}", body,
                         meta=directions_meta("Directions"))
        unit.linker = find_linkers(body, doc_id=doc.doc_id)
        extraction.logic_units.append(unit)
    if ingredients:
        body = "\n\n".join((f"### {s.heading}\n\n" if i else "") + s.text
                           for i, s in enumerate(ingredient_parts) if s.text)
        unit = LogicUnit("Appendix", "", f"Ingredients for {title}", body, meta=meta("Ingredients"))
        unit.linker = find_linkers(body, doc_id=doc.doc_id)
        extraction.logic_units.append(unit)
    for part in direction_parts[1:]:
        part_steps = _items(part)
        if not part_steps:
            continue
        matching = [s for s in ingredient_parts[1:] if fuzz.token_set_ratio(s.heading, part.heading) >= 80]
        part_input = ", ".join(_items(matching[0])) if matching else ""
        goal = with_title(part.heading, title)
        extraction.procedures.append(Procedure(part_input, goal, part_steps,
                                               directions_meta(f"Directions > {part.heading}")))
        unit = LogicUnit("Step", f"Ingredients: {part_input}" if part_input else "", goal, part.text,
                         meta=directions_meta(f"Directions > {part.heading}"))
        unit.linker = find_linkers(part.text, doc_id=doc.doc_id)
        extraction.logic_units.append(unit)
    intro = "\n\n".join(s.text for s in sections if s.level <= 1 and s.text.strip())
    if len(intro.split()) >= 8:
        unit = LogicUnit("Appendix", "", f"About {title}", intro, meta=meta(title))
        unit.linker = find_linkers(intro, doc_id=doc.doc_id)
        extraction.logic_units.append(unit)
    extraction.structured = bool(extraction.procedures)
    return extraction.dedupe()
