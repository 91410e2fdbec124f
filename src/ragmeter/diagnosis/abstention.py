"""What abstaining would have earned: the score-coverage curve and a calibrated threshold.

CRAG scores a right answer +1, a missing one 0 and a wrong one -1, so a system
that says "I don't know" when it is unsure can score higher than one that
always answers. Given each scored answer's confidence, abstaining below a
threshold ``t`` turns the answers with confidence < ``t`` into missing ones;
the figures keep the whole set as denominator, as the CRAG score does.

The threshold that maximises the score on the data it is chosen on is an
optimistic estimate of what it earns; the figure reported is cross-validated:
the threshold is chosen on k-1 folds and applied to the k-th, so each question
is scored under a threshold chosen without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ragmeter.scoring.bootstrap import Estimate, bootstrap_ci, estimate
from ragmeter.types import Label, Record

__all__ = [
    "AbstentionGain",
    "AbstentionPoint",
    "AbstentionSummary",
    "CurvePoint",
    "ThresholdChoice",
    "abstention_points",
    "auroc",
    "best_threshold",
    "calibrate",
    "curve",
    "paired_abstention_gain",
    "summarize_abstention",
]

_SCORE = {"correct": 1.0, "incorrect": -1.0, "missing": 0.0}


class AbstentionPoint(Record):
    """One scored question: its label and the confidence of its answer (None: none given)."""

    id: str
    label: Label
    confidence: float | None = None
    answered: bool = True
    """False when the question is already missing (a refusal, no prediction)."""


class CurvePoint(Record):
    """The figures when abstaining on every answer with confidence below ``threshold``."""

    threshold: float
    coverage: float
    """Share of the answered questions still answered."""
    score: float
    accuracy: float
    hallucination: float


class ThresholdChoice(Record):
    """A threshold chosen on a data set, with its out-of-sample estimate."""

    threshold: float
    """Abstain when confidence < threshold (chosen on all the given questions)."""
    threshold_ci: tuple[float, float] | None = None
    """Bootstrap interval of the chosen threshold (how firmly the data pin it down)."""
    in_sample_score: float
    """The score at ``threshold`` on the questions it was chosen on (optimistic)."""
    cv_score: Estimate
    """Cross-validated score of choosing a threshold this way, with its interval."""
    cv_gain: Estimate
    """Cross-validated score minus the raw score (paired per question), with its interval."""
    raw_score: float
    folds: int
    n: int


class AbstentionGain(Record):
    """A fixed threshold applied to questions it was not chosen on."""

    threshold: float
    n: int
    raw: Estimate
    abstaining: Estimate
    gain: Estimate
    """Abstaining minus raw, paired per question."""
    abstained: int
    """Answers turned into "I don't know"."""
    abstained_correct: int
    abstained_incorrect: int


class AbstentionSummary(Record):
    """The ``abstention`` block of ``results.json``."""

    n: int
    """Scored questions."""
    with_confidence: int
    """Answered questions whose answer carries a confidence."""
    auroc: float | None
    """How well confidence ranks right answers above wrong ones (0.5: no better than chance)."""
    curve: list[CurvePoint]
    choice: ThresholdChoice | None = None
    abstain_below: float | None = None
    """The threshold the pipeline itself abstained below, when it did."""
    raw_score: Estimate | None = None
    """With ``abstain_below``: the score of the answers the pipeline would have given."""


def abstention_points(records: Sequence[Any], signal: str | None = None) -> list[AbstentionPoint]:
    """Points of scored run records (``RunRecord``-like: ``label``, ``answer``).

    ``signal`` picks one of ``answer.extras["confidence_signals"]`` instead of
    ``answer.confidence``. A pipeline that abstained below a threshold left its raw answer
    on the record: such answers count as answered, with their confidence and the label
    the raw answer got (``raw_label``; without one, the record's own label: missing).
    """
    out = []
    for r in records:
        if r.label == "unscored":
            continue
        answer = getattr(r, "answer", None)
        confidence = None
        if answer is not None:
            confidence = answer.confidence
            if signal is not None:
                value = (answer.extras.get("confidence_signals") or {}).get(signal)
                confidence = float(value) if isinstance(value, int | float) else None
        label = r.label
        raw_label = getattr(r, "raw_label", None)
        if raw_label in _SCORE:
            label = raw_label
        answered = label != "missing"
        out.append(AbstentionPoint(id=r.id, label=label, confidence=confidence, answered=answered))
    return out


def _arrays(points: Sequence[AbstentionPoint]) -> tuple[np.ndarray, np.ndarray]:
    """Per point: its score and its confidence (+inf: never abstained on)."""
    scores = np.array([_SCORE[p.label] for p in points], dtype=np.float64)
    conf = np.array(
        [p.confidence if (p.answered and p.confidence is not None) else np.inf for p in points],
        dtype=np.float64,
    )
    return scores, conf


def candidate_thresholds(confidences: np.ndarray) -> np.ndarray:
    """0 (abstain on nothing), midpoints between distinct confidences, and just above the
    highest when that is below 1 (a threshold is at most 1: a certain answer is kept)."""
    finite = np.unique(confidences[np.isfinite(confidences)])
    if finite.size == 0:
        return np.array([0.0])
    mids = (finite[:-1] + finite[1:]) / 2.0
    top = [np.nextafter(finite[-1], np.inf)] if finite[-1] < 1.0 else []
    return np.concatenate([[0.0], mids, top])


def _scores_at(scores: np.ndarray, conf: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """Mean score at each threshold (abstained answers score 0).

    Sorted confidences and running sums give every threshold's score at once: the
    score kept at ``t`` is the total less the scores of the answers below ``t``. The
    calibration's bootstrap calls this hundreds of times, so it must not cost n x n.
    """
    order = np.argsort(conf, kind="stable")
    below = np.concatenate([[0.0], np.cumsum(scores[order])])
    dropped = np.searchsorted(conf[order], thresholds, side="left")
    return np.asarray((scores.sum() - below[dropped]) / max(scores.size, 1))


def curve(points: Sequence[AbstentionPoint], max_points: int = 101) -> list[CurvePoint]:
    """The score-coverage curve, from abstaining on nothing to abstaining on every answer."""
    scores, conf = _arrays(points)
    n = scores.size
    if n == 0:
        return []
    thresholds = candidate_thresholds(conf)
    if thresholds.size > max_points:
        pick = np.unique(np.linspace(0, thresholds.size - 1, max_points).round().astype(int))
        thresholds = thresholds[pick]
    answered = np.array([p.answered for p in points])
    n_answered = max(int(answered.sum()), 1)
    out = []
    for t in thresholds:
        kept = (conf >= t) & answered
        out.append(
            CurvePoint(
                threshold=float(t),
                coverage=float(kept.sum() / n_answered),
                score=float((scores * kept).sum() / n),
                accuracy=float((kept & (scores > 0)).sum() / n),
                hallucination=float((kept & (scores < 0)).sum() / n),
            )
        )
    return out


def best_threshold(points: Sequence[AbstentionPoint]) -> float:
    """The threshold with the highest score on ``points`` (the lowest one among ties)."""
    scores, conf = _arrays(points)
    return float(_best(scores, conf))


def _best(scores: np.ndarray, conf: np.ndarray) -> float:
    thresholds = candidate_thresholds(conf)
    values = _scores_at(scores, conf, thresholds)
    # Ties go to the lowest threshold: abstain no more than the data justify.
    return float(thresholds[int(np.argmax(values))])


def auroc(points: Sequence[AbstentionPoint]) -> float | None:
    """P(a right answer's confidence > a wrong one's), ties counting half; None without both."""
    right = np.array(
        [p.confidence for p in points if p.label == "correct" and p.confidence is not None]
    )
    wrong = np.array(
        [p.confidence for p in points if p.label == "incorrect" and p.confidence is not None]
    )
    if right.size == 0 or wrong.size == 0:
        return None
    greater = (right[:, None] > wrong[None, :]).sum()
    ties = (right[:, None] == wrong[None, :]).sum()
    return float((greater + 0.5 * ties) / (right.size * wrong.size))


def _fold_ids(n: int, folds: int, seed: int) -> np.ndarray:
    order = np.random.default_rng(seed).permutation(n)
    fold = np.empty(n, dtype=np.int64)
    fold[order] = np.arange(n) % folds
    return fold


def calibrate(
    points: Sequence[AbstentionPoint],
    *,
    folds: int = 5,
    seed: int = 0,
    n_resamples: int = 1000,
) -> ThresholdChoice:
    """Choose the abstention threshold and estimate what it earns out of sample.

    The threshold is the best on all ``points``; its score is estimated by k-fold
    cross-validation (the threshold chosen on the other folds applied to each fold),
    with a bootstrap interval over questions; the threshold's own interval comes
    from choosing it again on bootstrap resamples.
    """
    scores, conf = _arrays(points)
    n = scores.size
    if n < 2:
        raise ValueError("calibrating a threshold needs at least two scored questions")
    folds = max(2, min(folds, n))
    fold = _fold_ids(n, folds, seed)
    out_of_fold = np.empty(n, dtype=np.float64)
    for k in range(folds):
        train, test = fold != k, fold == k
        t = _best(scores[train], conf[train])
        out_of_fold[test] = np.where(conf[test] >= t, scores[test], 0.0)
    threshold = _best(scores, conf)
    rng = np.random.default_rng(seed)
    resampled = []
    for _ in range(min(n_resamples, 400)):
        idx = rng.integers(0, n, size=n)
        resampled.append(_best(scores[idx], conf[idx]))
    low, high = np.quantile(resampled, [0.025, 0.975])
    return ThresholdChoice(
        threshold=threshold,
        threshold_ci=(float(low), float(high)),
        in_sample_score=float(np.where(conf >= threshold, scores, 0.0).mean()),
        cv_score=estimate(out_of_fold, n_resamples=n_resamples, seed=seed),
        cv_gain=estimate(out_of_fold - scores, n_resamples=n_resamples, seed=seed),
        raw_score=float(scores.mean()),
        folds=folds,
        n=n,
    )


def paired_abstention_gain(
    points: Sequence[AbstentionPoint], threshold: float, *, seed: int = 0, n_resamples: int = 1000
) -> AbstentionGain:
    """Raw score, score when abstaining below ``threshold``, and their paired difference."""
    scores, conf = _arrays(points)
    if scores.size == 0:
        raise ValueError("no scored questions")
    abstaining = np.where(conf >= threshold, scores, 0.0)
    dropped = conf < threshold
    gain = abstaining - scores
    low, high = bootstrap_ci(gain, n_resamples=n_resamples, seed=seed)
    return AbstentionGain(
        threshold=threshold,
        n=int(scores.size),
        raw=estimate(scores, n_resamples=n_resamples, seed=seed),
        abstaining=estimate(abstaining, n_resamples=n_resamples, seed=seed),
        gain=Estimate(value=float(gain.mean()), ci_low=low, ci_high=high),
        abstained=int(dropped.sum()),
        abstained_correct=int((dropped & (scores > 0)).sum()),
        abstained_incorrect=int((dropped & (scores < 0)).sum()),
    )


def summarize_abstention(
    records: Sequence[Any], *, abstain_below: float | None = None, seed: int = 0
) -> AbstentionSummary | None:
    """The ``abstention`` block of a run's records; None when no answer carries a confidence."""
    points = abstention_points(records)
    with_confidence = sum(1 for p in points if p.answered and p.confidence is not None)
    if with_confidence == 0:
        return None
    choice = calibrate(points, seed=seed) if len(points) >= 2 else None
    raw = None
    if abstain_below is not None:
        scores, _ = _arrays(points)
        raw = estimate(scores, seed=seed)
    return AbstentionSummary(
        n=len(points),
        with_confidence=with_confidence,
        auroc=auroc(points),
        curve=curve(points),
        choice=choice,
        abstain_below=abstain_below,
        raw_score=raw,
    )
