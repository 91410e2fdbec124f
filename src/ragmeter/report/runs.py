"""Reading run folders into the report's own view of them.

A run folder holds ``header.json`` (what ran), ``samples.jsonl`` (one record per
question) and ``results.json`` (the aggregate). The report layer sits beside the
engine and scoring, not above them, so it does not import their models: it reads
the same JSON into views that keep only the fields a report shows. The views
ignore fields they do not know (a newer run folder still renders) but type the
ones they use, so a malformed folder is a clear `DataError` naming the file and
line, never a report with silent holes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragmeter.errors import ConfigError, DataError
from ragmeter.types import Label

__all__ = [
    "DIAGNOSES",
    "HEADER",
    "JOURNAL",
    "RESULTS",
    "AbstentionView",
    "AnswerView",
    "CategoryCountView",
    "CategoryTableView",
    "ChunkView",
    "CurvePointView",
    "DiagnosisView",
    "EstimateView",
    "HeaderView",
    "ResultsView",
    "RunView",
    "SampleDiagnosisView",
    "SampleView",
    "SliceView",
    "StageView",
    "ThresholdChoiceView",
    "load_run",
    "load_runs",
]

HEADER = "header.json"
JOURNAL = "samples.jsonl"
RESULTS = "results.json"
DIAGNOSES = "diagnosis.jsonl"


class View(BaseModel):
    """A read-only view of an on-disk record: unknown fields are ignored, known ones typed."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class EstimateView(View):
    """A mean with its confidence interval (bounds are None when nothing was measured)."""

    value: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None


class SliceView(View):
    """The CRAG metrics of one slice (or of the whole set)."""

    n: int
    n_scored: int | None = None
    accuracy: EstimateView | None = None
    hallucination: EstimateView | None = None
    missing: EstimateView | None = None
    score: EstimateView | None = None
    unscored: int = 0


class UnscoredView(View):
    """Samples that could not be scored, by reason."""

    count: int = 0
    reasons: dict[str, int] = Field(default_factory=dict)


class TruncationView(View):
    """How predictions were cut before scoring."""

    max_tokens: int = 75
    tokenizer: str = ""
    fallback: bool = False
    n_truncated: int = 0


class PanelView(View):
    """How far several judges agreed."""

    n: int = 0
    rate: float | None = None
    kappa: float | None = None
    split_share: float | None = None


class MeasuredAgreementView(View):
    """A single judge's agreement with careful graders on the shipped real-answer set."""

    suite: str = ""
    split: str = ""
    n: int = 0
    accuracy: float | None = None
    kappa: float | None = None


class ManipulationView(View):
    """Predictions the manipulation screen flagged."""

    count: int = 0
    by_pattern: dict[str, int] = Field(default_factory=dict)
    ids: list[str] = Field(default_factory=list)


class ScoringView(View):
    """How the results were produced."""

    judge: str = ""
    judges: list[str] = Field(default_factory=list)
    approximate: bool = False
    truncation: TruncationView | None = None
    rules_share: float | None = None
    judge_calls: int = 0
    confidence: float = 0.95
    panel: PanelView | None = None
    measured_agreement: MeasuredAgreementView | None = None


class HumanView(View):
    """Truthfulness on the human scale."""

    n: int
    truthfulness: EstimateView
    agreement: float | None = None


class WeightedView(View):
    """Scores weighted per question type and the mean over domains."""

    source: str = ""
    question_type: float | None = None
    domain_mean: float | None = None


class StageUsageView(View):
    """Tokens and cost of one cost stage (answering, judging, nli)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None


class RunUsageView(View):
    """The ``usage`` block of results.json: tokens and cost per stage."""

    stages: dict[str, StageUsageView] = Field(default_factory=dict)
    total: StageUsageView = Field(default_factory=StageUsageView)
    currency: str | None = None


class CategoryCountView(View):
    """One diagnosis category over a set of questions and the score points it accounts for."""

    count: int = 0
    share: float = 0.0
    score_points: float = 0.0
    """Its part of the CRAG score (−1..1 scale): the labels of its questions over the set."""
    points_short: float = 0.0
    """Its part of the gap to a perfect score."""


class CategoryTableView(View):
    """Every diagnosis category's count and points over one set of questions."""

    n: int = 0
    categories: dict[str, CategoryCountView] = Field(default_factory=dict)


class DiagnosisView(View):
    """The ``diagnosis`` block of results.json: where the points went, overall and per slice."""

    n: int = 0
    overall: CategoryTableView = Field(default_factory=CategoryTableView)
    slices: dict[str, dict[str, CategoryTableView]] = Field(default_factory=dict)
    answer_in_pages: float | None = None
    answer_in_evidence: float | None = None
    supported: float | None = None
    nli: str = ""
    descriptions: dict[str, str] = Field(default_factory=dict)


class CurvePointView(View):
    """The figures when abstaining on every answer whose confidence is below ``threshold``."""

    threshold: float
    coverage: float
    score: float
    accuracy: float
    hallucination: float


class ThresholdChoiceView(View):
    """The abstention threshold chosen on the run, with its cross-validated estimate."""

    threshold: float
    threshold_ci: tuple[float, float] | None = None
    in_sample_score: float | None = None
    cv_score: EstimateView = Field(default_factory=EstimateView)
    cv_gain: EstimateView = Field(default_factory=EstimateView)
    raw_score: float | None = None
    folds: int = 0
    n: int = 0


class AbstentionView(View):
    """The ``abstention`` block of results.json: what abstaining would have earned."""

    n: int = 0
    with_confidence: int = 0
    auroc: float | None = None
    curve: list[CurvePointView] = Field(default_factory=list)
    choice: ThresholdChoiceView | None = None
    abstain_below: float | None = None
    """The threshold the pipeline itself abstained below, when it did."""
    raw_score: EstimateView | None = None
    """With ``abstain_below``: the score of the answers it would have given."""


# Keys of results.json that the views above cover; any other top-level mapping
# (the Trust-Score block of a cited run, for one) is shown as an extra block.
KNOWN_RESULT_KEYS = frozenset(
    {
        "n",
        "n_scored",
        "accuracy",
        "hallucination",
        "missing",
        "score",
        "unscored",
        "counts",
        "slices",
        "human",
        "weighted",
        "scoring",
        "warnings",
        "manipulation",
        "usage",
        "diagnosis",
        "abstention",
    }
)


class ResultsView(SliceView):
    """``results.json``: the overall metrics, their slices and how they were made."""

    unscored_summary: UnscoredView = Field(default_factory=UnscoredView)
    counts: dict[str, int] = Field(default_factory=dict)
    slices: dict[str, dict[str, SliceView]] = Field(default_factory=dict)
    human: HumanView | None = None
    weighted: WeightedView | None = None
    scoring: ScoringView | None = None
    warnings: list[str] = Field(default_factory=list)
    manipulation: ManipulationView = Field(default_factory=ManipulationView)
    usage: RunUsageView | None = None
    """Tokens and cost per stage (answering, judging, nli), when the run wrote them."""
    diagnosis: DiagnosisView | None = None
    """Where the points went, when the run was diagnosed."""
    abstention: AbstentionView | None = None
    """What abstaining would have earned, when answers carry a confidence."""
    extra_blocks: dict[str, Any] = Field(default_factory=dict)
    """Top-level mappings the views do not know (a Trust-Score block, ...), as read."""


class DataView(View):
    """Which questions a run used."""

    format: str = ""
    path: str = ""
    sha256: str = ""
    selected: int | None = None
    limit: int | None = None
    sample: int | None = None
    seed: int | None = None


class HeaderView(View):
    """``header.json``: what ran, on what, when."""

    ragmeter_version: str = ""
    created: str = ""
    spec: dict[str, Any] = Field(default_factory=dict)
    spec_hash: str = ""
    versions: dict[str, str] = Field(default_factory=dict)
    data: DataView | None = None
    models: dict[str, str] = Field(default_factory=dict)
    executor: str = ""


class UsageView(View):
    """Tokens read and generated."""

    prompt_tokens: int = 0
    completion_tokens: int = 0


class StageView(View):
    """Seconds and tokens of one stage."""

    seconds: float = 0.0
    usage: UsageView = Field(default_factory=UsageView)


class ChunkView(View):
    """A retrieved chunk of evidence."""

    chunk_id: str = ""
    text: str = ""
    score: float | None = None
    source: str = ""
    doc_index: int | None = None


class AnswerView(View):
    """What the pipeline returned."""

    text: str = ""
    citations: list[list[int]] = Field(default_factory=list)
    retrieved: list[ChunkView] = Field(default_factory=list)
    refused: bool | None = None
    confidence: float | None = None
    stages: dict[str, StageView] = Field(default_factory=dict)
    extras: dict[str, Any] = Field(default_factory=dict)


class CheckView(View):
    """One judge call against one gold answer."""

    gold: str = ""
    verdict: str | None = None
    rationale: str = ""
    error: str | None = None


class VoteView(View):
    """One judge's verdict on a sample."""

    judge: str = ""
    model: str = ""
    verdict: str | None = None
    checks: list[CheckView] = Field(default_factory=list)
    error: str | None = None


class LabelsView(View):
    """The slicing labels of a question."""

    domain: str | None = None
    question_type: str | None = None
    static_or_dynamic: str | None = None
    popularity: str | None = None


class SampleView(View):
    """One question of a run: a line of ``samples.jsonl``."""

    id: str
    index: int | None = None
    query: str = ""
    query_time: str | None = None
    answers: list[str] = Field(default_factory=list)
    prediction: str | None = None
    truncated_prediction: str | None = None
    truncated: bool = False
    label: Label
    raw_label: Label | None = None
    """The label of the answer the pipeline abstained on (below its confidence threshold)."""
    rule: str | None = None
    rule_detail: str | None = None
    votes: list[VoteView] = Field(default_factory=list)
    agreement: float | None = None
    approximate: bool = False
    unscored_reason: str | None = None
    labels: LabelsView = Field(default_factory=LabelsView)
    answer: AnswerView | None = None
    trust: dict[str, Any] | None = None
    """Trust-Score ingredients of the question (runs of the ``trust`` scorer)."""
    error: str | None = None
    missing_reason: str | None = None
    seconds: float | None = None
    stages: dict[str, StageView] = Field(default_factory=dict)

    @property
    def all_stages(self) -> dict[str, StageView]:
        """Stages of the record, falling back on the answer's own (a scored-only folder)."""
        if self.stages:
            return self.stages
        return dict(self.answer.stages) if self.answer is not None else {}


class SampleDiagnosisView(View):
    """The diagnosis of one question: a line of ``diagnosis.jsonl``."""

    id: str
    label: str | None = None
    category: str
    false_premise: bool = False
    answer_in_pages: bool | None = None
    answer_in_evidence: bool | None = None
    supported: bool | None = None
    support_probability: float | None = None
    evidence_chunks: int = 0
    note: str | None = None


class RunView(BaseModel):
    """One run folder as the report sees it."""

    model_config = ConfigDict(frozen=True)

    path: Path
    name: str
    header: HeaderView | None
    results: ResultsView
    samples: list[SampleView]
    diagnoses: dict[str, SampleDiagnosisView] = Field(default_factory=dict)
    """Per question id, from ``diagnosis.jsonl`` when the run was diagnosed."""
    nli: str = ""
    """The model that judged support in ``diagnosis.jsonl``."""


def _read_json(path: Path) -> Any:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(f"cannot read: {exc.strerror}", path=path) from None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise DataError(f"not JSON: {exc}", path=path, line=exc.lineno) from None


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    return f"{where}: {err['msg']}" if where else str(err["msg"])


def _is_estimate(value: Any) -> bool:
    return isinstance(value, dict) and "value" in value and ("ci_low" in value or "low" in value)


def _extra_blocks(unknown: dict[str, Any]) -> dict[str, Any]:
    """Group the keys of results.json the views do not know into titled blocks.

    A Trust-Score run's results.json *is* a Trust-Score result (its top level holds
    ``trust`` and its parts): all of it is one block. Otherwise every mapping that is
    not itself a metric is a block of its own (``"trust": {...}`` beside the CRAG
    metrics), and loose metrics are gathered into one more.
    """
    if _is_estimate(unknown.get("trust")):
        return {"trust": unknown}
    blocks = {k: v for k, v in unknown.items() if isinstance(v, dict) and not _is_estimate(v)}
    loose = {
        k: v
        for k, v in unknown.items()
        if k not in blocks and (_is_estimate(v) or isinstance(v, int | float | str))
    }
    if loose:
        blocks["more_metrics"] = loose
    return blocks


def _read_results(path: Path) -> ResultsView:
    data = _read_json(path)
    if not isinstance(data, dict):
        raise DataError("results must be a JSON object", path=path)
    fields = {k: v for k, v in data.items() if k in KNOWN_RESULT_KEYS}
    # results.json names the unscored summary "unscored"; a slice names its count so.
    if isinstance(fields.get("unscored"), dict):
        fields["unscored_summary"] = fields.pop("unscored")
        fields["unscored"] = fields["unscored_summary"].get("count", 0)
    fields["extra_blocks"] = _extra_blocks(
        {k: v for k, v in data.items() if k not in KNOWN_RESULT_KEYS}
    )
    try:
        return ResultsView.model_validate(fields)
    except ValidationError as exc:
        raise DataError(f"not a results file: {_first_error(exc)}", path=path) from None


def _read_samples(path: Path) -> list[SampleView]:
    if not path.exists():
        return []
    samples: list[SampleView] = []
    data = path.read_bytes()
    lines = data.split(b"\n")
    for line_no, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            samples.append(SampleView.model_validate_json(raw))
        except ValidationError as exc:
            # A torn last line is a run killed mid-write: the engine drops it too.
            if line_no == len(lines) and not data.endswith(b"\n"):
                break
            raise DataError(
                f"not a sample record: {_first_error(exc)}", path=path, line=line_no
            ) from None
    samples.sort(key=lambda s: (s.index is None, s.index if s.index is not None else 0))
    return samples


def _read_diagnoses(path: Path) -> tuple[str, dict[str, SampleDiagnosisView]]:
    """The NLI model (first line) and the per-question diagnoses of ``diagnosis.jsonl``."""
    if not path.exists():
        return "", {}
    nli = ""
    out: dict[str, SampleDiagnosisView] = {}
    data = path.read_bytes()
    lines = data.split(b"\n")
    for line_no, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            record = orjson.loads(raw)
            if line_no == 1 and isinstance(record, dict) and set(record) == {"nli"}:
                nli = str(record["nli"])
                continue
            d = SampleDiagnosisView.model_validate(record)
        except (orjson.JSONDecodeError, ValidationError) as exc:
            # A torn last line is a diagnosis killed mid-write, as with the journal.
            if line_no == len(lines) and not data.endswith(b"\n"):
                break
            what = _first_error(exc) if isinstance(exc, ValidationError) else str(exc)
            raise DataError(f"not a diagnosis record: {what}", path=path, line=line_no) from None
        out[d.id] = d
    return nli, out


def load_run(folder: str | Path) -> RunView:
    """Read one run folder; it needs at least ``results.json``."""
    path = Path(folder)
    if not path.is_dir():
        raise ConfigError(f"{path} is not a run folder (not a directory)")
    results_path = path / RESULTS
    if not results_path.is_file():
        hint = (
            f"; it has a {JOURNAL}: score it first with `ragmeter score {path}`"
            if (path / JOURNAL).exists()
            else ""
        )
        raise ConfigError(f"{path} is not a scored run folder (no {RESULTS}){hint}")
    header: HeaderView | None = None
    if (path / HEADER).is_file():
        raw = _read_json(path / HEADER)
        try:
            header = HeaderView.model_validate(raw)
        except ValidationError as exc:
            raise DataError(f"not a run header: {_first_error(exc)}", path=path / HEADER) from None
    results = _read_results(results_path)
    samples = _read_samples(path / JOURNAL)
    nli, diagnoses = _read_diagnoses(path / DIAGNOSES)
    name = ""
    if header is not None:
        name = str(header.spec.get("name") or "")
    return RunView(
        path=path,
        name=name or path.resolve().name,
        header=header,
        results=results,
        samples=samples,
        diagnoses=diagnoses,
        nli=nli,
    )


def load_runs(folders: list[str | Path]) -> list[RunView]:
    """Read several run folders; names that collide get their folder name appended."""
    if not folders:
        raise ConfigError("give at least one run folder")
    runs = [load_run(f) for f in folders]
    counts: dict[str, int] = {}
    for r in runs:
        counts[r.name] = counts.get(r.name, 0) + 1
    named: list[RunView] = []
    seen: dict[str, int] = {}
    for r in runs:
        name = r.name
        if counts[name] > 1:
            name = f"{name} ({r.path.resolve().name})"
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = f"{name} #{seen[name]}"
        named.append(r.model_copy(update={"name": name}))
    return named
