"""The abstention arithmetic: curve, AUROC, threshold choice, cross-validation, paired gain."""

from __future__ import annotations

import numpy as np
import pytest

from ragmeter.diagnosis.abstention import (
    AbstentionPoint,
    auroc,
    best_threshold,
    calibrate,
    curve,
    paired_abstention_gain,
    summarize_abstention,
)
from ragmeter.engine.journal import RunRecord
from ragmeter.types import Answer


def P(i: int, label: str, confidence: float | None) -> AbstentionPoint:
    return AbstentionPoint(
        id=str(i), label=label, confidence=confidence, answered=label != "missing"
    )


def test_curve_counts_abstained_answers_as_missing_over_the_whole_set() -> None:
    points = [
        P(1, "correct", 0.9),
        P(2, "incorrect", 0.2),
        P(3, "incorrect", 0.6),
        P(4, "missing", None),
    ]
    c = curve(points)
    # thresholds: 0, between 0.2/0.6, between 0.6/0.9, above 0.9
    assert [round(p.threshold, 3) for p in c] == [0.0, 0.4, 0.75, 0.9]
    assert [p.score for p in c] == pytest.approx([-0.25, 0.0, 0.25, 0.0])
    assert [p.coverage for p in c] == pytest.approx([1.0, 2 / 3, 1 / 3, 0.0])
    assert [p.hallucination for p in c] == pytest.approx([0.5, 0.25, 0.0, 0.0])
    assert [p.accuracy for p in c] == pytest.approx([0.25, 0.25, 0.25, 0.0])


def test_best_threshold_keeps_the_lowest_among_ties_and_answers_without_confidence() -> None:
    points = [P(1, "correct", 0.9), P(2, "incorrect", 0.2), P(3, "correct", None)]
    # Abstaining below anything in (0.2, 0.9] gives the same best score: take the lowest.
    assert best_threshold(points) == pytest.approx(0.55)
    # An answer with no confidence is never abstained on.
    c = curve(points)
    assert c[-1].coverage == pytest.approx(1 / 3) and c[-1].accuracy == pytest.approx(1 / 3)


def test_auroc_is_the_share_of_right_wrong_pairs_ranked_right_ties_half() -> None:
    points = [
        P(1, "correct", 0.9),
        P(2, "correct", 0.5),
        P(3, "incorrect", 0.5),
        P(4, "incorrect", 0.1),
    ]
    assert auroc(points) == pytest.approx((1 + 1 + 0.5 + 1) / 4)
    assert auroc([P(1, "correct", 0.3)]) is None


def test_calibration_is_cross_validated_and_its_gain_is_paired() -> None:
    rng = np.random.default_rng(3)
    points = []
    for i in range(300):
        right = rng.random() < 0.3
        conf = float(np.clip(rng.normal(0.7 if right else 0.35, 0.15), 0, 1))
        points.append(P(i, "correct" if right else "incorrect", conf))
    choice = calibrate(points, folds=5, seed=1)
    assert 0.35 < choice.threshold < 0.75
    assert choice.raw_score == pytest.approx((0.3 * 2 - 1), abs=0.1)
    # Out of sample is no better than in sample, and abstaining clearly helps here.
    assert (
        choice.cv_score.value is not None and choice.cv_score.value <= choice.in_sample_score + 1e-9
    )
    assert choice.cv_gain.ci_low is not None and choice.cv_gain.ci_low > 0
    assert choice.cv_gain.value == pytest.approx(choice.cv_score.value - choice.raw_score)
    low, high = choice.threshold_ci or (0, 0)
    assert low <= choice.threshold <= high
    # Same seed, same figures.
    assert calibrate(points, folds=5, seed=1) == choice


def test_cross_validation_does_not_reward_a_confidence_that_means_nothing() -> None:
    rng = np.random.default_rng(5)
    points = [
        P(i, "correct" if rng.random() < 0.6 else "incorrect", float(rng.random()))
        for i in range(400)
    ]
    choice = calibrate(points, folds=5, seed=0)
    # In sample, some threshold always looks a little better; out of sample it does not.
    assert choice.in_sample_score >= choice.raw_score
    assert choice.cv_gain.ci_low is not None and choice.cv_gain.ci_low < 0.02


def test_paired_gain_of_a_fixed_threshold() -> None:
    points = [
        P(1, "correct", 0.9),
        P(2, "incorrect", 0.2),
        P(3, "correct", 0.3),
        P(4, "missing", None),
    ]
    gain = paired_abstention_gain(points, 0.5)
    assert gain.raw.value == pytest.approx(0.25)
    assert gain.abstaining.value == pytest.approx(0.25)
    assert gain.abstained == 2 and gain.abstained_correct == 1 and gain.abstained_incorrect == 1
    assert gain.gain.value == pytest.approx(0.0)


def _record(i: int, label: str, text: str, confidence: float | None, **extra: object) -> RunRecord:
    return RunRecord(
        id=str(i),
        index=i,
        prediction=text,
        truncated_prediction=text,
        label=label,  # type: ignore[arg-type]
        answer=Answer(text=text, confidence=confidence, refused=label == "missing"),
        **extra,  # type: ignore[arg-type]
    )


def test_summary_uses_the_raw_label_of_answers_the_pipeline_abstained_on() -> None:
    records = [
        _record(1, "correct", "Paris", 0.9),
        # Abstained below 0.5: scored missing, but its raw answer was wrong.
        _record(2, "missing", "I don't know", 0.2, raw_label="incorrect"),
        _record(3, "missing", "I don't know", None),
        _record(4, "unscored", "x", 0.7),
    ]
    s = summarize_abstention(records, abstain_below=0.5)
    assert s is not None and s.n == 3 and s.with_confidence == 2
    assert s.raw_score is not None and s.raw_score.value == pytest.approx(0.0)
    assert s.curve[0].score == pytest.approx(0.0) and s.curve[-1].score == pytest.approx(0.0)
    assert s.choice is not None and s.choice.in_sample_score == pytest.approx(1 / 3)
    assert summarize_abstention([_record(1, "correct", "Paris", None)]) is None


def test_certain_answers_are_never_abstained_on() -> None:
    points = [P(1, "incorrect", 1.0), P(2, "incorrect", 0.4)]
    assert best_threshold(points) == pytest.approx(0.7)
    assert all(p.threshold <= 1.0 for p in curve(points))
