"""MyST, the Markdown of Sphinx sites, as plain Markdown: its directives are fences whose info
names them in braces (```` ```{note} ````, ``:::{tab-item} Unix``), its roles braces before a
code span (``{ref}`Installing <install>```).

- a note or any admonition becomes a quote that opens with its label ("> **Note:** ..."), as
  the Markdown reader gives a GitHub note; ``versionadded`` and the like say "New in version 2.1";
- ``code-block`` and ``code`` are code fences with their language;
- a tab, a drop-down or a card keeps its content under its title as a label ("Unix/macOS:");
  a set of tabs, a grid and other containers keep their content;
- a table of contents, an image, a figure, an index entry, an included file give nothing;
- any other directive stays a code block named by it (```` ```pip-cli ````);
- a role shows its text (:func:`inscoqa.corpus.common.role_text`), and a target line that names
  the heading below it (``(install)=``) goes.

Options at the top of a directive's body (``:caption: ...``) are left out.
"""

from __future__ import annotations

import re
import textwrap

from inscoqa.corpus.common import SPHINX_LABELS, map_outside_code, role_text

_DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,}|:{3,})\{(?P<name>[\w.:+-]+)\}[ \t]*(?P<args>[^\n]*)\n"
                        r"(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$", re.M | re.S)
_OPTIONS = re.compile(r"\A(?:[ \t]*:[\w-]+:[^\n]*\n)+|\A---\n.*?\n---\n", re.S)
_ROLE = re.compile(r"\{(?P<name>[\w.:+-]+)\}`(?P<text>[^`\n]+)`")
_TARGET = re.compile(r"^\([^()\n]+\)=[ \t]*\n?", re.M)  # "(ssl-certificate-verification)=" names the heading below
_LABELS = {"note": "Note", "tip": "Tip", "hint": "Hint", "important": "Important", "warning": "Warning",
           "caution": "Caution", "attention": "Attention", "danger": "Danger", "error": "Error",
           **SPHINX_LABELS}
_CODE = frozenset({"code-block", "code", "sourcecode", "code-cell"})
_TITLED = frozenset({"tab-item", "tab", "dropdown", "card", "grid-item-card", "topic", "sidebar"})
_CONTAINERS = frozenset({"tab-set", "grid", "grid-item", "container", "div", "only", "rubric"})
_NOTHING = frozenset({"toctree", "contents", "include", "literalinclude", "image", "figure", "index",
                      "raw", "eval-rst", "mermaid", "graphviz", "math", "autodoc"})


def _directive(found: re.Match[str]) -> str:
    name = found["name"].split(":")[-1].lower()
    args, indent = found["args"].strip(), found["indent"]
    body = _OPTIONS.sub("", textwrap.dedent(found["body"])).strip("\n")
    if name in _NOTHING:
        return ""
    if name in _CODE:
        block = f"```{args.split()[0] if args else ''}\n{body}\n```"
    elif name in _LABELS or name == "admonition":
        label = args if name == "admonition" else _LABELS[name].format(args)
        lines = _to_markdown(body).strip().split("\n")
        block = "\n".join([f"> **{label}:** {lines[0]}", *(f"> {line}" for line in lines[1:])])
    elif name in _TITLED:
        block = f"{args}:\n\n{_to_markdown(body)}" if args else _to_markdown(body)
    elif name in _CONTAINERS:
        block = _to_markdown(body)
    else:
        block = f"```{name}\n{body}\n```"
    return textwrap.indent(block, indent)


def _roles(text: str) -> str:
    def shown(found: re.Match[str]) -> str:
        words, code = role_text(found["name"], found["text"])
        return f"`{words}`" if code else words
    return _ROLE.sub(shown, _TARGET.sub("", text))


def _to_markdown(text: str) -> str:
    for _ in range(8):  # directives hold directives (tabs in a tab set): the outer ones first
        text, changed = _DIRECTIVE.subn(_directive, text)
        if not changed:
            break
    return text


def myst_to_markdown(text: str) -> str:
    """``text`` with its MyST directives and roles as plain Markdown (see the module's docstring)."""
    return map_outside_code(_to_markdown(text), _roles) if "{" in text else text
