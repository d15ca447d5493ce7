"""A site's repeated chrome at the top and bottom of its pages is left out; shared content stays;
a page that copies other pages whole is not listed."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from inscoqa.bundled import corpus_index
from inscoqa.corpus import CorpusIndex
from inscoqa.corpus.boilerplate import (
    Chrome,
    block_key,
    compilations,
    find_repeats,
    links_only,
    load_repeats,
    repeated_blocks,
    site_names,
    site_part,
    without_blocks,
    without_site_name,
)

HELP = "## Keyboard shortcuts\n\nPress `?` to show this help"
FOOTER = "Still need help? Ask on the [forum](https://forum.example.org)."
SHARED = "The `--quiet` option prints nothing but errors."


def page(n: int) -> str:
    return (f"# Command {n}\n\n{HELP}\n\n## Symptoms\n\nCommand {n} stops at step {n}.\n\n{SHARED}\n\n"
            f"Run command {n} again.\n\n## More information\n\n{FOOTER}\n")


def html_site(folder: Path, topics: Iterable[str], page: Callable[[str], str]) -> Path:
    """A folder with one HTML page per topic (``page(topic)``), named after the topic."""
    folder.mkdir()
    for topic in topics:
        (folder / f"{topic.replace(' ', '-').lower()}.html").write_text(page(topic), encoding="utf-8")
    return folder


def test_the_chrome_at_a_pages_edges_goes_and_what_pages_share_in_the_middle_stays() -> None:
    texts = [page(n) for n in range(6)]
    chrome = repeated_blocks(texts)
    assert {"## Keyboard shortcuts", block_key(FOOTER), SHARED, "## Symptoms", "## More information"} <= chrome.top
    text, dropped = without_blocks(texts[0], chrome)
    # the help's heading and line, the footer and the heading of the section it leaves empty
    assert text == (f"# Command 0\n\n## Symptoms\n\nCommand 0 stops at step 0.\n\n{SHARED}\n\n"
                    "Run command 0 again.\n")
    assert dropped == 4


def test_a_block_on_too_few_pages_is_kept() -> None:
    texts = [page(n) for n in range(4)]
    assert repeated_blocks(texts) == Chrome()  # four pages: fewer than five
    many = [page(n) for n in range(6)] + [f"# Page {n}\n\nSomething else.\n" for n in range(30)]
    chrome = repeated_blocks(many)  # six pages of 36: a footer (a tenth), not a header (a quarter)
    assert block_key(FOOTER) in chrome.bottom and "## Keyboard shortcuts" not in chrome.top
    assert without_blocks(texts[0], Chrome()) == (texts[0], 0)


def test_site_part_is_the_first_folder_or_the_corpus() -> None:
    assert site_part("officedocs/SharePoint/SharePointOnline/sites/a.md") == "officedocs/SharePoint"
    assert site_part("gnome-help/a.page") == "gnome-help"


def test_corpus_index_leaves_out_a_folders_own_footer(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "site" / "guide").mkdir(parents=True)
    for n in range(6):
        (tmp_path / "site" / "guide" / f"p{n}.md").write_text(
            f"# Page {n}\n\nDo thing {n} first.\n\n{SHARED}\n\nThen thing {n}.\n\n{FOOTER}\n",
            encoding="utf-8")
    for n in range(20):
        (tmp_path / "site" / f"top{n}.md").write_text(f"# Top {n}\n\nRead {n}.\n", encoding="utf-8")
    index = CorpusIndex({"site": tmp_path / "site"})
    doc = index.get("site/guide/p3.md")
    assert FOOTER not in doc.text and SHARED in doc.text
    assert doc.meta["repeated_blocks_left_out"] == 1
    assert "repeated_blocks_left_out" not in index.get("site/top3.md").meta


def test_bundled_support_articles_lose_their_community_footer() -> None:
    index = corpus_index()
    doc_ids = [d for d in index.doc_ids("officedocs") if "/SharePoint/" in d][:40]
    texts = [index.get(d).text for d in doc_ids]
    assert not any("Still need help?" in t.rstrip().rsplit("\n\n", 1)[-1] for t in texts)
    with_footer = [d for d in doc_ids if "Still need help?" in index.path(d).read_text(encoding="utf-8")]
    assert with_footer and all(index.get(d).meta.get("repeated_blocks_left_out") for d in with_footer)


def test_a_corpus_s_chrome_is_kept_in_the_cache_until_a_file_changes(tmp_path: Path, monkeypatch) -> None:
    import inscoqa.corpus.index as index_module

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    site = tmp_path / "site"
    site.mkdir()
    for n in range(6):
        (site / f"p{n}.md").write_text(f"# Page {n}\n\nDo thing {n}.\n\n{FOOTER}\n", encoding="utf-8")
    first = CorpusIndex({"site": site}).get("site/p1.md")
    assert FOOTER not in first.text
    kept = list((tmp_path / "cache" / "inscoqa" / "repeats").glob("site-*.json"))
    assert len(kept) == 1

    reads: list[Path] = []
    real = index_module.read_document
    monkeypatch.setattr(index_module, "read_document", lambda path, **kw: reads.append(path) or real(path, **kw))
    again = CorpusIndex({"site": site}).get("site/p1.md")
    assert again.text == first.text and reads == [site / "p1.md"]  # the other pages are not read

    (site / "p5.md").write_text("# Page 5\n\nDo thing 5, now with more words.\n", encoding="utf-8")
    reads.clear()
    CorpusIndex({"site": site}).get("site/p1.md")
    assert len(reads) == 6  # a changed file: the corpus is read again
    assert len(list((tmp_path / "cache" / "inscoqa" / "repeats").glob("site-*.json"))) == 2
    kept[0].write_text("not json", encoding="utf-8")
    assert load_repeats(kept[0]) is None


def chapter(n: int) -> str:
    return (f"# Chapter {n}\n\nChapter {n} explains how to set up part {n} of the build.\n\n"
            f"1. Open the file for part {n}.\n2. Add the lines of part {n}.\n\n{SHARED}\n")


def test_a_page_that_copies_three_pages_whole_is_a_compilation() -> None:
    texts = {f"book/ch{n}.md": chapter(n) for n in range(4)}
    texts["book/print.md"] = "# The book\n\n" + "\n\n".join(chapter(n) for n in range(4))
    texts["book/notes.md"] = chapter(0).replace("Chapter 0", "Notes") + "\n\nMy own note.\n"
    assert compilations(texts) == {"book/print.md": 4}
    # two pages copied are a page quoting others, not a compilation; neither is a chapter itself
    del texts["book/ch2.md"], texts["book/ch3.md"]
    assert compilations(texts) == {}


def test_a_page_that_quotes_the_opening_of_three_pages_copies_none() -> None:
    texts = {f"book/ch{n}.md": chapter(n) for n in range(4)}
    openings = [chapter(n).split("\n\n")[1] for n in range(3)]
    texts["book/digest.md"] = "# Digest\n\n" + "\n\n".join(openings) + "\n"
    assert compilations(texts) == {}  # each chapter's steps are its own: a third of it is quoted


def test_corpus_index_lists_a_folder_without_the_page_that_copies_it(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    book = tmp_path / "book"
    book.mkdir()
    for n in range(4):
        (book / f"ch{n}.md").write_text(chapter(n), encoding="utf-8")
    (book / "print.md").write_text("# The book\n\n" + "\n\n".join(chapter(n) for n in range(4)),
                                   encoding="utf-8")
    index = CorpusIndex({"book": book})
    assert "book/print.md" not in index.doc_ids() and len(index.doc_ids()) == 4
    assert "book/print.md" in index.doc_ids(every_page=True)
    assert [d.doc_id for d in index.iter_documents()] == index.doc_ids()
    assert "Chapter 3" in index.get("book/print.md").text  # still read when asked for by name
    assert CorpusIndex({"book": book}).repeats("book").compilations == {"book/print.md": 4}  # kept


def test_a_page_with_no_text_of_its_own_is_a_stub() -> None:
    """Pages that only say they moved, each pointing to its own new place: their words repeat,
    their links' targets do not. A page with one sentence of its own is no stub."""
    texts = {f"book/old/ch{n}.md": f"# Chapter {n}\n\n## Chapter {n}\n\nThe old edition is no longer "
             f"distributed.\n\nCheck out [the current version](../ch{n}.md) instead.\n" for n in range(6)}
    texts["book/old/ch5.md"] = texts["book/old/ch5.md"].replace("## Chapter 5\n\n", "## Chapter 5\n\nIt has moved.\n\n")
    texts.update({f"book/ch{n}.md": chapter(n) for n in range(6)})
    texts["book/old/intro.md"] = "An introduction of its own, without a heading.\n\nThe old edition is no longer distributed.\n"
    found = find_repeats(texts)
    assert "Check out [the current version] instead." in found.chrome["book/old"].top
    assert found.stubs == {f"book/old/ch{n}.md" for n in range(5)}


def test_a_page_that_is_only_a_list_of_links_is_a_stub() -> None:
    """mdBook's toc.html (the chapter list without scripts); a list with a word of its own
    besides its links, or a page of steps, is no stub."""
    texts = {f"book/ch{n}.md": chapter(n) for n in range(6)}
    texts["book/toc.md"] = ("# toc\n\n1. [**1.** What is rustdoc?](what-is-rustdoc.html)\n"
                            "2. [**2.** The #[doc] attribute](the-doc-attribute.html)\n"
                            "   1. [**2.1.** Re-exports](re-exports.html)\n")
    texts["book/see-also.md"] = "# See also\n\n- [Install](install.html): how to install it\n- [Use](use.html)\n"
    assert links_only("- [Install](install.html)\n   1. [**1.1** Linux](linux.html)")
    assert not links_only("- [Install](install.html): how to install it")
    assert find_repeats(texts).stubs == {"book/toc.md"}


def test_a_manuals_index_page_is_a_stub_and_a_table_with_words_of_its_own_is_not() -> None:
    """Texinfo's index pages (zsh's Concept Index): a table of index entries, each a link to a
    section, under a row of links to each letter; they matched every question's words. A table
    whose cells say something besides their links stays."""
    texts = {f"zsh/ch{n}.md": chapter(n) for n in range(6)}
    texts["zsh/Concept-Index.md"] = (
        "# Concept Index\n\n| Jump to: | [**A**](#letter-A) [**H**](#letter-H) |\n|---|---|\n\n"
        "| Index Entry | Section |\n|---|---|\n| A |  |\n| [aliases, global](Aliases.html#index-1) | "
        "[6.8 Aliasing](Aliases.html) |\n| H |  |\n| [history, sharing](Options.html#index-SHARE) | "
        "[16.2.4 History](Options.html#History) |\n| [history, size](Params.html#index-HISTSIZE) | "
        "[15.6 Parameters](Params.html#P) |\n| [hooks](Functions.html#index-hooks) | [9.3 Hooks](Functions.html) |\n"
        "| [hosts](Completion.html#index-hosts) | [20.3 Styles](Completion.html) |\n")
    texts["zsh/settings.md"] = ("# Settings\n\n| Setting | What it does |\n|---|---|\n"
                                "| [HISTSIZE](Params.html) | The number of lines of history kept in memory |\n")
    assert links_only(texts["zsh/Concept-Index.md"].split("\n\n")[2])
    assert find_repeats(texts).stubs == {"zsh/Concept-Index.md"}


def test_a_manuals_index_set_as_lines_of_terms_and_links_is_a_stub() -> None:
    """Exim's Option Index: a line per option, its name and the links to the sections that
    describe it; a line that says what the term is, or a reference entry with a link in its
    text, is no index. An index of many entries is one with a few lines of its own ("see …");
    a page of a few links and a line of its own is not."""
    texts = {f"exim/ch{n}.md": chapter(n) for n in range(6)}
    texts["exim/option-index.md"] = (
        "# Option Index\n\n### Symbols\n\n--help: [The Exim command line [Command line options]](cmd.html#vi1)\n\n"
        "-C: [The Exim command line [Command line options]](cmd.html#vi41), [Security considerations [Root "
        "privilege]](security.html#SECID270)\n\n-bI:help: [The Exim command line](cmd.html#vi18)\n\n"
        "### A\n\naccept_8bitmime: [Main configuration [Alphabetical list]](main.html#vi100)\n")
    texts["exim/options.md"] = ("# Options\n\n-C: Use [another configuration file](config.html) instead.\n\n"
                                "-bV: [Version](cmd.html#v) and configuration check.\n")
    assert links_only("-C: [The Exim command line](cmd.html#vi41), [Security considerations](security.html)")
    assert not links_only("-C: Use [another configuration file](config.html) instead.")
    assert find_repeats(texts).stubs == {"exim/option-index.md"}
    entries = [f"term {n}: [Chapter {n}](ch{n}.html#e{n})" for n in range(30)]  # a long index with a few other lines
    texts["exim/concept-index.md"] = "# Concept Index\n\n" + "\n\n".join([*entries, 'rewriting: see "rewriting"'])
    texts["exim/links.md"] = "# Links\n\n" + "\n\n".join([*entries[:5], "Read these first."])
    assert find_repeats(texts).stubs == {"exim/option-index.md", "exim/concept-index.md"}


def test_bundled_corpora_have_no_compilation_and_no_stub() -> None:
    index = corpus_index()
    assert all(not index.repeats(name).compilations and not index.repeats(name).stubs for name in index.roots)


def test_the_site_name_in_many_titles_is_left_out_of_each():
    titles = [f"{topic} | Node.js v20 Documentation" for topic in ("File system", "Path", "OS", "Net", "DNS")]
    names = site_names([*titles, "About this site", "Errors - a guide"])
    assert names == {"Node.js v20 Documentation"}
    assert without_site_name("File system | Node.js v20 Documentation", names) == "File system"
    assert without_site_name("Node.js v20 Documentation — Path", names) == "Path"
    assert without_site_name("Node.js v20 Documentation", names) == "Node.js v20 Documentation"
    assert without_site_name("Errors - a guide", names) == "Errors - a guide"
    assert site_names(titles[:4]) == frozenset()  # four pages: fewer than five


def test_a_site_name_that_heads_every_page_gives_way_to_the_page_title(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    site = html_site(tmp_path / "api", ("File system", "Path", "OS", "Net", "DNS", "HTTP"), lambda topic: (
        f"<html><head><title>{topic} | Node.js v20 Documentation</title></head><body><header><h1>Node.js "
        f"v20 documentation</h1></header><h2>{topic}</h2><p>The {topic} module does {topic} things.</p>"
        "</body></html>"))
    doc = CorpusIndex({"api": site}).get("api/file-system.html")
    assert doc.title == "File system"
    assert doc.text == "# File system\n\n## File system\n\nThe File system module does File system things.\n"


def test_an_mdbook_page_opens_with_its_own_title_and_text(tmp_path: Path, monkeypatch) -> None:
    """mdBook's pages (the Cargo book): "Page - Book" as the title, a keyboard-help popup, the
    book's name as a heading, a bar of icon links, then the page's own first heading. The page
    opens with its title once, then its text."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    topics = ("Workspaces", "Features", "Profiles", "Registries", "Build scripts", "Publishing")
    book = html_site(tmp_path / "book", topics, lambda topic: (
        f"<html><head><title>{topic} - The Cargo Book</title></head><body>"
        "<div id='help'><h2>Keyboard shortcuts</h2><p>Press <kbd>?</kbd> to show this help</p></div>"
        f"<h1 class='menu-title'>The Cargo Book</h1><a href='print.html'><i class='fa fa-print'></i></a> "
        f"<a href='https://github.com/rust-lang/cargo/edit/{topic}.md'><i class='fa fa-edit'></i></a>"
        f"<main><h1>{topic}</h1><p>How {topic.lower()} work in a package.</p></main></body></html>"))
    doc = CorpusIndex({"book": book}).get("book/build-scripts.html")
    assert doc.title == "Build scripts"
    assert doc.text == "# Build scripts\n\nHow build scripts work in a package.\n"


def test_threads_that_ask_a_cold_index_at_once_read_the_corpus_once(tmp_path: Path, monkeypatch) -> None:
    """A run's threads share one index: the first to ask reads the corpus for all, and none
    sees a document that another has taken in the meantime."""
    from concurrent.futures import ThreadPoolExecutor

    import inscoqa.corpus.index as index_module

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    site = tmp_path / "site"
    site.mkdir()
    for n in range(40):
        (site / f"p{n}.md").write_text(f"# Page {n} | Acme Help\n\nDo thing {n}.\n\n{FOOTER}\n", encoding="utf-8")
    reads: list[Path] = []
    real = index_module.read_document
    monkeypatch.setattr(index_module, "read_document", lambda path, **kw: reads.append(path) or real(path, **kw))
    index = CorpusIndex({"site": site})
    with ThreadPoolExecutor(8) as pool:
        docs = list(pool.map(index.get, [f"site/p{n}.md" for n in range(40)] * 2))
    assert len(reads) == 40  # each file once
    assert all(FOOTER not in d.text and d.title == f"Page {i % 40}" for i, d in enumerate(docs))
