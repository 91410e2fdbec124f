"""Retrieval over a question's own evidence and over persistent corpus indexes; metrics.

Built-in retrievers (registered by name in `RETRIEVERS`): ``bm25``, ``dense``,
``hybrid``. Heavy libraries (bm25s, sentence-transformers, FAISS) load on first use.
"""

from ragmeter.retrieval.base import RETRIEVERS, Hit, Retriever, dedupe_chunks, make_retriever
from ragmeter.retrieval.bm25 import BM25Params, BM25Retriever, bm25_tokenize
from ragmeter.retrieval.dense import (
    DEFAULT_EMBEDDING_MODEL,
    DenseRetriever,
    Embedder,
    resolve_embedding_model,
    shared_embedder,
)
from ragmeter.retrieval.evidence import QuestionEvidence, question_evidence
from ragmeter.retrieval.hybrid import HybridRetriever, rrf_fuse
from ragmeter.retrieval.metrics import (
    MetricSummary,
    QuestionRetrieval,
    RetrievalReport,
    aggregate,
    score_question,
)

__all__ = [
    "DEFAULT_EMBEDDING_MODEL",
    "RETRIEVERS",
    "BM25Params",
    "BM25Retriever",
    "DenseRetriever",
    "Embedder",
    "Hit",
    "HybridRetriever",
    "MetricSummary",
    "QuestionEvidence",
    "QuestionRetrieval",
    "RetrievalReport",
    "Retriever",
    "aggregate",
    "bm25_tokenize",
    "dedupe_chunks",
    "make_retriever",
    "question_evidence",
    "resolve_embedding_model",
    "rrf_fuse",
    "score_question",
    "shared_embedder",
]
