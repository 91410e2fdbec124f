"""Build the labeled judge-check cases from the CRAG v3 validation questions.

Deterministic (fixed seed). Writes ``src/ragmeter/scoring/meta/data/crag_constructed_cases.jsonl``
(or ``--out``), one case per line with ``query``, ``answer``, ``alt_ans``,
``prediction``, ``expected``, ``kind``, ``interaction_id``, ``domain`` and
``question_type``. The kinds are the ones our quality bar names, plus two for
the false-premise rule:

- ``exact_gold``: the gold answer, recased and punctuated (correct);
- ``gold_in_sentence``: the gold inside a sentence (correct);
- ``alternative_answer``: one of the alternative answers (correct);
- ``number_words``: the gold with a small number written in words (correct);
- ``refusal``: "I don't know" in one of its phrasings (missing);
- ``wrong_same_type``: the answer of another question of the same type (incorrect);
- ``number_changed``: the gold with one of its numbers changed (incorrect);
- ``false_premise_flagged``: says the question is invalid, gold "invalid question" (correct);
- ``answer_to_false_premise``: an ordinary answer to an invalid question (incorrect).

Usage: python benchmarks/scoring_build_cases.py [--data FILE] [--out FILE] [--per-kind N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
from pathlib import Path
from typing import Any

from ragmeter.scoring.normalize import normalize_answer

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = (
    REPO / "src" / "ragmeter" / "scoring" / "meta" / "data" / "crag_constructed_cases.jsonl"
)
SEED = 20240607
MAX_WORDS = 35

SENTENCES = [
    "The answer is {g}.",
    "Based on the available information, it is {g}.",
    "According to the sources I found, the answer would be {g}.",
    "That would be {g}.",
    "It is {g}, as far as the records show.",
    "From what I can tell, {g}.",
    "{g} is the answer to this question.",
    "Short answer: {g}.",
]
REFUSALS = [
    "I don't know.",
    "I do not know the answer to that.",
    "I'm not sure.",
    "I am not sure about this one.",
    "I cannot find any information about this.",
    "Sorry, I couldn't find any information on that.",
    "No answer is available.",
    "There is not enough information to answer this question.",
    "I'm unable to answer that question.",
    "I don't have enough information to answer.",
    "The provided references do not contain any information about this.",
    "Unfortunately, the answer cannot be determined from the available sources.",
    "I do not have real-time data, so I can't answer.",
    "I have no idea.",
    "Unknown.",
    "I was unable to find the answer.",
    "I can't answer this based on what I know.",
    "N/A",
    "I'm not aware of any information about that.",
    "It is not possible to determine the answer.",
    "I don't know the answer, sorry.",
    "I cannot provide an answer to this question.",
    "No relevant information was found.",
    "I'm uncertain and cannot give a reliable answer.",
    "I couldn't determine that.",
]
FALSE_PREMISE = [
    "invalid question",
    "Invalid question.",
    "This question is based on a false premise.",
    "The premise of the question is false.",
    "That is an invalid question: it assumes something that did not happen.",
    "The question contains an incorrect assumption.",
    "This question has a false premise; it never happened.",
    "The question is invalid.",
]
NUMBER_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]
MONTHS = re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", re.IGNORECASE)
SMALL_NUMBER = re.compile(r"(?<![\d.,$/:-])\b(\d{1,2})\b(?![.,/:]?\d)(?!%)")
ANY_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")


def mirror_file() -> Path:
    """The validation file in the data mirror."""
    for folder in (
        os.environ.get("RAGMETER_DATA_MIRROR") or str(REPO.parent / "shared" / "data")
    ).split(os.pathsep):
        p = Path(folder) / "crag" / "crag_questions_v3_validation.jsonl"
        if p.is_file():
            return p
    raise SystemExit("crag_questions_v3_validation.jsonl not found: set RAGMETER_DATA_MIRROR")


def case(row: dict[str, Any], prediction: str, expected: str, kind: str) -> dict[str, Any]:
    """One case line."""
    return {
        "query": row["query"],
        "answer": row["answer"],
        "alt_ans": [str(a) for a in row.get("alt_ans") or []],
        "prediction": prediction,
        "expected": expected,
        "kind": kind,
        "interaction_id": row["interaction_id"],
        "domain": row["domain"],
        "question_type": row["question_type"],
    }


def is_valid(row: dict[str, Any]) -> bool:
    """A question with an ordinary answer (not a false premise, not "i don't know")."""
    return normalize_answer(row["answer"]) not in {"invalid question", "i dont know", ""}


def words(text: str) -> int:
    """Number of words."""
    return len(text.split())


def change_number(gold: str, rng: random.Random) -> str | None:
    """The gold with one of its numbers changed to a different value, or None."""
    matches = list(ANY_NUMBER.finditer(gold))
    if not matches:
        return None
    m = rng.choice(matches)
    text = m.group(0)
    plain = text.replace(",", "")
    if "." in plain:
        whole, frac = plain.split(".")
        last = (int(frac[-1]) + rng.choice([1, 2, 3])) % 10
        if last == int(frac[-1]):
            return None
        new = f"{whole}.{frac[:-1]}{last}"
    else:
        v = int(plain)
        delta = rng.choice([1, 2, 3]) if v < 100 else rng.choice([1, 2, 10, 100])
        new_v = v + delta if v < 10 or rng.random() < 0.5 else v - delta
        if new_v < 0:
            new_v = v + delta
        new = f"{new_v:,}" if "," in text else str(new_v)
        if text.startswith("0") and len(text) > 1:
            new = new.zfill(len(text))  # keep zero padding: "02" becomes "03", not "3"
    if new == text:
        return None
    return gold[: m.start()] + new + gold[m.end() :]


def number_in_words(gold: str) -> str | None:
    """The gold with its small numbers (0-20) written in words, or None."""
    if MONTHS.search(gold):
        return None
    changed = False

    def sub(m: re.Match[str]) -> str:
        nonlocal changed
        v = int(m.group(1))
        if v > 20:
            return m.group(0)
        changed = True
        return NUMBER_WORDS[v]

    out = SMALL_NUMBER.sub(sub, gold)
    return out if changed else None


def unrelated(a: str, b: str) -> bool:
    """True when two answers clearly differ (different forms, neither inside the other)."""
    na, nb = normalize_answer(a), normalize_answer(b)
    if not na or not nb or na == nb:
        return False
    return f" {na} " not in f" {nb} " and f" {nb} " not in f" {na} "


def build(rows: list[dict[str, Any]], per_kind: int, seed: int) -> list[dict[str, Any]]:
    """All cases, in a fixed order."""
    rng = random.Random(seed)
    # Answers short enough that no prediction built from them reaches the 75-token cut
    # (truncation has its own tests; here it would change what the right label is).
    valid = [r for r in rows if is_valid(r) and words(r["answer"]) <= MAX_WORDS]
    short = [r for r in valid if words(r["answer"]) <= 12]
    invalid = [r for r in rows if normalize_answer(r["answer"]) == "invalid question"]
    out: list[dict[str, Any]] = []

    for r in rng.sample(short, per_kind):
        g = r["answer"]
        variant = rng.choice([g.upper(), g.title(), g + ".", f"  {g}!"])
        out.append(case(r, variant, "correct", "exact_gold"))

    for r in rng.sample(short, per_kind):
        out.append(
            case(r, rng.choice(SENTENCES).format(g=r["answer"]), "correct", "gold_in_sentence")
        )

    with_alt = [r for r in valid if [a for a in r.get("alt_ans") or [] if str(a).strip()]]
    for r in rng.sample(with_alt, min(per_kind, len(with_alt))):
        alts = [str(a) for a in r["alt_ans"] if str(a).strip()]
        out.append(case(r, rng.choice(alts), "correct", "alternative_answer"))

    numeric = [(r, w) for r in valid if (w := number_in_words(r["answer"])) is not None]
    for r, w in rng.sample(numeric, min(per_kind, len(numeric))):
        out.append(case(r, w, "correct", "number_words"))

    for r, phrase in zip(rng.sample(valid + invalid, per_kind), REFUSALS * 2, strict=False):
        out.append(case(r, phrase, "missing", "refusal"))

    by_type: dict[str, list[dict[str, Any]]] = {}
    for r in short:
        by_type.setdefault(r["question_type"], []).append(r)
    picked = 0
    for r in rng.sample(short, len(short)):
        if picked == per_kind:
            break
        pool = [
            o
            for o in by_type[r["question_type"]]
            if o is not r and unrelated(o["answer"], r["answer"])
        ]
        if not pool:
            continue
        other = rng.choice(pool)
        if any(not unrelated(other["answer"], str(a)) for a in r.get("alt_ans") or []):
            continue
        out.append(case(r, other["answer"], "incorrect", "wrong_same_type"))
        picked += 1

    picked = 0
    for r in rng.sample(valid, len(valid)):
        if picked == per_kind:
            break
        changed = change_number(r["answer"], rng)
        if changed is None or normalize_answer(changed) == normalize_answer(r["answer"]):
            continue
        out.append(case(r, changed, "incorrect", "number_changed"))
        picked += 1

    n_fp = max(1, per_kind * 2 // 3)
    for i, r in enumerate(rng.sample(invalid, n_fp)):
        out.append(
            case(r, FALSE_PREMISE[i % len(FALSE_PREMISE)], "correct", "false_premise_flagged")
        )
    for r in rng.sample(invalid, n_fp):
        other = rng.choice(short)
        out.append(case(r, other["answer"], "incorrect", "answer_to_false_premise"))
    return out


def main() -> None:
    """Build and write the case file; print a one-line JSON summary."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--per-kind", type=int, default=25)
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args()
    path = args.data or mirror_file()
    rows = [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    cases = build(rows, args.per_kind, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    kinds: dict[str, int] = {}
    for c in cases:
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
    print(json.dumps({"out": str(args.out), "n": len(cases), "by_kind": kinds}))


if __name__ == "__main__":
    main()
