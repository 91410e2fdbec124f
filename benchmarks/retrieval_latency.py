"""From 5 raw pages to the top-5 chunks: ragmeter's hybrid retrieval against the CRAG baseline's.

Per question of the CRAG sample, with the embedding model loaded and warm and
every cache empty (nothing extracted or embedded before):

- **ours**: Resiliparse extraction, sentence-aware chunks of at most 96 words,
  BM25 over all chunks, MiniLM embeddings of BM25's best 20, rank fusion, top 5;
- **baseline** (the official CRAG baseline's approach): BeautifulSoup + lxml
  text, split into sentences, every sentence (cut at 1,000 characters)
  embedded with MiniLM in float32 (sentence-transformers' default), cosine top 5.

Ours runs at the embedder's default precision (bfloat16 autocast on a CPU with
native bfloat16, see `ragmeter.retrieval.dense`) and, for comparison, in float32.

Latency is wall-clock seconds per question (median), torch on two threads.
Answer recall@5 is matched by `ragmeter.text.answers` over the five pieces
returned (questions with yes/no answers are left out).

    .venv/bin/python benchmarks/retrieval_latency.py [--questions 10] [--baseline-questions 10]

The last line printed is JSON: ``median_s_ours``, ``median_s_baseline``,
``recall5_ours``, ``recall5_baseline`` and more.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numpy as np
import torch
from bs4 import BeautifulSoup

from ragmeter.data.crag import read_crag
from ragmeter.retrieval.base import top_k
from ragmeter.retrieval.dense import Embedder
from ragmeter.retrieval.evidence import question_evidence
from ragmeter.retrieval.hybrid import HybridRetriever
from ragmeter.text.answers import EvidenceTokens, answer_keys, first_hit_rank
from ragmeter.text.cache import BlobCache, TextCache
from ragmeter.text.chunk import split_sentences
from ragmeter.types import Question

SAMPLE = "crag/crag_sample_10_with_pages.jsonl.bz2"
K = 5


def find_sample() -> Path:
    """The sample file in the data mirror (RAGMETER_DATA_MIRROR or ../shared/data)."""
    dirs = os.environ.get("RAGMETER_DATA_MIRROR", "")
    candidates = [Path(d) for d in dirs.split(os.pathsep) if d]
    candidates.append(Path(__file__).resolve().parents[1].parent / "shared" / "data")
    for d in candidates:
        if (d / SAMPLE).is_file():
            return d / SAMPLE
    raise SystemExit(f"sample file {SAMPLE} not found in {candidates}")


def ours(question: Question, embedder: Embedder) -> list[str]:
    """Top-5 chunk texts with empty caches (every page parsed, every chunk embedded)."""
    embedder.cache = BlobCache(None)
    retriever = HybridRetriever(embedder=embedder)
    evidence = question_evidence(question, TextCache(None))
    return [h.chunk.text for h in retriever.search(question.query, evidence.chunks, K)]


def baseline(question: Question, embedder: Embedder) -> list[str]:
    """Top-5 sentences the official baseline's way."""
    sentences: list[str] = []
    for page in question.pages:
        if not page.html:
            continue
        text = BeautifulSoup(page.html, "lxml").get_text(" ", strip=True)
        sentences += [text[a:b][:1000] for a, b in split_sentences(text)]
    if not sentences:
        return []
    vectors = embedder.encode(sentences)
    scores = vectors @ embedder.encode([question.query])[0]
    return [sentences[i] for i in top_k(np.asarray(scores), K)]


def recall5(question: Question, pieces: list[str]) -> float | None:
    """1 when the answer is found in the pieces, 0 if not, None when unmatchable."""
    keys = [k for k in answer_keys(question.answers, question.query) if k]
    if not keys:
        return None
    ev = [EvidenceTokens.of(p) for p in pieces]
    return float(all(first_hit_rank(k, ev) is not None for k in keys))


def main() -> None:
    """Time both approaches per question and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=10)
    ap.add_argument("--baseline-questions", type=int, default=10)
    args = ap.parse_args()
    torch.set_num_threads(2)

    questions = list(read_crag(find_sample(), with_html=True))
    embedder = Embedder(cache=BlobCache(None))
    fp32 = Embedder(cache=BlobCache(None), precision="fp32")
    for e in (embedder, fp32):
        e.encode(["warm up the model", "and its thread pool"])
    # How fast MiniLM runs on this machine right now (a quiet 2-core machine: ~320/s),
    # so latencies measured on a busy machine can be read in context.
    probe = ["The quick brown fox jumps over the lazy dog near the river bank today."] * 64
    embedder.encode(probe)  # the first batch of a new shape also builds its kernels
    fp32.encode(probe)
    t0 = time.perf_counter()
    embedder.encode(probe)
    sentences_per_s = len(probe) / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    fp32.encode(probe)
    sentences_per_s_fp32 = len(probe) / (time.perf_counter() - t0)

    rows = []
    for i, q in enumerate(questions[: max(args.questions, args.baseline_questions)]):
        row: dict[str, object] = {"id": q.id}
        if i < args.questions:
            t0 = time.perf_counter()
            pieces = ours(q, embedder)
            row["s_ours"] = time.perf_counter() - t0
            row["r_ours"] = recall5(q, pieces)
            t0 = time.perf_counter()
            pieces = ours(q, fp32)
            row["s_ours_fp32"] = time.perf_counter() - t0
            row["r_ours_fp32"] = recall5(q, pieces)
        if i < args.baseline_questions:
            t0 = time.perf_counter()
            pieces = baseline(q, fp32)
            row["s_baseline"] = time.perf_counter() - t0
            row["r_baseline"] = recall5(q, pieces)
        rows.append(row)
        print(
            f"{q.id[:8]}  ours {row.get('s_ours', float('nan')):6.2f} s "
            f"r@5 {row.get('r_ours')}   ours fp32 {row.get('s_ours_fp32', float('nan')):6.2f} s   "
            f"baseline {row.get('s_baseline', float('nan')):7.2f} s "
            f"r@5 {row.get('r_baseline')}",
            flush=True,
        )

    def median(key: str) -> float | None:
        vals = [float(r[key]) for r in rows if key in r]  # type: ignore[arg-type]
        return round(statistics.median(vals), 3) if vals else None

    def mean_recall(key: str) -> float:
        vals = [float(r[key]) for r in rows if r.get(key) is not None]  # type: ignore[arg-type]
        return sum(vals) / len(vals) if vals else 0.0

    result = {
        "median_s_ours": median("s_ours"),
        "median_s_baseline": median("s_baseline"),
        "median_s_ours_fp32": median("s_ours_fp32"),
        "ratio_baseline_over_ours": round(
            (median("s_baseline") or 0.0) / (median("s_ours") or float("inf")), 1
        ),
        "precision_ours": embedder.precision,
        "recall5_ours": round(mean_recall("r_ours"), 4),
        "recall5_baseline": round(mean_recall("r_baseline"), 4),
        "recall5_ours_fp32": round(mean_recall("r_ours_fp32"), 4),
        "questions_ours": sum(1 for r in rows if "s_ours" in r),
        "questions_baseline": sum(1 for r in rows if "s_baseline" in r),
        "minilm_sentences_per_s": round(sentences_per_s, 1),
        "minilm_sentences_per_s_fp32": round(sentences_per_s_fp32, 1),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "torch_threads": torch.get_num_threads(),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
