"""Adapters that run a user's own RAG system as a pipeline.

- ``crag_class``: a class with the official CRAG participant interface
  (``get_batch_size()`` and ``batch_generate_answer(batch)``; the batch holds
  lists under ``interaction_id``, ``query``, ``search_results``, ``query_time``).
- ``callable``: any Python callable (sync or async) taking one `Question` and
  returning a string, an `Answer`, or a mapping with the fields of an `Answer`.
- ``http``: an HTTP endpoint receiving one question as JSON (the official CRAG
  field names) and replying ``{"answer": "..."}``.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import inspect
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ragmeter.errors import BackendError, ConfigError
from ragmeter.pipelines.base import PIPELINES, Pipeline, Resources
from ragmeter.types import Answer, Question, StageTiming

MAX_OFFICIAL_BATCH = 16
"""The largest batch the KDD Cup evaluator accepted from ``get_batch_size()``."""


def load_object(target: str) -> Any:
    """Import ``module.path:attr`` or ``path/to/file.py:attr`` (dots in attr walk attributes)."""
    module_part, sep, attr = target.rpartition(":")
    if not sep or not module_part or not attr:
        raise ConfigError(f"'{target}': expected 'module:attribute' or 'file.py:attribute'")
    try:
        if module_part.endswith(".py"):
            path = Path(module_part).resolve()
            if not path.is_file():
                raise ConfigError(f"'{target}': no such file {path}")
            name = f"ragmeter_user_{abs(hash(str(path)))}"
            module = sys.modules.get(name)
            if module is None:
                spec = importlib.util.spec_from_file_location(name, path)
                if spec is None or spec.loader is None:
                    raise ConfigError(f"'{target}': cannot load {path}")
                module = importlib.util.module_from_spec(spec)
                sys.modules[name] = module
                spec.loader.exec_module(module)
        else:
            module = importlib.import_module(module_part)
    except ImportError as exc:
        raise ConfigError(f"'{target}': cannot import {module_part}: {exc}") from None
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ConfigError(f"'{target}': {module_part} has no attribute '{attr}'") from None
    return obj


def official_search_results(question: Question) -> list[dict[str, Any]]:
    """A question's pages in the official CRAG ``search_results`` shape."""
    return [
        {
            "page_name": p.name,
            "page_url": p.url,
            "page_snippet": p.snippet,
            "page_result": p.html or "",
            "page_last_modified": p.last_modified,
        }
        for p in question.pages
    ]


def official_batch(questions: Sequence[Question]) -> dict[str, list[Any]]:
    """The batch dictionary the official ``batch_generate_answer`` receives."""
    return {
        "interaction_id": [q.id for q in questions],
        "query": [q.query for q in questions],
        "search_results": [official_search_results(q) for q in questions],
        "query_time": [q.query_time or "" for q in questions],
    }


class CragClassOptions(BaseModel):
    """Options of the ``crag_class`` adapter."""

    model_config = ConfigDict(extra="forbid")

    target: str
    """The class, as ``module:Class`` or ``file.py:Class``."""
    kwargs: dict[str, Any] = Field(default_factory=dict)
    """Keyword arguments for the constructor."""


@PIPELINES.provides("crag_class")
class CragClassPipeline(Pipeline):
    """A user's class with the official CRAG participant interface."""

    Options = CragClassOptions
    needs_html = True

    def __init__(self, options: BaseModel, resources: Resources):
        super().__init__(options, resources)
        assert isinstance(options, CragClassOptions)
        cls = load_object(options.target)
        if not callable(cls):
            raise ConfigError(f"'{options.target}' is not a class")
        self.model = cls(**options.kwargs)
        for method in ("get_batch_size", "batch_generate_answer"):
            if not callable(getattr(self.model, method, None)):
                raise ConfigError(f"'{options.target}' has no method {method}()")
        size = self.model.get_batch_size()
        if not isinstance(size, int) or not 1 <= size <= MAX_OFFICIAL_BATCH:
            raise ConfigError(
                f"'{options.target}'.get_batch_size() returned {size!r}; "
                f"expected an integer in [1, {MAX_OFFICIAL_BATCH}]"
            )
        self._batch_size = size
        # The user's model is synchronous and rarely thread-safe: one call at a time, even
        # when the engine gave up waiting on an earlier call that still runs in its thread.
        self._lock = threading.Lock()

    @property
    def batch_size(self) -> int:
        """The user's ``get_batch_size()``."""
        return self._batch_size

    def _call(self, batch: dict[str, list[Any]]) -> tuple[Any, float]:
        with self._lock:
            start = time.perf_counter()
            result = self.model.batch_generate_answer(batch)
            return result, time.perf_counter() - start

    async def answer_batch(self, questions: Sequence[Question]) -> list[Answer]:
        """Call ``batch_generate_answer`` in a worker thread and check what it returns."""
        result, seconds = await asyncio.to_thread(self._call, official_batch(questions))
        if not isinstance(result, list) or len(result) != len(questions):
            got = f"{len(result)} items" if isinstance(result, list) else type(result).__name__
            raise TypeError(
                f"batch_generate_answer must return a list of {len(questions)} strings, got {got}"
            )
        answers = []
        per_question = seconds / len(questions)
        for value in result:
            # Besides the official strings, a mapping may carry a confidence
            # ({"answer": ..., "confidence": 0.7}) for the abstention analysis.
            if not isinstance(value, str | Mapping):
                raise TypeError(f"batch_generate_answer returned a {type(value).__name__}")
            answer = answer_from_value(value)
            if not answer.stages:
                answer.stages = {"generation": StageTiming(seconds=per_question)}
            answers.append(answer)
        return answers


class CallableOptions(BaseModel):
    """Options of the ``callable`` adapter."""

    model_config = ConfigDict(extra="forbid")

    target: str
    """The callable, as ``module:function`` or ``file.py:function``."""
    init_kwargs: dict[str, Any] | None = None
    """When set, ``target`` is a factory called once with these to make the callable."""
    pages_html: bool = True
    """Whether the questions handed to the callable carry page HTML."""


def answer_from_value(value: Any) -> Answer:
    """Turn what a user's system returned (str, `Answer` or mapping) into an `Answer`."""
    if isinstance(value, Answer):
        return value
    if isinstance(value, str):
        return Answer(text=value)
    if isinstance(value, Mapping):
        data = dict(value)
        if "text" not in data and "answer" in data:
            data["text"] = data.pop("answer")
        try:
            return Answer.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise TypeError(
                f"the reply is not an answer: {where + ': ' if where else ''}{first['msg']}"
            ) from None
    raise TypeError(f"expected a string, an Answer or a mapping, got {type(value).__name__}")


@PIPELINES.provides("callable")
class CallablePipeline(Pipeline):
    """Any Python callable taking a `Question`."""

    Options = CallableOptions

    @classmethod
    def wants_html(cls, options: BaseModel) -> bool:
        """Pages carry HTML unless ``pages_html`` is false."""
        return isinstance(options, CallableOptions) and options.pages_html

    def __init__(self, options: BaseModel, resources: Resources):
        super().__init__(options, resources)
        assert isinstance(options, CallableOptions)
        func = load_object(options.target)
        if options.init_kwargs is not None:
            func = func(**options.init_kwargs)
        if not callable(func):
            raise ConfigError(f"'{options.target}' is not callable")
        self.func = func
        self._is_async = inspect.iscoroutinefunction(func) or inspect.iscoroutinefunction(
            getattr(func, "__call__", None)  # noqa: B004 - an async __call__ method
        )

    async def answer(self, question: Question) -> Answer:
        """Call the user's function (in a thread when it is synchronous)."""
        start = time.perf_counter()
        if self._is_async:
            value = await self.func(question)
        else:
            value = await asyncio.to_thread(self.func, question)
        answer = answer_from_value(value)
        if not answer.stages:
            answer.stages = {"generation": StageTiming(seconds=time.perf_counter() - start)}
        return answer


class HttpOptions(BaseModel):
    """Options of the ``http`` adapter."""

    model_config = ConfigDict(extra="forbid")

    url: str
    timeout_s: float = Field(default=120.0, gt=0)
    headers: dict[str, str] = Field(default_factory=dict)
    include_pages: bool = True
    """Send the question's pages (``search_results``, official shape) with the question."""
    retries: int = Field(default=2, ge=0)


@PIPELINES.provides("http")
class HttpPipeline(Pipeline):
    """A user's system behind an HTTP endpoint.

    POSTs ``{"interaction_id", "query", "query_time", "search_results"}`` and reads
    ``{"answer": str}`` (optionally ``citations``, ``retrieved``, ``refused``, ``extras``).
    """

    Options = HttpOptions

    @classmethod
    def wants_html(cls, options: BaseModel) -> bool:
        """Pages carry HTML when they are sent."""
        return isinstance(options, HttpOptions) and options.include_pages

    def __init__(self, options: BaseModel, resources: Resources):
        super().__init__(options, resources)
        assert isinstance(options, HttpOptions)
        self.opts = options
        self._client = httpx.AsyncClient(timeout=options.timeout_s, headers=options.headers)
        self._limit = resources.limiter(options.url)

    async def answer(self, question: Question) -> Answer:
        """POST the question and parse the reply; server errors are retried, then raised."""
        payload = {
            "interaction_id": question.id,
            "query": question.query,
            "query_time": question.query_time or "",
            "search_results": official_search_results(question) if self.opts.include_pages else [],
        }
        last = ""
        for attempt in range(self.opts.retries + 1):
            async with self._limit:
                start = time.perf_counter()
                try:
                    response = await self._client.post(self.opts.url, json=payload)
                except httpx.HTTPError as exc:
                    last = f"{type(exc).__name__}: {exc}"
                    await asyncio.sleep(0.2 * (attempt + 1))
                    continue
                seconds = time.perf_counter() - start
            if response.status_code >= 500:
                last = f"HTTP {response.status_code}: {response.text[:200]}"
                await asyncio.sleep(0.2 * (attempt + 1))
                continue
            if response.status_code >= 400:
                raise BackendError(
                    f"{self.opts.url}: HTTP {response.status_code}: {response.text[:200]}"
                )
            try:
                body = response.json()
            except ValueError:
                raise BackendError(f"{self.opts.url}: the reply is not JSON") from None
            if not isinstance(body, Mapping) or "answer" not in body:
                raise BackendError(f"{self.opts.url}: the reply has no 'answer' field")
            answer = answer_from_value(body)
            if not answer.stages:
                answer.stages = {"generation": StageTiming(seconds=seconds)}
            return answer
        raise BackendError(f"{self.opts.url}: failed after {self.opts.retries + 1} tries: {last}")

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self._client.aclose()
