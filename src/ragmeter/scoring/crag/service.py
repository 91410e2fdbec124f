"""Score a set of predictions end to end and write ``results.json`` and ``samples.jsonl``.

This is what ``ragmeter score`` runs, usable from Python and by the run engine.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from ragmeter import __version__
from ragmeter.errors import ConfigError
from ragmeter.scoring.bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED
from ragmeter.scoring.crag.aggregate import TrafficWeights, aggregate
from ragmeter.scoring.crag.judge import LLMRefusalConfirmer
from ragmeter.scoring.crag.judges import JudgePanel, build_judges
from ragmeter.scoring.crag.official import COUNTINGS, OFFICIAL_NOTE, OfficialCountingScorer
from ragmeter.scoring.crag.prediction_files import MatchedPredictions
from ragmeter.scoring.crag.records import (
    HumanLabel,
    Results,
    ScoredSample,
    ScoringInfo,
    TruncationInfo,
    UnknownPredictions,
)
from ragmeter.scoring.crag.scorer import CragScorer
from ragmeter.scoring.crag.truncate import load_truncator
from ragmeter.types import Question

__all__ = [
    "RESULTS_FILE",
    "SAMPLES_FILE",
    "build_scorer",
    "score_predictions",
    "score_to_folder",
    "write_outputs",
]

RESULTS_FILE = "results.json"
SAMPLES_FILE = "samples.jsonl"
_MAX_UNKNOWN_IDS = 50


async def score_predictions(
    questions: Sequence[Question],
    predictions: Mapping[str, str | None],
    scorer: CragScorer,
    *,
    judge_spec: str,
    judge_identities: Sequence[str] = (),
    human: Mapping[str, HumanLabel] | None = None,
    weights: TrafficWeights | None = None,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    on_done: Callable[[ScoredSample], None] | None = None,
    warnings: Sequence[str] = (),
) -> tuple[Results, list[ScoredSample]]:
    """Score every question (no prediction = missing) and aggregate.

    Predictions whose id is not a question are reported in the results, not scored.
    """
    known = {q.id for q in questions}
    unknown = [pid for pid in predictions if pid not in known]
    items = [(q, predictions.get(q.id)) for q in questions]
    samples = await scorer.score_all(items, on_done=on_done)
    checks = [c for s in samples for v in s.votes for c in v.checks]
    info = ScoringInfo(
        judge=judge_spec,
        judges=list(judge_identities),
        approximate=scorer.rules_only,
        truncation=TruncationInfo(
            max_tokens=scorer.truncator.max_tokens,
            tokenizer=scorer.truncator.name,
            fallback=scorer.truncator.fallback,
            n_truncated=sum(1 for s in samples if s.truncated),
        ),
        no_prediction=sum(1 for s in samples if s.rule == "no_prediction"),
        empty_prediction=sum(1 for s in samples if s.rule == "empty_prediction"),
        unknown_predictions=UnknownPredictions(count=len(unknown), ids=unknown[:_MAX_UNKNOWN_IDS]),
        judge_calls=len(checks),
        judge_cache_hits=sum(1 for c in checks if c.cached),
        bootstrap_resamples=n_resamples,
        bootstrap_seed=seed,
        ragmeter_version=__version__,
    )
    notes = list(warnings)
    confirm = scorer.confirm_refusal
    if isinstance(confirm, LLMRefusalConfirmer):
        if confirm.failures:
            notes.append(
                f"the refusal check failed {confirm.failures} time(s); the phrase match was kept"
            )
        if confirm.overruled:
            notes.append(f"the LLM overruled {confirm.overruled} refusal phrase match(es)")
    results = aggregate(samples, info, human=human, weights=weights, warnings=notes)
    return results, samples


def _atomic_write(path: Path, data: bytes) -> None:
    """Write a file so that a reader never sees half of it."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_outputs(out_dir: str | Path, results: Results, samples: Sequence[ScoredSample]) -> None:
    """Write ``results.json`` and ``samples.jsonl`` (one line per question) into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    lines = b"".join(s.model_dump_json().encode() + b"\n" for s in samples)
    _atomic_write(out / SAMPLES_FILE, lines)
    _atomic_write(out / RESULTS_FILE, results.model_dump_json(indent=2).encode() + b"\n")


def build_scorer(
    judge: str,
    *,
    tokenizer: str | Path | None = None,
    allow_tokenizer_fallback: bool = True,
    cache: bool | str | Path = True,
    confirm_refusals: bool = False,
    concurrency: int = 4,
    counting: str = "ragmeter",
) -> tuple[CragScorer, JudgePanel]:
    """A scorer for a judge spec, with its panel of judges (close it when done).

    ``counting="official"`` labels as the official CRAG script does (`OfficialCountingScorer`).
    """
    if counting not in COUNTINGS:
        raise ConfigError(f"unknown counting '{counting}' (known: {', '.join(COUNTINGS)})")
    if counting == "official" and confirm_refusals:
        raise ConfigError("--confirm-refusals does not apply to the official counting")
    truncator = load_truncator(tokenizer, allow_fallback=allow_tokenizer_fallback)
    panel = build_judges(judge, cache=cache)
    confirm = None
    if confirm_refusals:
        if not panel.llms:
            raise ConfigError("--confirm-refusals needs an LLM judge (not 'rules')")
        confirm = LLMRefusalConfirmer(panel.llms[0])
    cls = OfficialCountingScorer if counting == "official" else CragScorer
    scorer = cls(
        panel.judges, truncator=truncator, confirm_refusal=confirm, concurrency=concurrency
    )
    return scorer, panel


async def score_to_folder(
    questions: Sequence[Question],
    predictions: MatchedPredictions,
    out_dir: str | Path,
    *,
    judge: str = "local",
    counting: str = "ragmeter",
    tokenizer: str | Path | None = None,
    allow_tokenizer_fallback: bool = True,
    cache: bool | str | Path = True,
    confirm_refusals: bool = False,
    concurrency: int = 4,
    human: Mapping[str, HumanLabel] | None = None,
    weights: TrafficWeights | None = None,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    on_done: Callable[[ScoredSample], None] | None = None,
) -> tuple[Results, list[ScoredSample]]:
    """Score matched predictions with a judge spec and write ``results.json`` and samples.

    Rows that could not be placed on a question (by query text) and the counting, when
    it is the official one, are stated in the results' warnings.
    """
    scorer, panel = build_scorer(
        judge,
        tokenizer=tokenizer,
        allow_tokenizer_fallback=allow_tokenizer_fallback,
        cache=cache,
        confirm_refusals=confirm_refusals,
        concurrency=concurrency,
        counting=counting,
    )
    notes = predictions.warnings()
    if counting == "official":
        notes.append(OFFICIAL_NOTE)
    try:
        results, samples = await score_predictions(
            questions,
            predictions.by_id,
            scorer,
            judge_spec=judge,
            judge_identities=panel.identities,
            human=human,
            weights=weights,
            n_resamples=n_resamples,
            seed=seed,
            on_done=on_done,
            warnings=notes,
        )
    finally:
        await panel.aclose()
    write_outputs(out_dir, results, samples)
    return results, samples
