"""Benchmark: the default judge against careful graders, on every shipped case set.

For each suite (``real`` test and dev splits, ``adversarial``, ``constructed``) it
runs the whole CRAG scorer, as ``ragmeter judge-check --suite`` does, and prints
accuracy, Cohen's kappa, accuracy per kind (per system for the real set), the
share settled without a model, model calls per question and seconds per judged
question. The real set's ``test`` split holds questions the scorer was never tuned
on: that is the figure that counts.

``--record`` writes the ``real``/``test`` figure, keyed by the judge's identity
(model weights and prompt fingerprint), to the scorer's data file, so results of
runs scored by this very judge can state its measured agreement.

Usage: python benchmarks/scoring_judge_agreement.py [--judge local] [--suites real-test,...]
       [--no-cache] [--record]
The last line of output is JSON with the figures.
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

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from ragmeter.scoring.crag.panel import MEASURED_FILE
from ragmeter.scoring.crag.records import MeasuredAgreement, ScoredSample
from ragmeter.scoring.crag.service import build_scorer
from ragmeter.scoring.meta.judge_check import read_cases, run_judge_check, suite_path
from ragmeter.scoring.phrases import data_file

SUITES = ("real-test", "real-dev", "adversarial", "constructed")


async def measure(name: str, judge: str, cache: bool) -> tuple[dict[str, Any], list[str]]:
    """Run one suite; returns its figures and the judge identities."""
    suite, _, split = name.partition("-")
    cases = read_cases(suite_path(suite))
    if split:
        cases = [c for c in cases if c.split == split]
    scorer, panel = build_scorer(judge, cache=cache)
    identities = panel.identities  # read while the models are open
    t0 = time.perf_counter()
    try:
        result, samples = await run_judge_check(cases, scorer, judge)
    finally:
        await panel.aclose()
    seconds = time.perf_counter() - t0
    judged = [s for s in samples if s.votes]
    calls = sum(c.calls for s in samples for v in s.votes for c in v.checks)
    by_system: dict[str, list[bool]] = {}
    for case, sample in zip(cases, samples, strict=True):
        by_system.setdefault(case.system or "-", []).append(case.expected == sample.label)
    figures: dict[str, Any] = {
        "n": result.n,
        "accuracy": round(result.accuracy, 4),
        "kappa": None if result.kappa is None else round(result.kappa, 4),
        "unscored": result.unscored,
        "confusion": result.confusion,
        "by_kind": {k: round(v, 4) for k, v in result.by_kind.items()},
        "settled_without_model": round(1 - len(judged) / len(samples), 4),
        "model_calls_per_question": round(calls / len(samples), 3),
        "seconds": round(seconds, 1),
        "seconds_per_judged_question": round(seconds / len(judged), 2) if judged else None,
    }
    if suite == "real":
        figures["by_system"] = {k: round(sum(v) / len(v), 4) for k, v in sorted(by_system.items())}
        figures["misses"] = [_miss(c_s) for c_s in zip(cases, samples, strict=True) if _wrong(c_s)]
    return figures, identities


def _wrong(pair: tuple[Any, ScoredSample]) -> bool:
    case, sample = pair
    return bool(case.expected != sample.label)


def _miss(pair: tuple[Any, ScoredSample]) -> dict[str, Any]:
    case, sample = pair
    return {
        "system": case.system,
        "expected": case.expected,
        "got": sample.label,
        "rule": sample.rule,
        "query": case.query,
        "gold": case.answer,
        "prediction": case.prediction[:200],
    }


def main() -> None:
    """Measure the suites and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--judge", default="local")
    ap.add_argument("--suites", default=",".join(SUITES))
    ap.add_argument("--no-cache", action="store_true", help="Ask the model afresh.")
    ap.add_argument("--record", action="store_true", help="Write the real/test figure.")
    ap.add_argument("--show-misses", action="store_true", help="List the real set's misses.")
    args = ap.parse_args()
    out: dict[str, Any] = {"judge": args.judge}
    identities: list[str] = []
    for name in args.suites.split(","):
        figures, identities = asyncio.run(measure(name, args.judge, not args.no_cache))
        misses = figures.pop("misses", [])
        if args.show_misses:
            for m in misses:
                print(json.dumps(m), file=sys.stderr)
        print(f"{name}: {json.dumps(figures)}", file=sys.stderr)
        out[name] = figures
    if args.record and "real-test" in out and len(identities) == 1:
        path = Path(data_file(MEASURED_FILE, "ragmeter.scoring.crag"))
        known = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        t = out["real-test"]
        known[identities[0]] = MeasuredAgreement(
            suite="real",
            split="test",
            n=t["n"],
            accuracy=t["accuracy"],
            kappa=t["kappa"],
            command="python benchmarks/scoring_judge_agreement.py --suites real-test --record",
        ).model_dump()
        path.write_text(json.dumps(known, indent=2) + "\n", encoding="utf-8")
        print(f"recorded {identities[0]} in {path}", file=sys.stderr)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
