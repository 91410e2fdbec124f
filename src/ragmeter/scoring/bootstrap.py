"""Percentile bootstrap confidence intervals of a mean over per-sample values."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ragmeter.types import Record

__all__ = ["DEFAULT_RESAMPLES", "DEFAULT_SEED", "Estimate", "bootstrap_ci", "estimate"]

DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 0
# Resampling is done in blocks so memory stays bounded for large sets.
_BLOCK_CELLS = 4_000_000


class Estimate(Record):
    """A mean with its bootstrap confidence interval (None bounds when there are no samples)."""

    value: float | None
    ci_low: float | None
    ci_high: float | None


def bootstrap_ci(
    values: Sequence[float] | np.ndarray,
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values``.

    The same values, seed and resample count always give the same interval.
    Raises ValueError for an empty sequence, non-finite values or bad settings:
    an interval over nothing is not zero.
    """
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError("values must be one-dimensional")
    if arr.size == 0:
        raise ValueError("cannot bootstrap an empty sequence")
    if not np.all(np.isfinite(arr)):
        raise ValueError("values must be finite")
    if not 0.0 < confidence < 1.0:
        raise ValueError("confidence must be strictly between 0 and 1")
    if n_resamples < 1:
        raise ValueError("n_resamples must be at least 1")
    n = arr.size
    if n == 1 or np.all(arr == arr[0]):
        v = float(arr[0])
        return v, v
    rng = np.random.default_rng(seed)
    means = np.empty(n_resamples, dtype=np.float64)
    block = max(1, _BLOCK_CELLS // n)
    for start in range(0, n_resamples, block):
        stop = min(n_resamples, start + block)
        idx = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = arr[idx].mean(axis=1)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return float(low), float(high)


def estimate(
    values: Sequence[float] | np.ndarray,
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> Estimate:
    """The mean of ``values`` with its interval; all None when ``values`` is empty."""
    arr = np.asarray(values, dtype=np.float64)
    if arr.size == 0:
        return Estimate(value=None, ci_low=None, ci_high=None)
    low, high = bootstrap_ci(arr, confidence=confidence, n_resamples=n_resamples, seed=seed)
    return Estimate(value=float(arr.mean()), ci_low=low, ci_high=high)
