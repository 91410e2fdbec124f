"""The retriever protocol, scored hits, and the registry of retrievers by name.

A retriever ranks the chunks it is given for a query (per-question retrieval:
the chunks of one question's own pages or passages). Persistent corpus-wide
search is `ragmeter.retrieval.corpus.CorpusIndex`, which returns the same
`Hit`s. ``search`` is synchronous; ``asearch`` is what async callers (the
engine, the LLM reranker) use, and by default runs ``search`` in a thread.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ragmeter.registry import Registry
from ragmeter.text.chunk import Chunk
from ragmeter.types import RetrievedChunk

__all__ = ["RETRIEVERS", "Hit", "Retriever", "dedupe_chunks", "make_retriever", "top_k"]


@dataclass(frozen=True)
class Hit:
    """One ranked chunk with its retriever score (higher is better)."""

    chunk: Chunk
    score: float

    def to_retrieved(self) -> RetrievedChunk:
        """The on-disk record of this hit (what an `Answer` carries)."""
        c = self.chunk
        return RetrievedChunk(
            chunk_id=c.chunk_id,
            text=c.text,
            score=float(self.score),
            source=c.source,
            doc_index=c.doc_index,
            start=c.start,
            end=c.end,
        )


class Retriever(ABC):
    """Ranks a question's chunks for a query."""

    name: str = "retriever"

    @abstractmethod
    def search(self, query: str, chunks: Sequence[Chunk], k: int) -> list[Hit]:
        """The best ``k`` of ``chunks`` for ``query``, best first."""

    async def asearch(self, query: str, chunks: Sequence[Chunk], k: int) -> list[Hit]:
        """Async form of `search` (runs it in a worker thread)."""
        return await asyncio.to_thread(self.search, query, chunks, k)

    def describe(self) -> dict[str, Any]:
        """Settings that change this retriever's ranking (for run headers)."""
        return {"name": self.name}


def top_k(scores: NDArray[np.floating[Any]], k: int) -> list[int]:
    """Indexes of the ``k`` highest scores, best first; ties keep document order."""
    n = len(scores)
    if n == 0 or k <= 0:
        return []
    k = min(k, n)
    # A stable sort on the negated scores keeps earlier chunks first among equals.
    order = np.argsort(-scores, kind="stable")
    return [int(i) for i in order[:k]]


def dedupe_chunks(chunks: Sequence[Chunk]) -> list[Chunk]:
    """Chunks with repeated ids (the same text on duplicated pages) removed, first kept."""
    seen: set[str] = set()
    out = []
    for c in chunks:
        if c.chunk_id not in seen:
            seen.add(c.chunk_id)
            out.append(c)
    return out


RETRIEVERS: Registry[Callable[..., Retriever]] = Registry("retrievers")
"""Retriever factories by name; plugins use the entry-point group ``ragmeter.retrievers``."""


def make_retriever(name: str, **options: Any) -> Retriever:
    """Create the retriever registered as ``name`` with ``options``."""
    import ragmeter.retrieval  # noqa: F401  (registers the built-ins)

    return RETRIEVERS.get(name)(**options)
