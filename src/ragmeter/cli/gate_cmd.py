"""``ragmeter gate``: fail a pull request on a real regression, not on noise."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import typer


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def gate(
    run_dir: Path = typer.Argument(..., help="The scored run folder to check."),
    baseline: Path | None = typer.Option(
        None, "--baseline", help="A run folder on the same questions to compare with."
    ),
    require: list[str] = typer.Option(
        [],
        "--require",
        help="A threshold, e.g. 'score>=0.10' or 'hallucination<=30%' (repeatable); fails "
        "only when the whole interval lies on the wrong side.",
    ),
    no_worse: list[str] = typer.Option(
        [],
        "--no-worse",
        help="A metric that must not regress against --baseline (repeatable): fails only when "
        "the paired interval of the difference excludes zero.",
    ),
    level: float = typer.Option(0.95, "--level", help="Confidence level of the intervals."),
    resamples: int = typer.Option(2000, "--resamples", help="Bootstrap resamples."),
    seed: int = typer.Option(0, "--seed", help="Bootstrap seed."),
    json_out: bool = typer.Option(False, "--json", help="Print the verdict as JSON."),
    markdown: Path | None = typer.Option(
        None, "--markdown", help="Also write the verdict as a pull-request comment (Markdown)."
    ),
) -> None:
    """Check RUN_DIR: exit 0 when every check holds, 1 when one fails, 2 on bad input."""
    from ragmeter.gate import check_gate, gate_markdown, gate_text

    report = check_gate(
        run_dir,
        baseline=baseline,
        require=require,
        no_worse=no_worse,
        level=level,
        resamples=resamples,
        seed=seed,
    )
    if markdown is not None:
        _write_atomic(markdown, gate_markdown(report))
    typer.echo(report.model_dump_json(indent=2) if json_out else gate_text(report))
    if not report.passed:
        raise typer.Exit(1)
