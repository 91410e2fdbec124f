"""Our judges against qa-feedback's humans, beside the baselines, with the time each takes.

For each qa-feedback feedback file (by default the first 100 rows of dev_feedback and
train_feedback in the data mirror), in one run:

- pairwise preference agreement of ``--metric`` (default: ``default``) and of the two
  baselines a user would pick first, ROUGE-L against the gold answer and answer length;
- sentence-level detection of the content humans marked unsupported in prediction 1
  by ``--detector`` (default: ``default``) and by the lexical baseline.

NLI calls go through the persistent response cache (``--cache-path``), so a repeat run
re-reads the verdicts; the timings of a run say how many model calls it made.

    .venv/bin/python benchmarks/trust_feedback.py [--files dev_feedback,train_feedback]
        [--limit N] [--metric default] [--detector default] [--cache-path PATH]

The last line printed is JSON with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from ragmeter.data.qa_feedback import read_qa_feedback
from ragmeter.scoring.attribution.nli import NLI, load_nli
from ragmeter.scoring.meta.feedback import (
    PREFERENCE_METRICS,
    SPAN_DETECTORS,
    check_preferences,
    check_spans,
)


def find_file(name: str) -> Path:
    """A qa-feedback file of the data mirror (RAGMETER_DATA_MIRROR or ../shared/data)."""
    rel = f"qa_feedback/{name}_first100.json"
    dirs = [Path(d) for d in os.environ.get("RAGMETER_DATA_MIRROR", "").split(os.pathsep) if d]
    dirs.append(Path(__file__).resolve().parents[1].parent / "shared" / "data")
    for d in dirs:
        if (d / rel).is_file():
            return d / rel
    raise SystemExit(f"{rel} not found in {dirs}")


async def one_file(
    name: str, nli: NLI, metric: str, detector: str, limit: int | None
) -> dict[str, Any]:
    """Every figure for one file."""
    questions = list(read_qa_feedback(find_file(name)))[:limit]
    out: dict[str, Any] = {"file": name, "n_questions": len(questions)}
    t = time.perf_counter()
    calls = nli.stats.model_calls
    pref = await check_preferences(questions, metric, nli, baselines=("rougeL", "length"))
    out["preferences"] = {
        "metric": pref.metric,
        "n_pairs": pref.n_pairs,
        "agreement": pref.agreement,
        "ci": [pref.interval.ci_low, pref.interval.ci_high],
        "baselines": pref.baselines,
        "seconds": time.perf_counter() - t,
        "nli_calls": nli.stats.model_calls - calls,
    }
    # The baselines alone, timed on their own: what a user pays without a model.
    t = time.perf_counter()
    await check_preferences(questions, "rougeL", None, baselines=("length",))
    out["preferences"]["baseline_seconds"] = time.perf_counter() - t
    t = time.perf_counter()
    calls, cached = nli.stats.model_calls, nli.stats.cached_calls
    spans = await check_spans(questions, detector, nli)
    out["spans"] = {
        "detector": spans.scores.detector,
        "n_sentences": spans.n_sentences,
        "n_unsupported": spans.n_unsupported,
        "precision": spans.scores.precision,
        "recall": spans.scores.recall,
        "f1": spans.scores.f1,
        "baseline": spans.baseline.model_dump(),
        "seconds": time.perf_counter() - t,
        "nli_calls": nli.stats.model_calls - calls,
        "nli_calls_from_cache": nli.stats.cached_calls - cached,
    }
    return out


async def main() -> None:
    """Run the checks on every file and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", default="dev_feedback,train_feedback")
    ap.add_argument("--metric", default="default", choices=PREFERENCE_METRICS.names())
    ap.add_argument("--detector", default="default", choices=SPAN_DETECTORS.names())
    ap.add_argument("--nli", default="local")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--cache-path", default=None, help="response cache (default: user cache)")
    args = ap.parse_args()
    nli = load_nli(args.nli, cache=args.cache_path or True, concurrency=1)
    results = []
    try:
        for name in args.files.split(","):
            r = await one_file(name, nli, args.metric, args.detector, args.limit)
            p, s = r["preferences"], r["spans"]
            print(
                f"{name}: preferences {p['metric']} {p['agreement']:.3f} "
                f"(rougeL {p['baselines']['rougeL']:.3f}, length {p['baselines']['length']:.3f}) "
                f"on {p['n_pairs']} pairs in {p['seconds']:.0f}s; spans {s['detector']} "
                f"F1 {s['f1']:.3f} (lexical {s['baseline']['f1']:.3f}) on {s['n_sentences']} "
                f"sentences in {s['seconds']:.0f}s",
                file=sys.stderr,
            )
            results.append(r)
    finally:
        await nli.aclose()
    print(json.dumps({"nli": args.nli, "results": results, "nli_stats": vars(nli.stats)}))


if __name__ == "__main__":
    asyncio.run(main())
