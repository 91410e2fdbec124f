"""How a run scores its answers: named scorers over the scoring layer.

A run scorer labels one answer at a time (as each question finishes, so the
journal holds labels and the progress bar running accuracy) and aggregates the
journal into ``results.json`` with the scoring layer's own `Results` model.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from ragmeter import __version__
from ragmeter.config import LoadedSpec, RunSpec
from ragmeter.engine.resources import CURRENT_TALLY, EngineResources, TokenTally
from ragmeter.registry import Registry
from ragmeter.scoring.bootstrap import DEFAULT_RESAMPLES, DEFAULT_SEED
from ragmeter.scoring.crag.aggregate import aggregate
from ragmeter.scoring.crag.judge import JudgePrompt, LLMJudge, LLMRefusalConfirmer
from ragmeter.scoring.crag.judges import RULES, parse_judge_spec
from ragmeter.scoring.crag.records import Results, ScoredSample, ScoringInfo, TruncationInfo
from ragmeter.scoring.crag.scorer import CragScorer
from ragmeter.scoring.crag.truncate import load_truncator
from ragmeter.types import Answer, Question, Usage


class RunScorer(Protocol):
    """Scores one answer of a run."""

    async def score(
        self, question: Question, prediction: str | None, answer: Answer | None = None
    ) -> tuple[ScoredSample, Usage]:
        """The scored sample of ``prediction`` (None: no prediction) and the judges' tokens.

        ``answer`` is the pipeline's full answer (citations, documents shown) when there is one.
        """
        ...

    def unscored(self, question: Question, prediction: str | None, reason: str) -> ScoredSample:
        """A sample that could not be scored, with its reason."""
        ...


class RunScorerKind(Protocol):
    """A registered scorer: checks its options, builds per run, aggregates a journal."""

    def check_options(self, loaded: LoadedSpec) -> None:
        """Validate ``scoring.options`` of the spec (errors name the spec line)."""
        ...

    def build(self, loaded: LoadedSpec, resources: EngineResources) -> RunScorer:
        """A scorer for one run, using the run's shared models."""
        ...

    def aggregate(self, records: Sequence[ScoredSample], spec: RunSpec) -> BaseModel:
        """The results of the scored samples (given in selection order): ``results.json``."""
        ...


SCORERS: Registry[RunScorerKind] = Registry("scorers")
"""Run scorers by name (``scoring.scorer`` in a run spec)."""

_SCORER_MODULES = {"trust": "ragmeter.engine.trust_scorer"}
"""Built-in scorers beyond ``crag`` and the module whose import registers each."""


def get_scorer(name: str) -> RunScorerKind:
    """The run scorer named ``name`` (importing a built-in one on first use)."""
    if name in _SCORER_MODULES and name not in SCORERS:
        importlib.import_module(_SCORER_MODULES[name])
    return SCORERS.get(name)


class CragScoringOptions(BaseModel):
    """``scoring.options`` of the ``crag`` scorer."""

    model_config = ConfigDict(extra="forbid")

    tokenizer: str | None = None
    """The Llama-2 ``tokenizer.json`` that cuts predictions to 75 tokens (default: the mirror's)."""
    allow_tokenizer_fallback: bool = True
    confirm_refusals: bool = False
    """Ask the first judge whether a phrase-matched refusal really is one."""
    judge_retries: int = Field(default=2, ge=0)
    bootstrap_resamples: int = Field(default=DEFAULT_RESAMPLES, ge=1)
    bootstrap_seed: int = DEFAULT_SEED


def _judge_specs(spec: RunSpec) -> list[str]:
    judge = spec.scoring.judge
    return [] if judge is None else parse_judge_spec(judge)


class CragRunScorer:
    """CRAG scoring (truncation, rules, LLM judges) with the run's shared models."""

    def __init__(self, scorer: CragScorer):
        self.scorer = scorer

    async def score(
        self, question: Question, prediction: str | None, answer: Answer | None = None
    ) -> tuple[ScoredSample, Usage]:
        """Score one prediction, counting the judges' tokens."""
        tally = TokenTally()
        token = CURRENT_TALLY.set(tally)
        try:
            sample = await self.scorer.score(question, prediction)
        finally:
            CURRENT_TALLY.reset(token)
        return sample, tally.usage

    def unscored(self, question: Question, prediction: str | None, reason: str) -> ScoredSample:
        """A sample the scorer failed on."""
        return ScoredSample(
            id=question.id,
            query=question.query,
            answers=[a for group in question.answers[:1] for a in group],
            prediction=prediction,
            truncated_prediction=None,
            label="unscored",
            unscored_reason=reason,
            labels=question.labels,
        )


class CragRunScorerKind:
    """The ``crag`` run scorer."""

    def options(self, spec: RunSpec) -> CragScoringOptions:
        """The validated options (without line numbers; `check_options` gives those)."""
        return CragScoringOptions.model_validate(spec.scoring.options)

    def check_options(self, loaded: LoadedSpec) -> None:
        """Validate ``scoring.options`` and the judge spec."""
        loaded.check_options(
            CragScoringOptions, loaded.spec.scoring.options, ("scoring", "options")
        )
        _judge_specs(loaded.spec)

    def build(self, loaded: LoadedSpec, resources: EngineResources) -> RunScorer:
        """A CRAG scorer whose judges use the run's shared, rate-limited models."""
        opts = self.options(loaded.spec)
        truncator = load_truncator(opts.tokenizer, allow_fallback=opts.allow_tokenizer_fallback)
        prompt = JudgePrompt.builtin()
        judges = [
            LLMJudge(resources.llm(s), s, prompt, retries=opts.judge_retries)
            for s in _judge_specs(loaded.spec)
        ]
        confirm = None
        if opts.confirm_refusals and judges:
            confirm = LLMRefusalConfirmer(judges[0].llm)
        return CragRunScorer(CragScorer(judges, truncator=truncator, confirm_refusal=confirm))

    def aggregate(self, records: Sequence[ScoredSample], spec: RunSpec) -> Results:
        """CRAG results of the journal, as ``ragmeter score`` computes them."""
        opts = self.options(spec)
        truncator = load_truncator(opts.tokenizer, allow_fallback=opts.allow_tokenizer_fallback)
        identities = sorted({v.model for r in records for v in r.votes if v.model})
        checks = [c for r in records for v in r.votes for c in v.checks]
        info = ScoringInfo(
            judge=spec.scoring.judge or RULES,
            judges=identities,
            approximate=not _judge_specs(spec),
            truncation=TruncationInfo(
                max_tokens=truncator.max_tokens,
                tokenizer=truncator.name,
                fallback=truncator.fallback,
                n_truncated=sum(1 for r in records if r.truncated),
            ),
            no_prediction=sum(1 for r in records if r.rule == "no_prediction"),
            empty_prediction=sum(1 for r in records if r.rule == "empty_prediction"),
            judge_calls=len(checks),
            judge_cache_hits=sum(1 for c in checks if c.cached),
            bootstrap_resamples=opts.bootstrap_resamples,
            bootstrap_seed=opts.bootstrap_seed,
            ragmeter_version=__version__,
        )
        return aggregate(records, info)


SCORERS.register("crag", CragRunScorerKind())
