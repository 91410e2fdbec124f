"""Sentences shared by the HTML and Markdown reports, as plain text (each renderer escapes).

Both formats say the same about diagnosis and abstention, in the same words.
"""

from __future__ import annotations

from ragmeter.report.fmt import pct, pct_ci
from ragmeter.report.summary import Abstention, Diagnosis

__all__ = ["POINTS_MEANING", "abstention_lines", "points", "signals_line"]

POINTS_MEANING = (
    "Score points are a category's part of the CRAG score, in percentage points (they add up "
    "to the score); points short, its part of the gap to a perfect score."
)


def points(v: float) -> str:
    """Score points as signed percentage points (``-22.2``); a category with none, ``0.0``."""
    return "0.0" if v == 0 else pct(v, True)


def signals_line(d: Diagnosis) -> str:
    """The three signals over the run, or an empty string when none could be told."""
    parts = []
    if d.answer_in_pages is not None:
        parts.append(f"a gold answer was in the question's pages for {pct(d.answer_in_pages)}")
    if d.answer_in_evidence is not None:
        parts.append(f"in the evidence the system used for {pct(d.answer_in_evidence)}")
    if d.supported is not None:
        parts.append(f"the evidence supported {pct(d.supported)} of the answers")
    if not parts:
        return ""
    text = "; ".join(parts) + " (shares of the questions where the signal could be told)."
    return text[0].upper() + text[1:]


def _auroc(a: Abstention) -> str:
    head = f"{a.with_confidence:,} of the {a.n:,} scored answers carry a confidence."
    if a.auroc is None:
        return f"{head} AUROC is not defined: the answers are all right or all wrong."
    return (
        f"{head} AUROC {a.auroc:.3f}: how well the confidence ranks right answers above "
        "wrong ones (0.5 is chance, 1 perfect)."
    )


def _choice(a: Abstention) -> str:
    t = a.threshold
    if t is None or t.value is None:
        return "Too few scored questions to choose a threshold."
    ci = ""
    if t.low is not None and t.high is not None:
        ci = f" (95% CI [{t.low:.3f}, {t.high:.3f}])"
    kept = f", keeping {pct(a.chosen.coverage)} of the answers" if a.chosen is not None else ""
    return (
        f"Abstaining below confidence {t.value:.3f}{ci}{kept}, a threshold chosen by "
        f"{a.folds}-fold cross-validation would have scored {pct_ci(a.cv_score)} against the "
        f"raw score of {pct(a.raw_score)}: a gain of {pct_ci(a.cv_gain, True)} points. On the "
        f"questions it was chosen on it scores {pct(a.in_sample_score)} (an optimistic figure)."
    )


def abstention_lines(a: Abstention) -> list[str]:
    """AUROC, the chosen threshold's cross-validated score and gain, and the pipeline's own
    abstention with the raw score of the same answers."""
    lines = [_auroc(a), _choice(a)]
    if a.abstain_below is not None:
        lines.append(
            f"This pipeline abstained below confidence {a.abstain_below:.3f}; the answers it "
            f"would have given score {pct_ci(a.pipeline_raw_score)} without abstaining."
        )
    return lines
