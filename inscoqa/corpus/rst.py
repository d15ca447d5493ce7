"""reStructuredText documents (Sphinx sources) read through docutils' HTML writer and the HTML
reader, so an ``.rst`` page gets the same headings, lists, code blocks and tables as a page.

Sphinx's own directives and roles are not docutils': a directive docutils does not know keeps
its content, labelled by its argument when it has one (``.. tab:: Unix/macOS`` gives
"Unix/macOS:" above its commands; ``.. versionadded:: 1.2`` opens its text with "New in version
1.2:"), and one without content (``.. toctree::``, ``.. index::``, an extension's
``.. pip-command-options::``) gives nothing; a role docutils does not know gives its text
(``:ref:`Installing <install>``` gives "Installing", ``:command:`pip``` the code ``pip``).
``code-block`` and ``sourcecode`` take Sphinx's options (``:caption:``, ``:emphasize-lines:``)
without failing, and a note (any admonition) is a quote that opens with its title ("> Note:
..."). Nothing is read from other files (``include``, ``literalinclude``) and docutils' messages
are not printed. The handlers are registered with docutils for the whole process, for the names
a page uses that docutils does not know.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docutils import nodes, utils
from docutils.core import publish_parts
from docutils.parsers.rst import Directive, directives, roles
from docutils.parsers.rst.languages import en
from docutils.writers import html5_polyglot

from inscoqa.corpus.common import SPHINX_LABELS, read_text, role_text
from inscoqa.corpus.document import Document, DocumentError
from inscoqa.corpus.html import parse_html

_DIRECTIVE = re.compile(r"^[ \t]*\.\.[ \t]+((?:[\w.+-]+:)?[\w.+-]+)[ \t]*::", re.M)
# reStructuredText's own marks, for telling a ``.txt`` page written in it from plain text: a title
# between two lines of one mark, a field list (":Author: …"), a paragraph that ends with "::" above
# an indented literal block
_OVERLINED_TITLE = re.compile(r"\A\s*([=#*~+^-])\1{2,}[ \t]*\n[^\n]*\S[^\n]*\n\1{3,}[ \t]*\n")
_FIELD = re.compile(r"^:[A-Za-z][\w -]*:(?:[ \t]|$)", re.M)
_LITERAL_BLOCK = re.compile(r"::[ \t]*\n(?:[ \t]*\n)+[ \t]+\S")
_ROLE = re.compile(r"(?<![\w`]):((?:[A-Za-z][\w.+-]*:)?[A-Za-z][\w.+-]*):`")
# Sphinx's directives that say something with their argument: the line put above their content
_LABELS = {**SPHINX_LABELS, "tab": "{}", "group-tab": "{}", "code-tab": "{}"}
# Sphinx's directives whose content is no text of the page: what to link or index, other files
_NOTHING = frozenset({"toctree", "index", "highlight", "literalinclude", "autosummary", "currentmodule",
                      "module", "default-role", "default-domain", "tabularcolumns"})
_SETTINGS = {"report_level": 5, "halt_level": 5, "file_insertion_enabled": False, "raw_enabled": True,
             "syntax_highlight": "none", "input_encoding": "unicode", "output_encoding": "unicode",
             "doctitle_xform": True, "sectsubtitle_xform": False, "_disable_config": True,
             "embed_stylesheet": False, "stylesheet_path": "", "math_output": "html"}


class _AnyOptions(dict):  # type: ignore[type-arg]
    """An option spec that takes any option as text: Sphinx adds options docutils refuses."""

    def __missing__(self, key: str) -> Callable[[str | None], str]:
        return directives.unchanged


def _any_options() -> _AnyOptions:
    return _AnyOptions(name=directives.unchanged)  # not empty: docutils refuses every option when it is


class _CodeBlock(Directive):
    """A code block with its language as the HTML reader reads it (``highlight-console``, as
    Sphinx marks it: docutils writes a ``language-`` class as a ``lang`` attribute)."""

    optional_arguments = 1
    has_content = True
    option_spec = _any_options()

    def run(self) -> list[nodes.Node]:
        code = "\n".join(self.content)
        language = self.arguments[0].strip().lower() if self.arguments else ""
        return [nodes.literal_block(code, code, classes=[f"highlight-{language}"] if language else [])]


class _Content(Directive):
    """A directive docutils does not know: its content, after its argument as a label."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = _any_options()

    def run(self) -> list[nodes.Node]:
        body = nodes.container()
        argument, _, text = (self.arguments[0] if self.arguments else "").partition("\n")
        if text.strip():  # "versionadded:: 2.1" with its text on the lines below, no blank line between
            body += nodes.paragraph(text, "", *self.state.inline_text(" ".join(text.split()), self.lineno)[0])
        if self.name.split(":")[-1] not in _NOTHING:
            self.state.nested_parse(self.content, self.content_offset, body)
        if not body.children:
            return []
        label = _LABELS.get(self.name.split(":")[-1], "").format(argument.strip())
        if label and isinstance(body.children[0], nodes.paragraph):
            body.children[0].insert(0, nodes.Text(f"{label}: "))  # "New in version 3.1: Source arguments ..."
        elif label:
            body.insert(0, nodes.paragraph(label, f"{label}:"))  # above a code block: "Unix/macOS:"
        return [body]


def _text_role(name: str, rawtext: str, text: str, lineno: int, inliner: Any,
               options: dict[str, Any] | None = None, content: list[str] | None = None) -> tuple[list[nodes.Node], list[Any]]:
    shown, code = role_text(name, utils.unescape(text))
    return [nodes.literal(rawtext, shown) if code else nodes.inline(rawtext, shown)], []


class _Translator(html5_polyglot.HTMLTranslator):
    """docutils' HTML, without the page's bibliographic fields (its author, date and revision),
    with inline literals as ``<code>`` (docutils writes a ``<span>``), which the HTML reader keeps
    as code, and a note (any admonition) as a quote that opens with its title
    ("> Note: ..."), as the Markdown reader gives a note."""

    def visit_docinfo(self, node: nodes.docinfo) -> None:
        raise nodes.SkipNode  # who wrote the page and when (":Author:", ":Date:", ":Revision:")

    def visit_literal(self, node: nodes.literal) -> None:
        self.body.append(f"<code>{self.encode(node.astext())}</code>")
        raise nodes.SkipNode

    def visit_admonition(self, node: nodes.Admonition) -> None:
        title = next((child for child in node.children if isinstance(child, nodes.title)), None)
        if title is not None:
            node.remove(title)
            label = f"{title.astext()}:"
            if node.children and isinstance(node.children[0], nodes.paragraph):
                node.children[0].insert(0, nodes.Text(f"{label} "))
            else:
                node.insert(0, nodes.paragraph(label, label))
        self.body.append("<blockquote>")

    def depart_admonition(self, node: nodes.Admonition | None = None) -> None:
        self.body.append("</blockquote>\n")


class _Writer(html5_polyglot.Writer):
    def __init__(self) -> None:
        super().__init__()
        self.translator_class = _Translator


def _register(source: str) -> None:
    """Register a handler for each directive and role of ``source`` that docutils does not know."""
    document = utils.new_document("<rst>")
    document.reporter.stream = io.StringIO()
    for name in ("code-block", "sourcecode", "code"):
        directives.register_directive(name, _CodeBlock)
    for name in set(_DIRECTIVE.findall(source)):
        if directives.directive(name, en, document)[0] is None:
            directives.register_directive(name, _Content)
    for name in set(_ROLE.findall(source)):
        if roles.role(name, en, 0, document.reporter)[0] is None:
            roles.register_local_role(name, _text_role)


def is_rst(raw: str) -> bool:
    """Whether a text page is written in reStructuredText: two of its own marks (a directive, a
    title between two lines, a field list, a literal block after "::"); plain text underlines its
    headings too, but uses none of the others."""
    marks = (_DIRECTIVE, _OVERLINED_TITLE, _FIELD, _LITERAL_BLOCK)
    return sum(1 for mark in marks if mark.search(raw)) >= 2


def rst_to_html(source: str) -> tuple[str, str]:
    """The title and the HTML page of a reStructuredText text."""
    _register(source)
    parts = publish_parts(source, writer=_Writer(),
                          settings_overrides={**_SETTINGS, "warning_stream": io.StringIO()})
    title = parts.get("title", "")
    return title, f"<html><head><title>{title}</title></head><body>{parts['html_body']}</body></html>"


def read_rst(path: Path, *, doc_id: str, source: str | None = None) -> Document:
    """An ``.rst`` page, or ``source``, the text of a page written in reStructuredText that
    ``path`` names otherwise (a ``.txt`` file)."""
    try:
        _, page = rst_to_html(read_text(path) if source is None else source)
    except Exception as exc:  # docutils raises for input it cannot parse at all
        raise DocumentError(path, f"not readable as reStructuredText: {exc}") from exc
    document = parse_html(page, path, doc_id=doc_id)
    document.meta["format"] = "rst"
    return document
