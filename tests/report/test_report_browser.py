"""Reports in a real browser: Debian's headless chromium driven by playwright.

The page is opened from a file, as a user opens it: nothing may load from
elsewhere, the table must really filter, and a run full of script payloads
(in predictions, pages, queries, labels and names) must run none of them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Dialog, Page, expect, sync_playwright
from report_fixtures import (
    PAYLOADS,
    make_records,
    write_diagnosed_run,
    write_run,
    write_trust_run,
)

from ragmeter.report import load_run, write_report

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SHOTS_ENV = "RAGMETER_REPORT_SCREENSHOTS"
"""Folder to copy screenshots into for a person to look at (optional)."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make install` installs Debian's chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


class Watched:
    """A page with everything it says recorded: console, dialogs, errors, requests."""

    def __init__(self, page: Page):
        self.page = page
        self.console: list[str] = []
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        page.on("console", self._console)
        page.on("dialog", self._dialog)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", lambda r: self.requests.append(r.url))

    def _console(self, msg: ConsoleMessage) -> None:
        self.console.append(f"{msg.type}: {msg.text}")

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def quiet(self) -> None:
        """Nothing ran, nothing was blocked, nothing was fetched but the file itself."""
        assert self.dialogs == []
        assert self.errors == []
        assert self.console == []
        assert [u for u in self.requests if not u.startswith("file://")] == []


@pytest.fixture
def open_report(browser: Browser) -> Iterator[Any]:
    pages: list[Page] = []

    def open_(path: Path) -> Watched:
        page = browser.new_page(viewport={"width": 1300, "height": 1000})
        pages.append(page)
        watched = Watched(page)
        page.goto(path.as_uri())
        page.wait_for_selector("#rm-tbody tr")
        return watched

    yield open_
    for p in pages:
        p.close()


def _visible_labels(page: Page) -> list[str]:
    return page.locator("#rm-tbody tr td:nth-child(3)").all_inner_texts()


def test_screenshot_of_a_report(tmp_path: Path, run_a: Path, run_b: Path, open_report: Any) -> None:
    trust = write_trust_run(tmp_path / "trust", 30)
    for name, runs in (("single", [run_a]), ("compare", [run_a, run_b]), ("trust", [trust])):
        html = write_report(runs, tmp_path / f"{name}.html")
        w = open_report(html)
        page = w.page
        shot = tmp_path / f"{name}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 50_000
        # The headline and the plots are there and drawn, not empty boxes.
        heading = "Leaderboard" if name == "compare" else "Summary"
        assert page.locator(f"#summary h2:text('{heading}')").is_visible()
        if name != "trust":
            assert page.locator("svg.plot").count() >= 4
            assert page.locator("svg.plot circle").count() > 20
        page.locator("#rm-tbody tr").first.click()
        page.wait_for_selector("#panel:not([hidden])")
        if name == "trust":
            assert "answerable" in page.inner_text("#panel")
        page.screenshot(path=str(tmp_path / f"{name}-drilldown.png"))
        w.quiet()
        if os.environ.get(SHOTS_ENV):
            for f in tmp_path.glob(f"{name}*.png"):
                shutil.copy(f, Path(os.environ[SHOTS_ENV]) / f.name)


def test_filters_really_filter(tmp_path: Path, run_a: Path, open_report: Any) -> None:
    run = load_run(run_a)
    w = open_report(write_report([run_a], tmp_path / "r.html"))
    page = w.page
    assert len(_visible_labels(page)) == 100  # the first page of 120
    assert page.inner_text("#rm-count") == "120 questions"

    page.select_option("#rm-label", "incorrect")
    incorrect = [s for s in run.samples if s.label == "incorrect"]
    assert set(_visible_labels(page)) == {"incorrect"}
    assert len(_visible_labels(page)) == len(incorrect)
    assert page.inner_text("#rm-count") == f"{len(incorrect)} of 120 questions"

    page.select_option("#rm-domain", "music")
    both = [s.id for s in incorrect if s.labels.domain == "music"]
    ids = page.locator("#rm-tbody tr td:nth-child(2)").all_inner_texts()
    assert ids == both and both

    page.select_option("#rm-label", "")
    page.select_option("#rm-domain", "")
    target = run.samples[77]
    page.fill("#rm-search", target.id[:12])
    expect(page.locator("#rm-tbody tr")).to_have_count(1)
    page.locator("#rm-tbody tr td").first.click()
    panel = page.locator("#panel")
    assert target.query in panel.inner_text()
    assert target.answers[0] in panel.locator(".box").first.inner_text()
    assert panel.locator(".chunk").count() == 5

    page.fill("#rm-search", "no such question anywhere")
    expect(page.locator("#rm-tbody tr")).to_have_count(0)
    assert page.inner_text("#rm-page") == "no question matches"
    w.quiet()


def test_payloads_execute_nothing(tmp_path: Path, payload_run: Path, open_report: Any) -> None:
    # Two payload runs, so flips, run tabs and the comparison tables carry payloads too.
    other = write_run(tmp_path / "other", make_records(60, seed=9, payload=True), name=PAYLOADS[0])
    w = open_report(write_report([payload_run, other], tmp_path / "xss.html"))
    page = w.page
    for run_index in ("0", "1"):
        page.select_option("#rm-run", run_index)
        for domain in page.locator("#rm-domain option").all_inner_texts()[1:]:
            page.select_option("#rm-domain", label=domain)
        page.select_option("#rm-domain", "")
        rows = page.locator("#rm-tbody tr")
        # 24 rows carry every payload (they cycle through the list by row number).
        for i in range(min(24, rows.count())):
            # The # cell: the open panel covers the right of the table, as for a user.
            rows.nth(i).locator("td").first.click()
        page.locator("#panel-close").click()
    for button in page.locator("button[data-open]").all()[:10]:
        button.click()
        page.locator("#panel .controls button:not([disabled])").first.click()
    page.hover("svg.plot g")
    # The payloads are on the page as text...
    assert "<script>alert('pred')</script>" in page.inner_text("body") or any(
        "<script>" in t for t in page.locator("#rm-tbody td").all_inner_texts()
    )
    assert PAYLOADS[1] in page.inner_text("#summary")
    # ...and nothing of them became markup or ran.
    assert page.evaluate("document.scripts.length") == 3
    counts = page.evaluate(
        "['img', 'iframe', 'object', 'embed', 'frame']"
        ".map(t => document.getElementsByTagName(t).length)"
    )
    assert counts == [0, 0, 0, 0, 0]
    assert (
        page.evaluate("document.querySelectorAll('svg [onload], [onerror], [onmouseover]').length")
        == 0
    )
    w.quiet()


def test_diagnosis_and_abstention_sections(tmp_path: Path, open_report: Any) -> None:
    folder = write_diagnosed_run(tmp_path / "diagnosed", 150, seed=4)
    run = load_run(folder)
    w = open_report(write_report([folder], tmp_path / "d.html"))
    page = w.page
    for section in ("#diagnosis", "#abstention"):
        expect(page.locator(section)).to_be_visible()
    expect(page.locator("#diagnosis h2")).to_have_text("Where the points went")
    expect(page.locator("#abstention h2")).to_have_text("What abstaining would have earned")
    # The bars and the curve are drawn, not empty boxes.
    bars = page.locator("#diagnosis svg.cats").first
    expect(bars).to_be_visible()
    assert bars.locator("rect[fill]").count() >= 6
    curve = page.locator("#abstention svg.curve")
    expect(curve).to_be_visible()
    assert curve.locator("polyline").count() == 3
    assert curve.bounding_box()["height"] > 200  # type: ignore[index]

    counts: dict[str, int] = {}
    for d in run.diagnoses.values():
        counts[d.category] = counts.get(d.category, 0) + 1
    category = "generation_error"
    assert counts[category] > 1
    page.select_option("#rm-cat", category)
    expect(page.locator("#rm-tbody tr")).to_have_count(counts[category])
    assert page.inner_text("#rm-count") == f"{counts[category]} of 150 questions"
    cells = page.locator("#rm-tbody tr td:nth-child(6)").all_inner_texts()
    assert set(cells) == {category}

    # The table's "questions" button sets the same filter.
    page.select_option("#rm-cat", "")
    page.locator('#diagnosis button[data-cat="over_cautious"]').click()
    expect(page.locator("#rm-tbody tr")).to_have_count(counts["over_cautious"])
    assert page.input_value("#rm-cat") == "over_cautious"

    page.locator("#rm-tbody tr td").first.click()
    panel = page.locator("#panel")
    expect(panel).to_be_visible()
    text = panel.inner_text()
    assert "Diagnosis" in text and "over_cautious" in text
    assert "answer in the evidence" in text and "confidence" in text
    if os.environ.get(SHOTS_ENV):
        page.screenshot(path=str(Path(os.environ[SHOTS_ENV]) / "diagnosis.png"), full_page=True)
    w.quiet()
