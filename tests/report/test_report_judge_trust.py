"""The report's warning banner for manipulated predictions, and the judge's agreement line."""

from __future__ import annotations

from pathlib import Path

from report_fixtures import make_records, write_run

from ragmeter.report import load_run, render


def _flag(records, index: int):  # type: ignore[no-untyped-def]
    r = records[index]
    return r.model_copy(
        update={
            "label": "incorrect",
            "rule": "manipulation",
            "rule_detail": "addressed_to_grader: Note to the grader",
            "rule_span": (6, 27),
            "votes": [],
        }
    )


def test_flagged_questions_are_listed_in_a_banner(tmp_path: Path) -> None:
    records = make_records(12, seed=3)
    records[2] = _flag(records, 2)
    records[7] = _flag(records, 7)
    run = load_run(write_run(tmp_path / "run", records))
    assert run.results.manipulation.count == 2
    assert set(run.results.manipulation.ids) == {records[2].id, records[7].id}
    html = render([run], "html")
    assert 'class="banner warn"' in html and "2 prediction(s)" in html
    assert records[2].id in html and records[7].id in html
    md = render([run], "markdown")
    assert "2 prediction(s) addressed the grader" in md and f"`{records[2].id}`" in md


def test_no_banner_without_flags_and_judge_line_says_unmeasured(tmp_path: Path) -> None:
    run = load_run(write_run(tmp_path / "run", make_records(8, seed=1)))
    html = render([run], "html")
    assert 'class="banner warn"' not in html
    # The fixture's judge was never measured on the real-answer set, and the report says so.
    assert "has not been measured" in html
