"""Render the report of a finished run folder, when the report layer is installed."""

from __future__ import annotations

import importlib
from pathlib import Path


def write_report(folder: Path) -> Path | None:
    """Write the HTML report of ``folder`` with `ragmeter.report`; None when it has no renderer.

    The report layer reads only run folders, so this is the single call between them.
    """
    try:
        module = importlib.import_module("ragmeter.report")
    except ImportError:
        return None
    render = getattr(module, "write_html_report", None)
    if render is None:
        return None
    path = render(folder)
    return Path(path) if path is not None else None
