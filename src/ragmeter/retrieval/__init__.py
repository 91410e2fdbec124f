"""Retrieval over a question's own evidence and over persistent corpus indexes; metrics.

Built-in retrievers (registered by name in `RETRIEVERS`): ``bm25``, ``dense``,
``hybrid``; `RerankedRetriever` adds the LLM reranker to any of them, and
`CorpusIndex` searches a persistent index of a whole data set. Heavy libraries
(bm25s, sentence-transformers, FAISS) load on first use.
"""

from ragmeter.retrieval.base import RETRIEVERS, Hit, Retriever, dedupe_chunks, make_retriever
from ragmeter.retrieval.bm25 import BM25Params, BM25Retriever, bm25_tokenize
from ragmeter.retrieval.corpus import CorpusIndex, IndexParams, build_corpus_index
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
from ragmeter.retrieval.rerank import LLMReranker, RerankedRetriever

__all__ = [
    "DEFAULT_EMBEDDING_MODEL",
    "RETRIEVERS",
    "BM25Params",
    "BM25Retriever",
    "CorpusIndex",
    "DenseRetriever",
    "Embedder",
    "Hit",
    "HybridRetriever",
    "IndexParams",
    "LLMReranker",
    "MetricSummary",
    "QuestionEvidence",
    "QuestionRetrieval",
    "RerankedRetriever",
    "RetrievalReport",
    "Retriever",
    "aggregate",
    "bm25_tokenize",
    "build_corpus_index",
    "dedupe_chunks",
    "make_retriever",
    "question_evidence",
    "resolve_embedding_model",
    "rrf_fuse",
    "score_question",
    "shared_embedder",
]
