"""Benchmark: what abstaining would have earned, on CRAG questions the project has never seen.

1. **Select** two disjoint sets of CRAG v3 validation questions, none of them among the
   questions of the shipped real-answer set (the questions the judge was built on) or
   the 10-question sample: a calibration set and a held-out set, each the first N of
   the remaining questions ordered by a seeded hash of their id.
2. **Run** the built-in ``crag-llm-only`` spec (local model, closed book, judge
   ``local``) on each set without abstaining and with both confidence signals recorded;
   the run folders are resumed when they exist.
3. **Measure**:
   - how well each confidence signal ranks right answers above wrong ones (AUROC);
   - the threshold calibrated on the calibration set (``ragmeter calibrate``'s
     cross-validated choice), its cross-validated score there;
   - on the held-out set, never used to choose anything: the raw score, the score when
     answers below the threshold become "I don't know", and the paired bootstrap interval
     of the difference.

Usage: python benchmarks/abstention_llm_only.py [--n 150] [--work runs/bench-abstention]
       [--signal self_check] [--analyse-only]
The last line of output is JSON with the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
MIRROR = Path(os.environ.get("RAGMETER_DATA_MIRROR", REPO.parent / "shared" / "data"))
VALIDATION = MIRROR / "crag" / "crag_questions_v3_validation.jsonl"
REAL_SET = REPO / "src/ragmeter/scoring/meta/data/crag_real_answers.jsonl"
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def select(n: int, seed: int) -> dict[str, list[dict[str, Any]]]:
    """Calibration and held-out rows: validation minus the questions the project has used."""
    used = {json.loads(line)["interaction_id"] for line in REAL_SET.open(encoding="utf-8")}
    rows = [json.loads(line) for line in VALIDATION.open(encoding="utf-8")]
    fresh = [r for r in rows if r["interaction_id"] not in used]

    def order(row: dict[str, Any]) -> str:
        return hashlib.sha256(f"{seed}:{row['interaction_id']}".encode()).hexdigest()

    ranked = sorted(fresh, key=order)
    if len(ranked) < 2 * n:
        sys.exit(f"only {len(ranked)} unused validation questions; ask for fewer (--n)")
    position = {r["interaction_id"]: i for i, r in enumerate(rows)}
    parts = {"calibration": ranked[:n], "held_out": ranked[n : 2 * n]}
    return {k: sorted(v, key=lambda r: position[r["interaction_id"]]) for k, v in parts.items()}


def run_part(name: str, rows: list[dict[str, Any]], work: Path) -> Path:
    """Run crag-llm-only (no abstention) on ``rows``; resume a folder that exists."""
    data = work / f"{name}.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = work / f"run-{name}"
    cmd = [
        str(Path(sys.executable).parent / "ragmeter"),
        "run",
        "crag-llm-only",
        "--out",
        str(out),
        "--set",
        f"data.path={data}",
        "--set",
        "pipeline.options.abstain_below=null",
        "--set",
        "pipeline.options.confidence=self_check",
        "--set",
        "pipeline.options.record_all_signals=true",
    ]
    if (out / "header.json").exists():
        cmd.append("--resume")
    start = time.perf_counter()
    subprocess.run(cmd, check=True)
    print(f"{name}: {len(rows)} questions, {time.perf_counter() - start:.0f} s", flush=True)
    return out


def analyse(calibration: Path, held_out: Path, signal: str, seed: int) -> dict[str, Any]:
    """AUROC per signal, the calibrated threshold, and its effect on the held-out run."""
    from ragmeter.diagnosis.abstention import (
        abstention_points,
        auroc,
        calibrate,
        paired_abstention_gain,
    )
    from ragmeter.engine.journal import read_journal

    out: dict[str, Any] = {"signal": signal, "auroc": {}}
    cal = read_journal(calibration)
    test = read_journal(held_out)
    for part, records in (("calibration", cal), ("held_out", test), ("both", cal + test)):
        out["auroc"][part] = {
            s: auroc(abstention_points(records, s)) for s in ("self_check", "answer_probability")
        }
    choice = calibrate(abstention_points(cal, signal), seed=seed)
    out["calibration"] = choice.model_dump(mode="json")
    gain = paired_abstention_gain(abstention_points(test, signal), choice.threshold, seed=seed)
    out["held_out"] = gain.model_dump(mode="json")
    return out


def main() -> None:
    """Select, run, measure; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=150, help="questions per set")
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--work", type=Path, default=REPO / "runs" / "bench-abstention")
    parser.add_argument("--signal", default="answer_probability")
    parser.add_argument("--analyse-only", action="store_true")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    parts = select(args.n, args.seed)
    folders = {}
    for name, rows in parts.items():
        folder = args.work / f"run-{name}"
        folders[name] = folder if args.analyse_only else run_part(name, rows, args.work)
    figures = analyse(folders["calibration"], folders["held_out"], args.signal, args.seed)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
