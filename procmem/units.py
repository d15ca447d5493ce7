"""What a procedural memory holds: procedures (AAG), logic units (THREAD) and baseline units
(whole documents, recursive chunks, semantic chunks and propositions).

Every unit has a stable ``id`` (derived from its source and content), a ``kind``, the text that
is indexed for retrieval (``index_text``), the text shown to a generator (``render``), and
``meta`` with at least ``doc_id``, ``title``, ``date`` and ``content_hash`` of its source.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal, get_args

from rapidfuzz import fuzz, process

UnitKind = Literal["procedure", "logic_unit", "chunk", "semantic_chunk", "proposition", "document"]
UNIT_KINDS: tuple[str, ...] = get_args(UnitKind)
MODEL_KINDS: tuple[str, ...] = ("proposition",)  # written by the chat model: built only with one
# the kinds held as plain text (:class:`Chunk`)
TEXT_KINDS: tuple[str, ...] = ("chunk", "semantic_chunk", "proposition", "document")
LogicUnitType = Literal["Step", "Terminology", "FAQ", "Appendix"]
LinkerTag = Literal["CONTINUE", "CROSS", "MITIGATE"]


def stable_id(prefix: str, *parts: str) -> str:
    h = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]
    return f"{prefix}-{h}"


@dataclass
class Procedure:
    """``(input, output, steps)``: the resources available, the goal, the ordered steps."""

    input: str
    output: str
    steps: list[str]
    meta: dict[str, Any] = field(default_factory=dict)
    kind: UnitKind = field(default="procedure", init=False)

    @property
    def id(self) -> str:
        return stable_id("proc", self.meta.get("doc_id", ""), self.input, self.output, *self.steps)

    def __add__(self, other: Procedure) -> Procedure:
        """``(x, y, s) + (y, z, t) -> (x, z, s + t)``."""
        if not isinstance(other, Procedure):
            return NotImplemented
        if self.output.strip().casefold() != other.input.strip().casefold():
            raise ValueError(
                f"cannot compose: output {self.output!r} is not the next input {other.input!r}"
            )
        return Procedure(self.input, other.output, self.steps + other.steps, dict(self.meta))

    @property
    def query(self) -> str:
        """The AAG query form: ``<output> using <input>``."""
        return f"{self.output} using {self.input}" if self.input else self.output

    @property
    def index_text(self) -> str:
        """All three fields together as one natural text (AAG embeds procedures this way)."""
        steps = " ".join(f"{i}. {s}" for i, s in enumerate(self.steps, 1))
        return f"Goal: {self.output}. Using: {self.input or 'nothing specific'}. Steps: {steps}"

    def render(self) -> str:
        lines = [f"Goal: {self.output}", f"Input: {self.input or '-'}", "Steps:"]
        lines += [f"{i}. {s}" for i, s in enumerate(self.steps, 1)]
        return "\n".join(lines)


@dataclass
class Linker:
    """``if <condition> then <next intent>``, tagged CONTINUE (same guide), CROSS (another guide)
    or MITIGATE (done / escalate)."""

    condition: str
    next: str
    tag: LinkerTag = "CONTINUE"
    target: str = ""  # doc_id or unit header the link points to, when known

    def render(self) -> str:
        return f"[{self.tag}] if {self.condition} then {self.next}"


@dataclass
class LogicUnit:
    type: LogicUnitType
    prerequisite: str
    header: str
    body: str
    linker: list[Linker] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    kind: UnitKind = field(default="logic_unit", init=False)

    @property
    def id(self) -> str:
        return stable_id("lu", self.meta.get("doc_id", ""), self.type, self.header, self.body)

    @property
    def index_text(self) -> str:
        """THREAD indexes the header only."""
        return self.header

    def render(self) -> str:
        parts = [f"[{self.type}] {self.header}"]
        if self.prerequisite:
            parts.append(f"Prerequisite: {self.prerequisite}")
        parts.append(self.body)
        parts += [link.render() for link in self.linker]
        return "\n".join(parts)


@dataclass
class Chunk:
    """A baseline retrieval unit held as plain text: a recursive chunk, a semantic chunk, a
    proposition or a whole document (``kind`` says which)."""

    text: str
    meta: dict[str, Any] = field(default_factory=dict)
    kind: UnitKind = "chunk"

    @property
    def id(self) -> str:
        return stable_id(self.kind[:3], self.meta.get("doc_id", ""), str(self.meta.get("start", 0)), self.text)

    @property
    def index_text(self) -> str:
        return self.text

    def render(self) -> str:
        return self.text


Unit = Procedure | LogicUnit | Chunk

UnitIndex = Literal["header", "content"]


_PART = re.compile(r"\s*\(part (\d+)(?: of (\d+))?\)")  # what splitting a unit for size adds


def own_header(unit: Unit) -> str:
    """A logic unit's header without what the memory adds to it: its page's title and part
    number ("Why is Cargo rebuilding my code?"); a procedure's goal; a chunk has none."""
    header = unit.header if isinstance(unit, LogicUnit) else unit.output if isinstance(unit, Procedure) else ""
    title = str(unit.meta.get("title", ""))
    if title:
        header = header.replace(f" ({title})", "")
    return _PART.sub("", header).strip()


def part_number(unit: Unit) -> int:
    """Which part of a unit split for size this is (1 for a unit not split)."""
    found = _PART.search(getattr(unit, "header", "") or getattr(unit, "output", "") or "")
    return int(found.group(1)) if found else 1


def part_count(unit: Unit) -> int:
    """How many parts the unit this one is a part of was split into (1 for a unit not split)."""
    found = _PART.search(getattr(unit, "header", "") or getattr(unit, "output", "") or "")
    return int(found.group(2) or found.group(1)) if found else 1


_SECTION_NUMBER = re.compile(r"^\d{1,3}(?:\.\d{1,3})*\.?\s+")  # "11.5. ", no word of what a header asks
HEADER_MATCH = 0.8  # a header asks the question when each holds this share of the other's terms


def asks(unit: Unit, question_terms: set[str], tokens: Callable[[str], Iterable[str]]) -> bool:
    """Whether a logic unit's own header (:func:`own_header`, split into terms by ``tokens``)
    asks the question whose terms are ``question_terms``: each holds :data:`HEADER_MATCH` of the
    other's terms ("Why is Cargo rebuilding my code?" for "why is cargo rebuilding my code", not
    "What causes a blinking light" for "I did that but the light still blinks"), and the unit is
    the first part of its section, where the answer opens; a section number ("11.5.") is no term.
    One term on each side is enough ("What is sed?"). A term of the question that only the
    page's title says, not the header, counts for neither side: "How do I rename a borg
    repository?" asks the Borg FAQ's "How do I rename a repository?"; nor does a term of the
    header that only the title says, not the question: "When I Alt+Tab out of full screen the
    window turns black" is Tux Paint's FAQ entry "When I run Tux Paint full-screen and [Alt] +
    [Tab] out, the window turns black!". The header of a page read as one unit is its title:
    what the title says in brackets after its own words (the chapter it belongs to) is its
    page's context there: "11.5. Setting Up Windows Shares with Samba (Network Services:
    Postfix, Apache, NFS, Samba, …)" does not ask "How do I set up an NFS share?"."""
    if not isinstance(unit, LogicUnit) or not question_terms or part_number(unit) != 1:
        return False
    header_text = _SECTION_NUMBER.sub("", own_header(unit))
    title_text = _SECTION_NUMBER.sub("", str(unit.meta.get("title", "")))
    if header_text == title_text:  # a page read as one unit
        header_text, _, title_text = title_text.partition(" (")
    header, title = set(tokens(header_text)), set(tokens(title_text))
    header -= title - question_terms
    asked = (question_terms - title) | (question_terms & header)
    shared = len(header & asked)
    return bool(header) and bool(asked) and shared >= HEADER_MATCH * len(header) \
        and shared >= HEADER_MATCH * len(asked)


# a name joined with underscores, as a plain-text manual sets it ("sidebar_visible", one of Mutt's
# variables): a name, where a heading of words is none
PLAIN_NAME = r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+"
# what a header may add in brackets after the name it defines: its type, kind or default value
# ("(`integer`)", "(default: 10240000)", "(empty)")
NAME_NOTE = r"\s*\([^)]{0,40}\)"
# a header that is the name of what its section defines: one code span or a plain name, then at
# most a note in brackets ("`port` (`integer`)", "`core.editor`", "`--force`", Postfix's
# "message_size_limit (default: 10240000)")
_NAME_HEADER = re.compile(rf"^(?:`([^`]+)`\s*(?:{NAME_NOTE})?[:.]?|({PLAIN_NAME})(?:{NAME_NOTE})?)$")
_SENTENCE_END = re.compile(r"(?<=[.;!?])\s")


def entry_name(unit: Unit) -> str:
    """The name a reference manual's entry defines, with its type when the header gives one
    ("port (integer)" for "`port` (`integer`)"); "" for a unit whose header is no name."""
    header = own_header(unit) if isinstance(unit, LogicUnit) else ""
    return header.replace("`", "").rstrip(":.") if _NAME_HEADER.match(header) else ""


def defines_asked(unit: Unit, question_terms: set[str], tokens: Callable[[str], Iterable[str]]) -> bool:
    """Whether a logic unit is a reference manual's entry for the thing the question asks about:
    its own header is a name (:data:`_NAME_HEADER`) that the question names, word by word for a
    name of joined words ("message_size_limit"), and the header with the first sentence under it
    ("The TCP port the server listens on; 5432 by default.") and, for a name of several words,
    its page's title hold :data:`HEADER_MATCH` of the question's terms but one, the verb of what
    to do with it ("How do I change the port the server listens on?")."""
    if not isinstance(unit, LogicUnit) or not question_terms or part_number(unit) != 1:
        return False
    name = _NAME_HEADER.match(own_header(unit))
    named = set(tokens(name.group(1) or name.group(2))) if name else set()
    named = {term for term in named if term.isalnum()} or named  # its words, not the joined name
    if not named or not named <= question_terms:
        return False
    opening = _SENTENCE_END.split(unit.body.strip(), maxsplit=1)[0]
    # a name of several words that the question says is specific enough for its page's title to
    # say the rest ("Postfix"); a name of one word ("add") is not
    title = str(unit.meta.get("title", "")) if len(named) > 1 else ""
    found = len(question_terms & (named | set(tokens(f"{opening} {title}"))))
    return found >= HEADER_MATCH * (len(question_terms) - 1)


def source_line(title: str) -> str:
    """The line that opens each part's text in a merged unit's body (:mod:`procmem.merge`)."""
    return f"From {title}:"


SOURCE_LINE = re.compile(r"^From .{1,200}:$")  # recognises source_line() in a body


def from_pages(unit: Unit, titles: set[str]) -> Unit:
    """A merged unit (:mod:`procmem.merge`) with only the parts its pages of these ``titles``
    wrote: a section named alike on several pages ("Page Numbers" of Writer's guide and of
    Impress's dialog) says, for one of them, what that page says. Any other unit, and a merged
    one with no part from those pages, comes back as it is."""
    if not isinstance(unit, LogicUnit) or not unit.meta.get("merged_from"):
        return unit
    kept: list[str] = []
    keep = False
    for line in unit.body.splitlines():
        if SOURCE_LINE.match(line.strip()):
            keep = line.strip()[len("From "):-1] in titles
        if keep:
            kept.append(line)
    return replace(unit, body="\n".join(kept).strip()) if kept else unit


def same_text(unit: Unit) -> str:
    """What a reader of ``unit`` sees, without what its page adds to it (:func:`own_header`),
    case and spacing folded: two units of different pages with the same key say the same thing
    (the option that every command page of a CLI reference repeats word for word); a merged
    unit's lines that name its sources are left out."""
    if isinstance(unit, LogicUnit):
        body = [line for line in unit.body.splitlines() if not SOURCE_LINE.match(line.strip())]
        text = "\n".join([own_header(unit), unit.prerequisite, *body])
    elif isinstance(unit, Procedure):
        text = "\n".join([own_header(unit), unit.input, *unit.steps])
    else:
        text = unit.text
    return " ".join(text.casefold().split())


COPY_SIMILARITY = 90.0  # rapidfuzz ratio of two sections' texts that say the same, but for a word or two


def repeated(units: Iterable[Unit]) -> set[str]:
    """The ids of the units that say the same as an earlier unit of another page: word for word
    (:func:`same_text`: the option that every command page of a CLI reference repeats), or, for
    sections and procedures of the same header, nearly (:data:`COPY_SIMILARITY`: a reference
    kept whole for each version, "Get container logs" in an API's pages for v1.18 to v1.24). A
    search shows one of them, the first."""
    first: dict[tuple[str, str], str] = {}
    headed: dict[tuple[str, str], list[tuple[str, str]]] = {}  # (kind, header): (text, doc_id) of the first ones
    found: set[str] = set()
    for unit in units:
        text = same_text(unit)
        doc_id = str(unit.meta.get("doc_id", ""))
        if first.setdefault((unit.kind, text), doc_id) != doc_id:
            found.add(unit.id)
            continue
        if not isinstance(unit, LogicUnit | Procedure):
            continue
        kept = headed.setdefault((unit.kind, own_header(unit).casefold()), [])
        near = process.extractOne(text, [t for t, _ in kept], scorer=fuzz.ratio,
                                  score_cutoff=COPY_SIMILARITY) if kept else None
        if near is not None and kept[near[2]][1] != doc_id:
            found.add(unit.id)
        else:
            kept.append((text, doc_id))
    return found


def copies(unit: Unit, other: Unit) -> bool:
    """Whether ``unit`` says what ``other``, a unit of another page, says, as :func:`repeated`
    tells: word for word, or nearly under the same header."""
    if unit.kind != other.kind or unit.meta.get("doc_id") == other.meta.get("doc_id"):
        return False
    text, other_text = same_text(unit), same_text(other)
    return text == other_text or isinstance(unit, LogicUnit | Procedure) \
        and own_header(unit).casefold() == own_header(other).casefold() \
        and fuzz.ratio(text, other_text, score_cutoff=COPY_SIMILARITY) > 0


def indexed_text(unit: Unit, logic_unit_index: UnitIndex = "content") -> str:
    """The text a memory indexes for ``unit`` (BM25 and dense alike).

    ``header``: THREAD's choice, a logic unit is found by its header alone. ``content`` (the
    default): its header, then its body, so a unit is found by what it says as well as by what
    it is called. Other kinds index their own ``index_text``.
    """
    if isinstance(unit, LogicUnit) and logic_unit_index == "content":
        return f"{unit.header}\n{unit.body}"
    return unit.index_text


def unit_to_dict(unit: Unit) -> dict[str, Any]:
    data = asdict(unit)
    data["kind"] = unit.kind
    data["id"] = unit.id
    return data


def unit_from_dict(data: dict[str, Any]) -> Unit:
    data = dict(data)
    kind = data.pop("kind")
    data.pop("id", None)
    if kind == "procedure":
        return Procedure(**data)
    if kind == "logic_unit":
        data["linker"] = [Linker(**link) for link in data.get("linker", [])]
        return LogicUnit(**data)
    if kind in TEXT_KINDS:
        return Chunk(text=data["text"], meta=data.get("meta", {}), kind=kind)
    raise ValueError(f"unknown unit kind {kind!r}")


def units_to_jsonl(units: list[Unit]) -> str:
    return "".join(json.dumps(unit_to_dict(u), ensure_ascii=False) + "\n" for u in units)
