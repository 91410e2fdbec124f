"""Hybrid retrieval: BM25 and dense rankings fused by reciprocal rank fusion (RRF).

RRF scores a chunk by the sum over rankings of ``1 / (rrf_k + rank)``
(rank 1 = best), so it needs no score calibration between the two retrievers.

Embedding every chunk of five web pages costs seconds on a CPU, so by default
the dense ranking covers only BM25's best ``candidates`` chunks (embedded once
and cached); ``candidates=0`` embeds every chunk for a full dense ranking.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ragmeter.retrieval.base import RETRIEVERS, Hit, Retriever, dedupe_chunks, top_k
from ragmeter.retrieval.bm25 import BM25Params, BM25Retriever
from ragmeter.retrieval.dense import DenseRetriever, Embedder, shared_embedder
from ragmeter.text.chunk import Chunk

__all__ = ["RRF_K", "HybridRetriever", "rrf_fuse"]

RRF_K = 60
"""The usual RRF constant: damps the difference between the very top ranks."""


def rrf_fuse(rankings: Sequence[Sequence[str]], rrf_k: int = RRF_K) -> dict[str, float]:
    """Fused RRF score per id over several rankings (each a list of ids, best first)."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            fused[key] = fused.get(key, 0.0) + 1.0 / (rrf_k + rank)
    return fused


class HybridRetriever(Retriever):
    """BM25 + dense, fused by RRF."""

    name = "hybrid"

    def __init__(
        self,
        embedder: Embedder | None = None,
        model: str | None = None,
        candidates: int = 20,
        rrf_k: int = RRF_K,
        bm25: BM25Params | None = None,
        **_: Any,
    ):
        self.bm25 = BM25Retriever(bm25)
        self.dense = DenseRetriever(embedder or shared_embedder(model))
        self.candidates = candidates
        self.rrf_k = rrf_k

    def search(self, query: str, chunks: Sequence[Chunk], k: int) -> list[Hit]:
        """The ``k`` best chunks by fused rank."""
        chunks = dedupe_chunks(chunks)
        if not chunks:
            return []
        lexical = self.bm25.scores(query, chunks)
        lex_order = [i for i in top_k(lexical, len(chunks)) if lexical[i] > 0]
        if self.candidates > 0:
            pool = lex_order[: self.candidates]
            if len(pool) < min(self.candidates, len(chunks)):
                # Too few lexical matches: fill the pool in document order.
                taken = set(pool)
                pool += [i for i in range(len(chunks)) if i not in taken][
                    : self.candidates - len(pool)
                ]
        else:
            pool = list(range(len(chunks)))
        semantic = self.dense.scores(query, [chunks[i] for i in pool])
        dense_order = [pool[j] for j in top_k(semantic, len(pool))]
        fused = rrf_fuse(
            [[str(i) for i in lex_order], [str(i) for i in dense_order]], rrf_k=self.rrf_k
        )
        ids = np.array([int(i) for i in fused], dtype=np.int64)
        vals = np.array(list(fused.values()), dtype=np.float64)
        # Ties go to the earlier chunk: sort ids first so the stable sort keeps them in order.
        order = np.argsort(ids, kind="stable")
        ids, vals = ids[order], vals[order]
        return [Hit(chunks[int(ids[j])], float(vals[j])) for j in top_k(vals, k)]

    def describe(self) -> dict[str, Any]:
        """Name, fusion settings, BM25 settings and embedding model."""
        return {
            "name": self.name,
            "candidates": self.candidates,
            "rrf_k": self.rrf_k,
            "bm25": self.bm25.params.model_dump(),
            "embedding_model": self.dense.embedder.identity,
        }


RETRIEVERS.register("hybrid", HybridRetriever)
