"""``ragmeter models``: list, install and locate model weights (no hub needed)."""

from __future__ import annotations

import json

import typer

app = typer.Typer(help="List, install and locate model weights.", no_args_is_help=True)


def _say(message: str) -> None:
    typer.echo(message, err=True)


@app.command("list")
def list_models(
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """List the catalog models and whether each is installed."""
    from ragmeter.llm.catalog import DEFAULT_MODEL, catalog
    from ragmeter.llm.weights import find_installed

    rows = [
        {
            "name": spec.name,
            "default": spec.name == DEFAULT_MODEL,
            "size": spec.size,
            "sha256": spec.sha256,
            "installed": str(p) if (p := find_installed(spec.name)) else None,
            "description": spec.description,
        }
        for spec in catalog().values()
    ]
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    width = max(len(spec.name) for spec in catalog().values())
    for spec in catalog().values():
        found = find_installed(spec.name)
        mark = "*" if spec.name == DEFAULT_MODEL else " "
        state = str(found) if found else "not installed"
        typer.echo(f"{mark} {spec.name:<{width}}  {spec.size / 1e6:7.0f} MB  {state}")
        typer.echo(f"  {'':<{width}}  {spec.description}")
    typer.echo("(* = default for the 'local' backend)")


@app.command("install")
def install_models(
    names: list[str] = typer.Argument(..., help="Catalog model names."),
    force: bool = typer.Option(False, "--force", help="Rebuild even when a valid copy exists."),
) -> None:
    """Install catalog models into the user cache folder (verified by sha256)."""
    from ragmeter.llm.weights import install

    for name in names:
        path = install(name, force=force, progress=_say)
        typer.echo(f"{name}: {path}")


@app.command("path")
def model_path(name: str = typer.Argument(..., help="A catalog model name.")) -> None:
    """Print the local file of a model, installing it first if needed."""
    from ragmeter.llm.weights import install

    typer.echo(str(install(name, progress=_say)))
