"""Which answers changed between two judge-check runs of the same split, and were they right?

python diff.py dev BEFORE.jsonl AFTER.jsonl
"""

from __future__ import annotations

import argparse
from pathlib import Path

from common import read_jsonl
from misses import pairs


def main() -> None:
    """Print every changed label with the expected one, then the net count."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("split")
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    after = read_jsonl(args.after)
    gained = lost = 0
    for (case, old), new in zip(pairs(args.split, args.before), after, strict=True):
        if old["label"] == new["label"]:
            continue
        right_now, right_before = new["label"] == case["expected"], old["label"] == case["expected"]
        mark = "+" if right_now else "-" if right_before else "~"
        gained += mark == "+"
        lost += mark == "-"
        print(
            f"{mark} {case['expected']}: {old['label']} -> {new['label']} [{new['rule']}] "
            f"{case['system']} | {case['query'][:60]} | G: {case['answer'][:40]}"
        )
        print(f"    P: {(new['truncated_prediction'] or '')[:240]}")
    print(f"net {gained - lost:+d} ({gained} gained, {lost} lost)")


if __name__ == "__main__":
    main()
