"""What a site repeats at the top or the bottom of many of its pages: a help popup, a "Still
need help?" footer, a navigation bar.

Blocks (paragraphs and headings between blank lines; code is never one) that many documents of
a corpus, or of one part of it (its first folder), contain are the site's repeated blocks. A
document loses the run of them it ends with, and the run it starts with after its title, up to
the last heading in that run (a "## Symptoms" that the page's own text follows stays). The same
block in the middle of a page is content that pages share (the options several command pages
describe alike) and stays. So a search does not find every page by its chrome, and an answer
does not give "Go to the community" as a step.

A page can also repeat other pages whole: mdBook's print.html holds every chapter of the book,
a single-page edition sits beside its chapters. Such a compilation (:func:`compilations`) is
found by the blocks it shares with exactly one other page: when it holds most of at least
:data:`MIN_SOURCES` pages that way, and they make up most of its own words, a search of the
corpus leaves the page out, so its copies do not crowd out the pages they come from.

A page can have no text of its own (:func:`stubs`): every block of it but its headings is one the
site repeats, as on a page that only says it has moved ("The 2018 edition of the book is no longer
distributed … check out the current version instead") or one that only titles a part of a
manual, or whose text is only a list of links (a table of contents on a page of its own) or a
table of them (a manual's index). A search of the corpus leaves it out too. Blocks are compared with their links' targets
set aside (:func:`block_key`), which differ from page to page where the words do not.

Titles repeat the site's name too ("File system | Node.js v20.20.2 Documentation"): a first or
last part of a title that many titles share is left out (:func:`site_names`), and a first
heading that is the site's name on every page gives way to the page's title.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass
from pathlib import Path

MIN_DOCUMENTS = 5  # a block repeated on fewer pages than this is kept
TOP_SHARE = 0.25  # a block at the top of a page is chrome on at least this share of the pages
BOTTOM_SHARE = 0.1  # ... at the bottom (a footer that ends a tenth of the pages word for word)
COPIED_SHARE = 0.5  # a page holding this share of another's words copies it; one that copies ...
MIN_SOURCES = 3  # ... at least this many pages, which make up that share of its words, compiles them
# where a page's title joins the site's name to its own ("Reset a password | Acme Help")
_TITLE_PARTS = re.compile(r"(\s+[|·•–—-]\s+)")
_LINK_TARGET = re.compile(r"\]\([^)]*\)")


@dataclass(frozen=True)
class Chrome:
    """The repeated blocks of a set of pages (as :func:`block_key` gives them), by the edge they
    are left out at."""

    top: frozenset[str] = frozenset()
    bottom: frozenset[str] = frozenset()

    def __or__(self, other: Chrome) -> Chrome:
        return Chrome(self.top | other.top, self.bottom | other.bottom)


@dataclass(frozen=True)
class Repeats:
    """What a corpus repeats: the chrome per corpus or part of one (:func:`site_part`), its
    compilations, each with the number of pages it copies, the site's names in its titles, and
    the pages with no text of their own (:func:`stubs`)."""

    chrome: dict[str, Chrome]
    compilations: dict[str, int]
    site_names: frozenset[str] = frozenset()
    stubs: frozenset[str] = frozenset()


def save_repeats(path: Path, repeats: Repeats) -> None:
    """Keep what :func:`find_repeats` found in a JSON file (written whole, then renamed); a cache
    that cannot be written is only not kept."""
    chrome = {part: {"top": sorted(c.top), "bottom": sorted(c.bottom)} for part, c in repeats.chrome.items()}
    data = {"chrome": chrome, "compilations": repeats.compilations, "site_names": sorted(repeats.site_names),
            "stubs": sorted(repeats.stubs)}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def load_repeats(path: Path) -> Repeats | None:
    """What :func:`save_repeats` kept, or None when there is none that can be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        chrome = {part: Chrome(frozenset(c["top"]), frozenset(c["bottom"]))
                  for part, c in data["chrome"].items()}
        return Repeats(chrome, {str(doc_id): int(n) for doc_id, n in data["compilations"].items()},
                       frozenset(str(name) for name in data["site_names"]),
                       frozenset(str(doc_id) for doc_id in data["stubs"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def site_part(doc_id: str) -> str:
    """The part of a corpus whose pages may share chrome of their own: ``corpus/first-folder``
    for a document in a folder, else the corpus (``officedocs/SharePoint``, ``gnome-help``)."""
    parts = doc_id.split("/")
    return "/".join(parts[:2] if len(parts) > 2 else parts[:1])


def blocks(text: str) -> list[str]:
    return text.split("\n\n")


def _comparable(block: str) -> bool:
    text = block.strip()
    return bool(text) and "```" not in text and "~~~" not in text


def block_key(block: str) -> str:
    """A block as a site repeats it: stripped, its links' targets set aside ("check out [the
    current version of the book](../ch14-04.html) instead" on every page that moved)."""
    return _LINK_TARGET.sub("]", block.strip())


def _heading(block: str) -> bool:
    text = block.strip()
    return text.startswith("#") and "\n" not in text


def repeated_blocks(texts: Iterable[str]) -> Chrome:
    """The blocks that at least :data:`MIN_DOCUMENTS` of ``texts`` contain, and at least
    :data:`TOP_SHARE` (:data:`BOTTOM_SHARE`) of them."""
    counts: Counter[str] = Counter()
    n = 0
    for text in texts:
        n += 1
        counts.update({block_key(b) for b in blocks(text) if _comparable(b)})

    def found(share: float) -> frozenset[str]:
        bar = max(MIN_DOCUMENTS, share * n)
        return frozenset(b for b, count in counts.items() if count >= bar)

    return Chrome(top=found(TOP_SHARE), bottom=found(BOTTOM_SHARE))


def compilations(texts: Mapping[str, str], untitled: Set[str] = frozenset()) -> dict[str, int]:
    """The pages of ``texts`` (id -> text) that copy other pages, each with how many it copies.
    A page copies another when the blocks that only the two of them hold make up at least
    :data:`COPIED_SHARE` of the other's own words (those in blocks no third page holds); it is a
    compilation when it copies at least :data:`MIN_SOURCES` pages and their blocks make up that
    share of its own words. A chapter shares its text with the compilation alone, a page that
    quotes a part of another copies nothing, and blocks that many pages hold (shared options)
    are nobody's copy. When most pages a compilation copies are ``untitled``, pages that name no
    title of their own (the parts a Sphinx page includes under its headings, each also built as
    a "<no title>" page), the page that gives them their headings stays and the pages it copies
    are the copies, each of one page."""
    pages: dict[str, list[str]] = {}
    holders: defaultdict[str, set[str]] = defaultdict(set)
    for doc_id, text in texts.items():
        pages[doc_id] = [b.strip() for b in blocks(text) if _comparable(b)]
        for block in pages[doc_id]:
            holders[block].add(doc_id)
    # a page's own words: in blocks that at most one other page holds (not its chrome or the
    # options it shares with many pages)
    words = {doc_id: sum(len(block.split()) for block in own if len(holders[block]) <= 2)
             for doc_id, own in pages.items()}
    found: dict[str, int] = {}
    for doc_id, own in pages.items():
        shared: Counter[str] = Counter()  # other page -> words of the blocks only the two hold
        for block in own:
            if len(holders[block]) == 2:
                (other,) = holders[block] - {doc_id}
                shared[other] += len(block.split())
        copied = [other for other, n in shared.items() if n >= COPIED_SHARE * words[other]]
        if len(copied) >= MIN_SOURCES and sum(shared[o] for o in copied) >= COPIED_SHARE * words[doc_id]:
            if 2 * len(untitled.intersection(copied)) > len(copied):
                found.update(dict.fromkeys(copied, 1))
            else:
                found[doc_id] = len(copied)
    return found


# a page of this many blocks of links alone, and that share of its blocks, is an index whatever
# its few other lines say (Exim's concept index: 2,515 entries of its 2,595 blocks, the rest
# "see …" pointers and entries cut where a term holds brackets)
MIN_INDEX_BLOCKS = 20
INDEX_SHARE = 0.9


def stubs(texts: Mapping[str, str], chrome: Mapping[str, Chrome]) -> frozenset[str]:
    """The pages of ``texts`` (id -> text) with no text of their own: they have text besides
    their headings, and every block of it is chrome of their corpus or their part of it
    (``chrome`` by :func:`site_part`) or a list of links alone (:func:`links_only`: mdBook's
    ``toc.html``, the chapter list a browser without scripts gets); or they are an index, whose
    blocks are links alone but for a few (:data:`MIN_INDEX_BLOCKS`, :data:`INDEX_SHARE`)."""
    found = set()
    for doc_id, text in texts.items():
        own = [b for b in blocks(text) if _comparable(b) and not _heading(b)]
        site = chrome.get(doc_id.split("/", 1)[0], Chrome()) | chrome.get(site_part(doc_id), Chrome())
        linked = [links_only(b) for b in own]
        said = [b for b, link in zip(own, linked, strict=True) if not link]  # the blocks besides links
        if own and all(block_key(b) in site.top or block_key(b) in site.bottom for b in said) \
                or sum(linked) >= max(MIN_INDEX_BLOCKS, INDEX_SHARE * len(own)):
            found.add(doc_id)
    return frozenset(found)


_LINK = r"\[(?:[^\[\]]|\[[^\]]*\])*\]\([^)\s]*\)"  # "[text](target)", "[The Exim command line [Options]](…)"
_LINK_ITEM = re.compile(rf"^\s*(?:[-*+]|\d+[.)])\s+{_LINK}\s*$")
# an index's entry: a term, a colon, the links to where it is said ("-C: [The Exim command line
# [Command line options]](ch-the_exim_command_line.html#vi41), [Security considerations …](…)")
_INDEX_ENTRY = re.compile(rf"^[^\[\]\n]{{1,60}}?:\s+{_LINK}(?:\s*,\s*{_LINK})*\s*$")  # "-bI:help: [...](…)" too


def links_only(block: str) -> bool:
    """A list whose every item is a link and nothing else ("1. [**2.** Command-line
    arguments](command-line-arguments.html)"): a table of contents or a site map; or a table
    whose every cell is links, a short label or nothing, with a link in half its rows or more
    (a manual's index: "| [history, sharing](Options.html#index-SHARE_HISTORY) | [16.2.4
    History](…) |", under "| Index Entry | Section |" and a row per letter); or a manual's index
    set as lines, each a term and the links to it ("-C: [The Exim command line [Command line
    options]](…), [Security considerations [Root privilege]](…)")."""
    lines = [line for line in block.splitlines() if line.strip()]
    if lines and all(line.lstrip().startswith("|") for line in lines):
        rows = [line for line in lines if not _TABLE_RULE.match(line)]
        cells = [[cell.strip() for cell in re.split(r"(?<!\\)\|", row.strip().strip("|"))] for row in rows]
        linked = sum(any(_LINKS.fullmatch(cell) for cell in row) for row in cells)
        return bool(rows) and 2 * linked >= len(rows) and all(
            not cell or _LINKS.fullmatch(cell) or len(cell.split()) <= 3 for row in cells for cell in row)
    return bool(lines) and (all(_LINK_ITEM.match(line) for line in lines)
                            or all(_INDEX_ENTRY.match(line) for line in lines))


_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
# a cell of links only: "[term](page#anchor)", "[ [<](page.html) ]", "[**A**](#letter-A) [**B**](#letter-B)"
_LINKS = re.compile(r"(?:\[?\s*\[(?:[^\[\]]|\[[^\]]*\])*\]\([^)\s]*\)\s*\]?\s*)+")


def site_names(titles: Iterable[str]) -> frozenset[str]:
    """The site's names in its pages' titles: a first or last part of a title (split at " | ",
    " - ", " – ", " — " or " · ") that at least :data:`MIN_DOCUMENTS` titles, and
    :data:`TOP_SHARE` of them, share ("Node.js v20.20.2 Documentation")."""
    counts: Counter[str] = Counter()
    n = 0
    for title in titles:
        n += 1
        parts = _TITLE_PARTS.split(title.strip())
        if len(parts) > 1:
            counts.update({parts[0], parts[-1]})
    bar = max(MIN_DOCUMENTS, TOP_SHARE * n)
    return frozenset(part for part, count in counts.items() if count >= bar)


def without_site_name(title: str, names: frozenset[str]) -> str:
    """A page's title without the site's name at its end or start ("File system | Node.js v20
    Documentation" -> "File system")."""
    parts = _TITLE_PARTS.split(title.strip())
    if len(parts) > 1 and parts[-1] in names:
        parts = parts[:-2]
    if len(parts) > 1 and parts[0] in names:
        parts = parts[2:]
    return "".join(parts) or title


def find_repeats(texts: Mapping[str, str], titles: Iterable[str] = (), untitled: Set[str] = frozenset()) -> Repeats:
    """The chrome, the compilations, the site's names and the stubs of one corpus's pages (id ->
    text, their titles, and those that name no title: :func:`compilations`): its chrome, and each
    part's own (:func:`repeated_blocks`)."""
    corpus = {doc_id.split("/", 1)[0] for doc_id in texts}
    parts: defaultdict[str, list[str]] = defaultdict(list)
    for doc_id, text in texts.items():
        parts[site_part(doc_id)].append(text)
    chrome = {name: repeated_blocks(texts.values()) for name in corpus}
    chrome.update((part, repeated_blocks(t)) for part, t in parts.items() if part not in corpus)
    return Repeats(chrome, compilations(texts, untitled), site_names(titles), stubs(texts, chrome))


def without_blocks(text: str, chrome: Chrome, title: str = "",
                   names: frozenset[str] = frozenset()) -> tuple[str, int]:
    """``text`` without its chrome at the top (after its ``# title``) and at the bottom (blank
    blocks pass), and how many blocks were left out. A ``# title`` that is itself chrome (the
    site's name as every page's first heading), or that is ``title`` with the site's name
    (``names``), becomes ``title``, when there is one; a heading of the site's name in the chrome
    at the top goes with it."""
    parts = blocks(text)
    renamed = 0
    first_heading = parts[0].strip() if parts and parts[0].startswith("# ") else ""
    if title and first_heading and first_heading != f"# {title}" \
            and (block_key(first_heading) in chrome.top or without_site_name(first_heading[2:], names) == title):
        parts[0], renamed = f"# {title}", 1

    def repeated(i: int, found: frozenset[str]) -> bool:
        block = parts[i].strip()
        return not block or (_comparable(block) and block_key(block) in found)

    start = 1 if parts and parts[0].startswith("# ") else 0
    first = start
    while first < len(parts) and repeated(first, chrome.top):
        first += 1
    # the page's own text follows the last heading of the chrome ("## Symptoms" opens many pages),
    # and comes after a heading that names the site ("# The Cargo Book" under every page's title)
    named = [i for i in range(start, first) if parts[i].strip().lstrip("#").strip() in names]
    headings = [i for i in range(named[-1] + 1 if named else start, first) if parts[i].lstrip().startswith("#")]
    if first < len(parts) and headings:
        first = headings[-1]
    if start and first > start and first < len(parts) and parts[first].strip() == parts[0].strip():
        first += 1  # the page's own first heading, once chrome no longer parts it from its title
    last = len(parts)
    while last > first and repeated(last - 1, chrome.bottom):
        last -= 1
    dropped = renamed + sum(1 for b in parts[start:first] + parts[last:] if b.strip())
    if not dropped:
        return text, 0
    return "\n\n".join(parts[:start] + parts[first:last]).rstrip("\n") + "\n", dropped


__all__ = ["BOTTOM_SHARE", "COPIED_SHARE", "MIN_DOCUMENTS", "MIN_SOURCES", "TOP_SHARE", "Chrome",
           "Repeats", "block_key", "compilations", "find_repeats", "load_repeats", "repeated_blocks",
           "save_repeats", "site_names", "site_part", "stubs", "without_blocks", "without_site_name"]
