"""The judge on the real local model (Qwen2.5-Coder 1.5B): agreement, cache replay, ``score``.

A small subset of the committed cases keeps this within the CI budget; the full
judge-check is a measurement (see the README and benchmarks/).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import run_cli
from ragmeter.scoring.meta.judge_check import suite_path

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "src" / "ragmeter" / "scoring" / "meta" / "data" / "crag_constructed_cases.jsonl"
JUDGED_KINDS = ("gold_in_sentence", "wrong_same_type", "number_changed")

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def subset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four cases of each kind the judge decides, and two the rules settle."""
    rows = [json.loads(x) for x in CASES.read_text(encoding="utf-8").splitlines()]
    picked = [r for k in JUDGED_KINDS for r in [x for x in rows if x["kind"] == k][:4]]
    picked += [next(r for r in rows if r["kind"] == "refusal")]
    picked += [next(r for r in rows if r["kind"] == "number_words")]
    path = tmp_path_factory.mktemp("cases") / "subset.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in picked), encoding="utf-8")
    return path


def test_local_judge_agrees_and_replays_from_cache(
    subset: Path, crag_validation: Path, tmp_path: Path
) -> None:
    mirror = crag_validation.parents[1]
    cache_path = tmp_path / "responses.sqlite3"
    samples = tmp_path / "s.jsonl"
    args = ("judge-check", "--cases", str(subset), "--judge", "local", "--json")
    args += ("--cache-path", str(cache_path), "--samples", str(samples))
    first = run_cli(*args, mirror=mirror)
    assert first.returncode == 0, first.stderr
    out = json.loads(first.stdout)
    assert out["n"] == 14
    assert out["accuracy"] >= 13 / 14, out
    cold = [json.loads(x) for x in samples.read_text().splitlines()]
    judged = [s for s in cold if s["votes"]]
    # Mechanics settle changed numbers and some sentences; the model judges the rest.
    assert 4 <= len(judged) <= 12
    assert all(s["votes"][0]["checks"][0]["rationale"] for s in judged)
    asked = [c for s in judged for c in s["votes"][0]["checks"] if c["p_correct"] is not None]
    assert asked and all(c["method"] == "logits" for c in asked)

    second = run_cli(*args, mirror=mirror)
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout) == out
    warm = [json.loads(x) for x in samples.read_text().splitlines()]
    # Every verdict the model gave is replayed from the cache (mechanical checks need none).
    checks = [
        c for s in warm for v in s["votes"] for c in v["checks"] if c["p_correct"] is not None
    ]
    assert checks and all(c["cached"] for c in checks)
    # Replayed verdicts keep their rationales.
    assert [s["votes"] for s in warm] != [] and all(
        s["votes"][0]["checks"][-1]["rationale"] for s in warm if s["votes"]
    )


def test_score_with_local_judge(crag_validation: Path, tmp_path: Path) -> None:
    rows = [json.loads(x) for x in crag_validation.read_text(encoding="utf-8").splitlines()]
    valid = [r for r in rows if r["answer"] not in ("invalid question", "i don't know")][:3]
    dataset = tmp_path / "d.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in valid), encoding="utf-8")
    preds = tmp_path / "p.jsonl"
    preds.write_text(
        json.dumps(
            {
                "id": valid[0]["interaction_id"],
                "prediction": f"According to the records I found, {valid[0]['answer']}.",
            }
        )
        + "\n"
        + json.dumps({"id": valid[1]["interaction_id"], "prediction": "I have no idea."})
        + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    res = run_cli(
        "score",
        "--dataset",
        str(dataset),
        "--predictions",
        str(preds),
        "--out",
        str(out),
        "--cache-path",
        str(tmp_path / "c.sqlite3"),
        "--confirm-refusals",
        mirror=crag_validation.parents[1],
    )
    assert res.returncode == 0, res.stderr
    results = json.loads((out / "results.json").read_text())
    assert results["counts"] == {"correct": 1, "incorrect": 0, "missing": 2, "unscored": 0}
    assert results["scoring"]["judge"] == "local" and results["scoring"]["judges"]
    assert not results["scoring"]["approximate"]
    samples = [json.loads(x) for x in (out / "samples.jsonl").read_text().splitlines()]
    assert samples[0]["votes"][0]["verdict"] == "correct"
    assert samples[2]["rule"] == "no_prediction"
    # The model confirms the phrase-matched refusal ("I have no idea.").
    assert samples[1]["rule"] == "refusal"
    assert not any("overruled" in w for w in results["warnings"])


LONG_CASES = [
    # Long answers with extra true detail, a wrong name in the same frame, and one that
    # names the gold only to reject it: the second look must not turn that into a pass.
    ("which city hosted the 2012 summer olympics?", "london", "correct",
     "The 2012 Summer Olympics took place in London, the first city to host the modern "
     "Games three times, and Michael Phelps became the most decorated Olympian there."),
    ("who wrote the novel nineteen eighty-four?", "george orwell", "correct",
     "Nineteen Eighty-Four was written by George Orwell, the pen name of Eric Arthur "
     "Blair, and was published in June 1949 by Secker & Warburg in London."),
    ("who wrote the novel nineteen eighty-four?", "george orwell", "incorrect",
     "Nineteen Eighty-Four was written by Aldous Huxley, who also wrote Brave New World, "
     "and was published in June 1949 by Secker & Warburg in London."),
    ("which country hosted the 2006 fifa world cup?", "germany", "incorrect",
     "Not Germany, as many people think: the 2006 FIFA World Cup was hosted by France, "
     "which also won the final against Italy in Paris."),
]  # fmt: skip


@pytest.fixture(scope="module")
def hard_cases_judged(
    crag_validation: Path, tmp_path_factory: pytest.TempPathFactory
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The adversarial suite and the long answers with their samples, judged in one run of
    the local judge (the model reads each prompt's long fixed start once, not once a run)."""
    adversarial = [
        json.loads(x) for x in suite_path("adversarial").read_text(encoding="utf-8").splitlines()
    ]
    long = [
        {"query": q, "answer": g, "alt_ans": [], "prediction": p, "expected": e, "kind": "long"}
        for q, g, e, p in LONG_CASES
    ]
    rows = adversarial + long
    folder = tmp_path_factory.mktemp("hard")
    cases = folder / "cases.jsonl"
    cases.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    samples = folder / "s.jsonl"
    res = run_cli(
        "judge-check", "--cases", str(cases), "--judge", "local", "--json",
        "--cache-path", str(folder / "responses.sqlite3"), "--samples", str(samples),
        mirror=crag_validation.parents[1],
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    scored = [json.loads(x) for x in samples.read_text(encoding="utf-8").splitlines()]
    return list(zip(rows, scored, strict=True))


def _wrong(row: dict[str, Any], sample: dict[str, Any]) -> bool:
    return bool(row["expected"] != sample["label"])


def test_adversarial_suite_with_the_local_judge(
    hard_cases_judged: list[tuple[dict[str, Any], dict[str, Any]]],
) -> None:
    """Answers written to game the judge fail, and controls with the same words pass."""
    judged = [(r, s) for r, s in hard_cases_judged if r["kind"] != "long"]
    assert len(judged) >= 200
    missed = [(r["kind"], r["prediction"][:80], s["label"]) for r, s in judged if _wrong(r, s)]
    assert len(missed) <= 0.02 * len(judged), missed
    by_kind: dict[str, list[bool]] = {}
    for r, s in judged:
        by_kind.setdefault(r["kind"], []).append(not _wrong(r, s))
    low = {k: sum(v) / len(v) for k, v in by_kind.items() if sum(v) / len(v) < 0.95}
    assert not low, low


def test_long_answers_with_the_local_judge(
    hard_cases_judged: list[tuple[dict[str, Any], dict[str, Any]]],
) -> None:
    """Long answers: the detail does not sink a right answer, nor lift a wrong one."""
    judged = [(r, s) for r, s in hard_cases_judged if r["kind"] == "long"]
    assert len(judged) == len(LONG_CASES)
    for row, sample in judged:
        assert sample["label"] == row["expected"], (row["prediction"], sample)
        for check in (c for v in sample["votes"] for c in v["checks"]):
            short = check["prediction_answer"]
            # A short answer the second look used is the prediction's own words.
            assert short is None or short.lower() in row["prediction"].lower()
