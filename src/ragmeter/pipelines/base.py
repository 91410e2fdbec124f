"""The pipeline protocol: what a RAG system is to the engine.

A pipeline turns questions into `Answer`s. It is built from its own strict
options and the `Resources` the engine lends it (models behind per-backend
concurrency limits, the KG client, the run's seed). The engine calls
`Pipeline.answer_batch` with at most `Pipeline.batch_size` questions at a time;
most pipelines answer one question at a time and inherit a batch method that
runs them concurrently.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar, Protocol

from pydantic import BaseModel, ConfigDict

from ragmeter.llm.protocol import LLM, Completion, GenerationSettings
from ragmeter.registry import Registry
from ragmeter.types import Answer, Question, StageTiming, Usage


class NoOptions(BaseModel):
    """Options of a pipeline that takes none."""

    model_config = ConfigDict(extra="forbid")


class Resources(Protocol):
    """What the engine lends a pipeline."""

    @property
    def seed(self) -> int:
        """The run's seed."""
        ...

    @property
    def generation(self) -> GenerationSettings:
        """Generation settings of the answering model."""
        ...

    def llm(self, spec: str | None = None) -> LLM:
        """A model by spec (None: the run's answering model), shared and rate-limited."""
        ...

    def limiter(self, backend: str) -> asyncio.Semaphore:
        """The concurrency limit of a non-LLM backend (an HTTP endpoint, the KG server)."""
        ...


class Pipeline:
    """Base of every pipeline; subclasses set ``Options`` and implement `answer`."""

    Options: ClassVar[type[BaseModel]] = NoOptions
    needs_html: bool = False
    """True when the pipeline reads page HTML (the engine keeps it when reading data)."""

    def __init__(self, options: BaseModel, resources: Resources):
        self.options = options
        self.resources = resources

    @classmethod
    def wants_html(cls, options: BaseModel) -> bool:
        """Whether questions must carry page HTML (read before the pipeline is built)."""
        return cls.needs_html

    @property
    def batch_size(self) -> int:
        """How many questions `answer_batch` takes at once."""
        return 1

    async def answer(self, question: Question) -> Answer:
        """Answer one question."""
        raise NotImplementedError(f"{type(self).__name__} answers only in batches")

    async def answer_batch(self, questions: Sequence[Question]) -> list[Answer]:
        """Answer a batch; by default each question concurrently."""
        return list(await asyncio.gather(*(self.answer(q) for q in questions)))

    async def aclose(self) -> None:
        """Release what the pipeline holds (the engine closes shared models itself)."""


PIPELINES: Registry[type[Pipeline]] = Registry("pipelines")
"""Pipelines by name; third-party ones come from the ``ragmeter.pipelines`` entry point group."""


class StageClock:
    """Collects seconds and token usage per stage for one answer."""

    def __init__(self) -> None:
        self.stages: dict[str, StageTiming] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Time the body as stage ``name`` (time adds up if the stage repeats)."""
        start = time.perf_counter()
        try:
            yield
        finally:
            timing = self.stages.setdefault(name, StageTiming())
            timing.seconds += time.perf_counter() - start

    def add_usage(self, name: str, usage: Usage, cached: bool = False) -> None:
        """Count tokens spent in stage ``name``.

        A reply served from the response cache spent nothing in this run and is not
        counted, as for the judge's tokens: stage usage is what the run computed.
        """
        timing = self.stages.setdefault(name, StageTiming())
        if not cached:
            timing.usage = timing.usage + usage

    def add_completion(self, name: str, completion: Completion) -> None:
        """Count a completion's tokens in stage ``name`` (none if it came from the cache)."""
        self.add_usage(name, completion.usage, completion.cached)


def jsonable(value: Any) -> Any:
    """A JSON-safe copy of ``value`` for `Answer.extras` (pydantic models dumped)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value
