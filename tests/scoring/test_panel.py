"""The judges' own uncertainty: panel agreement, Fleiss' kappa, measured agreement."""

from __future__ import annotations

from collections import Counter

import pytest

from ragmeter.scoring.crag import panel
from ragmeter.scoring.crag.records import JudgeVote, MeasuredAgreement, ScoredSample


def _sample(*verdicts: str | None) -> ScoredSample:
    votes = [JudgeVote(judge=f"j{i}", verdict=v) for i, v in enumerate(verdicts)]  # type: ignore[arg-type]
    return ScoredSample(
        id="q", prediction="p", truncated_prediction="p", label="correct", votes=votes
    )


def test_fleiss_kappa_known_values() -> None:
    perfect = [Counter({"correct": 2}), Counter({"incorrect": 2})]
    assert panel.fleiss_kappa(perfect) == pytest.approx(1.0)
    split = [Counter({"correct": 1, "incorrect": 1})] * 2
    assert panel.fleiss_kappa(split) == pytest.approx(-1.0)
    assert panel.fleiss_kappa([Counter({"correct": 2})] * 3) is None  # one category: undefined


def test_panel_agreement_rate_kappa_and_split_share() -> None:
    samples = [
        _sample("correct", "correct"),
        _sample("incorrect", "incorrect"),
        _sample("correct", "incorrect"),
        _sample("correct", None),  # one verdict only: not a panel decision
    ]
    got = panel.panel_agreement(samples)
    assert got is not None and got.n == 3
    assert got.rate == pytest.approx(2 / 3) and got.split_share == pytest.approx(1 / 3)
    assert got.kappa is not None and 0 < got.kappa < 1
    assert panel.panel_agreement([_sample("correct")]) is None


def test_measured_agreement_only_for_the_measured_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    figure = MeasuredAgreement(
        suite="real", split="test", n=400, accuracy=0.95, kappa=0.9, command="x"
    )
    monkeypatch.setattr(panel, "_measured", lambda: {"model#prompt=abc": figure})
    assert panel.measured_agreement(["model#prompt=abc"]) == figure
    assert panel.measured_agreement(["model#prompt=other"]) is None
    assert panel.measured_agreement(["model#prompt=abc", "b"]) is None
