"""``ragmeter kg``: serve the CRAG mock knowledge-graph API, convert its pickles, make a fixture."""

from __future__ import annotations

from pathlib import Path

import typer

from ragmeter.errors import MissingExtraError, UserError

app = typer.Typer(
    help="The CRAG mock knowledge-graph API: serve, convert, fixture.", no_args_is_help=True
)


@app.command()
def serve(
    data: Path = typer.Option(
        ..., "--data", help="KG folder (official layout, pickles converted)."
    ),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (loopback by default)."),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    max_body_bytes: int = typer.Option(64 * 1024, "--max-body-bytes", help="Largest request body."),
    preload: bool = typer.Option(False, "--preload", help="Load every domain before serving."),
    log_level: str = typer.Option("warning", "--log-level", help="uvicorn log level."),
) -> None:
    """Serve the 38 endpoints of the official API (docs at /docs)."""
    if not data.is_dir():
        raise UserError(f"{data}: not a directory")
    if max_body_bytes < 1:
        raise UserError("--max-body-bytes must be positive")
    try:
        from ragmeter.kg.server import serve as run
    except ImportError as exc:
        raise MissingExtraError("kg", "ragmeter kg serve") from exc
    typer.echo(f"serving {data} on http://{host}:{port} (docs: /docs)", err=True)
    run(
        data,
        host=host,
        port=port,
        max_body_bytes=max_body_bytes,
        preload=preload,
        log_level=log_level,
    )


@app.command()
def convert(
    src: Path = typer.Argument(..., help="Official KG folder (cragkg/)."),
    dest: Path = typer.Argument(..., help="Folder to serve from (may be SRC)."),
    trust_pickle: bool = typer.Option(
        False, "--trust-pickle", help="Confirm the pickles are trusted: reading a pickle runs code."
    ),
) -> None:
    """Convert the pickled files once into safe formats the server reads."""
    from ragmeter.kg.convert import convert_kg

    manifest = convert_kg(src, dest, trust_pickle=trust_pickle)
    for f in manifest.files:
        items = "" if f.items is None else f" ({f.items} items)"
        typer.echo(f"{f.kind:7} {f.source} -> {f.output}{items}")


@app.command()
def fixture(
    out: Path = typer.Option(..., "--out", help="Folder to write the fixture KG into."),
    examples: Path | None = typer.Option(
        None, "--examples", help="api_examples.json (default: data mirror)."
    ),
    companies: Path | None = typer.Option(
        None, "--companies", help="finance company_name.dict (default: data mirror)."
    ),
) -> None:
    """Write a small KG in the official formats from the recorded API calls."""
    from ragmeter.kg.fixture import build_fixture

    info = build_fixture(out, examples=examples, companies=companies)
    typer.echo(
        f"wrote {out} from {info.calls} recorded calls; serve it after "
        f"`ragmeter kg convert --trust-pickle {out} DEST`"
    )
