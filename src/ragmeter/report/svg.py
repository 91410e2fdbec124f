"""Plots drawn as inline SVG: slice charts with error bars, difference (forest) plots,
diagnosis category bars and the score-coverage curve of abstaining.

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
from ragmeter.report.summary import (
    Abstention,
    CategoryCell,
    CategoryRow,
    CurvePoint,
    Metric,
    SliceDiff,
    SliceRow,
)

__all__ = [
    "CATEGORY_COLOURS",
    "LABEL_COLOURS",
    "OTHER_CATEGORY_COLOUR",
    "RUN_COLOURS",
    "abstention_plot",
    "category_bars",
    "category_colour",
    "diff_extent",
    "diff_plot",
    "ink_on",
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

# The Okabe-Ito palette, which stays distinct under the common colour-vision deficiencies
# (its green and vermillion darkened so a count printed on them keeps a 4.5:1 contrast),
# and a neutral grey for a rightful "I don't know" (as missing answers are grey elsewhere).
CATEGORY_COLOURS = {
    "correct_grounded": "#007A5A",
    "correct_unsupported": "#56B4E9",
    "generation_error": "#B84F00",
    "retrieval_miss": "#E69F00",
    "should_have_abstained": "#CC79A7",
    "false_premise_accepted": "#0072B2",
    "over_cautious": "#F0E442",
    "right_to_abstain": "#A6A6A6",
}
OTHER_CATEGORY_COLOUR = "#5D6D7E"
"""The colour of a category this version does not know."""

_CURVE_LINES = [
    # (field, name, colour, width, dash): the dash tells the lines apart without colour.
    ("score", "score", "#23395b", 2.6, ""),
    ("accuracy", "accuracy", "#009E73", 1.8, ""),
    ("hallucination", "hallucination", "#D55E00", 1.8, "6 4"),
]

ROW = 18
GROUP_GAP = 10
TOP = 44
BOTTOM = 12
LABEL_W = 170


def run_colour(i: int) -> str:
    """The colour of the i-th run (cycling)."""
    return RUN_COLOURS[i % len(RUN_COLOURS)]


def category_colour(name: str) -> str:
    """The colour of a diagnosis category."""
    return CATEGORY_COLOURS.get(name, OTHER_CATEGORY_COLOUR)


def _luminance(colour: str) -> float:
    """The relative luminance of ``#rrggbb`` (WCAG 2)."""

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


DARK_INK = "#1d2733"
"""The report's text colour."""


def ink_on(colour: str) -> str:
    """Dark or white text, whichever has the higher contrast on ``colour`` (``#rrggbb``)."""
    lum = _luminance(colour)
    on_white = 1.05 / (lum + 0.05)
    on_dark = (lum + 0.05) / (_luminance(DARK_INK) + 0.05)
    return "#ffffff" if on_white > on_dark else DARK_INK


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


BAR_W = 620
BAR_H = 14
BAR_ROW = 24


def _bar_tip(row: CategoryRow, cell: CategoryCell) -> str:
    return (
        f"{row.value} · {cell.category}\n{cell.count} of {row.n} questions ({pct(cell.share)})"
        f"\nscore points {pct(cell.score_points, True)}"
        f" · points short {cell.points_short * 100:.1f}"
    )


def _bar(parts: list[str], axis: _Axis, row: CategoryRow, y: float) -> None:
    if row.n == 0:
        parts.append(f'<text x="{_f(axis.x0 + 4)}" y="{_f(y + 4)}" class="na">no questions</text>')
        return
    x = axis.x0
    for cell in row.cells:
        if cell.count <= 0:
            continue
        w = cell.share * axis.width
        colour = category_colour(cell.category)
        parts.append(
            f"<g><title>{_t(_bar_tip(row, cell))}"
            f'</title><rect x="{_f(x)}" y="{_f(y - BAR_H / 2)}" width="{_f(w)}" '
            f'height="{BAR_H}" fill="{colour}" stroke="#ffffff" stroke-width="1"/>'
        )
        if w >= 18:
            # The count on the segment: the bar reads without hovering or telling colours apart.
            parts.append(
                f'<text x="{_f(x + w / 2)}" y="{_f(y + 4)}" class="sg" text-anchor="middle" '
                f'fill="{ink_on(colour)}">{cell.count}</text>'
            )
        parts.append("</g>")
        x += w


def category_bars(rows: Sequence[CategoryRow], title: str) -> str:
    """One stacked bar per row: the share of its questions in each diagnosis category.

    Segments follow the category order, each in its category's colour, with its count
    on it when it is wide enough and its points in the tooltip.
    """
    if not rows:
        return ""
    width = LABEL_W + 20 + BAR_W + 50
    axis = _Axis(LABEL_W + 10, BAR_W, 0.0, 1.0)
    height = TOP + len(rows) * BAR_ROW + BOTTOM
    parts: list[str] = []
    _axis(parts, axis, title, [0, 0.25, 0.5, 0.75, 1], height - BOTTOM)
    parts.append(f'<text x="{width - 8}" y="{TOP - 12}" class="tk" text-anchor="end">n</text>')
    for i, row in enumerate(rows):
        cy = TOP + i * BAR_ROW + BAR_ROW / 2
        if i % 2 == 0:
            parts.append(
                f'<rect x="0" y="{_f(cy - BAR_ROW / 2)}" width="{width}" height="{BAR_ROW}" '
                'class="band"/>'
            )
        parts.append(
            f'<text x="{LABEL_W}" y="{_f(cy + 4)}" class="lb" text-anchor="end">'
            f"{_t(row.value)}</text>"
        )
        _bar(parts, axis, row, cy)
        parts.append(
            f'<text x="{width - 8}" y="{_f(cy + 4)}" class="tk" text-anchor="end">{row.n}</text>'
        )
    return (
        f'<svg class="plot cats" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="{_t(title)}">' + "".join(parts) + "</svg>"
    )


@dataclass(frozen=True)
class _Frame:
    """The plotting area of the curve: coverage 100% at the left to 0 at the right."""

    x0: float = 64.0
    width: float = 560.0
    y0: float = 46.0
    height: float = 230.0

    def x(self, coverage: float) -> float:
        return self.x0 + (1.0 - min(max(coverage, 0.0), 1.0)) * self.width

    def y(self, value: float) -> float:
        return self.y0 + (1.0 - (min(max(value, -1.0), 1.0) + 1.0) / 2.0) * self.height


def _curve_frame(parts: list[str], fr: _Frame) -> None:
    bottom = fr.y0 + fr.height
    for v in (-1.0, -0.5, 0.0, 0.5, 1.0):
        y = fr.y(v)
        strong = " zero" if v == 0 else ""
        parts.append(
            f'<line x1="{_f(fr.x0)}" x2="{_f(fr.x0 + fr.width)}" y1="{_f(y)}" y2="{_f(y)}" '
            f'class="grid{strong}"/>'
        )
        label = "0" if v == 0 else f"{v * 100:.0f}%"
        parts.append(
            f'<text x="{_f(fr.x0 - 6)}" y="{_f(y + 4)}" class="tk" text-anchor="end">{label}</text>'
        )
    for c in (1.0, 0.75, 0.5, 0.25, 0.0):
        x = fr.x(c)
        parts.append(
            f'<line x1="{_f(x)}" x2="{_f(x)}" y1="{_f(fr.y0)}" y2="{_f(bottom)}" class="grid"/>'
        )
        parts.append(
            f'<text x="{_f(x)}" y="{_f(bottom + 16)}" class="tk" text-anchor="middle">'
            f"{c * 100:.0f}%</text>"
        )
    parts.append(
        f'<text x="{_f(fr.x0 + fr.width / 2)}" y="{_f(bottom + 36)}" class="pt" '
        'text-anchor="middle">share of answers kept (abstaining below a rising threshold)</text>'
    )


def _curve_legend(parts: list[str], fr: _Frame) -> None:
    x = fr.x0
    for _, name, colour, width, dash in _CURVE_LINES:
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<line x1="{_f(x)}" x2="{_f(x + 26)}" y1="16" y2="16" stroke="{colour}" '
            f'stroke-width="{width}"{dashed}/>'
            f'<text x="{_f(x + 32)}" y="20" class="lb">{name}</text>'
        )
        x += 130
    parts.append(
        f'<line x1="{_f(x)}" x2="{_f(x + 26)}" y1="16" y2="16" class="chosen"/>'
        f'<text x="{_f(x + 32)}" y="20" class="lb">chosen threshold</text>'
    )


def _curve_tip(p: CurvePoint) -> str:
    return (
        f"abstain below confidence {p.threshold:.3f}\nkeeps {pct(p.coverage)} of answers"
        f"\nscore {pct(p.score)}\naccuracy {pct(p.accuracy)}"
        f"\nhallucination {pct(p.hallucination)}"
    )


def _curve_hits(parts: list[str], fr: _Frame, points: Sequence[CurvePoint]) -> None:
    """A hover strip per point, from halfway to its left neighbour to halfway to its right."""
    xs = [fr.x(p.coverage) for p in points]
    for i, p in enumerate(points):
        left = fr.x0 if i == 0 else (xs[i - 1] + xs[i]) / 2
        right = fr.x0 + fr.width if i == len(points) - 1 else (xs[i] + xs[i + 1]) / 2
        if right - left < 0.5:
            continue
        parts.append(
            f"<g><title>{_t(_curve_tip(p))}</title>"
            f'<rect x="{_f(left)}" y="{_f(fr.y0)}" width="{_f(right - left)}" '
            f'height="{_f(fr.height)}" class="hit"/></g>'
        )


def _mark(parts: list[str], fr: _Frame, p: CurvePoint, text: str, row: int) -> None:
    x = fr.x(p.coverage)
    anchor = "end" if x > fr.x0 + fr.width * 0.6 else "start"
    dx = -5 if anchor == "end" else 5
    parts.append(
        f'<line x1="{_f(x)}" x2="{_f(x)}" y1="{_f(fr.y0)}" y2="{_f(fr.y0 + fr.height)}" '
        'class="chosen"/>'
        f'<circle cx="{_f(x)}" cy="{_f(fr.y(p.score))}" r="4.5" fill="#23395b"/>'
        f'<text x="{_f(x + dx)}" y="{_f(fr.y0 + 14 + row * 15)}" class="tk" '
        f'text-anchor="{anchor}">{_t(text)}</text>'
    )


def abstention_plot(a: Abstention) -> str:
    """Score, accuracy and hallucination against the share of answers kept, as the
    threshold below which answers become "I don't know" rises; the chosen threshold
    (and the pipeline's own, when it abstained) marked."""
    points = sorted(a.curve, key=lambda p: (-p.coverage, p.threshold))
    if len(points) < 2:
        return ""
    fr = _Frame()
    width = int(fr.x0 + fr.width + 24)
    height = int(fr.y0 + fr.height + 48)
    parts: list[str] = []
    _curve_legend(parts, fr)
    _curve_frame(parts, fr)
    for field, _, colour, stroke, dash in _CURVE_LINES:
        coords = " ".join(f"{_f(fr.x(p.coverage))},{_f(fr.y(getattr(p, field)))}" for p in points)
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline points="{coords}" fill="none" stroke="{colour}" '
            f'stroke-width="{stroke}" stroke-linejoin="round"{dashed}/>'
        )
    if a.chosen is not None and a.threshold is not None and a.threshold.value is not None:
        _mark(parts, fr, a.chosen, f"chosen: below {a.threshold.value:.3f}", 0)
    if a.abstain_below is not None:
        own = min(points, key=lambda p: abs(p.threshold - (a.abstain_below or 0.0)))
        _mark(parts, fr, own, f"this pipeline: below {a.abstain_below:.3f}", 1)
    _curve_hits(parts, fr, points)
    return (
        f'<svg class="plot curve" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-label="score against the share of answers kept">'
        + "".join(parts)
        + "</svg>"
    )
