"""The report's content, computed once from run folders: the JSON a machine reads.

`build_report` turns `RunView`s into a `Report`: per run its facts (spec, model,
data, date), headline metrics with intervals, extra blocks such as Trust-Score,
slices, and a cost and latency summary; across runs a leaderboard, paired
per-slice differences with intervals, and the questions whose label flipped.
Markdown and HTML render this same model, so the three formats never disagree.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from ragmeter import __version__
from ragmeter.report.runs import (
    AbstentionView,
    CategoryTableView,
    DiagnosisView,
    EstimateView,
    RunView,
    SampleView,
    SliceView,
)
from ragmeter.report.stats import paired_difference, percentile

__all__ = [
    "CATEGORY_ORDER",
    "LABEL_SCORES",
    "SLICE_ORDER",
    "Abstention",
    "BlockMetric",
    "CategoryCell",
    "CategoryInfo",
    "CategoryRow",
    "Comparison",
    "CostSummary",
    "CurvePoint",
    "Diagnosis",
    "ExtraBlock",
    "Flip",
    "Headline",
    "LeaderRow",
    "Metric",
    "Report",
    "RunFacts",
    "RunSummary",
    "SliceDiff",
    "SliceRow",
    "StageCost",
    "build_report",
    "curve_sample",
    "ordered_categories",
    "ordered_values",
]

LABEL_SCORES: dict[str, int] = {"correct": 1, "missing": 0, "incorrect": -1}
SLICE_ORDER = ("domain", "question_type", "static_or_dynamic", "popularity")
"""Slices shown first, in this order; any other slice of the results follows."""

SLICE_TITLES = {
    "domain": "Domain",
    "question_type": "Question type",
    "static_or_dynamic": "Dynamism",
    "popularity": "Popularity",
    "split": "Split",
    "answer_type": "Answer type",
}

# Natural orders of CRAG's label values (others follow alphabetically).
_VALUE_ORDER: dict[str, list[str]] = {
    "domain": ["finance", "sports", "music", "movie", "open"],
    "question_type": [
        "simple",
        "simple_w_condition",
        "comparison",
        "aggregation",
        "set",
        "multi-hop",
        "post-processing",
        "false_premise",
    ],
    "static_or_dynamic": ["static", "slow-changing", "fast-changing", "real-time"],
    "popularity": ["head", "torso", "tail"],
}

CATEGORY_ORDER = (
    "correct_grounded",
    "correct_unsupported",
    "generation_error",
    "retrieval_miss",
    "should_have_abstained",
    "false_premise_accepted",
    "over_cautious",
    "right_to_abstain",
)
"""The diagnosis categories in the order the diagnosis defines them (right answers, wrong
ones, no answer); a category this list does not know follows alphabetically."""

MAX_EXTRA_METRICS = 40
_BLOCK_FIRST = ["trust", "grounded_refusals", "answer_correctness", "grounded_citations"]


class Out(BaseModel):
    """Base of the report's output records (strict: they are written as JSON)."""

    model_config = ConfigDict(extra="forbid")


class Metric(Out):
    """A value with its confidence interval (bounds None when there is none)."""

    value: float | None
    low: float | None = None
    high: float | None = None


class RunFacts(Out):
    """What ran, on what, when."""

    name: str
    path: str
    created: str = ""
    description: str = ""
    ragmeter_version: str = ""
    spec_hash: str = ""
    pipeline: str = ""
    answer_model: str = ""
    """The answering model's spec, and its identity when the header records one."""
    judge: str = ""
    models: dict[str, str] = Field(default_factory=dict)
    data_path: str = ""
    data_format: str = ""
    data_sha256: str = ""
    selected: int | None = None
    executor: str = ""


class Headline(Out):
    """The overall CRAG metrics of a run."""

    n: int
    n_scored: int | None
    score: Metric | None
    accuracy: Metric | None
    hallucination: Metric | None
    missing: Metric | None
    counts: dict[str, int] = Field(default_factory=dict)
    unscored: int = 0
    unscored_reasons: dict[str, int] = Field(default_factory=dict)
    truthfulness: Metric | None = None
    """On the human scale, when human labels were given."""
    human_agreement: float | None = None
    weighted_question_type: float | None = None
    domain_mean: float | None = None
    confidence: float = 0.95


class BlockMetric(Out):
    """One metric of an extra block (e.g. ``asqa.trust``)."""

    name: str
    value: float | None
    low: float | None = None
    high: float | None = None


class ExtraBlock(Out):
    """A block of metrics results.json carries beyond the CRAG ones (e.g. Trust-Score)."""

    key: str
    title: str
    metrics: list[BlockMetric] = Field(default_factory=list)
    info: dict[str, str] = Field(default_factory=dict)
    """Text facts of the block (a data set name, a model...)."""
    omitted: int = 0
    """Metrics left out past the display limit."""


class SliceRow(Out):
    """The metrics of one slice value."""

    value: str
    n: int
    n_scored: int | None = None
    score: Metric | None = None
    accuracy: Metric | None = None
    hallucination: Metric | None = None
    missing: Metric | None = None


class StageCost(Out):
    """Seconds and tokens of one pipeline stage over a run."""

    stage: str
    questions: int
    seconds_total: float
    seconds_mean: float
    seconds_p50: float | None
    seconds_p95: float | None
    prompt_tokens: int
    completion_tokens: int


class PricedStage(Out):
    """Tokens and money of one cost stage (answering, judging, NLI) over a run."""

    stage: str
    prompt_tokens: int
    completion_tokens: int
    cost: float | None = None


class CostSummary(Out):
    """Where the time and tokens of a run went."""

    questions: int
    timed: int
    """Questions whose record carries a wall-clock time."""
    seconds_total: float
    seconds_mean: float | None
    seconds_p50: float | None
    seconds_p95: float | None
    seconds_max: float | None
    prompt_tokens: int
    completion_tokens: int
    tokens_per_question: float | None
    stages: list[StageCost] = Field(default_factory=list)
    errors: int = 0
    missing_reasons: dict[str, int] = Field(default_factory=dict)
    """Why questions had no prediction (time budget, error...), by reason."""
    priced: list[PricedStage] = Field(default_factory=list)
    """Tokens and cost per cost stage and in total, from results.json (runs that wrote it)."""
    currency: str | None = None


class CategoryInfo(Out):
    """A diagnosis category and what it means."""

    name: str
    description: str = ""


class CategoryCell(Out):
    """One category over a set of questions."""

    category: str
    count: int
    share: float
    """Share of the set's questions."""
    score_points: float
    """Its part of the set's CRAG score (−1..1 scale; the cells add up to the score)."""
    points_short: float
    """Its part of the gap to a perfect score (the cells add up to 1 − score)."""


class CategoryRow(Out):
    """Every category over one set of questions: the whole run or one slice value."""

    value: str
    n: int
    cells: list[CategoryCell]
    """One per category, in the diagnosis' order."""


class Diagnosis(Out):
    """Where the points went: each scored question's category, overall and per slice."""

    n: int
    nli: str = ""
    """The model that judged whether the evidence supports each answer."""
    categories: list[CategoryInfo]
    overall: CategoryRow
    slices: dict[str, list[CategoryRow]] = Field(default_factory=dict)
    answer_in_pages: float | None = None
    """Share of the questions with a matchable answer whose pages held it."""
    answer_in_evidence: float | None = None
    """Share of those whose evidence (what the system used) held it."""
    supported: float | None = None
    """Share of the answered questions whose evidence entails the answer."""


class CurvePoint(Out):
    """Score, accuracy and hallucination when abstaining below ``threshold``."""

    threshold: float
    coverage: float
    """Share of the answers kept."""
    score: float
    accuracy: float
    hallucination: float


class Abstention(Out):
    """What abstaining on low-confidence answers would have earned."""

    n: int
    with_confidence: int
    auroc: float | None = None
    curve: list[CurvePoint] = Field(default_factory=list)
    threshold: Metric | None = None
    """The chosen threshold with its bootstrap interval (None: too few questions to choose)."""
    chosen: CurvePoint | None = None
    """The point of the curve at the chosen threshold."""
    in_sample_score: float | None = None
    cv_score: Metric | None = None
    """Cross-validated score of abstaining below a threshold chosen this way."""
    cv_gain: Metric | None = None
    """Cross-validated score minus the raw score, paired per question."""
    raw_score: float | None = None
    """The score without abstaining."""
    folds: int = 0
    abstain_below: float | None = None
    """The threshold the pipeline itself abstained below, when it did."""
    pipeline_raw_score: Metric | None = None
    """With ``abstain_below``: the score of the answers the pipeline abstained on, given."""


class FlaggedQuestion(Out):
    """A question whose prediction the manipulation screen flagged."""

    id: str
    query: str = ""
    detail: str = ""


_OPTIONAL_SECTIONS = ("diagnosis", "abstention")


class RunSummary(Out):
    """Everything a report says about one run."""

    facts: RunFacts
    headline: Headline
    blocks: list[ExtraBlock] = Field(default_factory=list)
    slices: dict[str, list[SliceRow]] = Field(default_factory=dict)
    cost: CostSummary
    notes: list[str] = Field(default_factory=list)
    """Everything that makes the figures less than exact."""
    flagged: list[FlaggedQuestion] = Field(default_factory=list)
    """Questions whose prediction tried to steer the grader (shown as a warning banner)."""
    judge_agreement: str = ""
    """The judges' own uncertainty, in words: a panel's agreement, or a single judge's
    measured agreement with careful graders on real answers."""
    diagnosis: Diagnosis | None = None
    """Where the points went, when the run was diagnosed."""
    abstention: Abstention | None = None
    """What abstaining would have earned, when answers carry a confidence."""

    @model_serializer(mode="wrap")
    def _without_absent_sections(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # Sections a run has only when its folder carries their block are left out, not
        # null, when absent: the JSON report of an older run folder stays as it was.
        data: dict[str, Any] = handler(self)
        for key in _OPTIONAL_SECTIONS:
            if data.get(key) is None:
                data.pop(key, None)
        return data


class LeaderRow(Out):
    """One run in the leaderboard."""

    rank: int
    name: str
    n: int
    score: Metric | None
    accuracy: Metric | None
    hallucination: Metric | None
    missing: Metric | None
    trust: float | None = None
    seconds_p50: float | None = None
    tokens_per_question: float | None = None


class SliceDiff(Out):
    """Score of each run on one slice, and each run's paired difference from the baseline."""

    slice: str
    value: str
    n_pairs: list[int]
    """Questions scored in both the baseline and each other run."""
    scores: list[float | None]
    """Mean score of every run (baseline first) over the questions of the slice."""
    diffs: list[Metric | None]
    """Per other run: mean score minus the baseline's over paired questions, with an interval."""


class Flip(Out):
    """A question whose label differs between runs."""

    id: str
    query: str
    labels: list[str | None]
    """Per run (in report order); None when the run lacks the question."""


class Comparison(Out):
    """How several runs compare."""

    baseline: str
    runs: list[str]
    leaderboard: list[LeaderRow]
    common: int
    """Questions present in every run."""
    overall: list[Metric | None]
    """Per other run: paired score difference from the baseline."""
    slice_diffs: list[SliceDiff] = Field(default_factory=list)
    transitions: list[dict[str, int]] = Field(default_factory=list)
    """Per other run: ``"correct→incorrect"``-style counts of label changes from the baseline."""
    flips: list[Flip] = Field(default_factory=list)


class Report(Out):
    """The whole report (``--out report.json``)."""

    ragmeter_version: str
    runs: list[RunSummary]
    comparison: Comparison | None = None


def _metric(e: EstimateView | None) -> Metric | None:
    if e is None:
        return None
    return Metric(value=e.value, low=e.ci_low, high=e.ci_high)


def ordered_values(slice_name: str, values: Iterable[str]) -> list[str]:
    """Slice values in their natural order (CRAG's), unknown ones alphabetically after."""
    order = _VALUE_ORDER.get(slice_name, [])
    rank = {v: i for i, v in enumerate(order)}
    return sorted(values, key=lambda v: (rank.get(v, len(order)), v))


def ordered_slices(names: Iterable[str]) -> list[str]:
    """Slice names: the four of CRAG first, the rest alphabetically."""
    names = list(names)
    known = [s for s in SLICE_ORDER if s in names]
    return known + sorted(n for n in names if n not in SLICE_ORDER)


def slice_title(name: str) -> str:
    """A slice name as a heading."""
    return SLICE_TITLES.get(name, name.replace("_", " ").capitalize())


def _facts(run: RunView) -> RunFacts:
    h = run.header
    spec = h.spec if h is not None else {}
    pipeline = spec.get("pipeline")
    pipeline_name = str(pipeline.get("name", "")) if isinstance(pipeline, dict) else ""
    scoring = spec.get("scoring")
    judge = ""
    if isinstance(scoring, dict) and scoring.get("judge") is not None:
        judge = str(scoring["judge"])
    if run.results.scoring is not None and run.results.scoring.judge:
        judge = run.results.scoring.judge
    models = dict(h.models) if h is not None else {}
    answer_model = str(spec.get("llm", "") or "")
    identity = models.get("answer")
    if identity and identity != answer_model:
        # The identity (weights hash, server + model) says more than the spec when set.
        in_identity = answer_model and answer_model in identity
        answer_model = (
            f"{answer_model} ({identity})" if answer_model and not in_identity else identity
        )
    data = h.data if h is not None else None
    return RunFacts(
        name=run.name,
        path=str(run.path),
        created=h.created if h is not None else "",
        description=str(spec.get("description", "") or ""),
        ragmeter_version=h.ragmeter_version if h is not None else "",
        spec_hash=h.spec_hash if h is not None else "",
        pipeline=pipeline_name,
        answer_model=answer_model,
        judge=judge,
        models=models,
        data_path=data.path if data is not None else "",
        data_format=data.format if data is not None else "",
        data_sha256=data.sha256 if data is not None else "",
        selected=data.selected if data is not None else None,
        executor=h.executor if h is not None else "",
    )


def _headline(run: RunView) -> Headline:
    r = run.results
    counts = dict(r.counts)
    if not counts and run.samples:
        counts = dict(Counter(s.label for s in run.samples))
    return Headline(
        n=r.n,
        n_scored=r.n_scored,
        score=_metric(r.score),
        accuracy=_metric(r.accuracy),
        hallucination=_metric(r.hallucination),
        missing=_metric(r.missing),
        counts=counts,
        unscored=r.unscored_summary.count or r.unscored,
        unscored_reasons=dict(r.unscored_summary.reasons),
        truthfulness=_metric(r.human.truthfulness) if r.human is not None else None,
        human_agreement=r.human.agreement if r.human is not None else None,
        weighted_question_type=r.weighted.question_type if r.weighted is not None else None,
        domain_mean=r.weighted.domain_mean if r.weighted is not None else None,
        confidence=r.scoring.confidence if r.scoring is not None else 0.95,
    )


def _as_float(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return None
    f = float(v)
    return f if math.isfinite(f) else None


def _walk_block(
    prefix: str, data: dict[str, Any], metrics: list[BlockMetric], info: dict[str, str], depth: int
) -> None:
    for key, value in data.items():
        name = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            if "value" in value and (
                value["value"] is None or _as_float(value["value"]) is not None
            ):
                metrics.append(
                    BlockMetric(
                        name=name,
                        value=_as_float(value["value"]),
                        low=_as_float(value.get("ci_low", value.get("low"))),
                        high=_as_float(value.get("ci_high", value.get("high"))),
                    )
                )
            elif depth < 3:
                _walk_block(name, value, metrics, info, depth + 1)
        elif _as_float(value) is not None:
            metrics.append(BlockMetric(name=name, value=_as_float(value)))
        elif isinstance(value, str) and len(value) <= 200:
            info[name] = value


def _extra_block(key: str, data: dict[str, Any]) -> ExtraBlock:
    metrics: list[BlockMetric] = []
    info: dict[str, str] = {}
    _walk_block("", data, metrics, info, 0)

    # Trust-Score's headline figures first, then other metrics with intervals, then counts.
    def rank(m: BlockMetric) -> tuple[int, int]:
        last = m.name.split(".")[-1].lower()
        if last in _BLOCK_FIRST:
            return (0, _BLOCK_FIRST.index(last))
        return (1 if m.low is not None else 2, 0)

    metrics.sort(key=rank)
    if "trust" in key.lower():
        title = "Trust-Score"
    elif key == "more_metrics":
        title = "More metrics"
    else:
        title = key.replace("_", " ").capitalize()
    return ExtraBlock(
        key=key,
        title=title,
        metrics=metrics[:MAX_EXTRA_METRICS],
        info=info,
        omitted=max(0, len(metrics) - MAX_EXTRA_METRICS),
    )


def _slice_row(value: str, s: SliceView) -> SliceRow:
    return SliceRow(
        value=value,
        n=s.n,
        n_scored=s.n_scored,
        score=_metric(s.score),
        accuracy=_metric(s.accuracy),
        hallucination=_metric(s.hallucination),
        missing=_metric(s.missing),
    )


def _slices(run: RunView) -> dict[str, list[SliceRow]]:
    out: dict[str, list[SliceRow]] = {}
    for name in ordered_slices(run.results.slices):
        by_value = run.results.slices[name]
        out[name] = [_slice_row(v, by_value[v]) for v in ordered_values(name, by_value)]
    return out


def _cost(samples: Sequence[SampleView]) -> CostSummary:
    seconds = [s.seconds for s in samples if s.seconds is not None]
    per_stage: dict[str, list[float]] = {}
    tokens: dict[str, list[int]] = {}
    prompt = completion = 0
    for s in samples:
        for stage, t in s.all_stages.items():
            per_stage.setdefault(stage, []).append(t.seconds)
            tok = tokens.setdefault(stage, [0, 0])
            tok[0] += t.usage.prompt_tokens
            tok[1] += t.usage.completion_tokens
            prompt += t.usage.prompt_tokens
            completion += t.usage.completion_tokens
    stages = [
        StageCost(
            stage=stage,
            questions=len(vals),
            seconds_total=sum(vals),
            seconds_mean=sum(vals) / len(vals),
            seconds_p50=percentile(vals, 50),
            seconds_p95=percentile(vals, 95),
            prompt_tokens=tokens[stage][0],
            completion_tokens=tokens[stage][1],
        )
        for stage, vals in per_stage.items()
    ]
    reasons: Counter[str] = Counter()
    for s in samples:
        if s.missing_reason:
            # "time budget of 30 s exceeded" and "error: ..." group by their kind.
            reasons[s.missing_reason.split(":", 1)[0].strip()[:80]] += 1
    n = len(samples)
    return CostSummary(
        questions=n,
        timed=len(seconds),
        seconds_total=sum(seconds),
        seconds_mean=sum(seconds) / len(seconds) if seconds else None,
        seconds_p50=percentile(seconds, 50),
        seconds_p95=percentile(seconds, 95),
        seconds_max=max(seconds) if seconds else None,
        prompt_tokens=prompt,
        completion_tokens=completion,
        tokens_per_question=(prompt + completion) / n if n and (prompt or completion) else None,
        stages=stages,
        errors=sum(1 for s in samples if s.error),
        missing_reasons=dict(reasons.most_common()),
    )


def _with_usage(cost: CostSummary, run: RunView) -> CostSummary:
    """The cost summary with the run's tokens and money per stage, when results.json has them."""
    usage = run.results.usage
    if usage is None or not usage.stages:
        return cost
    rows = [
        PricedStage(
            stage=name,
            prompt_tokens=u.prompt_tokens,
            completion_tokens=u.completion_tokens,
            cost=u.cost,
        )
        for name, u in [*usage.stages.items(), ("total", usage.total)]
    ]
    return cost.model_copy(update={"priced": rows, "currency": usage.currency})


def _notes(run: RunView) -> list[str]:
    r = run.results
    notes = list(r.warnings)
    sc = r.scoring
    if sc is not None and sc.approximate:
        note = "labels are a rules-only approximation: unmatched answers count incorrect"
        if not any("approximat" in w for w in notes):
            notes.append(note)
    if sc is not None and sc.truncation is not None and sc.truncation.fallback:
        note = f"predictions were cut with the fallback tokenizer ({sc.truncation.tokenizer})"
        if not any("tokenizer" in w for w in notes):
            notes.append(note)
    if run.samples and len(run.samples) != r.n:
        notes.append(
            f"the journal holds {len(run.samples)} questions but the results count {r.n}: "
            "re-score the run to bring them in line"
        )
    if not run.samples:
        notes.append("no per-question records (samples.jsonl) in the run folder")
    return notes


def _flagged(run: RunView) -> list[FlaggedQuestion]:
    by_id = {s.id: s for s in run.samples}
    ids = list(run.results.manipulation.ids)
    ids += [s.id for s in run.samples if s.rule == "manipulation" and s.id not in ids]
    out = []
    for qid in ids:
        s = by_id.get(qid)
        out.append(
            FlaggedQuestion(
                id=qid,
                query=s.query if s is not None else "",
                detail=(s.rule_detail or "") if s is not None else "",
            )
        )
    return out


def _judge_agreement(run: RunView) -> str:
    sc = run.results.scoring
    if sc is None:
        return ""
    if sc.panel is not None and sc.panel.rate is not None:
        kappa = "n/a" if sc.panel.kappa is None else f"{sc.panel.kappa:.2f}"
        split = 0.0 if sc.panel.split_share is None else sc.panel.split_share
        return (
            f"{len(sc.judges) or 'several'} judges agree on {100 * sc.panel.rate:.1f}% of verdicts "
            f"(Fleiss' kappa {kappa}) and split on {100 * split:.1f}% of the "
            f"{sc.panel.n} questions they decided"
        )
    ma = sc.measured_agreement
    if ma is not None and ma.accuracy is not None:
        kappa = "n/a" if ma.kappa is None else f"{ma.kappa:.2f}"
        return (
            f"this judge agrees with careful graders on {100 * ma.accuracy:.1f}% of {ma.n} real "
            f"answers (kappa {kappa}; shipped {ma.suite} set, {ma.split} split)"
        )
    if sc.judges and not sc.approximate:
        return "this judge's agreement with careful graders has not been measured"
    return ""


def ordered_categories(names: Iterable[str]) -> list[str]:
    """Category names in the diagnosis' order, unknown ones alphabetically after."""
    names = set(names)
    known = [c for c in CATEGORY_ORDER if c in names]
    return known + sorted(names - set(CATEGORY_ORDER))


def _category_row(value: str, table: CategoryTableView, categories: Sequence[str]) -> CategoryRow:
    cells = []
    for name in categories:
        c = table.categories.get(name)
        cells.append(
            CategoryCell(
                category=name,
                count=c.count if c is not None else 0,
                share=c.share if c is not None else 0.0,
                score_points=c.score_points if c is not None else 0.0,
                points_short=c.points_short if c is not None else 0.0,
            )
        )
    return CategoryRow(value=value, n=table.n, cells=cells)


def _diagnosis(block: DiagnosisView) -> Diagnosis:
    seen = set(block.overall.categories)
    for values in block.slices.values():
        for table in values.values():
            seen |= set(table.categories)
    names = ordered_categories(seen)
    slices = {
        name: [
            _category_row(v, block.slices[name][v], names)
            for v in ordered_values(name, block.slices[name])
        ]
        for name in ordered_slices(block.slices)
    }
    return Diagnosis(
        n=block.n,
        nli=block.nli,
        categories=[CategoryInfo(name=c, description=block.descriptions.get(c, "")) for c in names],
        overall=_category_row("all questions", block.overall, names),
        slices=slices,
        answer_in_pages=block.answer_in_pages,
        answer_in_evidence=block.answer_in_evidence,
        supported=block.supported,
    )


def _nearest_point(curve: Sequence[CurvePoint], threshold: float) -> CurvePoint | None:
    # The curve may be thinned to ~100 thresholds: the nearest one stands for the choice.
    if not curve:
        return None
    return min(curve, key=lambda p: abs(p.threshold - threshold))


def _abstention(block: AbstentionView) -> Abstention:
    curve = [
        CurvePoint(
            threshold=p.threshold,
            coverage=p.coverage,
            score=p.score,
            accuracy=p.accuracy,
            hallucination=p.hallucination,
        )
        for p in block.curve
    ]
    out = Abstention(
        n=block.n,
        with_confidence=block.with_confidence,
        auroc=block.auroc,
        curve=curve,
        abstain_below=block.abstain_below,
        pipeline_raw_score=_metric(block.raw_score),
    )
    ch = block.choice
    if ch is None:
        return out
    low, high = ch.threshold_ci if ch.threshold_ci is not None else (None, None)
    return out.model_copy(
        update={
            "threshold": Metric(value=ch.threshold, low=low, high=high),
            "chosen": _nearest_point(curve, ch.threshold),
            "in_sample_score": ch.in_sample_score,
            "cv_score": _metric(ch.cv_score),
            "cv_gain": _metric(ch.cv_gain),
            "raw_score": ch.raw_score,
            "folds": ch.folds,
        }
    )


def curve_sample(a: Abstention, rows: int = 11) -> list[CurvePoint]:
    """About ``rows`` points of the curve, evenly spread over coverage, with the chosen one.

    For a table: the point nearest each of 100%, 90%, ... 0% coverage kept, each once.
    """
    if len(a.curve) <= rows:
        picked = list(a.curve)
    else:
        picked = []
        for k in range(rows):
            target = 1.0 - k / (rows - 1)
            p = min(a.curve, key=lambda c: abs(c.coverage - target))
            if p not in picked:
                picked.append(p)
    if a.chosen is not None and a.chosen not in picked:
        picked.append(a.chosen)
    return sorted(picked, key=lambda p: (-p.coverage, p.threshold))


def summarize_run(run: RunView) -> RunSummary:
    """Everything the report says about one run."""
    diagnosis = run.results.diagnosis
    abstention = run.results.abstention
    return RunSummary(
        facts=_facts(run),
        headline=_headline(run),
        blocks=[_extra_block(k, v) for k, v in run.results.extra_blocks.items()],
        slices=_slices(run),
        cost=_with_usage(_cost(run.samples), run),
        notes=_notes(run),
        flagged=_flagged(run),
        judge_agreement=_judge_agreement(run),
        diagnosis=_diagnosis(diagnosis) if diagnosis is not None else None,
        abstention=_abstention(abstention) if abstention is not None else None,
    )


def _trust_value(summary: RunSummary) -> float | None:
    for block in summary.blocks:
        if block.title != "Trust-Score":
            continue
        for m in block.metrics:
            if m.name.lower().split(".")[-1] in ("trust", "trust_score"):
                return m.value
    return None


def _sort_key(s: RunSummary) -> tuple[float, str]:
    score = s.headline.score.value if s.headline.score is not None else None
    return (-(score if score is not None else -math.inf), s.facts.name)


def _leaderboard(summaries: list[RunSummary]) -> list[LeaderRow]:
    rows = []
    for rank, s in enumerate(sorted(summaries, key=_sort_key), start=1):
        h = s.headline
        rows.append(
            LeaderRow(
                rank=rank,
                name=s.facts.name,
                n=h.n,
                score=h.score,
                accuracy=h.accuracy,
                hallucination=h.hallucination,
                missing=h.missing,
                trust=_trust_value(s),
                seconds_p50=s.cost.seconds_p50,
                tokens_per_question=s.cost.tokens_per_question,
            )
        )
    return rows


def _diff(base: list[float], other: list[float]) -> Metric | None:
    d = paired_difference(base, other)
    return Metric(value=d[0], low=d[1], high=d[2]) if d is not None else None


def _paired(
    base: dict[str, SampleView], other: dict[str, SampleView], ids: Iterable[str]
) -> tuple[list[float], list[float]]:
    a: list[float] = []
    b: list[float] = []
    for i in ids:
        x, y = base.get(i), other.get(i)
        if x is None or y is None:
            continue
        sx, sy = LABEL_SCORES.get(x.label), LABEL_SCORES.get(y.label)
        if sx is None or sy is None:
            continue
        a.append(float(sx))
        b.append(float(sy))
    return a, b


def _mean_score(samples: Iterable[SampleView | None]) -> float | None:
    vals = [LABEL_SCORES[s.label] for s in samples if s is not None and s.label in LABEL_SCORES]
    return sum(vals) / len(vals) if vals else None


def _flip_rank(labels: list[str | None]) -> int:
    # Correct ↔ incorrect flips first: they are the ones worth reading.
    present = set(labels)
    return 0 if {"correct", "incorrect"} <= present else 1


def compare(runs: Sequence[RunView], summaries: list[RunSummary]) -> Comparison:
    """Leaderboard, paired differences from the first run, and flipped labels."""
    by_id = [{s.id: s for s in r.samples} for r in runs]
    base = by_id[0]
    base_order = [s.id for s in runs[0].samples]
    common = [i for i in base_order if all(i in m for m in by_id[1:])]
    overall = [_diff(*_paired(base, other, base_order)) for other in by_id[1:]]

    slice_diffs: list[SliceDiff] = []
    for name in SLICE_ORDER:
        groups: dict[str, list[str]] = {}
        for s in runs[0].samples:
            v = getattr(s.labels, name)
            if v not in (None, ""):
                groups.setdefault(str(v), []).append(s.id)
        for value in ordered_values(name, groups):
            ids = groups[value]
            pairs = [_paired(base, other, ids) for other in by_id[1:]]
            slice_diffs.append(
                SliceDiff(
                    slice=name,
                    value=value,
                    n_pairs=[len(p[0]) for p in pairs],
                    scores=[_mean_score(m.get(i) for i in ids) for m in by_id],
                    diffs=[_diff(*p) for p in pairs],
                )
            )

    transitions: list[dict[str, int]] = []
    for other in by_id[1:]:
        c: Counter[str] = Counter()
        for i in base_order:
            if i in other and other[i].label != base[i].label:
                c[f"{base[i].label}→{other[i].label}"] += 1
        transitions.append(dict(c.most_common()))

    all_ids = list(base_order)
    seen = set(all_ids)
    for r in runs[1:]:
        for s in r.samples:
            if s.id not in seen:
                seen.add(s.id)
                all_ids.append(s.id)
    flips: list[Flip] = []
    for i in all_ids:
        labels: list[str | None] = [m[i].label if i in m else None for m in by_id]
        present = [x for x in labels if x is not None]
        if len(present) > 1 and len(set(present)) > 1:
            query = next((m[i].query for m in by_id if i in m), "")
            flips.append(Flip(id=i, query=query, labels=labels))
    flips.sort(key=lambda f: _flip_rank(f.labels))

    return Comparison(
        baseline=runs[0].name,
        runs=[r.name for r in runs],
        leaderboard=_leaderboard(summaries),
        common=len(common),
        overall=overall,
        slice_diffs=slice_diffs,
        transitions=transitions,
        flips=flips,
    )


def build_report(runs: Sequence[RunView]) -> Report:
    """The report of one or more runs; with several, the first is the comparison's baseline."""
    summaries = [summarize_run(r) for r in runs]
    comparison = compare(runs, summaries) if len(runs) > 1 else None
    return Report(ragmeter_version=__version__, runs=summaries, comparison=comparison)
