"""A gate's verdict as text for the terminal and as a pull-request comment in Markdown."""

from __future__ import annotations

from ragmeter.gate.check import CheckResult, GateReport

__all__ = ["gate_markdown", "gate_text"]


def _signed(value: float, signed: bool) -> str:
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def _interval(c: CheckResult) -> str:
    signed = c.kind == "no_worse"
    return f"[{_signed(c.ci_low, signed)}, {_signed(c.ci_high, signed)}]"


def _what(c: CheckResult) -> str:
    if c.kind == "threshold":
        return c.requirement
    return f"no worse: {c.metric} (run − baseline)"


def _failed(report: GateReport) -> str:
    return f"{len(report.failed)} of {len(report.checks)}"


def _setting(report: GateReport) -> str:
    pct = f"{100 * report.level:g}%"
    text = f"{pct} bootstrap intervals ({report.resamples} resamples, seed {report.seed})"
    if report.baseline is not None:
        text += f"; paired on {report.n_paired} questions scored in both runs"
    return text


def gate_text(report: GateReport) -> str:
    """Lines for the terminal: the verdict, the setting, then one line per check."""
    verdict = (
        "passed" if report.passed else f"FAILED ({len(report.failed)} of {len(report.checks)})"
    )
    against = f" against {report.baseline}" if report.baseline else ""
    lines = [f"gate {verdict}: {report.run}{against}", f"  {_setting(report)}"]
    for c in report.checks:
        mark = "ok  " if c.passed else "FAIL"
        signed = c.kind == "no_worse"
        lines.append(f"  {mark} {_what(c):<44} {_signed(c.value, signed)}  {_interval(c)}  n={c.n}")
    if report.only_in_run or report.only_in_baseline:
        lines.append(
            f"  note: {report.only_in_run} question(s) only in the run and "
            f"{report.only_in_baseline} only in the baseline are left out of the comparison"
        )
    return "\n".join(lines)


def gate_markdown(report: GateReport) -> str:
    """A pull-request comment: verdict, table of checks, and how to read it."""
    pct = f"{100 * report.level:g}%"
    head = (
        "✅ passed"
        if report.passed
        else f"❌ failed ({len(report.failed)} of {len(report.checks)})"
    )
    against = f" against baseline `{report.baseline}`" if report.baseline else ""
    lines = [
        f"### ragmeter gate: {head}",
        "",
        f"Run `{report.run}` ({report.n_run} scored questions){against}; {_setting(report)}.",
        "",
        f"| check | value | {pct} interval | n | result |",
        "|---|---:|---:|---:|:---:|",
    ]
    for c in report.checks:
        signed = c.kind == "no_worse"
        mark = "✅" if c.passed else "❌"
        lines.append(
            f"| {_what(c)} | {_signed(c.value, signed)} | {_interval(c)} | {c.n} | {mark} |"
        )
    lines += [
        "",
        f"A threshold fails only when the whole {pct} interval lies on the wrong side of it; "
        "a regression counts only when the paired interval of the per-question difference "
        "excludes zero on the worse side. Two runs of equal quality fail a `no worse` check "
        f"in about {100 * (1 - report.level) / 2:g}% of comparisons.",
    ]
    if report.only_in_run or report.only_in_baseline:
        lines.append(
            f"{report.only_in_run} question(s) only in the run and {report.only_in_baseline} "
            "only in the baseline are left out of the comparison."
        )
    return "\n".join(lines) + "\n"
