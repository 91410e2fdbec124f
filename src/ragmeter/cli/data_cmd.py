"""``ragmeter data``: inspect, slice, export and fetch benchmark files."""

from __future__ import annotations

import typer

app = typer.Typer(help="Inspect, subsample, export and fetch benchmark data.", no_args_is_help=True)
