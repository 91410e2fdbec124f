"""Draw the questions of a new batch of real answers, without their gold answers.

A batch takes `--size` questions among those the current `test` split does not hold, the
ones with the fewest answers in the set first, ties broken by a seeded shuffle. Writers see
only `questions_blind.jsonl` (and its halves): question, query time and domain.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from common import BATCHES, DATASET, questions_by_id, read_jsonl, write_jsonl


def main() -> None:
    """Write batches/TAG/questions_blind{,_a,_b}.jsonl."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("tag")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--size", type=int, default=420)
    args = parser.parse_args()

    rows = read_jsonl(DATASET)
    answers = Counter(row["interaction_id"] for row in rows)
    held = {row["interaction_id"] for row in rows if row["split"] == "test"}
    pool = sorted(qid for qid in answers if qid not in held)
    rng = random.Random(args.seed)
    rng.shuffle(pool)
    pool.sort(key=lambda qid: answers[qid])  # stable: the shuffle breaks ties
    chosen = pool[: args.size]
    rng.shuffle(chosen)

    questions = questions_by_id()
    blind = [
        {
            "id": f"{args.tag}-{index:03d}",
            "interaction_id": qid,
            "query": questions[qid]["query"],
            "query_time": questions[qid]["query_time"],
            "domain": questions[qid]["domain"],
        }
        for index, qid in enumerate(chosen)
    ]
    out = BATCHES / args.tag
    half = len(blind) // 2
    write_jsonl(out / "questions_blind.jsonl", blind)
    write_jsonl(out / "questions_blind_a.jsonl", blind[:half])
    write_jsonl(out / "questions_blind_b.jsonl", blind[half:])
    print(f"{len(blind)} questions among {len(pool)} outside the test split -> {out}")
    print("answers per chosen question:", sorted(Counter(answers[q] for q in chosen).items()))


if __name__ == "__main__":
    main()
