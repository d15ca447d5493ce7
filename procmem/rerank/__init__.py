"""Verified reranking of how-to candidates: grounded instructions, features, a pairwise ranker."""

from procmem.rerank.extract import Candidate, candidates_for
from procmem.rerank.features import FEATURES, MODEL_FREE, default_features, feature_matrix
from procmem.rerank.ranker import LabelledQuery, PairwiseRanker, cross_validate

__all__ = ["FEATURES", "MODEL_FREE", "Candidate", "LabelledQuery", "PairwiseRanker", "candidates_for",
           "cross_validate", "default_features", "feature_matrix"]
