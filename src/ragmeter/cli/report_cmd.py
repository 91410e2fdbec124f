"""``ragmeter report``: a run's (or several runs') report as HTML, Markdown or JSON."""

from __future__ import annotations

from pathlib import Path

import typer


def report(
    run_dirs: list[Path] = typer.Argument(
        ...,
        help="Run folders (header.json, samples.jsonl, results.json); the first is the baseline.",
    ),
    out: Path = typer.Option(
        ..., "--out", "-o", help="Output file: .html (one self-contained page), .md or .json."
    ),
) -> None:
    """Write the report of one run, or compare several runs (leaderboard, slices, flips)."""
    from ragmeter.report import write_report

    path = write_report(run_dirs, out)
    size = path.stat().st_size
    typer.echo(
        f"wrote {path} ({size / 1e6:.2f} MB)" if size >= 1e5 else f"wrote {path} ({size:,} bytes)"
    )
