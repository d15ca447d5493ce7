"""InsCoQA-format benchmark data: conversations, schema, loaders, corpus readers, bundled sample."""

from inscoqa.corpus.document import Document
from inscoqa.records import Conversation, DocRef

__all__ = ["Conversation", "DocRef", "Document"]
