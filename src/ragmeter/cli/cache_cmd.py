"""``ragmeter cache``: inspect and clear the persistent LLM response cache."""

from __future__ import annotations

from pathlib import Path

import typer

app = typer.Typer(help="Inspect and clear the LLM response cache.", no_args_is_help=True)

_PATH_HELP = "Cache file (default: responses.sqlite3 in the user cache folder)."


@app.command("stats")
def stats(
    path: Path | None = typer.Option(None, "--path", help=_PATH_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Entries, hits and size of the response cache, per operation and model."""
    from ragmeter.llm.cache import ResponseCache

    s = ResponseCache(path).stats()
    if as_json:
        typer.echo(s.model_dump_json(indent=2))
        return
    typer.echo(f"cache:   {s.path}")
    typer.echo(f"entries: {s.entries}")
    typer.echo(f"hits:    {s.hits}")
    typer.echo(f"size:    {s.size_bytes / 1e6:.2f} MB")
    for op, n in sorted(s.by_operation.items()):
        typer.echo(f"  {op:<10} {n}")
    for model, n in sorted(s.by_model.items(), key=lambda kv: -kv[1]):
        typer.echo(f"  {n:>8}  {model}")


@app.command("clear")
def clear(
    path: Path | None = typer.Option(None, "--path", help=_PATH_HELP),
    model: str | None = typer.Option(
        None, "--model", help="Only the entries of this model identity (see `cache stats`)."
    ),
) -> None:
    """Delete cached responses (all, or one model's)."""
    from ragmeter.llm.cache import ResponseCache

    deleted = ResponseCache(path).clear(model)
    typer.echo(f"deleted {deleted} entries")
