"""``ragmeter judge-check preferences`` and ``spans``: our metrics against qa-feedback's humans.

Both subcommands attach to the ``judge-check`` group of `ragmeter.cli.judge_cmd`.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import typer

from ragmeter.cli.judge_cmd import app
from ragmeter.errors import ConfigError
from ragmeter.types import Question

_DATA_HELP = "A qa-feedback *_feedback file (JSON array or JSON Lines, optionally compressed)."
_NLI_HELP = "The NLI model for NLI-based metrics: local, or openai:MODEL@BASE_URL."


def _questions(data: Path, limit: int | None) -> list[Question]:
    from ragmeter.data.qa_feedback import read_qa_feedback

    if not data.exists():
        raise ConfigError(f"no such file: {data}")
    out: list[Question] = []
    for q in read_qa_feedback(data):
        if limit is not None and len(out) >= limit:
            break
        out.append(q)
    return out


def _nli(needed: bool, spec: str, cache: bool, cache_path: Path | None) -> Any:
    if not needed:
        return None
    from ragmeter.scoring.attribution.nli import load_nli

    return load_nli(
        spec, cache=(cache_path if cache_path is not None else True) if cache else False
    )


@app.command("preferences")
def preferences(
    data: Path = typer.Option(..., "--data", help=_DATA_HELP),
    metric: str = typer.Option("default", "--metric", help="Metric name (see --list)."),
    json_out: bool = typer.Option(
        False, "--json", help='Print {"n_pairs", "agreement", "baselines": {...}} as JSON.'
    ),
    nli_spec: str = typer.Option("local", "--nli", help=_NLI_HELP),
    cache: bool = typer.Option(True, "--cache/--no-cache", help="Use the response cache."),
    cache_path: Path | None = typer.Option(None, "--cache-path", help="Response cache file."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N questions."),
) -> None:
    """Agreement of a metric with the human pairwise preferences among four predictions."""
    from ragmeter.scoring.meta.feedback import PREFERENCE_METRICS, check_preferences

    spec = PREFERENCE_METRICS.get(metric)
    questions = _questions(data, limit)
    baselines = ("rougeL", "length")
    needs = spec.needs_nli or any(PREFERENCE_METRICS.get(b).needs_nli for b in baselines)
    nli = _nli(needs, nli_spec, cache, cache_path)

    async def go() -> Any:
        try:
            return await check_preferences(questions, metric, nli, baselines=baselines)
        finally:
            if nli is not None:
                await nli.aclose()

    try:
        result = asyncio.run(go())
    except ValueError as exc:
        raise ConfigError(f"{data}: {exc}") from exc
    if json_out:
        out = {"n_pairs": result.n_pairs, "agreement": result.agreement}
        out["baselines"] = result.baselines
        out.update(
            metric=result.metric,
            n_questions=result.n_questions,
            n_human_ties=result.n_human_ties,
            metric_ties=result.metric_ties,
            interval=result.interval.model_dump(),
            skipped=result.skipped,
        )
        typer.echo(json.dumps(out))
        return
    iv = result.interval
    typer.echo(
        f"{result.metric}: agreement {result.agreement:.3f} "
        f"[{iv.ci_low:.3f}, {iv.ci_high:.3f}] on {result.n_pairs} preference pairs "
        f"({result.n_questions} questions, {result.n_human_ties} human ties left out, "
        f"{result.metric_ties} metric ties counted half)"
    )
    for name, value in result.baselines.items():
        typer.echo(f"  baseline {name}: {value:.3f}")
    if result.skipped:
        typer.echo(f"  skipped questions: {result.skipped}")


@app.command("spans")
def spans(
    data: Path = typer.Option(..., "--data", help=_DATA_HELP),
    detector: str = typer.Option("default", "--detector", help="Detector name: nli, lexical..."),
    json_out: bool = typer.Option(False, "--json", help="Print the scores as JSON."),
    nli_spec: str = typer.Option("local", "--nli", help=_NLI_HELP),
    cache: bool = typer.Option(True, "--cache/--no-cache", help="Use the response cache."),
    cache_path: Path | None = typer.Option(None, "--cache-path", help="Response cache file."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N questions."),
) -> None:
    """Sentence-level detection of the content humans marked unsupported in prediction 1."""
    from ragmeter.scoring.meta.feedback import SPAN_DETECTORS, check_spans

    spec = SPAN_DETECTORS.get(detector)
    questions = _questions(data, limit)
    needs = spec.needs_nli or SPAN_DETECTORS.get("lexical").needs_nli
    nli = _nli(needs, nli_spec, cache, cache_path)

    async def go() -> Any:
        try:
            return await check_spans(questions, detector, nli)
        finally:
            if nli is not None:
                await nli.aclose()

    try:
        result = asyncio.run(go())
    except ValueError as exc:
        raise ConfigError(f"{data}: {exc}") from exc
    s, b = result.scores, result.baseline
    if json_out:
        out = {
            "detector": s.detector,
            "n_questions": result.n_questions,
            "n_sentences": result.n_sentences,
            "n_unsupported": result.n_unsupported,
            "precision": s.precision,
            "recall": s.recall,
            "f1": s.f1,
            "baseline": {
                "name": b.detector,
                "precision": b.precision,
                "recall": b.recall,
                "f1": b.f1,
            },
            "skipped": result.skipped,
        }
        typer.echo(json.dumps(out))
        return
    typer.echo(
        f"{result.n_sentences} sentences of prediction 1 in {result.n_questions} questions, "
        f"{result.n_unsupported} marked unsupported by humans"
    )
    for sc in (s, b):
        label = "baseline " if sc is b else ""
        typer.echo(
            f"  {label}{sc.detector}: precision {sc.precision:.3f} recall {sc.recall:.3f} "
            f"F1 {sc.f1:.3f} ({sc.flagged} flagged)"
        )
    if result.skipped:
        typer.echo(f"  skipped questions: {result.skipped}")
