"""A report of a real `ragmeter score` folder (rules judge) on the CRAG validation questions."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import orjson
import pytest

from ragmeter.cli.main import main
from ragmeter.report import build_report, load_run, render, write_report


@pytest.fixture(scope="module")
def scored_run(crag_validation: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Predictions for 300 real questions (gold, refusals, wrong answers with markup)."""
    folder = tmp_path_factory.mktemp("scored")
    rng = random.Random(0)
    lines = []
    with open(crag_validation, encoding="utf-8") as f:
        for _, line in zip(range(300), f, strict=False):
            row = json.loads(line)
            x = rng.random()
            pred = (
                row["answer"]
                if x < 0.4
                else "I don't know"
                if x < 0.7
                else "maybe <img src=x onerror=alert(1)>"
            )
            lines.append(json.dumps({"id": row["interaction_id"], "prediction": pred}))
    preds = folder / "preds.jsonl"
    preds.write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = sys.argv
    sys.argv = [
        "ragmeter",
        "score",
        "--dataset",
        str(crag_validation),
        "--predictions",
        str(preds),
        "--judge",
        "rules",
        "--out",
        str(folder / "run"),
    ]
    try:
        main()
    except SystemExit as exc:
        assert not exc.code
    finally:
        sys.argv = argv
    return folder / "run"


def test_report_of_a_scored_folder(scored_run: Path, tmp_path: Path) -> None:
    results = orjson.loads((scored_run / "results.json").read_bytes())
    run = load_run(scored_run)
    assert run.header is None and len(run.samples) == results["n"] == 1371
    report = build_report([run])
    h = report.runs[0].headline
    assert h.score is not None and h.score.value == results["score"]["value"]
    assert h.counts["missing"] == results["counts"]["missing"]
    domains = {r.value: r.n for r in report.runs[0].slices["domain"]}
    assert domains == {k: v["n"] for k, v in results["slices"]["domain"].items()}
    assert any("rules only" in n for n in report.runs[0].notes)
    md = render([run], "markdown")
    assert f"{h.score.value * 100:.1f}%" in md
    page = write_report([scored_run], tmp_path / "scored.html").read_text()
    assert "<img src=x" not in page and "maybe &lt;img" not in page  # only inside JSON, escaped
    assert "\\u003cimg src=x onerror=alert(1)\\u003e" in page


@pytest.mark.browser
def test_scored_report_filters_in_chromium(scored_run: Path, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    results = orjson.loads((scored_run / "results.json").read_bytes())
    html = write_report([scored_run], tmp_path / "scored.html")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
        )
        page = browser.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(html.as_uri())
        page.wait_for_selector("#rm-tbody tr")
        for label in ("correct", "incorrect", "missing"):
            page.select_option("#rm-label", label)
            expected = results["counts"][label]
            assert page.inner_text("#rm-count") == f"{expected:,} of 1,371 questions"
        page.select_option("#rm-label", "incorrect")
        page.locator("#rm-tbody tr td").first.click()
        assert "maybe <img src=x onerror=alert(1)>" in page.inner_text("#panel")
        browser.close()
    assert dialogs == []
