"""Benchmark of `ragmeter run`: the demo end to end, seconds per stage, and Ray 2 workers vs 1.

Three measurements on the demo data (CRAG task 1, the 10 sample questions with pages):

1. ``engine``: `ragmeter run demo` as shipped (local executor, async, the default local model
   answering and judging), response cache off so every call is real; questions per minute
   and mean seconds per stage (extraction, retrieval, generation, judging) from the journal.
2. ``plain_loop``: what a user would write without the engine, the official starter kit's
   shape: for each question, answer, then judge, one after the other (same pipeline, same
   scorer objects, no journal, no concurrency).
3. ``ray``: the CPU-bound stages only (judge off), on a local Ray with 2 CPUs, the same
   cores split two ways: one worker holding both (its model on two threads) against two
   workers with one core each (each its own model, on one thread). Both timings include
   starting the workers and loading their models.

Prints a table, then a last line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ragmeter.engine.journal import RunRecord, read_journal
from ragmeter.engine.resources import default_llm_loader
from ragmeter.engine.runner import build_components, prepare, run
from ragmeter.engine.specs import load_spec
from ragmeter.llm.paths import models_dir

STAGES = ("extraction", "retrieval", "generation", "judging")
# Every call is real (no response cache) and no answer is cut by the time budget: this
# measures throughput, and a busy machine must not turn slow answers into missing ones.
NO_BUDGET = ["cache=false", "budget.time_per_question_s=null"]


def stage_seconds(records: list[RunRecord]) -> dict[str, float]:
    """Mean seconds per question of each stage."""
    out = {}
    for stage in STAGES:
        values = [r.stages[stage].seconds for r in records if stage in r.stages]
        out[stage] = round(statistics.fmean(values), 3) if values else 0.0
    return out


def engine_run(work: Path, sets: list[str], name: str) -> dict[str, Any]:
    """One `ragmeter run demo` (in process) with overrides; timing and per-stage means."""
    loaded = load_spec("demo", [*NO_BUDGET, "report=false", *sets])
    out = work / name
    start = time.perf_counter()
    plan = prepare(loaded, out)
    results = run(plan)
    seconds = time.perf_counter() - start
    records = read_journal(out)
    return {
        "questions": len(records),
        "seconds": round(seconds, 1),
        "questions_per_minute": round(60 * len(records) / seconds, 2),
        "stages": stage_seconds(records),
        "accuracy": getattr(getattr(results, "accuracy", None), "value", None),
        "errors": sum(1 for r in records if r.error),
    }


def plain_loop(work: Path, sets: list[str]) -> dict[str, Any]:
    """The same pipeline and scorer called one question after another, without the engine."""
    loaded = load_spec("demo", [*NO_BUDGET, *sets])
    plan = prepare(loaded, work / "plain-loop-plan")
    questions = [q for _, q in plan.selection]

    async def go() -> int:
        resources, pipeline, scorer = build_components(
            loaded, default_llm_loader(False, loaded.spec.llm_options)
        )
        try:
            for q in questions:
                answer = await pipeline.answer(q)
                await scorer.score(q, answer.text, answer)
        finally:
            await pipeline.aclose()
            await resources.aclose()
        return len(questions)

    start = time.perf_counter()
    n = asyncio.run(go())
    seconds = time.perf_counter() - start
    return {
        "questions": n,
        "seconds": round(seconds, 1),
        "questions_per_minute": round(60 * n / seconds, 2),
    }


def main() -> None:
    """Run the three measurements and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=10, help="questions of the demo to run")
    parser.add_argument("--ray-limit", type=int, default=6, help="questions of the Ray runs")
    parser.add_argument("--skip-ray", action="store_true")
    parser.add_argument(
        "--threads", type=int, default=None, help="model threads per process (default: all cores)"
    )
    args = parser.parse_args()
    if not os.environ.get("RAGMETER_DATA_MIRROR"):
        sys.exit("set RAGMETER_DATA_MIRROR to the folder holding crag/ (the Makefile does)")
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="ragmeter-bench-run-") as tmp:
        work = Path(tmp)
        # The model weights stay where `make demo` installed them (used in place): only
        # the caches of extracted text start cold, like a first demo.
        installed = models_dir()
        os.environ["RAGMETER_MODELS"] = os.pathsep.join(
            p for p in (os.environ.get("RAGMETER_MODELS", ""), str(installed)) if p
        )
        os.environ["RAGMETER_CACHE_DIR"] = str(work / "cache")
        threads = [f"llm_options={{n_threads: {args.threads}}}"] if args.threads else []
        limit = [f"data.limit={args.limit}", *threads]
        figures["engine"] = engine_run(work, limit, "engine")
        figures["plain_loop"] = plain_loop(work, limit)
        if not args.skip_ray:
            cpu = [f"data.limit={args.ray_limit}", "scoring.judge=null", "executor.kind=ray"]
            cpu += ["executor.num_cpus=2", "executor.batch_size=1"]
            figures["ray_1_worker"] = engine_run(
                work,
                [
                    *cpu,
                    "executor.workers=1",
                    "executor.cpus_per_worker=2",
                    "llm_options={n_threads: 2}",
                ],
                "ray1",
            )
            figures["ray_2_workers"] = engine_run(
                work,
                [
                    *cpu,
                    "executor.workers=2",
                    "executor.cpus_per_worker=1",
                    "llm_options={n_threads: 1}",
                ],
                "ray2",
            )
            figures["ray_speedup"] = round(
                figures["ray_1_worker"]["seconds"] / figures["ray_2_workers"]["seconds"], 2
            )
    e, p = figures["engine"], figures["plain_loop"]
    for label, f in (("engine", e), ("plain loop", p)):
        rate = f["questions_per_minute"]
        print(f"demo, {label}: {f['questions']} q in {f['seconds']} s = {rate} q/min")
    print(
        "seconds per question by stage (engine): "
        + ", ".join(f"{k} {v}" for k, v in e["stages"].items())
    )
    if "ray_speedup" in figures:
        r1, r2 = figures["ray_1_worker"], figures["ray_2_workers"]
        print(f"ray, 1 worker: {r1['seconds']} s; 2 workers: {r2['seconds']} s")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
