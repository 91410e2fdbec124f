"""Helpers for a project's own test suite: the ``ragmeter gate`` check as an assertion.

::

    from ragmeter.testing import assert_gate

    def test_no_regression():
        assert_gate("runs/candidate", baseline="runs/main", no_worse=["score", "hallucination"])
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ragmeter.gate import GateReport, check_gate, gate_text
from ragmeter.scoring.bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED

__all__ = ["assert_gate"]


def assert_gate(
    run_dir: str | Path,
    *,
    baseline: str | Path | None = None,
    require: Sequence[str] = (),
    no_worse: Sequence[str] = (),
    level: float = 0.95,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> GateReport:
    """Check a run as ``ragmeter gate`` does; raise `AssertionError` (with the table) on failure.

    Returns the report when every check holds. Bad input raises `ragmeter.errors.ConfigError`.
    """
    report = check_gate(
        run_dir,
        baseline=baseline,
        require=require,
        no_worse=no_worse,
        level=level,
        resamples=resamples,
        seed=seed,
    )
    if not report.passed:
        raise AssertionError(gate_text(report))
    return report
