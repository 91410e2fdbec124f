"""``ragmeter export --to mlflow`` against a local MLflow file store: metrics read back equal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ragmeter
from cli_helpers import run_cli
from ragmeter.types import Answer, Question, StageTiming, Usage

mlflow = pytest.importorskip("mlflow", reason="the 'mlflow' extra is part of 'all'")


def system(question: Question) -> Answer:
    text = (question.answer or "") if question.labels.domain in ("finance", "movie") else "no idea"
    usage = Usage(prompt_tokens=700, completion_tokens=12)
    return Answer(text=text, stages={"generation": StageTiming(seconds=0.01, usage=usage)})


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export") / "run"
    ragmeter.run(
        "demo",
        system=system,
        out=out,
        scoring__judge=None,
        prices={"answer": {"input": 1.0, "output": 4.0}},
    )
    return out


def test_export_round_trips(
    run_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    store = tmp_path / "mlruns"
    result = run_cli("export", str(run_folder), "--to", "mlflow", "--tracking-uri", str(store))
    assert result.returncode == 0, result.stderr
    run_id = result.stdout.split()[2]

    client = mlflow.tracking.MlflowClient(tracking_uri=store.resolve().as_uri())
    got = client.get_run(run_id)
    saved = json.loads((run_folder / "results.json").read_text())
    metrics = got.data.metrics
    for name in ("score", "accuracy", "hallucination", "missing"):
        assert metrics[name] == saved[name]["value"]
        assert metrics[f"{name}_ci_low"] == saved[name]["ci_low"]
        assert metrics[f"{name}_ci_high"] == saved[name]["ci_high"]
    assert metrics["n"] == saved["n"] == 10
    assert metrics["count_correct"] == saved["counts"]["correct"]
    for slice_name, by_value in saved["slices"].items():
        for value, figures in by_value.items():
            if figures["score"]["value"] is not None:
                key = f"{slice_name}/{value}/score".replace("&", "_")
                assert metrics[key] == figures["score"]["value"]
    assert (
        metrics["tokens/answering/prompt"] == saved["usage"]["stages"]["answering"]["prompt_tokens"]
    )
    assert metrics["cost/total"] == pytest.approx(saved["usage"]["total"]["cost"])
    params = got.data.params
    assert params["pipeline.name"] == "callable" and params["name"] == "demo"
    assert params["scoring.judge"] == "null"
    assert len(params["ragmeter.spec_hash"]) == 64
    artifacts = {a.path for a in client.list_artifacts(run_id)}
    assert {"results.json", "header.json", "samples.jsonl", "report.html"} <= artifacts


def test_export_needs_a_tracking_uri(run_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    result = run_cli("export", str(run_folder), "--to", "mlflow")
    assert result.returncode == 2 and "give --tracking-uri" in result.stderr
    result = run_cli("export", str(run_folder), "--to", "wandb")
    assert result.returncode == 2 and "only tracker" in result.stderr
