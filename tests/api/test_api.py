"""The Python API: ``ragmeter.run``, ``score`` and ``load``, and a light ``import ragmeter``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import ragmeter
from ragmeter.errors import ConfigError
from ragmeter.types import Answer, Question, StageTiming, Usage

DOC = Path(__file__).resolve().parents[2] / "docs" / "python-api.md"


def test_import_is_light() -> None:
    """``import ragmeter`` loads no model backend, no torch, no engine, no scoring."""
    code = (
        "import sys, ragmeter; heavy = [m for m in ('torch', 'llama_cpp', 'numpy', 'pydantic', "
        "'ragmeter.engine', 'ragmeter.scoring', 'ragmeter.api') if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def gold_with_usage(question: Question) -> Answer:
    """Answers finance questions with the gold, refuses the rest; reports its tokens."""
    text = (question.answer or "") if question.labels.domain == "finance" else "I don't know"
    usage = Usage(prompt_tokens=1000, completion_tokens=10)
    return Answer(text=text, stages={"generation": StageTiming(seconds=0.01, usage=usage)})


def test_run_with_a_function_and_prices(tmp_path: Path) -> None:
    result = ragmeter.run(
        "demo",
        system=gold_with_usage,
        limit=4,
        out=tmp_path / "run",
        scoring__judge=None,
        prices={"answer": {"input": 0.5, "output": 2.0}, "judge": {"input": 1, "output": 1}},
    )
    assert result.folder == tmp_path / "run" and result.kind == "crag" and result.n == 4
    labels = [r.label for r in result.records]
    assert labels.count("correct") == 1 and labels.count("missing") == 3
    assert result.score.value == pytest.approx(0.25)
    assert result.score.ci_low is not None and result.score.ci_low <= 0.25 <= result.score.ci_high
    assert set(result.slices["domain"]) == {r.labels.domain for r in result.records}
    assert result.slices["domain"]["finance"]["accuracy"].value == 1.0
    # Tokens and money per stage, in results.json and on the result.
    assert result.usage is not None
    answering = result.usage.stages["answering"]
    assert (answering.prompt_tokens, answering.completion_tokens) == (4000, 40)
    assert answering.cost == pytest.approx((4000 * 0.5 + 40 * 2.0) / 1e6)
    assert "judging" not in result.usage.stages  # rules only: the judge read nothing
    saved = json.loads((tmp_path / "run" / "results.json").read_text())
    assert saved["usage"]["total"]["cost"] == pytest.approx(answering.cost)
    frame = result.to_pandas()
    assert list(frame["label"]) == labels and frame["prompt_tokens"].sum() == 4000
    again = ragmeter.load(tmp_path / "run")
    assert again.overall == result.overall and len(again.records) == 4
    assert (tmp_path / "run" / "report.html").is_file()
    # The report shows tokens and cost per stage.
    from ragmeter.report import write_report

    markdown = Path(write_report([tmp_path / "run"], tmp_path / "report.md")).read_text()
    assert "Tokens and cost" in markdown and "| answering | 4,000 | 40 | $0.0021 |" in markdown
    assert "Tokens and cost" in (tmp_path / "run" / "report.html").read_text()


class OfficialSystem:
    """The official participant interface, given as an instance."""

    def __init__(self) -> None:
        self.calls = 0

    def get_batch_size(self) -> int:
        return 2

    def batch_generate_answer(self, batch: dict[str, Any]) -> list[str]:
        self.calls += 1
        return ["i don't know" for _ in batch["query"]]


def test_run_with_an_official_class_instance(tmp_path: Path) -> None:
    system = OfficialSystem()
    result = ragmeter.run(
        "demo", system=system, limit=3, out=tmp_path / "r", scoring__judge=None, report=False
    )
    assert system.calls == 2 and result.missing.value == 1.0
    assert result.header is not None and result.header.spec["pipeline"]["name"] == "crag_class"


def test_score_a_mapping_and_load_a_score_folder(crag_validation: Path, tmp_path: Path) -> None:
    rows = [json.loads(x) for x in crag_validation.read_text().splitlines()[:30]]
    predictions = {r["interaction_id"]: r["answer"] for r in rows[:10]}
    result = ragmeter.score(crag_validation, predictions, judge="rules", out=tmp_path / "s")
    assert result.header is None and result.n == 1371
    assert result.counts["correct"] >= 9 and result.counts["missing"] >= 1361 - 1
    by_rows = ragmeter.score(
        crag_validation,
        [{"query": r["query"], "prediction": r["answer"]} for r in rows[:10]],
        judge="rules",
        out=tmp_path / "q",
    )
    assert by_rows.overall == result.overall


def test_bad_input_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not a run folder"):
        ragmeter.load(tmp_path / "missing")
    with pytest.raises(ConfigError, match="unknown key"):
        ragmeter.run("demo", out=tmp_path / "x", scoring__jugde="rules")
    with pytest.raises(TypeError, match="system must be a callable"):
        ragmeter.run("demo", out=tmp_path / "y", system=42)


def _python_blocks(text: str) -> list[str]:
    blocks, current, inside = [], [], False
    for line in text.splitlines():
        if line.strip() == "```python":
            inside, current = True, []
        elif line.strip() == "```" and inside:
            inside = False
            blocks.append("\n".join(current))
        elif inside:
            current.append(line)
    return blocks


def test_user_guide_notebook_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Python block of docs/python-api.md, in order, as one notebook session."""
    monkeypatch.chdir(tmp_path)
    blocks = _python_blocks(DOC.read_text(encoding="utf-8"))
    assert len(blocks) >= 5
    namespace: dict[str, Any] = {"__name__": "notebook"}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
    assert namespace["result"].n == 5
    assert (tmp_path / "ragmeter-notebook" / "toy-run" / "results.json").is_file()
