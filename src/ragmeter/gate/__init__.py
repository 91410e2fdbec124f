"""Gates for CI: thresholds and no-regression checks that noise does not trip."""

from ragmeter.gate.check import CheckResult, GateReport, check_gate
from ragmeter.gate.render import gate_markdown, gate_text

__all__ = ["CheckResult", "GateReport", "check_gate", "gate_markdown", "gate_text"]
