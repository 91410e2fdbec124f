"""Render the report of a finished run folder with the report layer."""

from __future__ import annotations

import importlib
from pathlib import Path

REPORT_FILE = "report.html"


def write_report(folder: Path) -> Path | None:
    """Write ``folder/report.html`` with `ragmeter.report`; None when that layer is absent.

    The report layer reads only run folders, so this is the one call between them.
    """
    try:
        module = importlib.import_module("ragmeter.report")
    except ImportError:
        return None
    render = getattr(module, "write_report", None)
    if render is None:
        return None
    return Path(render([folder], folder / REPORT_FILE))
