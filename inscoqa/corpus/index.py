"""Resolve ``<corpus>/<path inside that corpus>`` document ids against corpus directories."""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from inscoqa.corpus.boilerplate import (
    Chrome,
    Repeats,
    find_repeats,
    load_repeats,
    save_repeats,
    site_part,
    without_blocks,
    without_site_name,
)
from inscoqa.corpus.document import Document, DocumentError
from inscoqa.corpus.readers import is_document, read_document

if TYPE_CHECKING:
    from inscoqa.records import Conversation

LICENSE_FILES = ("LICENSE", "LICENSE.md", "LICENSE.txt", "COPYRIGHT", "COPYING")
# the page a manual starts from: Mallard's index.page, a built site's index.html (index.en.html
# in a language of several), the index.md / index.rst / index.adoc of its sources
# a manual's start page; a KDE handbook is the one file "okular/index.docbook" of its folder
START_PAGE = re.compile(r"^index(?:\.[a-z]{2}(?:[-_][A-Za-z]{2,4})?)?\.(?:page|html?|md|rst|adoc|asciidoc|docbook|dbk)$")
# Recognised licence texts: a phrase in the licence file -> the licence's short name.
LICENSE_PHRASES = (
    ("Attribution-ShareAlike 3.0", "CC BY-SA 3.0"),
    ("CC-BY-SA-3.0", "CC BY-SA 3.0"),
    ("Attribution-ShareAlike 4.0", "CC BY-SA 4.0"),
    ("Attribution 4.0", "CC BY 4.0"),
    ("released into the public domain", "Public domain (Unlicense)"),
    ("Apache License", "Apache-2.0"),
    ("MIT License", "MIT"),
)
# Files that are not documents on their own: fragments included by others, site index pages.
SKIPPED_DIRS = frozenset({"includes", "media", "figures", ".git"})
# a Sphinx build keeps each page's source beside it: ``_sources/guide/intro.rst.txt`` for
# ``guide/intro.html``
SPHINX_SOURCES = "_sources"
_SOURCE_SUFFIX = re.compile(r"(?:\.(?:rst|md|txt))?\.txt$", re.I)
# the pages a Sphinx build writes of its own: the general index, the module index, the search
_SPHINX_PAGES = re.compile(r"^(?:genindex(?:-\w+)?|[a-z]+-modindex|search)\.html$")
# ... and the folder of the code its viewcode extension shows, a page per module ("Source code
# for django.core.mail"), that each entry's "[source]" links to
SPHINX_CODE = "_modules"


def sphinx_generated(root: Path, rel: Path) -> bool:
    """Whether ``rel`` (a path under ``root``) is a page that a Sphinx build made of its own
    beside the pages of the text (the build's ``searchindex.js`` is in the folder of its
    pages): an index of every entry or the search page (FRR's index ran to 14,000 words of
    links), or a module's source code under ``_modules/`` (Django's 153 such pages are code,
    with none of the text that says how to use it)."""
    if _SPHINX_PAGES.match(rel.name) and (root / rel).with_name("searchindex.js").is_file():
        return True
    parts = rel.parts[:-1]
    return any(part == SPHINX_CODE and root.joinpath(*parts[:i], "searchindex.js").is_file()
               for i, part in enumerate(parts))


def built_page_source(root: Path, rel: Path) -> bool:
    """Whether ``rel`` (a path under ``root``) is the source that a Sphinx build copied beside
    a page it built from it, which the folder holds as HTML: the page is read once, from its
    HTML (whose references and code the build resolved)."""
    parts = rel.parts
    if SPHINX_SOURCES not in parts[:-1]:
        return False
    at = parts.index(SPHINX_SOURCES)
    page = Path(*parts[at + 1:])
    html = root.joinpath(*parts[:at], page.parent, _SOURCE_SUFFIX.sub("", page.name) + ".html")
    return html.is_file()


def _repeats_cache(root: Path, corpus: str) -> Path:
    """Where what a corpus repeats is kept: named by the path, size and time of each of
    its files and by the readers' code, so a change to either finds them again."""
    h = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.read_bytes())
    for path in sorted(root.rglob("*")):
        if path.is_file():
            stat = path.stat()
            h.update(f"{path.relative_to(root).as_posix()}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    base = Path(os.environ.get("XDG_CACHE_HOME") or "~/.cache").expanduser()
    return base / "inscoqa" / "repeats" / f"{corpus}-{h.hexdigest()[:16]}.json"


def _one_name_each(paths: list[Path]) -> list[Path]:
    """The paths without the symbolic links to a file that the list already holds, under its own
    name or an earlier link's: a manual's aliases (``ch01.html`` linking to
    ``ch-introduction.html``) are one document, not two."""
    files = {path.resolve() for path in paths if not path.is_symlink()}
    linked: set[Path] = set()
    kept: list[Path] = []
    for path in paths:
        if path.is_symlink():
            target = path.resolve()
            if target in files or target in linked:
                continue
            linked.add(target)
        kept.append(path)
    return kept


class DocumentNotFound(DocumentError, KeyError):
    """A ``doc_id`` that does not name a document in the known corpora."""

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"


def detect_license(root: Path) -> str | None:
    """The short licence name from a corpus's licence file, or None when there is none."""
    for name in LICENSE_FILES:
        path = root / name
        if path.is_file():
            text = re.sub(r"\s+", " ", path.read_text(encoding="utf-8", errors="replace"))
            for phrase, short in LICENSE_PHRASES:
                if phrase.lower() in text.lower():
                    return short
            return f"see {name}"
    return None


class CorpusIndex:
    """Named corpus directories; documents are read on first use and kept.

    A document comes without the blocks its site repeats at the top or bottom of many pages (its
    chrome, see :mod:`inscoqa.corpus.boilerplate`) and its title without the site's name, and the
    corpus's documents are listed without the pages that only copy others (its compilations) or
    have no text of their own (its stubs: a page that only says it has moved).
    The first document asked for in a corpus reads the whole corpus (once) to find these, unless
    the cache folder keeps them for the corpus's files as they are."""

    def __init__(self, roots: Mapping[str, str | Path]) -> None:
        self.roots: dict[str, Path] = {name: Path(root) for name, root in roots.items()}
        for name in self.roots:
            if not name or "/" in name:
                raise ValueError(f"corpus name {name!r} must be non-empty and contain no '/'")
        self.licenses: dict[str, str | None] = {n: detect_license(r) for n, r in self.roots.items()}
        self._cache: dict[str, Document] = {}
        self._repeats: dict[str, Repeats] = {}  # corpus -> what it repeats
        self._unfiltered: dict[str, Document] = {}  # read to find them, not yet asked for
        self._start_pages: dict[Path, bool] = {}  # folder -> whether it holds a manual's start page
        # one reader at a time: the threads of a run share an index, and the first of them
        # to ask reads a corpus for all
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        return f"CorpusIndex({', '.join(self.roots)})"

    def path(self, doc_id: str) -> Path:
        """The file behind a ``doc_id``; DocumentNotFound for an unknown corpus or a missing file."""
        corpus, _, inner = doc_id.partition("/")
        root = self.roots.get(corpus)
        if root is None:
            raise DocumentNotFound(doc_id, f"unknown corpus '{corpus}' (known: {', '.join(self.roots)})")
        parts = PurePosixPath(inner).parts
        if not inner or ".." in parts or inner.startswith("/"):
            raise DocumentNotFound(doc_id, "doc_id must be '<corpus>/<path inside that corpus>'")
        path = root.joinpath(*parts)
        if not path.is_file():
            raise DocumentNotFound(doc_id, f"no file '{inner}' in corpus '{corpus}' ({root})")
        return path

    def __contains__(self, doc_id: object) -> bool:
        if not isinstance(doc_id, str):
            return False
        try:
            self.path(doc_id)
        except DocumentNotFound:
            return False
        return True

    def get(self, doc_id: str) -> Document:
        """The document for ``doc_id`` (DocumentNotFound / DocumentError when it cannot be read)."""
        doc = self._cache.get(doc_id)
        if doc is not None:
            return doc
        with self._lock:
            doc = self._cache.get(doc_id)
            if doc is None:
                self.path(doc_id)  # an unknown corpus or file is not found before anything is read
                chrome = self._chrome_for(doc_id)
                doc = self._unfiltered.pop(doc_id, None) or self._read(doc_id)
                names = self.repeats(doc_id.split("/", 1)[0]).site_names
                doc.title = without_site_name(doc.title, names)
                doc.text, dropped = without_blocks(doc.text, chrome, doc.title, names)
                if dropped:
                    doc.meta["repeated_blocks_left_out"] = dropped
                self._cache[doc_id] = doc
        return doc

    def _read(self, doc_id: str) -> Document:
        doc = read_document(self.path(doc_id), doc_id=doc_id)
        corpus = doc_id.split("/", 1)[0]
        doc.meta["corpus"] = corpus
        doc.meta["manual"] = self.manual(doc_id)
        doc.meta["license"] = self.licenses.get(corpus)
        return doc

    def manual(self, doc_id: str) -> str:
        """The manual a document belongs to: the outermost folder of its corpus that holds a
        start page (``index.page``, ``index.html``, ``index.md`` …), as ``corpus/folder``; the
        corpus itself when its own folder holds one or no folder does. A folder of several
        products' help (``/usr/share/help/C``: Evolution's, Shotwell's, Déjà Dup's, each with its
        ``index.page``) holds several manuals; a site whose sections have start pages of their
        own under the site's (a Sphinx build) is one."""
        corpus, _, inner = doc_id.partition("/")
        root = self.roots[corpus]
        folders = PurePosixPath(inner).parts[:-1]
        for depth in range(len(folders) + 1):
            if self._holds_start_page(root.joinpath(*folders[:depth])):
                return "/".join([corpus, *folders[:depth]])
        return corpus

    def _holds_start_page(self, folder: Path) -> bool:
        found = self._start_pages.get(folder)
        if found is None:
            found = self._start_pages[folder] = any(
                START_PAGE.match(p.name) and p.is_file() for p in folder.iterdir()) if folder.is_dir() else False
        return found

    def _chrome_for(self, doc_id: str) -> Chrome:
        """The repeated blocks of the document's corpus and of its part of it."""
        corpus = doc_id.split("/", 1)[0]
        chrome = self.repeats(corpus).chrome
        return chrome.get(corpus, Chrome()) | chrome.get(site_part(doc_id), Chrome())

    def repeats(self, corpus: str) -> Repeats:
        """What a corpus repeats: its chrome, its compilations, the site's names in its titles
        and its stubs. They are kept in the cache folder under a fingerprint of the corpus's files and
        of the readers; without them, the first call for a corpus reads all of it (and keeps
        what it read for :meth:`get`)."""
        with self._lock:
            if corpus not in self._repeats:
                cached = _repeats_cache(self.roots[corpus], corpus)
                found = load_repeats(cached)
                if found is None:
                    texts: dict[str, str] = {}
                    titles: list[str] = []
                    untitled: set[str] = set()
                    for other in self.doc_ids(corpus, every_page=True):
                        try:
                            doc = self._unfiltered[other] = self._read(other)
                        except DocumentError:
                            continue  # get() reports it when that document is asked for
                        texts[other] = doc.text
                        titles.append(doc.title)
                        if doc.meta.get("untitled"):
                            untitled.add(other)
                    found = find_repeats(texts, titles, untitled)
                    save_repeats(cached, found)
                self._repeats[corpus] = found
            return self._repeats[corpus]

    def resolve(self, conv: Conversation) -> list[Document]:
        """The conversation's documents in order; an inlined text is used as given."""
        docs: list[Document] = []
        for ref in conv.documents:
            if ref.text is not None:
                corpus = ref.doc_id.split("/", 1)[0] if "/" in ref.doc_id else None
                meta = {"format": "inline", "corpus": corpus, "date": None,
                        "license": self.licenses.get(corpus or "")}
                docs.append(Document(doc_id=ref.doc_id, title=ref.title, text=ref.text, meta=meta))
            else:
                docs.append(self.get(ref.doc_id))
        return docs

    def missing(self, conv: Conversation) -> list[str]:
        """The conversation's referenced (not inlined) doc_ids that do not resolve to a file."""
        return [ref.doc_id for ref in conv.documents if ref.text is None and ref.doc_id not in self]

    def doc_ids(self, corpus: str | None = None, *, every_page: bool = False) -> list[str]:
        """Every document id of one corpus (or all), sorted; a page that only copies others or
        has no text of its own (:meth:`repeats`) is listed only with ``every_page``."""
        names = [corpus] if corpus is not None else list(self.roots)
        ids: list[str] = []
        for name in names:
            root = self.roots.get(name)
            if root is None:
                raise KeyError(f"unknown corpus '{name}' (known: {', '.join(self.roots)})")
            found = None if every_page else self.repeats(name)
            left_out = set(found.compilations) | found.stubs if found else set()
            listed: list[Path] = []
            for path in sorted(root.rglob("*")):
                rel = path.relative_to(root)
                if (path.is_file() and not rel.name.startswith(("_", "."))
                        and not SKIPPED_DIRS.intersection(rel.parts[:-1])
                        and f"{name}/{rel.as_posix()}" not in left_out
                        and not built_page_source(root, rel) and not sphinx_generated(root, rel)
                        and is_document(path)):
                    listed.append(path)
            ids.extend(f"{name}/{path.relative_to(root).as_posix()}" for path in _one_name_each(listed))
        return ids

    def iter_documents(self, corpus: str | None = None, *, unreadable: list[DocumentError] | None = None,
                       doc_ids: Sequence[str] | None = None) -> Iterator[Document]:
        """Every document of one corpus (or all), or those ``doc_ids`` names (as :meth:`doc_ids`
        listed them). One that cannot be read raises its :class:`DocumentError`, or, when
        ``unreadable`` is a list, is added to it and skipped."""
        for doc_id in self.doc_ids(corpus) if doc_ids is None else doc_ids:
            try:
                yield self.get(doc_id)
            except DocumentError as exc:
                if unreadable is None:
                    raise
                unreadable.append(exc)
