"""Report build and load time for a CRAG-task-1-sized run (2,706 questions).

Builds a synthetic run folder from the real on-disk records (engine journal and
header, scoring's aggregate), then times, side by side:

- ragmeter: ``write_report`` to HTML (and to Markdown and JSON), the file size,
  and in headless chromium the time until the question table shows and until the
  first drill-down opens (its data is parsed only then);
- the alternative a user would reach for: pandas ``DataFrame.to_html`` of the
  same per-question data (query, gold, prediction, label, rationale, retrieved
  chunks), every detail inline, opened in the same browser.

Usage: .venv/bin/python benchmarks/report_build.py [--questions N] [--out DIR]
The last line printed is JSON with the figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "report"))

from report_fixtures import make_records, write_run  # noqa: E402

from ragmeter.report import load_run, write_report  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
LOADS = 3


def pandas_page(run_dir: Path, out: Path) -> float:
    """The alternative: one eager HTML table with every detail; returns build seconds."""
    import pandas as pd

    start = time.perf_counter()
    run = load_run(run_dir)
    rows = []
    for s in run.samples:
        rows.append(
            {
                "id": s.id,
                "label": s.label,
                "domain": s.labels.domain,
                "question_type": s.labels.question_type,
                "query": s.query,
                "gold": " | ".join(s.answers),
                "prediction": s.prediction,
                "rationale": " ".join(c.rationale for v in s.votes for c in v.checks),
                "chunks": "\n\n".join(c.text for c in (s.answer.retrieved if s.answer else [])),
                "seconds": s.seconds,
            }
        )
    pd.DataFrame(rows).to_html(out, escape=True, index=False)
    return time.perf_counter() - start


def browser_times(pages: list[Path]) -> dict[str, dict[str, float]]:
    """Median seconds to open each page (until its table shows), and to the first drill-down."""
    from playwright.sync_api import sync_playwright

    out: dict[str, dict[str, float]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for path in pages:
            opens, drills = [], []
            for _ in range(LOADS):
                page = browser.new_page()
                t0 = time.perf_counter()
                page.goto(path.as_uri(), wait_until="load", timeout=300_000)
                page.wait_for_selector("tbody tr", timeout=300_000)
                opens.append(time.perf_counter() - t0)
                if page.locator("#rm-tbody").count():
                    t1 = time.perf_counter()
                    page.locator("#rm-tbody tr td").first.click()
                    page.wait_for_selector("#panel:not([hidden]) .chunk")
                    drills.append(time.perf_counter() - t1)
                page.close()
            out[path.name] = {"open_s": statistics.median(opens)}
            if drills:
                out[path.name]["first_drilldown_s"] = statistics.median(drills)
        browser.close()
    return out


def main() -> None:
    """Build the run, time both reports, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=2706)
    parser.add_argument("--out", type=Path, default=None, help="keep the files here")
    args = parser.parse_args()
    folder = args.out or Path(tempfile.mkdtemp(prefix="ragmeter-report-bench-"))
    folder.mkdir(parents=True, exist_ok=True)

    t = time.perf_counter()
    run_dir = write_run(folder / "run", make_records(args.questions, seed=1), resamples=1000)
    print(f"run folder with {args.questions} questions written in {time.perf_counter() - t:.1f} s")

    timings: dict[str, float] = {}
    for suffix in ("html", "md", "json"):
        t = time.perf_counter()
        write_report([run_dir], folder / f"report.{suffix}")
        timings[suffix] = time.perf_counter() - t
        size = (folder / f"report.{suffix}").stat().st_size
        print(f"ragmeter {suffix:>4}: {timings[suffix]:.2f} s, {size / 1e6:.2f} MB")
    pandas_s = pandas_page(run_dir, folder / "pandas.html")
    pandas_mb = (folder / "pandas.html").stat().st_size / 1e6
    print(f"pandas to_html: {pandas_s:.2f} s, {pandas_mb:.2f} MB")

    loads = browser_times([folder / "report.html", folder / "pandas.html"])
    for name, figures in loads.items():
        print(name, ", ".join(f"{k} {v:.2f}" for k, v in figures.items()))

    result = {
        "questions": args.questions,
        "ragmeter_html_build_s": round(timings["html"], 3),
        "ragmeter_md_build_s": round(timings["md"], 3),
        "ragmeter_json_build_s": round(timings["json"], 3),
        "ragmeter_html_mb": round((folder / "report.html").stat().st_size / 1e6, 2),
        "ragmeter_open_s": round(loads["report.html"]["open_s"], 3),
        "ragmeter_first_drilldown_s": round(loads["report.html"]["first_drilldown_s"], 3),
        "pandas_html_build_s": round(pandas_s, 3),
        "pandas_html_mb": round(pandas_mb, 2),
        "pandas_open_s": round(loads["pandas.html"]["open_s"], 3),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
