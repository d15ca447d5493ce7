"""A memory's search index in Qdrant: dense vectors and BM25, fused by reciprocal rank.

One collection per memory. Each served unit is one point (id derived from the unit id) with

* ``dense``: the unit's embedding (the memory's own vectors, dot product as the built-in index);
* ``bm25-<kind>``: a sparse vector over the memory's own tokens (stop words removed, stemmed)
  holding each term's BM25 term-frequency part (k1 = 1.5, b = 0.75 and the average length of
  the unit's kind, as bm25s); the collection applies the IDF (``Modifier.IDF``) over the units
  of that kind, so, as in the built-in index (one BM25 index per kind), a query's sparse dot
  product is the unit's BM25 score within its kind;
* payload ``unit_id``, ``kind``, ``type`` (logic units) and ``doc_ids``, the filters,
  ``repeat``: the unit says what a unit of another page says, word for word or nearly
  (:func:`procmem.units.repeated`), so a search over every page leaves it out, as the built-in
  index does, and ``language``: its page's (:func:`procmem.retrieval.index.unit_language`), so a
  search in one language leaves out the pages written in another.

A hybrid search is one batch of Query API requests: per kind of unit, the BM25 and the dense
ranking with the same filters and candidate count as the built-in index; the two lists are fused
here by the built-in index's own reciprocal rank fusion (same k, same side weights), so a store
ranks as the memory does. (Qdrant's server-side weighted RRF divides ranks by the weight instead
of multiplying scores by it, which orders unequally weighted lists differently.)
Removal and update are by document id (:meth:`QdrantStore.remove_document`,
:meth:`QdrantStore.sync`).

Locations: ``qdrant://HOST:PORT`` (a server or cluster, gRPC-less HTTP), ``qdrant-local:DIR``
(the client's local mode, a directory; ``qdrant-local::memory:`` keeps it in memory).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import threading
import uuid
import warnings
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from procmem.memory import Memory
from procmem.records import Hit
from procmem.retrieval.bm25 import K1, TOKENIZER_NAME, B, query_tokens, tokenize
from procmem.retrieval.fusion import rrf
from procmem.retrieval.index import KIND_ORDER, Method, SearchSettings, unit_language
from procmem.search import MemorySearch
from procmem.units import Unit, indexed_text

DENSE = "dense"
LEXICAL = "bm25-{}"  # one sparse vector per kind of unit: IDF and lengths within the kind
BATCH = 256
FLAGS = ("repeat", "language")  # payload a sync keeps current on the points it keeps
TOKENS = "tokens"  # payload: the tokenizer its sparse vector was made with; a sync makes it again with another
STORE_FILE = "store.json"  # beside a memory's CURRENT: the backend its collection lives in
_NAMESPACE = uuid.UUID("6f1c1d62-5d1e-4f0c-9a51-2f8b1c3a7e10")


def term_id(token: str) -> int:
    """A token's sparse dimension: a stable 32-bit hash (the vocabulary is open)."""
    return int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=4).digest(), "little")


def point_id(unit_id: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, unit_id))


def collection_name(memory_dir: str | Path) -> str:
    """The default collection of a memory directory: its name and a hash of its full path."""
    path = Path(memory_dir).resolve()
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", path.name).strip("-")[:40] or "memory"
    return f"inscoqa-{name}-{hashlib.sha256(str(path).encode()).hexdigest()[:8]}"


def recorded_collection(memory_dir: str | Path) -> str:
    """The collection ``memory build --store`` recorded beside the memory, else the default."""
    recorded = Path(memory_dir) / STORE_FILE
    if recorded.is_file():
        name = json.loads(recorded.read_text(encoding="utf-8")).get("collection")
        if name:
            return str(name)
    return collection_name(memory_dir)


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def served_vectors(memory: Memory) -> tuple[list[Unit], np.ndarray]:
    """The memory's served units and their vectors, row for row."""
    index = memory.index()
    vectors = [index.kinds[k].dense.matrix for k in index.kinds if index.kinds[k].dense is not None]
    matrix = np.concatenate(vectors) if vectors else np.zeros((0, 0), np.float32)
    if matrix.shape[0] != len(index.units):
        raise ValueError("the memory has units without embeddings: rebuild it")
    return index.units, matrix


def bm25_document(tokens: list[str], avgdl: float) -> tuple[list[int], list[float]]:
    """The BM25 term-frequency part of each term of a unit (the IDF is the collection's)."""
    counts: Counter[int] = Counter(term_id(t) for t in tokens)
    norm = K1 * (1.0 - B + B * len(tokens) / max(avgdl, 1e-9))
    ids = sorted(counts)
    return ids, [counts[i] * (K1 + 1.0) / (counts[i] + norm) for i in ids]


def bm25_query(tokens: list[str]) -> tuple[list[int], list[float]]:
    counts: Counter[int] = Counter(term_id(t) for t in tokens)
    ids = sorted(counts)
    return ids, [float(counts[i]) for i in ids]


class QdrantStore:
    """One memory's collection (see the module docstring)."""

    VECTORS_CHECKED = 8  # units whose stored vector is compared with the memory's on opening

    def __init__(self, client: Any, collection: str, location: str = "") -> None:
        self.client = client
        self.collection = collection
        self.location = location
        self.fingerprint = ""  # of the collection's content, once checked (check_serves)
        self._known = False  # the collection was seen to exist
        # the local mode is one in-process engine: its searches go one at a time
        self._lock = threading.Lock() if not location.startswith("qdrant://") else None

    @classmethod
    def open(cls, location: str, collection: str) -> QdrantStore:
        try:
            from qdrant_client import QdrantClient
        except ImportError as exc:
            raise ValueError("--store qdrant needs qdrant-client: pip install 'inscoqa[qdrant]'") \
                from exc
        if location.startswith("qdrant://"):
            address = location[len("qdrant://"):].rstrip("/")
            if not address:
                raise ValueError(f"--store {location!r}: expected qdrant://HOST:PORT")
            # the client checks the server's version in a thread of its own and warns when it
            # gets none; an unreachable server is reported in one line when first used instead
            warnings.filterwarnings("ignore", message="Failed to obtain server version")
            client = QdrantClient(url=f"http://{address}", timeout=60)
        elif location.startswith("qdrant-local:"):
            where = location[len("qdrant-local:"):]
            if not where:
                raise ValueError(f"--store {location!r}: expected qdrant-local:DIR")
            try:
                client = (QdrantClient(location=":memory:") if where == ":memory:"
                          else QdrantClient(path=where))
            except RuntimeError as exc:  # the directory is held by another process
                from procmem.stores import StoreUnavailableError

                raise StoreUnavailableError(f"{location}: {first_line(exc)}") from exc
        else:
            raise ValueError(f"--store {location!r}: expected qdrant://HOST:PORT or "
                             "qdrant-local:DIR")
        return cls(client, collection, location)

    def close(self) -> None:
        self.client.close()

    def exists(self) -> bool:
        """Whether the collection exists; :class:`~procmem.stores.StoreUnavailableError` when
        the store does not answer."""
        try:
            self._known = bool(self.client.collection_exists(self.collection))
            return self._known
        except Exception as exc:  # connection refused, timeouts, HTTP errors: the client's own
            from procmem.stores import StoreUnavailableError

            raise StoreUnavailableError(f"cannot reach Qdrant at {self.location}: "
                                        f"{first_line(exc)}") from exc

    def check_serves(self, memory: Memory, build: str) -> None:
        """Refuse (``ValueError``, one line naming the ``build`` command that fixes it) a
        collection that is missing or does not hold exactly the memory's served units with its
        vectors; then keep the collection's content fingerprint."""
        if not self.exists():
            raise ValueError(f"{self.location} holds no collection {self.collection!r}: run "
                             f"`{build}` first")
        units, matrix = served_vectors(memory)
        stored = self.stored_ids()
        served = {u.id for u in units}
        if stored != served:
            raise ValueError(f"collection {self.collection!r} at {self.location} is out of date "
                             f"({len(served - stored)} of the memory's units missing, "
                             f"{len(stored - served)} it no longer serves): run `{build}`")
        rows = np.linspace(0, len(units) - 1, min(len(units), self.VECTORS_CHECKED)).astype(int)
        points = self.client.retrieve(self.collection, ids=[point_id(units[r].id) for r in rows],
                                      with_payload=["unit_id"], with_vectors=[DENSE])
        held = {str(p.payload["unit_id"]): np.asarray(p.vector[DENSE], np.float32) for p in points}
        for row in rows:
            vector = held.get(units[row].id)
            if vector is None or vector.shape != matrix[row].shape or not np.allclose(
                    vector, matrix[row], atol=1e-4):
                raise ValueError(f"collection {self.collection!r} at {self.location} holds other "
                                 f"vectors than the memory (another embedding model?): drop it "
                                 f"and run `{build}`")
        digest = hashlib.sha256(f"{matrix.shape[1]}\n".encode())
        for unit_id in sorted(stored):
            digest.update(unit_id.encode("utf-8") + b"\n")
        self.fingerprint = digest.hexdigest()[:16]

    def identity(self) -> dict[str, str]:
        """Where the collection is and what it holds (for run keys)."""
        location = self.location
        if location.startswith("qdrant-local:") and location != "qdrant-local::memory:":
            location = f"qdrant-local:{Path(location[len('qdrant-local:'):]).resolve()}"
        return {"store": location, "collection": self.collection, "fingerprint": self.fingerprint}

    # -- writing -------------------------------------------------------------------------------

    def _ensure(self, dim: int) -> None:
        from qdrant_client import models

        if self.client.collection_exists(self.collection):
            return
        self.client.create_collection(
            self.collection,
            vectors_config={DENSE: models.VectorParams(size=dim, distance=models.Distance.DOT)},
            sparse_vectors_config={LEXICAL.format(kind): models.SparseVectorParams(
                modifier=models.Modifier.IDF) for kind in KIND_ORDER})
        if self.location.startswith("qdrant://"):  # the local mode scans: no payload indexes
            for field in ("kind", "type", "doc_ids", "language"):
                self.client.create_payload_index(self.collection, field,
                                                 field_schema=models.PayloadSchemaType.KEYWORD)
            self.client.create_payload_index(self.collection, "repeat",
                                             field_schema=models.PayloadSchemaType.BOOL)

    def stored_ids(self) -> set[str]:
        """The unit ids held in the collection."""
        return set(self._stored())

    def _stored(self) -> dict[str, dict[str, Any]]:
        """The unit ids held in the collection, each with the flags a sync keeps current
        (:data:`FLAGS`) and its tokenizer (:data:`TOKENS`); None where a point was stored without one."""
        if not self.client.collection_exists(self.collection):
            return {}
        found: dict[str, dict[str, Any]] = {}
        offset = None
        while True:
            points, offset = self.client.scroll(self.collection, limit=1024, offset=offset,
                                                with_payload=["unit_id", *FLAGS, TOKENS], with_vectors=False)
            found.update((str(p.payload["unit_id"]), {f: p.payload.get(f) for f in (*FLAGS, TOKENS)})
                         for p in points)
            if offset is None:
                return found

    def sync(self, memory: Memory) -> dict[str, int]:
        """Make the collection hold exactly the memory's served units: new units are added,
        units no longer served (removed or replaced documents) are deleted, and a kept unit
        whose flags changed (the page it repeated was removed; a collection stored before units
        had a language) gets the new ones, and one whose sparse vector another tokenizer made is
        stored again."""
        from qdrant_client import models

        units, vectors = served_vectors(memory)
        if not units:
            return {"added": 0, "deleted": 0, "units": 0}
        self._ensure(int(vectors.shape[1]))
        stored = self._stored()
        repeats = memory.index().repeated_ids()  # as the built-in index leaves them out
        languages = memory.page_languages()
        current = {u.id for u in units}
        stale = sorted(set(stored) - current)
        for start in range(0, len(stale), BATCH):
            self.client.delete(self.collection, points_selector=models.PointIdsList(
                points=[point_id(i) for i in stale[start:start + BATCH]]))
        tokens = [tokenize(indexed_text(u, memory.config.unit_index)) for u in units]
        lengths: dict[str, list[int]] = {}
        for unit, unit_tokens in zip(units, tokens, strict=True):
            lengths.setdefault(unit.kind, []).append(len(unit_tokens))
        avgdl = {kind: float(np.mean(values)) for kind, values in lengths.items()}
        new = [row for row, unit in enumerate(units)
               if unit.id not in stored or stored[unit.id][TOKENS] != TOKENIZER_NAME]
        for start in range(0, len(new), BATCH):
            points = []
            for row in new[start:start + BATCH]:
                kind = units[row].kind
                ids, weights = bm25_document(tokens[row], avgdl[kind])
                points.append(models.PointStruct(
                    id=point_id(units[row].id),
                    vector={DENSE: vectors[row].tolist(),
                            LEXICAL.format(kind): models.SparseVector(indices=ids,
                                                                      values=weights)},
                    payload=_payload(units[row], units[row].id in repeats,
                                     unit_language(units[row], languages))))
            self.client.upsert(self.collection, points=points, wait=True)
        restored = {units[row].id for row in new}  # stored just now with their flags
        changed: dict[tuple[str, Any], list[str]] = {}  # (flag, its new value): the points
        for unit in units:
            if unit.id not in stored or unit.id in restored:
                continue
            now = {"repeat": unit.id in repeats, "language": unit_language(unit, languages)}
            for flag, value in now.items():
                if stored[unit.id][flag] != value:
                    changed.setdefault((flag, value), []).append(point_id(unit.id))
        for (flag, value), points in changed.items():
            for start in range(0, len(points), BATCH):
                self.client.set_payload(self.collection, payload={flag: value},
                                        points=points[start:start + BATCH], wait=True)
        return {"added": len(new), "deleted": len(stale), "units": len(units)}

    def remove_document(self, doc_id: str) -> None:
        """Delete every point of a document (a re-``sync`` adds back merged units it shared)."""
        from qdrant_client import models

        if self.client.collection_exists(self.collection):
            self.client.delete(self.collection, points_selector=models.FilterSelector(
                filter=models.Filter(must=[models.FieldCondition(
                    key="doc_ids", match=models.MatchAny(any=[doc_id]))])))

    def drop(self) -> None:
        if self.client.collection_exists(self.collection):
            self.client.delete_collection(self.collection)
        self._known = False

    # -- searching -----------------------------------------------------------------------------

    def search(self, query_tokens: list[str], query_vector: np.ndarray | None, *, k: int,
               kinds: Sequence[str], method: str, types: Sequence[str] | None = None,
               doc_ids: Sequence[str] | None = None, candidates: int = 100, rrf_k: int = 60,
               dense_weight: float = 0.5, other_languages: Sequence[str] = (),
               named: Sequence[str] = ()) -> list[tuple[str, float]]:
        """``(unit id, score)`` of the best ``k`` units, best first, none of a page written in
        one of ``other_languages`` (a point stored without its language is kept), none that
        repeats another page's but of the pages ``named``; per kind, the collection
        ranks each side and the two lists are fused here, by the built-in index's own
        :func:`~procmem.retrieval.fusion.rrf`; kinds are merged by score as the built-in does."""
        from qdrant_client import models

        if not self._known and not self.exists():
            raise ValueError(f"Qdrant collection {self.collection!r} does not exist at "
                             f"{self.location}: run `inscoqa memory build --store` first")
        wanted = [kind for kind in kinds if not types or kind == "logic_unit"]
        ids, weights = bm25_query(query_tokens)
        sparse = models.SparseVector(indices=ids, values=weights)
        dense = None if query_vector is None else np.asarray(query_vector, np.float32).tolist()
        hybrid = method not in ("bm25", "dense")
        sides = ["bm25", "dense"] if hybrid else [method]
        limit = max(candidates, k) if hybrid else k
        if not wanted or (method == "bm25" and not ids):
            return []
        requests = []
        for kind in wanted:
            where = _filter(kind, types, doc_ids, other_languages, named)
            for side in sides:
                query, using = (sparse, LEXICAL.format(kind)) if side == "bm25" else (dense, DENSE)
                requests.append(models.QueryRequest(query=query, using=using, filter=where,
                                                    limit=limit, with_payload=["unit_id"]))
        with self._lock or contextlib.nullcontext():
            answers = self.client.query_batch_points(self.collection, requests=requests)
        lists = [[(str(p.payload["unit_id"]), float(p.score)) for p in answer.points]
                 for answer in answers]
        found: list[tuple[str, float]] = []
        if not hybrid:
            found = [pair for ranked in lists for pair in ranked]
        else:
            side_weights = [2 * (1 - dense_weight), 2 * dense_weight]
            for lexical, semantic in zip(lists[::2], lists[1::2], strict=True):
                found += _fused(lexical, semantic, rrf_k, side_weights)
        found.sort(key=lambda pair: -pair[1])
        return found[:k]


def _fused(lexical: list[tuple[str, float]], semantic: list[tuple[str, float]], rrf_k: int,
           weights: list[float]) -> list[tuple[str, float]]:
    """Two ranked ``(unit id, score)`` lists fused by reciprocal rank, as the built-in index."""
    lexical = [(unit_id, score) for unit_id, score in lexical if score > 0]  # as top_n(positive_only)
    names = sorted({unit_id for unit_id, _ in lexical + semantic})
    row = {name: i for i, name in enumerate(names)}
    ranked = [np.array([row[unit_id] for unit_id, _ in side], dtype=np.int64) for side in (lexical, semantic)]
    rows, scores = rrf(ranked, k=rrf_k, weights=weights)
    return [(names[r], float(s)) for r, s in zip(rows, scores, strict=True)]


def _payload(unit: Unit, repeat: bool, language: str = "") -> dict[str, Any]:
    return {"unit_id": unit.id, "kind": unit.kind, "type": getattr(unit, "type", "") or "",
            "doc_ids": list(unit.meta.get("doc_ids") or [unit.meta.get("doc_id", "")]),
            "repeat": repeat, "language": language, TOKENS: TOKENIZER_NAME}


def _filter(kind: str, types: Sequence[str] | None, doc_ids: Sequence[str] | None,
            other_languages: Sequence[str] = (), named: Sequence[str] = ()) -> Any:
    from qdrant_client import models

    must: list[Any] = [models.FieldCondition(key="kind", match=models.MatchValue(value=kind))]
    must_not: list[Any] = []
    if types:
        must.append(models.FieldCondition(key="type", match=models.MatchAny(any=list(types))))
    if other_languages:
        must_not.append(models.FieldCondition(key="language", match=models.MatchAny(any=list(other_languages))))
    if doc_ids is not None:
        must.append(models.FieldCondition(key="doc_ids", match=models.MatchAny(any=list(doc_ids))))
    else:  # no repeat, but of the pages the query names
        repeat = models.FieldCondition(key="repeat", match=models.MatchValue(value=True))
        must_not.append(models.Filter(must=[repeat], must_not=[models.FieldCondition(
            key="doc_ids", match=models.MatchAny(any=list(named)))]) if named else repeat)
    return models.Filter(must=must, must_not=must_not or None)


class QdrantMemory(MemorySearch):
    """A memory whose searches are answered by its Qdrant collection: the units for a text come
    from it (:meth:`ranked_units`), and the searches built on them (links, the last question's
    order, documents ranked by their units) are :class:`MemorySearch`'s, as for the memory;
    everything else (units, documents, statistics) is the memory's own. Answerers take it
    wherever they take a memory."""

    def __init__(self, memory: Memory, store: QdrantStore) -> None:
        self.memory = memory
        self.store = store

    def __getattr__(self, name: str) -> Any:
        if name in ("memory", "store"):
            raise AttributeError(name)  # not set yet (copying, unpickling)
        return getattr(self.memory, name)

    def __len__(self) -> int:
        return len(self.memory)

    def units(self, kind: str | None = None) -> list[Unit]:
        return self.memory.units(kind)

    def get(self, unit_id: str) -> Unit | None:
        return self.memory.get(unit_id)

    def close(self) -> None:
        self.store.close()

    def ranked_units(self, text: str, n: int, *, kinds: Sequence[str], method: Method,
                     types: Sequence[str] | None, doc_ids: Sequence[str] | None,
                     settings: SearchSettings, language: str | None = None,
                     asked: str | None = None) -> list[Hit]:
        """The ``n`` best units for ``text``, from the Qdrant collection (``asked``: as
        :meth:`procmem.search.MemorySearch.ranked_units` takes it)."""
        if settings.fusion != "rrf" and method == "hybrid":
            raise ValueError("a Qdrant store fuses with reciprocal rank only (--fusion rrf)")
        vector = self.memory.query_vector(text) if method in ("dense", "hybrid") else None
        tokens = query_tokens(text, asked)
        found = self.store.search(tokens, vector, k=n, kinds=kinds, method=method,
                                  types=types, doc_ids=doc_ids, candidates=settings.candidates,
                                  named=self.pages_named(tokens) if doc_ids is None else (),
                                  other_languages=sorted(set(self.page_languages().values()) - {"", language})
                                  if language else (),
                                  rrf_k=settings.rrf_k, dense_weight=settings.dense_weight)
        hits: list[Hit] = []
        for unit_id, score in found:
            unit = self.memory.get(unit_id)
            if unit is not None:  # a point of a unit this memory no longer serves: skip it
                hits.append(Hit(unit, score, len(hits) + 1, method))
        return hits
