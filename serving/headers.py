"""Per-call HTTP headers: a session id that a router in front of many replicas routes on.

A conversation's turns share a long prefix (documents, history); sending them all to one replica
lets it reuse its prefix cache. ``with session("conv-42"):`` makes every client call made in that
block (in this thread, or in tasks started from it) carry ``X-Session-ID: conv-42``; a router
with consistent-hash routing (``serving.router``) sends equal ids to the same replica. Servers
that do not route ignore the header.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

SESSION_HEADER = "X-Session-ID"

_headers: ContextVar[Mapping[str, str] | None] = ContextVar("inscoqa_request_headers",
                                                            default=None)


def current_headers() -> dict[str, str]:
    """The headers the calls made here add to the client's own (empty outside any block)."""
    return dict(_headers.get() or {})


@contextmanager
def request_headers(headers: Mapping[str, str]) -> Iterator[None]:
    """Add ``headers`` to every client call made inside the block."""
    token = _headers.set({**(_headers.get() or {}), **headers})
    try:
        yield
    finally:
        _headers.reset(token)


@contextmanager
def session(session_id: str) -> Iterator[None]:
    """Tag the calls made inside the block as one session (e.g. one conversation)."""
    with request_headers({SESSION_HEADER: str(session_id)}):
        yield
