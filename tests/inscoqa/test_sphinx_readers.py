"""Sphinx sources: reStructuredText (through docutils), MyST Markdown, reference-style links."""

from __future__ import annotations

from pathlib import Path

import pytest

from inscoqa.corpus.document import DocumentError
from inscoqa.corpus.readers import FORMAT_BY_SUFFIX, read_document

RST = """\
.. _uninstall:

=============
Removing pkgs
=============

.. meta::
   :description: How to remove packages.

.. toctree::
   :maxdepth: 1

   other-page

Usage
=====

.. pip-command-usage:: uninstall

The ``uninstall`` command removes what :ref:`an install <install>` added; see :command:`pip list`.

.. note::

   Files it did not install stay where they are.

.. versionadded:: 21.1
   The ``--yes`` option.

Uninstall a package
===================

#. Find the package's name.

   .. tab:: Unix/macOS

      .. code-block:: console
         :caption: a shell session

         $ python -m pip list

#. Uninstall it:

   .. code-block:: console

      $ python -m pip uninstall simplejson
      Proceed (Y/n)? y
        Successfully uninstalled simplejson

Terms
   What a package declares, see :unknownrole:`the spec <spec>`.
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_restructuredtext_page_reads_as_the_html_reader_reads_a_page(tmp_path: Path) -> None:
    assert FORMAT_BY_SUFFIX[".rst"] == "rst"
    doc = read_document(_write(tmp_path, "uninstall.rst", RST))
    assert doc.title == "Removing pkgs" and doc.meta["format"] == "rst"
    text = doc.text
    assert text.startswith("# Removing pkgs\n")
    expected = [
        "## Usage", "## Uninstall a package",
        # inline code stays code; a reference shows its title; an unknown role its text
        "The `uninstall` command removes what an install added; see `pip list`.", "see the spec.",
        "> Note: Files it did not install stay where they are.",
        "New in version 21.1: The `--yes` option.",
        # a tab's title labels its code; Sphinx's options do not lose the block
        "1. Find the package's name.\n   Unix/macOS:\n   ```console\n   $ python -m pip list\n   ```",
        "2. Uninstall it:\n   ```console\n   $ python -m pip uninstall simplejson",
    ]
    assert [fragment for fragment in expected if fragment not in text] == []
    # directives without content and the table of contents give nothing
    assert not [word for word in ("other-page", "pip-command-usage", "maxdepth") if word in text]


def test_a_restructuredtext_page_docutils_cannot_read_is_named(tmp_path: Path) -> None:
    path = _write(tmp_path, "broken.rst", "Title\n=====\n\n")
    path.write_bytes(b"\xff\xfe broken \x80")
    with pytest.raises(DocumentError, match="broken.rst"):
        read_document(path)


MYST = """\
(install)=
# Installing

```{note}
Use a virtual environment.
```

The list is in {file}`requirements.txt`; see {ref}`Caching <caching>` and the [Python Package Index][pypi].

````{tab-set}
```{tab-item} Unix/macOS
:sync: unix
    python -m pip install -r requirements.txt
```
````

```{code-block} console
:caption: one line
$ pip install -r requirements.txt
```

```{toctree}
other
```

[pypi]: https://pypi.org

[^1]: Unendorsed.
"""


def test_myst_directives_roles_and_reference_links_read_as_plain_markdown(tmp_path: Path) -> None:
    text = read_document(_write(tmp_path, "install.md", MYST)).text
    assert text.startswith("# Installing\n")  # the target line above the heading goes
    assert "> **Note:** Use a virtual environment." in text
    assert "The list is in `requirements.txt`; see Caching and the [Python Package Index](https://pypi.org)." in text
    assert "Unix/macOS:" in text and ":sync:" not in text
    assert "```console\n$ pip install -r requirements.txt\n```" in text and ":caption:" not in text
    assert "toctree" not in text and "[pypi]:" not in text
    assert "[^1]: Unendorsed." in text  # a footnote is no link's target


def test_a_sphinx_build_folder_reads_each_page_once_from_its_html_and_none_of_its_indexes(tmp_path: Path) -> None:
    from inscoqa.corpus import CorpusIndex

    page = "<html><head><title>{0}</title></head><body><h1>{0}</h1><p>Run the tool.</p></body></html>"
    (tmp_path / "guide").mkdir()
    (tmp_path / "_sources" / "guide").mkdir(parents=True)
    (tmp_path / "index.html").write_text(page.format("Home"))
    (tmp_path / "guide" / "intro.html").write_text(page.format("Intro"))
    (tmp_path / "_sources" / "index.rst.txt").write_text("Home\n====\n\nRun the tool.\n")
    (tmp_path / "_sources" / "guide" / "intro.rst.txt").write_text(".. _intro:\n\nIntro\n=====\n\nRun it.\n")
    (tmp_path / "_sources" / "notes.txt").write_text("Notes\n\nA page the build did not make.\n")
    for name in ("genindex.html", "genindex-A.html", "py-modindex.html", "search.html"):
        (tmp_path / name).write_text(page.format("Index"))
    (tmp_path / "searchindex.js").write_text("Search.setIndex({})")
    (tmp_path / "guide" / "search.html").write_text(page.format("How to search"))  # a page of the text
    (tmp_path / "_modules" / "tool").mkdir(parents=True)  # viewcode's pages of the code
    (tmp_path / "_modules" / "tool" / "core.html").write_text(page.format("Source code for tool.core"))
    (tmp_path / "guide" / "_modules").mkdir()  # a folder of the text that has the name
    (tmp_path / "guide" / "_modules" / "writing.html").write_text(page.format("Writing modules"))

    ids = CorpusIndex({"site": tmp_path}).doc_ids("site", every_page=True)

    assert ids == ["site/_sources/notes.txt", "site/guide/_modules/writing.html", "site/guide/intro.html",
                   "site/guide/search.html", "site/index.html"]


FRAGMENTS = {  # Sphinx pages with no heading, each also included by advanced.html under one
    "lowdisk.html": "When disk space is low the client stops downloading files. Downloads that would leave "
                    "less than 250 MB free are skipped and retried later.",
    "conffile.html": "The client reads its settings from nextcloud.cfg. On Windows the file is in "
                     "%APPDATA%\\Nextcloud, on Linux in $HOME/.config/Nextcloud.",
    "envvars.html": "The behaviour of the client can also be set with environment variables, which override "
                    "the configuration file. OWNCLOUD_TIMEOUT sets the network timeout in seconds.",
}


def test_the_page_that_gives_sphinx_fragments_their_headings_is_kept_and_the_fragments_left_out(tmp_path: Path) -> None:
    from inscoqa.corpus import CorpusIndex

    page = ("<html><head><title>{title} &#8212; Client Manual 3.7 documentation</title></head>"
            "<body><div class=\"body\">{body}</div></body></html>")
    cmd = ("Install the command line client from your distribution. It syncs one folder with the server "
           "and exits, which suits scripts and cron jobs that run it every hour.")
    for name, text in FRAGMENTS.items():
        (tmp_path / name).write_text(page.format(title="&lt;no title&gt;", body=f"<p>{text}</p>"))
    (tmp_path / "cmd.html").write_text(page.format(title="Command Line Client",
                                                   body=f"<h1>Command Line Client</h1><p>{cmd}</p>"))
    sections = [("Low Disk Space", FRAGMENTS["lowdisk.html"]), ("Configuration File", FRAGMENTS["conffile.html"]),
                ("Environment Variables", FRAGMENTS["envvars.html"]), ("Command Line Client", cmd)]
    (tmp_path / "advanced.html").write_text(page.format(
        title="Advanced Usage",
        body="<h1>Advanced Usage</h1>" + "".join(f"<h2>{h}</h2><p>{t}</p>" for h, t in sections)))
    (tmp_path / "intro.html").write_text(page.format(title="Introduction", body="<h1>Introduction</h1>"
                                                     "<p>The client keeps your files in sync with the server.</p>"))

    index = CorpusIndex({"manual": tmp_path})

    # the fragments (and the page whose text the kept page holds too) are the copies
    assert index.doc_ids("manual") == ["manual/advanced.html", "manual/intro.html"]
    assert index.repeats("manual").compilations == {f"manual/{name}": 1 for name in (*FRAGMENTS, "cmd.html")}
    fragment = read_document(tmp_path / "conffile.html", doc_id="manual/conffile.html")
    assert fragment.title == "conffile" and fragment.meta["untitled"]  # Sphinx's placeholder is no title
    advanced = index.get("manual/advanced.html")
    assert "## Configuration File" in advanced.text and "%APPDATA%" in advanced.text


def test_a_page_that_copies_titled_pages_is_left_out_though_one_of_them_names_no_title(tmp_path: Path) -> None:
    from inscoqa.corpus import CorpusIndex

    page = "<html><head><title>{0}</title></head><body><h1>{0}</h1><p>{1}</p></body></html>"
    chapters = {"install": "Download the installer and run it. Choose the folder to install into and finish.",
                "sync": "Pick the folders to sync in the settings. The client uploads what changes there.",
                "share": "Right-click a file and choose Share. Enter the name of the person to share with."}
    for name, text in chapters.items():
        (tmp_path / f"{name}.html").write_text(page.format(name.title(), text))
    (tmp_path / "updates.html").write_text("<html><body><p>Keep the client up to date: each release fixes "
                                        "problems that older ones have with the server.</p></body></html>")
    (tmp_path / "print.html").write_text(
        "<html><head><title>Whole manual</title></head><body><h1>Whole manual</h1>"
        + "".join(f"<h2>{n.title()}</h2><p>{t}</p>" for n, t in chapters.items())
        + "<h2>Updates</h2><p>Keep the client up to date: each release fixes problems that older ones have "
          "with the server.</p></body></html>")

    index = CorpusIndex({"manual": tmp_path})

    assert index.repeats("manual").compilations == {"manual/print.html": 4}
    assert "manual/print.html" not in index.doc_ids("manual")


SIGNATURES = """\
<html><head><title>OSPFv2</title></head><body><h1>OSPFv2</h1>
<section><h2>Interfaces<a class="headerlink" href="#interfaces">¶</a></h2>
<dl class="std clicmd">
<dt class="sig sig-object std" id="clicmd-ip-ospf-area-AREA-ADDR">
<span class="sig-name descname"><span class="pre">ip</span> <span class="pre">ospf</span> <span class="pre">area</span>
<span class="pre">AREA</span> <span class="pre">[ADDR]</span></span><a class="headerlink" href="#clicmd-ip-ospf-area-AREA-ADDR">¶</a></dt>
<dd><p>Enable OSPF on the interface, putting it in the <em>AREA</em> area.</p>
<p>Mixing <code>network</code> and <code>ip ospf</code> commands is not supported.</p></dd></dl>
<dl class="py function">
<dt class="sig sig-object py" id="json.dumps">
<span class="sig-prename descclassname"><span class="pre">json.</span></span><span class="sig-name descname"><span class="pre">dumps</span></span><span class="sig-paren">(</span><em class="sig-param"><span class="n"><span class="pre">obj</span></span></em>, <em class="sig-param"><span class="o"><span class="pre">*</span></span></em>, <em class="sig-param"><span class="o"><span class="pre">**</span></span><span class="n"><span class="pre">kw</span></span></em><span class="sig-paren">)</span><a class="reference internal" href="_modules/json.html#dumps"><span class="viewcode-link"><span class="pre">[source]</span></span></a><a class="headerlink" href="#json.dumps">¶</a></dt>
<dd><p>Serialize <em>obj</em> to a JSON formatted string.</p><p>The arguments mean what they mean for dump.</p></dd></dl>
</section></body></html>
"""


def test_an_api_entrys_signature_is_a_heading_in_code_as_it_is_typed(tmp_path: Path) -> None:
    """Sphinx's entries (a command, a function): the signature, with its "*" and "**" and
    without the permalink or the viewcode extension's "[source]" link, heads the entry's
    section as code."""
    (tmp_path / "ospfd.html").write_text(SIGNATURES, encoding="utf-8")
    text = read_document(tmp_path / "ospfd.html").text
    assert "### `ip ospf area AREA [ADDR]`\n\nEnable OSPF on the interface" in text
    assert "### `json.dumps(obj, *, **kw)`\n\nSerialize *obj* to a JSON formatted string." in text
    assert "¶" not in text and "[source]" not in text and "_modules" not in text


SERVER_TXT = """\
==========
Secure Web
==========

------------
Module: core
------------

:Author: A. Writer
:abstract:
  How to serve pages over TLS

.. contents:: Table of Contents

Configuration
=============

To serve the whole site over TLS, give the certificate and turn the engine on::

  tls.engine = "enable"
  tls.pemfile = "/etc/site/server.pem"

Keep the key readable by the server alone.
"""


def test_a_plain_text_page_written_in_restructuredtext_is_read_as_restructuredtext(tmp_path: Path) -> None:
    """A server's manual pages saved as ``.txt`` in reStructuredText: the title between two rules
    is the title, a section is a heading, the block after "::" is code, and the author's fields
    and the table of contents are not prose; plain text with underlined headings and a "::" of its own
    stays text, and AsciiDoc, whose attributes and "term::" lists look alike, stays AsciiDoc."""
    doc = read_document(_write(tmp_path, "tls.txt", SERVER_TXT))
    assert doc.meta["format"] == "rst" and doc.title == "Secure Web"
    assert "## Configuration" in doc.text
    assert 'turn the engine on:\n\n```\ntls.engine = "enable"\ntls.pemfile = "/etc/site/server.pem"\n```' in doc.text
    assert "Table of Contents" not in doc.text and "tls.engine = \"enable\" tls.pemfile" not in doc.text
    assert "A. Writer" not in doc.text and "Author" not in doc.text  # who wrote it is no text of the page
    plain = _write(tmp_path, "notes.txt", "Notes\n=====\n\nRatio 2::1 of the mix.\n\nUsage\n-----\n\n"
                   ":set number shows the lines.\n")
    assert read_document(plain).meta["format"] == "text"
    asciidoc = _write(tmp_path, "git-notes.txt", "git-notes(1)\n============\n:git-notes: 1\n\nNAME\n----\n"
                      "git-notes - Add object notes\n\nOPTIONS\n-------\n'git notes' add::\n\n"
                      "\tAdd notes for a given object.\n")
    assert "\n\ngit notes add: Add notes for a given object.\n" in read_document(asciidoc).text
