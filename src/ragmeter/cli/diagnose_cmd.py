"""``ragmeter diagnose``: where a finished run's points went, without generating again."""

from __future__ import annotations

from pathlib import Path

import typer


def diagnose(
    run_dir: Path = typer.Argument(..., help="A finished CRAG run folder (rag, rag_kg, adapters)."),
    nli: str | None = typer.Option(
        None, "--nli", help="Model judging support (default: the run's judge, else its answerer)."
    ),
) -> None:
    """Diagnose every scored question: answer in pages / evidence, support, category."""
    import orjson

    from ragmeter.engine.diagnose import diagnose_folder
    from ragmeter.engine.journal import RESULTS, read_spec
    from ragmeter.engine.report_hook import write_report
    from ragmeter.engine.runner import finish
    from ragmeter.engine.summary import analysis_lines

    path = diagnose_folder(run_dir, nli)
    spec = read_spec(run_dir)
    finish(run_dir, spec)
    for line in analysis_lines(orjson.loads((run_dir / RESULTS).read_bytes())):
        if line.startswith("where the points went"):
            typer.echo(line)
    typer.echo(f"wrote {path} and the diagnosis block of {run_dir / RESULTS}")
    report = write_report(run_dir) if spec.report else None
    if report is not None:
        typer.echo(f"report: {report}")
