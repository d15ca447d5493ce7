"""Sources: the section a source names, from its unit's section path and its page's title."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from procmem.answerers import Answer, Source, section_label
from procmem.answerers.retrieval import sources_from_hits
from procmem.records import Hit
from procmem.units import Chunk

MANUAL = "The Claws Mail User Manual"


@pytest.mark.parametrize(("section", "title", "label"), [
    (f"{MANUAL} > Basic mail handling > Filtering", MANUAL, "Basic mail handling > Filtering"),
    (f"{MANUAL} > Filtering", MANUAL, "Filtering"),
    (MANUAL, MANUAL, ""),  # the page itself names no section
    ("the claws mail  user manual > Filtering", MANUAL, "Filtering"),
    ("Basic mail handling > Filtering", MANUAL, "Basic mail handling > Filtering"),
    (f"Setup > {MANUAL}", MANUAL, f"Setup > {MANUAL}"),  # only the first heading is the page's
    ("Redirect a > b output > Steps", "Redirect", "Redirect a > b output > Steps"),
    ("Filtering", "", "Filtering"),
    ("", MANUAL, ""),
    (None, None, ""),
])
def test_section_label_leaves_out_the_page_title(section, title, label):
    assert section_label(section, title) == label


def chunk(text: str, **meta: str) -> Chunk:
    return Chunk(text, {"doc_id": "en/claws-mail-manual.html", "title": MANUAL, **meta})


def test_sources_name_their_units_section_without_the_page_title():
    units = [chunk("Open the filter dialog.", section=f"{MANUAL} > Basic mail handling > Filtering"),
             chunk("Choose Create new account.", section=f"{MANUAL} > Account customisation"),
             chunk("Welcome to Claws Mail.")]  # no section at all
    sources = sources_from_hits([Hit(u, 0.5, i, "bm25") for i, u in enumerate(units)])
    assert [s.section for s in sources] == ["Basic mail handling > Filtering",
                                           "Account customisation", ""]
    assert {s.title for s in sources} == {MANUAL}


def test_the_section_is_the_last_field_and_saved_with_the_answer():
    source = Source("d.md", "D", "snippet", "u1", 0.5, "Setup")  # positionally, in this order
    assert (source.score, source.section) == (0.5, "Setup")
    assert Source("d.md", "D").section == ""
    saved = json.loads(json.dumps(Answer("Do it.", ["Do it. [1]"], [source]).to_dict()))
    assert saved["sources"] == [asdict(source)] and saved["sources"][0]["section"] == "Setup"
