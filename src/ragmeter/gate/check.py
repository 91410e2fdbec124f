"""A gate: does a run meet its thresholds, and is it no worse than a baseline?

Both checks ask the data to be clearly on the wrong side before failing, so that
noise does not fail pull requests:

- a threshold (``score>=0.10``) fails only when the whole interval of the metric, at
  the gate's level, lies on the wrong side of it;
- a regression (``--no-worse score``) counts only when the paired bootstrap interval
  of the per-question difference, over the questions both runs scored, excludes zero
  on the worse side.

Intervals are expanded percentile bootstrap intervals (see `expanded_level`), so
they keep their level in small samples. Two runs of equal quality then fail each
other's ``--no-worse`` check (in one direction or the other) in about ``1 − level``
of comparisons, and a check in one direction fails in about half that.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from statistics import NormalDist
from typing import Literal

import numpy as np
from pydantic import Field

from ragmeter.errors import ConfigError
from ragmeter.gate.folders import ScoredRun, read_scored_run
from ragmeter.gate.rules import HIGHER_IS_BETTER, parse_metric, parse_threshold
from ragmeter.scoring.bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED, bootstrap_ci
from ragmeter.types import Record

__all__ = ["CheckResult", "GateReport", "check_gate", "compare_runs"]


class CheckResult(Record):
    """One requirement and what the data say about it."""

    kind: Literal["threshold", "no_worse"]
    metric: str
    requirement: str
    """As the user wrote it, canonically: ``score>=0.1`` or ``no worse: score``."""
    value: float
    """The run's mean (threshold), or the mean difference run − baseline (no_worse)."""
    ci_low: float
    ci_high: float
    n: int
    """Questions the check used (scored in the run; for no_worse, in both runs)."""
    passed: bool


class GateReport(Record):
    """Everything a gate decided, for ``--json``, Markdown and ``ragmeter.testing``."""

    passed: bool
    level: float
    resamples: int
    seed: int
    run: str
    run_folder: str
    baseline: str | None = None
    baseline_folder: str | None = None
    n_run: int
    """Scored questions in the run."""
    unscored_run: int = 0
    n_baseline: int | None = None
    n_paired: int | None = None
    """Questions scored in both runs (what ``no_worse`` compares)."""
    only_in_run: int = 0
    only_in_baseline: int = 0
    checks: list[CheckResult] = Field(default_factory=list)

    @property
    def failed(self) -> list[CheckResult]:
        """The checks that failed."""
        return [c for c in self.checks if not c.passed]


def expanded_level(level: float, n: int) -> float:
    """The percentile level that gives ``level`` coverage in a sample of ``n`` (n > 2).

    The percentile bootstrap is too narrow in small samples: it uses the plug-in
    standard deviation (a factor sqrt((n−1)/n) small) and normal rather than t
    quantiles. The expanded percentile interval (Hesterberg) widens the quantiles to
    z' = sqrt(n/(n−1)) · t_{n−1}, with t from its Cornish-Fisher expansion.
    """
    if n <= 2:
        return level
    normal = NormalDist()
    z = normal.inv_cdf(1.0 - (1.0 - level) / 2.0)
    df = n - 1
    t = z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
    widened = math.sqrt(n / df) * t
    return min(2.0 * normal.cdf(widened) - 1.0, 0.9999)


def _interval(values: np.ndarray, level: float, resamples: int, seed: int) -> tuple[float, float]:
    confidence = expanded_level(level, int(values.size))
    low, high = bootstrap_ci(values, confidence=confidence, n_resamples=resamples, seed=seed)
    return low, high


def _threshold_checks(
    run: ScoredRun, require: Sequence[str], level: float, resamples: int, seed: int
) -> list[CheckResult]:
    out = []
    for text in require:
        rule = parse_threshold(text)
        values = run.values(rule.metric)
        low, high = _interval(values, level, resamples, seed)
        out.append(
            CheckResult(
                kind="threshold",
                metric=rule.metric,
                requirement=rule.text,
                value=float(values.mean()),
                ci_low=low,
                ci_high=high,
                n=int(values.size),
                passed=not rule.fails(low, high),
            )
        )
    return out


def compare_runs(
    run: ScoredRun,
    base: ScoredRun,
    metrics: Sequence[str],
    *,
    level: float = 0.95,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> list[CheckResult]:
    """``no_worse`` checks of ``run`` against ``base`` on the questions both scored.

    For each question the metric's value in the run minus its value in the baseline;
    the mean difference gets a bootstrap interval resampling questions (so both runs'
    values of a question stay together). A regression is an interval wholly on the
    worse side of zero.
    """
    ids = [k for k in run.labels if k in base.labels]
    if not ids:
        raise ConfigError(
            f"{run.folder} and {base.folder} share no scored question: nothing to compare"
        )
    out = []
    for name in metrics:
        metric = parse_metric(name)
        diff = run.values(metric, ids) - base.values(metric, ids)
        low, high = _interval(diff, level, resamples, seed)
        worse = high < 0 if HIGHER_IS_BETTER[metric] else low > 0
        out.append(
            CheckResult(
                kind="no_worse",
                metric=metric,
                requirement=f"no worse: {metric}",
                value=float(diff.mean()),
                ci_low=low,
                ci_high=high,
                n=len(ids),
                passed=not worse,
            )
        )
    return out


def check_gate(
    run_dir: str | Path,
    *,
    baseline: str | Path | None = None,
    require: Sequence[str] = (),
    no_worse: Sequence[str] = (),
    level: float = 0.95,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> GateReport:
    """Check a scored folder against thresholds and, with ``baseline``, for regressions.

    Bad input (no requirement, ``no_worse`` without a baseline, an unknown metric, a
    folder that is not a scored CRAG run, nothing to compare) is a `ConfigError`.
    """
    if not require and not no_worse:
        raise ConfigError("nothing to check: give --require and/or --no-worse")
    if no_worse and baseline is None:
        raise ConfigError("--no-worse compares with a baseline: give --baseline RUN_DIR")
    if not 0.0 < level < 1.0:
        raise ConfigError(f"--level {level}: expected a number strictly between 0 and 1")
    if resamples < 100:
        raise ConfigError(f"--resamples {resamples}: use at least 100")
    for text in require:
        parse_threshold(text)  # every requirement is read before any folder
    for name in no_worse:
        parse_metric(name)
    run = read_scored_run(run_dir)
    if not run.labels:
        raise ConfigError(f"{run.folder}: no scored question to check")
    checks = _threshold_checks(run, require, level, resamples, seed)
    report = GateReport(
        passed=True,
        level=level,
        resamples=resamples,
        seed=seed,
        run=run.name,
        run_folder=str(run.folder),
        n_run=len(run.labels),
        unscored_run=run.unscored,
    )
    if baseline is not None:
        base = read_scored_run(baseline)
        checks += compare_runs(run, base, no_worse, level=level, resamples=resamples, seed=seed)
        n_paired = sum(1 for k in run.labels if k in base.labels)
        report = report.model_copy(
            update={
                "baseline": base.name,
                "baseline_folder": str(base.folder),
                "n_baseline": len(base.labels),
                "n_paired": n_paired,
                "only_in_run": sum(1 for k in run.labels if k not in base.labels),
                "only_in_baseline": sum(1 for k in base.labels if k not in run.labels),
            }
        )
    return report.model_copy(update={"checks": checks, "passed": all(c.passed for c in checks)})
