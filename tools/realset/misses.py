"""List the answers where a judge-check run disagrees with the labels.

    ragmeter judge-check --suite real --split test --samples S.jsonl
    python misses.py test S.jsonl [--system sysP] [--full]

Samples are in the order of the suite's cases of that split, so they are matched by position.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from common import DATASET, read_jsonl


def pairs(split: str, samples: Path) -> list[tuple[dict, dict]]:
    """(case, sample) for every case of the split, in order."""
    cases = [row for row in read_jsonl(DATASET) if split in ("all", row["split"])]
    scored = read_jsonl(samples)
    if len(cases) != len(scored):
        raise SystemExit(f"{len(cases)} {split} cases but {len(scored)} samples in {samples}")
    return list(zip(cases, scored, strict=True))


def main() -> None:
    """Print each miss: expected -> got, the rule, the question, gold and prediction."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("split")
    parser.add_argument("samples", type=Path)
    parser.add_argument("--system")
    parser.add_argument("--full", action="store_true", help="print whole predictions")
    args = parser.parse_args()
    misses = [
        (case, sample)
        for case, sample in pairs(args.split, args.samples)
        if case["expected"] != sample["label"]
        and (args.system is None or case["system"] == args.system)
    ]
    for case, sample in misses:
        prediction = sample["truncated_prediction"] or ""
        if not args.full:
            prediction = prediction[:300]
        print(f"== {case['expected']} -> {sample['label']} [{sample['rule']}] {case['system']}")
        print(f"Q: {case['query']}\nG: {case['answer']} {case['alt_ans'] or ''}")
        print(f"P: {prediction}")
        if case["note"]:
            print(f"N: {case['note']}")
        print()
    kinds = Counter((case["expected"], sample["label"]) for case, sample in misses)
    print(len(misses), "misses:", sorted(kinds.items()))


if __name__ == "__main__":
    main()
