"""``ragmeter export``: a run folder into an experiment tracker."""

from __future__ import annotations

from pathlib import Path

import typer

from ragmeter.errors import ConfigError


def export(
    run_dir: Path = typer.Argument(..., help="The scored run folder to export."),
    to: str = typer.Option("mlflow", "--to", help="Where to: mlflow (extra 'mlflow')."),
    tracking_uri: str | None = typer.Option(
        None,
        "--tracking-uri",
        help="MLflow tracking URI (a server URL, or a folder for a local file store); "
        "default: MLFLOW_TRACKING_URI.",
    ),
    experiment: str = typer.Option("ragmeter", "--experiment", help="MLflow experiment name."),
    run_name: str | None = typer.Option(None, "--run-name", help="Default: the spec's name."),
) -> None:
    """Log RUN_DIR as one tracked run: spec as parameters, figures as metrics, files too."""
    if to != "mlflow":
        raise ConfigError(f"--to {to}: the only tracker so far is 'mlflow'")
    from ragmeter.export.mlflow import export_mlflow

    run_id = export_mlflow(
        run_dir, tracking_uri=tracking_uri, experiment=experiment, run_name=run_name
    )
    typer.echo(f"mlflow run {run_id} (experiment '{experiment}')")
