"""Turn a batch's written answers into grading files, and graders' labels into final labels.

    python batch.py label TAG     # answers_{a,b}.jsonl -> tolabel_{a,b}.jsonl, tolabel_cut.jsonl
    python batch.py merge TAG     # graders' labels (+ adjudicated.jsonl) -> final.jsonl

`merge` prints the graders' agreement and Cohen's kappa, and lists the items still to
adjudicate in `to_adjudicate.jsonl` until `adjudicated.jsonl` decides every one of them.
Grader files: labels_{a,b}_grader{1,2}.jsonl (whole answers), labels_cut_grader{1,2}.jsonl
(answers longer than CRAG's 75-token cut, labeled on the cut text).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from common import BATCHES, REPO, TOKENIZER, questions_by_id, read_jsonl, write_jsonl

sys.path.insert(0, str(REPO / "src"))
from ragmeter.scoring.crag.truncate import Truncator
from ragmeter.scoring.meta.judge_check import cohen_kappa

LABELS = ("correct", "incorrect", "missing")
CUT_NOTE = "labeled on the first 75 tokens, all CRAG's scorer reads"
CUT_MARK = " …[cut]"


def label_files(tag: str) -> None:
    """Join answers with gold answers into the graders' files."""
    folder = BATCHES / tag
    questions = questions_by_id()
    truncator = Truncator(TOKENIZER)
    cut_items = []
    for half in ("a", "b"):
        blind = read_jsonl(folder / f"questions_blind_{half}.jsonl")
        answers = {row["id"]: row for row in read_jsonl(folder / f"answers_{half}.jsonl")}
        missing = [row["id"] for row in blind if row["id"] not in answers]
        if missing or len(answers) != len(blind):
            raise SystemExit(f"answers_{half}: {len(answers)} answers, missing {missing[:5]}")
        items = []
        for row in blind:
            gold = questions[row["interaction_id"]]
            prediction = str(answers[row["id"]]["prediction"])
            item = {
                "id": row["id"],
                "query": row["query"],
                "query_time": row["query_time"],
                "answer": str(gold["answer"]),
                "alt_ans": [str(alt) for alt in gold.get("alt_ans") or []],
                "prediction": prediction,
            }
            items.append(item)
            text, was_cut = truncator.cut(prediction)
            if was_cut:
                cut_items.append({**item, "prediction": text + CUT_MARK})
        write_jsonl(folder / f"tolabel_{half}.jsonl", items)
    write_jsonl(folder / "tolabel_cut.jsonl", cut_items)
    print(f"{tag}: tolabel_a/b written; {len(cut_items)} answers longer than the cut")


def agreement(pairs: list[tuple[str, str]]) -> str:
    """ "N/M agreed (P%), kappa K" for two graders' labels."""
    agreed = sum(a == b for a, b in pairs)
    kappa = cohen_kappa([a for a, _ in pairs], [b for _, b in pairs])
    shown = "n/a" if kappa is None else f"{kappa:.3f}"
    return f"{agreed}/{len(pairs)} agreed ({agreed / len(pairs):.1%}), kappa {shown}"


def _labels(path: Path) -> dict[str, dict[str, Any]]:
    rows = read_jsonl(path)
    out = {}
    for line, row in enumerate(rows, 1):
        if row.get("label") not in LABELS:
            raise SystemExit(f"{path}:{line}: label {row.get('label')!r} is not one of {LABELS}")
        out[row["id"]] = row
    return out


def _merge_pair(
    items: list[dict[str, Any]], first: Path, second: Path, decided: dict[str, dict[str, Any]]
) -> tuple[dict[str, tuple[str, str | None]], list[dict[str, Any]], list[tuple[str, str]]]:
    """Final label and note per id, items still to decide, and the two graders' labels."""
    one, two = _labels(first), _labels(second)
    ids = [item["id"] for item in items]
    lacking = [i for i in ids if i not in one or i not in two]
    if lacking:
        raise SystemExit(f"{first.name}/{second.name}: no label for {lacking[:5]}")
    pairs = [(one[i]["label"], two[i]["label"]) for i in ids]
    final: dict[str, tuple[str, str | None]] = {}
    pending = []
    unsure = identical = 0
    for item in items:
        a, b = one[item["id"]], two[item["id"]]
        if a["note"].strip().lower() == b["note"].strip().lower():
            identical += 1
        if a["label"] == b["label"]:
            note = None
            if a.get("unsure") or b.get("unsure"):
                unsure += 1
                why = a["note"] if a.get("unsure") else b["note"]
                note = f"graders agreed, one unsure: {why}"
            final[item["id"]] = (a["label"], note)
        elif item["id"] in decided:
            verdict = decided[item["id"]]
            note = f"graders split ({a['label']} / {b['label']}); adjudicated: {verdict['note']}"
            final[item["id"]] = (verdict["label"], note)
        else:
            pending.append({**item, "grader1": a, "grader2": b})
    print(
        f"  {first.name} / {second.name}: {agreement(pairs)}; one unsure on {unsure}; "
        f"identical notes {identical}"
    )
    return final, pending, pairs


def merge(tag: str) -> None:
    """Merge graders' labels into final.jsonl once every split is adjudicated."""
    folder = BATCHES / tag
    adjudicated = folder / "adjudicated.jsonl"
    decided = _labels(adjudicated) if adjudicated.exists() else {}
    items: list[dict[str, Any]] = []
    final: dict[str, tuple[str, str | None]] = {}
    pending: list[dict[str, Any]] = []
    pairs_all: list[tuple[str, str]] = []
    for half in ("a", "b"):
        half_items = read_jsonl(folder / f"tolabel_{half}.jsonl")
        got, todo, pairs = _merge_pair(
            half_items,
            folder / f"labels_{half}_grader1.jsonl",
            folder / f"labels_{half}_grader2.jsonl",
            decided,
        )
        items += half_items
        final.update(got)
        pending += todo
        pairs_all += pairs
    print(f"{tag} whole answers: {agreement(pairs_all)}")
    cut_items = read_jsonl(folder / "tolabel_cut.jsonl")
    cut_final: dict[str, tuple[str, str | None]] = {}
    if cut_items:
        cut_decided = {k[len("cut:") :]: v for k, v in decided.items() if k.startswith("cut:")}
        cut_final, cut_todo, _ = _merge_pair(
            cut_items,
            folder / "labels_cut_grader1.jsonl",
            folder / "labels_cut_grader2.jsonl",
            cut_decided,
        )
        pending += [{**item, "id": "cut:" + item["id"]} for item in cut_todo]
    if pending:
        write_jsonl(folder / "to_adjudicate.jsonl", pending)
        print(f"{len(pending)} to adjudicate -> {folder / 'to_adjudicate.jsonl'}")
        return
    rows = []
    for item in items:
        label, note = final[item["id"]]
        if item["id"] in cut_final:
            cut_label, cut_note = cut_final[item["id"]]
            parts = [CUT_NOTE]
            if cut_label != label:
                parts.append(f"on the whole answer: {label}")
            if cut_note:
                parts.append(cut_note)
            label, note = cut_label, "; ".join(parts)
        rows.append({**item, "expected": label, "note": note})
    write_jsonl(folder / "final.jsonl", rows)
    counts = Counter(row["expected"] for row in rows)
    print(f"{len(rows)} final labels -> {folder / 'final.jsonl'}: {dict(counts)}")


def main() -> None:
    """Command line: label or merge."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("step", choices=["label", "merge"])
    parser.add_argument("tag")
    args = parser.parse_args()
    label_files(args.tag) if args.step == "label" else merge(args.tag)


if __name__ == "__main__":
    main()
