"""`RunResult`: a scored folder read back for Python users (`ragmeter.load`).

A folder written by ``ragmeter run`` (``header.json``, ``samples.jsonl``,
``results.json``) or by ``ragmeter score --out`` (no header) becomes one typed
object: the overall figures with their intervals, the slices, one record per
question, the tokens and cost per stage, and ``to_pandas()``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, ValidationError

from ragmeter.diagnosis.abstention import AbstentionSummary
from ragmeter.diagnosis.records import DiagnosisSummary
from ragmeter.engine.cost import RunUsage, read_usage
from ragmeter.engine.journal import HEADER, JOURNAL, RESULTS, RunHeader, RunRecord, read_header
from ragmeter.errors import ConfigError, DataError, MissingExtraError
from ragmeter.scoring.bootstrap import Estimate
from ragmeter.scoring.crag.records import Results, ScoredSample

__all__ = ["CRAG_METRICS", "RunResult", "load"]

CRAG_METRICS = ("score", "accuracy", "hallucination", "missing")
"""The headline CRAG figures, in the order they are shown."""


class RunResult(BaseModel):
    """A scored folder: figures with intervals, slices, per-question records, the folder."""

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    folder: Path
    """The run folder everything was read from."""
    name: str
    """The spec's name, or the folder's name for a scored predictions file."""
    kind: str
    """``crag`` (answers scored as correct / missing / incorrect) or ``trust`` (Trust-Score)."""
    overall: dict[str, Estimate]
    """Metric name to estimate (value and 95% interval): for CRAG score, accuracy,
    hallucination and missing; for Trust-Score every figure of the result."""
    slices: dict[str, dict[str, dict[str, Estimate]]]
    """Slice name (domain, question_type...) to value to metric to estimate (CRAG only)."""
    records: list[ScoredSample]
    """One record per question, in selection order (`RunRecord` for run folders)."""
    results: dict[str, Any]
    """``results.json`` as written (counts, warnings, scoring details...)."""
    header: RunHeader | None = None
    """``header.json`` for a run folder (None for a scored predictions file)."""
    usage: RunUsage | None = None
    """Tokens and cost per stage (None for folders without a usage block)."""
    abstention: AbstentionSummary | None = None
    """What abstaining would have earned, when answers carry confidences."""
    diagnosis: DiagnosisSummary | None = None
    """Where the points went, for diagnosed runs (``diagnose: true`` or ``ragmeter diagnose``)."""

    @property
    def n(self) -> int:
        """How many questions were scored or counted."""
        return int(self.results.get("n", len(self.records)))

    def metric(self, name: str) -> Estimate:
        """One overall figure by name; a `KeyError` lists the known ones."""
        if name not in self.overall:
            raise KeyError(f"no metric '{name}' (known: {', '.join(self.overall)})")
        return self.overall[name]

    @property
    def score(self) -> Estimate:
        """CRAG score: accuracy − hallucination."""
        return self.metric("score")

    @property
    def accuracy(self) -> Estimate:
        """Share of correct answers."""
        return self.metric("accuracy")

    @property
    def hallucination(self) -> Estimate:
        """Share of incorrect answers."""
        return self.metric("hallucination")

    @property
    def missing(self) -> Estimate:
        """Share of missing answers (refusals, no prediction)."""
        return self.metric("missing")

    @property
    def counts(self) -> dict[str, int]:
        """Questions per label (correct, incorrect, missing, unscored) for CRAG results."""
        raw = self.results.get("counts")
        return {str(k): int(v) for k, v in raw.items()} if isinstance(raw, dict) else {}

    @property
    def warnings(self) -> list[str]:
        """Everything that makes the figures less than exact."""
        return [str(w) for w in self.results.get("warnings", [])]

    def to_pandas(self) -> Any:
        """One row per question: id, query, prediction, label, score, slices, time and tokens.

        Needs pandas (``pip install pandas``, or the ``kg`` extra).
        """
        try:
            import pandas as pd
        except ImportError:
            raise MissingExtraError("kg", "RunResult.to_pandas()") from None
        return pd.DataFrame([_row(r) for r in self.records])

    def __str__(self) -> str:
        lines = [f"{self.name}: {self.n} questions ({self.folder})"]
        for name, est in self.overall.items():
            lines.append(f"  {name:<14} {_pct(est)}")
        return "\n".join(lines)


def _pct(est: Estimate) -> str:
    if est.value is None:
        return "n/a"
    if est.ci_low is None or est.ci_high is None:
        return f"{100 * est.value:.1f}%"
    return f"{100 * est.value:.1f}% [{100 * est.ci_low:.1f}, {100 * est.ci_high:.1f}]"


def _row(record: ScoredSample) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": record.id,
        "query": record.query,
        "gold": record.answers[0] if record.answers else None,
        "prediction": record.prediction,
        "label": record.label,
        "score": record.score,
        "rule": record.rule,
    }
    row.update(record.labels.model_dump())
    if isinstance(record, RunRecord):
        prompt = sum(t.usage.prompt_tokens for t in record.stages.values())
        completion = sum(t.usage.completion_tokens for t in record.stages.values())
        row.update(
            seconds=record.seconds,
            prompt_tokens=prompt,
            completion_tokens=completion,
            error=record.error,
        )
    return row


def _read_results(path: Path) -> dict[str, Any]:
    try:
        data = orjson.loads(path.read_bytes())
    except OSError as exc:
        raise DataError(f"cannot read: {exc.strerror}", path=path) from None
    except orjson.JSONDecodeError as exc:
        raise DataError(f"not JSON: {exc}", path=path) from None
    if not isinstance(data, dict):
        raise DataError("results must be a JSON object", path=path)
    return data


def _read_scored(path: Path) -> list[ScoredSample]:
    """The lines of a ``ragmeter score --out`` folder's ``samples.jsonl``."""
    out: list[ScoredSample] = []
    if not path.exists():
        return out
    for line_no, raw in enumerate(path.read_bytes().split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            out.append(ScoredSample.model_validate_json(raw))
        except ValidationError as exc:
            raise DataError(
                f"not a scored sample: {exc.errors()[0]['msg']}", path=path, line=line_no
            ) from None
    return out


def _crag_view(data: dict[str, Any], path: Path) -> tuple[dict[str, Estimate], Any]:
    fields = {k: v for k, v in data.items() if k in Results.model_fields}
    try:
        results = Results.model_validate(fields)
    except ValidationError as exc:
        raise DataError(f"not CRAG results: {exc.errors()[0]['msg']}", path=path) from None
    overall = {m: getattr(results, m) for m in CRAG_METRICS}
    slices = {
        name: {
            value: {m: getattr(metrics, m) for m in CRAG_METRICS}
            for value, metrics in by_value.items()
        }
        for name, by_value in results.slices.items()
    }
    return overall, slices


def _trust_view(data: dict[str, Any]) -> dict[str, Estimate]:
    return {
        k: Estimate.model_validate(v)
        for k, v in data.items()
        if isinstance(v, dict) and "value" in v and "ci_low" in v
    }


def load(run_dir: str | Path) -> RunResult:
    """Read a scored folder (``ragmeter run`` or ``ragmeter score --out``) as a `RunResult`."""
    folder = Path(run_dir)
    if not folder.is_dir():
        raise ConfigError(f"{folder} is not a run folder (not a directory)")
    results_path = folder / RESULTS
    if not results_path.is_file():
        raise ConfigError(f"{folder} is not a scored run folder (no {RESULTS})")
    data = _read_results(results_path)
    header = read_header(folder) if (folder / HEADER).is_file() else None
    if header is not None:
        from ragmeter.engine.journal import read_journal

        journal = sorted(read_journal(folder), key=lambda r: r.index)
        records: list[ScoredSample] = list(journal)
    else:
        records = _read_scored(folder / JOURNAL)
    if "hallucination" in data:
        kind = "crag"
        overall, slices = _crag_view(data, results_path)
    else:
        kind = "trust"
        overall, slices = _trust_view(data), {}
    try:
        usage = read_usage(data)
        abstention = (
            AbstentionSummary.model_validate(data["abstention"]) if "abstention" in data else None
        )
        diagnosis = (
            DiagnosisSummary.model_validate(data["diagnosis"]) if "diagnosis" in data else None
        )
    except ValidationError as exc:
        where = ".".join(str(p) for p in exc.errors()[0]["loc"])
        raise DataError(f"bad block {where}: {exc.errors()[0]['msg']}", path=results_path) from None
    name = str(header.spec.get("name") or "") if header is not None else ""
    return RunResult(
        folder=folder,
        name=name or folder.resolve().name,
        kind=kind,
        overall=overall,
        slices=slices,
        records=records,
        results=data,
        header=header,
        usage=usage,
        abstention=abstention,
        diagnosis=diagnosis,
    )
