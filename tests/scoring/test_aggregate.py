"""Aggregation: rates over scored samples, slices, intervals, human scale, weighted scores."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragmeter.errors import ConfigError
from ragmeter.scoring.crag.aggregate import (
    TrafficWeights,
    aggregate,
    human_scale,
    load_weights,
    slice_metrics,
    weighted_scores,
)
from ragmeter.scoring.crag.records import Results, ScoredSample, ScoringInfo, TruncationInfo
from ragmeter.types import Labels


def sample(i: int, label: str, domain: str = "movie", qt: str = "simple") -> ScoredSample:
    return ScoredSample(
        id=f"q{i}",
        prediction="p",
        truncated_prediction="p",
        label=label,  # type: ignore[arg-type]
        rule="exact_match" if label == "correct" else None,
        unscored_reason="judge failed" if label == "unscored" else None,
        labels=Labels(domain=domain, question_type=qt, answer_type="valid", split=0),
    )


INFO = ScoringInfo(
    judge="rules",
    truncation=TruncationInfo(tokenizer="t"),
    bootstrap_resamples=500,
    bootstrap_seed=1,
)


def test_metrics_exclude_unscored() -> None:
    s = [sample(0, "correct"), sample(1, "incorrect"), sample(2, "missing"), sample(3, "unscored")]
    m = slice_metrics(s)
    assert (m.n, m.n_scored, m.unscored) == (4, 3, 1)
    assert m.accuracy.value == pytest.approx(1 / 3)
    assert m.hallucination.value == pytest.approx(1 / 3)
    assert m.missing.value == pytest.approx(1 / 3)
    assert m.score.value == pytest.approx(0.0)


def test_aggregate_top_level_and_slices() -> None:
    s = [sample(i, "correct", "movie") for i in range(6)]
    s += [sample(10 + i, "incorrect", "finance", "comparison") for i in range(3)]
    s += [sample(20, "missing", "finance"), sample(21, "unscored", "finance")]
    r = aggregate(s, INFO)
    dumped = r.model_dump()
    for key in ("n", "accuracy", "hallucination", "missing", "score", "unscored", "slices"):
        assert key in dumped
    assert r.n == 11 and r.n_scored == 10 and r.unscored.count == 1
    assert r.unscored.reasons == {"judge failed": 1}
    assert r.score.value == pytest.approx((6 - 3) / 10)
    assert r.score.ci_low is not None and r.score.ci_high is not None
    assert r.score.ci_low <= r.score.value <= r.score.ci_high
    assert set(r.slices) == {"domain", "question_type", "split", "answer_type"}
    assert r.slices["domain"]["movie"].accuracy.value == 1.0
    assert r.slices["domain"]["finance"].n == 5
    assert r.scoring.rules_share == pytest.approx(6 / 11)
    assert any("could not be scored" in w for w in r.warnings)
    # Round trip: what is written can be read back.
    assert Results.model_validate_json(r.model_dump_json()) == r


def test_human_scale() -> None:
    s = [sample(0, "correct"), sample(1, "incorrect"), sample(2, "missing"), sample(3, "correct")]
    h = human_scale(
        s,
        {
            "q0": "perfect",
            "q1": "incorrect",
            "q2": "acceptable",
            "q3": "acceptable",
            "zz": "missing",
        },
    )
    assert h.n == 4 and h.unmatched_ids == 1
    assert h.truthfulness.value == pytest.approx((1 - 1 + 0.5 + 0.5) / 4)
    assert h.agreement == pytest.approx(3 / 4)
    assert h.counts == {"perfect": 1, "acceptable": 2, "missing": 0, "incorrect": 1}


def test_weighted_scores() -> None:
    s = [sample(0, "correct", "movie", "simple"), sample(1, "incorrect", "movie", "comparison")]
    s += [sample(2, "correct", "music", "simple"), sample(3, "missing", "music", "set")]
    plain = weighted_scores(s, None)
    assert plain.question_type is None
    assert plain.domain_mean == pytest.approx((0.0 + 0.5) / 2)
    w = TrafficWeights(name="w", question_type={"simple": 3.0, "comparison": 1.0})
    ws = weighted_scores(s, w)
    assert ws.question_type == pytest.approx((3 + 3 - 1) / 7)
    assert ws.missing_weights == ["music/set"]
    # Within domain weighted first (movie: (3-1)/4, music: 3/3), then equal weight.
    assert ws.domain_mean == pytest.approx((0.5 + 1.0) / 2)
    per_domain = TrafficWeights(
        question_type={"simple": 1.0, "comparison": 1.0, "set": 1.0},
        domain_question_type={"movie": {"comparison": 0.0}},
    )
    assert weighted_scores(s, per_domain).domain_mean == pytest.approx((1.0 + 0.5) / 2)


def test_load_weights(tmp_path: Path) -> None:
    p = tmp_path / "w.yaml"
    p.write_text("question_type:\n  simple: 2\n  set: 1\n", encoding="utf-8")
    w = load_weights(p)
    assert w.question_type == {"simple": 2.0, "set": 1.0} and w.name == str(p)
    p.write_text("question_type:\n  simple: -1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="negative"):
        load_weights(p)
    p.write_text("question_typo:\n  simple: 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="invalid weights"):
        load_weights(p)
    p.write_text("{}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="no weights"):
        load_weights(p)
