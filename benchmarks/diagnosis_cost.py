"""Benchmark: what diagnosing a run costs per question, beside what the run itself cost.

On the demo data (CRAG task 1, the 10 sample questions with their pages):

1. a run folder of the demo spec without diagnosis (or ``--run DIR``, any finished
   CRAG run whose answers carry evidence);
2. ``cold``: ``ragmeter diagnose`` on a copy with empty caches (page text extracted
   again, every support check a real model call);
3. ``warm``: the same again, pages and support checks served from the caches.

Reported per question: seconds and model calls of diagnosis, and, as the reference a
user weighs it against, the seconds per question the run spent answering and judging
(from its journal): the ratio says how much diagnosis adds to a run.

Usage: python benchmarks/diagnosis_cost.py [--run DIR] [--work DIR]
The last line of output is JSON with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from ragmeter.engine.diagnose import diagnose_folder
from ragmeter.engine.journal import read_journal
from ragmeter.engine.runner import prepare, run
from ragmeter.engine.specs import load_spec
from ragmeter.llm.paths import models_dir


def demo_run(out: Path) -> Path:
    """The demo spec without diagnosis (its answers and labels are what gets diagnosed)."""
    plan = prepare(load_spec("demo", ["diagnose=false", "report=false"]), out)
    run(plan)
    return out


def timed_diagnosis(folder: Path, cache: Path) -> dict[str, Any]:
    """Diagnose ``folder`` with ``cache`` as the user cache; seconds and support checks (one
    model request each, unless the response cache holds it)."""
    previous = os.environ.get("RAGMETER_CACHE_DIR")
    os.environ["RAGMETER_CACHE_DIR"] = str(cache)
    try:
        start = time.perf_counter()
        path = diagnose_folder(folder)
        seconds = time.perf_counter() - start
    finally:
        if previous is None:
            os.environ.pop("RAGMETER_CACHE_DIR", None)
        else:
            os.environ["RAGMETER_CACHE_DIR"] = previous
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    diagnoses = [json.loads(line) for line in lines]
    calls = sum(1 for d in diagnoses if d["support_probability"] is not None)
    n = len(diagnoses)
    return {
        "questions": n,
        "seconds": round(seconds, 2),
        "seconds_per_question": round(seconds / max(n, 1), 2),
        "support_checks": calls,
        "support_checks_per_question": round(calls / max(n, 1), 2),
        "categories": {
            c: sum(1 for d in diagnoses if d["category"] == c) for c in _seen(diagnoses)
        },
    }


def _seen(diagnoses: list[dict[str, Any]]) -> list[str]:
    return sorted({d["category"] for d in diagnoses})


def main() -> None:
    """Run (or take) a run folder, diagnose it cold and warm, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, default=None, help="a finished CRAG run folder")
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="ragmeter-diagnosis-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    source = args.run or demo_run(work / "demo")
    folder = work / "diagnosed"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(source, folder)
    (folder / "diagnosis.jsonl").unlink(missing_ok=True)
    records = read_journal(folder)
    answering = statistics.fmean(r.seconds for r in records)

    cache = work / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    cache.mkdir()
    (cache / "models").symlink_to(models_dir(), target_is_directory=True)
    cold = timed_diagnosis(folder, cache)
    warm = timed_diagnosis(folder, cache)
    figures = {
        "run_seconds_per_question": round(answering, 2),
        "cold": cold,
        "warm": warm,
        "cold_over_run": round(cold["seconds_per_question"] / answering, 3) if answering else None,
    }
    print(f"run: {answering:.1f} s per question (answering and judging)")
    for name in ("cold", "warm"):
        f = figures[name]
        print(
            f"diagnosis {name}: {f['seconds_per_question']} s and "
            f"{f['support_checks_per_question']} support checks per question "
            f"({f['questions']} questions; warm ones come from the response cache)"
        )
    print(f"cold diagnosis / run time per question: {figures['cold_over_run']}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
