"""``ragmeter retrieval-eval``: answer recall@k, MRR and gold-document recall of a retriever."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import typer

from ragmeter.errors import ConfigError


def _ks(text: str) -> list[int]:
    try:
        ks = sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise ConfigError(f"-k must be comma-separated integers, got {text!r}") from None
    if not ks or ks[0] < 1:
        raise ConfigError(f"-k must list positive integers, got {text!r}")
    return ks


def retrieval_eval(
    dataset: Path = typer.Option(..., "--dataset", help="A data file with pages or passages."),
    retriever: str = typer.Option("hybrid", "--retriever", help="bm25, dense or hybrid."),
    k: str = typer.Option("5,10,20", "-k", help="Cut-offs, comma-separated."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    index: Path | None = typer.Option(
        None, "--index", help="Search this corpus index instead of each question's own pages."
    ),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N questions."),
    chunk_tokens: int = typer.Option(96, "--chunk-tokens", min=8, help="Words per chunk at most."),
    overlap: int = typer.Option(16, "--overlap", min=0, help="Words of overlap between chunks."),
    candidates: int = typer.Option(
        20, "--candidates", min=0, help="Hybrid: BM25 pool embedded for the dense ranking (0: all)."
    ),
    embedding_model: str | None = typer.Option(
        None, "--embedding-model", help="A local model folder or hub name (default: MiniLM)."
    ),
    rerank: str | None = typer.Option(
        None, "--rerank", help="Rerank with this LLM as a yes/no classifier (e.g. 'local')."
    ),
    rerank_candidates: int = typer.Option(
        10, "--rerank-candidates", min=1, help="How many first-stage hits the LLM reranks."
    ),
    fmt: str | None = typer.Option(None, "--format", help="Data format (default: detected)."),
) -> None:
    """Answer recall@k, MRR and (with answers_found) gold-document recall, overall and per slice."""
    from ragmeter.data.formats import read_questions
    from ragmeter.retrieval import make_retriever, question_evidence, score_question
    from ragmeter.retrieval.base import Retriever
    from ragmeter.retrieval.corpus import CorpusIndex
    from ragmeter.retrieval.dense import Embedder
    from ragmeter.retrieval.metrics import QuestionRetrieval, aggregate
    from ragmeter.text.cache import TextCache
    from ragmeter.text.chunk import ChunkParams

    ks = _ks(k)
    depth = ks[-1]
    if retriever not in ("bm25", "dense", "hybrid") and index is not None:
        raise ConfigError(f"--index searches with bm25, dense or hybrid, not {retriever!r}")
    params = ChunkParams(
        max_tokens=chunk_tokens,
        overlap_tokens=overlap,
        min_tokens=min(ChunkParams().min_tokens, chunk_tokens // 2),
    )
    reranker: Any = None
    if rerank:
        from ragmeter.llm import load_llm
        from ragmeter.retrieval.rerank import LLMReranker

        reranker = LLMReranker(load_llm(rerank), candidates=rerank_candidates)

    corpus: CorpusIndex | None = None
    base: Retriever | None = None
    if index is not None:
        embedder = Embedder(embedding_model) if retriever != "bm25" else None
        corpus = CorpusIndex.open(index, embedder=embedder)
    else:
        options: dict[str, Any] = {"candidates": candidates}
        if retriever != "bm25":
            options["model"] = embedding_model
        base = make_retriever(retriever, **options)

    cache = TextCache.default()
    results: list[QuestionRetrieval] = []
    empty_pages = 0

    async def run() -> None:
        nonlocal empty_pages
        for i, question in enumerate(read_questions(dataset, fmt=fmt, with_html=True)):
            if limit is not None and i >= limit:
                break
            if corpus is not None:
                first = max(depth, reranker.candidates if reranker else 0)
                hits = corpus.search(question.query, first, mode=retriever)
            else:
                assert base is not None
                evidence = question_evidence(question, cache, params)
                empty_pages += len(evidence.empty_pages)
                first = max(depth, reranker.candidates if reranker else 0)
                hits = await base.asearch(question.query, evidence.chunks, first)
            if reranker is not None:
                hits = await reranker.rerank(question.query, hits)
            result = score_question(question, hits[:depth], ks)
            if corpus is not None:
                # Corpus documents are not the question's own passages: no gold-document recall.
                result.doc_recall = None
            results.append(result)

    try:
        asyncio.run(run())
    finally:
        if corpus is not None:
            corpus.close()
        if reranker is not None:
            asyncio.run(reranker.llm.aclose())
    report = aggregate(results, ks)
    if report.unmatchable:
        typer.echo(
            f"note: {report.unmatchable} of {report.questions} questions have answers that text "
            "cannot attest (yes/no, invalid question, i don't know) and are not in answer recall",
            err=True,
        )
    if empty_pages:
        typer.echo(f"note: {empty_pages} pages gave no text (empty, binary or too large)", err=True)
    if as_json:
        typer.echo(json.dumps(report.public_json()))
        return
    head = "  ".join(f"R@{x}" for x in ks)
    typer.echo(f"{'slice':32s} {'n':>5s}  {head}  MRR")

    def cell(value: float | None, width: int) -> str:
        return ("-" if value is None else f"{value:.3f}").rjust(width)

    def row(name: str, s: Any) -> None:
        cells = "  ".join(cell(s.recall_at_k[str(x)], len(f"R@{x}")) for x in ks)
        typer.echo(f"{name[:32]:32s} {s.n:5d}  {cells}  {cell(s.mrr, 5)}")
        if s.doc_recall_at_k is not None:
            docs = "  ".join(cell(s.doc_recall_at_k[str(x)], len(f"R@{x}")) for x in ks)
            typer.echo(f"{'  gold documents':32s} {s.n_doc:5d}  {docs}")

    row("all", report)
    for name, group in report.slices.items():
        for value, s in group.items():
            row(f"{name}={value}", s)
