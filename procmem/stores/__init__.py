"""Search backends that hold a memory's index outside the process (e.g. a Qdrant cluster).

A backend is opened from a location string (:func:`open_backend`): ``qdrant://HOST:PORT`` for
a Qdrant server or cluster, ``qdrant-local:DIR`` for the Qdrant client's embedded local mode.
The memory itself (units, documents) stays in its directory; the backend holds the dense
vectors and the BM25 term weights of its served units and answers the searches.
"""

from __future__ import annotations

from typing import Any

SCHEMES = {"qdrant": "procmem.stores.qdrant", "qdrant-local": "procmem.stores.qdrant"}


def open_backend(location: str, collection: str) -> Any:
    """The backend at ``location`` (see the module docstring) for the collection named."""
    scheme = location.split(":", 1)[0]
    if scheme not in SCHEMES or ":" not in location:
        raise ValueError(f"--store {location!r}: expected qdrant://HOST:PORT or qdrant-local:DIR")
    from importlib import import_module

    return import_module(SCHEMES[scheme]).QdrantStore.open(location, collection)
