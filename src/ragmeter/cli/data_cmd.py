"""``ragmeter data``: inspect, slice, export and fetch benchmark files."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

app = typer.Typer(help="Inspect, subsample, export and fetch benchmark data.", no_args_is_help=True)


class OnError(StrEnum):
    """What to do with a bad row."""

    raise_ = "raise"
    skip = "skip"


ON_ERROR = typer.Option(
    OnError.raise_,
    "--on-error",
    help="'raise': stop at the first bad row (exit 2); 'skip': skip bad rows and report them.",
)
FORMAT = typer.Option(
    None,
    "--format",
    help="crag, crag_task3, alce, qa_feedback, questions or predictions (default: detected).",
)


def _skips(on_error: OnError):  # type: ignore[no-untyped-def]
    from ragmeter.data.jsonl import SkipLog

    return SkipLog() if on_error == OnError.skip else None


def _report_skips(skips: object) -> None:
    from ragmeter.data.jsonl import SkipLog

    if isinstance(skips, SkipLog) and len(skips):
        typer.echo(skips.summary(), err=True)


@app.command()
def info(
    path: Path = typer.Argument(
        ..., help="A data file (.json, .jsonl, .jsonl.bz2, .gz, .xz, .tar.bz2[.partN])."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    fmt: str | None = FORMAT,
    on_error: OnError = ON_ERROR,
) -> None:
    """Format, row count and the label distributions (the CRAG paper's tables)."""
    from ragmeter.data.stats import data_info, render_text

    skips = _skips(on_error)
    result = data_info(path, fmt=fmt, skips=skips)
    if as_json:
        typer.echo(result.model_dump_json(exclude_none=True))
    else:
        typer.echo(render_text(result))
    _report_skips(skips)


@app.command()
def subsample(
    path: Path = typer.Argument(..., help="A JSON Lines or JSON array data file."),
    parts: int = typer.Option(5, "--parts", min=1, help="Number of parts K."),
    seed: int = typer.Option(0, "--seed", help="Random seed; the same seed gives the same parts."),
    out: Path = typer.Option(..., "--out", help="Folder for the K part files."),
    fmt: str | None = FORMAT,
    on_error: OnError = ON_ERROR,
    as_json: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
) -> None:
    """Split a file into K parts stratified by answer_type, domain, question_type, dynamism."""
    from ragmeter.data.subsample import subsample as split

    skips = _skips(on_error)
    result = split(path, parts=parts, seed=seed, out_dir=out, fmt=fmt, skips=skips)
    if as_json:
        typer.echo(result.model_dump_json())
    else:
        typer.echo(
            f"{result.source}: {sum(p.rows for p in result.parts)} rows, {result.strata} strata"
        )
        for p in result.parts:
            typer.echo(f"  {p.path}  {p.rows} rows")
    _report_skips(skips)


@app.command()
def export(
    path: Path = typer.Argument(..., help="A data file in any supported format."),
    out: Path = typer.Option(..., "--out", help="Output file: .jsonl[.bz2|.gz|.xz] or .parquet."),
    to: str | None = typer.Option(None, "--to", help="jsonl or parquet (default: from --out)."),
    with_html: bool = typer.Option(True, "--html/--no-html", help="Keep page HTML."),
    fmt: str | None = FORMAT,
    on_error: OnError = ON_ERROR,
) -> None:
    """Export a data set as ragmeter questions, to JSON Lines or Parquet (written atomically)."""
    from ragmeter.data.formats import read_questions
    from ragmeter.data.writers import export_questions

    skips = _skips(on_error)
    n = export_questions(out, read_questions(path, fmt, with_html=with_html, skips=skips), to)
    typer.echo(f"wrote {n} rows to {out}")
    _report_skips(skips)


@app.command("list")
def list_(as_json: bool = typer.Option(False, "--json", help="Print the catalog as JSON.")) -> None:
    """The known data sets: files, sizes, checksums, and whether a mirror holds them."""
    from ragmeter.data.fetch import find_in_mirrors, load_catalog

    catalog = load_catalog()
    if as_json:
        import orjson

        typer.echo(orjson.dumps([e.model_dump() for e in catalog.values()]).decode())
        return
    width = max(len(n) for n in catalog)
    for entry in catalog.values():
        size = entry.total_size
        size_text = f"{size / 1e6:,.1f} MB" if size is not None else "size unknown"
        mirrored = all(find_in_mirrors(f) is not None for f in entry.files)
        mark = "mirror" if mirrored else ("url" if all(f.url for f in entry.files) else "-")
        typer.echo(f"{entry.name:<{width}}  {size_text:>13}  {mark:<6}  {entry.description}")


@app.command()
def fetch(
    name: str = typer.Argument(..., help="A data set name from `ragmeter data list`."),
    dest: Path | None = typer.Option(None, "--dest", help="Folder to place the files in."),
    copy: bool = typer.Option(False, "--copy", help="Copy mirror files instead of linking them."),
    verify: bool = typer.Option(False, "--verify", help="Also check sha256 of mirror copies."),
) -> None:
    """Get a data set: from a mirror (RAGMETER_DATA_MIRROR) first, else download with resume."""
    from ragmeter.data.fetch import fetch as get

    for f in get(name, dest=dest, copy=copy, verify=verify):
        typer.echo(f"{f.path}\t{f.source}")
