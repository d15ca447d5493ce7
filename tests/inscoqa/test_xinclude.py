"""XInclude in help pages: the sections a page shares with others of its folder are read into
it (Evolution's ``*-searching.page`` files include "Saved Searches" from one file)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from inscoqa.corpus import read_document
from inscoqa.corpus.xinclude import resolve_includes, select

MAL = "http://projectmallard.org/1.0/"
SHARED = f"""\
<info xmlns="{MAL}">
<section id="saved-searches">
<title>Saved Searches</title>
<p>To keep a search, click <gui>Save</gui> in the search dialog, or choose
<guiseq><gui>Search</gui><gui>Save Search</gui></guiseq> once its results are shown.</p>
</section>
<section id="clearing">
<title>Clearing the search</title>
<p>Click the <gui>Clear</gui> icon in the search field.</p>
</section>
</info>
"""


def page(body: str, page_id: str = "mail-searching") -> str:
    return f"""\
<page xmlns="{MAL}" type="topic" id="{page_id}">
<info><include xmlns="http://www.w3.org/2001/XInclude" href="legal.xml"/></info>
<title>Searching mail</title>
<p>Type in the search field above the message list.</p>
{body}
<p>The search looks in the current folder.</p>
</page>
"""


SECTIONS = ('<include xmlns="http://www.w3.org/2001/XInclude" href="shared-searching.xml" '
            f'xpointer="xmlns(mal={MAL})xpointer(/mal:info/mal:section)"/>')


def test_a_page_reads_the_sections_its_include_points_to(tmp_path: Path) -> None:
    (tmp_path / "shared-searching.xml").write_text(SHARED, encoding="utf-8")
    (tmp_path / "mail-searching.page").write_text(page(SECTIONS), encoding="utf-8")
    doc = read_document(tmp_path / "mail-searching.page", doc_id="evolution/mail-searching.page")
    assert "## Saved Searches" in doc.text and "## Clearing the search" in doc.text
    assert "**Search** > **Save Search**" in doc.text
    # in the page's order, the text after the include after its sections
    assert doc.text.index("search field above") < doc.text.index("Saved Searches") \
        < doc.text.index("looks in the current folder")
    assert "unresolved_includes" not in doc.meta  # the license in its info is not looked for


def test_an_include_by_id_reads_that_element_alone(tmp_path: Path) -> None:
    (tmp_path / "shared-searching.xml").write_text(SHARED, encoding="utf-8")
    body = '<include xmlns="http://www.w3.org/2001/XInclude" href="shared-searching.xml" xpointer="clearing"/>'
    (tmp_path / "p.page").write_text(page(body), encoding="utf-8")
    doc = read_document(tmp_path / "p.page", doc_id="help/p.page")
    assert "## Clearing the search" in doc.text and "Saved Searches" not in doc.text


def test_an_include_of_another_page_is_left_to_that_page(tmp_path: Path) -> None:
    """A page is a document of its own: one that includes its sections would hold them twice."""
    (tmp_path / "other.page").write_text(page("", "other"), encoding="utf-8")
    body = '<include xmlns="http://www.w3.org/2001/XInclude" href="other.page" xpointer="other"/>'
    (tmp_path / "p.page").write_text(page(body), encoding="utf-8")
    doc = read_document(tmp_path / "p.page", doc_id="help/p.page")
    assert doc.text.count("Type in the search field") == 1
    assert "unresolved_includes" not in doc.meta


def test_an_include_that_finds_nothing_gives_its_fallback_and_is_named(tmp_path: Path) -> None:
    missing = ('<include xmlns="http://www.w3.org/2001/XInclude" href="gone.xml">'
               '<fallback xmlns="http://www.w3.org/2001/XInclude"><p>See the online help.</p></fallback></include>')
    bad_pointer = ('<include xmlns="http://www.w3.org/2001/XInclude" href="shared-searching.xml" '
                   'xpointer="xpointer(//mal:section[2])"/>')
    (tmp_path / "shared-searching.xml").write_text(SHARED, encoding="utf-8")
    (tmp_path / "p.page").write_text(page(missing + bad_pointer), encoding="utf-8")
    doc = read_document(tmp_path / "p.page", doc_id="help/p.page")
    assert "See the online help." in doc.text
    assert "Saved Searches" not in doc.text
    assert doc.meta["unresolved_includes"] == ["gone.xml", "shared-searching.xml#xpointer(//mal:section[2])"]


def test_a_file_that_includes_itself_stops(tmp_path: Path) -> None:
    loop = f"""<info xmlns="{MAL}"><section id="s"><title>Loop</title><p>Once.</p>
<include xmlns="http://www.w3.org/2001/XInclude" href="loop.xml" xpointer="s"/></section></info>"""
    (tmp_path / "loop.xml").write_text(loop, encoding="utf-8")
    root = ET.fromstring(f'<page xmlns="{MAL}"><include xmlns="http://www.w3.org/2001/XInclude" '
                         'href="loop.xml" xpointer="s"/></page>')
    assert resolve_includes(root, tmp_path) == ["loop.xml#s"]
    assert "".join(root.itertext()).count("Once.") == 1


@pytest.mark.parametrize(("pointer", "ids"), [
    (None, ["root"]),
    ("b", ["b"]),
    ("element(b)", ["b"]),
    (f"xmlns(m={MAL})xpointer(/m:info/m:section)", ["a", "b"]),
    (f"xmlns(m={MAL})xpointer(/m:page/m:section)", []),  # another root
    ("xpointer(/info/section)", []),  # no namespace: Mallard's elements are not these
    ("xpointer(id('b'))", []),  # a function: not read
])
def test_select(pointer: str | None, ids: list[str]) -> None:
    document = ET.fromstring(f'<info xmlns="{MAL}" id="root"><section id="a"/><section xml:id="b"/></info>')
    xml_id = "{http://www.w3.org/XML/1998/namespace}id"
    assert [el.get("id") or el.get(xml_id) for el in select(document, pointer)] == ids


def test_a_page_reads_no_file_outside_its_folder(tmp_path: Path) -> None:
    """A page a user uploads is read like any other: its includes must not bring in the files
    of the machine that reads it."""
    (tmp_path / "secret.xml").write_text(f'<info xmlns="{MAL}"><p>The server password.</p></info>', encoding="utf-8")
    folder = tmp_path / "help"
    folder.mkdir()
    body = ('<include xmlns="http://www.w3.org/2001/XInclude" href="../secret.xml"/>'
            f'<include xmlns="http://www.w3.org/2001/XInclude" href="{tmp_path / "secret.xml"}"/>')
    (folder / "p.page").write_text(page(body), encoding="utf-8")
    doc = read_document(folder / "p.page", doc_id="help/p.page")
    assert "password" not in doc.text
    assert doc.meta["unresolved_includes"] == ["../secret.xml", str(tmp_path / "secret.xml")]
