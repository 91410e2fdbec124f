"""The self-contained HTML report: one file, offline, and inert whatever the data holds.

Safety rests on three walls:

1. Every value from a run folder that goes into markup passes `html.escape`.
2. Per-question data travels as JSON inside ``<script type="application/json">``
   (never executed) with ``<``, ``>``, ``&``, U+2028 and U+2029 written as
   ``\\uXXXX`` escapes, so no string can close the element; the page's script
   puts it into the page as text only (``textContent``), never as markup.
3. A Content-Security-Policy allows only the page's own script and style, by
   hash, and no network at all: even markup that slipped past 1 and 2 could
   neither run nor fetch anything.

Size stays in check for thousands of questions: the table holds one short row
per question, the drill-down details are parsed only when first opened, and
retrieved chunks are clipped around the answer they contain.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from functools import lru_cache
from html import escape
from importlib import resources
from typing import Any

import orjson

from ragmeter.report.fmt import ci_text, money, num, pct, pct_ci, seconds, tokens
from ragmeter.report.highlight import clip_chunk, find_spans_of, needles_for
from ragmeter.report.runs import RunView, SampleDiagnosisView, SampleView
from ragmeter.report.summary import (
    Abstention,
    CategoryRow,
    Comparison,
    Diagnosis,
    ExtraBlock,
    Metric,
    Report,
    RunSummary,
    curve_sample,
    ordered_categories,
    ordered_slices,
    slice_title,
)
from ragmeter.report.svg import (
    CATEGORY_COLOURS,
    LABEL_COLOURS,
    OTHER_CATEGORY_COLOUR,
    abstention_plot,
    category_bars,
    category_colour,
    diff_extent,
    diff_plot,
    ink_on,
    run_colour,
    slice_plot,
)
from ragmeter.report.words import POINTS_MEANING, abstention_lines, points, signals_line

__all__ = ["CHUNK_CHARS", "PREDICTION_PREVIEW", "json_for_script", "render_html"]

CHUNK_CHARS = 1500
"""Characters of a retrieved chunk kept in the report (around its first answer span)."""
PREDICTION_PREVIEW = 200
"""Characters of a prediction shown in the table row (the drill-down has all of it)."""
MAX_FLIPS_SHOWN = 500

_JSON_ESCAPES = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def json_for_script(obj: Any) -> str:
    """JSON safe to place inside ``<script type="application/json">``.

    The characters that could end the element or start markup only ever occur inside
    JSON strings, where their ``\\uXXXX`` escapes parse back to the same text.
    """
    text = orjson.dumps(obj).decode("utf-8")
    return text.translate(_JSON_ESCAPES)


@lru_cache(maxsize=2)
def _asset(name: str) -> str:
    return resources.files("ragmeter.report").joinpath("assets", name).read_text("utf-8")


def _csp_hash(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


# ---------------------------------------------------------------------------------------
# Per-question data for the table and the drill-down
# ---------------------------------------------------------------------------------------


def _row(i: int, s: SampleView, diagnosis: SampleDiagnosisView | None, with_cat: bool) -> list[Any]:
    pred = s.prediction
    if pred is not None and len(pred) > PREDICTION_PREVIEW:
        pred = pred[:PREDICTION_PREVIEW] + "…"
    # The category column exists only in reports of diagnosed runs, so the rows of
    # other reports stay as they were.
    category = [diagnosis.category if diagnosis is not None else None] if with_cat else []
    return [
        i,
        s.id,
        s.label,
        s.labels.domain,
        s.labels.question_type,
        s.labels.static_or_dynamic,
        s.labels.popularity,
        s.query,
        pred,
        s.seconds,
        *category,
    ]


def _diagnosis_detail(d: SampleDiagnosisView) -> dict[str, Any]:
    return {
        "category": d.category,
        "false_premise": d.false_premise,
        "in_pages": d.answer_in_pages,
        "in_evidence": d.answer_in_evidence,
        "supported": d.supported,
        "probability": d.support_probability,
        "chunks": d.evidence_chunks,
        "note": d.note,
    }


def _answer_extras(s: SampleView, diagnosis: SampleDiagnosisView | None) -> dict[str, Any]:
    """What a diagnosed or confidence-carrying run adds to a question's details.

    Keys are set only when there is something to show, so the details of older runs
    stay as they were.
    """
    out: dict[str, Any] = {}
    answer = s.answer
    if answer is not None and answer.confidence is not None:
        out["confidence"] = answer.confidence
    if s.raw_label is not None:
        out["raw_label"] = s.raw_label
    raw = answer.extras.get("raw_answer") if answer is not None else None
    if isinstance(raw, str):
        out["raw_answer"] = raw
    if diagnosis is not None:
        out["diagnosis"] = _diagnosis_detail(diagnosis)
    return out


def _detail(s: SampleView, diagnosis: SampleDiagnosisView | None = None) -> dict[str, Any]:
    gold = s.answers[0] if s.answers else None
    scored_pred = s.truncated_prediction if s.truncated_prediction is not None else s.prediction
    highlight_pred = scored_pred if s.label != "missing" else None
    chunks = []
    answer = s.answer
    needles = needles_for(s.answers, highlight_pred)
    for c in answer.retrieved if answer is not None else []:
        spans = find_spans_of(c.text, needles)
        text, kept, before, after = clip_chunk(c.text, spans, CHUNK_CHARS)
        chunks.append(
            {
                "chunk_id": c.chunk_id,
                "score": c.score,
                "source": c.source,
                "doc": c.doc_index,
                "text": text,
                "spans": [list(sp) for sp in kept],
                "before": before,
                "after": after,
            }
        )
    return {
        "id": s.id,
        "query": s.query,
        "query_time": s.query_time,
        "labels": s.labels.model_dump(exclude_none=True),
        "gold": gold,
        "alternatives": s.answers[1:],
        "prediction": s.prediction,
        "cut": s.truncated_prediction if s.truncated else None,
        "truncated": s.truncated,
        "label": s.label,
        "rule": s.rule,
        "rule_detail": s.rule_detail,
        "approximate": s.approximate,
        "agreement": s.agreement,
        "unscored_reason": s.unscored_reason,
        "refused": answer.refused if answer is not None else None,
        "missing_reason": s.missing_reason,
        "error": s.error,
        "votes": [
            {
                "judge": v.judge,
                "model": v.model,
                "verdict": v.verdict,
                "error": v.error,
                "checks": [
                    {
                        "gold": c.gold,
                        "verdict": c.verdict,
                        "rationale": c.rationale,
                        "error": c.error,
                    }
                    for c in v.checks
                ],
            }
            for v in s.votes
        ],
        "chunks": chunks,
        "citations": answer.citations if answer is not None else [],
        "trust": _flat(s.trust) if s.trust else [],
        "stages": [
            [name, t.seconds, t.usage.prompt_tokens, t.usage.completion_tokens]
            for name, t in s.all_stages.items()
        ],
        "seconds": s.seconds,
        **_answer_extras(s, diagnosis),
    }


def _flat(data: dict[str, Any], prefix: str = "") -> list[list[str]]:
    """``[name, value]`` pairs of the scalars of a nested mapping, as text."""
    out: list[list[str]] = []
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.extend(_flat(value, name + "."))
        elif isinstance(value, list):
            out.append([name, ", ".join(str(v) for v in value) or "none"])
        elif isinstance(value, bool):
            out.append([name, "yes" if value else "no"])
        elif isinstance(value, float):
            out.append([name, f"{value:.4g}"])
        elif value is not None:
            out.append([name, str(value)])
    return out


# ---------------------------------------------------------------------------------------
# Static sections
# ---------------------------------------------------------------------------------------


def _label_badge(label: str | None) -> str:
    cls = label if label in LABEL_COLOURS else "none"
    return f'<span class="lbl {cls}">{_e(label or "absent")}</span>'


def _headline_table(s: RunSummary) -> str:
    h = s.headline
    level = f"{h.confidence * 100:g}% CI"
    rows = [
        ("Score", h.score, "accuracy − hallucination: a wrong answer costs what a right one earns"),
        ("Accuracy", h.accuracy, "share of correct answers"),
        ("Hallucination", h.hallucination, "share of incorrect answers"),
        ("Missing", h.missing, "share of refusals and empty answers"),
    ]
    out = [f'<table class="headline"><tr><th>metric</th><th>value</th><th>{level}</th></tr>']
    for name, m, tip in rows:
        out.append(
            f'<tr title="{_e(tip)}"><td>{name}</td><td class="num big">{_e(pct(_v(m)))}</td>'
            f'<td class="num ci">{_e(ci_text(m))}</td></tr>'
        )
    if h.truthfulness is not None:
        out.append(
            f'<tr><td>Truthfulness (human scale)</td><td class="num big">'
            f"{_e(pct(h.truthfulness.value))}</td>"
            f'<td class="num ci">{_e(ci_text(h.truthfulness))}</td></tr>'
        )
    out.append("</table>")
    scored = f" ({h.n_scored:,} scored)" if h.n_scored is not None and h.n_scored != h.n else ""
    counts = " ".join(
        f"{_label_badge(k)} {h.counts[k]:,}"
        for k in ("correct", "incorrect", "missing", "unscored")
        if h.counts.get(k)
    )
    out.append(f"<p>{h.n:,} questions{scored}: {counts}</p>")
    if h.unscored_reasons:
        reasons = "; ".join(f"{_e(k)}: {v:,}" for k, v in h.unscored_reasons.items())
        out.append(f'<p class="muted">unscored, by reason: {reasons}</p>')
    extra = []
    if h.weighted_question_type is not None:
        extra.append(f"score weighted by question type {_e(pct(h.weighted_question_type))}")
    if h.domain_mean is not None:
        extra.append(f"mean over domains {_e(pct(h.domain_mean))}")
    if h.human_agreement is not None:
        extra.append(f"agreement with human labels {_e(pct(h.human_agreement))}")
    if extra:
        out.append(f'<p class="muted">{"; ".join(extra)}</p>')
    return "".join(out)


def _v(m: Metric | None) -> float | None:
    return m.value if m is not None else None


_FACTS = [
    ("run", "name"),
    ("description", "description"),
    ("pipeline", "pipeline"),
    ("answer model", "answer_model"),
    ("judge", "judge"),
    ("data", "data_path"),
    ("data format", "data_format"),
    ("questions selected", "selected"),
    ("data sha256", "data_sha256"),
    ("date", "created"),
    ("spec hash", "spec_hash"),
    ("ragmeter", "ragmeter_version"),
    ("executor", "executor"),
    ("folder", "path"),
]


def _fact_value(s: RunSummary, key: str) -> str:
    v = getattr(s.facts, key)
    if v is None or v == "":
        return ""
    text = str(v)
    if key in ("data_sha256", "spec_hash"):
        return f'<span class="mono" title="{_e(text)}">{_e(text[:16])}</span>'
    return _e(f"{v:,}" if isinstance(v, int) else text)


def _facts_dl(s: RunSummary) -> str:
    out = ['<dl class="facts">']
    for label, key in _FACTS:
        value = _fact_value(s, key)
        if value:
            out.append(f"<dt>{label}</dt><dd>{value}</dd>")
    for role, model in s.facts.models.items():
        if role == "answer":
            continue  # shown as the answer model above
        out.append(f"<dt>model: {_e(role)}</dt><dd>{_e(model)}</dd>")
    out.append("</dl>")
    return "".join(out)


def _notes(s: RunSummary, with_name: bool = False) -> str:
    if not s.notes:
        return ""
    who = f"{_e(s.facts.name)}: " if with_name else ""
    items = "".join(f"<li>{who}{_e(n)}</li>" for n in s.notes)
    return f'<ul class="notes">{items}</ul>'


def _block_headline(s: RunSummary) -> str:
    """The headline of a run without CRAG metrics: its first block's metrics with intervals."""
    block = s.blocks[0]
    rows = [m for m in block.metrics if m.low is not None and m.high is not None][:4]
    out = [
        f"<table class='headline'><tr><th>{_e(block.title)}</th><th>value</th><th>95% CI</th></tr>"
    ]
    for m in rows:
        out.append(
            f'<tr><td>{_e(m.name)}</td><td class="num big">{_e(num(m.value))}</td>'
            f'<td class="num ci">[{_e(num(m.low))}, {_e(num(m.high))}]</td></tr>'
        )
    out.append("</table>")
    counts = " ".join(
        f"{_label_badge(k)} {s.headline.counts[k]:,}"
        for k in ("correct", "incorrect", "missing", "unscored")
        if s.headline.counts.get(k)
    )
    out.append(f"<p>{s.headline.n:,} questions: {counts}</p>")
    return "".join(out)


def _manipulation_banner(s: RunSummary, with_name: bool = False) -> str:
    if not s.flagged:
        return ""
    who = f"{_e(s.facts.name)}: " if with_name else ""
    shown = s.flagged[:50]
    items = "".join(
        f"<li><code>{_e(f.id)}</code> {_e(f.query)}"
        + (f' <span class="muted">({_e(f.detail[:120])})</span>' if f.detail else "")
        + "</li>"
        for f in shown
    )
    more = (
        f"<p>… and {len(s.flagged) - len(shown)} more.</p>" if len(s.flagged) > len(shown) else ""
    )
    return (
        f'<div class="banner warn" role="alert"><strong>{who}{len(s.flagged)} prediction(s) '
        "addressed the grader, forged a verdict or imitated delimiters.</strong> They count "
        f"as incorrect. Flagged questions:<ul>{items}</ul>{more}</div>"
    )


def _judge_line(s: RunSummary) -> str:
    if not s.judge_agreement:
        return ""
    return f'<p class="judge-agreement">Judge: {_e(s.judge_agreement)}.</p>'


def _summary_single(s: RunSummary) -> str:
    h = s.headline
    has_crag = any(m is not None and m.value is not None for m in (h.score, h.accuracy))
    headline = _headline_table(s) if has_crag or not s.blocks else _block_headline(s)
    return (
        f'<section id="summary"><h2>Summary</h2>{_manipulation_banner(s)}<div class="grid2">'
        f"<div>{headline}{_judge_line(s)}</div><div>{_facts_dl(s)}</div></div>{_notes(s)}"
        "</section>"
    )


def _summary_multi(report: Report, comp: Comparison) -> str:
    has_trust = any(r.trust is not None for r in comp.leaderboard)
    out = [
        '<section id="summary"><h2>Leaderboard</h2><table class="leader"><tr><th>#</th>'
        "<th>run</th><th>score</th><th>accuracy</th><th>hallucination</th><th>missing</th>"
        '<th class="num">questions</th>'
        + ('<th class="num">TRUST</th>' if has_trust else "")
        + '<th class="num">median time</th><th class="num">tokens / question</th></tr>'
    ]
    colour = {name: run_colour(i) for i, name in enumerate(comp.runs)}
    for r in comp.leaderboard:
        trust = f'<td class="num">{_e(num(r.trust))}</td>' if has_trust else ""
        out.append(
            f'<tr><td class="num">{r.rank}</td><td><span class="sw" '
            f'data-c="{_e(colour[r.name])}"></span>{_e(r.name)}</td>'
            f'<td class="num"><b>{_e(pct_ci(r.score))}</b></td>'
            f'<td class="num">{_e(pct_ci(r.accuracy))}</td>'
            f'<td class="num">{_e(pct_ci(r.hallucination))}</td>'
            f'<td class="num">{_e(pct_ci(r.missing))}</td><td class="num">{r.n:,}</td>{trust}'
            f'<td class="num">{_e(seconds(r.seconds_p50))}</td>'
            f'<td class="num">{_e(tokens(r.tokens_per_question))}</td></tr>'
        )
    out.append("</table>")
    out.append(
        f'<p class="muted">Baseline for differences: <b>{_e(comp.baseline)}</b> (the first run '
        f"given). {comp.common:,} questions are in every run.</p>"
    )
    out.append('<h3>Runs</h3><table class="facts"><tr><th></th>')
    out.extend(f"<th>{_e(s.facts.name)}</th>" for s in report.runs)
    out.append("</tr>")
    for label, key in _FACTS[1:]:
        values = [_fact_value(s, key) for s in report.runs]
        if any(values):
            # Rows where the runs differ are what the comparison is about: mark them.
            differ = " class='differs'" if len(set(values)) > 1 and key != "path" else ""
            out.append(f"<tr{differ}><td class='muted'>{label}</td>")
            out.extend(f"<td>{v}</td>" for v in values)
            out.append("</tr>")
    out.append("</table>")
    out.extend(_manipulation_banner(s, with_name=True) for s in report.runs)
    out.extend(_notes(s, with_name=True) for s in report.runs)
    out.append("</section>")
    return "".join(out)


def _block(block: ExtraBlock, run_name: str, multi: bool) -> str:
    title = _e(block.title) + (f" — {_e(run_name)}" if multi else "")
    out = [f"<h3>{title}</h3>"]
    if block.info:
        facts = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in block.info.items())
        out.append(f'<dl class="facts">{facts}</dl>')
    out.append("<table><tr><th>metric</th><th>value</th><th>interval</th></tr>")
    for m in block.metrics:
        ci = f"[{num(m.low)}, {num(m.high)}]" if m.low is not None and m.high is not None else ""
        out.append(
            f'<tr><td>{_e(m.name)}</td><td class="num"><b>{_e(num(m.value))}</b></td>'
            f'<td class="num muted">{_e(ci)}</td></tr>'
        )
    out.append("</table>")
    if block.omitted:
        out.append(f'<p class="muted">{block.omitted} more metrics in the JSON report.</p>')
    return "".join(out)


def _blocks(report: Report) -> str:
    multi = len(report.runs) > 1
    parts = [_block(b, s.facts.name, multi) for s in report.runs for b in s.blocks]
    if not parts:
        return ""
    titles = {b.title for s in report.runs for b in s.blocks}
    heading = "Trust-Score" if titles == {"Trust-Score"} else "More metrics"
    return f'<section id="trust"><h2>{heading}</h2>{"".join(parts)}</section>'


_LEGEND = (
    '<div class="legend"><span><span class="sw correct"></span>correct</span>'
    '<span><span class="sw missing"></span>missing</span>'
    '<span><span class="sw incorrect"></span>hallucinated</span>'
    "<span>dots: estimate · whiskers: 95% confidence interval · hover for numbers</span></div>"
)


def _slice_table(report: Report, name: str) -> str:
    multi = len(report.runs) > 1
    out = [
        '<details class="tbl"><summary>table</summary><table><tr>'
        + ("<th>run</th>" if multi else "")
        + "<th>value</th><th class='num'>n</th><th>score</th><th>accuracy</th>"
        "<th>hallucination</th><th>missing</th></tr>"
    ]
    for s in report.runs:
        for row in s.slices.get(name, []):
            out.append(
                "<tr>"
                + (f"<td>{_e(s.facts.name)}</td>" if multi else "")
                + f'<td>{_e(row.value)}</td><td class="num">{row.n:,}</td>'
                f'<td class="num">{_e(pct_ci(row.score))}</td>'
                f'<td class="num">{_e(pct_ci(row.accuracy))}</td>'
                f'<td class="num">{_e(pct_ci(row.hallucination))}</td>'
                f'<td class="num">{_e(pct_ci(row.missing))}</td></tr>'
            )
    out.append("</table></details>")
    return "".join(out)


def _slices(report: Report) -> str:
    names = ordered_slices({n for s in report.runs for n in s.slices})
    if not names:
        return ""
    out = ['<section id="slices"><h2>By slice</h2>', _LEGEND]
    if len(report.runs) > 1:
        keys = "".join(
            f'<span><span class="sw" data-c="{run_colour(i)}"></span>{_e(s.facts.name)}</span>'
            for i, s in enumerate(report.runs)
        )
        out.append(f'<div class="legend">{keys}</div>')
    for name in names:
        plot = slice_plot(name, [(s.facts.name, s.slices.get(name, [])) for s in report.runs])
        out.append(f"<h3>{_e(slice_title(name))}</h3>{plot}{_slice_table(report, name)}")
    out.append("</section>")
    return "".join(out)


def _compare(comp: Comparison) -> str:
    others = comp.runs[1:]
    out = ['<section id="compare"><h2>Differences from the baseline</h2>']
    out.append(
        "<table><tr><th>run</th><th>Δ score (points)</th><th>95% CI</th>"
        "<th>label changes from the baseline</th></tr>"
    )
    for name, m, trans in zip(others, comp.overall, comp.transitions, strict=True):
        cls = _sig_class(m)
        changes = ", ".join(f"{_e(k)}: {v:,}" for k, v in trans.items()) or "none"
        out.append(
            f'<tr><td>{_e(name)}</td><td class="num {cls}">{_e(pct(_v(m), True))}</td>'
            f'<td class="num">{_e(ci_text(m, True))}</td><td>{changes}</td></tr>'
        )
    out.append("</table>")
    out.append(
        '<p class="muted">Differences are paired: each question is compared with itself in the '
        "baseline, over the questions both runs scored. Bold: the interval excludes zero.</p>"
    )
    by_slice: dict[str, list[Any]] = {}
    for d in comp.slice_diffs:
        by_slice.setdefault(d.slice, []).append(d)
    extent = diff_extent(comp.slice_diffs)
    for name, diffs in by_slice.items():
        out.append(f"<h3>{_e(slice_title(name))}</h3>{diff_plot(diffs, others, extent)}")
        out.append('<details class="tbl"><summary>table</summary><table><tr><th>value</th>')
        out.extend(f"<th>{_e(n)}</th>" for n in comp.runs)
        out.extend(f"<th>Δ {_e(n)}</th>" for n in others)
        out.append("</tr>")
        for d in diffs:
            out.append(f"<tr><td>{_e(d.value)}</td>")
            out.extend(f'<td class="num">{_e(pct(sc))}</td>' for sc in d.scores)
            for m, n_pairs in zip(d.diffs, d.n_pairs, strict=True):
                out.append(
                    f'<td class="num {_sig_class(m)}">{_e(pct_ci(m, True))} '
                    f'<span class="muted">n={n_pairs:,}</span></td>'
                )
            out.append("</tr>")
        out.append("</table></details>")
    out.append(f"<h3>Questions whose label flipped ({len(comp.flips):,})</h3>")
    if comp.flips:
        out.append('<div class="scroll"><table class="flips"><tr><th></th>')
        out.extend(f"<th>{_e(n)}</th>" for n in comp.runs)
        out.append("<th>id</th><th>query</th></tr>")
        for f in comp.flips[:MAX_FLIPS_SHOWN]:
            # The button comes first: an open drill-down panel covers the right of the page.
            out.append(
                f'<tr><td><button type="button" data-open="{_e(f.id)}">details</button></td>'
            )
            out.extend(f"<td>{_label_badge(lbl)}</td>" for lbl in f.labels)
            out.append(f'<td class="mono">{_e(f.id)}</td><td>{_e(f.query)}</td></tr>')
        out.append("</table></div>")
        if len(comp.flips) > MAX_FLIPS_SHOWN:
            out.append(
                f'<p class="muted">{len(comp.flips) - MAX_FLIPS_SHOWN:,} more: tick "flipped '
                'only" in the question table below.</p>'
            )
    out.append("</section>")
    return "".join(out)


def _sig_class(m: Metric | None) -> str:
    if m is None or m.low is None or m.high is None or m.value is None:
        return ""
    if m.low > 0:
        return "sig pos"
    if m.high < 0:
        return "sig neg"
    return ""


def _cost(report: Report) -> str:
    out = ['<section id="cost"><h2>Cost and latency</h2>']
    out.append(
        "<table><tr><th>run</th><th class='num'>questions</th><th class='num'>total time</th>"
        "<th class='num'>mean</th><th class='num'>median</th><th class='num'>p95</th>"
        "<th class='num'>max</th><th class='num'>prompt tokens</th>"
        "<th class='num'>completion tokens</th><th class='num'>tokens / question</th>"
        "<th class='num'>errors</th><th>no prediction because</th></tr>"
    )
    for s in report.runs:
        c = s.cost
        reasons = ", ".join(f"{_e(k)}: {v:,}" for k, v in c.missing_reasons.items()) or "—"
        out.append(
            f"<tr><td>{_e(s.facts.name)}</td><td class='num'>{c.questions:,}</td>"
            f"<td class='num'>{_e(seconds(c.seconds_total if c.timed else None))}</td>"
            f"<td class='num'>{_e(seconds(c.seconds_mean))}</td>"
            f"<td class='num'>{_e(seconds(c.seconds_p50))}</td>"
            f"<td class='num'>{_e(seconds(c.seconds_p95))}</td>"
            f"<td class='num'>{_e(seconds(c.seconds_max))}</td>"
            f"<td class='num'>{_e(tokens(c.prompt_tokens))}</td>"
            f"<td class='num'>{_e(tokens(c.completion_tokens))}</td>"
            f"<td class='num'>{_e(tokens(c.tokens_per_question))}</td>"
            f"<td class='num'>{c.errors:,}</td><td>{reasons}</td></tr>"
        )
    out.append("</table>")
    for s in report.runs:
        if not s.cost.stages:
            continue
        title = f"Per stage — {_e(s.facts.name)}" if len(report.runs) > 1 else "Per stage"
        out.append(
            f"<h3>{title}</h3><table><tr><th>stage</th><th class='num'>questions</th>"
            "<th class='num'>total</th><th class='num'>mean</th><th class='num'>median</th>"
            "<th class='num'>p95</th><th class='num'>prompt tokens</th>"
            "<th class='num'>completion tokens</th></tr>"
        )
        for st in s.cost.stages:
            out.append(
                f"<tr><td>{_e(st.stage)}</td><td class='num'>{st.questions:,}</td>"
                f"<td class='num'>{_e(seconds(st.seconds_total))}</td>"
                f"<td class='num'>{_e(seconds(st.seconds_mean))}</td>"
                f"<td class='num'>{_e(seconds(st.seconds_p50))}</td>"
                f"<td class='num'>{_e(seconds(st.seconds_p95))}</td>"
                f"<td class='num'>{_e(tokens(st.prompt_tokens))}</td>"
                f"<td class='num'>{_e(tokens(st.completion_tokens))}</td></tr>"
            )
        out.append("</table>")
    for s in report.runs:
        if not s.cost.priced:
            continue
        title = (
            f"Tokens and cost — {_e(s.facts.name)}" if len(report.runs) > 1 else "Tokens and cost"
        )
        out.append(
            f"<h3>{title}</h3><table><tr><th>stage</th><th class='num'>prompt tokens</th>"
            "<th class='num'>completion tokens</th><th class='num'>cost</th></tr>"
        )
        for ps in s.cost.priced:
            out.append(
                f"<tr><td>{_e(ps.stage)}</td>"
                f"<td class='num'>{_e(tokens(ps.prompt_tokens))}</td>"
                f"<td class='num'>{_e(tokens(ps.completion_tokens))}</td>"
                f"<td class='num'>{_e(money(ps.cost, s.cost.currency))}</td></tr>"
            )
        out.append("</table>")
    out.append("</section>")
    return "".join(out)


# ---------------------------------------------------------------------------------------
# Where the points went (diagnosis) and what abstaining would have earned
# ---------------------------------------------------------------------------------------


def _category_name(name: str) -> str:
    return (
        f'<span class="sw" data-c="{category_colour(name)}"></span>'
        f'<span class="mono">{_e(name)}</span>'
    )


def _show_button(name: str, run_index: int | None) -> str:
    run = f' data-run="{run_index}"' if run_index is not None else ""
    return f'<button type="button" class="show" data-cat="{_e(name)}"{run}>questions</button>'


def _category_table(d: Diagnosis, run_index: int | None) -> str:
    """The legend of the bars: each category's colour, meaning, count and points.

    ``run_index`` is None when the run has no per-question diagnoses to filter by.
    """
    out = [
        '<table class="cats"><tr><th>category</th><th>what it means</th>'
        "<th class='num'>questions</th><th class='num'>share</th>"
        "<th class='num'>score points</th><th class='num'>points short</th>"
        + ("<th></th>" if run_index is not None else "")
        + "</tr>"
    ]
    info = {c.name: c.description for c in d.categories}
    for cell in d.overall.cells:
        muted = ' class="muted"' if cell.count == 0 else ""
        button = ""
        if run_index is not None:
            button = f"<td>{_show_button(cell.category, run_index) if cell.count else ''}</td>"
        out.append(
            f"<tr{muted}><td>{_category_name(cell.category)}</td>"
            f"<td>{_e(info.get(cell.category, ''))}</td>"
            f'<td class="num">{cell.count:,}</td><td class="num">{_e(pct(cell.share))}</td>'
            f'<td class="num">{_e(points(cell.score_points))}</td>'
            f'<td class="num">{_e(f"{cell.points_short * 100:.1f}")}</td>{button}</tr>'
        )
    score = sum(c.score_points for c in d.overall.cells)
    short = sum(c.points_short for c in d.overall.cells)
    out.append(
        f'<tr class="total"><td>all</td><td class="muted">score points add up to the score '
        f'over these questions</td><td class="num">{d.overall.n:,}</td><td class="num">'
        f'100%</td><td class="num">{_e(points(score))}</td>'
        f'<td class="num">{_e(f"{short * 100:.1f}")}</td>'
        + ("<td></td>" if run_index is not None else "")
        + "</tr></table>"
    )
    return "".join(out)


def _signals(d: Diagnosis) -> str:
    line = signals_line(d)
    return f'<p class="muted">{_e(line)}</p>' if line else ""


def _category_slice_table(d: Diagnosis, rows: Sequence[CategoryRow]) -> str:
    # Categories no question fell in are empty in every slice: leave their columns out.
    shown = [c.category for c in d.overall.cells if c.count]
    out = ['<details class="tbl"><summary>table</summary><table><tr><th>value</th>']
    out.append("<th class='num'>n</th>")
    out.extend(f"<th>{_category_name(c)}</th>" for c in shown)
    out.append("</tr>")
    for row in rows:
        cells = {c.category: c for c in row.cells}
        out.append(f'<tr><td>{_e(row.value)}</td><td class="num">{row.n:,}</td>')
        for c in shown:
            cell = cells[c]
            text = f"{cell.count:,} · {points(cell.score_points)}" if cell.count else "—"
            out.append(f'<td class="num">{_e(text)}</td>')
        out.append("</tr>")
    out.append("</table></details>")
    return "".join(out)


def _diagnosis_run(s: RunSummary, d: Diagnosis, run_index: int | None, multi: bool) -> str:
    h = "h4" if multi else "h3"
    nli = f" (judged by {_e(d.nli)})" if d.nli else ""
    out = [f"<h3>{_e(s.facts.name)}</h3>" if multi else ""]
    out.append(
        f"<p>Each of the {d.n:,} scored questions falls in one category, from its label and "
        "three signals: was a gold answer in the question's pages, was it in the evidence the "
        f"system used, and does that evidence support the answer{nli}. {_e(POINTS_MEANING)}</p>"
    )
    out.append(_signals(d))
    out.append(_category_table(d, run_index))
    out.append(
        f"<{h}>All questions</{h}>" + category_bars([d.overall], "share of questions by category")
    )
    for name, rows in d.slices.items():
        out.append(f"<{h}>{_e(slice_title(name))}</{h}>")
        title = f"share of questions by category, per {slice_title(name).lower()}"
        out.append(category_bars(rows, title))
        out.append(_category_slice_table(d, rows))
    return "".join(out)


def _diagnosis(report: Report, runs: Sequence[RunView]) -> str:
    multi = len(report.runs) > 1
    parts = [
        _diagnosis_run(s, s.diagnosis, i if runs[i].diagnoses else None, multi)
        for i, s in enumerate(report.runs)
        if s.diagnosis is not None
    ]
    if not parts:
        return ""
    return f'<section id="diagnosis"><h2>Where the points went</h2>{"".join(parts)}</section>'


def _abstention_text(a: Abstention) -> str:
    return "".join(f"<p>{_e(line)}</p>" for line in abstention_lines(a))


def _curve_table(a: Abstention) -> str:
    out = [
        '<details class="tbl"><summary>table</summary><table><tr><th>abstain below</th>'
        "<th class='num'>answers kept</th><th class='num'>score</th>"
        "<th class='num'>accuracy</th><th class='num'>hallucination</th></tr>"
    ]
    for p in curve_sample(a):
        mark = ' class="differs"' if p == a.chosen else ""
        out.append(
            f'<tr{mark}><td class="num">{p.threshold:.3f}</td>'
            f'<td class="num">{_e(pct(p.coverage))}</td><td class="num">{_e(pct(p.score))}</td>'
            f'<td class="num">{_e(pct(p.accuracy))}</td>'
            f'<td class="num">{_e(pct(p.hallucination))}</td></tr>'
        )
    out.append("</table></details>")
    return "".join(out)


def _abstention(report: Report) -> str:
    multi = len(report.runs) > 1
    parts = []
    for s in report.runs:
        a = s.abstention
        if a is None:
            continue
        title = f"<h3>{_e(s.facts.name)}</h3>" if multi else ""
        parts.append(title + _abstention_text(a) + abstention_plot(a) + _curve_table(a))
    if not parts:
        return ""
    return (
        '<section id="abstention"><h2>What abstaining would have earned</h2>'
        '<p class="muted">CRAG scores a wrong answer −1 and "I don\'t know" 0: answering only '
        "when confident can raise the score. Each answer below a confidence threshold becomes "
        '"I don\'t know"; the figures keep every scored question as denominator.</p>'
        f"{''.join(parts)}</section>"
    )


def _questions(runs: Sequence[RunView], with_cat: bool = False) -> str:
    multi = len(runs) > 1
    run_select = '<label for="rm-run">run</label><select id="rm-run"></select>' if multi else ""
    flipped = '<label><input type="checkbox" id="rm-flipped"> flipped only</label>' if multi else ""
    cat_select = '<select id="rm-cat" aria-label="diagnosis category"></select>' if with_cat else ""
    cat_col = '<col width="170">' if with_cat else ""
    cat_head = '<th data-sort="cat">category</th>' if with_cat else ""
    return (
        '<section id="questions"><h2>Questions</h2>'
        f'<div class="controls">{run_select}'
        '<input type="search" id="rm-search" placeholder="search id, query or prediction" '
        'aria-label="search">'
        '<select id="rm-label" aria-label="label"></select>'
        '<select id="rm-domain" aria-label="domain"></select>'
        '<select id="rm-type" aria-label="question type"></select>'
        f'{cat_select}{flipped}<span id="rm-count"></span></div>'
        '<noscript><p class="notes">The question table needs JavaScript; everything above '
        "does not.</p></noscript>"
        '<table class="qs"><colgroup><col width="56"><col width="150"><col width="92">'
        f'<col width="84"><col width="130">{cat_col}<col><col><col width="82"></colgroup>'
        '<thead><tr><th data-sort="num" class="num sorted-asc">#</th><th data-sort="id">id</th>'
        '<th data-sort="label">label</th><th data-sort="domain">domain</th>'
        f'<th data-sort="qtype">type</th>{cat_head}<th data-sort="query">query</th>'
        '<th data-sort="pred">prediction</th><th data-sort="secs" class="num">time</th>'
        '</tr></thead><tbody id="rm-tbody"></tbody></table>'
        '<div class="pager"><button type="button" id="rm-prev">← previous</button>'
        '<span id="rm-page" class="muted"></span>'
        '<button type="button" id="rm-next">next →</button></div></section>'
    )


def _categories(report: Report, runs: Sequence[RunView]) -> list[list[str]]:
    """``[name, description, colour, ink]`` of every category the report shows, in order."""
    described: dict[str, str] = {}
    for s in report.runs:
        if s.diagnosis is not None:
            described.update((c.name, c.description) for c in s.diagnosis.categories)
    names = set(described)
    for r in runs:
        names |= {d.category for d in r.diagnoses.values()}
    return [
        [n, described.get(n, ""), category_colour(n), ink_on(category_colour(n))]
        for n in ordered_categories(names)
    ]


def _category_css() -> str:
    # Colours come from the fixed palette, never from the data: a category name never
    # reaches the style sheet.
    return "".join(
        f'.sw[data-c="{c}"],.cat[data-c="{c}"]{{background:{c};color:{ink_on(c)}}}'
        for c in [*CATEGORY_COLOURS.values(), OTHER_CATEGORY_COLOUR]
    )


def render_html(report: Report, runs: Sequence[RunView]) -> str:
    """The whole report page for ``report`` (built from ``runs``, given in the same order)."""
    css = _asset("report.css")
    # Run colours are set through a generated rule per colour: inline style attributes
    # would need 'unsafe-inline' in the policy.
    colours = sorted({run_colour(i) for i in range(len(runs))})
    css += "".join(f'.sw[data-c="{c}"]{{background:{c}}}' for c in colours)
    categories = _categories(report, runs)
    if categories:
        css += _category_css()
    js = _asset("report.js")
    csp = (
        "default-src 'none'; "
        f"script-src '{_csp_hash(js)}'; "
        f"style-src '{_csp_hash(css)}'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    with_cat = any(r.diagnoses for r in runs)
    rows: dict[str, Any] = {
        "runs": [
            {
                "name": r.name,
                "rows": [
                    _row(i, s, r.diagnoses.get(s.id), with_cat) for i, s in enumerate(r.samples)
                ],
            }
            for r in runs
        ]
    }
    if categories:
        rows["categories"] = categories
    details = [[_detail(s, r.diagnoses.get(s.id)) for s in r.samples] for r in runs]
    names = ", ".join(r.name for r in runs)
    n = sum(len(r.samples) for r in runs)
    toc = [("summary", "Summary" if len(runs) == 1 else "Leaderboard")]
    if any(s.blocks for s in report.runs):
        toc.append(("trust", "Trust-Score"))
    if any(s.slices for s in report.runs):
        toc.append(("slices", "Slices"))
    if any(s.diagnosis for s in report.runs):
        toc.append(("diagnosis", "Where the points went"))
    if any(s.abstention for s in report.runs):
        toc.append(("abstention", "Abstaining"))
    if report.comparison is not None:
        toc.append(("compare", "Differences"))
    toc += [("cost", "Cost and latency"), ("questions", "Questions")]
    nav = "".join(f'<a href="#{k}">{v}</a>' for k, v in toc)
    summary = (
        _summary_multi(report, report.comparison)
        if report.comparison is not None
        else _summary_single(report.runs[0])
    )
    compare = _compare(report.comparison) if report.comparison is not None else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_e(csp)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>ragmeter report: {_e(names)}</title><style>{css}</style></head><body>"
        f'<header class="top"><h1>ragmeter report</h1><p class="sub">{_e(names)} · '
        f"{n:,} question records · ragmeter {_e(report.ragmeter_version)}</p>"
        f'<nav class="toc">{nav}</nav></header><main>'
        f"{summary}{_blocks(report)}{_slices(report)}{_diagnosis(report, runs)}"
        f"{_abstention(report)}{compare}{_cost(report)}{_questions(runs, with_cat)}"
        f"<footer>Made by ragmeter {_e(report.ragmeter_version)} from "
        f"{_e(', '.join(str(r.path) for r in runs))}. Works offline; nothing in it is loaded "
        "from elsewhere.</footer></main>"
        '<aside id="panel" hidden aria-label="question details">'
        '<button type="button" class="close" id="panel-close" aria-label="close">✕</button>'
        '<div id="panel-body"></div></aside>'
        f'<script type="application/json" id="rm-rows">{json_for_script(rows)}</script>'
        f'<script type="application/json" id="rm-details">{json_for_script(details)}</script>'
        f"<script>{js}</script></body></html>\n"
    )
