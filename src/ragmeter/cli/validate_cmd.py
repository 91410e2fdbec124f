"""``ragmeter validate``: check a run spec without running it."""

from __future__ import annotations

import typer


def validate(
    spec: str = typer.Argument(..., help="A run spec YAML file or a built-in spec name."),
    sets: list[str] = typer.Option(
        [], "--set", help="Override a spec key: --set budget.max_errors=3 (repeatable)."
    ),
    show: bool = typer.Option(False, "--show", help="Print the full spec with its defaults."),
) -> None:
    """Check SPEC: strict keys, component names and options, the data file."""
    from pathlib import Path

    from ragmeter.engine.runner import check_spec, dump_json
    from ragmeter.engine.specs import load_spec

    loaded = load_spec(spec, sets)
    base = Path(loaded.source).parent if Path(loaded.source).is_file() else None
    _, _, path = check_spec(loaded, base, download=False)
    s = loaded.spec
    where = str(path) if path is not None else f"{s.data.path} (not here yet: fetched on run)"
    typer.echo(
        f"ok: {s.name} — pipeline {s.pipeline.name}, model {s.llm}, "
        f"scorer {s.scoring.scorer} (judge {s.scoring.judge or 'rules'}), data {where}"
    )
    if show:
        typer.echo(dump_json(s))
