"""Each corpus reader on real files of its corpus, plus broken files and doc_id resolution."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from inscoqa.bundled import CORPORA_DIR, corpus_index
from inscoqa.corpus import (
    CorpusIndex,
    DocumentError,
    DocumentNotFound,
    detect_format,
    read_document,
)

NUMBERED = re.compile(r"^\d+\. \S", re.MULTILINE)


def numbered_steps(text: str) -> list[str]:
    return [line for line in text.splitlines() if NUMBERED.match(line)]


# ---------------------------------------------------------------- gnome-help (Mallard)


def test_mallard_steps_page_gives_numbered_steps_and_links() -> None:
    doc = read_document(CORPORA_DIR / "gnome-help/net-wireless-connect.page",
                        doc_id="gnome-help/net-wireless-connect.page")
    assert doc.doc_id == "gnome-help/net-wireless-connect.page"
    assert doc.title == "Connect to a wireless network"
    assert doc.text.startswith("# Connect to a wireless network\n")
    steps = numbered_steps(doc.text)
    assert [s.split(" ", 1)[0] for s in steps] == ["1.", "2.", "3.", "4.", "5.", "6."]
    assert steps[0] == "1. Open the **system menu** from the right side of the top bar."
    # <link xref> with a label, and an empty <link xref/> labelled by its target
    assert "[might be hidden](net-wireless-hidden)" in doc.text
    assert "[net-wireless-troubleshooting](net-wireless-troubleshooting)" in doc.text
    # if:choose resolved for the standard desktop: one copy of the success step, not two
    assert doc.text.count("If the connection is successful") == 1
    assert doc.meta["format"] == "mallard"
    assert doc.meta["date"] == "2022-09-10"
    assert "net-wireless-troubleshooting" in doc.meta["links"]["seealso"]
    assert "<" not in doc.text


def test_mallard_sections_become_headings_and_notes_are_kept() -> None:
    doc = read_document(CORPORA_DIR / "gnome-help/files-delete.page")
    assert doc.doc_id == "files-delete.page"
    assert "\n## Permanently delete a file\n" in doc.text
    assert "2. Press and hold the Shift key, then press the Delete key on your keyboard." in doc.text
    assert "> **Note:** Deleted files on a [removable device](files#removable)" in doc.text


def test_mallard_list_becomes_bullets() -> None:
    doc = read_document(CORPORA_DIR / "gnome-help/backup-what.page")
    bullets = [line for line in doc.text.splitlines() if line.startswith("- ")]
    assert len(bullets) == 4
    assert bullets[0].startswith("- **Your personal files**")


def test_mallard_a_term_that_names_a_gui_label_is_bold_once() -> None:
    # <terms><item><title><gui>Name</gui></title>: the term is bold as a whole, and the label
    # inside it is not bold a second time ("****Name****")
    doc = read_document(CORPORA_DIR / "gnome-help/nautilus-file-properties-basic.page")
    assert "- **Name**: You can rename the file by changing this field." in doc.text
    assert "- **Type**: This helps you identify the type of the file" in doc.text
    assert "***" not in doc.text


def test_mallard_code_block_inside_step_is_fenced() -> None:
    doc = read_document(CORPORA_DIR / "gnome-help/net-wireless-troubleshooting-hardware-check.page")
    assert "1. Open a Terminal window, type `lshw -C network` and press Enter." in doc.text
    assert "   ```\n   *-network" in doc.text


def test_mallard_parse_error_names_file_and_line(tmp_path: Path) -> None:
    page = tmp_path / "broken.page"
    page.write_text('<page xmlns="http://projectmallard.org/1.0/" id="x">\n<title>T</title>\n'
                    "<p>unclosed\n</page>\n", encoding="utf-8")
    with pytest.raises(DocumentError) as info:
        read_document(page)
    message = str(info.value)
    assert str(page) in message
    assert "XML parse error at line 4" in message


def test_mallard_wrong_root_is_an_error(tmp_path: Path) -> None:
    page = tmp_path / "other.page"
    page.write_text("<html><body/></html>", encoding="utf-8")
    with pytest.raises(DocumentError, match="not a Mallard page"):
        read_document(page)


# ---------------------------------------------------------------- officedocs (Markdown)

SENT_ITEMS = "officedocs/Exchange/ExchangeOnline/user-and-shared-mailboxes/sent-mail-is-not-saved.md"


def test_markdown_article_keeps_headings_and_numbered_resolution_steps() -> None:
    doc = corpus_index().get(SENT_ITEMS)
    assert doc.title == "Messages sent from a shared mailbox aren't saved to the Sent Items folder"
    assert doc.text.startswith("# Messages sent from a shared mailbox aren't saved")
    for heading in ("## Problem", "## Cause", "## Solution",
                    "### Method 2: Set the DelegateSentItemsStyle registry value on the Outlook client"):
        assert f"\n{heading}\n" in doc.text
    steps = numbered_steps(doc.text)
    assert steps[0] == "1. Click **Start**, click **Run**, type regedit, and then click **OK**."
    assert steps[-1] == "7. Exit Registry Editor."
    assert "set-mailbox <mailbox name> -MessageCopyForSentAsEnabled $True" in doc.text
    assert "> **Note:**" in doc.text and "[!NOTE]" not in doc.text
    assert doc.meta["date"] == "2024-01-24"
    assert doc.meta["ms.topic"] == "troubleshooting"
    assert doc.meta["corpus"] == "officedocs"
    assert doc.meta["license"] == "CC BY 4.0"


def test_markdown_tables_without_outer_pipes_get_them_and_a_title_loses_its_anchor(tmp_path: Path) -> None:
    page = tmp_path / "09-object-types.md"
    page.write_text(
        '# Object Types <a id="object-types"></a>\n\n'
        "ScheduledDowntime objects set up recurring downtimes.\n"
        "Check the recurring downtimes example for details.\n\n"
        "Configuration Attributes:\n\n"
        "  Name                      | Type         | Description\n"
        "  --------------------------|--------------|------------\n"
        "  host\\_name                | Object name  | **Required.** The name of the host.\n"
        "  duration                  | Duration     | How long it lasts. \\|\n\n"
        "Not a table | at all\n", encoding="utf-8")
    doc = read_document(page)
    assert doc.title == "Object Types"
    assert doc.text.startswith("# Object Types\n")
    rows = [line for line in doc.text.splitlines() if line.startswith("|")]
    assert rows == ["| Name | Type | Description |",
                    "| --------------------------|--------------|------------ |",
                    "| host\\_name | Object name | **Required.** The name of the host. |",
                    "| duration | Duration | How long it lasts. \\| |"]  # an escaped pipe closes no row
    assert "\nNot a table | at all\n" in doc.text  # no delimiter row under it


def test_markdown_drops_images_comments_and_resolves_includes() -> None:
    index = corpus_index()
    delivery = index.get("officedocs/Exchange/ExchangeOnline/email-delivery/email-delivery-issues.md")
    assert ":::image" not in delivery.text
    mapi = "officedocs/SkypeforBusiness/SkypeServer/server-exchange-integration/mapi-unavailable.md"
    assert "[!INCLUDE [Third-party information disclaimer]" in index.path(mapi).read_text(encoding="utf-8")
    article = read_document(index.path(mapi), doc_id=mapi)  # as read (the index leaves out
    assert "[!INCLUDE" not in article.text  # the disclaimer that ends many articles alike)
    assert "The third-party products that this article discusses" in article.text
    assert "The third-party products" not in index.get(mapi).text
    assert "If you click the Conversations tab, and then you click" in article.text
    out_of_storage = "officedocs/SharePoint/SharePointOnline/administration/out-of-storage.md"
    assert "<!-- This article has been reviewed" in index.path(out_of_storage).read_text(encoding="utf-8")
    assert "<!--" not in index.get(out_of_storage).text
    doc = read_document(CORPORA_DIR / "officedocs/Exchange/ExchangeOnline/administration/"
                        "access-denied-connect-powershell.md")
    assert "5. To add the user to the list, click **Add** under **Members**." in doc.text


def test_unclosed_fence_inside_a_list_item_ends_with_the_item() -> None:
    doc = corpus_index().get("officedocs/Exchange/ExchangeServer/client-connectivity/"
                             "troubleshoot-activesync-with-exchange-server.md")
    assert "[!NOTE]" not in doc.text
    assert ":::image" not in doc.text


def test_broken_front_matter_names_file_and_line(tmp_path: Path) -> None:
    article = tmp_path / "bad.md"
    article.write_text("---\ntitle: ok\nms.date: [unclosed\n---\n# Body\n", encoding="utf-8")
    with pytest.raises(DocumentError) as info:
        read_document(article)
    assert str(article) in str(info.value)
    assert "invalid YAML front matter" in str(info.value)


def test_non_utf8_document_is_an_error(tmp_path: Path) -> None:
    article = tmp_path / "latin1.md"
    article.write_bytes("# Caf\u00e9\n".encode("latin-1"))
    with pytest.raises(DocumentError, match=r"not UTF-8 text .*line 1"):
        read_document(article)


def test_an_html_page_that_is_not_utf8_is_read_as_a_browser_reads_it(tmp_path: Path) -> None:
    """In the encoding it declares (a meta charset, an XML declaration), else Windows-1252."""
    declared = tmp_path / "declared.html"
    declared.write_bytes('<html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-2">'
                         '</head><body><h1>Kořen</h1><p>Jan Pokorný’s fix.</p></body></html>'
                         .replace("’", "'").encode("iso-8859-2"))
    assert read_document(declared).text == "# Kořen\n\nJan Pokorný's fix.\n"
    xml = tmp_path / "xml.html"
    xml.write_bytes('<?xml version="1.0" encoding="ISO-8859-1"?><html><body><h1>Café</h1><p>It’s “open” – '
                    'now.</p></body></html>'.encode("cp1252"))
    assert read_document(xml).text == "# Café\n\nIt’s “open” – now.\n"  # Latin-1 read as Windows-1252
    plain = tmp_path / "plain.html"
    plain.write_bytes("<h1>Crème brûlée</h1><p>Heat the cream.</p>".encode("cp1252"))
    assert read_document(plain).text.startswith("# Crème brûlée\n")
    unknown = tmp_path / "unknown.html"
    unknown.write_bytes('<meta charset="x-klingon"><h1>Caf\u00e9</h1>'.encode("latin-1"))
    with pytest.raises(DocumentError, match=r"unknown\.html: not UTF-8 text \(byte \d+, line 1\), nor x-klingon"):
        read_document(unknown)


def test_a_folder_with_an_unreadable_file_raises_or_lists_it(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Reset\n\n1. Open Settings.\n", encoding="utf-8")
    (tmp_path / "b.md").write_bytes("# Caf\u00e9\n".encode("latin-1"))
    index = CorpusIndex({"help": tmp_path})
    with pytest.raises(DocumentError, match=r"b\.md: not UTF-8 text"):
        list(index.iter_documents())
    unreadable: list[DocumentError] = []
    assert [d.doc_id for d in index.iter_documents(unreadable=unreadable)] == ["help/a.md"]
    assert [(Path(e.path).name, e.problem) for e in unreadable] == [("b.md", "not UTF-8 text (byte 5, line 1)")]


def test_a_link_to_a_document_the_folder_holds_is_not_a_second_document(tmp_path: Path) -> None:
    (tmp_path / "ch-intro.html").write_text("<h1>Introduction</h1><p>Start the daemon.</p>")
    (tmp_path / "ch01.html").symlink_to("ch-intro.html")
    outside = tmp_path.parent / f"{tmp_path.name}-shared"
    outside.mkdir()
    (outside / "faq.md").write_text("# FAQ\n\nRestart it.\n")
    (tmp_path / "faq.md").symlink_to(outside / "faq.md")
    (tmp_path / "questions.md").symlink_to(outside / "faq.md")

    index = CorpusIndex({"spec": tmp_path})

    assert index.doc_ids("spec") == ["spec/ch-intro.html", "spec/faq.md"]
    assert index.get("spec/ch01.html").title == "Introduction"  # still found by the link's name


# ---------------------------------------------------------------- based-cooking (recipes)


def test_recipe_has_ingredients_and_directions() -> None:
    path = CORPORA_DIR / "based-cooking/aglio-e-olio.md"
    assert detect_format(path) == "recipe"
    doc = read_document(path, doc_id="based-cooking/aglio-e-olio.md")
    assert doc.title == "Spaghetti aglio e olio"
    assert doc.text.startswith("# Spaghetti aglio e olio\n")
    assert "## Ingredients\n\n- 1 pound (500g) spaghetti" in doc.text
    assert "## Directions\n\n1. Heat a large skillet on medium-high heat" in doc.text
    assert len(doc.meta["ingredients"]) == 5
    assert doc.meta["directions"][-1].startswith("At the very last second add the parsley")
    assert doc.meta["tags"] == ["italian", "pasta"]
    assert doc.meta["date"] == "2021-03-21"
    assert doc.meta["format"] == "recipe"


def test_recipe_with_tabs_in_front_matter_is_read() -> None:
    doc = read_document(CORPORA_DIR / "based-cooking/zaatar.md")
    assert doc.title == "Zaatar"
    assert "palestinian" in doc.meta["tags"]


# ---------------------------------------------------------------- plain text and HTML


def test_plain_text_reader(tmp_path: Path) -> None:
    path = tmp_path / "eggs.txt"
    path.write_text("How to boil eggs\n\nPut the eggs in cold water.\n1) Bring to a boil\n"
                    "2) Wait 8 minutes\n* Cool them in cold water\n", encoding="utf-8")
    doc = read_document(path)
    assert doc.title == "How to boil eggs"
    assert doc.text == ("# How to boil eggs\n\nPut the eggs in cold water.\n1. Bring to a boil\n"
                        "2. Wait 8 minutes\n- Cool them in cold water\n")
    assert doc.meta["format"] == "text"


def test_html_reader_converts_structure_and_drops_scripts(tmp_path: Path) -> None:
    path = tmp_path / "reset.html"
    path.write_text(
        "<html><head><title>Reset a password</title><style>p {color: red}</style></head><body>"
        "<script>alert('x')</script><h1>Reset a password</h1>"
        "<p>Do this <b>carefully</b>, see <a href='help.html'>the help</a>.</p>"
        "<h2>Steps</h2><ol><li>Open <em>Settings</em>.</li><li>Click <a href='#users'>Users</a>."
        "<ul><li>for you</li><li>for others</li></ul></li><li>Choose a new password.</li></ol>"
        "<pre>passwd\n  --help</pre></body></html>", encoding="utf-8")
    doc = read_document(path)
    assert doc.title == "Reset a password"
    assert doc.text == (
        "# Reset a password\n\nDo this **carefully**, see [the help](help.html).\n\n## Steps\n\n"
        "1. Open *Settings*.\n2. Click [Users](#users).\n   - for you\n   - for others\n"
        "3. Choose a new password.\n\n```\npasswd\n  --help\n```\n")
    assert "alert" not in doc.text and "color" not in doc.text


def _chunked_page(tmp_path: Path, up: str) -> Path:
    """A page of a DocBook manual split into pages, as DocBook's stylesheets write it."""
    path = tmp_path / "cc-enterpay.html"
    path.write_text(
        '<html><head><title>7.4. Entering Payments</title>'
        '<link rel="home" href="index.html" title="The Manual">'
        f'<link rel="up" href="{up}" title="Chapter 7. Credit Cards">'
        '<link rel="prev" href="cc-charges.html" title="7.3. Entering Charges"></head><body>'
        '<div class="sect1"><h2 class="title">7.4. Entering Payments</h2>'
        '<p>Most payments to a credit card are transfers from a bank account.</p></div></body></html>',
        encoding="utf-8")
    return path


def test_a_page_of_a_manual_split_into_pages_is_titled_with_the_part_it_belongs_to(tmp_path: Path) -> None:
    # "Entering Payments" of what: the page's <link rel="up"> says, without its label
    doc = read_document(_chunked_page(tmp_path, up="chapter_cc.html"))
    assert doc.title == "7.4. Entering Payments (Credit Cards)"
    assert doc.text.startswith("# 7.4. Entering Payments (Credit Cards)\n"), doc.text


def test_a_chapter_of_a_manual_split_into_pages_keeps_its_own_title(tmp_path: Path) -> None:
    # a page whose part is the manual itself (each chapter of the Debian FAQ) says nothing more
    doc = read_document(_chunked_page(tmp_path, up="index.html"))
    assert doc.title == "7.4. Entering Payments"


@pytest.mark.parametrize(("links", "title"), [
    # Texinfo (libffi's manual): a chapter points up to the "Top" node, its first page
    ('<link href="index.html" rel="start" title="Top"><link href="index.html" rel="up" title="Top">',
     "Introduction"),
    ('<link href="index.html" rel="start" title="Top">'
     '<link href="Using-libffi.html" rel="up" title="Using libffi">', "Introduction (Using libffi)"),
])
def test_a_texinfo_page_is_titled_with_its_part_unless_that_is_the_manual(tmp_path: Path, links: str,
                                                                          title: str) -> None:
    path = tmp_path / "Introduction.html"
    path.write_text(f"<html><head><title>Introduction (libffi)</title>{links}</head><body>"
                    "<h2>Introduction</h2><p>Compilers for high level languages generate code.</p>"
                    "</body></html>", encoding="utf-8")
    assert read_document(path).title.replace(" (libffi)", "") == title


def test_html_reader_drops_heading_permalinks(tmp_path: Path) -> None:
    # Node.js ("#"), Sphinx and MkDocs ("¶") and icon-only permalinks beside headings (an svg, an
    # icon font's private-use glyph)
    path = tmp_path / "fs.html"
    path.write_text(
        "<html><head><title>File system</title></head><body><h1>File system</h1>"
        "<h2><code>fs.open()</code><span><a class='mark' href='#fs_open' id='fs_open'>#</a></span></h2>"
        "<p>Opens a file. See <a href='#fs_close'>fs.close()</a>.</p>"
        "<h2>Close a file<a class='headerlink' href='#close' title='Permalink'>¶</a></h2>"
        "<h3>Flags<a href='#flags'><svg><path d='M0'/></svg></a></h3><p>Read only.</p>"
        "<h3>Modes<a class='headerlink' href='#modes' title='Permalink'>\uf0c1</a></h3><p>Octal.</p></body></html>",
        encoding="utf-8")
    headings = [line for line in read_document(path).text.splitlines() if line.startswith("#")]
    assert headings == ["# File system", "## `fs.open()`", "## Close a file", "### Flags", "### Modes"]
    assert "See [fs.close()](#fs_close)." in read_document(path).text  # a named link stays


def test_html_reader_writes_a_bulleted_term_and_its_paragraph_as_one_line(tmp_path: Path) -> None:
    # Varnish's parameter flags: each item names a term in a paragraph of its own and says what it
    # is in the next; a numbered item's first paragraph is a step, and stays its own line
    path = tmp_path / "flags.html"
    path.write_text(
        "<html><head><title>Flags</title></head><body><h1>Flags</h1><ul>"
        "<li><p><cite>experimental</cite></p><p>We have no solid information about good values.</p></li>"
        "<li><p><code>must_reload</code></p><p>The VCL must be reloaded.</p><p>A second paragraph.</p></li>"
        "<li><p>Open the settings</p><p>Then click Save.</p></li></ul>"
        "<ol><li><p>Install</p><p>Use apt to install it.</p></li></ol></body></html>", encoding="utf-8")
    assert read_document(path).text.splitlines()[2:] == [
        "- experimental: We have no solid information about good values.",
        "- `must_reload`: The VCL must be reloaded.", "   A second paragraph.",
        "- Open the settings", "   Then click Save.", "1. Install", "   Use apt to install it."]


def test_plain_text_layout_gives_question_and_title_headings(tmp_path: Path) -> None:
    path = tmp_path / "benefits.txt"
    path.write_text(
        "Housing benefit\n\nWho can apply?\n\nYou can apply if you rent your home and have a low "
        "income.\n\nHow do I apply?\nFill in the form online. It takes about 20 minutes.\n\n"
        "What you need\n\n- your National Insurance number\n- your tenancy agreement\n\n"
        "Appeals\n\nYou can ask for the decision to be looked at again within one month.\n",
        encoding="utf-8")
    doc = read_document(path)
    assert doc.title == "Housing benefit"
    assert [line for line in doc.text.splitlines() if line.startswith("#")] == [
        "# Housing benefit", "## Who can apply?", "## How do I apply?", "## What you need",
        "## Appeals"]
    assert "## How do I apply?\n\nFill in the form online." in doc.text
    assert "- your National Insurance number\n- your tenancy agreement" in doc.text


def test_a_question_line_without_its_question_mark_is_a_heading_but_a_wrapped_sentence_is_not(
        tmp_path: Path) -> None:
    path = tmp_path / "passport.txt"
    path.write_text(
        "Renewing your passport\n\nHow much does it cost?\nIt costs 88 pounds online.\n\n"
        "Can I travel while my application is being processed\nNo. Your old passport is cancelled "
        "when you send it.\n\nHow long it takes depends on the\nPassport Office and the time of "
        "year.\n\nWhen the testing distribution is mature enough, the release\nmanager freezes it.\n",
        encoding="utf-8")
    text = read_document(path).text
    assert [line for line in text.splitlines() if line.startswith("#")] == [
        "# Renewing your passport", "## How much does it cost?",
        "## Can I travel while my application is being processed"]
    assert "## Can I travel while my application is being processed\n\nNo. Your old passport" in text


def test_plain_text_numbered_steps_stay_steps(tmp_path: Path) -> None:
    path = tmp_path / "steps.txt"
    path.write_text("Print a page\n\n1. Open the page\n\n2. Press Ctrl+P\n\n3. Click Print\n",
                    encoding="utf-8")
    text = read_document(path).text
    assert [line for line in text.splitlines() if line.startswith("#")] == ["# Print a page"]
    assert numbered_steps(text) == ["1. Open the page", "2. Press Ctrl+P", "3. Click Print"]


def test_plain_text_lines_that_start_with_a_hash_are_text_and_code_keeps_them_as_written(
        tmp_path: Path) -> None:
    """A shell prompt or a comment in a plain-text FAQ is no heading; where it ends up indented
    as code it is kept as written (lsof's FAQ showed "\\# mv /kernel" in its answers), in a code
    block of its own."""
    path = tmp_path / "faq.txt"
    path.write_text("Kernel notes\n\nHow do I move the kernel?\n\n    Run these as root:\n\n"
                    "        # mv /kernel /kernel.OLD\n        ## mv /kernel.NEW /kernel\n\n"
                    "    The HASPMAPENABLED\n    #define sets it.\n    # not a heading\n", encoding="utf-8")
    text = read_document(path).text
    outside_code = re.sub(r"```\n.*?\n```", "", text, flags=re.S)
    assert [line for line in outside_code.splitlines() if re.match(r"#{1,6} ", line)] == [
        "# Kernel notes", "## How do I move the kernel?"]
    assert "\n```\n# mv /kernel /kernel.OLD\n## mv /kernel.NEW /kernel\n```\n" in text
    assert "\n#define sets it.\n\\# not a heading\n" in text


def headings(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("#")]


def test_a_table_of_contents_is_left_out_and_its_sections_are_headings_once(tmp_path: Path) -> None:
    path = tmp_path / "tool-faq.txt"
    path.write_text(
        "Questions about the tool\n\nContents:\n\n1.0\tGetting it\n1.1\tWhere do I download it?\n"
        "1.2\tWhy can't I check the signature of the file named in\n\tthe release notes?\n\n"
        "   BUILDING\n2.1\tWhy does the build stop?\n\n"
        "1.0\tGetting it\n\n1.1\tWhere do I download it?\n\n\tFrom the project's download page.\n\n"
        "1.2\tWhy can't I check the signature of the file named in\n\tthe release notes?\n\n"
        "\tThe key changed in the last release; fetch the new one first.\n\n"
        "2.1\tWhy does the build stop?\n\n\tA header is missing: install the development package.\n",
        encoding="utf-8")
    text = read_document(path).text
    assert headings(text) == [
        "# Questions about the tool", "### Getting it", "### Where do I download it?",
        "### Why can't I check the signature of the file named in the release notes?",
        "### Why does the build stop?"]
    assert text.count("Where do I download it?") == 1 and "BUILDING" not in text
    assert "### Where do I download it?\n\nFrom the project's download page." in text


def test_a_docbook_manual_printed_as_text_loses_its_contents_lists_and_keeps_each_chapters_sections(
        tmp_path: Path) -> None:
    """Mutt's manual.txt: a table of contents, lists of tables, and one contents list per chapter,
    with sections numbered afresh in each chapter ("1.", "2.1.") and notes set under a "Note" line."""
    path = tmp_path / "manual.txt"
    path.write_text(
        "The Mail Client\n\nTable of Contents\n\n1. Getting Started\n    1. Reading Mail\n"
        "    2. Sending Mail\n2. Configuration\n    1. Aliases\n    2. Key Bindings\n"
        "        2.1. Terminal Keys\n\nList of Tables\n\n2.1. Symbolic key names\n\n"
        "Chapter 1. Getting Started\n\nTable of Contents\n\n1. Reading Mail\n2. Sending Mail\n\n"
        "1. Reading Mail\n\nOpen a mailbox with c and read a message with Enter.\n\n"
        "2. Sending Mail\n\nPress m to write a new message.\n\n"
        "2.1. Editing the Header\n\nSet edit_headers to edit the header in your editor.\n\n"
        "Chapter 2. Configuration\n\nTable of Contents\n\n1. Aliases\n2. Key Bindings\n"
        "    2.1. Terminal Keys\n\n1. Aliases\n\nTo add an alias, use the alias command.\n\n"
        "Note\n\nSeparate several addresses with a comma.\n\n"
        "Aliases can be defined in any file that is sourced.\n\n"
        "2. Key Bindings\n\nThe bind command changes what a key does.\n\n"
        "Table 2.1. Symbolic key names\n\nThe names of keys that have no character.\n\n"
        "2.1. Terminal Keys\n\nSome terminals send other codes for these keys.\n", encoding="utf-8")
    text = read_document(path).text
    assert headings(text) == [
        "# The Mail Client", "## Getting Started", "## Reading Mail", "## Sending Mail",
        "### Editing the Header", "## Configuration", "## Aliases", "## Key Bindings",
        "### Table 2.1. Symbolic key names", "### Terminal Keys"]
    assert "Table of Contents" not in text and "List of Tables" not in text
    assert text.count("Terminal Keys") == 1 and text.count("Reading Mail") == 1
    # the note is a quote, and what follows it is the section's again
    assert "> **Note:** Separate several addresses with a comma.\n\nAliases can be defined" in text
    assert "## Key Bindings\n\nThe bind command" in text


def test_a_docbook_html_note_is_a_quote_and_the_text_after_it_is_the_sections(tmp_path: Path) -> None:
    text = html_text(tmp_path, (
        "<html><head><title>Aliases</title></head><body><h2>5. Defining Aliases</h2>"
        "<p>Mutt maps a short string to a full address.</p><div class=\"note\"><h3 class=\"title\">Note"
        "</h3><p>Separate several addresses with a comma.</p></div><p>To add an alias:</p>"
        "<pre>alias muttdude me@cs.hmc.edu</pre><h2>Notes</h2><p>Aliases are matched in any case.</p>"
        "</body></html>"))
    assert headings(text) == ["# Aliases", "## 5. Defining Aliases", "## Notes"]
    assert ("> **Note:** Separate several addresses with a comma.\n\nTo add an alias:\n\n"
            "```\nalias muttdude me@cs.hmc.edu\n```") in text


def test_a_sphinx_pages_warning_is_a_quote_and_a_command_on_its_own_is_a_code_block(tmp_path: Path) -> None:
    """rsyslog's pages: a command set as a paragraph of its own after the sentence that leads to
    it, and an admonition whose title is a paragraph ("Warning")."""
    text = html_text(tmp_path, (
        "<html><head><title>Docker</title></head><body><section><h1>Using Docker</h1><p>To run it, simply do</p>"
        "<p><code class=\"docutils literal\"><span class=\"pre\">docker</span> <span class=\"pre\">run</span> "
        "<span class=\"pre\">-ti</span> <span class=\"pre\">rsyslog/syslog_appliance_alpine</span></code></p>"
        "<div class=\"admonition warning\"><p class=\"admonition-title\">Warning</p><p>The containers are under "
        "development.</p></div><p>See the <code>rsyslog</code> site.</p><p><code>imfile</code></p>"
        "<p><code>MD5</code> <code>HMAC-SHA-256</code></p>"
        "</section></body></html>"))
    assert "To run it, simply do\n\n```\ndocker run -ti rsyslog/syslog_appliance_alpine\n```" in text
    assert "> **Warning:** The containers are under development.\n\nSee the `rsyslog` site." in text
    assert "\n`imfile`\n\n`MD5` `HMAC-SHA-256`\n" in text  # names alone stay names


def test_a_note_that_docbook_sets_as_a_table_is_a_note(tmp_path: Path) -> None:
    """DocBook's notes with their icons: a table of the label and the text, here in a list item."""
    text = html_text(tmp_path, (
        "<html><body><h1>Preferences</h1><ul><li><p><b>Online Banking</b></p><div class=\"note\"><table "
        "border=\"0\" summary=\"Note\"><tr><td rowspan=\"2\"><img alt=\"[Note]\" src=\"note.png\"></td>"
        "<th align=\"left\">Note</th></tr><tr><td><p>This section is shown only with Aqbanking.</p></td></tr>"
        "</table></div><ul><li><p><b>Remember PIN:</b> Enable this option to keep the PIN.</p></li></ul></li>"
        "</ul><table><tr><th>Key</th></tr><tr><td>Ctrl+T</td></tr></table></body></html>"))
    assert "> **Note:** This section is shown only with Aqbanking." in text
    assert "| Key |\n|---|\n| Ctrl+T |" in text  # a table of one column stays a table


def test_bold_inside_bold_is_bold_once(tmp_path: Path) -> None:
    """GnuCash's DocBook pages set a label's bold inside an emphasis's bold."""
    assert "1. **Select File**: pick the file, then *really click* Next." in html_text(tmp_path, (
        "<html><body><h1>Import</h1><ol><li><p><span class=\"emphasis\"><strong><span class=\"guilabel\">"
        "<strong>Select File</strong></span></strong></span>: pick the file, then <em>really <i>click</i></em> "
        "Next.</p></li></ol></body></html>"))


def test_a_sites_menus_tagline_and_folding_contents_are_left_out_but_a_menus_name_in_the_text_stays(
        tmp_path: Path) -> None:
    """SQLite's pages: a tagline, a main menu and a submenu as blocks, and "► Table Of Contents"
    that folds the page's contents."""
    path = tmp_path / "recovery.html"
    path.write_text(
        "<html><head><title>Recovery</title></head><body><div class=\"tagline desktoponly\">Small. Fast."
        "</div><div class=\"menu mainmenu\"><ul><li><a href=\"index.html\">Home</a><li><a href=\"docs.html\">"
        "Documentation</a></ul></div><div class=\"fancy_toc\"><a>► Table Of Contents</a><div><a href=\"#x\">"
        "1. Limitations</a></div></div><h1>1. Limitations</h1><p>Choose <span class=\"gui menu\">File</span> "
        "to open the database.</p></body></html>", encoding="utf-8")
    text = read_document(path).text
    assert "Small. Fast." not in text and "Documentation" not in text and "Table Of Contents" not in text
    assert "Choose File to open the database." in text


def test_a_manuals_keyword_entries_are_headings_and_its_preformatted_text_is_prose(tmp_path: Path) -> None:
    """HAProxy's configuration manual: each keyword in a <div class="keyword">, what it does in
    <pre class="text">, its example in a code block."""
    text = html_text(tmp_path, (
        "<html><head><title>Configuration</title></head><body><h2>4.2. Keywords</h2>"
        "<div class=\"keyword\"><b><a href=\"#stats-refresh\">stats refresh</a></b> <span>&lt;delay&gt;</span>"
        "</div><pre class=\"text\">Enable statistics with automatic refresh\n\nThis statement is useful on\n"
        "monitoring displays.\n\n    stats refresh 5s\n</pre><pre class=\"prettyprint\">backend www\n"
        "    stats enable\n</pre></body></html>"))
    assert headings(text) == ["# Configuration", "## 4.2. Keywords", "### `stats refresh <delay>`"]
    assert ("### `stats refresh <delay>`\n\nEnable statistics with automatic refresh\n\n"
            "This statement is useful on monitoring displays.\n\n```\nstats refresh 5s\n```") in text
    assert "```\nbackend www\n    stats enable\n```" in text


def test_an_example_line_inside_a_sentence_stays_in_it(tmp_path: Path) -> None:
    """DocBook's text sets an example on a line of its own, inside the sentence that shows it."""
    path = tmp_path / "headers.txt"
    path.write_text(
        "Pseudo headers\n\nFcc\n\nIf you specify\n\nFcc: filename\n\nas a header, the client "
        "saves a copy of the message there.\n\nAttach\n\nYou can also attach files to your message "
        "by specifying\n\nAttach: filename [ description ]\n\nwhere description is an optional "
        "string.\n\nPgp\n\nIf you want to use PGP for the\nmessage, you can specify\n\nPgp: [ E | S ]\n\n"
        "E selects encryption and S selects signing.\n", encoding="utf-8")
    text = read_document(path).text
    assert headings(text) == ["# Pseudo headers", "## Fcc", "## Attach", "## Pgp"]
    assert ("If you specify `Fcc: filename` as a header, the client saves a copy of the message "
            "there.") in text
    assert ("You can also attach files to your message by specifying `Attach: filename [ description ]` "
            "where description") in text
    assert "If you want to use PGP for the\nmessage, you can specify\n\n```\nPgp: [ E | S ]\n```" in text


def test_numbered_questions_answered_on_the_next_line_and_stated_problems_are_headings(
        tmp_path: Path) -> None:
    path = tmp_path / "checker-faq.txt"
    path.write_text(
        "Checker FAQ\n\n1. Basics\n\n1.1. How do you say the name? \nLike the game, with a hard 'ch'.\n\n"
        "1.2. The checker reports errors at exit and then stops with a\nsegmentation fault.\n\n"
        "Old C libraries crash in the clean-up hook: turn the hook off.\n\n"
        "2. Steps\n\n2.1. Open the log.\n\n2.2. Read the first error.\n", encoding="utf-8")
    assert headings(read_document(path).text) == [
        "# Checker FAQ", "## Basics", "### How do you say the name?",
        "### The checker reports errors at exit and then stops with a segmentation fault.", "## Steps"]


def test_a_numbered_list_of_questions_with_their_answers_under_them_is_an_faq(tmp_path: Path) -> None:
    path = tmp_path / "library-faq.txt"
    path.write_text(
        "      Frequently asked questions about the library\n\n"
        " 1. Does the library handle dates?\n\n    No, it only compresses bytes.\n\n"
        " 2. Where can I get a build for Windows?\n\n    Build it from the sources, or take the one\n"
        "    the project's site offers.\n\n"
        " 3. open() returns an error.\n\n    Check that the file exists and can be read.\n\n"
        " 4. Is there a Python binding?\n\n    Yes, in the standard library.\n",
        encoding="utf-8")
    text = read_document(path).text
    assert headings(text) == [
        "# Frequently asked questions about the library", "## Does the library handle dates?",
        "## Where can I get a build for Windows?", "## open() returns an error.",
        "## Is there a Python binding?"]
    # the answers are paragraphs, not code indented under a list item
    assert "## Where can I get a build for Windows?\n\nBuild it from the sources, or take the one\n" in text


def test_numbered_steps_with_notes_under_them_stay_steps(tmp_path: Path) -> None:
    path = tmp_path / "steps.txt"
    path.write_text("Back up a folder\n\n1. Open the folder.\n\n    Hidden files are included.\n\n"
                    "2. Choose Back Up.\n\n    It takes a few minutes.\n\n3. Check the copy.\n\n"
                    "    Open one file to be sure.\n", encoding="utf-8")
    text = read_document(path).text
    assert headings(text) == ["# Back up a folder"]
    assert numbered_steps(text) == ["1. Open the folder.", "2. Choose Back Up.", "3. Check the copy."]


def test_question_and_answer_labels_are_not_headings_or_header_words(tmp_path: Path) -> None:
    path = tmp_path / "archiver-faq.txt"
    path.write_text(
        "Archiver FAQ\n\n\nQ:  What does the name mean?\n\nA:  It is short for the old tool's name.\n\n\n"
        "Q:  My tar does not know the new format.\n    How can I unpack an archive?\n\n"
        "A:  arc -dc file.arc | tar xf -\n\n\nQ.  Can I repair a broken archive?\n\n"
        "A.  Sometimes, when it has several blocks.\n", encoding="utf-8")
    text = read_document(path).text
    assert headings(text) == [
        "# Archiver FAQ", "## What does the name mean?",
        "## My tar does not know the new format. How can I unpack an archive?",
        "## Can I repair a broken archive?"]
    assert "A:  arc -dc file.arc | tar xf -" in text


def test_debian_faq_plain_text_edition_has_its_numbered_questions_as_headings() -> None:
    doc = corpus_index().get("debian-faq/debian-faq.en.txt")
    prose = re.sub(r"^```\n.*?^```$", "", doc.text, flags=re.M | re.S)  # what code blocks hold is no heading
    headings = [line for line in prose.splitlines() if line.startswith("#")]
    assert doc.title == "The Debian GNU/Linux FAQ"
    assert "## Basics of the Debian package management system" in headings
    assert "### What is a Debian package?" in headings
    # a question wrapped over three lines is one heading; sub-questions are one level down
    assert ("### What is the difference between Debian GNU/Linux and other Linux distributions? "
            "Why should I choose Debian over some other distribution?") in headings
    assert "#### Could you tell me whether to install stable, testing or unstable?" in headings
    assert sum(1 for h in headings if h.endswith("?")) >= 120
    # the table of contents and shell prompts are not headings; the indented bullets are a list
    assert not any(h.startswith("# apt-get") or h.startswith("## 1.") for h in headings)
    assert "\n  - full featured: Debian includes more than" in doc.text
    # commands that the text indents under the sentence that introduces them are code
    assert "just run:\n\n```\n# apt-get build-dep foo\n# apt-get source --build foo\n```" in doc.text


def test_html_without_heading_tags_gets_headings_from_its_layout(tmp_path: Path) -> None:
    path = tmp_path / "faq.html"
    path.write_text(
        "<html><head><title>Parking permits</title></head><body>"
        "<p>Parking permits</p><p>Can I get a permit for a second car?</p>"
        "<p>Yes, a second permit costs more than the first one and lasts a year.</p>"
        "<p><b>How to pay</b></p><ol><li>Sign in.</li><li>Choose the permit.</li></ol>"
        "</body></html>", encoding="utf-8")
    doc = read_document(path)
    headings = [line for line in doc.text.splitlines() if line.startswith("#")]
    assert headings == ["# Parking permits", "## Can I get a permit for a second car?", "## How to pay"]
    assert numbered_steps(doc.text) == ["1. Sign in.", "2. Choose the permit."]


def test_html_laid_out_with_tables_reads_as_blocks_and_data_tables_stay_tables(tmp_path: Path) -> None:
    laid_out = tmp_path / "faq.html"
    laid_out.write_text(
        "<html><head><title>FAQ</title></head><body><table><tr><td><h1>The library</h1><h2>FAQ</h2>"
        "</td></tr></table><table><tr><td><table><tr><td><b>Menu</b></td></tr><tr><td><ul>"
        "<li><a href='index.html'>Home</a></li></ul></td></tr></table></td><td><ol><li><em>Why does "
        "linking fail?</em><p>The compiler lacks the flags: use the config script.</p></li></ol>"
        "</td></tr></table></body></html>", encoding="utf-8")
    text = read_document(laid_out).text
    assert "|" not in text
    assert "# The library\n\n## FAQ" in text
    assert "1. *Why does linking fail?*\n   The compiler lacks the flags: use the config script." in text
    data = tmp_path / "data.html"
    data.write_text("<h1>Ports</h1><table><tr><th>Service</th><th>Port</th></tr><tr><td><p>SMTP</p>"
                    "</td><td>587</td></tr></table>", encoding="utf-8")
    assert "| Service | Port |\n|---|---|\n| SMTP | 587 |" in read_document(data).text


def test_html_navigation_bars_contents_menus_and_pop_ups_are_left_out(tmp_path: Path) -> None:
    path = tmp_path / "chapter.html"
    path.write_text(
        "<html><body><div class='navheader'><table><tr><td><a href='prev.html'>Prev</a></td>"
        "<td><a href='next.html'>Next</a></td></tr></table></div><div class='chapter'><h1>Chapter 8. "
        "Tools</h1><div class='toc'><p><b>Table of Contents</b></p><dl><dt><a href='#a'>8.1. dpkg</a>"
        "</dt></dl></div><h2>8.1. dpkg</h2><p>dpkg installs a package file.</p>"
        # Sphinx's list of the pages below this one, with their sections
        "<div class='toctree-wrapper compound'><ul><li class='toctree-l1'><a class='reference internal' "
        "href='dpkg-query.html'>dpkg-query</a><ul><li class='toctree-l2'><a class='reference internal' "
        "href='dpkg-query.html#list'>Listing packages</a></li></ul></li></ul></div><div role='navigation'>"
        "<a href='index.html'>Home</a></div><p>It keeps a database of what is installed.</p></div>"
        "<div class='navfooter'><p><a href='prev.html'>Prev</a> <a href='index.html'>Home</a></p></div>"
        "<div id='gtoc'><ul><li><a href='fs.html'>File system</a></li></ul></div>"
        # mdBook's keyboard help, hidden until asked for, and its menu bar with the book's name
        "<div id='mdbook-help-container'><div id='mdbook-help-popup'><h2 class='mdbook-help-title'>Keyboard "
        "shortcuts</h2><p>Press <kbd>S</kbd> to search in the book</p></div></div>"
        "<div id='mdbook-menu-bar' class='menu-bar sticky'><h1 class='menu-title'>The Tools Book</h1></div>"
        "<div role='dialog'><p>Accept cookies?</p></div>"
        # Publican's site banner and its links to the pages before and after, with their titles
        "<div id='banner'><a href='https://example.org/get/'>Download the ebook</a></div>"
        "<ul class='docnav'><li class='previous'><a href='sect.a.html'><strong>Prev</strong>8.0. Packages</a></li>"
        "<li class='home'><a href='index.html'><strong>Home</strong></a></li></ul>"
        # LibreOffice's help: for its writers, the file the page was made from
        "<footer><div id='DEBUG' class='debug'><h3 class='bug'>Help content debug info:</h3><p>This page is: "
        "<a href='https://example.org/text/tools.xhp'>/text/tools.xhp</a></p><p>Title is: Tools</p></div></footer>"
        "</body></html>", encoding="utf-8")
    text = read_document(path).text
    assert text == ("# Chapter 8. Tools\n\n## 8.1. dpkg\n\ndpkg installs a package file.\n\n"
                    "It keeps a database of what is installed.\n")


def test_html_code_block_with_two_versions_of_the_code_keeps_them_apart(tmp_path: Path) -> None:
    path = tmp_path / "fs.html"
    path.write_text("<h1>File system</h1><pre><code class='mjs'>import * as fs from 'node:fs';</code>"
                    "<code class='cjs'>const fs = require('node:fs');</code></pre>", encoding="utf-8")
    assert "import * as fs from 'node:fs';\nconst fs = require('node:fs');" in read_document(path).text


def html_text(tmp_path: Path, html: str) -> str:
    """The text the HTML reader gives of a page."""
    path = tmp_path / "page.html"
    path.write_text(html, encoding="utf-8")
    return read_document(path).text


def test_html_a_command_set_on_its_own_line_inside_a_sentence_stays_in_it(tmp_path: Path) -> None:
    """Exim's manual sets the commands a sentence names on lines of their own: "It runs / exim
    -bpu / or (in case -a switch is specified) / exim -bp / to obtain a queue listing". A block
    after a finished sentence, or one that the next sentence does not go on from, stays a block;
    a line after a colon goes back when the next words say where it goes (Apache's "uncommenting the
    line: / #Include … / in the default config file")."""
    path = tmp_path / "utilities.html"
    path.write_text(
        "<h1>Exim utilities</h1><p>This utility is a Perl script. It runs</p>"
        "<div class='docbook_literallayout'><pre>\nexim -bpu\n</pre></div><p>or (in case -a is specified)</p>"
        "<div class='docbook_literallayout'><pre>\nexim -bp\n</pre></div><p>to obtain a queue listing.</p>"
        "<p>To summarise the queue, run this:</p><pre>exim -bp | exiqsumm</pre><p>and read its lines.</p>"
        "<p>The default setting contains one port</p><pre>daemon_smtp_ports = smtp</pre><p>If more ports are listed,"
        " the daemon listens on all of them.</p>"
        "<p>You can enable it by uncommenting the line:</p><pre>#Include conf/extra/httpd-userdir.conf</pre>"
        "<p>in the default config file <code>conf/apache2.conf</code>.</p>", encoding="utf-8")
    text = read_document(path).text
    assert ("This utility is a Perl script. It runs `exim -bpu` or (in case -a is specified) `exim -bp` "
            "to obtain a queue listing.") in text
    assert "To summarise the queue, run this:\n\n```\nexim -bp | exiqsumm\n```\n\nand read its lines." in text
    assert "The default setting contains one port\n\n```\ndaemon_smtp_ports = smtp\n```\n\nIf more ports" in text
    # ... and a line the sentence names before it says where it goes
    assert ("You can enable it by uncommenting the line: `#Include conf/extra/httpd-userdir.conf` in the default"
            " config file `conf/apache2.conf`.") in text


def test_html_a_quotation_that_holds_code_alone_is_the_code(tmp_path: Path) -> None:
    """Sphinx indents a command set as a paragraph of its own, or a literal block, inside a
    ``blockquote`` (rsyslog's "This is done by placing the" / ``$ModLoad ommysql`` / "directive at
    the beginning of /etc/rsyslog.conf"): it is code, in the sentence or as a block; a quotation
    of prose stays one."""
    text = html_text(tmp_path, (
        "<h1>Databases</h1><p>This is done by placing the</p><blockquote><div><p><code class='docutils literal'>"
        "<span class='pre'>$ModLoad</span> <span class='pre'>ommysql</span></code></p></div></blockquote>"
        "<p>directive at the beginning of /etc/rsyslog.conf.</p><p>Add a selector line:</p><blockquote><div>"
        "<div class='highlight-none'><pre>*.* :ommysql:127.0.0.1,Syslog,writer,secret</pre></div></div></blockquote>"
        "<blockquote><div><p>Logging is the memory of a system.</p></div></blockquote>"))
    assert "This is done by placing the `$ModLoad ommysql` directive at the beginning of /etc/rsyslog.conf." in text
    assert "Add a selector line:\n\n```\n*.* :ommysql:127.0.0.1,Syslog,writer,secret\n```" in text
    assert "> Logging is the memory of a system." in text


def test_html_screen_writes_what_the_user_types_after_a_dollar_prompt(tmp_path: Path) -> None:
    """DocBook marks a session's typed text (``userinput``) beside its prompt and output
    (``computeroutput``): a root "#" or a user@host prompt is written "$ ", on the line of its
    command; a command's next line ("> ") and the output are kept as they are."""
    text = html_text(tmp_path, (
        "<h1>Firewall</h1><p>To enable it, execute:</p><pre class='screen'>"
        "<code class='computeroutput'># </code><strong class='userinput'><code>apt install -y nftables\n"
        "</code></strong><code class='computeroutput'>Reading package lists... Done\nroland@arrakis:~$ </code>"
        "<strong class='userinput'><code>at 09:00 &lt;&lt;END</code></strong>\n"
        "<code class='computeroutput'>&gt; </code><strong class='userinput'><code>END</code></strong>"
        "<code class='computeroutput'>\njob 1 at 09:00</code></pre>"))
    assert ("```\n$ apt install -y nftables\nReading package lists... Done\n$ at 09:00 <<END\n> END\n"
            "job 1 at 09:00\n```") in text


def test_html_figures_give_neither_their_title_nor_their_images_alt_text(tmp_path: Path) -> None:
    """A DocBook figure ("Figure 3.27. Example Image for Cropping", its screenshot's alt text
    and caption) shows what the text says; an image's alt text in an HTML ``figure`` or alone in
    its block (a note's icon) too; an icon in a sentence keeps its alt text."""
    text = html_text(tmp_path, (
        "<h1>Crop An Image</h1><p>Use the crop tool.</p><div class='figure'><p class='title'><strong>"
        "Figure 3.27. Example Image</strong></p><div class='figure-contents'><div class='mediaobject'>"
        "<img src='a.jpg' alt='Example Image'/><div class='caption'><p>Source image</p></div></div></div></div>"
        "<ol><li><p>Click and drag.</p><div class='mediaobject'><img src='b.png' alt='Dragging'/></div></li>"
        "<li>Press <img src='enter.png' alt='Enter'/> to finish.</li></ol>"
        "<div class='noteicon'><img src='note.svg' alt='Note Icon'/></div><p>Save first.</p>"
        "<figure><img src='c.png' alt='The dialog'/><figcaption>The crop dialog</figcaption></figure>"))
    assert text == ("# Crop An Image\n\nUse the crop tool.\n\n1. Click and drag.\n"
                    "2. Press Enter to finish.\n\nSave first.\n\nThe crop dialog\n")


def test_html_an_icons_alt_text_made_from_its_file_name_is_left_out(tmp_path: Path) -> None:
    """KiCad's manuals give every toolbar icon the alt text its file name makes ("add component
    24" for add_component_24.png), which read as words of the step; an alt text of its own
    ("Zoom In icon") and a key's plain name ("Enter" for enter.png) stay."""
    text = html_text(tmp_path, (
        "<h1>Schematic</h1><p>Click the Add a Symbol button <img src='images/icons/add_component_24.png' "
        "alt='add component 24'> on the right or the <img src='images/icons/zoom_in_24.png' alt='Zoom In "
        "icon'> button, then press <img src='enter.png' alt='Enter'>.</p>"))
    assert text == ("# Schematic\n\nClick the Add a Symbol button on the right or the Zoom In icon "
                    "button, then press Enter.\n")


def test_html_code_that_is_a_link_is_a_link_to_code(tmp_path: Path) -> None:
    """Apache's manual writes ``<code><a href=...>mod_rewrite</a></code>``: in Markdown a link
    inside backticks is literal text, so the link goes outside; code that holds a link and
    more shows the link's text, and emphasis in code (DocBook's replaceable words) its words."""
    text = html_text(tmp_path, (
        "<h1>Rewrite</h1><p>Use <code class='module'><a href='../mod/mod_rewrite.html'>mod_rewrite</a>"
        "</code> or <code>Require <a href='core.html#ip'>ip</a> 10.1.2.3</code>, not "
        "<code>chsh -s <em class='replaceable'>shell</em></code>.</p>"))
    assert text == ("# Rewrite\n\nUse [`mod_rewrite`](../mod/mod_rewrite.html) or "
                    "`Require ip 10.1.2.3`, not `chsh -s shell`.\n")


def test_html_hidden_alternatives_a_script_chooses_among_are_joined_with_or(tmp_path: Path) -> None:
    """LibreOffice's help hides the macOS and the default wording and shows one by script."""
    text = html_text(tmp_path, (
        "<h1>Find</h1><p>Press <span class='switchinline'><span hidden='true' class='MAC'>Command</span>"
        "<span hidden='true' id='default1'>Ctrl</span></span>+F, or choose <span class='switchinline'>"
        "<span hidden='true'><span class='emph'>LibreOffice - Preferences</span></span><span hidden='true'>"
        "<span class='emph'>Tools - Options</span></span></span> - Find.</p>"))
    assert text == ("# Find\n\nPress Command or Ctrl+F, or choose LibreOffice - Preferences or "
                    "Tools - Options - Find.\n")


def test_html_hidden_alternatives_that_say_nothing_are_no_alternatives(tmp_path: Path) -> None:
    """LibreOffice's Find & Replace page, shared by its modules, leaves a heading empty for
    Draw and Impress: the heading is the default wording alone (it read "or or Regular expressions")."""
    text = html_text(tmp_path, (
        "<h1>Find &amp; Replace</h1><h3><span class='switchinline'><span hidden='true' class='DRAW'></span>"
        "<span hidden='true' class='IMPRESS'> </span><span hidden='true' id='default8'>Regular expressions"
        "</span></span></h3><p>Allows you to use regular expressions in your search.</p>"))
    assert text == ("# Find & Replace\n\n### Regular expressions\n\n"
                    "Allows you to use regular expressions in your search.\n")


def test_html_code_block_keeps_the_language_its_classes_name(tmp_path: Path) -> None:
    path = tmp_path / "ci.html"
    path.write_text("<h1>CI</h1><pre><code class='language-yml'>on: push</code></pre>"
                    "<div class='highlight-python notranslate'><div class='highlight'><pre>import os</pre>"
                    "</div></div><pre class='lang-sh'>cargo clippy</pre><pre>plain</pre>"
                    "<pre><code class='language-rust compile_fail E0499'>fn main() {}</code></pre>",
                    encoding="utf-8")
    text = read_document(path).text
    assert re.findall(r"^```(\w*)\n([^\n]*)\n```$", text, flags=re.M) == [
        ("yml", "on: push"), ("python", "import os"), ("sh", "cargo clippy"), ("", "plain"),
        ("rust", "fn main() {}")]


def test_html_bold_questions_above_their_answers_are_headings(tmp_path: Path) -> None:
    path = tmp_path / "faq.html"
    path.write_text(
        "<h1>Checker FAQ</h1><h2>1. Problems</h2><p><b>1.1.</b></p><p><b>Can I attach it to a running "
        "program?</b></p><p>No, it needs control from the start.</p><p><b>1.2.</b></p><p><b>It reports "
        "nothing and I know my program has errors.</b></p><pre>int a[5]; a[5] = 0;</pre><p>It does no "
        "bounds checking on stack arrays.</p><p><b>1.3.</b></p><p><b>Programs crash at exit in <code>"
        "__libc_freeres</code>.</b></p><p>Old C libraries do.</p><p><b>Note</b></p><p>Bold words alone "
        "are no heading.</p>",
        encoding="utf-8")
    text = read_document(path).text
    assert headings(text) == ["# Checker FAQ", "## 1. Problems", "### Can I attach it to a running program?",
                              "### It reports nothing and I know my program has errors.",
                              "### Programs crash at exit in `__libc_freeres`."]
    assert "**1.1.**" not in text and "> **Note:** Bold words alone are no heading." in text


def test_html_questions_labelled_q_and_a_are_headings_and_the_contents_section_goes(tmp_path: Path) -> None:
    """A hand-written FAQ (Double Commander's help): its contents, a list of terms linking to
    places on the page under a "Content" heading, would become headings of their own; its
    questions are paragraphs labelled "Q:" in a CSS-bold class, over answers labelled "A:"."""
    path = tmp_path / "faq.html"
    path.write_text(
        '<h1>Frequently Asked Questions</h1><div><h2>Content</h2><dl><dt><a href="#common">1. Common '
        'questions</a></dt><dd><dl><dt>1.1. <a href="#size">How to make function keys bigger?</a></dt>'
        '<dt>1.2. <a href="#select">Ctrl+A doesn\'t work, how to enable it?</a></dt><dt>1.3. <a href='
        '"#long">ftp.wfx: Does not work with some servers! After connecting, I get errors: "104,Connection '
        'reset by peer" and "CSOCK ERROR Connection reset by peer".</a></dt></dl></dd></dl></div>'
        '<div><h2><a name="common">1. Common questions</a></h2>'
        '<p class="bold"><a name="size">Q: How to make function keys bigger?</a></p>'
        '<p><span class="bold">A:</span> The size depends on the font size: go to Options &gt; Fonts.</p>'
        '<p class="bold"><a name="select">Q: <kbd>Ctrl+A</kbd> doesn\'t work, how to enable it?</a></p>'
        '<p><b>A:</b> Set the Ctrl+A shortcut for the command cm_MarkMarkAll.</p>'
        '<p>Q: is how the next entry starts, and this paragraph is no question.</p>'
        '<p>Nor is this one.</p></div>'
        '<div><h2>Contents of the archive</h2><p>The archive holds the program and its plugins.</p></div>',
        encoding="utf-8")
    text = read_document(path).text
    assert headings(text) == ["# Frequently Asked Questions", "## 1. Common questions",
                              "### How to make function keys bigger?", "### `Ctrl+A` doesn't work, how to enable it?",
                              "## Contents of the archive"]
    assert "The size depends on the font size: go to Options > Fonts." in text.splitlines()
    assert "Set the Ctrl+A shortcut for the command cm_MarkMarkAll." in text.splitlines()
    assert "Q: is how the next entry starts, and this paragraph is no question." in text
    assert "CSOCK" not in text and "The archive holds the program and its plugins." in text


def test_html_terms_whose_descriptions_are_sections_are_headings(tmp_path: Path) -> None:
    """POD's ``=item`` questions (pod2html): each term's description is paragraphs and code, so
    the terms are headings under the section, and a nested list's one level deeper; a glossary
    of one-line definitions keeps its terms, each on the line of its description."""
    path = tmp_path / "faq.html"
    path.write_text(
        "<h1>Builder FAQ</h1><h2>Installing</h2><dl><dt>How do I install into my home directory?</dt>"
        "<dd><p>Give the base folder.</p><pre><code>perl Makefile.PL INSTALL_BASE=~</code></pre></dd>"
        "<dt>How do I keep from installing man pages?</dt><dd><p>Set both man folders to none.</p>"
        "<p>For every module, reconfigure Perl.</p></dd><dt>Two XS files in one folder</dt><dd><p>Two "
        "ways.</p><dl><dt>XSMULTI</dt><dd><p>Put the modules under lib.</p><p>Then set XSMULTI.</p></dd>"
        "</dl></dd></dl><h2>Words</h2><dl><dt>Prefix</dt><dd><p>Where files go.</p></dd><dt>Base</dt>"
        "<dd><p>The top of the install.</p></dd><dt>Blib</dt><dd><p>The build folder.</p><p>Made by make."
        "</p></dd></dl>",
        encoding="utf-8")
    text = read_document(path).text
    assert headings(text) == ["# Builder FAQ", "## Installing", "### How do I install into my home directory?",
                              "### How do I keep from installing man pages?", "### Two XS files in one folder",
                              "#### XSMULTI", "## Words"]
    assert "Prefix: Where files go.\n\nBase: The top of the install." in text
    assert "Blib: The build folder.\n\nMade by make." in text


def test_html_glossary_terms_stay_with_their_descriptions(tmp_path: Path) -> None:
    """A command's options (Cargo's man pages: each term a code span that links to itself) and
    a glossary set in bold: a term and the paragraph that opens its description are one line,
    so a step or a passage read alone names the option it is about, and terms that share a
    description (an option's short and long forms, as Cargo's and git's manual pages give them)
    are its names on that line. A term that is a sentence, and a description that opens with
    code or a list, stay apart; a term whose arguments end with "..." is no sentence."""
    path = tmp_path / "cargo-test.html"
    path.write_text(
        "<h1>cargo test</h1><h2>Options</h2><dl>"
        "<dt class='option-term' id='o1'><a class='option-anchor' href='#o1'><code>--no-run</code></a></dt>"
        "<dd class='option-desc'><p>Compile, but don't run tests.</p></dd>"
        "<dt class='option-term' id='o2'><a class='option-anchor' href='#o2'><code>--no-fail-fast</code></a></dt>"
        "<dd class='option-desc'><p>Run all tests regardless of failure.</p><p>Without this flag, Cargo exits "
        "after the first executable fails.</p></dd>"
        "<dt><code>-j</code></dt><dt><code>--jobs</code></dt><dd><p>Number of parallel jobs to run.</p></dd>"
        "<dt><code>--config</code></dt><dd><pre><code>cargo test --config build.jobs=2</code></pre></dd>"
        "<dt>It runs the tests.</dt><dd><p>As the heading says.</p></dd>"
        "<dt><code>-Mrm</code> &lt;<em>message id</em>&gt; &lt;<em>message id</em>&gt; ...</dt>"
        "<dd><p>Remove the given messages from the queue.</p></dd></dl>"
        "<h2>Can I</h2><dl><dt><b>You probably can:</b></dt><dd><p>Unpack the archive.</p></dd></dl>"
        "<h2>Server type</h2><blockquote><dl><dt>POP3</dt><dd><p>Enter the server address.</p></dd></dl></blockquote>",
        encoding="utf-8")
    text = read_document(path).text
    assert "`--no-run`: Compile, but don't run tests." in text
    assert "`--no-fail-fast`: Run all tests regardless of failure.\n\nWithout this flag" in text
    assert "\n`-j`, `--jobs`: Number of parallel jobs to run." in text
    assert "`--config`\n\n```" in text
    assert "It runs the tests.\n\nAs the heading says." in text
    assert "`-Mrm` <*message id*> <*message id*> ...: Remove the given messages" in text  # its arguments, no sentence
    assert "**You probably can:** Unpack the archive." in text
    assert "> POP3: Enter the server address." in text  # in a quote (DocBook's variablelist in Claws Mail's manual)


def test_html_variable_list_set_as_a_table_reads_as_its_terms(tmp_path: Path) -> None:
    """DocBook's variable list set as a table (cockpit.conf's manual page): a row's first cell
    is a term, its next cell the description, as in a ``<dl>``; an option of one paragraph is
    one line, and the options of a section whose descriptions hold code are its headings."""
    path = tmp_path / "web.conf.5.html"
    cell = "<td><p><span class='term'><code class='option'>{}</code></span></p></td>"
    path.write_text(
        "<html><head><title>web.conf</title></head><body><h2>Session</h2>"
        "<div class='variablelist'><table border='0' class='variablelist'><colgroup><col><col></colgroup><tbody>"
        f"<tr>{cell.format('Banner')}<td><p>The file shown on the login page.</p></td></tr>"
        f"<tr>{cell.format('IdleTimeout')}<td><p>Minutes before an idle session ends.</p>"
        "<pre class='programlisting'>[Session]\nIdleTimeout=15</pre><p>Off by default.</p></td></tr>"
        "</tbody></table></div><h2>Log</h2>"
        "<div class='variablelist'><table border='0' class='variablelist'><tbody>"
        f"<tr>{cell.format('Fatal')}<td><p>Messages to treat as fatal.</p></td></tr>"
        f"<tr>{cell.format('Levels')}<td><p>Levels to log: <code>info</code>, <code>debug</code>.</p></td></tr>"
        "</tbody></table></div></body></html>",
        encoding="utf-8")
    text = read_document(path).text
    assert "### `Banner`\n\nThe file shown on the login page." in text
    assert "### `IdleTimeout`\n\nMinutes before an idle session ends.\n\n```\n[Session]\nIdleTimeout=15\n```" in text
    assert "## Log\n\n`Fatal`: Messages to treat as fatal." in text
    assert "\n\n`Levels`: Levels to log: `info`, `debug`." in text


@pytest.mark.parametrize("notes", [
    # mdBook
    "<hr><ol class='footnote-definition'><li id='footnote-a'><p>This list is not an endorsement. "
    "<a href='#fr-a-1'>↩</a></p></li><li id='footnote-b'><p>Tested on Linux. <a href='#fr-b-1'>↩</a></p></li></ol>",
    # pandoc
    "<section id='footnotes' class='footnotes footnotes-end-of-document' role='doc-endnotes'><hr><ol>"
    "<li id='fn1'><p>This list is not an endorsement.<a href='#fnref1' class='footnote-back'>↩︎</a></p></li>"
    "<li id='fn2'><p>Tested on Linux.<a href='#fnref2' class='footnote-back'>↩︎</a></p></li></ol></section>",
])
def test_html_footnotes_are_no_list_to_follow(tmp_path: Path, notes: str) -> None:
    path = tmp_path / "build-scripts.html"
    path.write_text("<h1>Build scripts</h1><ol><li>Write <code>build.rs</code>.</li><li>Run "
                    "<code>cargo build</code>.</li></ol>" + notes, encoding="utf-8")
    text = read_document(path).text
    assert "1. Write `build.rs`.\n2. Run `cargo build`." in text
    assert text.rstrip().endswith("[^1]: This list is not an endorsement.\n\n[^2]: Tested on Linux.")


def test_html_code_under_a_list_item_is_the_items_and_hidden_code_lines_are_left_out(tmp_path: Path) -> None:
    """Cargo's examples put each command in a ``<pre>`` inside its ``<li>``: indented as the
    item's own, the command stays with its step. mdBook hides the lines that make an example
    compile (``<span class="boring">``); a reader of the page does not see them."""
    path = tmp_path / "cargo-test.html"
    path.write_text(
        "<h1>cargo test</h1><h2>Examples</h2><ol><li><p>Run only tests whose names match a filter:</p>"
        "<pre><code>cargo test name_filter</code></pre></li><li><p>Run one integration test:</p>"
        "<pre><code>cargo test --test int_test</code></pre></li></ol><p>After the list.</p>"
        "<pre class='playground'><code class='language-rust'><span class='boring'>#![allow(unused)]\n</span>"
        "#![doc(html_logo_url = \"logo.jpg\")]\n<span class='boring'>fn main() {\n</span>"
        "<span class='boring'>}</span></code></pre>", encoding="utf-8")
    text = read_document(path).text
    assert ("1. Run only tests whose names match a filter:\n   ```\n   cargo test name_filter\n   ```\n"
            "2. Run one integration test:\n   ```\n   cargo test --test int_test\n   ```\n\nAfter the list.") in text
    assert text.rstrip().endswith("```rust\n#![doc(html_logo_url = \"logo.jpg\")]\n```")


def test_html_heading_that_links_to_itself_is_its_words(tmp_path: Path) -> None:
    path = tmp_path / "book.html"
    path.write_text("<h1>Questions</h1><h2><a class='header' href='#can-i-vendor'>Can I vendor my "
                    "dependencies?</a></h2><p>Yes, with the <a href='#vendor'>vendor</a> command.</p>",
                    encoding="utf-8")
    text = read_document(path).text
    assert "## Can I vendor my dependencies?" in text
    assert "[vendor](#vendor)" in text


def test_html_line_breaks_keep_a_text_files_lines_and_paragraphs(tmp_path: Path) -> None:
    """A text file published as HTML with <br> for its newlines (as release notes often are):
    its lines and blank lines stay, so its questions become headings and its paragraphs can be
    told apart; a break inside a heading or a table cell is a space."""
    path = tmp_path / "notes.html"
    path.write_text(
        "<html><head><title>Permits</title></head><body><p>"
        "Can&nbsp;I&nbsp;get&nbsp;a&nbsp;permit&nbsp;for&nbsp;a&nbsp;second&nbsp;car?<br>\n"
        "Yes, a second permit costs more<br>than the first one and lasts a year.<br><br>"
        "How do I pay for it?<br>Sign in and choose the permit, then pay by card.<br>"
        "</p><table><tr><td>Fee<br>(yearly)</td><td>40</td></tr></table></body></html>", encoding="utf-8")
    doc = read_document(path)
    headings = [line for line in doc.text.splitlines() if line.startswith("#")]
    assert headings == ["# Permits", "## Can I get a permit for a second car?", "## How do I pay for it?"]
    assert "Yes, a second permit costs more\nthan the first one and lasts a year." in doc.text
    assert "| Fee (yearly) | 40 |" in doc.text


_SISU_PAGE = """<html><head><title>
  customizing-runtime - Live Manual
</title></head><body>
<table summary="segment navigation band with banner"><tr><td><p class="tiny_left"><a href="../">Live manual</a>
</p></td><td><a href="prev.en.html"><img src="arrow_prev.png" alt="&lt;&lt;&nbsp;previous"></a></td></tr></table>
<div class="content0"><h1 class="tiny">Live Manual</h1></div>
<div class="content0"><h1 class="tiny">Customizing runtime</h1></div>
<div class="substance"><h1 class="norm" id="530">10. Customizing runtime</h1></div>
<div class="substance"><p class="i0">All run-time settings are made by <i>live-config</i>.</p></div>
<div class="substance"><p class="bold" id="532"><a name="h10.1"></a>10.1 Customizing the live user</p></div>
<div class="substance"><p class="i0">To change the default user name, say so in your config:</p></div>
<div class="substance"><p class="code" id="539">
    $ lb config --bootappend-live "username=live-user"<br>
  </p></div>
<div class="substance"><p class="bold" id="541">10.2 Encrypted persistence</p></div>
<div class="substance"><p class="i0">Format the partition, then look at what it holds:</p></div>
<div class="substance"><p class="code" id="550">
    # cryptsetup luksFormat /dev/sdc2<br>
# ls /mnt<br>
&nbsp;&nbsp;&nbsp;persistence.conf<br>
  </p></div>
<table summary="segment navigation band"><tr><td><a href="next.en.html">next</a></td></tr></table>
</body></html>"""


def test_html_sisu_page_reads_its_numbered_paragraphs_as_sections_and_its_code_as_code(tmp_path: Path) -> None:
    """A SiSU manual's page (the Debian Live manual): navigation bands are tables that say so in
    their summary, the title names the page by its file's name, the heading tags only stand over
    the body while its sections are numbered bold paragraphs, and code is a paragraph of its own
    whose lines end with <br> (a root prompt "#" among them, which is no heading)."""
    path = tmp_path / "customizing-runtime.en.html"
    path.write_text(_SISU_PAGE, encoding="utf-8")
    doc = read_document(path)
    assert doc.title == "Customizing runtime - Live Manual"
    assert "previous" not in doc.text and "next" not in doc.text and "Live manual" not in doc.text
    headings = [line for line in doc.text.split("```")[0::2] for line in line.splitlines() if line.startswith("#")]
    assert headings == ["# Live Manual", "# Customizing runtime", "# 10. Customizing runtime",
                        "### Customizing the live user", "### Encrypted persistence"]
    assert 'config:\n\n```\n$ lb config --bootappend-live "username=live-user"\n```' in doc.text
    assert "```\n# cryptsetup luksFormat /dev/sdc2\n# ls /mnt\n   persistence.conf\n```" in doc.text


def test_html_numbered_links_under_a_page_title_are_no_sections(tmp_path: Path) -> None:
    """A DocBook manual's index page lists its figures by number, each a link: contents, not
    headings, though the page's one heading stands over them all."""
    path = tmp_path / "index.html"
    path.write_text("<html><head><title>Manual</title></head><body><h1>Manual</h1><p><b>List of Figures</b></p>"
                    "<p>3.1. <a href='first.html#a'>Welcome screen</a></p><p>3.2. <a href='tip.html#b'>Tip "
                    "of the day</a></p></body></html>", encoding="utf-8")
    text = read_document(path).text
    assert not [line for line in text.splitlines() if line.startswith("#") and "](" in line]
    assert "3.2. [Tip of the day](tip.html#b)" in text


def test_debian_faq_html_chapters_keep_their_heading_tags() -> None:
    doc = corpus_index().get("debian-faq/html/pkg-basics.en.html")
    assert "## 7.12. How do I put a package on hold?" in doc.text.splitlines()


def test_unknown_suffix_and_missing_file(tmp_path: Path) -> None:
    odd = tmp_path / "notes.docx"
    odd.write_bytes(b"PK")
    with pytest.raises(DocumentError, match="unknown document format '.docx'"):
        read_document(odd)
    with pytest.raises(DocumentError, match="no such file"):
        read_document(tmp_path / "missing.md")


# ---------------------------------------------------------------- CorpusIndex


def test_corpus_index_resolves_and_rejects_doc_ids() -> None:
    index = corpus_index()
    assert set(index.roots) == {"officedocs", "gnome-help", "based-cooking", "debian-faq"}
    assert "gnome-help/net-wireless-connect.page" in index
    assert "gnome-help/no-such-page.page" not in index
    with pytest.raises(DocumentNotFound, match="unknown corpus 'wikihow'"):
        index.get("wikihow/x.md")
    with pytest.raises(DocumentNotFound, match="no file 'nope.page'"):
        index.get("gnome-help/nope.page")
    with pytest.raises(DocumentNotFound):
        index.get("gnome-help/../officedocs/LICENSE")
    assert index.licenses == {"officedocs": "CC BY 4.0", "gnome-help": "CC BY-SA 3.0",
                              "based-cooking": "Public domain (Unlicense)",
                              "debian-faq": "see COPYRIGHT"}


def test_every_document_of_every_bundled_corpus_reads() -> None:
    index = CorpusIndex({name: CORPORA_DIR / name for name in ("gnome-help", "based-cooking")})
    docs = list(index.iter_documents())
    assert len(docs) == len(index.doc_ids()) > 600
    assert all(d.text.startswith("# ") and d.title for d in docs)
    assert not any(d.doc_id.endswith("_index.md") for d in docs)
    assert sum(1 for d in docs if numbered_steps(d.text)) > 300


def test_resolve_uses_inlined_text() -> None:
    from inscoqa.records import Conversation, DocRef

    conv = Conversation(
        id="c1", domain="Gourmet",
        documents=[DocRef("based-cooking/aglio-e-olio.md", "Aglio e olio"),
                   DocRef("my/own.md", "Mine", text="# Mine\n\n1. Do it.\n")],
        history=[], question="How?", answer="Like this.", procedures=["Do it."])
    docs = corpus_index().resolve(conv)
    assert [d.doc_id for d in docs] == ["based-cooking/aglio-e-olio.md", "my/own.md"]
    assert docs[1].text == "# Mine\n\n1. Do it.\n" and docs[1].meta["format"] == "inline"
    assert corpus_index().missing(conv) == []


def test_plain_text_indented_under_its_paragraphs_is_code(tmp_path: Path) -> None:
    """APT's offline guide printed as text indents an apt.conf stanza (with a blank line inside
    it) and the commands to type one or two spaces deeper than its paragraphs: they are code
    blocks, their "#" prompts no headings; a list item's indented lines and an "or" between two
    examples stay text."""
    path = tmp_path / "offline.text"
    path.write_text(
        "Using APT Offline\n\nThe file must tell APT to use the disc:\n\n APT\n {\n   Architecture \"i386\";\n\n"
        "   Get::Download-Only \"true\";\n };\n\nOn the remote machine execute the following:\n\n"
        "  # export APT_CONFIG=\"/disc/apt.conf\"\n  # apt-get update\n\nor\n\n  # apt update\n\n"
        "Check these:\n\n- the disc is mounted\n  and writable\n", encoding="utf-8")
    assert read_document(path).text == (
        "# Using APT Offline\n\nThe file must tell APT to use the disc:\n\n"
        "```\nAPT\n{\n  Architecture \"i386\";\n\n  Get::Download-Only \"true\";\n};\n```\n\n"
        "On the remote machine execute the following:\n\n"
        "```\n# export APT_CONFIG=\"/disc/apt.conf\"\n# apt-get update\n```\n\nor\n\n```\n# apt update\n```\n\n"
        "Check these:\n\n- the disc is mounted\n  and writable\n")


def test_plain_text_examples_between_scissors_lines_are_code_and_underlined_lines_headings(
        tmp_path: Path) -> None:
    """Dovecot's wiki exported as text sets its examples between "---%<---" lines and underlines
    its sections with "---": the example is a code block whose lines ("# Preferred …", "1. …")
    stay as written, and an underlined line is a heading even when another follows it."""
    path = tmp_path / "SSL.txt"
    scissors = "---%<" + "-" * 30
    path.write_text(
        "Dovecot SSL configuration\n=========================\n\n"
        f"The most important SSL settings are:\n\n{scissors}\nssl = yes\n# Preferred permissions: root:root 0444\n"
        f"1. not a step\n{scissors}\n\nMultiple SSL certificates\n-------------------------\n\n"
        "Per algorithm\n-------------\n\nSince v2.2.31 you can give an alternative certificate.\n", encoding="utf-8")
    assert read_document(path).text == (
        "# Dovecot SSL configuration\n\nThe most important SSL settings are:\n\n"
        "```\nssl = yes\n# Preferred permissions: root:root 0444\n1. not a step\n```\n\n"
        "## Multiple SSL certificates\n\n## Per algorithm\n\nSince v2.2.31 you can give an alternative certificate.\n")


def test_plain_text_printed_by_nroff_loses_its_overstrikes_and_its_bold_lines_are_headings(
        tmp_path: Path) -> None:
    """Postfix's README files are nroff's terminal output: bold is a letter struck over itself
    ("H\\bH"), underlining "_" struck over a letter. The words are read without the strokes, so
    the title is "Postfix and Linux", each bold line a section and a command in the text
    ("rpm -qf") the command as typed; what is indented four spaces under a paragraph is code. A
    line in bold is a heading however long, but not a term in bold with its description under it."""
    def bold(text: str) -> str:
        return "".join(f"{c}\b{c}" if c != " " else c for c in text)

    path = tmp_path / "LINUX_README.txt"
    path.write_text(f"{bold('Postfix and Linux')}\n\n{'-' * 40}\n\n{bold('Procmail issues')}\n\n"
                    "On RedHat Linux 7.1 procmail cannot write to the mail spool directory. Workaround:\n\n"
                    "    # chmod 1777 /var/spool/mail\n\n"
                    f"{bold('Berkeley DB issues')}\n\nFind what is installed with {bold('rpm -qf')} "
                    f"/usr/lib/{''.join(f'_{chr(8)}{c}' for c in 'libdb.so')}.\n\n"
                    f"{bold('Configuring Postfix as primary or backup MX host for a remote site')}\n\n"
                    f"The TLS levels are:\n\n{bold('encrypt')}\n    Mandatory TLS encryption.\n", encoding="utf-8")
    doc = read_document(path)
    assert doc.title == "Postfix and Linux"
    assert doc.text == ("# Postfix and Linux\n\n## Procmail issues\n\n"
                        "On RedHat Linux 7.1 procmail cannot write to the mail spool directory. Workaround:\n\n"
                        "```\n# chmod 1777 /var/spool/mail\n```\n\n## Berkeley DB issues\n\n"
                        "Find what is installed with rpm -qf /usr/lib/libdb.so.\n\n"
                        "## Configuring Postfix as primary or backup MX host for a remote site\n\n"
                        "The TLS levels are:\n\nencrypt\n    Mandatory TLS encryption.\n")


def test_plain_text_indented_four_spaces_is_code_a_note_or_terms_as_its_lines_read(tmp_path: Path) -> None:
    """Postfix's README files indent by four spaces the settings to make (a file's name over its
    lines), a note in sentences, and the values a setting takes, each with its description
    indented under it: the settings are a code block (which the answerers read as code, not as
    a sentence), the note a paragraph, and each value "value: description"."""
    path = tmp_path / "MILTER_README.txt"
    path.write_text(
        "Postfix before-queue Milter support\n\nYou specify Milter applications with the smtpd_milters "
        "parameter:\n\n    /etc/postfix/main.cf:\n        # Milters for mail that arrives via smtpd.\n"
        "        smtpd_milters = inet:localhost:portnumber\n\n"
        "    NOTE for Postfix versions that have a mail_release_date before 20141018: do\n"
        "    not use the header_checks(5) IGNORE action.\n\nThe syntax of a socket is as follows:\n\n"
        "    unix:pathname\n        Connect to the local UNIX-domain server that is bound to the specified\n"
        "        pathname. On many systems, local is a synonym for unix\n\n"
        "    inet:host:port\n        Connect to the specified TCP port on the specified host.\n"
        "        (default: none).\n", encoding="utf-8")
    assert read_document(path).text == (
        "# Postfix before-queue Milter support\n\nYou specify Milter applications with the smtpd_milters "
        "parameter:\n\n```\n/etc/postfix/main.cf:\n    # Milters for mail that arrives via smtpd.\n"
        "    smtpd_milters = inet:localhost:portnumber\n```\n\n"
        "NOTE for Postfix versions that have a mail_release_date before 20141018: do\n"
        "not use the header_checks(5) IGNORE action.\n\nThe syntax of a socket is as follows:\n\n"
        "unix:pathname: Connect to the local UNIX-domain server that is bound to the specified pathname. "
        "On many systems, local is a synonym for unix\n\n"
        "inet:host:port: Connect to the specified TCP port on the specified host. (default: none).\n")


def test_a_plain_text_that_opens_with_its_contents_is_titled_by_its_file_name(tmp_path: Path) -> None:
    """Some of Dovecot's wiki pages start with "Contents" and the list of their sections: the
    page is not titled "Contents" but by its file's name, and the list goes."""
    path = tmp_path / "TestInstallation.txt"
    path.write_text("Contents\n\n\n 1. Check that it's running\n\n 2. Check that it's listening\n\n"
                    "Check that it's running\n-----------------------\n\nFirst check with ps that it runs.\n\n"
                    "Check that it's listening\n-------------------------\n\nNext check the port.\n",
                    encoding="utf-8")
    doc = read_document(path)
    assert doc.title == "Test Installation"
    assert doc.text == ("# Test Installation\n\n## Check that it's running\n\nFirst check with ps that it runs.\n\n"
                        "## Check that it's listening\n\nNext check the port.\n")


def test_a_part_of_an_html_manual_without_a_title_is_titled_by_its_first_heading(tmp_path: Path) -> None:
    """A home server's manual ships each chapter as an HTML part without <title> or <h1>
    ("Backups.part.html" opens with "<h2>Backups</h2>"): its first heading is its title, not its
    file's name "Backups.part", and is not a section of its own above the page."""
    path = tmp_path / "Backups.part.html"
    path.write_text('<section><div class="titlepage"><h2 class="title">Backups</h2></div>'
                    '<section><h2 class="title">Backups</h2><p>The box can back up its apps.</p>'
                    "<h3>How to use Backups</h3><ol><li>Open the Backups app.</li>"
                    "<li>Click Create Backup.</li></ol></section></section>", encoding="utf-8")
    doc = read_document(path)
    assert doc.title == "Backups"
    assert doc.text == ("# Backups\n\n## Backups\n\nThe box can back up its apps.\n\n### How to use Backups\n\n"
                        "1. Open the Backups app.\n2. Click Create Backup.\n")


def test_plain_text_footnotes_of_a_docbook_manual_are_markdown_footnotes(tmp_path: Path) -> None:
    """APT's guide printed as text marks a footnote "^[1]" in a sentence and gives it at the end
    of the chapter as "^[1] If you are using …": a mark and a note, not words of the step."""
    path = tmp_path / "guide.text"
    path.write_text("APT Guide\n\nThe first ^[1] thing to do is to fetch the package lists.\n\n"
                    "^[1] If you are using a proxy you must set http_proxy first.\n", encoding="utf-8")
    assert read_document(path).text == ("# APT Guide\n\nThe first [^1] thing to do is to fetch the package lists.\n\n"
                                        "[^1]: If you are using a proxy you must set http_proxy first.\n")


def test_html_teletype_text_is_code(tmp_path: Path) -> None:
    """Texinfo's HTML (zsh's manual) sets option names in ``<tt>``, older HTML's code."""
    text = html_text(tmp_path, "<h1>Options</h1><dl><dt><span><tt>CORRECT_ALL</tt> (<tt>-O</tt>)</span></dt>"
                               "<dd><p>Try to correct the spelling of all arguments.</p></dd></dl>")
    assert "`CORRECT_ALL` (`-O`): Try to correct the spelling of all arguments." in text


def test_html_an_icon_fonts_glyphs_are_left_out_and_a_label_of_icons_alone_is_nothing(tmp_path: Path) -> None:
    """Django's shell sessions come in tabs labelled with Font Awesome's glyphs (Linux/macOS,
    Windows), characters of Unicode's private use area that show nothing without the font."""
    text = html_text(tmp_path, (
        "<h1>Reversing migrations</h1><p>Pass the number of the previous migration:</p>"
        "<div class='console-block'><input class='c-tab-unix' type='radio' checked>"
        "<label title='Linux/macOS'>&#xf17c/&#xf179</label><input class='c-tab-win' type='radio'>"
        "<label title='Windows'>&#xf17a</label><section class='c-content-unix'><div class='highlight'>"
        "<pre>$ python manage.py migrate books 0002</pre></div></section></div>"
        "<p>Click <span class='fa'>&#xf0c5;</span> Copy to copy it.</p>"))
    assert "\uf17c" not in text and "\uf17a" not in text and "\uf0c5" not in text
    assert text == ("# Reversing migrations\n\nPass the number of the previous migration:\n\n"
                    "```\n$ python manage.py migrate books 0002\n```\n\nClick Copy to copy it.\n")


def test_html_asciidoctors_screenshots_are_left_out_and_its_notes_stay_under_their_step(tmp_path: Path) -> None:
    """KeePassXC's guide, an Asciidoctor page: each step shows a screenshot ("Figure 5. Create
    database - Welcome screen" became part of the step, and the step's "… button (A):" was left
    introducing nothing), and a note inside a step is a table of its icon and its text, which
    ended the list: step 5 began a list, and a procedure, of its own."""
    picture = ("<div class='imageblock'><div class='content'><img src='data:image/png;base64,AAAA' "
               "alt='new db wizard'></div><div class='title'>Figure {0}. Create database - {1}</div></div>")
    text = html_text(tmp_path, (
        "<h1>User Guide</h1><div class='sect2'><h3>Creating Your First Database</h3><div class='olist arabic'><ol>"
        "<li><p>Click the create new database button <strong>(A)</strong>:</p>" + picture.format(5, "Welcome screen")
        + "</li><li><p>Enter your desired database password.</p><div class='admonitionblock important'><table><tr>"
        "<td class='icon'><i class='fa icon-important' title='Important'></i></td><td class='content'>Keep this "
        "password safe.</td></tr></table></div></li><li><p>Click Done.</p></li></ol></div></div>"))
    assert text == ("# User Guide\n\n### Creating Your First Database\n\n"
                    "1. Click the create new database button **(A)**.\n"
                    "2. Enter your desired database password.\n"
                    "   > **Important:** Keep this password safe.\n"
                    "3. Click Done.\n"), text


def test_a_document_belongs_to_the_manual_whose_start_page_its_folder_holds(tmp_path: Path) -> None:
    # a folder of several products' help, each in a folder with its own start page, holds
    # several manuals; a site whose sections have start pages under the site's own is one
    for name in ("help/evolution/index.page", "help/evolution/mail/filters.md", "help/deja-dup/index.md",
                 "help/deja-dup/prefs.md", "help/loose.md", "site/index.html", "site/howto/index.html",
                 "site/howto/deploy.html", "help/okular/index.docbook", "help/dolphin/index.docbook"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("# Page\n\nText.\n", encoding="utf-8")
    index = CorpusIndex({"help": tmp_path / "help", "site": tmp_path / "site"})

    assert index.manual("help/evolution/mail/filters.md") == "help/evolution"
    assert index.manual("help/deja-dup/prefs.md") == "help/deja-dup"
    assert index.manual("help/loose.md") == "help"
    # KDE's handbooks: each app's folder holds its one DocBook file, "index.docbook"
    assert index.manual("help/okular/index.docbook") == "help/okular"
    assert index.manual("help/dolphin/index.docbook") == "help/dolphin"
    assert index.manual("site/howto/deploy.html") == "site"
    assert index.get("help/deja-dup/prefs.md").meta["manual"] == "help/deja-dup"
    # the bundled corpora: Mallard's start page at the root of GNOME's help, none in the Office docs
    assert corpus_index().manual("gnome-help/files-delete.page") == "gnome-help"
    office = next(d for d in corpus_index().doc_ids() if d.startswith("officedocs/Exchange/"))
    assert corpus_index().manual(office) == "officedocs"


def test_html_an_icon_beside_a_headings_words_is_no_part_of_it(tmp_path: Path) -> None:
    """KeePass's help opens each section's heading with a small picture whose alt text names the
    picture ("People", "Info"): the section is "General Information about Shared Databases". An
    icon at either end of a heading's words is left out; one inside the words stays."""
    text = html_text(tmp_path, (
        "<h1>Multi-User</h1><h2 class='sectiontitle'><img src='../images/b16x16_people.png' alt='People' />\n"
        "General Information about Shared Databases</h2><p>All users share one file.</p>"
        "<h2>Press <img src='enter.png' alt='Enter'/> to finish</h2><p>Done.</p>"
        "<h2>Saving <img src='i.png' alt='Info'/></h2><p>Saved.</p>"))
    assert text == ("# Multi-User\n\n## General Information about Shared Databases\n\nAll users share one file.\n\n"
                    "## Press Enter to finish\n\nDone.\n\n## Saving\n\nSaved.\n")


def test_html_a_paragraph_that_opens_with_a_notes_icon_is_a_note(tmp_path: Path) -> None:
    """KeePass's help opens a warning with a small picture whose alt text is "Warning": the
    paragraph is a note, as the readers give every note, not text that begins "Warning In …"."""
    text = html_text(tmp_path, (
        "<h1>Repairing Databases</h1><p><img src='warning.png' alt='Warning' class='textimg' /> In repair mode, "
        "the integrity of the data is not checked.</p><p>Go File &rarr; Import.</p>"))
    assert text == ("# Repairing Databases\n\n> **Warning:** In repair mode, the integrity of the data is not "
                    "checked.\n\nGo File → Import.\n")
