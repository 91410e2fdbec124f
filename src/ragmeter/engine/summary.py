"""The score table printed at the end of a run."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ragmeter.scoring.bootstrap import Estimate
from ragmeter.scoring.crag.records import Results

if TYPE_CHECKING:
    from ragmeter.scoring.attribution.trust import TrustResult


def estimate_text(e: Estimate) -> str:
    """A percentage with its interval: ``12.3% [8.1, 16.0]``."""
    return _pct(e)


def _pct(e: Estimate) -> str:
    if e.value is None:
        return "—"
    ci = ""
    if e.ci_low is not None and e.ci_high is not None:
        ci = f" [{100 * e.ci_low:.1f}, {100 * e.ci_high:.1f}]"
    return f"{100 * e.value:.1f}%{ci}"


def score_table(results: Results, name: str = "") -> str:
    """Accuracy, hallucination, missing and score with 95% intervals, then counts and warnings."""
    rows = [
        ("accuracy", _pct(results.accuracy)),
        ("hallucination", _pct(results.hallucination)),
        ("missing", _pct(results.missing)),
        ("score", _pct(results.score)),
    ]
    width = max(len(k) for k, _ in rows)
    title = f"{name}: " if name else ""
    lines = [f"{title}{results.n} questions, {results.n_scored} scored (95% intervals)"]
    lines += [f"  {k.ljust(width)}  {v}" for k, v in rows]
    c = results.counts
    lines.append(
        f"  counts: {c.correct} correct, {c.incorrect} incorrect, {c.missing} missing, "
        f"{c.unscored} unscored"
    )
    for reason, n in sorted(results.unscored.reasons.items()):
        lines.append(f"  unscored: {n} × {reason}")
    m = results.manipulation
    if m.count:
        shown = ", ".join(m.ids[:5]) + (" …" if len(m.ids) > 5 else "")
        lines.append(f"  manipulation: {m.count} flagged (incorrect): {shown}")
    info = results.scoring
    if info.panel is not None:
        kappa = "n/a" if info.panel.kappa is None else f"{info.panel.kappa:.2f}"
        rate = "n/a" if info.panel.rate is None else f"{100 * info.panel.rate:.1f}%"
        split = "n/a" if info.panel.split_share is None else f"{100 * info.panel.split_share:.1f}%"
        lines.append(f"  judges: agree {rate}, kappa {kappa}, split on {split} of questions")
    elif info.measured_agreement is not None:
        ma = info.measured_agreement
        kappa = "n/a" if ma.kappa is None else f"{ma.kappa:.2f}"
        lines.append(
            f"  judge: agrees with careful graders on {100 * ma.accuracy:.1f}% of "
            f"{ma.n} real answers (kappa {kappa}; {ma.suite} set, {ma.split} split)"
        )
    lines += [f"  warning: {w}" for w in results.warnings]
    return "\n".join(lines)


def trust_table(result: TrustResult, name: str = "") -> str:
    """The Trust-Score figures with 95% intervals."""
    rows = [
        ("TRUST", result.trust),
        ("grounded refusals F1", result.grounded_refusals),
        ("answer correctness F1", result.answer_correctness),
        ("grounded citations F1", result.grounded_citations),
        ("citation recall", result.citation_recall),
        ("citation precision", result.citation_precision),
    ]
    width = max(len(k) for k, _ in rows)
    title = f"{name}: " if name else ""
    lines = [
        f"{title}{result.n} questions ({result.dataset}), {result.n_answered} answered, "
        f"{result.n_answerable} answerable (95% intervals)"
    ]
    lines += [f"  {k.ljust(width)}  {_pct(v)}" for k, v in rows]
    for issue, n in result.issues.items():
        lines.append(f"  issue: {n} × {issue}")
    return "\n".join(lines)


def result_table(result: BaseModel, name: str = "") -> str:
    """The table of a run's ``results.json`` (CRAG or Trust-Score)."""
    if isinstance(result, Results):
        return score_table(result, name)
    from ragmeter.scoring.attribution.trust import TrustResult

    if isinstance(result, TrustResult):
        return trust_table(result, name)
    return result.model_dump_json(indent=2)


def analysis_lines(results: Mapping[str, Any]) -> list[str]:
    """Lines on abstention and diagnosis from a parsed ``results.json`` (none when absent)."""
    from ragmeter.diagnosis.abstention import AbstentionSummary
    from ragmeter.diagnosis.records import DiagnosisSummary

    lines: list[str] = []
    block = results.get("abstention")
    if isinstance(block, dict):
        a = AbstentionSummary.model_validate(block)
        auroc = "n/a" if a.auroc is None else f"{a.auroc:.2f}"
        if a.abstain_below is not None and a.raw_score is not None:
            lines.append(
                f"abstention: answered 'I don't know' below confidence {a.abstain_below:.3f}; "
                f"raw score of the same answers {_pct(a.raw_score)}"
            )
        if a.choice is not None:
            c = a.choice
            lines.append(
                f"abstention: confidence ranks right above wrong answers with AUROC {auroc}; "
                f"abstaining below {c.threshold:.3f} would score {_pct(c.cv_score)} "
                f"(cross-validated; raw {100 * c.raw_score:.1f}%, gain {_pct(c.cv_gain)})"
            )
    skipped = results.get("diagnosis_skipped")
    if isinstance(skipped, str):
        lines.append(f"diagnosis: not made: {skipped}")
    block = results.get("diagnosis")
    if isinstance(block, dict):
        d = DiagnosisSummary.model_validate(block)
        parts = [
            f"{name} {entry.count} ({100 * entry.score_points:+.1f} pts)"
            for name, entry in d.overall.categories.items()
            if entry.count
        ]
        lines.append(f"where the points went ({d.n} questions): " + ", ".join(parts))
    return lines
