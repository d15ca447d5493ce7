"""ROUGE-L speed and exactness: ``eval.rouge`` against Google's ``rouge-score`` on real text pairs.

The pairs come from the bundled sample data: reference answers, earlier-round answers,
reference procedures (joined and single steps) and paragraphs of the documents the
conversations draw on, paired the way evaluation pairs them (answer vs answer, answer vs
procedures, step vs its evidence document, ...).

* word level: ``RougeScorer(["rougeL"])`` vs ``rouge_l_batch(level="word")``;
* char level: rouge-score run on the space-separated characters of each text (tokenized on
  whitespace, so it sees exactly our character units) vs ``rouge_l_batch(level="char")``.

Times are process CPU seconds (``time.process_time``), so other load on the machine does not
distort the ratio; ours is the best of ``--repeats`` runs, one thread. Prints pairs/s for both, the speed ratio and the number of mismatching P/R/F values
(exact float equality). Targets: >= 100x (word), >= 1000x (char), 0 mismatches.

    python benchmarks/rouge_speed.py [--pairs 2000] [--seed 0] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rouge_score import rouge_scorer
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from eval.rouge import RougeScore, char_units, rouge_l_batch  # noqa: E402
from inscoqa.bundled import load_sample, sample_documents  # noqa: E402

Pair = tuple[str, str, str]  # (kind, candidate, reference)


# ---------------------------------------------------------------------------------------------
# Real texts from the bundled sample


def _load_conversations() -> list[dict]:
    return [c.to_dict() for c in load_sample("all")]


def _document_texts(doc_ids: set[str]) -> dict[str, str]:
    return {d.doc_id: d.text for d in sample_documents() if d.doc_id in doc_ids}


def _paragraphs(text: str, min_words: int = 8, max_words: int = 120) -> list[str]:
    paras = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text)]
    return [p for p in paras if min_words <= len(p.split()) <= max_words]


# Share of each kind of pair, after the pairs every conversation contributes once.
MIX = {
    "answer~answer": 0.1,
    "answer~procedures": 0.06,
    "procedures~document": 0.22,
    "history~history": 0.15,
    "step~document": 0.27,
    "step~step": 0.18,
}


def real_text_pairs(n_pairs: int = 2000, seed: int = 0) -> list[Pair]:
    """At least ``n_pairs`` (kind, candidate, reference) pairs of real texts, deterministic.

    Every conversation gives its answer against its own procedures and its earlier answers;
    the rest follows :data:`MIX`: answers against other conversations' answers and procedures,
    procedures and single steps against paragraphs of the documents they come from, and
    earlier-round answers and steps against each other.
    """
    rng = random.Random(seed)
    convs = _load_conversations()
    docs = _document_texts({d["doc_id"] for c in convs for d in c["documents"]})
    doc_paras = {doc_id: _paragraphs(text) for doc_id, text in docs.items()}
    all_paras = [p for paras in doc_paras.values() for p in paras]
    history = [a for c in convs for _, a in c["history"]]
    steps = [
        (step, evidence)
        for c in convs
        for step, evidence in zip(
            c["procedures"], c.get("evidence") or [""] * len(c["procedures"]), strict=True
        )
    ]

    def paragraph_of(doc_ids: list[str]) -> str:
        return rng.choice([p for d in doc_ids for p in doc_paras.get(d, [])] or all_paras)

    def other(c: dict) -> dict:
        return rng.choice([o for o in convs if o["id"] != c["id"]])

    draw = {
        "answer~answer": lambda c: (c["answer"], other(c)["answer"]),
        "answer~procedures": lambda c: (c["answer"], " ".join(other(c)["procedures"])),
        "procedures~document": lambda c: (
            " ".join(c["procedures"]),
            paragraph_of([d["doc_id"] for d in c["documents"]]),
        ),
        "history~history": lambda c: (rng.choice(history), rng.choice(history)),
        "step~document": lambda c: (lambda s: (s[0], paragraph_of([s[1]])))(rng.choice(steps)),
        "step~step": lambda c: (rng.choice(steps)[0], rng.choice(steps)[0]),
    }
    pairs: list[Pair] = []
    for c in convs:
        pairs.append(("answer~procedures", c["answer"], " ".join(c["procedures"])))
        pairs += [("history~answer", a, c["answer"]) for _, a in c["history"]]
    quota = max(0, n_pairs - len(pairs))
    for kind, share in MIX.items():
        pairs += [(kind, *draw[kind](rng.choice(convs))) for _ in range(round(quota * share))]
    while len(pairs) < n_pairs:
        pairs.append(("step~step", *draw["step~step"](rng.choice(convs))))
    return pairs


# ---------------------------------------------------------------------------------------------
# Timing


class _WhitespaceTokenizer:
    """rouge-score tokenizer for the char reference: the space-separated characters."""

    def tokenize(self, text: str) -> list[str]:
        return text.split()


def _spaced_chars(text: str) -> str:
    return " ".join(char_units(text))


def _best_time(fn: Callable[[], list[RougeScore]], repeats: int) -> tuple[list[RougeScore], float]:
    best, out = float("inf"), []
    for _ in range(repeats):
        start = time.process_time()
        out = fn()
        best = min(best, time.process_time() - start)
    return out, best


def _reference(
    scorer: rouge_scorer.RougeScorer, cands: Sequence[str], refs: Sequence[str], label: str
) -> tuple[list[RougeScore], list[float]]:
    """rouge-score on every pair, with the seconds each pair took."""
    scores, seconds = [], []
    with tqdm(total=len(cands), desc=f"rouge-score {label}", unit="pair", leave=False) as bar:
        for c, r in zip(cands, refs, strict=True):
            start = time.process_time()
            s = scorer.score(r, c)["rougeL"]
            seconds.append(time.process_time() - start)
            scores.append(RougeScore(s.precision, s.recall, s.fmeasure))
            if len(scores) % 100 == 0:
                bar.update(100)
    return scores, seconds


def _mismatches(a: list[RougeScore], b: list[RougeScore]) -> int:
    return sum(x != y for s, t in zip(a, b, strict=True) for x, y in zip(s, t, strict=True))


def run(n_pairs: int, seed: int, repeats: int) -> dict:
    pairs = real_text_pairs(n_pairs, seed)
    cands = [c for _, c, _ in pairs]
    refs = [r for _, _, r in pairs]
    by_kind: dict[str, list[int]] = {}
    for i, (kind, _, _) in enumerate(pairs):
        by_kind.setdefault(kind, []).append(i)

    references = {
        "word": (rouge_scorer.RougeScorer(["rougeL"]), cands, refs),
        "char": (
            rouge_scorer.RougeScorer(["rougeL"], tokenizer=_WhitespaceTokenizer()),
            [_spaced_chars(t) for t in cands],
            [_spaced_chars(t) for t in refs],
        ),
    }
    report: dict = {"pairs": len(pairs), "levels": {}}
    for level, (scorer, ref_cands, ref_refs) in references.items():
        expected, seconds = _reference(scorer, ref_cands, ref_refs, level)
        ours, t_ours = _best_time(lambda lv=level: rouge_l_batch(cands, refs, level=lv), repeats)
        kinds = {}
        for kind, idx in by_kind.items():
            sub_c, sub_r = [cands[i] for i in idx], [refs[i] for i in idx]
            _, t_kind = _best_time(
                lambda c=sub_c, r=sub_r, lv=level: rouge_l_batch(c, r, level=lv), repeats
            )
            t_ref = sum(seconds[i] for i in idx)
            kinds[kind] = {"pairs": len(idx), "speedup": t_ref / t_kind}
        t_ref = sum(seconds)
        report["levels"][level] = {
            "rouge_score_pairs_per_s": len(pairs) / t_ref,
            "ours_pairs_per_s": len(pairs) / t_ours,
            "speedup": t_ref / t_ours,
            "mismatches": _mismatches(ours, expected),
            "values_compared": 3 * len(pairs),
            "kinds": kinds,
        }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args()
    report = run(args.pairs, args.seed, args.repeats)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{report['pairs']} real text pairs")
    print(
        f"{'level':<6} {'rouge-score pairs/s':>20} {'ours pairs/s':>14} {'speed-up':>10} {'mismatches':>14}"
    )
    for level, r in report["levels"].items():
        print(
            f"{level:<6} {r['rouge_score_pairs_per_s']:>20,.1f} {r['ours_pairs_per_s']:>14,.0f} "
            f"{r['speedup']:>9,.0f}x {r['mismatches']:>6} / {r['values_compared']}"
        )
    print("speed-up by kind of pair:")
    for kind in report["levels"]["word"]["kinds"]:
        parts = [
            f"{level} {r['kinds'][kind]['speedup']:,.0f}x" for level, r in report["levels"].items()
        ]
        print(
            f"  {kind:<22} {report['levels']['word']['kinds'][kind]['pairs']:>5} pairs  "
            + "  ".join(parts)
        )


if __name__ == "__main__":
    main()
