"""The Markdown report, sized for a pull-request comment.

Headline (or leaderboard) first, the details folded into ``<details>`` blocks.
Text from the data is escaped so it cannot break a table, start a link or
inject HTML into the rendered comment.
"""

from __future__ import annotations

import re

from ragmeter.report.fmt import ci_text, money, num, pct, pct_ci, seconds, tokens
from ragmeter.report.summary import (
    Abstention,
    Comparison,
    Diagnosis,
    Report,
    RunSummary,
    curve_sample,
    slice_title,
)
from ragmeter.report.words import POINTS_MEANING, abstention_lines, points, signals_line

__all__ = ["MAX_FLIPS", "md_escape", "render_markdown"]

MAX_FLIPS = 20
MAX_CELL = 160
_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def md_escape(text: object, limit: int = MAX_CELL) -> str:
    """Text safe inside a Markdown table cell: one line, no markup, no HTML, at most ``limit``."""
    s = " ".join(str(text).split())
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    s = s.replace("&", "&amp;").replace("<", "&lt;")
    return _SPECIAL.sub(r"\\\1", s)


def _table(header: list[str], rows: list[list[str]], right: set[int] | None = None) -> list[str]:
    right = right or set()
    align = ["---:" if i in right else "---" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def _headline(s: RunSummary) -> list[str]:
    h = s.headline
    counts = ", ".join(
        f"{k} {h.counts[k]:,}"
        for k in ("correct", "incorrect", "missing", "unscored")
        if h.counts.get(k)
    )
    if all(m is None or m.value is None for m in (h.score, h.accuracy)):
        # A run scored without CRAG metrics (Trust-Score): its block below is the headline.
        return [f"{h.n:,} questions: {counts}."]
    level = f"{h.confidence * 100:g}% CI"
    rows = [
        ["**Score**", f"**{pct(h.score.value if h.score else None)}**", ci_text(h.score)],
        ["Accuracy", pct(h.accuracy.value if h.accuracy else None), ci_text(h.accuracy)],
        [
            "Hallucination",
            pct(h.hallucination.value if h.hallucination else None),
            ci_text(h.hallucination),
        ],
        ["Missing", pct(h.missing.value if h.missing else None), ci_text(h.missing)],
    ]
    lines = _table(["metric", "value", level], rows, {1, 2})
    lines += ["", f"{h.n:,} questions: {counts}."]
    return lines


def _facts(s: RunSummary) -> str:
    f = s.facts
    parts = []
    if f.pipeline:
        parts.append(f"pipeline `{md_escape(f.pipeline, 80)}`")
    if f.answer_model:
        parts.append(f"model {md_escape(f.answer_model, 120)}")
    if f.judge:
        parts.append(f"judge {md_escape(f.judge, 80)}")
    if f.data_path:
        parts.append(f"data {md_escape(f.data_path, 120)}")
    if f.created:
        parts.append(f"date {md_escape(f.created, 40)}")
    if f.spec_hash:
        parts.append(f"spec {md_escape(f.spec_hash[:12], 12)}")
    return " · ".join(parts)


def _blocks(s: RunSummary) -> list[str]:
    lines: list[str] = []
    for b in s.blocks:
        rows = []
        for m in b.metrics:
            value = num(m.value)
            ci = (
                f"[{num(m.low)}, {num(m.high)}]" if m.low is not None and m.high is not None else ""
            )
            rows.append([md_escape(m.name, 80), value, ci])
        lines += [
            "",
            f"**{md_escape(b.title, 60)}**",
            "",
            *_table(["metric", "value", "CI"], rows, {1, 2}),
        ]
    return lines


def _slices(report: Report) -> list[str]:
    lines: list[str] = []
    names: list[str] = []
    for s in report.runs:
        names += [n for n in s.slices if n not in names]
    if not names:
        return lines
    multi = len(report.runs) > 1
    lines += ["", "<details><summary>By slice</summary>", ""]
    for name in names:
        header = (["run"] if multi else []) + [
            slice_title(name),
            "n",
            "score",
            "accuracy",
            "hallucination",
            "missing",
        ]
        rows = []
        for s in report.runs:
            for r in s.slices.get(name, []):
                rows.append(
                    ([md_escape(s.facts.name, 60)] if multi else [])
                    + [
                        md_escape(r.value, 60),
                        f"{r.n:,}",
                        pct_ci(r.score),
                        pct_ci(r.accuracy),
                        pct_ci(r.hallucination),
                        pct_ci(r.missing),
                    ]
                )
        offset = 1 if multi else 0
        lines += [
            *_table(header, rows, {offset + 1, offset + 2, offset + 3, offset + 4, offset + 5}),
            "",
        ]
    lines += ["</details>"]
    return lines


def _titled(title: str, s: RunSummary, multi: bool) -> str:
    return f"**{title}" + (f", {md_escape(s.facts.name, 60)}" if multi else "") + "**"


def _category_overall(d: Diagnosis) -> list[str]:
    info = {c.name: c.description for c in d.categories}
    rows = [
        [
            f"`{md_escape(c.category, 60)}`",
            md_escape(info.get(c.category, ""), 120),
            f"{c.count:,}",
            pct(c.share),
            points(c.score_points),
            f"{c.points_short * 100:.1f}",
        ]
        for c in d.overall.cells
    ]
    rows.append(
        [
            "all",
            "",
            f"{d.overall.n:,}",
            "100%",
            points(sum(c.score_points for c in d.overall.cells)),
            f"{sum(c.points_short for c in d.overall.cells) * 100:.1f}",
        ]
    )
    header = ["category", "what it means", "questions", "share", "score points", "points short"]
    return _table(header, rows, {2, 3, 4, 5})


def _category_slices(d: Diagnosis) -> list[str]:
    # Categories no question fell in are empty in every slice: leave their columns out.
    shown = [c.category for c in d.overall.cells if c.count]
    lines: list[str] = []
    for name, rows in d.slices.items():
        table = []
        for row in rows:
            cells = {c.category: c for c in row.cells}
            table.append(
                [md_escape(row.value, 60), f"{row.n:,}"]
                + [
                    f"{cells[c].count:,} ({points(cells[c].score_points)})"
                    if cells[c].count
                    else "—"
                    for c in shown
                ]
            )
        header = [slice_title(name), "n", *(md_escape(c, 40) for c in shown)]
        lines += [*_table(header, table, set(range(1, len(header)))), ""]
    return lines


def _diagnosis(s: RunSummary, d: Diagnosis, multi: bool) -> list[str]:
    nli = f" (support judged by {md_escape(d.nli, 100)})" if d.nli else ""
    lines = [
        "",
        _titled("Where the points went", s, multi),
        "",
        f"{d.n:,} scored questions, each in one category{nli}. {POINTS_MEANING}",
    ]
    signals = signals_line(d)
    if signals:
        lines += ["", md_escape(signals, 400)]
    lines += ["", *_category_overall(d)]
    if d.slices:
        lines += [
            "",
            "<details><summary>By slice: questions (score points) per category</summary>",
            "",
            *_category_slices(d),
            "</details>",
        ]
    return lines


def _abstention(s: RunSummary, a: Abstention, multi: bool) -> list[str]:
    lines = ["", _titled("What abstaining would have earned", s, multi), ""]
    lines += [f"- {md_escape(line, 600)}" for line in abstention_lines(a)]
    sample = curve_sample(a)
    if not sample:
        return lines
    rows = [
        [
            f"{p.threshold:.3f}" + (" (chosen)" if p == a.chosen else ""),
            pct(p.coverage),
            pct(p.score),
            pct(p.accuracy),
            pct(p.hallucination),
        ]
        for p in sample
    ]
    header = ["abstain below", "answers kept", "score", "accuracy", "hallucination"]
    lines += [
        "",
        "<details><summary>Score against the share of answers kept</summary>",
        "",
        *_table(header, rows, {0, 1, 2, 3, 4}),
        "",
        "</details>",
    ]
    return lines


def _analysis(report: Report) -> list[str]:
    """Where the points went and what abstaining would have earned, per run that has them."""
    multi = len(report.runs) > 1
    lines: list[str] = []
    for s in report.runs:
        if s.diagnosis is not None:
            lines += _diagnosis(s, s.diagnosis, multi)
        if s.abstention is not None:
            lines += _abstention(s, s.abstention, multi)
    return lines


def _cost(report: Report) -> list[str]:
    rows = []
    for s in report.runs:
        c = s.cost
        rows.append(
            [
                md_escape(s.facts.name, 60),
                f"{c.questions:,}",
                seconds(c.seconds_total if c.timed else None),
                seconds(c.seconds_p50),
                seconds(c.seconds_p95),
                tokens(c.prompt_tokens),
                tokens(c.completion_tokens),
                f"{c.errors:,}",
            ]
        )
    header = [
        "run",
        "questions",
        "total time",
        "median",
        "p95",
        "prompt tokens",
        "completion tokens",
        "errors",
    ]
    lines = [
        "",
        "<details><summary>Cost and latency</summary>",
        "",
        *_table(header, rows, set(range(1, 8))),
    ]
    for s in report.runs:
        if s.cost.stages:
            stage_rows = [
                [
                    md_escape(st.stage, 40),
                    seconds(st.seconds_total),
                    seconds(st.seconds_p50),
                    seconds(st.seconds_p95),
                    tokens(st.prompt_tokens),
                    tokens(st.completion_tokens),
                ]
                for st in s.cost.stages
            ]
            title = (
                f"Per stage, {md_escape(s.facts.name, 60)}" if len(report.runs) > 1 else "Per stage"
            )
            lines += [
                "",
                title,
                "",
                *_table(
                    ["stage", "total", "median", "p95", "prompt tokens", "completion tokens"],
                    stage_rows,
                    set(range(1, 6)),
                ),
            ]
    for s in report.runs:
        if s.cost.priced:
            priced = [
                [
                    md_escape(ps.stage, 40),
                    tokens(ps.prompt_tokens),
                    tokens(ps.completion_tokens),
                    money(ps.cost, s.cost.currency),
                ]
                for ps in s.cost.priced
            ]
            title = "Tokens and cost" + (
                f", {md_escape(s.facts.name, 60)}" if len(report.runs) > 1 else ""
            )
            lines += [
                "",
                title,
                "",
                *_table(["stage", "prompt tokens", "completion tokens", "cost"], priced, {1, 2, 3}),
            ]
    lines += ["", "</details>"]
    return lines


def _comparison(comp: Comparison) -> list[str]:
    rows = []
    for r in comp.leaderboard:
        rows.append(
            [
                str(r.rank),
                md_escape(r.name, 60),
                f"**{pct_ci(r.score)}**",
                pct_ci(r.accuracy),
                pct_ci(r.hallucination),
                pct_ci(r.missing),
                f"{r.n:,}",
            ]
        )
    lines = _table(
        ["#", "run", "score", "accuracy", "hallucination", "missing", "n"], rows, {0, 2, 3, 4, 5, 6}
    )
    lines += [
        "",
        f"Differences are paired against the baseline **{md_escape(comp.baseline, 60)}**:",
    ]
    lines.append("")
    for name, m, trans in zip(comp.runs[1:], comp.overall, comp.transitions, strict=True):
        changes = ", ".join(f"{k} {v:,}" for k, v in trans.items()) or "no label changes"
        lines.append(
            f"- {md_escape(name, 60)}: Δ score {pct_ci(m, True)} points; {md_escape(changes, 300)}"
        )
    notable = [
        (d, m)
        for d in comp.slice_diffs
        for m in d.diffs
        if m is not None and m.low is not None and m.high is not None and (m.low > 0 or m.high < 0)
    ]
    if notable:
        lines += ["", "<details><summary>Slices whose difference excludes zero</summary>", ""]
        rows = []
        for d in comp.slice_diffs:
            for name, m, n in zip(comp.runs[1:], d.diffs, d.n_pairs, strict=True):
                if m is None or m.low is None or m.high is None or not (m.low > 0 or m.high < 0):
                    continue
                rows.append(
                    [
                        md_escape(slice_title(d.slice), 30),
                        md_escape(d.value, 60),
                        md_escape(name, 60),
                        pct_ci(m, True),
                        f"{n:,}",
                    ]
                )
        lines += [
            *_table(["slice", "value", "run", "Δ score (points)", "pairs"], rows, {3, 4}),
            "",
            "</details>",
        ]
    if comp.flips:
        lines += [
            "",
            f"<details><summary>{len(comp.flips):,} questions whose label flipped</summary>",
            "",
        ]
        rows = [
            [md_escape(f.id, 40), md_escape(f.query, 120)]
            + [md_escape(x or "absent", 12) for x in f.labels]
            for f in comp.flips[:MAX_FLIPS]
        ]
        lines += _table(["id", "query", *(md_escape(n, 40) for n in comp.runs)], rows)
        if len(comp.flips) > MAX_FLIPS:
            lines += [
                "",
                f"… and {len(comp.flips) - MAX_FLIPS:,} more (see the HTML or JSON report).",
            ]
        lines += ["", "</details>"]
    return lines


def render_markdown(report: Report) -> str:
    """The report as Markdown: one run's headline, or several runs' leaderboard."""
    lines: list[str] = []
    if report.comparison is None:
        s = report.runs[0]
        lines += [f"### ragmeter: {md_escape(s.facts.name, 100)}", ""]
        facts = _facts(s)
        if facts:
            lines += [facts, ""]
        lines += _headline(s)
    else:
        lines += [f"### ragmeter: {len(report.runs)} runs", ""]
        lines += _comparison(report.comparison)
        lines += ["", "<details><summary>Runs</summary>", ""]
        lines += [f"- **{md_escape(s.facts.name, 100)}**: {_facts(s)}" for s in report.runs]
        lines += ["", "</details>"]
    for s in report.runs:
        lines += _blocks(s)
        who = f"{md_escape(s.facts.name, 60)}: " if len(report.runs) > 1 else ""
        if s.judge_agreement:
            lines += [
                "",
                f"Judge ({who.rstrip(': ') or 'this run'}): {md_escape(s.judge_agreement, 300)}.",
            ]
        if s.flagged:
            ids = ", ".join(f"`{md_escape(f.id, 60)}`" for f in s.flagged[:20])
            more = f" and {len(s.flagged) - 20} more" if len(s.flagged) > 20 else ""
            lines += [
                "",
                f"> ⚠ **{who}{len(s.flagged)} prediction(s) addressed the grader or forged a "
                f"verdict** (counted incorrect): {ids}{more}",
            ]
        for note in s.notes:
            lines.append("")
            who = f"{md_escape(s.facts.name, 60)}: " if len(report.runs) > 1 else ""
            lines.append(f"> ⚠ {who}{md_escape(note, 300)}")
    lines += _slices(report)
    lines += _analysis(report)
    lines += _cost(report)
    lines += ["", f"<sub>ragmeter {md_escape(report.ragmeter_version, 40)}</sub>", ""]
    return "\n".join(lines)
