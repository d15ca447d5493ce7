"""Pairwise logistic-regression ranker, its model file and k-fold cross-validation.

Training: features are standardised, then every (relevant, non-relevant) pair of candidates of a
query gives the difference of their feature vectors, labelled 1 (and its negation, labelled 0);
scikit-learn's ``LogisticRegression`` (no intercept) learns the weights; a candidate's score is
the dot product of its standardised features with them. Ranking keeps the verified candidates
(at least one grounded step) first, by score, then the rest in retrieval order.

The model file is JSON: ``format``, ``version``, the feature names in order, the standardisation,
the weights and what it was trained on.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from procmem.rerank.features import check_features
from procmem.rerank.metrics import METRICS, mean_metrics, query_metrics

MODEL_FORMAT = "inscoqa-rerank-model"
MODEL_VERSION = 1


@dataclass
class LabelledQuery:
    """One query's candidates (retrieval order), their features and verification, and its labels."""

    id: str
    query: str
    relevant: list[str]
    doc_ids: list[str]
    features: list[list[float]]
    verified: list[bool]
    feature_names: list[str]
    details: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "query": self.query, "relevant": self.relevant, "doc_ids": self.doc_ids,
                "features": self.features, "verified": self.verified, "feature_names": self.feature_names,
                "details": self.details}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LabelledQuery:
        return cls(**data)


def order(query: LabelledQuery, scores: Sequence[float]) -> list[str]:
    """Verified candidates by score (ties: retrieval order), then the unverified ones."""
    idx = range(len(query.doc_ids))
    kept = sorted((i for i in idx if query.verified[i]), key=lambda i: (-scores[i], i))
    dropped = [i for i in idx if not query.verified[i]]
    return [query.doc_ids[i] for i in kept + dropped]


@dataclass
class PairwiseRanker:
    features: list[str]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    trained: dict[str, Any] = field(default_factory=dict)

    def scores(self, rows: Sequence[Sequence[float]]) -> list[float]:
        if not rows:
            return []
        x = (np.asarray(rows, dtype=float) - self.mean) / self.scale
        return (x @ self.coef).tolist()

    def rank(self, query: LabelledQuery) -> list[str]:
        if query.feature_names != self.features:
            raise ValueError(f"query {query.id}: features {query.feature_names} are not the model's {self.features}")
        return order(query, self.scores(query.features))

    @classmethod
    def fit(cls, queries: Sequence[LabelledQuery], *, c: float = 1.0, **trained: Any) -> PairwiseRanker:
        from sklearn import __version__ as sklearn_version
        from sklearn.linear_model import LogisticRegression

        if not queries:
            raise ValueError("no labelled queries to train on")
        names = queries[0].feature_names
        rows = np.asarray([r for q in queries for r in q.features], dtype=float)
        mean = rows.mean(axis=0)
        scale = rows.std(axis=0)
        scale[scale == 0] = 1.0
        diffs: list[np.ndarray] = []
        for q in queries:
            x = (np.asarray(q.features, dtype=float) - mean) / scale
            rel = [i for i, d in enumerate(q.doc_ids) if d in set(q.relevant)]
            non = [i for i in range(len(q.doc_ids)) if i not in set(rel)]
            diffs += [x[i] - x[j] for i in rel for j in non]
        if not diffs:
            raise ValueError("no (relevant, non-relevant) candidate pair in the training queries")
        pairs = np.asarray(diffs)
        x_train = np.vstack([pairs, -pairs])
        y_train = np.r_[np.ones(len(pairs)), np.zeros(len(pairs))]
        model = LogisticRegression(C=c, fit_intercept=False, max_iter=1000).fit(x_train, y_train)
        info = {"queries": len(queries), "pairs": len(pairs), "C": c, "sklearn": sklearn_version, **trained}
        return cls(list(names), mean, scale, model.coef_[0].copy(), info)

    def to_dict(self) -> dict[str, Any]:
        return {"format": MODEL_FORMAT, "version": MODEL_VERSION, "features": self.features,
                "mean": self.mean.tolist(), "scale": self.scale.tolist(), "coef": self.coef.tolist(),
                "weights": dict(zip(self.features, self.coef.round(4).tolist(), strict=True)),
                "trained": self.trained}

    def save(self, path: str | Path) -> Path:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(target.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")
        tmp.replace(target)
        return target

    @classmethod
    def load(cls, path: str | Path) -> PairwiseRanker:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: cannot read the rerank model: {exc}") from exc
        if not isinstance(data, dict) or data.get("format") != MODEL_FORMAT:
            raise ValueError(f"{path}: field 'format' is not {MODEL_FORMAT!r}: not a rerank model file")
        if data.get("version") != MODEL_VERSION:
            raise ValueError(f"{path}: field 'version' is {data.get('version')!r}; this release reads "
                             f"version {MODEL_VERSION}: train the model again")
        try:
            names = check_features(data["features"])
            vectors = [np.asarray(data[k], dtype=float) for k in ("mean", "scale", "coef")]
        except KeyError as exc:
            raise ValueError(f"{path}: field {exc.args[0]!r} is missing") from exc
        except ValueError as exc:
            raise ValueError(f"{path}: field 'features': {exc}") from exc
        for key, vector in zip(("mean", "scale", "coef"), vectors, strict=True):
            if vector.shape != (len(names),):
                raise ValueError(f"{path}: field {key!r} has {vector.size} values for {len(names)} features")
        return cls(names, *vectors, trained=data.get("trained", {}))


# -- cross-validation ---------------------------------------------------------------------------

Ranking = Callable[[LabelledQuery], list[str]]


def retrieval_order(q: LabelledQuery) -> list[str]:
    return list(q.doc_ids)


def verified_order(q: LabelledQuery) -> list[str]:
    """Retrieval order with the unverified candidates moved to the end."""
    return order(q, [0.0] * len(q.doc_ids))


def oracle(q: LabelledQuery) -> list[str]:
    rel = set(q.relevant)
    return [d for d in q.doc_ids if d in rel] + [d for d in q.doc_ids if d not in rel]


def feature_order(name: str) -> Ranking:
    def rank(q: LabelledQuery) -> list[str]:
        column = q.feature_names.index(name)
        return order(q, [row[column] for row in q.features])
    return rank


def evaluate(queries: Sequence[LabelledQuery], ranking: Ranking) -> dict[str, float]:
    return mean_metrics([query_metrics(ranking(q), set(q.relevant)) for q in queries])


def folds(n: int, k: int, seed: int) -> list[list[int]]:
    if not 2 <= k <= n:
        raise ValueError(f"cross-validation needs 2 <= folds <= queries ({n}), got {k}")
    idx = list(range(n))
    random.Random(seed).shuffle(idx)
    return [idx[f::k] for f in range(k)]


def best_single_feature(queries: Sequence[LabelledQuery], metric: str = "NDCG@5") -> str:
    names = queries[0].feature_names
    return max(names, key=lambda n: (evaluate(queries, feature_order(n))[metric], -names.index(n)))


@dataclass
class CVResult:
    folds: int
    queries: int
    with_relevant_candidate: int
    table: dict[str, dict[str, float]]
    single_features: list[str]
    weights: dict[str, float]

    def to_dict(self) -> dict[str, Any]:
        return {"folds": self.folds, "queries": self.queries,
                "with_relevant_candidate": self.with_relevant_candidate, "metrics": list(METRICS),
                "table": self.table, "single_features": self.single_features, "weights": self.weights}

    def format(self) -> str:
        head = f"{'system':<28}" + "".join(f"{m:>9}" for m in METRICS)
        lines = [head]
        for system, row in self.table.items():
            lines.append(f"{system:<28}" + "".join(f"{row[m]:9.3f}" for m in METRICS))
        lines.append(f"{self.queries} queries ({self.with_relevant_candidate} with a relevant candidate), "
                     f"{self.folds}-fold cross-validation; single feature per fold: "
                     f"{', '.join(self.single_features)}")
        return "\n".join(lines)


def cross_validate(queries: Sequence[LabelledQuery], *, k: int = 5, seed: int = 0,
                   c: float = 1.0) -> CVResult:
    """Retrieval order, verified order, the ranker, the best single feature (chosen on each
    training fold) and the oracle, each scored on the held-out queries of every fold."""
    queries = list(queries)
    trainable = lambda qs: [q for q in qs if set(q.relevant) & set(q.doc_ids)]  # noqa: E731
    per_system: dict[str, list[dict[str, float]]] = {s: [] for s in
                                                     ("retrieval order", "verified order", "ranker",
                                                      "single feature", "oracle")}
    singles: list[str] = []
    weights: list[np.ndarray] = []
    for held in folds(len(queries), k, seed):
        held_set = set(held)
        train = trainable([q for i, q in enumerate(queries) if i not in held_set])
        test = [queries[i] for i in held]
        ranker = PairwiseRanker.fit(train, c=c)
        weights.append(ranker.coef)
        single = best_single_feature(train)
        singles.append(single)
        rankings: dict[str, Ranking] = {"retrieval order": retrieval_order, "verified order": verified_order,
                                        "ranker": ranker.rank, "single feature": feature_order(single),
                                        "oracle": oracle}
        for system, ranking in rankings.items():
            per_system[system] += [query_metrics(ranking(q), set(q.relevant)) for q in test]
    names = queries[0].feature_names
    mean_w = np.mean(weights, axis=0)
    return CVResult(k, len(queries), len(trainable(queries)),
                    {s: mean_metrics(rows) for s, rows in per_system.items()}, singles,
                    dict(zip(names, mean_w.round(4).tolist(), strict=True)))
