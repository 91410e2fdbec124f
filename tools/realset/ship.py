"""Ship a labeled batch as the new `test` split; the old `test` answers join `dev`.

    python ship.py TAG SYSTEM

Reads batches/TAG/final.jsonl (from `batch.py merge`) and rewrites the real-answer set.
Refuses to ship a batch twice.
"""

from __future__ import annotations

import argparse

from common import BATCHES, DATASET, questions_by_id, read_jsonl, write_jsonl

FIELDS = (
    "query", "answer", "alt_ans", "prediction", "expected", "kind", "interaction_id",
    "domain", "question_type", "system", "split", "note",
)  # fmt: skip


def main() -> None:
    """Rewrite the real-answer set with the batch as `test`."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("tag")
    parser.add_argument("system")
    args = parser.parse_args()

    rows = read_jsonl(DATASET)
    if any(row["system"] == args.system for row in rows):
        raise SystemExit(f"{args.system} is already in {DATASET}")
    folder = BATCHES / args.tag
    blind = {row["id"]: row for row in read_jsonl(folder / "questions_blind.jsonl")}
    questions = questions_by_id()
    for row in rows:
        row["split"] = "dev"
    for item in read_jsonl(folder / "final.jsonl"):
        qid = blind[item["id"]]["interaction_id"]
        question = questions[qid]
        new = {
            "query": item["query"],
            "answer": item["answer"],
            "alt_ans": item["alt_ans"],
            "prediction": item["prediction"],
            "expected": item["expected"],
            "kind": args.system,
            "interaction_id": qid,
            "domain": question["domain"],
            "question_type": question["question_type"],
            "system": args.system,
            "split": "test",
            "note": item["note"],
        }
        rows.append({key: new[key] for key in FIELDS})
    write_jsonl(DATASET, rows)
    print(f"{DATASET.name}: {len(rows)} answers, test = {args.system}")


if __name__ == "__main__":
    main()
