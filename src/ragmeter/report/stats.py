"""Small statistics for reports: percentiles and paired bootstrap differences.

The scoring layer computes each run's own intervals; what only a report needs is
the interval of a *difference* between two runs on the same questions, which is
paired (each question is resampled with both of its scores), so it is narrower
and more honest than comparing two separate intervals.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["paired_difference", "percentile"]

RESAMPLES = 1000
SEED = 0


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0–100) of ``values``, or None when there are none."""
    if not values:
        return None
    return float(np.percentile(np.asarray(values, dtype=np.float64), q))


def paired_difference(
    base: Sequence[float],
    other: Sequence[float],
    *,
    confidence: float = 0.95,
    n_resamples: int = RESAMPLES,
    seed: int = SEED,
) -> tuple[float, float, float] | None:
    """Mean of ``other − base`` over paired values, with a percentile bootstrap interval.

    Returns None for no pairs. The same inputs and seed always give the same interval.
    """
    if len(base) != len(other):
        raise ValueError("paired values must have the same length")
    if not base:
        return None
    diff = np.asarray(other, dtype=np.float64) - np.asarray(base, dtype=np.float64)
    mean = float(diff.mean())
    n = diff.size
    if n == 1 or np.all(diff == diff[0]):
        return mean, mean, mean
    rng = np.random.default_rng(seed)
    # Blocks keep memory bounded for large sets (at most ~4M indexes at once).
    block = max(1, 4_000_000 // n)
    means = np.empty(n_resamples, dtype=np.float64)
    for start in range(0, n_resamples, block):
        stop = min(n_resamples, start + block)
        idx = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = diff[idx].mean(axis=1)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return mean, float(low), float(high)
