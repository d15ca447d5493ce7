"""Dataset statistics in the style of InsCoQA's Tables 1 and 2.

Per conversation: documents, words of those documents, rounds (history + the last question),
steps of the reference procedure, words of the reference answer; overall and per domain.
Words are whitespace-separated tokens.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from statistics import fmean
from typing import TYPE_CHECKING, Any

from inscoqa.records import DOMAINS, Conversation

if TYPE_CHECKING:
    from inscoqa.corpus.index import CorpusIndex


@dataclass
class Summary:
    """mean / min / max of one measure over conversations (None when there is nothing to measure)."""

    mean: float | None
    min: float | None
    max: float | None

    @classmethod
    def of(cls, values: Sequence[float]) -> Summary:
        if not values:
            return cls(None, None, None)
        return cls(round(fmean(values), 2), min(values), max(values))


@dataclass
class GroupStats:
    conversations: int
    documents_per_conversation: Summary
    document_words_per_conversation: Summary
    rounds: Summary
    steps_per_procedure: Summary
    answer_words: Summary
    question_words: Summary


@dataclass
class DatasetStats:
    overall: GroupStats
    unique_documents: int
    domains: dict[str, GroupStats] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _words(text: str) -> int:
    return len(text.split())


def _document_words(conv: Conversation, index: CorpusIndex | None) -> int | None:
    total = 0
    for ref in conv.documents:
        if ref.text is not None:
            total += _words(ref.text)
        elif index is not None:
            total += index.get(ref.doc_id).n_words
        else:
            return None
    return total


def _group(convs: Sequence[Conversation], doc_words: Sequence[int | None]) -> GroupStats:
    words = [w for w in doc_words if w is not None]
    return GroupStats(
        conversations=len(convs),
        documents_per_conversation=Summary.of([len(c.documents) for c in convs]),
        document_words_per_conversation=Summary.of(words if len(words) == len(convs) else []),
        rounds=Summary.of([len(c.history) + 1 for c in convs]),
        steps_per_procedure=Summary.of([len(c.procedures) for c in convs]),
        answer_words=Summary.of([_words(c.answer) for c in convs]),
        question_words=Summary.of([_words(c.question) for c in convs]),
    )


def compute_stats(convs: Iterable[Conversation], index: CorpusIndex | None = None) -> DatasetStats:
    """Statistics of a set of conversations; document words need inlined texts or a corpus ``index``."""
    convs = list(convs)
    doc_words = [_document_words(c, index) for c in convs]
    by_domain: dict[str, tuple[list[Conversation], list[int | None]]] = {}
    for conv, words in zip(convs, doc_words, strict=True):
        group = by_domain.setdefault(conv.domain, ([], []))
        group[0].append(conv)
        group[1].append(words)
    order = {d: i for i, d in enumerate(DOMAINS)}
    domains = {d: _group(*by_domain[d]) for d in sorted(by_domain, key=lambda d: order.get(d, len(order)))}
    unique = len({ref.doc_id for c in convs for ref in c.documents})
    return DatasetStats(overall=_group(convs, doc_words), unique_documents=unique, domains=domains)


# ---------------------------------------------------------------- text tables


def _mean(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _count(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    def line(cells: Sequence[str]) -> str:
        first, *rest = cells
        return "  ".join([first.ljust(widths[0]), *(c.rjust(w) for c, w in zip(rest, widths[1:], strict=True))])
    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *(line(r) for r in rows)])


def format_stats(stats: DatasetStats, *, title: str = "") -> str:
    """Two plain-text tables: overall measures (Table 1 style) and per domain (Table 2 style)."""
    o = stats.overall
    measures = [
        ("Documents per conversation", o.documents_per_conversation),
        ("Document words per conversation", o.document_words_per_conversation),
        ("Rounds (history + last)", o.rounds),
        ("Steps per procedure", o.steps_per_procedure),
        ("Words per answer", o.answer_words),
        ("Words per last question", o.question_words),
    ]
    head = f"{title}: " if title else ""
    out = [f"{head}{o.conversations} conversations, {stats.unique_documents} distinct documents", ""]
    out.append(_table(["Measure", "mean", "min", "max"],
                      [[name, _mean(s.mean), _count(s.min), _count(s.max)] for name, s in measures]))
    out.append("")
    rows = [[domain, str(g.conversations), f"{100 * g.conversations / max(o.conversations, 1):.0f}%",
             _mean(g.documents_per_conversation.mean), _mean(g.document_words_per_conversation.mean),
             _mean(g.rounds.mean), _mean(g.steps_per_procedure.mean), _count(g.steps_per_procedure.max),
             _mean(g.answer_words.mean)]
            for domain, g in stats.domains.items()]
    out.append("Per domain (means per conversation):")
    out.append(_table(["Domain", "convs", "share", "docs", "doc words", "rounds", "steps",
                       "max steps", "answer words"], rows))
    return "\n".join(out) + "\n"
