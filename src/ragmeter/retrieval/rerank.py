"""An LLM as a yes/no relevance classifier, reranking a retriever's best chunks.

For each of the first ``candidates`` hits the model is asked whether the
passage helps answer the question, and the probability of "yes" (normalised
over "yes" and "no", from the model's next-token probabilities where the
backend offers them) becomes the new score. Hits are reordered by it; ties
and the hits beyond ``candidates`` keep the first-stage order.

The model is anything that implements ``choice_probabilities`` of the LLM
protocol (`ragmeter.llm.protocol.LLM`); create one with ``ragmeter.llm.load_llm``.
The prompt lives beside this module in ``prompts/rerank.txt``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from functools import lru_cache
from importlib.resources import files
from typing import Any

from ragmeter.errors import BackendError
from ragmeter.llm.protocol import LLM, ChatMessage
from ragmeter.retrieval.base import Hit, Retriever
from ragmeter.text.chunk import Chunk

__all__ = ["LLMReranker", "RerankedRetriever", "rerank_messages"]


@lru_cache(maxsize=1)
def _prompts() -> tuple[str, str]:
    base = files("ragmeter.retrieval") / "prompts"
    return (
        (base / "rerank_system.txt").read_text(encoding="utf-8").strip(),
        (base / "rerank.txt").read_text(encoding="utf-8").strip(),
    )


def rerank_messages(question: str, passage: str, max_chars: int = 1500) -> list[ChatMessage]:
    """The chat messages asking whether ``passage`` helps answer ``question``."""
    system, user = _prompts()
    text = passage if len(passage) <= max_chars else passage[:max_chars] + " ..."
    return [
        ChatMessage(role="system", content=system),
        ChatMessage(role="user", content=user.format(question=question, passage=text)),
    ]


class LLMReranker:
    """Reorders hits by the model's probability that each one is relevant."""

    def __init__(self, llm: LLM, candidates: int = 10, concurrency: int = 1, max_chars: int = 1500):
        self.llm = llm
        self.candidates = candidates
        self.concurrency = max(1, concurrency)
        self.max_chars = max_chars
        self.calls = 0

    async def relevance(self, question: str, passage: str) -> float:
        """P(yes) for one passage, normalised over yes/no."""
        result = await self.llm.choice_probabilities(
            rerank_messages(question, passage, self.max_chars), ["yes", "no"]
        )
        self.calls += 1
        yes, no = result.probs.get("yes", 0.0), result.probs.get("no", 0.0)
        if yes + no <= 0:
            raise BackendError(f"the model gave no probability to yes or no: {result.probs}")
        return yes / (yes + no)

    async def rerank(self, question: str, hits: Sequence[Hit]) -> list[Hit]:
        """``hits`` with the first ``candidates`` reordered by relevance."""
        head, tail = list(hits[: self.candidates]), list(hits[self.candidates :])
        limit = asyncio.Semaphore(self.concurrency)

        async def score(hit: Hit) -> float:
            async with limit:
                return await self.relevance(question, hit.chunk.text)

        probs = await asyncio.gather(*(score(h) for h in head))
        order = sorted(range(len(head)), key=lambda i: -probs[i])  # sorted() is stable
        return [Hit(head[i].chunk, probs[i]) for i in order] + tail


class RerankedRetriever(Retriever):
    """A first-stage retriever followed by the LLM reranker."""

    def __init__(self, base: Retriever, reranker: LLMReranker):
        self.base = base
        self.reranker = reranker
        self.name = f"{base.name}+rerank"

    async def asearch(self, query: str, chunks: Sequence[Chunk], k: int) -> list[Hit]:
        """First-stage hits (at least ``candidates``), reranked, cut to ``k``."""
        hits = await self.base.asearch(query, chunks, max(k, self.reranker.candidates))
        return (await self.reranker.rerank(query, hits))[:k]

    def search(self, query: str, chunks: Sequence[Chunk], k: int) -> list[Hit]:
        """Synchronous `asearch` (not for use inside a running event loop)."""
        return asyncio.run(self.asearch(query, chunks, k))

    def describe(self) -> dict[str, Any]:
        """The first stage's settings plus the reranking model and depth."""
        return {
            **self.base.describe(),
            "name": self.name,
            "rerank_model": self.reranker.llm.identity,
            "rerank_candidates": self.reranker.candidates,
        }
