"""The human check of built data: verdicts, the review page, sheets, and the final dataset.

Gradio is imported only by :mod:`inscoqa.review.page`'s functions.
"""

from inscoqa.review.outcome import ReviewReport, cohen_kappa, combine, write_final
from inscoqa.review.session import ReviewSession, parse_steps
from inscoqa.review.sheets import export_sheet, read_sheet
from inscoqa.review.verdicts import DECISIONS, Verdict, VerdictError, VerdictStore, verdicts_dir

__all__ = ["DECISIONS", "ReviewReport", "ReviewSession", "Verdict", "VerdictError",
           "VerdictStore", "cohen_kappa", "combine", "export_sheet", "parse_steps", "read_sheet",
           "verdicts_dir", "write_final"]
