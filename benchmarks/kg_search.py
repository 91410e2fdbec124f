"""Name search speed: our BM25 index against rank_bm25 (what the official mock API uses).

On the real finance name table (11,481 rows, data mirror), both rank the same
queries the official way (top 10, zero scores dropped). Reports build time,
per-query latency, and how often the two agree (same top-10 scores). The last
line of output is JSON.

    python benchmarks/kg_search.py [--queries 500]
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import time

import numpy as np
from rank_bm25 import BM25Okapi

from ragmeter.kg.bm25 import NameIndex
from ragmeter.kg.fixture import COMPANIES_RELATIVE, find_in_mirror
from ragmeter.kg.text import normalize_name


def main() -> None:
    """Time both on the same corpus and queries."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=500)
    args = parser.parse_args()
    path = find_in_mirror(COMPANIES_RELATIVE)
    if path is None:
        raise SystemExit(
            "set RAGMETER_DATA_MIRROR to the data mirror (needs the company name table)"
        )
    with path.open(newline="") as f:
        names = [row["Name"] for row in csv.DictReader(f)]
    corpus = [n.split() for n in dict.fromkeys(normalize_name(n) for n in names)]
    rng = random.Random(0)
    queries = []
    for _ in range(args.queries):
        words = rng.choice(corpus)
        k = rng.randint(1, min(3, len(words))) if words else 0
        queries.append(words[:k])

    t = time.perf_counter()
    ours = NameIndex(corpus, scheme="okapi")
    ours_build = time.perf_counter() - t
    t = time.perf_counter()
    theirs = BM25Okapi(corpus)
    theirs_build = time.perf_counter() - t

    ours_ms, theirs_ms, agree = [], [], 0
    for q in queries:
        t = time.perf_counter()
        top = ours.top(q, 10)
        ours_ms.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        scores = theirs.get_scores(q)
        ref = [int(i) for i in np.argsort(scores)[::-1][:10] if scores[i] != 0]
        theirs_ms.append((time.perf_counter() - t) * 1000)
        agree += bool(np.allclose(sorted(scores[top]), sorted(scores[ref])))

    def summary(build: float, ms: list[float]) -> dict[str, float]:
        return {
            "build_s": round(build, 3),
            "p50_ms": round(float(np.percentile(ms, 50)), 3),
            "p99_ms": round(float(np.percentile(ms, 99)), 3),
            "mean_ms": round(float(np.mean(ms)), 3),
        }

    result = {
        "benchmark": "kg_search",
        "corpus_names": len(corpus),
        "queries": len(queries),
        "ragmeter": summary(ours_build, ours_ms),
        "rank_bm25": summary(theirs_build, theirs_ms),
        "same_top10": agree,
    }
    print(f"ragmeter  {result['ragmeter']}")
    print(f"rank_bm25 {result['rank_bm25']}")
    print(f"same top-10: {agree}/{len(queries)}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
