"""What a gate checks: thresholds (``score>=0.10``) and no-regression metrics (``score``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ragmeter.errors import ConfigError

__all__ = ["HIGHER_IS_BETTER", "METRICS", "Op", "Threshold", "parse_metric", "parse_threshold"]

METRICS = ("score", "accuracy", "hallucination", "missing")
"""The CRAG figures a gate can check, each a mean of a per-question value."""

HIGHER_IS_BETTER = {"score": True, "accuracy": True, "hallucination": False, "missing": False}
"""Which way is worse, for ``--no-worse``."""

Op = Literal[">=", ">", "<=", "<"]
_EXPR = re.compile(r"^\s*([a-z_]+)\s*(>=|<=|>|<)\s*([-+]?\d*\.?\d+(?:[eE][-+]?\d+)?)\s*(%?)\s*$")


@dataclass(frozen=True)
class Threshold:
    """``metric op value``: holds unless the whole interval lies on the wrong side."""

    metric: str
    op: Op
    value: float

    @property
    def text(self) -> str:
        """The requirement as written canonically (``score>=0.1``)."""
        return f"{self.metric}{self.op}{self.value:g}"

    def fails(self, ci_low: float, ci_high: float) -> bool:
        """True when the interval [ci_low, ci_high] lies wholly where the requirement fails."""
        if self.op == ">=":
            return ci_high < self.value
        if self.op == ">":
            return ci_high <= self.value
        if self.op == "<=":
            return ci_low > self.value
        return ci_low >= self.value


def parse_metric(name: str) -> str:
    """A metric name, checked against `METRICS`."""
    metric = name.strip().lower()
    if metric not in METRICS:
        raise ConfigError(f"unknown metric '{name}' (known: {', '.join(METRICS)})")
    return metric


def parse_threshold(text: str) -> Threshold:
    """Read ``score>=0.10`` (or ``hallucination<=30%``); a bad one is a `ConfigError`."""
    match = _EXPR.match(text)
    if match is None:
        raise ConfigError(
            f"--require '{text}': expected METRIC OP NUMBER, e.g. 'score>=0.10' or "
            "'hallucination<=30%'"
        )
    metric, op, number, percent = match.groups()
    value = float(number) / (100.0 if percent else 1.0)
    return Threshold(parse_metric(metric), op, value)  # type: ignore[arg-type]
