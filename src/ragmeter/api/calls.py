"""`ragmeter.run` and `ragmeter.score`: the command line's runs and scoring, from Python."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from ragmeter.api.result import RunResult, load
from ragmeter.config import LoadedSpec, RunSpec, parse_run_spec
from ragmeter.errors import ConfigError

__all__ = ["override_strings", "run", "score"]


def override_strings(overrides: Mapping[str, Any]) -> list[str]:
    """Keyword overrides as ``--set`` texts: ``scoring__judge=None`` → ``scoring.judge=null``.

    A double underscore (or a dot, through ``**{"a.b": v}``) separates nested keys; values
    are written as JSON, which the spec reader parses as YAML.
    """
    return [f"{key.replace('__', '.')}={json.dumps(value)}" for key, value in overrides.items()]


def _load(spec_or_path: str | Path | Mapping[str, Any] | RunSpec, sets: list[str]) -> LoadedSpec:
    if isinstance(spec_or_path, RunSpec):
        spec_or_path = spec_or_path.model_dump(mode="json")
    if isinstance(spec_or_path, Mapping):
        text = yaml.safe_dump(dict(spec_or_path), sort_keys=False)
        return parse_run_spec(text, "<python spec>", sets)
    from ragmeter.engine.specs import load_spec

    return load_spec(str(spec_or_path), sets)


def _default_out(name: str) -> Path:
    """A new folder under ``./runs`` named after the spec and the time (as ``make demo``)."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    return Path("runs") / f"{name}-{stamp}"


def run(
    spec_or_path: str | Path | Mapping[str, Any] | RunSpec,
    *,
    out: str | Path | None = None,
    limit: int | None = None,
    system: Any = None,
    progress: bool = False,
    **overrides: Any,
) -> RunResult:
    """Run a spec (a built-in name, a YAML file, a mapping or a `RunSpec`) and read the result.

    ``system`` runs your own system in this process: a callable taking a
    `ragmeter.types.Question` (returning a string, an `Answer` or a mapping), or an
    object with the official CRAG ``get_batch_size()`` / ``batch_generate_answer()``.
    ``overrides`` set spec keys, nested with ``__``: ``scoring__judge=None`` (rules only),
    ``llm="openai:MODEL@URL"``. ``out`` defaults to a new folder under ``./runs``.
    """
    from ragmeter.engine.report_hook import write_report
    from ragmeter.engine.runner import prepare
    from ragmeter.engine.runner import run as run_plan

    sets = override_strings(overrides)
    if limit is not None:
        sets.append(f"data.limit={int(limit)}")
    if system is not None:
        from ragmeter.api.systems import system_pipeline

        sets.append(f"pipeline={json.dumps(system_pipeline(system))}")
    loaded = _load(spec_or_path, sets)
    if system is not None and loaded.spec.executor.kind != "local":
        raise ConfigError("a system given as a Python object runs with the local executor")
    folder = Path(out) if out is not None else _default_out(loaded.spec.name)
    plan = prepare(loaded, folder)
    if progress:
        from ragmeter.engine.progress import RunProgress

        with RunProgress(plan.header.data.selected, plan.done, enabled=True) as bar:
            run_plan(plan, on_records=bar.update)
    else:
        run_plan(plan)
    if loaded.spec.report:
        write_report(folder)
    return load(folder)


def score(
    dataset: str | Path,
    predictions: str | Path | Mapping[str, str | None] | Sequence[Mapping[str, Any]],
    *,
    judge: str = "local",
    out: str | Path | None = None,
    counting: str = "ragmeter",
) -> RunResult:
    """Score predictions against a CRAG data set and read the result back.

    ``predictions`` is a file (ids JSONL, the starter kit's ``predictions.json``, or a JSONL
    of ``{query, prediction}``), a mapping of question id to prediction, or a list of rows
    (``{"id", "prediction"}`` or ``{"query", "prediction"}``). ``judge`` is ``rules``,
    ``local``, ``openai:MODEL@URL`` or several joined by commas; ``counting="official"``
    counts as the official CRAG script does. ``out`` defaults to a new folder under ``./runs``.
    """
    from ragmeter.scoring.crag.inputs import read_dataset
    from ragmeter.scoring.crag.prediction_files import (
        match_prediction_rows,
        read_predictions_file,
    )
    from ragmeter.scoring.crag.service import score_to_folder

    questions = read_dataset(dataset)
    if isinstance(predictions, str | Path):
        matched = read_predictions_file(predictions, questions)
    elif isinstance(predictions, Mapping):
        matched = match_prediction_rows(
            [{"id": k, "prediction": v} for k, v in predictions.items()], questions, "<mapping>"
        )
    else:
        matched = match_prediction_rows(list(predictions), questions, "<rows>")
    folder = Path(out) if out is not None else _default_out("score")
    asyncio.run(score_to_folder(questions, matched, folder, judge=judge, counting=counting))
    return load(folder)
