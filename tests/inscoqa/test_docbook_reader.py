"""The DocBook XML reader: a book's files as its help publishes them (Gnumeric's: a main file
that declares the entities, chapters of their own that use them), and a folder of them built
into a memory that answers from their procedures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inscoqa.cli import main
from inscoqa.corpus import CorpusIndex, DocumentError, read_document
from inscoqa.corpus.readers import detect_format, is_document

BOOK = """<?xml version="1.0" encoding="UTF-8"?>
<!-- <!DOCTYPE book PUBLIC "an older DTD" [ <!ENTITY app "Old"> ]> -->
<!DOCTYPE book PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN"
"http://www.oasis-open.org/docbook/xml/4.5/docbookx.dtd" [
  <!ENTITY app "<application>Tabula</application>">
  <!ENTITY version "2.4">
  <!ENTITY sheets SYSTEM "sheets.xml">
]>
<book id="index">
  <bookinfo><title>The &app; Manual, version &version;</title>
    <legalnotice><para>Permission is granted to copy this document.</para></legalnotice></bookinfo>
  <chapter id="intro"><title>Welcome</title>
    <para>&app; is a spreadsheet&mdash;small and fast.</para>
  </chapter>
  &sheets;
</book>
"""

SHEETS = """<sect1 id="sheets-managing">
  <title>Managing Worksheets</title>
  <para>A workbook holds one or more worksheets. See <xref linkend="printing"/> to print them.</para>
  <procedure>
    <title>To rename a worksheet</title>
    <step><para>Choose <menuchoice><guimenu>Edit</guimenu><guisubmenu>Sheet</guisubmenu>
      <guimenuitem>Rename...</guimenuitem></menuchoice>.</para></step>
    <step><para>Type the new name in the ``Name'' entry (`Sheet 2', say) and press <keycombo><keycap>Ctrl</keycap>
      <keycap>Enter</keycap></keycombo>.</para>
      <substeps><step><para>A name may hold spaces.</para></step></substeps></step>
  </procedure>
  <note><para>&app; refuses a name that another worksheet has.</para></note>
  <variablelist>
    <varlistentry><term><emphasis role="bold">Insert</emphasis></term>
      <listitem><para>Adds an empty worksheet before the current one.</para></listitem></varlistentry>
    <varlistentry><term><guimenuitem>Remove</guimenuitem></term>
      <listitem><para>Deletes the current worksheet.</para></listitem></varlistentry>
  </variablelist>
  <sect2 id="sheets-cli"><title>From the command line</title>
    <para>Convert a workbook with <command>ssconvert</command>:</para>
    <screen>ssconvert book.gnumeric book.xlsx</screen>
    <figure><title>The dialog</title><mediaobject><imageobject><imagedata fileref="x.png"/></imageobject>
      </mediaobject></figure>
    <indexterm><primary>ssconvert</primary></indexterm>
  </sect2>
</sect1>

<sect1 id="sheets-order"><title>Ordering Worksheets</title>
  <itemizedlist><listitem><para>Drag a worksheet's tab to move it.</para></listitem>
    <listitem><para>Use <guibutton>Up</guibutton> in the <ulink url="https://example.org/manage">Manage
      Sheets</ulink> dialog.</para></listitem></itemizedlist>
</sect1>
"""

PRINTING = """<?xml version="1.0"?>
<sect1 id="printing"><title>Printing a Workbook</title>
  <informaltable><tgroup cols="2"><thead><row><entry>Key</entry><entry>Does</entry></row></thead>
    <tbody><row><entry><keycap>Ctrl+P</keycap></entry><entry>Prints the workbook</entry></row></tbody>
  </tgroup></informaltable>
  <qandaset><qandaentry><question><para>Why is my page blank?</para></question>
    <answer><para>Set a print area first.</para></answer></qandaentry></qandaset>
</sect1>
"""


@pytest.fixture
def book(tmp_path: Path) -> Path:
    folder = tmp_path / "tabula"
    folder.mkdir()
    (folder / "tabula.xml").write_text(BOOK, encoding="utf-8")
    (folder / "sheets.xml").write_text(SHEETS, encoding="utf-8")
    (folder / "printing.xml").write_text(PRINTING, encoding="utf-8")
    (folder / "sitemap.xml").write_text('<?xml version="1.0"?><urlset><url><loc>https://example.org/</loc>'
                                        "</url></urlset>", encoding="utf-8")
    return folder


def test_a_chapter_file_reads_with_the_books_entities_and_its_sections_procedure_and_entries(book: Path) -> None:
    doc = read_document(book / "sheets.xml")
    assert doc.title == "Managing Worksheets"
    assert doc.meta["format"] == "docbook"
    assert doc.text == (
        "# Managing Worksheets\n\n"
        "A workbook holds one or more worksheets. See Printing a Workbook to print them.\n\n"
        "**To rename a worksheet**\n"
        "1. Choose Edit → Sheet → Rename....\n"
        "2. Type the new name in the “Name” entry (‘Sheet 2’, say) and press Ctrl+Enter.\n"
        "   1. A name may hold spaces.\n\n"
        "> **Note:** Tabula refuses a name that another worksheet has.\n\n"
        "**Insert**: Adds an empty worksheet before the current one.\n\n"
        "**Remove**: Deletes the current worksheet.\n\n"
        "## From the command line\n\n"
        "Convert a workbook with `ssconvert`:\n\n"
        "```\nssconvert book.gnumeric book.xlsx\n```\n\n"
        # the file's next section, under its own heading
        "## Ordering Worksheets\n\n"
        "- Drag a worksheet's tab to move it.\n"
        "- Use Up in the [Manage Sheets](https://example.org/manage) dialog.\n")


def test_the_books_main_file_declares_its_entities_and_leaves_out_its_metadata_and_included_chapters(
        book: Path) -> None:
    doc = read_document(book / "tabula.xml")
    assert doc.title == "The Tabula Manual, version 2.4"
    assert doc.text == "# The Tabula Manual, version 2.4\n\n## Welcome\n\nTabula is a spreadsheet—small and fast.\n"


def test_a_table_and_a_question_and_answer(book: Path) -> None:
    text = read_document(book / "printing.xml").text
    assert "| Key | Does |\n|---|---|\n| Ctrl+P | Prints the workbook |" in text
    assert "## Why is my page blank?\n\nSet a print area first." in text


def test_an_xml_file_is_a_document_only_when_it_is_docbook(book: Path, tmp_path: Path) -> None:
    assert detect_format(book / "sheets.xml") == "docbook"
    assert is_document(book / "sheets.xml") and not is_document(book / "sitemap.xml")
    index = CorpusIndex({"tabula": book})
    assert index.doc_ids() == ["tabula/printing.xml", "tabula/sheets.xml", "tabula/tabula.xml"]
    with pytest.raises(DocumentError, match=r"sitemap\.xml: not DocBook XML: root element is <urlset>"):
        read_document(book / "sitemap.xml")
    broken = tmp_path / "broken.docbook"
    broken.write_text("<chapter><title>Broken</title><para>Unclosed</chapter>", encoding="utf-8")
    with pytest.raises(DocumentError, match=r"broken\.docbook: XML parse error at line 1, column \d+: mismatched tag"):
        read_document(broken)


def test_a_folder_of_docbook_files_builds_a_memory_that_answers_from_its_procedure(
        clean_env: Path, book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = clean_env / "memory"
    assert main(["memory", "build", "--path", str(book), "--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)["report"]
    assert sorted(report["added"]) == ["tabula/printing.xml", "tabula/sheets.xml", "tabula/tabula.xml"]
    assert main(["answer", "--memory", str(out), "--system", "extractive", "--json",
                 "How do I rename a worksheet?"]) == 0
    answer = json.loads(capsys.readouterr().out)
    steps = " ".join(answer["procedures"])
    assert "Choose Edit → Sheet → Rename" in steps and "press Ctrl+Enter" in steps


def test_entities_nested_to_blow_up_are_refused_by_name(tmp_path: Path) -> None:
    levels = "".join(f'<!ENTITY e{i} "{f"&e{i - 1};" * 20}">' for i in range(1, 8))
    page = tmp_path / "bomb.xml"
    page.write_text(f'<!DOCTYPE chapter [<!ENTITY e0 "boom">{levels}<!ENTITY loop "&loop;">]>'
                    "<chapter><title>Bomb</title><para>&loop;&e7;</para></chapter>", encoding="utf-8")
    with pytest.raises(DocumentError, match=r"bomb\.xml: entity 'e\d' expands to more than 1,000,000 characters"):
        read_document(page)


def test_a_kde_handbooks_undeclared_entities_keys_and_glossary_division(tmp_path: Path) -> None:
    """KDE's handbooks name the application and the keys by entities their DTD declares, which
    is not at hand: each reads as its name, two in a row as two words, so a key combination of
    entities and keycaps reads "Ctrl+Shift+S"; its glossary's files open with <glossdiv>."""
    handbook = tmp_path / "index.docbook"
    handbook.write_text(
        '<?xml version="1.0" ?>\n<!DOCTYPE book PUBLIC "-//KDE//DTD DocBook XML V4.5-Based Variant V1.1//EN" '
        '"dtd/kdedbx45.dtd" [\n  <!ENTITY % addindex "IGNORE">\n]>\n<book id="konsole"><title>The &konsole; '
        "Handbook</title><chapter><title>Menus</title><variablelist><varlistentry><term><menuchoice><shortcut>"
        "<keycombo action=\"simul\">&Ctrl;&Shift;<keycap>S</keycap></keycombo></shortcut><guimenu>File</guimenu>"
        "<guimenuitem>Save Output As...</guimenuitem></menuchoice></term><listitem><para>Saves the scrollback. "
        "So do <keycombo action=\"simul\">&Ctrl;&Shift;<keycap>S</keycap></keycombo> and <keycombo "
        "action=\"simul\">&Alt;<keycap>.</keycap></keycombo>.</para>"
        "</listitem></varlistentry></variablelist></chapter></book>", encoding="utf-8")
    document = read_document(handbook)
    assert document.title == "The konsole Handbook"
    assert "**File → Save Output As...**: Saves the scrollback. So do Ctrl+Shift+S and Alt+.." in document.text
    glossary = tmp_path / "printing.docbook"
    glossary.write_text("<glossdiv><title>Printing</title><glossentry><glossterm>Duplex</glossterm><glossdef>"
                        "<para>Printing on both sides of the paper.</para></glossdef></glossentry></glossdiv>",
                        encoding="utf-8")
    assert "Printing on both sides of the paper." in read_document(glossary).text


def test_a_steps_title_says_what_to_do_before_the_paragraphs_under_it(tmp_path: Path) -> None:
    """Gnumeric's procedure to save a file titles each step ("Open the File Save dialog.") and
    says how in the paragraphs and the list of ways under it."""
    (tmp_path / "saving.xml").write_text(
        '<?xml version="1.0"?><sect1 id="saving"><title>Saving Files</title><procedure>'
        "<title>The basic file saving procedure.</title>"
        "<step><title>Open the <interface>File Save</interface> dialog.</title>"
        "<para>First, the dialog must be opened using either of two methods:</para>"
        "<variablelist><varlistentry><term>Using the Menus</term><listitem><para>Select, in the File menu, "
        "the Save as... menu item.</para></listitem></varlistentry></variablelist></step>"
        "<step><title>Name the file</title><para>Type a new name.</para></step>"
        "<step><para>Click Save.</para></step></procedure></sect1>", encoding="utf-8")
    text = read_document(tmp_path / "saving.xml").text
    assert "1. Open the File Save dialog. First, the dialog must be opened using either of two methods:\n" in text
    assert "   **Using the Menus**: Select, in the File menu, the Save as... menu item.\n" in text
    assert "2. Name the file. Type a new name.\n3. Click Save." in text


def test_an_icon_left_out_of_a_sentence_leaves_no_comma_before_its_full_stop(tmp_path: Path) -> None:
    """Gnumeric names a toolbar button and shows its icon: "… the toolbar graph button, [icon]."."""
    (tmp_path / "graphs.xml").write_text(
        '<?xml version="1.0"?><sect1 id="graphs"><title>Graphs</title><para>Click on the toolbar graph button, '
        '<inlinemediaobject><imageobject><imagedata fileref="button-graph.png"/></imageobject>'
        "<textobject><phrase>The icon of the button.</phrase></textobject></inlinemediaobject>. Another way is the "
        '<guimenu>Insert</guimenu> menu, <inlinemediaobject><imageobject><imagedata fileref="menu.png"/>'
        "</imageobject></inlinemediaobject> or a key.</para></sect1>", encoding="utf-8")
    assert read_document(tmp_path / "graphs.xml").text == (
        "# Graphs\n\nClick on the toolbar graph button. Another way is the Insert menu, or a key.\n")
