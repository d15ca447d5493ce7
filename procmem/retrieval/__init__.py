"""Retrieval over a memory: BM25 (:mod:`.bm25`), dense (:mod:`.dense`), their fusion
(:mod:`.fusion`), the per-kind search structure (:mod:`.index`), history-aware queries
(:mod:`.query`) and vectors kept by unit id (:mod:`.vectors`)."""
