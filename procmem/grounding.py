"""Grounding: is an instruction step backed by a snippet of its source's own text?

One rule, used for extracted instructions (reranking) and for answer steps alike. A source text
is cut into snippets (its lines, split further at sentence ends, plus each pair of neighbouring
sentences, plus each block a step is often written from as a whole: a list item with the lines
nested under it, a paragraph with the command it introduces); a step is **grounded** in a
snippet when

* their word-level ROUGE-L F-measure exceeds ``rouge_threshold`` (0.7), or
* the cosine distance of their sentence embeddings is below ``distance_threshold`` (0.25).

Steps are grounded in order and a later step is looked for near the earlier one first: among the
snippets that pass, one within ``window`` snippets after the previous grounded snippet wins over
a better one elsewhere. A snippet is compared without its links' targets (a step gives a link's
words, not where it leads). The grounding keeps the snippet, its character span and its scores.

ROUGE-L is computed as Google's ``rouge-score`` does (lower-cased ``[a-z0-9]+`` tokens, no
stemming, F1 of LCS precision and recall); the LCS length comes from rapidfuzz's ``LCSseq`` over
tokens mapped to single characters.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import LCSseq

if TYPE_CHECKING:
    from procmem.embed import Embedder
    from procmem.units import Unit

ROUGE_THRESHOLD = 0.7
DISTANCE_THRESHOLD = 0.25
NEAR_WINDOW = 8

GroundedBy = Literal["rouge", "embedding"]

_TOKEN = re.compile(r"[a-z0-9]+")
# a sentence may open with markup ("*`driver`* should be ..."), and end inside the quotation it
# closes ("... speak \"Echo set to word.\" If you would prefer ...")
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"”’)]))\s+(?=[A-Z0-9\"“'(`*_\[])")
_MARKUP = re.compile(r"^\s*(?:[#>*+\-]+|\d+[.)])\s+")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_LINK_TARGET = re.compile(r"\]\([^()\s]*\)")  # "[RequireAll](../mod/core.html#requireall)": the link's target


@dataclass(frozen=True)
class Snippet:
    text: str
    start: int  # character span in the source text
    end: int
    order: int  # position among the source's snippets (for "near the previous step")


@dataclass(frozen=True)
class StepGrounding:
    """Where one step is grounded: the source (``unit``: a unit or document id), the snippet and
    its span in that source's text, the score that grounded it and both scores."""

    step: int
    unit: str
    snippet: str
    start: int
    end: int
    by: GroundedBy
    score: float  # ROUGE-L F when by == "rouge", else cosine similarity (1 - distance)
    rouge: float
    distance: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def rouge_l_f(cand: str, refs: Sequence[str]) -> np.ndarray:
    """Word-level ROUGE-L F-measure of ``cand`` against each of ``refs`` (0 where a side is empty)."""
    vocab: dict[str, str] = {}

    def encode(text: str) -> str:
        return "".join(vocab.setdefault(t, chr(0xE000 + len(vocab))) for t in _TOKEN.findall(text.lower()))

    c = encode(cand)
    encoded = [encode(r) for r in refs]
    if not c or not encoded:
        return np.zeros(len(encoded))
    lcs = process.cdist([c], encoded, scorer=LCSseq.similarity, dtype=np.int64)[0].astype(float)
    n_ref = np.array([len(r) for r in encoded], dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = lcs / len(c)
        recall = np.where(n_ref > 0, lcs / n_ref, 0.0)
        total = precision + recall
        return np.where(total > 0, 2 * precision * recall / np.where(total > 0, total, 1), 0.0)


_RUN = re.compile(r"Run `?(?P<code>[^`]+?)`?\.?", re.S)  # a step that runs a code block of its own


def _rouge(step: str, texts: list[str]) -> np.ndarray:
    """The step's ROUGE-L F-measure against each text; a step that runs a code block ("Run
    `accept`", "Run reboot") is the block's text as well, whose page never says "Run"."""
    scores = rouge_l_f(step, texts)
    if run := _RUN.fullmatch(step.strip()):
        scores = np.maximum(scores, rouge_l_f(run["code"], texts))
    return scores


def snippets(text: str) -> list[Snippet]:
    """The snippets a step can be grounded in: sentences of each line, and neighbouring pairs."""
    sentences: list[tuple[int, int]] = []
    for line in re.finditer(r"[^\n]+", text):
        offset = line.start()
        body = line.group()
        lead = _MARKUP.match(body)
        pos = lead.end() if lead else 0
        for piece in _SENTENCE_END.split(body[pos:]):
            start = body.find(piece, pos)
            pos = start + len(piece)
            if len(_TOKEN.findall(piece.lower())) >= 1:
                sentences.append((offset + start, offset + start + len(piece.rstrip())))
    out: list[Snippet] = []
    for i, (start, end) in enumerate(sentences):
        out.append(Snippet(text[start:end], start, end, i))
        if i + 1 < len(sentences):
            nxt_end = sentences[i + 1][1]
            out.append(Snippet(text[start:nxt_end], start, nxt_end, i))
    starts = [start for start, _ in sentences]
    known = {(s.start, s.end) for s in out}
    for start, end in _blocks(text):
        marker = _MARKUP.match(text[start:end])
        start += marker.end() if marker else 0
        if (start, end) not in known:
            known.add((start, end))
            out.append(Snippet(text[start:end], start, end, max(0, bisect.bisect_right(starts, start) - 1)))
    return out


def _blocks(text: str) -> list[tuple[int, int]]:
    """Character spans of the blocks that a step is often written from as a whole: a list item
    with the lines nested under it (a note, a command, a sub-list, a wrapped line), and a
    paragraph of several lines, with the fenced or indented command its last line introduces
    ("... run the following cmdlet:")."""
    lines: list[tuple[int, str]] = []
    offset = 0
    for line in text.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    spans: list[tuple[int, int]] = []
    for i, (start, line) in enumerate(lines):
        if not line.strip():
            continue
        item = _LIST_ITEM.match(line)
        if item:
            last = _item_end(lines, i)
        elif i == 0 or not lines[i - 1][1].strip() or _LIST_ITEM.match(lines[i - 1][1]):
            last = _paragraph_end(lines, i)
        else:
            continue
        if item or last > i:  # an item of one line: of several sentences, which are snippets apart
            spans.append((start, lines[last][0] + len(lines[last][1].rstrip())))
    return spans


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _item_end(lines: list[tuple[int, str]], i: int) -> int:
    """The last line of the list item that starts at line ``i``: the lines indented under it,
    and the unindented lines that wrap its own text (before a blank line or a nested line)."""
    indent, last, blank, nested = _indent(lines[i][1]), i, False, False
    for j in range(i + 1, len(lines)):
        line = lines[j][1]
        if not line.strip():
            blank = True
        elif _indent(line) > indent:
            last, blank, nested = j, False, True
        elif not (blank or nested or _LIST_ITEM.match(line) or line.lstrip().startswith("#")):
            last = j
        else:
            break
    return last


def _paragraph_end(lines: list[tuple[int, str]], i: int) -> int:
    """The last line of the paragraph that starts at line ``i``, with the fenced or indented
    block that follows when the paragraph ends with a colon."""
    last = i
    while last + 1 < len(lines) and lines[last + 1][1].strip() and not _LIST_ITEM.match(lines[last + 1][1]):
        last += 1
    if not lines[last][1].rstrip().endswith(":"):
        return last
    j = last + 1
    while j < len(lines) and not lines[j][1].strip():
        j += 1
    if j < len(lines) and _FENCE.match(lines[j][1]):  # to the closing fence
        return next((k for k in range(j + 1, len(lines)) if _FENCE.match(lines[k][1])), len(lines) - 1)
    indent = _indent(lines[i][1])
    while j < len(lines) and (not lines[j][1].strip() or _indent(lines[j][1]) > indent):
        if lines[j][1].strip():
            last = j
        j += 1
    return last


@dataclass
class Source:
    """A text steps may be grounded in, with its snippets (and their vectors, made on demand)."""

    id: str
    text: str
    snippets: list[Snippet] = field(default_factory=list)
    vectors: np.ndarray | None = None

    def __post_init__(self) -> None:
        if not self.snippets:
            self.snippets = snippets(self.text)


@dataclass
class Grounder:
    """Applies the grounding rule. Without an embedder only ROUGE-L can ground a step."""

    embedder: Embedder | None = None
    rouge_threshold: float = ROUGE_THRESHOLD
    distance_threshold: float = DISTANCE_THRESHOLD
    window: int = NEAR_WINDOW
    # vectors kept for texts seen before (emptied when full); safe to share between threads
    max_cached: int = 50_000
    _vector_cache: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    def _vectors(self, texts: list[str]) -> np.ndarray:
        assert self.embedder is not None
        known = {t: self._vector_cache.get(t) for t in dict.fromkeys(texts)}
        missing = [t for t, v in known.items() if v is None]
        if missing:
            if len(self._vector_cache) + len(missing) > self.max_cached:
                self._vector_cache.clear()
            for text, vector in zip(missing, self.embedder.encode(missing), strict=True):
                known[text] = self._vector_cache[text] = vector
        return np.stack([known[t] for t in texts]) if texts else np.zeros((0, 1))

    def ground(self, steps: Sequence[str], sources: Sequence[Source]) -> list[StepGrounding | None]:
        """Each step's grounding in ``sources`` (or None), later steps near the earlier ones.

        Vectors are made only where they can change the outcome: a ROUGE-L match always wins
        over an embedding-only one, so when every step has a ROUGE-L match, only the vectors of
        the steps and of their snippets are made (for the recorded distance), in one batch."""
        pool = [(s, snip) for s in sources for snip in s.snippets]
        if not pool:
            return [None] * len(steps)
        texts = [_LINK_TARGET.sub("]", snip.text) for _, snip in pool]  # a link's words, not where it leads
        rouges = [_rouge(step, texts) if _TOKEN.search(step.lower()) else None for step in steps]
        if self.embedder is not None and any(r is not None and not (r > self.rouge_threshold).any()
                                             for r in rouges):
            # some step can only be grounded by its embedding: every vector, in one batch
            self._vectors([s for s, r in zip(steps, rouges, strict=True) if r is not None] + texts)
        chosen: list[tuple[int, int, float] | None] = []  # (step, snippet, distance) per step
        previous: tuple[str, int] | None = None
        for i, (step, rouge) in enumerate(zip(steps, rouges, strict=True)):
            if rouge is None:
                chosen.append(None)
                continue
            by_rouge = rouge > self.rouge_threshold
            near = np.ones(len(pool), dtype=bool)
            if previous is not None:
                near = np.array([src.id == previous[0] and previous[1] <= snip.order <= previous[1] + self.window
                                 for src, snip in pool])
            distance = np.full(len(pool), np.inf)
            if not (by_rouge & near).any():  # an embedding-only match may decide
                self._distances(step, texts, near if by_rouge.any() else ~by_rouge, distance)
            passes = by_rouge | (distance < self.distance_threshold)
            if not passes.any():
                chosen.append(None)
                continue
            # ROUGE matches before embedding-only matches, then the better score
            strength = np.where(by_rouge, 1.0 + rouge, 1.0 - distance)
            if (passes & near).any():
                passes = passes & near
            best = int(np.argmax(np.where(passes, strength, -np.inf)))
            chosen.append((i, best, float(distance[best])))
            previous = (pool[best][0].id, pool[best][1].order)
        return self._groundings(steps, rouges, chosen, pool)

    def _groundings(self, steps: Sequence[str], rouges: list[np.ndarray | None],
                    chosen: list[tuple[int, int, float] | None],
                    pool: list[tuple[Source, Snippet]]) -> list[StepGrounding | None]:
        """The groundings of the chosen snippets, with the distances not yet known made in one
        batch."""
        unknown = [c for c in chosen if c is not None and not np.isfinite(c[2])]
        if self.embedder is not None and unknown:
            self._vectors([t for i, best, _ in unknown for t in (steps[i], pool[best][1].text)])
        out: list[StepGrounding | None] = []
        for c in chosen:
            if c is None:
                out.append(None)
                continue
            i, best, distance = c
            src, snip = pool[best]
            if not np.isfinite(distance) and self.embedder is not None:
                step_vector, snippet_vector = self._vectors([steps[i], snip.text])
                distance = float(1.0 - snippet_vector @ step_vector)
            rouge = float(rouges[i][best])  # type: ignore[index]
            by: GroundedBy = "rouge" if rouge > self.rouge_threshold else "embedding"
            score = rouge if by == "rouge" else min(1.0, 1.0 - distance)
            out.append(StepGrounding(i, src.id, snip.text, snip.start, snip.end, by, round(score, 4),
                                     round(rouge, 4),
                                     max(0.0, round(distance, 4)) if np.isfinite(distance) else 1.0))
        return out

    def _distances(self, step: str, texts: list[str], wanted: np.ndarray, distance: np.ndarray) -> None:
        """Fill ``distance`` (cosine distance of ``step`` to each text) where ``wanted`` and not
        yet known; nothing without an embedder."""
        rows = np.flatnonzero(wanted & np.isinf(distance))
        if self.embedder is None or not len(rows):
            return
        vectors = self._vectors([step] + [texts[r] for r in rows])
        distance[rows] = 1.0 - vectors[1:] @ vectors[0]


def ground_steps(steps: Sequence[str], text: str, *, source_id: str = "",
                 embedder: Embedder | None = None) -> list[StepGrounding | None]:
    """Ground ``steps`` in one text (a document)."""
    return Grounder(embedder).ground(steps, [Source(source_id, text)])


def ground_answer(steps: Sequence[str], units: Sequence[Unit], *,
                  embedder: Embedder | None = None,
                  grounder: Grounder | None = None) -> list[StepGrounding | None]:
    """Ground an answer's steps in the units it was generated from (``unit`` = the unit id)."""
    grounder = grounder or Grounder(embedder)
    return grounder.ground(steps, [Source(u.id, u.render()) for u in units])


def grounded_rate(groundings: Sequence[StepGrounding | None]) -> float:
    """Share of steps with a grounding (0 when there are no steps)."""
    return sum(g is not None for g in groundings) / len(groundings) if groundings else 0.0
