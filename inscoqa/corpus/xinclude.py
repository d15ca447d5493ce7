"""XInclude for help pages: an ``<include href="…" xpointer="…"/>`` element of the XInclude
namespace is replaced by what it points to, so that a section that several pages share is read
in each (Evolution's help keeps "Advanced Search" and "Saved Searches" in one file that every
``*-searching.page`` includes).

An include of a file that is read as a document of its own (another ``.page``, named by
``documents``: GNOME's keyboard help includes rows of its shortcuts page) is left out: its text
is in the memory once, under its own title, and a page that includes several would read as
their copy.

Pointers: none (the whole included document), an element's id (``xpointer="alt-f1"``, its
``xml:id`` or ``id``), or a path of child steps from the root
(``xmlns(mal=http://projectmallard.org/1.0/)xpointer(/mal:info/mal:section)``). An include
whose file is missing or unreadable, or whose pointer finds nothing or says more than these,
gives its ``<fallback>`` content, else nothing, and is named in the list returned; the page
itself is read as ever. A page reads no file outside its own folder.
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

XINCLUDE_NS = "http://www.w3.org/2001/XInclude"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
# how deep included files may include others (a file that includes itself stops there)
MAX_DEPTH = 4

_INCLUDE = f"{{{XINCLUDE_NS}}}include"
_FALLBACK = f"{{{XINCLUDE_NS}}}fallback"
_SCHEME = re.compile(r"(\w+)\(((?:[^()]|\([^()]*\))*)\)")
_NAME = re.compile(r"[A-Za-z_][\w.-]*")
_STEP = re.compile(r"(?:(\w+):)?([A-Za-z_][\w.-]*)")


def resolve_includes(root: ET.Element, folder: Path, *, skip: frozenset[str] = frozenset(),
                     documents: tuple[str, ...] = ()) -> list[str]:
    """Replace every XInclude element under ``root`` (not under an element whose local name is in
    ``skip``: a page's ``info``) by the elements it points to, read from ``folder``, or by
    nothing when it points into a file whose name ends with one of ``documents``; the includes
    that gave nothing of their own, as ``href#xpointer``."""
    includes = _Includes(folder.resolve(), skip, documents)
    includes.resolve(root, folder, depth=0, open_files=())
    return includes.unresolved


@dataclass
class _Includes:
    """One page's includes: the folder its files must be in, what is left out, and what was
    not found."""

    root_folder: Path
    skip: frozenset[str]
    documents: tuple[str, ...]
    unresolved: list[str] = field(default_factory=list)

    def resolve(self, root: ET.Element, folder: Path, depth: int, open_files: tuple[Path, ...]) -> None:
        for parent in _parents(root, self.skip):
            missed: list[str] = []
            for position, child in reversed(list(enumerate(parent))):  # (the places before stay)
                if child.tag != _INCLUDE:
                    continue
                if self.documents and child.get("href", "").endswith(self.documents):
                    _replace(parent, position, child, [])
                    continue
                found = self._pointed(child, folder, depth, open_files)
                if found is None:
                    missed.insert(0, f"{child.get('href', '')}#{child.get('xpointer', '')}".rstrip("#"))
                    found = [copy.deepcopy(el) for el in child.findall(_FALLBACK) for el in el]
                _replace(parent, position, child, found)
            self.unresolved += missed

    def _pointed(self, include: ET.Element, folder: Path, depth: int,
                 open_files: tuple[Path, ...]) -> list[ET.Element] | None:
        """Copies of the elements ``include`` points to, their own includes resolved; None when
        it points to nothing this reads (another parse than XML too)."""
        href = include.get("href", "")
        if not href or include.get("parse", "xml") != "xml" or depth >= MAX_DEPTH:
            return None
        path = (folder / href).resolve()
        # a page reads only its own folder's files: not "/etc/passwd" nor "../../secrets.xml" (a
        # page a user uploads to the chat demo is a page like any other)
        if path in open_files or not path.is_relative_to(self.root_folder):
            return None
        try:
            document = ET.parse(path).getroot()
        except (OSError, ET.ParseError):
            return None
        found = select(document, include.get("xpointer"))
        if not found:
            return None
        copies = [copy.deepcopy(el) for el in found]
        for el in copies:
            self.resolve(el, path.parent, depth + 1, (*open_files, path))
        return copies


def _parents(root: ET.Element, skip: frozenset[str]) -> list[ET.Element]:
    """The elements under ``root`` (itself too) outside the skipped ones, that hold an include."""
    found = []
    stack = [root]
    while stack:
        element = stack.pop()
        if any(child.tag == _INCLUDE for child in element):
            found.append(element)
        stack.extend(child for child in element if isinstance(child.tag, str) and child.tag != _INCLUDE
                     and child.tag.rsplit("}", 1)[-1] not in skip)
    return found


def select(document: ET.Element, pointer: str | None) -> list[ET.Element]:
    """The elements of ``document`` that an XPointer names: all of it without one, the element
    of an id, or those a path of child steps reaches; none for another kind of pointer."""
    if not pointer:
        return [document]
    pointer = pointer.strip()
    if _NAME.fullmatch(pointer):
        return [el for el in document.iter() if pointer in (el.get(XML_ID), el.get("id"))][:1]
    prefixes: dict[str, str] = {}
    path = None
    for scheme, body in _SCHEME.findall(pointer):
        if scheme == "xmlns" and "=" in body:
            prefix, _, uri = body.partition("=")
            prefixes[prefix.strip()] = uri.strip()
        elif scheme == "xpointer":
            path = body.strip()
        elif scheme == "element" and _NAME.fullmatch(body.strip()):
            return select(document, body.strip())
    if not path or not path.startswith("/"):
        return []
    steps = path[1:].split("/")
    reached = [document] if _matches(document, steps[0], prefixes) else []
    for step in steps[1:]:
        reached = [child for el in reached for child in el if _matches(child, step, prefixes)]
    return reached


def _matches(element: ET.Element, step: str, prefixes: dict[str, str]) -> bool:
    match = _STEP.fullmatch(step)
    if not match or not isinstance(element.tag, str):
        return False
    prefix, name = match.groups()
    namespace = prefixes.get(prefix, "\0") if prefix else ""
    return element.tag == (f"{{{namespace}}}{name}" if namespace else name)


def _replace(parent: ET.Element, position: int, include: ET.Element, found: list[ET.Element]) -> None:
    """Put ``found`` where ``include`` stood, keeping the text that followed it."""
    parent.remove(include)
    tail = include.tail or ""
    for offset, element in enumerate(found):
        element.tail = None
        parent.insert(position + offset, element)
    if not tail:
        return
    if found:
        found[-1].tail = tail
    elif position > 0:
        before = parent[position - 1]
        before.tail = (before.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
