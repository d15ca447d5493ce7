"""README and the pages under docs/ link to each other and to their sections: every link to a
Markdown page of the repository must lead to a file that exists, and a link to a section to a
heading of that page. (Links to other files are the documents' own, quoted as examples.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+)$", re.M)


def prose(text: str) -> str:
    """``text`` without its code blocks and code spans, whose brackets quote pages, not link."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {anchor(h) for h in HEADING.findall(prose(page.read_text(encoding="utf-8")))}


def page_links(page: Path) -> list[str]:
    """The links of ``page`` to Markdown pages by a relative path, with their sections if any."""
    return [t for t in LINK.findall(prose(page.read_text(encoding="utf-8")))
            if not re.match(r"[a-z]+:", t) and t.partition("#")[0].endswith(".md")]


def test_the_pages_are_found_and_link_to_each_other():
    assert {p.name for p in PAGES} >= {"README.md", "history.md", "retrieval.md", "answers.md", "embedding.md"}
    assert {"docs/retrieval.md", "docs/answers.md", "docs/embedding.md", "docs/history.md"} <= \
        {t.partition("#")[0] for t in page_links(ROOT / "README.md")}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_to_a_page_leads_to_a_file_and_section_that_exist(page: Path):
    broken = []
    for target in page_links(page):
        path, _, section = target.partition("#")
        file = (page.parent / path).resolve()
        if not file.exists():
            broken.append(f"{target}: no file {file}")
        elif section and section not in anchors(file):
            broken.append(f"{target}: no heading with the anchor #{section} in {file.name}")
    assert not broken, f"{page.name}: " + "; ".join(broken)


def test_the_anchor_of_a_heading_is_githubs():
    assert anchor("Answers without a model, and answerers over given documents") == \
        "answers-without-a-model-and-answerers-over-given-documents"
    assert anchor("Set-up: two commands") == "set-up-two-commands"
