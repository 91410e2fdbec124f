"""The ``trust`` run scorer: Trust-Score for attributed answers (ASQA, QAMPARI, ELI5, ExpertQA).

Each answer is scored with `ragmeter.scoring.attribution.trust.score_trust_item` (refusal,
answerability, calibrated correctness, citation recall and precision through
the NLI model); ``results.json`` is the data set's `TrustResult`.

A journal record also carries a CRAG-style label so progress, slices and
reports read the same way for every run: a refusal is ``missing``; an answer is
``correct`` when its documents hold a gold answer and the answer gets some of
what they support right, else ``incorrect`` (an answer to an unanswerable
question, or a wrong one); ``unscored`` when answerability is unknown.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from ragmeter.config import LoadedSpec, RunSpec
from ragmeter.engine.resources import CURRENT_TALLY, EngineResources, TokenTally
from ragmeter.engine.scorers import SCORERS, RunScorer
from ragmeter.errors import ConfigError
from ragmeter.scoring.attribution.nli import NLI
from ragmeter.scoring.attribution.trust import (
    TrustItem,
    TrustResult,
    aggregate_trust,
    score_trust_item,
)
from ragmeter.scoring.bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED
from ragmeter.scoring.crag.records import ScoredSample
from ragmeter.types import Answer, Label, Question, Usage


class TrustScoringOptions(BaseModel):
    """``scoring.options`` of the ``trust`` scorer."""

    model_config = ConfigDict(extra="forbid")

    nli_threshold: float = Field(default=0.5, gt=0, lt=1)
    max_citations: int | None = Field(default=3, ge=1)
    bootstrap_resamples: int = Field(default=DEFAULT_RESAMPLES, ge=1)
    bootstrap_seed: int = DEFAULT_SEED


def trust_label(item: TrustItem) -> tuple[Label, str]:
    """The CRAG-style label of a Trust-Score item and why."""
    if item.refused:
        return "missing", "refused"
    if item.answerable is None:
        return "unscored", "answerability unknown"
    if not item.answerable:
        return "incorrect", "answered an unanswerable question"
    if item.correctness is not None and item.correctness > 0:
        return "correct", f"correctness {item.correctness:.2f}"
    return "incorrect", "no supported gold answer in the answer"


class TrustRunScorer:
    """Scores one attributed answer with the run's NLI model."""

    def __init__(self, nli: NLI, options: TrustScoringOptions):
        self.nli = nli
        self.options = options

    async def score(
        self, question: Question, prediction: str | None, answer: Answer | None = None
    ) -> tuple[ScoredSample, Usage]:
        """Trust-Score ingredients of one answer, as a scored sample carrying them."""
        tally = TokenTally()
        token = CURRENT_TALLY.set(tally)
        try:
            shown = answer.extras.get("documents_shown") if answer is not None else None
            docs = question.passages[:shown] if isinstance(shown, int) else None
            item = await score_trust_item(
                question,
                prediction or "",
                self.nli,
                docs=docs,
                refused=None if prediction is not None else True,
                max_citations=self.options.max_citations,
            )
        finally:
            CURRENT_TALLY.reset(token)
        label, why = trust_label(item)
        sample = TrustScoredSample(
            id=question.id,
            query=question.query,
            answers=[a[0] for a in question.answers if a],
            prediction=prediction,
            truncated_prediction=prediction,
            label=label,
            rule_detail=why,
            unscored_reason=why if label == "unscored" else None,
            labels=question.labels,
            trust=item,
        )
        return sample, tally.usage

    def unscored(self, question: Question, prediction: str | None, reason: str) -> ScoredSample:
        """A sample the scorer failed on."""
        return ScoredSample(
            id=question.id,
            query=question.query,
            answers=[a[0] for a in question.answers if a],
            prediction=prediction,
            truncated_prediction=None,
            label="unscored",
            unscored_reason=reason,
            labels=question.labels,
        )


class TrustScoredSample(ScoredSample):
    """A scored sample with its Trust-Score ingredients."""

    trust: TrustItem | None = None


class TrustRunScorerKind:
    """The ``trust`` run scorer."""

    def options(self, spec: RunSpec) -> TrustScoringOptions:
        """The validated options."""
        return TrustScoringOptions.model_validate(spec.scoring.options)

    def check_options(self, loaded: LoadedSpec) -> None:
        """Validate ``scoring.options``; Trust-Score needs an NLI model (the judge)."""
        loaded.check_options(
            TrustScoringOptions, loaded.spec.scoring.options, ("scoring", "options")
        )
        if not loaded.spec.scoring.judge or loaded.spec.scoring.judge == "rules":
            raise ConfigError(
                f"{loaded.source}: scoring.judge: Trust-Score needs a model for entailment "
                "(e.g. judge: local)"
            )

    def build(self, loaded: LoadedSpec, resources: EngineResources) -> RunScorer:
        """A Trust-Score scorer whose NLI uses the run's shared judge model."""
        opts = self.options(loaded.spec)
        judge = loaded.spec.scoring.judge
        assert judge is not None
        nli = NLI(resources.llm(judge), threshold=opts.nli_threshold)
        return TrustRunScorer(nli, opts)

    def aggregate(self, records: Sequence[ScoredSample], spec: RunSpec) -> BaseModel:
        """The `TrustResult` of the journal's Trust-Score items."""
        opts = self.options(spec)
        items = [TrustItem.model_validate(t) for r in records if (t := getattr(r, "trust", None))]
        if not items:
            raise ConfigError("no question of this run could be Trust-scored")
        result: TrustResult = aggregate_trust(
            items, n_resamples=opts.bootstrap_resamples, seed=opts.bootstrap_seed
        )
        return result


SCORERS.register("trust", TrustRunScorerKind())
