"""Search backends that hold a memory's index outside the process (e.g. a Qdrant cluster).

A backend is opened from a location string (:func:`open_backend`): ``qdrant://HOST:PORT`` for
a Qdrant server or cluster, ``qdrant-local:DIR`` for the Qdrant client's embedded local mode.
The memory itself (units, documents) stays in its directory; the backend holds the dense
vectors and the BM25 term weights of its served units and answers the searches.

Readers (``inscoqa bench --store``, ``inscoqa answer --store``, ``inscoqa memory search
--store``) take a memory through :func:`open_memory_store`: the memory's collection in the
store, checked to hold exactly the units the memory serves, searched wherever the memory would
be (:class:`procmem.stores.qdrant.QdrantMemory`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from procmem.memory import Memory
    from procmem.stores.qdrant import QdrantMemory

SCHEMES = {"qdrant": "procmem.stores.qdrant", "qdrant-local": "procmem.stores.qdrant"}

__all__ = ["SCHEMES", "StoreUnavailableError", "open_backend", "open_memory",
           "open_memory_store"]


class StoreUnavailableError(RuntimeError):
    """The store cannot be reached or opened (a server that does not answer, a local directory
    another process holds). Its message is one line."""


def open_backend(location: str, collection: str) -> Any:
    """The backend at ``location`` (see the module docstring) for the collection named."""
    scheme = location.split(":", 1)[0]
    if scheme not in SCHEMES or ":" not in location:
        raise ValueError(f"--store {location!r}: expected qdrant://HOST:PORT or qdrant-local:DIR")
    from importlib import import_module

    return import_module(SCHEMES[scheme]).QdrantStore.open(location, collection)


def open_memory_store(memory: Memory, location: str,
                      collection: str | None = None) -> QdrantMemory:
    """``memory`` searched through its collection at ``location``.

    The collection is ``collection``, else the one ``memory build --store`` recorded in the
    memory's directory, else the default name of that directory. Raises
    :class:`StoreUnavailableError` when the store cannot be reached, and ``ValueError`` (one
    line, saying which command fixes it) when the collection is missing, or holds other units
    or other vectors than the memory serves.
    """
    from procmem.stores.qdrant import QdrantMemory, recorded_collection

    if collection is None:
        if memory.path is None:
            raise ValueError(f"--store {location}: the memory has no directory to name its "
                             "collection; give the collection")
        collection = recorded_collection(memory.path)
    build = (f"inscoqa memory build --out {memory.path or 'DIR'} --store {location}")
    if location.startswith("qdrant-local:"):
        where = location[len("qdrant-local:"):]
        if where and where != ":memory:" and not Path(where).is_dir():
            raise ValueError(f"{location}: no Qdrant storage in {where}: run `{build}` first")
    store = open_backend(location, collection)
    try:
        store.check_serves(memory, build)
    except BaseException:
        store.close()
        raise
    return QdrantMemory(memory, store)


def open_memory(directory: str | Path | None, store: str | None, *,
                progress: bool = False) -> Memory | QdrantMemory:
    """The memory a command answers from: the one in ``directory`` (None: the bundled sample
    memory), searched through its collection in ``store`` when one is given."""
    from procmem.memory import Memory, sample_memory

    memory = Memory.load(directory) if directory else sample_memory(progress=progress)
    return open_memory_store(memory, store) if store else memory
