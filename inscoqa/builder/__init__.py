"""Build InsCoQA-format conversations from a team's own documents (SPEC §1, construction).

:class:`DatasetBuilder` runs the model steps over user queries, with retrieval passed in as a
:class:`Retriever` (any callable from a query and ``k`` to scored :class:`SourceDocument`s), so
this package depends on the serving layer only.
"""

from inscoqa.builder.pipeline import (
    BuildOptions,
    BuildSpecError,
    BuildSummary,
    DatasetBuilder,
    Retriever,
    select_documents,
)
from inscoqa.builder.queries import queries_from_documents, query_key, read_queries
from inscoqa.builder.steps import Rejected, SourceDocument
from inscoqa.dirlock import DirectoryLock, DirectoryLockedError
from inscoqa.keyed_store import KeyedStore

__all__ = ["BuildOptions", "BuildSpecError", "BuildSummary", "DatasetBuilder",
           "DirectoryLock", "DirectoryLockedError", "KeyedStore", "Rejected", "Retriever",
           "SourceDocument", "queries_from_documents", "query_key", "read_queries",
           "select_documents"]
