"""Benchmark: scoring 1,371 CRAG validation predictions, cold and with a warm verdict cache.

Side by side in one run:

- **cold**: our scorer (rules, then the local judge) with an empty response
  cache: every prediction the rules leave open costs a judge call, as it does
  for the official evaluation (which calls its LLM judge afresh every time);
- **warm**: the same scoring again, every verdict served from the cache;
- **official-style rules**: the share the official script's own rules would
  settle without an LLM (lower-cased exact match and the "i don't know"
  substring), against the share our rules settle.

The predictions are synthetic and deterministic (seeded), a mix shaped like a
small RAG system's output: exact answers, answers inside sentences, refusals in
many phrasings, wrong answers, answers with a changed number, false-premise
replies and some questions left without a prediction.

Usage: python benchmarks/scoring_rescore.py [--judge local] [--judge-share 0.1] [--seed 7]
The last line of output is JSON with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))
# On a busy machine OpenMP's spinning threads slow llama.cpp down many times over;
# passive waiting keeps the judge's speed close to what it is on an idle machine.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from ragmeter.scoring.crag.inputs import read_dataset  # noqa: E402
from ragmeter.scoring.crag.records import Results  # noqa: E402
from ragmeter.scoring.crag.service import build_scorer, score_predictions  # noqa: E402
from ragmeter.scoring.crag.truncate import load_truncator  # noqa: E402
from ragmeter.types import Question  # noqa: E402
from scoring_build_cases import (  # noqa: E402 - sibling script
    FALSE_PREMISE,
    REFUSALS,
    SENTENCES,
    change_number,
    is_valid,
    mirror_file,
    unrelated,
)


def make_predictions(
    rows: list[dict[str, Any]], judge_share: float, seed: int
) -> dict[str, str | None]:
    """A deterministic prediction per question (None = no prediction)."""
    rng = random.Random(seed)
    answers = [r["answer"] for r in rows if is_valid(r)]
    preds: dict[str, str | None] = {}
    for r in rows:
        qid, gold = r["interaction_id"], r["answer"]
        x = rng.random()
        if x < judge_share:
            kind = rng.choice(["sentence", "wrong", "number"])
            if kind == "sentence":
                preds[qid] = rng.choice(SENTENCES).format(g=gold)
            elif kind == "number" and (changed := change_number(gold, rng)) is not None:
                preds[qid] = changed
            else:
                other = rng.choice(answers)
                preds[qid] = other if unrelated(other, gold) else f"Perhaps {other}."
            continue
        rest = (x - judge_share) / (1 - judge_share)
        if rest < 0.35:
            preds[qid] = rng.choice([gold, gold.upper(), gold + "."])
        elif rest < 0.70:
            preds[qid] = rng.choice(REFUSALS)
        elif rest < 0.80:
            preds[qid] = rng.choice(FALSE_PREMISE)
        elif rest < 0.90:
            preds[qid] = None
        else:
            preds[qid] = ""
    return preds


def official_style_settles(prediction: str | None, gold: str, alts: list[str]) -> bool:
    """Whether the official script's own rules decide without its LLM judge."""
    if prediction is None:
        return True
    p = prediction.strip().lower()
    if "i don't know" in p:
        return True
    return p in {a.strip().lower() for a in [gold, *alts]}


async def run_pass(
    questions: list[Question], preds: dict[str, str | None], judge: str, cache_path: Path
) -> tuple[float, Results, int]:
    """Score once; returns (seconds, results, LLM calls made, retries included)."""
    scorer, panel = build_scorer(judge, cache=cache_path)
    t0 = time.perf_counter()
    try:
        results, samples = await score_predictions(
            questions, preds, scorer, judge_spec=judge, judge_identities=panel.identities
        )
    finally:
        await panel.aclose()
    seconds = time.perf_counter() - t0
    calls = sum(c.calls for s in samples for v in s.votes for c in v.checks if not c.cached)
    return seconds, results, calls


def main() -> None:
    """Run both passes and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--judge", default="local")
    ap.add_argument("--judge-share", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    path = mirror_file()
    os.environ.setdefault("RAGMETER_DATA_MIRROR", str(path.parents[1]))
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    questions = read_dataset(path)
    preds = make_predictions(rows, args.judge_share, args.seed)
    load_truncator()  # load the tokenizer outside the timed passes

    with tempfile.TemporaryDirectory() as tmp:
        cache_path = Path(tmp) / "verdicts.sqlite3"
        cold_s, cold, calls = asyncio.run(run_pass(questions, preds, args.judge, cache_path))
        print(f"cold: {cold_s:.1f} s, {calls} judge calls", file=sys.stderr)
        warm_s, warm, warm_calls = asyncio.run(run_pass(questions, preds, args.judge, cache_path))
        print(f"warm: {warm_s:.2f} s, {warm.scoring.judge_cache_hits} cache hits", file=sys.stderr)

    official = sum(
        official_style_settles(
            preds.get(r["interaction_id"]), r["answer"], [str(a) for a in r["alt_ans"] or []]
        )
        for r in rows
    )
    same = cold.model_dump(include={"counts"}) == warm.model_dump(include={"counts"})
    judged = len(rows) - sum(cold.scoring.rules.values())
    figures = {
        "n_predictions": len(rows),
        "judge": args.judge,
        "rules_share": round(cold.scoring.rules_share or 0.0, 4),
        "official_rules_share": round(official / len(rows), 4),
        "cold_seconds": round(cold_s, 2),
        "judge_calls": calls,
        "judged_questions": judged,
        "judge_calls_per_question": round(calls / len(rows), 4),
        "judge_calls_per_judged_question": round(calls / judged, 2) if judged else None,
        "seconds_per_verdict": round(cold_s / judged, 2) if judged else None,
        "judge_calls_per_minute": round(60.0 * calls / cold_s, 1) if calls else None,
        "warm_seconds": round(warm_s, 3),
        "warm_cache_hits": warm.scoring.judge_cache_hits,
        "warm_judge_calls": warm_calls,
        "warm_speedup": round(cold_s / warm_s, 1) if warm_s else None,
        # The official script calls its judge for everything its own rules leave open,
        # on every run: that many calls at our measured rate.
        "official_style_judge_calls": len(rows) - official,
        "official_style_minutes_estimate": (
            round((len(rows) - official) / (60.0 * calls / cold_s), 1) if calls else None
        ),
        "same_labels_warm_and_cold": same,
        "score": warm.score.value,
        "unscored": warm.unscored.count,
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
