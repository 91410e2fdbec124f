"""Reports: pure functions from run folders to JSON, Markdown and one self-contained HTML file.

    from ragmeter.report import write_report
    write_report(["runs/a", "runs/b"], "report.html")

`load_runs` reads run folders, `build_report` computes the content once, and
`render_json`, `render_markdown` and `render_html` write it out; `write_report`
picks the format by the output file's suffix.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import orjson

from ragmeter.errors import ConfigError
from ragmeter.report.html import render_html
from ragmeter.report.markdown import render_markdown
from ragmeter.report.runs import RunView, load_run, load_runs
from ragmeter.report.summary import Report, build_report

__all__ = [
    "FORMATS",
    "Report",
    "RunView",
    "build_report",
    "format_for",
    "load_run",
    "load_runs",
    "render",
    "render_html",
    "render_json",
    "render_markdown",
    "write_report",
]

FORMATS = {
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".markdown": "markdown",
    ".json": "json",
}


def render_json(report: Report) -> str:
    """The report as indented JSON."""
    return orjson.dumps(report.model_dump(mode="json"), option=orjson.OPT_INDENT_2).decode() + "\n"


def format_for(out: str | Path) -> str:
    """The format an output file's suffix asks for (``html``, ``markdown`` or ``json``)."""
    suffix = Path(out).suffix.lower()
    if suffix not in FORMATS:
        known = ", ".join(sorted(FORMATS))
        raise ConfigError(
            f"{out}: cannot tell the report format from '{suffix or 'no suffix'}' (use {known})"
        )
    return FORMATS[suffix]


def render(runs: Sequence[RunView], fmt: str) -> str:
    """The report of ``runs`` in ``fmt`` (``html``, ``markdown`` or ``json``)."""
    report = build_report(runs)
    if fmt == "html":
        return render_html(report, runs)
    if fmt == "markdown":
        return render_markdown(report)
    if fmt == "json":
        return render_json(report)
    raise ConfigError(f"unknown report format '{fmt}' (html, markdown or json)")


def write_report(run_dirs: Sequence[str | Path], out: str | Path) -> Path:
    """Read run folders and write their report to ``out`` (format by suffix); returns the path.

    The file is written through a temporary name, so a reader never sees half a report.
    """
    fmt = format_for(out)
    runs = load_runs(list(run_dirs))
    text = render(runs, fmt)
    path = Path(out)
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path
