"""The ``[memory]`` section: what a memory builds and how it searches.

Read with :func:`load_memory_config` from the config file, ``INSCOQA_MEMORY_<FIELD>`` environment
values and command-line overrides (:func:`serving.config.load_section`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from procmem.chunking import DEFAULT_BREAKPOINT_PERCENTILE
from procmem.embed import DEFAULT_EMBEDDER
from procmem.extract.pipeline import ExtractMode
from procmem.extract.split import DEFAULT_UNIT_WORDS
from procmem.retrieval.index import KIND_ORDER, Fusion, Method, SearchSettings
from procmem.units import UnitIndex
from serving.config import load_section

ALL_KINDS: tuple[str, ...] = KIND_ORDER
# what a memory builds when no kinds are named (``[memory] kinds``): semantic chunks (a sentence
# embedding pass over every document) and propositions (model calls) only when asked for
DEFAULT_KINDS: tuple[str, ...] = ("procedure", "logic_unit", "chunk", "document")
ChunkVectors = Literal["pooled", "encoded"]


@dataclass
class MemoryConfig:
    """The ``[memory]`` section (env ``INSCOQA_MEMORY_<FIELD>``)."""

    embedder: str = DEFAULT_EMBEDDER
    # the unit kinds a new memory builds when none are named (env: comma-separated)
    kinds: list[str] = field(default_factory=lambda: list(DEFAULT_KINDS))
    chunk_words: int = 200
    chunk_overlap: int = 0  # words a recursive chunk repeats from before it (THREAD's overlap)
    # a recursive chunk's vector: pooled from its logic units' vectors, or encoded from its text
    # (see procmem.retrieval.pooling); a saved memory keeps its own
    chunk_vectors: ChunkVectors = "pooled"
    # a semantic chunk ends where neighbouring sentences lie further apart than this percentile
    semantic_percentile: float = DEFAULT_BREAKPOINT_PERCENTILE
    proposition_words: int = 300  # passage size the model turns into propositions
    merge_threshold: float = 92.0  # rapidfuzz token_sort_ratio of headers; 0 turns merging off
    llm_merge: bool = False
    llm_extract: ExtractMode = "fallback"
    reformulate: bool = True
    llm_max_tokens: int = 700
    llm_workers: int = 4
    method: Method = "hybrid"
    fusion: Fusion = "rrf"
    rrf_k: int = 60
    dense_weight: float = SearchSettings.dense_weight  # the dense list's weight; BM25's is 1 - it
    candidates: int = 100
    # the best unit's documents link to others (CROSS linkers): the best unit of each of those
    # among the candidates gains this share of the best score, never passing it (0: links unused)
    link_weight: float = 0.5
    # a conversation's last question orders the first results of its history-aware search: their
    # rank for it counts this much beside their rank for the whole query (0: not used)
    question_weight: float = 0.5
    question_window: int = 5
    question_kinds: list[str] = field(default_factory=lambda: ["logic_unit", "chunk"])  # only these
    history_turns: int = 2
    unit_words: int = DEFAULT_UNIT_WORDS  # logic-unit bodies longer than this are split (0: never)
    unit_index: UnitIndex = "content"  # what a logic unit is found by: "header" (THREAD) or "content"
    # kinds searched when none is asked for (those the memory holds; all it holds when none of these)
    search_kinds: list[str] = field(default_factory=lambda: ["logic_unit", "chunk"])
    document_kinds: list[str] = field(default_factory=lambda: ["logic_unit", "chunk", "document"])
    # kinds embedded at build besides those two: the answerers search procedures (extractive, aag,
    # rag). A kind none of the three names gets its vectors at its first dense search, in every
    # process that loads the memory (the procedures of all 2,104 bundled documents: ~24 s on 2 cores)
    embed_kinds: list[str] = field(default_factory=lambda: ["procedure"])
    dir: str = ""  # where sample_memory() keeps the bundled sample memory


def load_memory_config(cli: dict[str, Any] | None = None) -> MemoryConfig:
    return load_section(MemoryConfig, "memory", cli=cli)


def kind_names(kinds: str | Sequence[str]) -> list[str]:
    """Unit kind names from a list, or from a comma-separated string (an environment value)."""
    names = kinds.split(",") if isinstance(kinds, str) else list(kinds)
    return [n.strip() for n in names if n.strip()]
