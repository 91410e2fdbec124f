"""What the engine lends pipelines and scorers: shared models behind per-backend limits.

Every model call goes through `LimitedLLM`, which

- waits for its backend's semaphore (``concurrency.backends`` in the spec), so a
  local model runs one call at a time while a server may take many;
- tells the question's `QuestionClock` how long it queued, because the time
  budget counts only the time a question is actually being worked on;
- counts generated tokens for the progress display.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import Callable, Sequence
from typing import Any

from ragmeter.config import ConcurrencySpec, RunSpec
from ragmeter.llm.protocol import (
    LLM,
    ChatMessage,
    ChoiceProbabilities,
    Completion,
    GenerationSettings,
)
from ragmeter.types import Usage


class QuestionClock:
    """Active time of one question (or batch): wall time minus time spent queuing."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self._waiting = 0
        self._wait_start = 0.0
        self.waited = 0.0

    def begin_wait(self) -> None:
        """A call starts queuing for a backend."""
        if self._waiting == 0:
            self._wait_start = time.perf_counter()
        self._waiting += 1

    def end_wait(self) -> None:
        """A call got its backend."""
        self._waiting -= 1
        if self._waiting == 0:
            self.waited += time.perf_counter() - self._wait_start

    def active(self) -> float:
        """Seconds of work so far (overlapping waits counted once)."""
        now = time.perf_counter()
        waiting = now - self._wait_start if self._waiting else 0.0
        return now - self.start - self.waited - waiting


CURRENT_CLOCK: contextvars.ContextVar[QuestionClock | None] = contextvars.ContextVar(
    "ragmeter_question_clock", default=None
)


class TokenTally:
    """Tokens spent by the model calls of one task (a question's answer, or its judging)."""

    def __init__(self) -> None:
        self.usage = Usage()

    def add(self, usage: Usage) -> None:
        """Count a call's tokens."""
        self.usage = self.usage + usage


CURRENT_TALLY: contextvars.ContextVar[TokenTally | None] = contextvars.ContextVar(
    "ragmeter_token_tally", default=None
)


def _tally(usage: Usage, cached: bool) -> None:
    tally = CURRENT_TALLY.get()
    if tally is not None and not cached:
        tally.add(usage)


class TokenMeter:
    """Tokens generated and read by all models of the run (for tokens per second)."""

    def __init__(self) -> None:
        self.usage = Usage()
        self.start = time.perf_counter()

    def add(self, usage: Usage, cached: bool) -> None:
        """Count a call's tokens (cached replies cost nothing and are not counted)."""
        if not cached:
            self.usage = self.usage + usage

    def completion_rate(self) -> float:
        """Generated tokens per second since the run started."""
        elapsed = time.perf_counter() - self.start
        return self.usage.completion_tokens / elapsed if elapsed > 0 else 0.0


class LimitedLLM:
    """An `LLM` behind its backend's semaphore, feeding the clock and the token meter."""

    def __init__(self, inner: LLM, semaphore: asyncio.Semaphore, meter: TokenMeter):
        self.inner = inner
        self.semaphore = semaphore
        self.meter = meter

    @property
    def identity(self) -> str:
        """The wrapped model's identity."""
        return self.inner.identity

    async def _acquire(self) -> None:
        clock = CURRENT_CLOCK.get()
        if clock is not None:
            clock.begin_wait()
        try:
            await self.semaphore.acquire()
        finally:
            if clock is not None:
                clock.end_wait()

    async def generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        """Generate once the backend is free."""
        await self._acquire()
        try:
            completion = await self.inner.generate(messages, settings)
        finally:
            self.semaphore.release()
        self.meter.add(completion.usage, completion.cached)
        _tally(completion.usage, completion.cached)
        return completion

    async def choice_probabilities(
        self, messages: Sequence[ChatMessage], choices: Sequence[str]
    ) -> ChoiceProbabilities:
        """Choice probabilities once the backend is free."""
        await self._acquire()
        try:
            result = await self.inner.choice_probabilities(messages, choices)
        finally:
            self.semaphore.release()
        self.meter.add(result.usage, result.cached)
        _tally(result.usage, result.cached)
        return result

    async def aclose(self) -> None:
        """Close the wrapped model."""
        await self.inner.aclose()


LLMLoader = Callable[[str], LLM]
"""Makes a model from its spec (``local``, ``llamacpp:NAME``, ``openai:MODEL@URL``)."""


def default_llm_loader(
    cache: bool | str = True, options: dict[str, Any] | None = None
) -> LLMLoader:
    """`ragmeter.llm.factory.load_llm` with the run's response cache and backend options."""

    def load(spec: str) -> LLM:
        from ragmeter.llm.factory import load_llm

        return load_llm(spec, cache=cache, **(options or {}))

    return load


class EngineResources:
    """The `ragmeter.pipelines.base.Resources` of a run: models loaded once, shared, limited."""

    def __init__(
        self,
        answer_llm: str,
        generation: GenerationSettings,
        concurrency: ConcurrencySpec,
        loader: LLMLoader,
        seed: int = 0,
    ):
        self.answer_llm = answer_llm
        self._generation = generation
        self.concurrency = concurrency
        self.loader = loader
        self._seed = seed
        self.meter = TokenMeter()
        self._models: dict[str, LimitedLLM] = {}
        self._limits: dict[str, asyncio.Semaphore] = {}

    @classmethod
    def for_spec(cls, spec: RunSpec, loader: LLMLoader) -> EngineResources:
        """The resources a run spec asks for: its answering model, settings and limits."""
        return cls(
            answer_llm=spec.llm,
            generation=GenerationSettings.model_validate(spec.generation),
            concurrency=spec.concurrency,
            loader=loader,
            seed=spec.seed,
        )

    @property
    def seed(self) -> int:
        """The run's seed."""
        return self._seed

    @property
    def generation(self) -> GenerationSettings:
        """Generation settings of the answering model."""
        return self._generation

    def limiter(self, backend: str) -> asyncio.Semaphore:
        """The semaphore of a backend (created on first use with the spec's limit)."""
        if backend not in self._limits:
            self._limits[backend] = asyncio.Semaphore(self.concurrency.limit_for(backend))
        return self._limits[backend]

    def llm(self, spec: str | None = None) -> LLM:
        """A model by spec, loaded once per run (None: the answering model)."""
        spec = spec or self.answer_llm
        if spec not in self._models:
            self._models[spec] = LimitedLLM(self.loader(spec), self.limiter(spec), self.meter)
        return self._models[spec]

    def identities(self) -> dict[str, str]:
        """Model identity of each loaded spec."""
        return {spec: m.identity for spec, m in self._models.items()}

    async def aclose(self) -> None:
        """Close every loaded model."""
        for m in self._models.values():
            await m.aclose()
        self._models.clear()
