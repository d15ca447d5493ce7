"""ROUGE-L against Google's rouge-score on real texts (exact float equality), plus edge cases."""

from __future__ import annotations

import random

import pytest
from rouge_score import rouge_scorer
from rouge_score import tokenize as rs_tokenize
from rouge_score.tokenizers import DefaultTokenizer

from eval.rouge import RougeScore, _code_point, char_units, rouge_l, rouge_l_batch, tokenize


class SpaceTokenizer:
    """Lets rouge-score score our character units: feed it the space-separated characters."""

    def tokenize(self, text: str) -> list[str]:
        return text.split()


def reference(cand: str, ref: str, scorer: rouge_scorer.RougeScorer) -> RougeScore:
    s = scorer.score(ref, cand)["rougeL"]
    return RougeScore(s.precision, s.recall, s.fmeasure)


def reference_char(cand: str, ref: str) -> RougeScore:
    scorer = rouge_scorer.RougeScorer(["rougeL"], tokenizer=SpaceTokenizer())
    return reference(" ".join(char_units(cand)), " ".join(char_units(ref)), scorer)


# --- word level: identical to rouge-score ---------------------------------------------------


def test_word_level_equals_rouge_score_on_real_texts(real_texts) -> None:
    pairs = real_texts.pairs(600, seed=1)
    # Every conversation's answer against its own procedures and its earlier answers too.
    for conv in real_texts.conversations:
        pairs.append((conv.answer, " ".join(conv.procedures)))
        pairs += [(a, conv.answer) for _, a in conv.history]
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    expected = [reference(c, r, scorer) for c, r in pairs]

    singles = [rouge_l(c, r) for c, r in pairs]
    batch = rouge_l_batch([c for c, _ in pairs], [r for _, r in pairs])

    assert singles == expected
    assert batch == expected
    # The comparison is not vacuous: real overlap, real misses.
    assert sum(0 < s.fmeasure < 1 for s in expected) > 0.9 * len(pairs)


def test_stemmed_word_level_equals_rouge_score_use_stemmer(real_texts) -> None:
    pairs = real_texts.pairs(200, seed=2)
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
    expected = [reference(c, r, scorer) for c, r in pairs]
    assert [rouge_l(c, r, stemmer=True) for c, r in pairs] == expected
    assert rouge_l_batch([c for c, _ in pairs], [r for _, r in pairs], stemmer=True) == expected
    # Stemming changes scores on real text (otherwise the test would prove nothing).
    assert [rouge_l(c, r) for c, r in pairs] != expected


def test_tokenizer_equals_rouge_score_on_real_and_unicode_text(real_texts) -> None:
    texts = [
        *real_texts.answers,
        *real_texts.paragraphs[:300],
        "Straße naïve café ﬁle İstanbul \u212aelvin ÀÉÎ 42nd 3.14 C++ e-mail O'Neil",
        "Tabs\tand\nnewlines\r\n and\u00a0nbsp and\u2003em-space, ALL CAPS, MiXeD123abc",
        "中文句子没有空格 but English has them; العربية; Ελληνικά",
        "",
        "   ",
        "!!! ??? ...",
    ]
    stemmer = DefaultTokenizer(use_stemmer=True)
    for text in texts:
        assert tokenize(text) == rs_tokenize.tokenize(text, None)
        assert tokenize(text, stemmer=True) == stemmer.tokenize(text)
    # The batch path tokenizes through a faster byte-level route: same scores on odd text.
    odd = texts[-6:]
    cands = [a for a in odd for _ in odd]
    refs = [b for _ in odd for b in odd]
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    assert rouge_l_batch(cands, refs) == [
        reference(c, r, scorer) for c, r in zip(cands, refs, strict=True)
    ]


def test_batch_with_more_tokens_than_the_surrogate_gap() -> None:
    # > 55,296 distinct tokens: some map to code points past the UTF-16 surrogate range.
    rng = random.Random(3)
    words = [f"w{i}" for i in range(60_000)]
    big = " ".join(words)
    cands = [" ".join(rng.sample(words, 120)) for _ in range(20)]
    refs = [
        " ".join(rng.choice([c.split(), rng.sample(words, 120)])[:: rng.choice([1, 2])])
        for c in cands
    ]
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    expected = [reference(c, r, scorer) for c, r in zip(cands, refs, strict=True)]
    assert rouge_l_batch([big, *cands], [big, *refs])[1:] == expected
    assert _code_point(0xD7FF) == "\ud7ff"
    assert _code_point(0xD800) == "\ue000"


# --- F-beta ----------------------------------------------------------------------------------


def test_beta_weights_recall_as_rouge_l_defines_it(real_texts) -> None:
    for cand, ref in real_texts.pairs(50, seed=4):
        f1 = rouge_l(cand, ref)
        f3 = rouge_l(cand, ref, beta=3.0)
        p, r = f1.precision, f1.recall
        assert (f3.precision, f3.recall) == (p, r)
        if p + r > 0:
            assert f3.fmeasure == pytest.approx(10 * p * r / (9 * p + r))
            # Larger beta moves F towards recall.
            assert abs(f3.fmeasure - r) <= abs(f1.fmeasure - r) + 1e-12
        assert rouge_l_batch([cand], [ref], beta=3.0) == [f3]


def test_invalid_arguments_are_rejected() -> None:
    with pytest.raises(ValueError, match="level"):
        rouge_l("a", "b", level="sentence")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="beta"):
        rouge_l("a", "b", beta=0)
    with pytest.raises(ValueError, match="2 candidates but 1 references"):
        rouge_l_batch(["a", "b"], ["a"])


# --- character level -------------------------------------------------------------------------


def test_char_level_equals_rouge_score_on_characters(real_texts) -> None:
    rng = random.Random(5)
    short = [*real_texts.steps, *real_texts.history_answers]
    pairs = [(rng.choice(short), rng.choice(short + real_texts.paragraphs)) for _ in range(150)]
    expected = [reference_char(c, r) for c, r in pairs]
    assert [rouge_l(c, r, level="char") for c, r in pairs] == expected
    assert rouge_l_batch([c for c, _ in pairs], [r for _, r in pairs], level="char") == expected


def test_char_level_scores_chinese_where_word_level_finds_no_tokens() -> None:
    cand = "我喜欢在周末做苹果派。"
    ref = "我不喜欢在周末做香蕉派！"
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    assert reference(cand, ref, scorer) == RougeScore(0, 0, 0)
    assert rouge_l(cand, ref) == RougeScore(0.0, 0.0, 0.0)

    score = rouge_l(cand, ref, level="char")
    # LCS = 我喜欢在周末做派 (8 characters) of 11 and 12 characters.
    assert score.precision == 8 / 11
    assert score.recall == 8 / 12
    assert score.fmeasure == 2 * (8 / 11) * (8 / 12) / (8 / 11 + 8 / 12)
    assert score == reference_char(cand, ref)
    # Whitespace is not part of the character units; case and punctuation are.
    assert rouge_l("我 喜欢\t苹果", "我喜欢苹果", level="char").fmeasure == 1.0
    assert rouge_l("Apple.", "apple", level="char").fmeasure < 1.0


# --- edge cases ------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["word", "char"])
@pytest.mark.parametrize(
    ("cand", "ref"),
    [("", ""), ("", "some text"), ("some text", ""), ("   \n", "text"), ("text", "\t")],
)
def test_empty_sides_score_zero(level: str, cand: str, ref: str) -> None:
    zero = RougeScore(0.0, 0.0, 0.0)
    assert rouge_l(cand, ref, level=level) == zero  # type: ignore[arg-type]
    assert rouge_l_batch([cand], [ref], level=level) == [zero]  # type: ignore[arg-type]


def test_punctuation_only_and_identical_texts() -> None:
    assert rouge_l("!!! ...", "Some words.") == RougeScore(0.0, 0.0, 0.0)
    assert rouge_l("?!", "?!", level="char") == RougeScore(1.0, 1.0, 1.0)
    assert rouge_l("Open the panel.", "open THE panel") == RougeScore(1.0, 1.0, 1.0)
    assert rouge_l("a b c", "d e f") == RougeScore(0.0, 0.0, 0.0)
    assert rouge_l_batch([], []) == []
