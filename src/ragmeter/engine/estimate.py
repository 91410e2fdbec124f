"""What a run will cost before it starts (``ragmeter run SPEC --dry-run``).

Three measurements, then a multiplication by the number of selected questions:

1. **Prompts.** The spec's pipeline runs on an even sample of the selected
   questions with every model replaced by a recorder that answers instantly; the
   prompts it would send are counted with the model's own tokenizer (chat template
   included) where the backend has one, else at four characters a token.
2. **Timed calls.** A few questions run for real (the configured backends, the
   run's scorer, no response cache): seconds per question, generated tokens, and
   the judge's (or NLI model's) tokens per question.
3. **Prices.** With ``prices`` in the spec, tokens per stage become money.

Nothing is written into a run folder.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from pydantic import Field

from ragmeter.config import LoadedSpec
from ragmeter.engine.cost import RunUsage, record_stage_usage, summarise
from ragmeter.engine.data import Selection
from ragmeter.engine.journal import RunRecord
from ragmeter.engine.resources import EngineResources, LLMLoader, default_llm_loader
from ragmeter.engine.runner import check_spec, process_batch, resolve_pipeline
from ragmeter.engine.scorers import get_scorer
from ragmeter.errors import ConfigError, UserError
from ragmeter.llm.protocol import (
    LLM,
    ChatMessage,
    ChoiceProbabilities,
    Completion,
    GenerationSettings,
)
from ragmeter.types import Question, Record, Usage

__all__ = ["RunEstimate", "estimate_run", "estimate_table"]

CHARS_PER_TOKEN = 4.0
"""The usual rule of thumb for English text, used when no tokenizer is at hand."""


class RunEstimate(Record):
    """A dry run's figures: the selection, how they were measured, and the estimate."""

    name: str
    questions: int
    """Questions the run would answer."""
    prompt_sample: int
    """Questions whose prompts were built and counted."""
    tokenizer: str
    """``model`` (the backends' own tokenizers), ``approximate`` (4 characters a token),
    ``measured`` (token counts the timed calls reported) or ``none`` (no model prompts)."""
    timed: int
    """Questions run for real with the configured backends."""
    seconds_per_question: float | None
    parallel: int
    """Questions the backends can work on at once (the local model: one)."""
    wall_seconds: float | None
    usage: RunUsage
    """Estimated tokens (and cost) per stage for the whole run."""
    per_question: dict[str, Usage] = Field(default_factory=dict)
    """The measured tokens of one question, per stage, that the estimate multiplies."""
    notes: list[str] = Field(default_factory=list)


class _Recorder:
    """Stands in for every model: counts the prompts it is sent, replies at once."""

    def __init__(self, loader: LLMLoader):
        self.loader = loader
        self.inner: dict[str, LLM] = {}
        self.prompt_tokens = 0
        self.exact = True
        self.calls = 0

    def model(self, spec: str) -> LLM:
        if spec not in self.inner:
            self.inner[spec] = self.loader(spec)
        return _RecordingLLM(self, self.inner[spec])

    def count(self, llm: LLM, messages: Sequence[ChatMessage]) -> None:
        self.calls += 1
        counter = getattr(llm, "prompt_tokens", None)
        if callable(counter):
            self.prompt_tokens += len(counter(messages))
            return
        self.exact = False
        chars = sum(len(m.content) for m in messages)
        self.prompt_tokens += round(chars / CHARS_PER_TOKEN)

    async def aclose(self) -> None:
        for llm in self.inner.values():
            await llm.aclose()


class _RecordingLLM:
    """The `LLM` protocol over a recorder: counts, never computes."""

    def __init__(self, recorder: _Recorder, inner: LLM):
        self.recorder = recorder
        self.inner = inner

    @property
    def identity(self) -> str:
        return self.inner.identity

    async def generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        self.recorder.count(self.inner, messages)
        return Completion(text="")

    async def choice_probabilities(
        self, messages: Sequence[ChatMessage], choices: Sequence[str]
    ) -> ChoiceProbabilities:
        self.recorder.count(self.inner, messages)
        share = 1.0 / max(1, len(choices))
        return ChoiceProbabilities(probs={c: share for c in choices}, method="parsed")

    async def aclose(self) -> None:
        return None


def _sample(selection: Selection, size: int) -> list[tuple[int, Question]]:
    """``size`` questions spread evenly over the selection (its first, and then every k-th)."""
    total = len(selection)
    size = min(size, total)
    wanted = {round(i * total / size) for i in range(size)} if size else set()
    return [(i, q) for i, q in selection if i in wanted]


async def _count_prompts(
    loaded: LoadedSpec, loader: LLMLoader, sample: Sequence[tuple[int, Question]]
) -> tuple[_Recorder, list[int], list[str]]:
    """Prompt tokens per sampled question, from the prompts the pipeline builds."""
    cls, options = resolve_pipeline(loaded)
    recorder = _Recorder(loader)
    resources = EngineResources.for_spec(loaded.spec, recorder.model)
    pipeline = cls(options, resources)
    per_question: list[int] = []
    notes: list[str] = []
    failed = 0
    try:
        for _, q in sample:
            before = recorder.prompt_tokens
            try:
                await pipeline.answer_batch([q])
            except UserError:
                raise
            except Exception:
                # The stand-in reply may not satisfy a pipeline that parses it; the prompts
                # sent up to there are still counted.
                failed += 1
            per_question.append(recorder.prompt_tokens - before)
    finally:
        await pipeline.aclose()
    if failed:
        notes.append(
            f"the pipeline stopped early on {failed} sampled question(s) with a stand-in reply; "
            "their prompts may be undercounted"
        )
    return recorder, per_question, notes


async def _timed(
    loaded: LoadedSpec, loader: LLMLoader, sample: Sequence[tuple[int, Question]]
) -> list[RunRecord]:
    """Answer and score ``sample`` for real, one question at a time."""
    cls, options = resolve_pipeline(loaded)
    resources = EngineResources.for_spec(loaded.spec, loader)
    pipeline = cls(options, resources)
    scorer = get_scorer(loaded.spec.scoring.scorer).build(loaded, resources)
    records: list[RunRecord] = []
    try:
        for item in sample:
            records += await process_batch(
                pipeline, scorer, [item], loaded.spec.budget.time_per_question_s
            )
    finally:
        await pipeline.aclose()
        await resources.aclose()
    return records


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _scaled(usage: Usage, factor: float) -> Usage:
    return Usage(
        prompt_tokens=round(usage.prompt_tokens * factor),
        completion_tokens=round(usage.completion_tokens * factor),
    )


def estimate_run(
    loaded: LoadedSpec,
    *,
    prompt_sample: int = 20,
    timed: int = 3,
    loader: LLMLoader | None = None,
) -> RunEstimate:
    """Estimate tokens, wall time and cost of running ``loaded`` (see the module doc)."""
    if prompt_sample < 1 or timed < 0:
        raise ConfigError("the prompt sample needs at least 1 question, timed calls 0 or more")
    spec = loaded.spec
    base = Path(loaded.source).parent if Path(loaded.source).is_file() else None
    cls, options, path = check_spec(loaded, base)
    assert path is not None  # downloads when missing
    selection = Selection(
        spec.data, path, with_html=spec.data.with_html and cls.wants_html(options)
    )
    total = len(selection)
    if total == 0:
        raise ConfigError(f"the spec selects no question from {path}")
    sample = _sample(selection, prompt_sample)
    # No response cache: the timed calls must compute, and a dry run leaves no replies behind.
    loader = loader or default_llm_loader(False, spec.llm_options)

    async def measure() -> tuple[_Recorder, list[int], list[str], list[RunRecord]]:
        recorder, prompts, notes = await _count_prompts(loaded, loader, sample)
        try:
            # The recorder keeps its models open, so an in-process model loads once.
            records = await _timed(loaded, loader, sample[: max(0, timed)])
        finally:
            await recorder.aclose()
        return recorder, prompts, notes, records

    recorder, prompts, notes, records = asyncio.run(measure())
    return _combine(loaded, total, recorder, prompts, notes, records)


def _combine(
    loaded: LoadedSpec,
    total: int,
    recorder: _Recorder,
    prompts: list[int],
    notes: list[str],
    records: list[RunRecord],
) -> RunEstimate:
    spec = loaded.spec
    measured: dict[str, list[Usage]] = {}
    for r in records:
        per_stage = record_stage_usage(r.stages, spec.scoring.scorer)
        for stage in ("answering", "judging", "nli"):
            measured.setdefault(stage, []).append(per_stage.get(stage, Usage()))
    per_question: dict[str, Usage] = {}
    for stage, usages in measured.items():
        per_question[stage] = Usage(
            prompt_tokens=round(_mean([u.prompt_tokens for u in usages])),
            completion_tokens=round(_mean([u.completion_tokens for u in usages])),
        )
    answer_prompt = _mean([float(p) for p in prompts])
    measured_prompt = per_question.get("answering", Usage()).prompt_tokens
    if recorder.calls == 0:
        tokenizer = "measured" if measured_prompt else "none"
        answer_prompt = float(measured_prompt)
        if not measured_prompt:
            notes.append(
                "the pipeline sends ragmeter no model calls (your own system): its tokens "
                "are not visible here"
            )
    elif recorder.exact:
        tokenizer = "model"
    elif measured_prompt:
        # A server's own count of the timed prompts beats four characters a token.
        tokenizer = "measured"
        answer_prompt = float(measured_prompt)
    else:
        tokenizer = "approximate"
    answering = per_question.get("answering", Usage())
    per_question["answering"] = Usage(
        prompt_tokens=round(answer_prompt), completion_tokens=answering.completion_tokens
    )
    if not records:
        notes.append("no timed calls: generated tokens, judging and wall time are not estimated")
    totals = {stage: _scaled(u, total) for stage, u in per_question.items()}
    usage = summarise(totals, spec.prices)
    seconds = _mean([r.seconds for r in records]) if records else None
    parallel = max(1, min(spec.concurrency.questions, spec.concurrency.limit_for(spec.llm)))
    return RunEstimate(
        name=spec.name,
        questions=total,
        prompt_sample=len(prompts),
        tokenizer=tokenizer,
        timed=len(records),
        seconds_per_question=seconds,
        parallel=parallel,
        wall_seconds=seconds * total / parallel if seconds is not None else None,
        usage=usage,
        per_question={
            k: v for k, v in per_question.items() if v.prompt_tokens or v.completion_tokens
        },
        notes=notes,
    )


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


_TOKENIZER_TEXT = {
    "model": "counted with the model's tokenizer",
    "approximate": "approximated at 4 characters a token (no tokenizer for this backend)",
    "measured": "as the backend counted them on the timed questions",
    "none": "none sent through ragmeter",
}


def estimate_table(estimate: RunEstimate) -> str:
    """The dry run's report for the terminal."""
    from ragmeter.engine.cost import usage_table

    e = estimate
    lines = [
        f"dry run of {e.name}: {e.questions} questions selected; nothing was written",
        f"  prompts: {e.prompt_sample} sampled questions, {_TOKENIZER_TEXT[e.tokenizer]}",
    ]
    if e.seconds_per_question is not None and e.wall_seconds is not None:
        lines.append(
            f"  timed: {e.timed} questions with the configured backends, "
            f"{e.seconds_per_question:.1f} s each; {e.parallel} at a time"
        )
        lines.append(f"  wall time: about {_duration(e.wall_seconds)}")
    table = usage_table(e.usage, title="estimated tokens and cost per stage")
    lines += ["  " + line for line in table.splitlines()]
    lines += [f"  note: {n}" for n in e.notes]
    return "\n".join(lines)
