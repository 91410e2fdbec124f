"""BM25 over chunks (bm25s), with a tokenizer that keeps numbers.

Tokens: the answer-matching normalisation (accents folded, lower case,
thousands separators dropped, so "3,696" and "3696" meet), English stop words
removed, Snowball-stemmed (PyStemmer). Single digits are kept: in CRAG, "5%"
or "2 goals" are what a question is about.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ragmeter.errors import MissingExtraError
from ragmeter.retrieval.base import RETRIEVERS, Hit, Retriever, dedupe_chunks, top_k
from ragmeter.text.answers import normalize_tokens
from ragmeter.text.chunk import Chunk
from ragmeter.types import Record

__all__ = ["BM25Params", "BM25Retriever", "bm25_tokenize"]


class BM25Params(Record):
    """BM25 settings (part of corpus-index manifests)."""

    k1: float = 1.5
    b: float = 0.75
    method: str = "lucene"
    stemmer: str = "english"
    stopwords: str = "en"


def _bm25s() -> Any:
    try:
        import bm25s
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise MissingExtraError("retrieval", "BM25 retrieval") from exc
    return bm25s


@lru_cache(maxsize=4)
def _stemmer(language: str) -> Any:
    try:
        import Stemmer
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise MissingExtraError("retrieval", "BM25 stemming") from exc
    return Stemmer.Stemmer(language)


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    from bm25s.stopwords import STOPWORDS_EN_PLUS

    return frozenset(STOPWORDS_EN_PLUS)


def bm25_tokenize(texts: Sequence[str], params: BM25Params | None = None) -> list[list[str]]:
    """BM25 tokens of each text (see the module docstring)."""
    params = params or BM25Params()
    stop = _stopwords() if params.stopwords == "en" else frozenset()
    stem = _stemmer(params.stemmer).stemWords if params.stemmer else None
    out = []
    for text in texts:
        toks = [t for t in normalize_tokens(text) if t not in stop and (len(t) > 1 or t.isdigit())]
        out.append(stem(toks) if stem else toks)
    return out


def bm25_index(token_lists: list[list[str]], params: BM25Params) -> Any:
    """A bm25s index over tokenized documents."""
    bm25s = _bm25s()
    index = bm25s.BM25(k1=params.k1, b=params.b, method=params.method)
    # bm25s cannot index an empty vocabulary; a placeholder token keeps it valid.
    index.index([t or ["\u2205"] for t in token_lists], show_progress=False)
    return index


class BM25Retriever(Retriever):
    """Lexical retrieval: BM25 over a question's chunks; chunks scoring zero are not returned."""

    name = "bm25"

    def __init__(self, params: BM25Params | None = None, **_: Any):
        self.params = params or BM25Params()

    def scores(self, query: str, chunks: Sequence[Chunk]) -> np.ndarray:
        """BM25 score of every chunk for ``query``."""
        if not chunks:
            return np.zeros(0, dtype=np.float32)
        index = bm25_index(bm25_tokenize([c.text for c in chunks], self.params), self.params)
        q = bm25_tokenize([query], self.params)[0]
        if not q:
            return np.zeros(len(chunks), dtype=np.float32)
        return np.asarray(index.get_scores(q), dtype=np.float32)

    def search(self, query: str, chunks: Sequence[Chunk], k: int) -> list[Hit]:
        """The ``k`` best chunks by BM25 score (duplicates removed)."""
        chunks = dedupe_chunks(chunks)
        scores = self.scores(query, chunks)
        return [Hit(chunks[i], float(scores[i])) for i in top_k(scores, k) if scores[i] > 0]

    def describe(self) -> dict[str, Any]:
        """Name and BM25 settings."""
        return {"name": self.name, **self.params.model_dump()}


RETRIEVERS.register("bm25", BM25Retriever)
