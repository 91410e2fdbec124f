"""``ragmeter calibrate``: the confidence threshold below which a system should abstain."""

from __future__ import annotations

from pathlib import Path

import typer

from ragmeter.errors import UserError


def calibrate(
    run_dir: Path = typer.Argument(..., help="A CRAG run folder whose answers carry confidences."),
    signal: str | None = typer.Option(
        None,
        "--signal",
        help="Confidence signal to calibrate: self_check or answer_probability "
        "(default: the answers' own confidence).",
    ),
    folds: int = typer.Option(5, "--folds", min=2, help="Cross-validation folds."),
    seed: int = typer.Option(0, "--seed", help="Seed of the folds and the bootstrap."),
    write_spec: Path | None = typer.Option(
        None,
        "--write-spec",
        help="Write the threshold into this spec (pipeline.options.abstain_below); a new "
        "file gets the run's own spec with the threshold.",
    ),
) -> None:
    """Choose the threshold that maximises the CRAG score, estimated out of sample."""
    from ragmeter.diagnosis.abstention import abstention_points, auroc, calibrate, curve
    from ragmeter.engine.journal import read_journal
    from ragmeter.engine.summary import estimate_text
    from ragmeter.pipelines.confidence import SIGNALS

    if signal is not None and signal not in SIGNALS:
        raise UserError(f"--signal must be one of {', '.join(SIGNALS)}, got {signal!r}")
    points = abstention_points(read_journal(run_dir), signal)
    rated = [p for p in points if p.answered and p.confidence is not None]
    if not rated:
        raise UserError(
            f"{run_dir}: no answer carries a confidence"
            + (f" signal {signal!r}" if signal else "")
            + " (run a baseline with confidence on, or return one from your system)"
        )
    choice = calibrate(points, folds=folds, seed=seed)
    value = auroc(points)
    typer.echo(f"{run_dir}: {len(points)} scored questions, {len(rated)} answers with confidence")
    typer.echo(f"  AUROC (right above wrong): {'n/a' if value is None else f'{value:.3f}'}")
    low, high = choice.threshold_ci or (choice.threshold, choice.threshold)
    typer.echo(
        f"  threshold: abstain below {choice.threshold:.4f} (bootstrap {low:.3f}-{high:.3f})"
    )
    typer.echo(f"  raw score: {100 * choice.raw_score:.1f}%")
    typer.echo(f"  at the threshold, on these questions: {100 * choice.in_sample_score:.1f}%")
    typer.echo(f"  cross-validated ({choice.folds} folds): {estimate_text(choice.cv_score)}")
    typer.echo(f"  gain over raw, cross-validated: {estimate_text(choice.cv_gain)}")
    typer.echo("  coverage  threshold  score   accuracy  hallucination")
    points_of_curve = curve(points, max_points=11)
    for p in points_of_curve:
        typer.echo(
            f"  {100 * p.coverage:7.1f}%  {p.threshold:9.4f}  {100 * p.score:5.1f}%  "
            f"{100 * p.accuracy:7.1f}%  {100 * p.hallucination:12.1f}%"
        )
    if write_spec is not None:
        from ragmeter.engine.calibrated_spec import write_threshold

        write_threshold(write_spec, run_dir, choice.threshold, signal)
        typer.echo(f"wrote abstain_below: {round(choice.threshold, 4)} into {write_spec}")
