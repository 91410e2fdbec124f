"""From scored samples to results: overall and per-slice metrics with bootstrap intervals.

Rates are over the *scored* samples; unscored ones are counted (with their
reasons) beside them and never folded into a rate. The per-sample CRAG score
is +1 correct, 0 missing, −1 incorrect, so ``score = accuracy − hallucination``
and its interval comes from the same resampling.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import Field, ValidationError

from ragmeter.config import load_yaml_file
from ragmeter.errors import ConfigError
from ragmeter.scoring.bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED, estimate
from ragmeter.scoring.crag.panel import measured_agreement, panel_agreement
from ragmeter.scoring.crag.records import (
    HumanLabel,
    HumanScaleResult,
    LabelCounts,
    ManipulationSummary,
    Results,
    ScoredSample,
    ScoringInfo,
    SliceResult,
    UnscoredSummary,
    WeightedScores,
)
from ragmeter.types import Record

__all__ = [
    "HUMAN_SCALE",
    "SLICE_NAMES",
    "TrafficWeights",
    "aggregate",
    "human_scale",
    "load_weights",
    "manipulation_summary",
    "slice_metrics",
    "weighted_scores",
]

SLICE_NAMES = ("domain", "question_type", "static_or_dynamic", "popularity", "split", "answer_type")
HUMAN_SCALE: dict[str, float] = {
    "perfect": 1.0,
    "acceptable": 0.5,
    "missing": 0.0,
    "incorrect": -1.0,
}
_HUMAN_AS_LABEL = {
    "perfect": "correct",
    "acceptable": "correct",
    "missing": "missing",
    "incorrect": "incorrect",
}


class TrafficWeights(Record):
    """A weights file: per question type, optionally per domain and question type.

    The KDD Cup 2024 weighted every question by how often its kind of question
    occurs in real traffic (per domain and question type) and then averaged the
    domains with equal weight; the weights themselves were not published, so
    users supply theirs in this format (YAML or JSON).
    """

    name: str = ""
    question_type: dict[str, float] = Field(default_factory=dict)
    domain_question_type: dict[str, dict[str, float]] = Field(default_factory=dict)
    """Overrides ``question_type`` within a domain."""

    def weight(self, domain: str | None, question_type: str | None) -> float | None:
        """The weight of a question, or None when the file does not cover it."""
        if question_type is None:
            return None
        if domain is not None and domain in self.domain_question_type:
            w = self.domain_question_type[domain].get(question_type)
            if w is not None:
                return w
        return self.question_type.get(question_type)


def load_weights(path: str | Path) -> TrafficWeights:
    """Read and check a weights file (YAML or JSON); weights must be finite and ≥ 0."""
    data: Any = load_yaml_file(path)
    try:
        weights = TrafficWeights.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(f"{path}: invalid weights file: {exc.errors()[0]['msg']}") from None
    values = list(weights.question_type.values()) + [
        w for d in weights.domain_question_type.values() for w in d.values()
    ]
    if not values:
        raise ConfigError(f"{path}: the weights file defines no weights")
    if any(not np.isfinite(w) or w < 0 for w in values):
        raise ConfigError(f"{path}: weights must be finite and not negative")
    if not weights.name:
        weights = weights.model_copy(update={"name": str(path)})
    return weights


def _columns(samples: Sequence[ScoredSample]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    labels = [s.label for s in samples if s.label != "unscored"]
    acc = np.array([lab == "correct" for lab in labels], dtype=np.float64)
    hal = np.array([lab == "incorrect" for lab in labels], dtype=np.float64)
    mis = np.array([lab == "missing" for lab in labels], dtype=np.float64)
    return acc, hal, mis


def slice_metrics(
    samples: Sequence[ScoredSample],
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> SliceResult:
    """n, accuracy, hallucination, missing and score (each with its interval) of ``samples``."""
    acc, hal, mis = _columns(samples)
    kw: dict[str, Any] = {"n_resamples": n_resamples, "seed": seed}
    return SliceResult(
        n=len(samples),
        n_scored=int(acc.size),
        accuracy=estimate(acc, **kw),
        hallucination=estimate(hal, **kw),
        missing=estimate(mis, **kw),
        score=estimate(acc - hal, **kw),
        unscored=len(samples) - int(acc.size),
        manipulation=sum(1 for s in samples if s.rule == "manipulation"),
    )


_MAX_FLAGGED_IDS = 200


def manipulation_summary(samples: Sequence[ScoredSample]) -> ManipulationSummary:
    """The predictions the manipulation screen flagged, by pattern."""
    flagged = [s for s in samples if s.rule == "manipulation"]
    patterns = Counter((s.rule_detail or "").split(":", 1)[0] or "unknown" for s in flagged)
    return ManipulationSummary(
        count=len(flagged),
        by_pattern=dict(sorted(patterns.items())),
        ids=[s.id for s in flagged[:_MAX_FLAGGED_IDS]],
    )


def _slice_value(sample: ScoredSample, name: str) -> str | None:
    value = getattr(sample.labels, name)
    if value is None or value == "":
        return None
    return str(value)


def human_scale(
    samples: Sequence[ScoredSample],
    labels: Mapping[str, HumanLabel],
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> HumanScaleResult:
    """Truthfulness on the human scale over the samples that have a human label.

    Also the share of those samples whose automatic label agrees with the
    human one (perfect and acceptable both count as correct).
    """
    by_id = {s.id: s for s in samples}
    values: list[float] = []
    counts: Counter[str] = Counter()
    agree = compared = 0
    for sid, human in labels.items():
        sample = by_id.get(sid)
        if sample is None:
            continue
        values.append(HUMAN_SCALE[human])
        counts[human] += 1
        if sample.label != "unscored":
            compared += 1
            agree += int(_HUMAN_AS_LABEL[human] == sample.label)
    return HumanScaleResult(
        n=len(values),
        truthfulness=estimate(values, n_resamples=n_resamples, seed=seed),
        counts={k: counts.get(k, 0) for k in HUMAN_SCALE},
        agreement=agree / compared if compared else None,
        unmatched_ids=sum(1 for sid in labels if sid not in by_id),
    )


def _mean_score(samples: Sequence[ScoredSample]) -> float | None:
    scores = [s.score for s in samples if s.score is not None]
    return float(np.mean(scores)) if scores else None


def weighted_scores(
    samples: Sequence[ScoredSample], weights: TrafficWeights | None
) -> WeightedScores:
    """Traffic-weighted score per question type, and the equal-weight mean over domains.

    Without weights only ``domain_mean`` (the unweighted mean of the per-domain
    scores) is filled. With weights, ``domain_mean`` weights the questions within
    each domain first, as the KDD Cup did.
    """
    scored = [s for s in samples if s.score is not None]
    missing: set[str] = set()
    question_type_score: float | None = None
    qt_weights: dict[str, float] = {}

    def w_of(s: ScoredSample) -> float | None:
        assert weights is not None
        w = weights.weight(s.labels.domain, s.labels.question_type)
        if w is None:
            missing.add(f"{s.labels.domain}/{s.labels.question_type}")
        return w

    if weights is not None:
        pairs = [(w, s.score) for s in scored if (w := w_of(s)) is not None]
        total = sum(w for w, _ in pairs)
        if total > 0:
            question_type_score = sum(w * float(sc) for w, sc in pairs if sc is not None) / total
        qt_weights = dict(weights.question_type)

    by_domain: dict[str, list[ScoredSample]] = defaultdict(list)
    for s in scored:
        if s.labels.domain:
            by_domain[s.labels.domain].append(s)
    domain_scores: list[float] = []
    for members in by_domain.values():
        if weights is None:
            m = _mean_score(members)
        else:
            pairs = [(w, s.score) for s in members if (w := w_of(s)) is not None]
            total = sum(w for w, _ in pairs)
            m = sum(w * float(sc) for w, sc in pairs if sc is not None) / total if total else None
        if m is not None:
            domain_scores.append(m)
    return WeightedScores(
        source=weights.name if weights is not None else "",
        question_type=question_type_score,
        question_type_weights=qt_weights,
        missing_weights=sorted(missing),
        domain_mean=float(np.mean(domain_scores)) if domain_scores else None,
    )


def aggregate(
    samples: Sequence[ScoredSample],
    info: ScoringInfo,
    *,
    human: Mapping[str, HumanLabel] | None = None,
    weights: TrafficWeights | None = None,
    warnings: Sequence[str] = (),
) -> Results:
    """The whole `Results` of a scored set."""
    n_res, seed = info.bootstrap_resamples, info.bootstrap_seed
    overall = slice_metrics(samples, n_resamples=n_res, seed=seed)
    label_counts = Counter(s.label for s in samples)
    reasons = Counter(s.unscored_reason or "unknown" for s in samples if s.label == "unscored")
    slices: dict[str, dict[str, SliceResult]] = {}
    for name in SLICE_NAMES:
        groups: dict[str, list[ScoredSample]] = defaultdict(list)
        for s in samples:
            value = _slice_value(s, name)
            if value is not None:
                groups[value].append(s)
        if groups:
            slices[name] = {
                value: slice_metrics(members, n_resamples=n_res, seed=seed)
                for value, members in sorted(groups.items())
            }
    rules_settled = sum(1 for s in samples if s.rule is not None)
    agreements = [s.agreement for s in samples if s.agreement is not None]
    info = info.model_copy(
        update={
            "rules_share": rules_settled / len(samples) if samples else None,
            "rules": dict(sorted(Counter(s.rule for s in samples if s.rule).items())),
            "judge_agreement": sum(agreements) / len(agreements) if agreements else None,
            "unanimous_share": (
                sum(a == 1.0 for a in agreements) / len(agreements) if agreements else None
            ),
            "panel": panel_agreement(samples),
            "measured_agreement": measured_agreement(info.judges),
        }
    )
    all_warnings = list(warnings)
    if info.approximate:
        all_warnings.append(
            "rules only: predictions that no rule settled count incorrect (an approximation)"
        )
    if info.truncation.fallback:
        all_warnings.append(
            "the Llama-2 tokenizer was not found: predictions were cut at 75 words and "
            "punctuation marks instead of 75 tokens"
        )
    if overall.unscored:
        all_warnings.append(f"{overall.unscored} sample(s) could not be scored (see 'unscored')")
    manipulation = manipulation_summary(samples)
    if manipulation.count:
        all_warnings.append(
            f"{manipulation.count} prediction(s) addressed the grader or forged a verdict "
            "(counted incorrect; see 'manipulation')"
        )
    if info.panel is not None and info.panel.split_share:
        all_warnings.append(
            f"the judges split on {100 * info.panel.split_share:.1f}% of the questions they "
            "decided (see scoring.panel)"
        )
    if info.unknown_predictions.count:
        all_warnings.append(
            f"{info.unknown_predictions.count} prediction(s) name ids that are not in the data set"
        )
    return Results(
        n=overall.n,
        n_scored=overall.n_scored,
        accuracy=overall.accuracy,
        hallucination=overall.hallucination,
        missing=overall.missing,
        score=overall.score,
        unscored=UnscoredSummary(count=overall.unscored, reasons=dict(reasons)),
        manipulation=manipulation,
        counts=LabelCounts(
            correct=label_counts.get("correct", 0),
            incorrect=label_counts.get("incorrect", 0),
            missing=label_counts.get("missing", 0),
            unscored=label_counts.get("unscored", 0),
        ),
        slices=slices,
        human=human_scale(samples, human, n_resamples=n_res, seed=seed) if human else None,
        weighted=weighted_scores(samples, weights),
        scoring=info,
        warnings=all_warnings,
    )
