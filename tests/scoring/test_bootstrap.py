"""Bootstrap intervals: deterministic, covering the mean, honest about empty input."""

from __future__ import annotations

import numpy as np
import pytest

from ragmeter.scoring.bootstrap import bootstrap_ci, estimate


def test_deterministic_and_contains_mean() -> None:
    values = np.random.default_rng(1).choice([-1.0, 0.0, 1.0], size=500)
    a = bootstrap_ci(values, seed=7)
    b = bootstrap_ci(values, seed=7)
    assert a == b
    assert a[0] < values.mean() < a[1]
    assert bootstrap_ci(values, seed=8) != a


def test_width_shrinks_with_n() -> None:
    rng = np.random.default_rng(2)
    small = bootstrap_ci(rng.integers(0, 2, 50).astype(float))
    large = bootstrap_ci(rng.integers(0, 2, 5000).astype(float))
    assert (large[1] - large[0]) < (small[1] - small[0])


def test_constant_and_single() -> None:
    assert bootstrap_ci([1.0, 1.0, 1.0]) == (1.0, 1.0)
    assert bootstrap_ci([0.5]) == (0.5, 0.5)


def test_errors() -> None:
    with pytest.raises(ValueError, match="empty"):
        bootstrap_ci([])
    with pytest.raises(ValueError, match="finite"):
        bootstrap_ci([1.0, float("nan")])
    with pytest.raises(ValueError, match="confidence"):
        bootstrap_ci([1.0, 0.0], confidence=1.0)


def test_estimate_empty_is_none() -> None:
    e = estimate([])
    assert e.value is None and e.ci_low is None and e.ci_high is None
    e = estimate([1.0, 0.0, 1.0, 1.0])
    assert e.value == pytest.approx(0.75)
    assert e.ci_low is not None and e.ci_high is not None and e.ci_low <= 0.75 <= e.ci_high
