"""Evaluation of how-to answerers.

* :mod:`eval.rouge` — word- and character-level ROUGE-L (exactly rouge-score's word level);
* :mod:`eval.inseval` — the InsEval judge: Judge Score (1-10) and Task Completion Rate (0-100);
* :mod:`eval.pairwise` — pairwise comparison of two procedures by majority vote;
* :mod:`eval.howto` — linear how-to metrics: action-item precision, recall, F1, success rate;
* :mod:`eval.agreement` — agreement of two judges (system rankings and per sample);
* :mod:`eval.retrieval_metrics` — recall@k and MRR of ranked documents.
* :mod:`eval.step_coverage` — reference steps an answer's steps match, and the most that copying
  the documents' lines and sentences could match.

Submodules are imported on use, so ``import eval.rouge`` does not load the LLM stack.
"""
