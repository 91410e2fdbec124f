"""Batch helpers: many calls to one `LLM` with bounded concurrency, results in order."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TypeVar

from ragmeter.errors import ConfigError
from ragmeter.llm.protocol import (
    LLM,
    ChatMessage,
    ChoiceProbabilities,
    Completion,
    GenerationSettings,
)

T = TypeVar("T")
U = TypeVar("U")


async def map_bounded(
    fn: Callable[[T], Awaitable[U]], items: Iterable[T], concurrency: int
) -> list[U]:
    """``fn`` over ``items`` with at most ``concurrency`` in flight; results in input order.

    The first failure cancels the calls still running and is raised.
    """
    if concurrency < 1:
        raise ConfigError(f"concurrency must be at least 1, got {concurrency}")
    limit = asyncio.Semaphore(concurrency)

    async def one(item: T) -> U:
        async with limit:
            return await fn(item)

    tasks = [asyncio.ensure_future(one(item)) for item in items]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


async def generate_many(
    llm: LLM,
    conversations: Iterable[Sequence[ChatMessage]],
    settings: GenerationSettings,
    *,
    concurrency: int = 4,
) -> list[Completion]:
    """One reply per conversation, in order."""

    async def call(messages: Sequence[ChatMessage]) -> Completion:
        return await llm.generate(messages, settings)

    return await map_bounded(call, conversations, concurrency)


async def choice_probabilities_many(
    llm: LLM,
    conversations: Iterable[Sequence[ChatMessage]],
    choices: Sequence[str],
    *,
    concurrency: int = 4,
) -> list[ChoiceProbabilities]:
    """Choice probabilities per conversation, in order."""

    async def call(messages: Sequence[ChatMessage]) -> ChoiceProbabilities:
        return await llm.choice_probabilities(messages, choices)

    return await map_bounded(call, conversations, concurrency)


def user(text: str, system: str | None = None) -> list[ChatMessage]:
    """A one-turn conversation: an optional system message, then the user's text."""
    messages = [ChatMessage(role="system", content=system)] if system else []
    messages.append(ChatMessage(role="user", content=text))
    return messages
