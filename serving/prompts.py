"""One loader for every prompt in the project.

Prompts are text files inside a package's ``prompts/`` folder, e.g. ``procmem/prompts/aag/critic.txt``.
A file may hold a system part and a user part separated by a line ``--- user ---``; placeholders
are ``$name`` / ``${name}`` (``string.Template``), so JSON braces in prompts need no escaping.
Every rendered prompt carries the hash of its template so runs can record what they used.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from string import Template

from serving.types import Message

USER_MARKER = "--- user ---"


@dataclass(frozen=True)
class PromptTemplate:
    name: str  # "<package>:<path without .txt>"
    system: str
    user: str
    sha256: str

    def render(self, **values: object) -> list[Message]:
        """Fill the placeholders; a missing value raises ``KeyError`` naming it."""
        text = {k: str(v) for k, v in values.items()}
        messages: list[Message] = []
        if self.system:
            messages.append({"role": "system", "content": Template(self.system).substitute(text)})
        messages.append({"role": "user", "content": Template(self.user).substitute(text)})
        return messages

    @property
    def short_hash(self) -> str:
        return self.sha256[:12]


@cache
def load_prompt(package: str, name: str) -> PromptTemplate:
    """Load ``<package>/prompts/<name>.txt`` (``name`` may contain ``/``)."""
    path = resources.files(package).joinpath("prompts", *f"{name}.txt".split("/"))
    raw = path.read_text(encoding="utf-8")
    if USER_MARKER in raw:
        system, user = raw.split(USER_MARKER, 1)
    else:
        system, user = "", raw
    return PromptTemplate(
        name=f"{package}:{name}",
        system=system.strip(),
        user=user.strip(),
        sha256=hashlib.sha256(raw.encode("utf-8")).hexdigest(),
    )


def prompts_hash(templates: list[PromptTemplate]) -> str:
    """One hash over several templates (order-independent), for run keys."""
    h = hashlib.sha256()
    for t in sorted(templates, key=lambda t: t.name):
        h.update(t.name.encode())
        h.update(t.sha256.encode())
    return h.hexdigest()[:16]
