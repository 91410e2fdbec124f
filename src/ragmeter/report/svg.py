"""Plots drawn as inline SVG: slice charts with error bars and difference (forest) plots.

No plotting library and nothing loaded at view time: each plot is a string of SVG
elements whose every piece of text goes through `html.escape`, so a slice value or
run name from the data can never become markup.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from ragmeter.report.fmt import pct, pct_ci
from ragmeter.report.summary import Metric, SliceDiff, SliceRow

__all__ = [
    "LABEL_COLOURS",
    "RUN_COLOURS",
    "diff_extent",
    "diff_plot",
    "run_colour",
    "slice_plot",
]

LABEL_COLOURS = {
    "correct": "#2e8540",
    "missing": "#aab3bc",
    "incorrect": "#c83232",
    "unscored": "#d9a21b",
}
RUN_COLOURS = ["#1f5fa8", "#d9822b", "#2a9d8f", "#8e44ad", "#b03a48", "#5d6d7e", "#7a9a01"]

ROW = 18
GROUP_GAP = 10
TOP = 44
BOTTOM = 12
LABEL_W = 170


def run_colour(i: int) -> str:
    """The colour of the i-th run (cycling)."""
    return RUN_COLOURS[i % len(RUN_COLOURS)]


def _t(text: object) -> str:
    return escape(str(text), quote=True)


def _f(x: float) -> str:
    return f"{x:.1f}"


@dataclass(frozen=True)
class _Axis:
    x0: float
    width: float
    lo: float
    hi: float

    def x(self, v: float) -> float:
        v = min(max(v, self.lo), self.hi)
        return self.x0 + (v - self.lo) / (self.hi - self.lo) * self.width


def _axis(
    parts: list[str],
    axis: _Axis,
    title: str,
    ticks: Sequence[float],
    y1: float,
    signed: bool = False,
) -> None:
    parts.append(
        f'<text x="{_f(axis.x0 + axis.width / 2)}" y="14" class="pt" '
        f'text-anchor="middle">{_t(title)}</text>'
    )
    for tick in ticks:
        x = axis.x(tick)
        strong = " zero" if tick == 0 else ""
        parts.append(
            f'<line x1="{_f(x)}" x2="{_f(x)}" y1="{TOP - 8}" y2="{_f(y1)}" class="grid{strong}"/>'
        )
        label = f"{tick * 100:+.3g}" if signed else f"{tick * 100:.3g}%"
        if tick == 0:
            label = "0"
        parts.append(
            f'<text x="{_f(x)}" y="{TOP - 12}" class="tk" text-anchor="middle">{_t(label)}</text>'
        )


def _whisker(parts: list[str], axis: _Axis, m: Metric | None, y: float, colour: str) -> None:
    if m is None or m.value is None:
        parts.append(f'<text x="{_f(axis.x0 + 4)}" y="{_f(y + 4)}" class="na">no data</text>')
        return
    if m.low is not None and m.high is not None:
        x1, x2 = axis.x(m.low), axis.x(m.high)
        parts.append(
            f'<line x1="{_f(x1)}" x2="{_f(x2)}" y1="{_f(y)}" y2="{_f(y)}" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
        for x in (x1, x2):
            parts.append(
                f'<line x1="{_f(x)}" x2="{_f(x)}" y1="{_f(y - 4)}" y2="{_f(y + 4)}" '
                f'stroke="{colour}" stroke-width="1.5"/>'
            )
    parts.append(f'<circle cx="{_f(axis.x(m.value))}" cy="{_f(y)}" r="4" fill="{colour}"/>')


def _composition(parts: list[str], axis: _Axis, row: SliceRow, y: float) -> None:
    shares = [
        ("correct", row.accuracy),
        ("missing", row.missing),
        ("incorrect", row.hallucination),
    ]
    if all(m is None or m.value is None for _, m in shares):
        parts.append(f'<text x="{_f(axis.x0 + 4)}" y="{_f(y + 4)}" class="na">not scored</text>')
        return
    x = axis.x0
    for label, m in shares:
        if m is None or m.value is None or m.value <= 0:
            continue
        w = m.value * axis.width
        parts.append(
            f'<rect x="{_f(x)}" y="{_f(y - 6)}" width="{_f(w)}" height="12" '
            f'fill="{LABEL_COLOURS[label]}"/>'
        )
        x += w


def slice_plot(slice_name: str, runs: Sequence[tuple[str, Sequence[SliceRow]]]) -> str:
    """One slice dimension: per value (and run) the label mix, hallucination and score with CIs.

    ``runs`` holds ``(run name, rows)``; with one run, rows are not marked by run.
    """
    values: list[str] = []
    for _, rows in runs:
        for r in rows:
            if r.value not in values:
                values.append(r.value)
    if not values:
        return ""
    by_run = [{r.value: r for r in rows} for _, rows in runs]
    multi = len(runs) > 1
    width = 900
    comp = _Axis(LABEL_W + 10, 200, 0.0, 1.0)
    hall = _Axis(LABEL_W + 250, 180, 0.0, 1.0)
    score = _Axis(LABEL_W + 485, 190, -1.0, 1.0)
    n_x = width - 8
    rows_per_group = len(runs)
    height = TOP + len(values) * (rows_per_group * ROW + GROUP_GAP) + BOTTOM
    parts: list[str] = []
    y_end = height - BOTTOM
    _axis(parts, comp, "correct · missing · hallucinated", [0, 0.5, 1], y_end)
    _axis(parts, hall, "hallucination rate", [0, 0.25, 0.5, 0.75, 1], y_end)
    _axis(parts, score, "score (accuracy − hallucination)", [-1, -0.5, 0, 0.5, 1], y_end)
    parts.append(f'<text x="{n_x}" y="{TOP - 12}" class="tk" text-anchor="end">n</text>')
    y = float(TOP)
    for gi, value in enumerate(values):
        group_h = rows_per_group * ROW
        if gi % 2 == 0:
            parts.append(
                f'<rect x="0" y="{_f(y - 2)}" width="{width}" height="{_f(group_h + 4)}" '
                'class="band"/>'
            )
        parts.append(
            f'<text x="{LABEL_W}" y="{_f(y + group_h / 2 + 4)}" class="lb" '
            f'text-anchor="end">{_t(value)}</text>'
        )
        for ri, (run_name, _) in enumerate(runs):
            row = by_run[ri].get(value)
            cy = y + ri * ROW + ROW / 2
            colour = run_colour(ri) if multi else "#23395b"
            if row is None:
                parts.append(
                    f'<text x="{_f(comp.x0 + 4)}" y="{_f(cy + 4)}" class="na">absent</text>'
                )
                continue
            tip = (
                f"{slice_name} = {value}"
                + (f" · {run_name}" if multi else "")
                + f"\nn = {row.n}\nscore {pct_ci(row.score)}"
                + f"\naccuracy {pct_ci(row.accuracy)}\nhallucination {pct_ci(row.hallucination)}"
                + f"\nmissing {pct_ci(row.missing)}"
            )
            parts.append(f"<g><title>{_t(tip)}</title>")
            parts.append(
                f'<rect x="{LABEL_W + 4}" y="{_f(cy - ROW / 2)}" width="{width - LABEL_W - 4}" '
                f'height="{ROW}" class="hit"/>'
            )
            if multi:
                parts.append(
                    f'<rect x="{LABEL_W + 2}" y="{_f(cy - 5)}" width="4" height="10" '
                    f'fill="{colour}"/>'
                )
            _composition(parts, comp, row, cy)
            _whisker(parts, hall, row.hallucination, cy, colour)
            _whisker(parts, score, row.score, cy, colour)
            parts.append(
                f'<text x="{n_x}" y="{_f(cy + 4)}" class="tk" text-anchor="end">{row.n}</text>'
            )
            parts.append("</g>")
        y += group_h + GROUP_GAP
    return (
        f'<svg class="plot" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{_t(slice_name)} slices">' + "".join(parts) + "</svg>"
    )


def diff_extent(diffs: Sequence[SliceDiff]) -> float:
    """The half-width of an axis that holds every difference and interval of ``diffs``."""
    extent = 0.2
    for d in diffs:
        for m in d.diffs:
            if m is None:
                continue
            for v in (m.value, m.low, m.high):
                if v is not None:
                    extent = max(extent, abs(v))
    # Round up to a tenth so ticks fall on readable values.
    return min(2.0, math.ceil(extent * 10) / 10)


def diff_plot(
    diffs: Sequence[SliceDiff], others: Sequence[str], extent: float | None = None
) -> str:
    """A forest plot: per slice value, each run's score difference from the baseline.

    ``extent`` fixes the axis to ±extent (share one across plots to compare them).
    """
    if not diffs or not others:
        return ""
    extent = extent if extent is not None else diff_extent(diffs)
    width = 720
    axis = _Axis(LABEL_W + 110, 360, -extent, extent)
    rows = len(others)
    height = TOP + len(diffs) * (rows * ROW + 6) + BOTTOM
    parts: list[str] = []
    ticks = [-extent, -extent / 2, 0.0, extent / 2, extent]
    _axis(parts, axis, "Δ score vs baseline, points (paired 95% CI)", ticks, height - 8, True)
    y = float(TOP)
    for gi, d in enumerate(diffs):
        group_h = rows * ROW
        if gi % 2 == 0:
            parts.append(
                f'<rect x="0" y="{_f(y - 2)}" width="{width}" height="{_f(group_h + 2)}" '
                'class="band"/>'
            )
        parts.append(
            f'<text x="{LABEL_W + 100}" y="{_f(y + group_h / 2 + 4)}" class="lb" '
            f'text-anchor="end">{_t(d.value)}</text>'
        )
        for ri, name in enumerate(others):
            cy = y + ri * ROW + ROW / 2
            m = d.diffs[ri] if ri < len(d.diffs) else None
            tip = (
                f"{d.slice} = {d.value} · {name}\nΔ score {pct_ci(m, True)}\npairs {d.n_pairs[ri]}"
            )
            parts.append(f"<g><title>{_t(tip)}</title>")
            parts.append(
                f'<rect x="{LABEL_W + 104}" y="{_f(cy - ROW / 2)}" '
                f'width="{width - LABEL_W - 104}" height="{ROW}" class="hit"/>'
            )
            _whisker(parts, axis, m, cy, run_colour(ri + 1))
            parts.append(
                f'<text x="{width - 6}" y="{_f(cy + 4)}" class="tk" '
                f'text-anchor="end">{_t(pct(m.value if m else None, True))}</text>'
            )
            parts.append("</g>")
        y += group_h + 6
    return (
        f'<svg class="plot" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        'role="img" aria-label="score differences by slice">' + "".join(parts) + "</svg>"
    )
