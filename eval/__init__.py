"""Evaluation of how-to answerers.

* :mod:`eval.rouge` — word- and character-level ROUGE-L (exactly rouge-score's word level);
* :mod:`eval.inseval` — the InsEval judge: Judge Score (1-10) and Task Completion Rate (0-100);
* :mod:`eval.pairwise` — pairwise comparison of two procedures by majority vote;
* :mod:`eval.howto` — linear how-to metrics: action-item precision, recall, F1, success rate;
* :mod:`eval.agreement` — agreement of two judges (system rankings and per sample);
* :mod:`eval.retrieval_metrics` — recall@k and MRR of ranked documents.
* :mod:`eval.step_coverage` — the share of reference steps that an answer's steps match;
* :mod:`eval.ceilings` — the most an answer copied from the documents could reach on those figures.

Submodules are imported on use, so ``import eval.rouge`` does not load the LLM stack.
"""
