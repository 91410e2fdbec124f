"""The report a real `ragmeter run` leaves behind: SmolLM2 answering over real CRAG pages."""

from __future__ import annotations

import sys
from pathlib import Path

import orjson
import pytest

from ragmeter.cli.main import main
from ragmeter.report import build_report, load_run, render

SPEC = """\
name: smol-plumbing
data:
  path: {data}
  limit: 1
pipeline:
  name: rag
  options:
    retriever: bm25
    top_k: 2
llm: llamacpp:smollm2-135m-instruct
# Every call computed: the stage usage checked below counts only computed tokens.
cache: false
generation:
  max_tokens: 8
scoring:
  judge: null
budget:
  time_per_question_s: 900
"""


@pytest.mark.model
def test_report_of_a_real_run(
    crag_sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC.format(data=crag_sample), encoding="utf-8")
    out = tmp_path / "run"
    monkeypatch.setattr(sys, "argv", ["ragmeter", "run", str(spec), "--out", str(out)])
    try:
        main()
    except SystemExit as exc:
        assert not exc.code
    results = orjson.loads((out / "results.json").read_bytes())
    # `ragmeter run` writes its own HTML report at the end.
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "smol-plumbing" in page
    view = load_run(out)
    (sample,) = view.samples
    assert sample.answer is not None and len(sample.answer.retrieved) == 2
    assert sample.all_stages["generation"].usage.prompt_tokens > 0
    report = build_report([view])
    summary = report.runs[0]
    assert summary.headline.n == results["n"] == 1
    assert summary.facts.pipeline == "rag"
    assert "smollm2" in summary.facts.answer_model.lower()
    assert summary.facts.data_sha256 and summary.facts.created
    stages = {s.stage for s in summary.cost.stages}
    assert {"extraction", "retrieval", "generation"} <= stages
    md = render([view], "markdown")
    assert "smol-plumbing" in md and "| generation |" in md
    # Real page text reaches the drill-down data intact (it is escaped only for transport).
    start = page.index('<script type="application/json" id="rm-details">')
    blob = page[page.index(">", start) + 1 : page.index("</script>", start)]
    (detail,) = orjson.loads(blob)[0]
    assert [c["chunk_id"] for c in detail["chunks"]] == [
        c.chunk_id for c in sample.answer.retrieved
    ]
    assert detail["chunks"][0]["text"] in sample.answer.retrieved[0].text
    assert detail["prediction"] == sample.prediction
