"""Number formatting shared by the HTML, Markdown and SVG renderers.

Rates and scores are shown as percentages with one decimal, as the CRAG paper
reports them; differences between runs are in percentage points.
"""

from __future__ import annotations

from ragmeter.report.summary import Metric

__all__ = ["ci_text", "dash", "num", "pct", "pct_ci", "seconds", "tokens"]

dash = "—"


def pct(v: float | None, signed: bool = False) -> str:
    """A rate as a percentage (``43.2%``); signed differences as points (``+3.1``)."""
    if v is None:
        return dash
    return f"{v * 100:+.1f}" if signed else f"{v * 100:.1f}%"


def ci_text(m: Metric | None, signed: bool = False) -> str:
    """The interval of a metric as ``[40.1, 46.0]``, or a dash."""
    if m is None or m.low is None or m.high is None:
        return dash
    if signed:
        return f"[{m.low * 100:+.1f}, {m.high * 100:+.1f}]"
    return f"[{m.low * 100:.1f}, {m.high * 100:.1f}]"


def pct_ci(m: Metric | None, signed: bool = False) -> str:
    """A metric with its interval: ``43.2% [40.1, 46.0]``."""
    if m is None or m.value is None:
        return dash
    ci = ci_text(m, signed)
    return pct(m.value, signed) + ("" if ci == dash else " " + ci)


def seconds(v: float | None) -> str:
    """Seconds with sensible precision."""
    if v is None:
        return dash
    if v >= 100:
        return f"{v:,.0f} s"
    if v >= 1:
        return f"{v:.2f} s"
    return f"{v * 1000:.0f} ms"


def tokens(v: float | None) -> str:
    """A token count with thousands separators."""
    if v is None:
        return dash
    return f"{v:,.0f}"


def num(v: float | None) -> str:
    """A metric of unknown scale: whole numbers with separators, others with 3 decimals."""
    if v is None:
        return dash
    if float(v).is_integer() and abs(v) >= 1:
        return f"{int(v):,}"
    return f"{v:.3f}" if abs(v) < 1000 else f"{v:,.1f}"


def money(v: float | None, currency: str | None) -> str:
    """A cost in its currency (``$0.0123``), or a dash when the stage has no price."""
    if v is None:
        return "—"
    unit = "$" if currency == "USD" else f"{currency} " if currency else ""
    return f"{unit}{v:,.4f}"
