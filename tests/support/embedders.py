"""An embedder double that observes what a memory asks the real model to encode."""

from __future__ import annotations


class CountingEmbedder:
    """The real embedder, counting what it is asked to encode."""

    def __init__(self, embedder):
        self.inner, self.name, self.texts = embedder, embedder.name, []

    def encode_unique(self, texts, progress=False):
        self.texts += list(texts)
        return self.inner.encode_unique(texts, progress=progress)

    def encode(self, texts, progress=False):
        self.texts += list(texts)
        return self.inner.encode(texts, progress=progress)
