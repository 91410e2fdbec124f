"""Diagnosis and abstention in the report: shown when a run folder carries them, absent
(and the report unchanged) when it does not."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
from report_fixtures import PAYLOADS, make_records, write_diagnosed_run, write_run

from ragmeter.errors import DataError
from ragmeter.report import build_report, load_run, load_runs, render
from ragmeter.report.summary import CATEGORY_ORDER, curve_sample

DIAGNOSIS_TITLE = "Where the points went"
ABSTENTION_TITLE = "What abstaining would have earned"


@pytest.fixture(scope="module")
def diagnosed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """150 questions with confidences, diagnosis.jsonl and both blocks."""
    return write_diagnosed_run(tmp_path_factory.mktemp("runs") / "diagnosed", 150, seed=4)


@pytest.fixture(scope="module")
def abstaining(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pipeline that abstained below 0.3 and was not diagnosed: the abstention block only."""
    folder = tmp_path_factory.mktemp("runs") / "abstaining"
    return write_diagnosed_run(folder, 80, seed=5, diagnose=False, abstain_below=0.3)


def _script_json(page: str, element_id: str) -> Any:
    start = page.index(f'<script type="application/json" id="{element_id}">')
    return orjson.loads(page[page.index(">", start) + 1 : page.index("</script>", start)])


def _categories(folder: Path) -> dict[str, str]:
    lines = (folder / "diagnosis.jsonl").read_bytes().splitlines()[1:]
    return {d["id"]: d["category"] for d in map(orjson.loads, lines)}


def test_both_sections_render_from_a_diagnosed_run(diagnosed: Path) -> None:
    page = render([load_run(diagnosed)], "html")
    assert f"<h2>{DIAGNOSIS_TITLE}</h2>" in page and f"<h2>{ABSTENTION_TITLE}</h2>" in page
    assert '<a href="#diagnosis">' in page and '<a href="#abstention">' in page
    # One bar for all questions, then one per value of each slice.
    assert page.count('class="plot cats"') == 1 + 4
    assert 'class="plot curve"' in page and 'class="chosen"' in page
    counts = Counter(_categories(diagnosed).values())
    for name in counts:
        assert f'data-cat="{name}"' in page
    # Every category has its own colour, given by a rule of the style sheet.
    assert page.count('.cat[data-c="#') == len(CATEGORY_ORDER) + 1
    assert 'id="rm-cat"' in page and '<th data-sort="cat">category</th>' in page


def test_each_question_row_carries_its_category(diagnosed: Path) -> None:
    page = render([load_run(diagnosed)], "html")
    rows = _script_json(page, "rm-rows")
    by_id = _categories(diagnosed)
    got = {r[1]: r[10] for r in rows["runs"][0]["rows"]}
    assert {k: v for k, v in got.items() if v is not None} == by_id
    # Unscored questions have no diagnosis.
    assert all(s.label == "unscored" for s in load_run(diagnosed).samples if got[s.id] is None)
    assert [c[0] for c in rows["categories"]] == list(CATEGORY_ORDER)
    assert all(c[1] for c in rows["categories"])  # each with its description


def test_question_details_show_signals_and_confidence(diagnosed: Path) -> None:
    run = load_run(diagnosed)
    details = _script_json(render([run], "html"), "rm-details")[0]
    for s, d in zip(run.samples, details, strict=True):
        if s.answer is not None:
            assert d["confidence"] == s.answer.confidence
        diag = run.diagnoses.get(s.id)
        if diag is None:
            assert "diagnosis" not in d
            continue
        assert d["diagnosis"]["category"] == diag.category
        assert d["diagnosis"]["in_pages"] == diag.answer_in_pages
        assert d["diagnosis"]["in_evidence"] == diag.answer_in_evidence
        assert d["diagnosis"]["supported"] == diag.supported
        assert d["diagnosis"]["probability"] == diag.support_probability


def test_the_category_table_adds_up_to_the_score(diagnosed: Path) -> None:
    summary = build_report([load_run(diagnosed)]).runs[0]
    d = summary.diagnosis
    assert d is not None
    assert [c.category for c in d.overall.cells] == list(CATEGORY_ORDER)
    assert sum(c.count for c in d.overall.cells) == d.n == d.overall.n
    # Score points add up to the CRAG score of the diagnosed questions.
    score = summary.headline.score
    assert score is not None and score.value is not None
    assert sum(c.score_points for c in d.overall.cells) == pytest.approx(score.value)
    assert list(d.slices) == ["domain", "question_type", "static_or_dynamic", "popularity"]
    assert [r.value for r in d.slices["domain"]] == ["finance", "sports", "music", "movie", "open"]


def test_an_abstaining_pipeline_shows_its_raw_score(abstaining: Path) -> None:
    run = load_run(abstaining)
    page = render([run], "html")
    assert f"<h2>{ABSTENTION_TITLE}</h2>" in page and DIAGNOSIS_TITLE not in page
    assert 'id="rm-cat"' not in page
    a = build_report([run]).runs[0].abstention
    assert a is not None and a.abstain_below == 0.3 and a.pipeline_raw_score is not None
    assert "This pipeline abstained below confidence 0.300" in page
    assert "this pipeline: below 0.300" in page  # marked on the plot
    details = _script_json(page, "rm-details")[0]
    raw = [d for d in details if "raw_label" in d]
    assert raw and all(d["label"] == "missing" and d["raw_answer"] for d in raw)


def test_markdown_tables(diagnosed: Path, abstaining: Path) -> None:
    md = render([load_run(diagnosed)], "markdown")
    assert f"**{DIAGNOSIS_TITLE}**" in md and f"**{ABSTENTION_TITLE}**" in md
    counts = Counter(_categories(diagnosed).values())
    for name in CATEGORY_ORDER:
        escaped = name.replace("_", "\\_")
        row = next(line for line in md.splitlines() if line.startswith(f"| `{escaped}` |"))
        assert f"| {counts.get(name, 0)} |" in row
    assert "| Domain | n | correct\\_grounded |" in md
    assert "AUROC 0." in md and "5-fold cross-validation" in md
    curve_rows = [line for line in md.splitlines() if line.startswith("| 0.") or "(chosen)" in line]
    assert 2 <= len(curve_rows) <= 12
    assert sum("(chosen)" in line for line in curve_rows) == 1
    md = render([load_run(abstaining)], "markdown")
    assert "This pipeline abstained below confidence 0.300" in md
    assert DIAGNOSIS_TITLE not in md


def test_folders_without_the_blocks_render_as_before(tmp_path: Path, diagnosed: Path) -> None:
    """Strip the blocks and the file: the report is the one an older folder gets."""
    old = tmp_path / "old"
    shutil.copytree(diagnosed, old)
    (old / "diagnosis.jsonl").unlink()
    results = orjson.loads((old / "results.json").read_bytes())
    del results["diagnosis"], results["abstention"]
    (old / "results.json").write_bytes(orjson.dumps(results))
    run = load_run(old)
    page = render([run], "html")
    for text in (DIAGNOSIS_TITLE, ABSTENTION_TITLE, 'id="rm-cat"', "plot cats", "plot curve"):
        assert text not in page
    rows = _script_json(page, "rm-rows")
    assert "categories" not in rows and {len(r) for r in rows["runs"][0]["rows"]} == {10}
    md = render([run], "markdown")
    assert DIAGNOSIS_TITLE not in md and ABSTENTION_TITLE not in md
    report = orjson.loads(render([run], "json"))
    assert "diagnosis" not in report["runs"][0] and "abstention" not in report["runs"][0]
    # A folder that never had them: nothing about confidence in its details either.
    plain = write_run(tmp_path / "plain", make_records(20, seed=1))
    details = _script_json(render([load_run(plain)], "html"), "rm-details")[0]
    assert not any({"confidence", "diagnosis", "raw_label"} & set(d) for d in details)


def test_the_blocks_are_no_longer_generic_metrics(diagnosed: Path) -> None:
    summary = build_report([load_run(diagnosed)]).runs[0]
    assert summary.blocks == []
    report = orjson.loads(render([load_run(diagnosed)], "json"))
    assert report["runs"][0]["diagnosis"]["n"] == summary.diagnosis.n  # type: ignore[union-attr]


def test_a_comparison_shows_each_diagnosed_run(tmp_path: Path, diagnosed: Path) -> None:
    other = write_run(tmp_path / "other", make_records(150, seed=2), name="rag-plain")
    runs = load_runs([diagnosed, other])
    page = render(runs, "html")
    assert f"<h2>{DIAGNOSIS_TITLE}</h2><h3>rag-diagnosed</h3>" in page
    assert 'data-run="0"' in page and 'data-run="1"' not in page
    md = render(runs, "markdown")
    assert f"**{DIAGNOSIS_TITLE}, rag-diagnosed**" in md


def test_unknown_categories_and_torn_lines(tmp_path: Path, diagnosed: Path) -> None:
    folder = tmp_path / "newer"
    shutil.copytree(diagnosed, folder)
    lines = (folder / "diagnosis.jsonl").read_bytes().splitlines()
    first = orjson.loads(lines[1])
    first["category"] = "a_newer_kind"
    lines[1] = orjson.dumps(first)
    # A diagnosis killed mid-write leaves a torn last line: it is dropped.
    (folder / "diagnosis.jsonl").write_bytes(b"\n".join([*lines, b'{"id": "x", "cat']))
    run = load_run(folder)
    assert run.nli == "fake:support" and len(run.diagnoses) == len(lines) - 1
    rows = _script_json(render([run], "html"), "rm-rows")
    assert rows["categories"][-1][0] == "a_newer_kind"

    (folder / "diagnosis.jsonl").write_bytes(b"\n".join([*lines[:3], b"[1, 2]", *lines[3:]]))
    with pytest.raises(DataError, match="diagnosis record") as err:
        load_run(folder)
    assert err.value.path == str(folder / "diagnosis.jsonl") and err.value.line == 4


def test_the_curve_table_is_short_and_holds_the_choice(diagnosed: Path) -> None:
    a = build_report([load_run(diagnosed)]).runs[0].abstention
    assert a is not None and len(a.curve) > 20
    rows = curve_sample(a)
    assert len(rows) <= 12 and a.chosen in rows
    assert rows[0].coverage == 1.0 and rows[-1].coverage == 0.0
    assert [r.coverage for r in rows] == sorted((r.coverage for r in rows), reverse=True)


def test_category_names_and_models_from_the_data_stay_text(tmp_path: Path, diagnosed: Path) -> None:
    folder = tmp_path / "payload"
    shutil.copytree(diagnosed, folder)
    lines = (folder / "diagnosis.jsonl").read_bytes().splitlines()
    lines[0] = orjson.dumps({"nli": PAYLOADS[1]})
    first = orjson.loads(lines[1])
    first["category"] = PAYLOADS[0]
    lines[1] = orjson.dumps(first)
    (folder / "diagnosis.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    results = orjson.loads((folder / "results.json").read_bytes())
    block = results["diagnosis"]
    block["nli"] = PAYLOADS[1]
    block["overall"]["categories"][PAYLOADS[0]] = {"count": 1, "share": 0.01}
    block["descriptions"][PAYLOADS[0]] = PAYLOADS[3]
    block["slices"]["domain"][PAYLOADS[2]] = block["overall"]
    (folder / "results.json").write_bytes(orjson.dumps(results))
    run = load_run(folder)
    page = render([run], "html")
    body = page[: page.index('<script type="application/json"')]
    for payload in PAYLOADS[:4]:
        assert payload not in body
    assert "&lt;script&gt;alert(&#x27;pred&#x27;)&lt;/script&gt;" in body
    md = render([run], "markdown")
    assert "<script>" not in md and "<img" not in md and "<svg" not in md
