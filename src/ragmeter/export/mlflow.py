"""``ragmeter export RUN_DIR --to mlflow``: one MLflow run per ragmeter run folder.

- **parameters**: the run spec, flattened to dotted keys (``pipeline.options.top_k``),
  with the spec hash, the data file's sha256 and the models used;
- **metrics**: every overall figure with its interval bounds (``score``,
  ``score_ci_low``, ``score_ci_high``...), the label counts, every slice
  (``domain/finance/score``...) and the tokens and cost per stage;
- **artifacts**: ``results.json``, ``header.json``, the ``samples.jsonl`` journal and the
  report (``report.html``, rendered when the folder has none).

Names are kept to what MLflow accepts (letters, digits, ``_ - . /`` and spaces).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ragmeter.api.result import RunResult, load
from ragmeter.errors import ConfigError, MissingExtraError

__all__ = ["export_mlflow", "metrics_of", "params_of"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_\-. /]")
_MAX_PARAM = 500
_BATCH = 100


def _name(text: str) -> str:
    return _UNSAFE.sub("_", text)


def _flatten(prefix: str, value: Any) -> Iterator[tuple[str, str]]:
    if isinstance(value, Mapping) and value:
        for key, inner in value.items():
            yield from _flatten(f"{prefix}.{key}" if prefix else str(key), inner)
    else:
        yield prefix, "null" if value is None else str(value)


def params_of(result: RunResult) -> dict[str, str]:
    """The run's parameters: its spec flattened, its spec hash, data hash and models."""
    out: dict[str, str] = {}
    if result.header is not None:
        h = result.header
        out.update(_flatten("", h.spec))
        out["ragmeter.spec_hash"] = h.spec_hash
        out["ragmeter.version"] = h.ragmeter_version
        out["data.sha256"] = h.data.sha256
        out["data.selected"] = str(h.data.selected)
        for role, identity in h.models.items():
            out[f"model.{role}"] = identity
    else:
        scoring = result.results.get("scoring")
        if isinstance(scoring, Mapping):
            out["scoring.judge"] = str(scoring.get("judge", ""))
    return {_name(k)[:250]: v[:_MAX_PARAM] for k, v in out.items()}


def _estimate(prefix: str, est: Any) -> dict[str, float]:
    out: dict[str, float] = {}
    if est.value is not None:
        out[prefix] = float(est.value)
    if est.ci_low is not None and est.ci_high is not None:
        out[f"{prefix}_ci_low"] = float(est.ci_low)
        out[f"{prefix}_ci_high"] = float(est.ci_high)
    return out


def metrics_of(result: RunResult) -> dict[str, float]:
    """Every figure of the run as an MLflow metric (figures without a value are left out)."""
    out: dict[str, float] = {}
    for name, est in result.overall.items():
        out.update(_estimate(name, est))
    for key in ("n", "n_scored"):
        value = result.results.get(key)
        if isinstance(value, int | float):
            out[key] = float(value)
    for label, count in result.counts.items():
        out[f"count_{label}"] = float(count)
    for slice_name, by_value in result.slices.items():
        for value, figures in by_value.items():
            for metric, est in figures.items():
                out.update(_estimate(f"{slice_name}/{value}/{metric}", est))
    if result.usage is not None:
        for stage, usage in [*result.usage.stages.items(), ("total", result.usage.total)]:
            out[f"tokens/{stage}/prompt"] = float(usage.prompt_tokens)
            out[f"tokens/{stage}/completion"] = float(usage.completion_tokens)
            if usage.cost is not None:
                out[f"cost/{stage}"] = float(usage.cost)
    return {_name(k): v for k, v in out.items()}


def _tracking_uri(uri: str | None) -> str:
    uri = uri or os.environ.get("MLFLOW_TRACKING_URI")
    if not uri:
        raise ConfigError(
            "give --tracking-uri (an MLflow server URL, or a folder for a local file store) "
            "or set MLFLOW_TRACKING_URI"
        )
    if "://" not in uri and not uri.startswith("file:"):
        uri = Path(uri).resolve().as_uri()
    if uri.startswith("file:"):
        # MLflow 3 keeps its file store behind this switch; naming a folder is asking for it.
        os.environ.setdefault("MLFLOW_ALLOW_FILE_STORE", "true")
    return uri


def _chunks(items: list[Any]) -> Iterator[list[Any]]:
    for i in range(0, len(items), _BATCH):
        yield items[i : i + _BATCH]


def export_mlflow(
    run_dir: str | Path,
    *,
    tracking_uri: str | None = None,
    experiment: str = "ragmeter",
    run_name: str | None = None,
) -> str:
    """Log a run folder as one MLflow run; returns the MLflow run id."""
    result = load(run_dir)
    uri = _tracking_uri(tracking_uri)
    try:
        from mlflow.entities import Metric, Param, RunTag
        from mlflow.tracking import MlflowClient
    except ImportError:
        raise MissingExtraError("mlflow", "ragmeter export --to mlflow") from None
    client = MlflowClient(tracking_uri=uri)
    found = client.get_experiment_by_name(experiment)
    experiment_id = (
        found.experiment_id if found is not None else client.create_experiment(experiment)
    )
    run = client.create_run(
        experiment_id,
        run_name=run_name or result.name,
        tags={"ragmeter.folder": str(result.folder.resolve()), "ragmeter.kind": result.kind},
    )
    run_id: str = run.info.run_id
    try:
        stamp = int(run.info.start_time or 0)
        metrics = [Metric(k, v, stamp, 0) for k, v in metrics_of(result).items()]
        params = [Param(k, v) for k, v in params_of(result).items()]
        for part in _chunks(params):
            client.log_batch(run_id, params=part)
        for part in _chunks(metrics):
            client.log_batch(run_id, metrics=part)
        client.log_batch(run_id, tags=[RunTag("ragmeter.name", result.name)])
        _log_artifacts(client, run_id, result)
    except BaseException:
        client.set_terminated(run_id, status="FAILED")
        raise
    client.set_terminated(run_id)
    return run_id


def _log_artifacts(client: Any, run_id: str, result: RunResult) -> None:
    folder = result.folder
    for name in ("results.json", "header.json", "samples.jsonl", "report.html"):
        if (folder / name).is_file():
            client.log_artifact(run_id, str(folder / name))
    if not (folder / "report.html").is_file():
        from ragmeter.report import write_report

        with tempfile.TemporaryDirectory() as tmp:
            page = Path(write_report([folder], Path(tmp) / "report.html"))
            client.log_artifact(run_id, str(page))
