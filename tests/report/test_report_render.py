"""Rendering: escaping at every boundary, the three formats, and the command."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from report_fixtures import PAYLOADS

from ragmeter.cli.main import main
from ragmeter.report import build_report, load_run, load_runs, render, write_report
from ragmeter.report.highlight import clip_chunk, find_spans
from ragmeter.report.html import json_for_script
from ragmeter.report.markdown import md_escape

DANGEROUS = st.sampled_from(["<", ">", "&", "\u2028", "\u2029", "</script>", "<!--", '"', "\\"])


@settings(deadline=None, max_examples=200)
@given(st.lists(st.text() | DANGEROUS, max_size=6))
def test_script_json_round_trips_and_cannot_close_its_element(parts: list[str]) -> None:
    obj = {"texts": parts, "joined": "".join(parts)}
    text = json_for_script(obj)
    assert orjson.loads(text) == obj
    for ch in ("<", ">", "&", "\u2028", "\u2029"):
        assert ch not in text


def test_markdown_cells_cannot_break_out() -> None:
    cell = md_escape("a | b\n<script>x</script> [link](http://x) `code` *b*")
    assert "\n" not in cell and "<" not in cell
    assert "\\|" in cell and "\\[" in cell and "\\`" in cell and "\\*" in cell
    assert len(md_escape("x" * 500, 40)) == 40


def test_spans_mark_answers_on_word_boundaries() -> None:
    text = "Paris is big. Parisian food. In  Paris\nHilton; PARIS."
    spans = find_spans(text, ["Paris", "Paris Hilton"], "big")
    assert [(text[s:e], k) for s, e, k in spans] == [
        ("Paris", "gold"),
        ("big", "pred"),
        ("Paris\nHilton", "gold"),
        ("PARIS", "gold"),
    ]
    assert find_spans(text, ["invalid question", "yes", ""], None) == []
    kept, kept_spans, before, after = clip_chunk(
        "x" * 5000 + "Paris" + "y" * 5000, [(5000, 5005, "gold")], 300
    )
    assert len(kept) == 300 and before + len(kept) + after == 10005
    ((s, e, _),) = kept_spans
    assert kept[s:e] == "Paris"


def test_html_page_holds_no_markup_from_the_data(payload_run: Path) -> None:
    runs = load_runs([payload_run])
    page = render(runs, "html")
    # Exactly the page's own three script elements, and only its own inline script runs.
    assert page.count("<script") == 3
    assert len(re.findall(r"<script>", page)) == 1
    for p in PAYLOADS:
        assert p not in page
    for tag in ("<img", "<svg onload", "<iframe", "<b onmouseover"):
        assert tag not in page
    assert "Content-Security-Policy" in page and "default-src &#x27;none&#x27;" in page
    assert "http://" not in page.replace("http://www.w3.org", "")  # nothing is fetched
    # The escaped payloads are still there, as text.
    assert "&lt;img src=x onerror=" in page


def test_markdown_and_json_of_a_payload_run(payload_run: Path) -> None:
    runs = load_runs([payload_run])
    md = render(runs, "markdown")
    assert "<img" not in md and "<script" not in md
    data = orjson.loads(render(runs, "json"))
    # JSON keeps the text as it was: a machine gets the data, not an escaped copy.
    assert data["runs"][0]["facts"]["name"] == PAYLOADS[1]


def test_formats_agree(run_a: Path, run_b: Path) -> None:
    runs = load_runs([run_a, run_b])
    report = build_report(runs)
    data = orjson.loads(render(runs, "json"))
    assert data == report.model_dump(mode="json")
    md = render(runs, "markdown")
    top = report.comparison.leaderboard[0]  # type: ignore[union-attr]
    assert f"| 1 | {top.name} |" in md
    assert "questions whose label flipped" in md
    page = render(runs, "html")
    assert "Leaderboard" in page and "Differences from the baseline" in page


def test_single_run_markdown_headline(run_a: Path) -> None:
    report = build_report([load_run(run_a)])
    md = render([load_run(run_a)], "markdown")
    score = report.runs[0].headline.score
    assert score is not None and score.value is not None
    assert f"**{score.value * 100:.1f}%**" in md
    assert "Trust-Score" in md
    assert md.count("<details>") == md.count("</details>")


def _cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str, str]:
    """Run ``ragmeter report ARGS`` in this process (the command's real entry point)."""
    monkeypatch.setattr(sys, "argv", ["ragmeter", "report", *args])
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_command_picks_the_format_by_suffix(
    tmp_path: Path,
    run_a: Path,
    run_b: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name in ("r.html", "r.md", "r.json"):
        code, out, err = _cli(
            monkeypatch, capsys, str(run_a), str(run_b), "--out", str(tmp_path / name)
        )
        assert code == 0, err
        assert f"wrote {tmp_path / name}" in out
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")
    assert (tmp_path / "r.md").read_text().startswith("### ragmeter: 2 runs")
    assert orjson.loads((tmp_path / "r.json").read_bytes())["comparison"]["baseline"] == "rag-bm25"


def test_command_errors_are_one_line(
    tmp_path: Path, run_a: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _cli(monkeypatch, capsys, str(run_a), "--out", str(tmp_path / "r.pdf"))
    assert code == 2
    assert err.strip().count("\n") == 0
    assert "cannot tell the report format" in err
    code, _, err = _cli(monkeypatch, capsys, str(tmp_path), "--out", str(tmp_path / "r.html"))
    assert code == 2
    assert "not a scored run folder" in err


def test_installed_command_runs(tmp_path: Path, run_a: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ragmeter", "report", str(run_a), "--out", str(tmp_path / "r.md")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "r.md").read_text().startswith("### ragmeter: rag-bm25")


def test_write_report_creates_the_folder(tmp_path: Path, run_a: Path) -> None:
    out = write_report([run_a], tmp_path / "deep" / "er" / "report.md")
    assert out.read_text().startswith("### ragmeter: rag-bm25")
    assert not list(out.parent.glob("*.tmp"))
