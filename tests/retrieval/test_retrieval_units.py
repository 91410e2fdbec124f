"""Fast units: BM25 ranking and tokens, rank fusion, metrics, the retriever registry."""

from __future__ import annotations

import pytest

from ragmeter.errors import UnknownComponentError
from ragmeter.retrieval import (
    RETRIEVERS,
    BM25Retriever,
    Hit,
    aggregate,
    bm25_tokenize,
    make_retriever,
    rrf_fuse,
    score_question,
)
from ragmeter.text.chunk import Chunk, chunk_id
from ragmeter.types import Labels, Passage, Question


def chunk(text: str, doc: int = 0) -> Chunk:
    return Chunk(
        chunk_id=chunk_id(text),
        text=text,
        doc_index=doc,
        start=0,
        end=len(text),
        n_tokens=len(text.split()),
    )


CHUNKS = [
    chunk("The Masters is played at Augusta National every April.", 0),
    chunk("Rory McIlroy has won four major championships but never the Masters.", 1),
    chunk("Augusta, Georgia has a humid subtropical climate.", 2),
    chunk("Rory McIlroy has won four major championships but never the Masters.", 3),
    chunk("In 2014 he won 2 majors; his winnings were 8,280,095 dollars.", 4),
]


def test_bm25_ranks_dedupes_and_drops_zero_scores() -> None:
    hits = BM25Retriever().search("how many majors has Rory McIlroy won?", CHUNKS, 10)
    assert hits[0].chunk.doc_index == 1
    assert [h.chunk.doc_index for h in hits].count(3) == 0  # same text as doc 1
    assert all(h.score > 0 for h in hits) and 2 not in {h.chunk.doc_index for h in hits}
    assert BM25Retriever().search("zzz qqq", CHUNKS, 3) == []
    assert BM25Retriever().search("anything", [], 3) == []


def test_bm25_tokens_keep_numbers_and_stem() -> None:
    assert bm25_tokenize(["He won 2 majors, earning 8,280,095 dollars"])[0] == [
        "2",
        "major",
        "earn",
        "8280095",
        "dollar",
    ]
    hits = BM25Retriever().search("8280095", CHUNKS, 1)
    assert hits[0].chunk.doc_index == 4


def test_rrf_fuses_by_rank() -> None:
    fused = rrf_fuse([["a", "b", "c"], ["c", "a"]], rrf_k=60)
    assert fused["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert fused["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert max(fused, key=fused.__getitem__) == "a"


def test_registry_names_and_errors() -> None:
    assert {"bm25", "dense", "hybrid"} <= set(RETRIEVERS.names())
    assert isinstance(make_retriever("bm25"), BM25Retriever)
    with pytest.raises(UnknownComponentError, match="did you mean 'hybrid'"):
        make_retriever("hybird")


def test_metrics_recall_mrr_doc_recall_and_slices() -> None:
    q1 = Question(
        id="1",
        dataset="t",
        query="who won?",
        answers=[["Rory McIlroy", "McIlroy"]],
        labels=Labels(domain="sports"),
    )
    q2 = Question(
        id="2", dataset="t", query="is it hot?", answers=[["yes"]], labels=Labels(domain="open")
    )
    q3 = Question(
        id="3",
        dataset="asqa",
        query="which years?",
        answers=[["2014"], ["1999"]],
        labels=Labels(domain="sports"),
        passages=[
            Passage(text="x", answers_found=[1, 0]),
            Passage(text="y", answers_found=[0, 0]),
            Passage(text="z", answers_found=[0, 1]),
        ],
    )
    hits = [Hit(c, 1.0) for c in CHUNKS]
    r1 = score_question(q1, hits[2:], [1, 3])  # doc 2 first, then doc 3 holds the answer
    assert r1.answer_recall == {"1": 0.0, "3": 1.0} and r1.first_hit == 2
    r2 = score_question(q2, hits, [1, 3])
    assert r2.answer_recall is None and r2.unmatchable_reason
    r3 = score_question(q3, hits, [1, 3])
    assert r3.answer_recall == {"1": 0.0, "3": 0.0}
    assert r3.doc_recall == {"1": 0.5, "3": 1.0}  # gold docs 0 and 2
    report = aggregate([r1, r2, r3], [1, 3])
    assert report.n == 2 and report.unmatchable == 1 and report.questions == 3
    assert report.mrr == pytest.approx((1 / 2 + 1 / 5) / 2)
    body = report.public_json()
    assert list(body)[:4] == ["n", "recall_at_k", "mrr", "doc_recall_at_k"]
    assert set(body) == {"n", "recall_at_k", "mrr", "doc_recall_at_k", "slices"}
    assert body["slices"]["domain"]["sports"]["n"] == 2  # type: ignore[index]
    open_slice = body["slices"]["domain"]["open"]  # type: ignore[index]
    assert open_slice == {"n": 0, "recall_at_k": {"1": None, "3": None}, "mrr": None}


def test_embedding_precision_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """`auto` follows the environment, then the CPU; a bad name is a config error."""
    from ragmeter.errors import ConfigError
    from ragmeter.retrieval import dense

    monkeypatch.delenv("RAGMETER_EMBED_PRECISION", raising=False)
    monkeypatch.setattr(dense, "cpu_has_native_bf16", lambda: True)
    assert dense.resolve_precision() == "bf16"
    assert dense.resolve_precision("fp32") == "fp32"
    monkeypatch.setattr(dense, "cpu_has_native_bf16", lambda: False)
    assert dense.resolve_precision() == "fp32"
    assert dense.resolve_precision("bf16") == "bf16"
    monkeypatch.setenv("RAGMETER_EMBED_PRECISION", "BF16")
    assert dense.resolve_precision() == "bf16"
    monkeypatch.setenv("RAGMETER_EMBED_PRECISION", "fp8")
    with pytest.raises(ConfigError, match="fp8"):
        dense.resolve_precision()
