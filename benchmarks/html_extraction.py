"""HTML to text: ragmeter's extractor against BeautifulSoup + lxml ``get_text``.

BeautifulSoup + lxml ``get_text(" ", strip=True)`` is what the official CRAG
baseline uses. Both run over the 50 pages of the CRAG sample, one core, in
alternating rounds; each side's time is its best round of CPU seconds (single
threaded work, so CPU time is what a quiet machine's wall clock shows, and it
is not inflated by other processes on a shared machine). Answer recall is the
share of questions whose gold answer is found in the extracted text of their
five pages, matched by `ragmeter.text.answers` (questions with yes/no answers
are left out).

    .venv/bin/python benchmarks/html_extraction.py [--rounds 3]

The last line printed is JSON: ``ratio_vs_bs4``, ``recall_ours``, ``recall_bs4`` and more.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

from bs4 import BeautifulSoup

from ragmeter.data.crag import read_crag
from ragmeter.text.answers import EvidenceTokens, answer_keys, first_hit_rank
from ragmeter.text.extract import extract_html
from ragmeter.types import Question

SAMPLE = "crag/crag_sample_10_with_pages.jsonl.bz2"


def find_sample() -> Path:
    """The sample file in the data mirror (RAGMETER_DATA_MIRROR or ../shared/data)."""
    dirs = os.environ.get("RAGMETER_DATA_MIRROR", "")
    candidates = [Path(d) for d in dirs.split(os.pathsep) if d]
    candidates.append(Path(__file__).resolve().parents[1].parent / "shared" / "data")
    for d in candidates:
        if (d / SAMPLE).is_file():
            return d / SAMPLE
    raise SystemExit(f"sample file {SAMPLE} not found in {candidates}")


def bs4_text(html: str) -> str:
    """The official CRAG baseline's extraction."""
    return BeautifulSoup(html, "lxml").get_text(" ", strip=True)


def ours_text(html: str) -> str:
    """ragmeter's extraction."""
    return extract_html(html).text


def best_cpu(fn: Callable[[str], str], pages: list[str], rounds: int) -> tuple[float, list[str]]:
    """Best CPU seconds over ``rounds`` passes, and the texts of the last pass."""
    best = float("inf")
    texts: list[str] = []
    for _ in range(rounds):
        t0 = time.process_time()
        texts = [fn(h) for h in pages]
        best = min(best, time.process_time() - t0)
    return best, texts


def recall(questions: list[Question], texts: list[str]) -> tuple[float, int]:
    """Share of answerable questions whose answer is in the text of their pages."""
    hits = n = 0
    i = 0
    for q in questions:
        joined = "\n".join(texts[i : i + len(q.pages)])
        i += len(q.pages)
        keys = [k for k in answer_keys(q.answers, q.query) if k]
        if not keys:
            continue
        n += 1
        ev = EvidenceTokens.of(joined)
        hits += all(first_hit_rank(k, [ev]) is not None for k in keys)
    return (hits / n if n else 0.0), n


def main() -> None:
    """Run both extractors and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()

    questions = list(read_crag(find_sample(), with_html=True))
    pages = [p.html or "" for q in questions for p in q.pages]
    mb = sum(len(h.encode("utf-8")) for h in pages) / 1e6
    # Warm both (imports, lazy tables) before timing.
    bs4_text(pages[0])
    ours_text(pages[0])

    t_bs4 = t_ours = float("inf")
    texts_bs4: list[str] = []
    texts_ours: list[str] = []
    for _ in range(args.rounds):  # alternate so both see the same machine conditions
        t, texts_bs4 = best_cpu(bs4_text, pages, 1)
        t_bs4 = min(t_bs4, t)
        t, texts_ours = best_cpu(ours_text, pages, 1)
        t_ours = min(t_ours, t)
    recall_bs4, n = recall(questions, texts_bs4)
    recall_ours, _ = recall(questions, texts_ours)
    empty = sum(1 for t in texts_ours if not t)
    print(f"pages {len(pages)}  {mb:.1f} MB of HTML ({empty} pages empty or unreadable)")
    print(
        f"bs4+lxml get_text  {t_bs4:7.3f} s  {mb / t_bs4:7.1f} MB/s  answer recall {recall_bs4:.3f}"
    )
    print(
        f"ragmeter extract   {t_ours:7.3f} s  {mb / t_ours:7.1f} MB/s  "
        f"answer recall {recall_ours:.3f}"
    )
    print(f"ratio {t_bs4 / t_ours:.1f}x over {n} questions with matchable answers")
    print(
        json.dumps(
            {
                "ratio_vs_bs4": round(t_bs4 / t_ours, 2),
                "recall_ours": round(recall_ours, 4),
                "recall_bs4": round(recall_bs4, 4),
                "mb_per_s_ours": round(mb / t_ours, 1),
                "mb_per_s_bs4": round(mb / t_bs4, 1),
                "seconds": "best CPU seconds of alternating rounds",
                "rounds": args.rounds,
                "pages": len(pages),
                "html_mb": round(mb, 2),
                "questions_matchable": n,
            }
        )
    )


if __name__ == "__main__":
    main()
