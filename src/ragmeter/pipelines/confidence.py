"""How sure a baseline is of its answer, and answering "I don't know" when it is not.

Two signals, both in [0, 1]:

- ``self_check``: the model's probability of "yes" when asked whether the answer
  is right (closed book) or whether the passages show it is right (with passages);
  one short classification call per answer.
- ``answer_probability``: the geometric mean of the answer tokens' probabilities
  under the answering model, from the generation's token log-probabilities (a
  llama.cpp model reads the answer once more; an HTTP server returns them).

``confidence`` chooses the one the answer reports (and ``abstain_below`` acts on);
``record_all_signals`` computes both and keeps them on the answer, to measure which
ranks right answers above wrong ones. Measured on 124 closed-book answers of the
default local model to CRAG validation questions (``benchmarks/abstention_llm_only.py``),
the answer's token probability ranked them better (AUROC 0.69 against 0.56) and costs
no extra call, so it is the default.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ragmeter.llm.protocol import LLM, Completion, GenerationSettings
from ragmeter.pipelines.base import StageClock
from ragmeter.pipelines.prompts import load_prompt
from ragmeter.types import Answer

ConfidenceSignal = Literal["self_check", "answer_probability"]
SIGNALS: tuple[ConfidenceSignal, ...] = ("self_check", "answer_probability")


class ConfidenceOptions(BaseModel):
    """The confidence options shared by the answering baselines."""

    model_config = ConfigDict(extra="forbid")

    confidence: ConfidenceSignal | Literal["none"] = "answer_probability"
    """The signal put on `Answer.confidence` ("none": no confidence, no extra work)."""
    record_all_signals: bool = False
    """Compute every signal and keep them in ``extras["confidence_signals"]``."""
    abstain_below: float | None = Field(default=None, ge=0.0, le=1.0)
    """Answer "I don't know" when the confidence is below this (the raw answer is kept)."""

    @model_validator(mode="after")
    def _abstention_needs_confidence(self) -> ConfidenceOptions:
        if self.abstain_below is not None and self.confidence == "none":
            raise ValueError("abstain_below needs a confidence signal (confidence is 'none')")
        return self


def answer_probability(logprobs: Sequence[float] | None) -> float | None:
    """The geometric mean probability of the answer's tokens (None without log-probabilities)."""
    if not logprobs:
        return None
    return math.exp(sum(logprobs) / len(logprobs))


def generation_settings(options: ConfidenceOptions, base: GenerationSettings) -> GenerationSettings:
    """The answering settings: token log-probabilities asked for when the answer's
    probability is wanted (reading them costs llama.cpp a second pass over the answer)."""
    if options.confidence != "answer_probability" and not options.record_all_signals:
        return base
    return base.model_copy(update={"logprobs": True})


async def rate_answer(
    options: ConfidenceOptions,
    llm: LLM,
    answer: Answer,
    completion: Completion,
    values: dict[str, str],
    clock: StageClock,
    with_passages: bool,
    refusal: str,
) -> Answer:
    """Put the chosen confidence on ``answer``; below the threshold, answer ``refusal``.

    ``values`` fills the self-check prompt (``query``, ``query_time`` and, with
    passages, ``context``). A refusal gets no confidence: there is nothing to be sure of.
    """
    if options.confidence == "none" or answer.refused or not answer.text.strip():
        return answer
    signals: dict[str, Any] = {}
    if options.confidence == "answer_probability" or options.record_all_signals:
        signals["answer_probability"] = answer_probability(completion.logprobs)
    if options.confidence == "self_check" or options.record_all_signals:
        with clock.stage("confidence"):
            prompt = load_prompt(
                "confidence_passages" if with_passages else "confidence_closed_book"
            )
            probs = await llm.choice_probabilities(
                prompt.messages(**values, answer=answer.text), ["yes", "no"]
            )
        clock.add_usage("confidence", probs.usage, probs.cached)
        signals["self_check"] = probs.probs["yes"]
    chosen = signals[options.confidence]
    update: dict[str, Any] = {
        "confidence": None if chosen is None else min(1.0, max(0.0, float(chosen))),
        "stages": clock.stages,
        "extras": {**answer.extras, "confidence_signals": signals},
    }
    threshold = options.abstain_below
    if threshold is not None and chosen is not None and chosen < threshold:
        update["extras"] = {
            **update["extras"],
            "raw_answer": answer.text,
            "abstained_below": threshold,
        }
        update["text"] = refusal
        update["refused"] = True
    return answer.model_copy(update=update)
