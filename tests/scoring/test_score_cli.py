"""``ragmeter score`` and ``judge-check`` as a user runs them, on the real data (rules judge)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import run_cli

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "src" / "ragmeter" / "scoring" / "meta" / "data" / "crag_constructed_cases.jsonl"


@pytest.fixture(scope="module")
def validation_rows(crag_validation: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in crag_validation.read_text(encoding="utf-8").splitlines()]


def test_score_rules_on_validation(
    crag_validation: Path, validation_rows: list[dict[str, object]], tmp_path: Path
) -> None:
    preds = tmp_path / "preds.jsonl"
    lines = []
    for i, r in enumerate(validation_rows[:300]):
        if i % 3 == 0:
            p = str(r["answer"]).upper()
        elif i % 3 == 1:
            p = "I don't know"
        else:
            p = "Something else entirely"
        lines.append(json.dumps({"id": r["interaction_id"], "prediction": p}))
    lines.append(json.dumps({"id": "not-a-question", "prediction": "x"}))
    preds.write_text("\n".join(lines) + "\n", encoding="utf-8")
    labels = tmp_path / "labels.jsonl"
    labels.write_text(
        json.dumps({"id": validation_rows[0]["interaction_id"], "label": "perfect"})
        + "\n"
        + json.dumps({"id": validation_rows[1]["interaction_id"], "label": "missing"})
        + "\n",
        encoding="utf-8",
    )
    weights = tmp_path / "weights.yaml"
    weights.write_text("question_type:\n  simple: 2\n  comparison: 1\n", encoding="utf-8")
    out = tmp_path / "out"
    res = run_cli(
        "score",
        "--dataset",
        str(crag_validation),
        "--predictions",
        str(preds),
        "--judge",
        "rules",
        "--out",
        str(out),
        "--labels",
        str(labels),
        "--weights",
        str(weights),
        mirror=crag_validation.parents[1],
    )
    assert res.returncode == 0, res.stderr
    assert "approximation" in res.stderr and "not-a-question" in res.stderr
    results = json.loads((out / "results.json").read_text())
    assert {"n", "accuracy", "hallucination", "missing", "score", "unscored", "slices"} <= set(
        results
    )
    assert results["n"] == 1371
    assert results["human"]["n"] == 2 and results["human"]["truthfulness"]["value"] == 0.5
    assert results["weighted"]["source"] == str(weights)
    assert results["weighted"]["question_type"] is not None
    assert "aggregation/multi-hop" not in results["weighted"]["missing_weights"]
    assert any(m.endswith("/aggregation") for m in results["weighted"]["missing_weights"])
    assert results["weighted"]["domain_mean"] is not None
    # 1,071 questions had no prediction: missing, as the official protocol counts them.
    assert results["scoring"]["no_prediction"] == 1071
    # Gold answers given back are correct, unless the gold is itself "i don't know"
    # (a refusal: missing) or so long that the 75-token cut no longer equals it.
    by_id = {s["id"]: s for s in map(json.loads, (out / "samples.jsonl").read_text().splitlines())}
    for r in validation_rows[:300:3]:
        s = by_id[r["interaction_id"]]
        if r["answer"] == "i don't know":
            assert (s["label"], s["rule"]) == ("missing", "refusal")
        elif s["truncated"]:
            assert s["label"] in ("correct", "incorrect")
            # A list of values cut short misses the gold's later items: a part is incorrect.
            assert s["rule"] in ("exact_match", "unmatched_rules_only", "different_value")
        else:
            assert s["label"] == "correct", s
    assert results["scoring"]["unknown_predictions"] == {"count": 1, "ids": ["not-a-question"]}
    assert results["scoring"]["approximate"] is True
    assert not results["scoring"]["truncation"]["fallback"]
    assert set(results["slices"]) >= {"domain", "question_type", "static_or_dynamic", "split"}
    samples = [json.loads(x) for x in (out / "samples.jsonl").read_text().splitlines()]
    assert len(samples) == 1371
    keys = {"id", "prediction", "truncated_prediction", "label", "rule", "votes"}
    assert keys <= set(samples[0])
    assert {s["label"] for s in samples} == {"correct", "incorrect", "missing"}


def test_score_bad_inputs(crag_validation: Path, tmp_path: Path) -> None:
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"id": "a", "prediction": "x"}\n{"id": "a", "prediction": "y"}\n')
    res = run_cli(
        "score",
        "--dataset",
        str(crag_validation),
        "--predictions",
        str(preds),
        "--judge",
        "rules",
        "--out",
        str(tmp_path / "o"),
    )
    assert res.returncode == 2
    assert f"{preds}, line 2: duplicate id 'a'" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    nogold = tmp_path / "d.jsonl"
    nogold.write_text('{"interaction_id": "a", "query": "q", "answer": ""}\n')
    res = run_cli(
        "score",
        "--dataset",
        str(nogold),
        "--predictions",
        str(preds),
        "--judge",
        "rules",
        "--out",
        str(tmp_path / "o"),
    )
    assert res.returncode == 2 and "line 1" in res.stderr and "no gold answer" in res.stderr


def test_tokenizer_fallback_is_flagged(crag_validation: Path, tmp_path: Path) -> None:
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"id": "x", "prediction": "y"}\n')
    out = tmp_path / "o"
    res = run_cli(
        "score",
        "--dataset",
        str(crag_validation),
        "--predictions",
        str(preds),
        "--judge",
        "rules",
        "--out",
        str(out),
        mirror=tmp_path,
    )
    assert res.returncode == 0, res.stderr
    results = json.loads((out / "results.json").read_text())
    assert results["scoring"]["truncation"]["fallback"] is True
    assert any("tokenizer was not found" in w for w in results["warnings"])
    res = run_cli(
        "score",
        "--dataset",
        str(crag_validation),
        "--predictions",
        str(preds),
        "--judge",
        "rules",
        "--out",
        str(out),
        "--strict-tokenizer",
        mirror=tmp_path,
    )
    assert res.returncode == 2 and "tokenizer" in res.stderr


def test_judge_check_rules_on_committed_cases(crag_validation: Path) -> None:
    res = run_cli(
        "judge-check",
        "--cases",
        str(CASES),
        "--judge",
        "rules",
        "--json",
        mirror=crag_validation.parents[1],
    )
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert set(out) == {"n", "accuracy", "kappa", "confusion", "by_kind"}
    # Every kind the rules can settle is settled right; most sentences need a judge (the
    # mechanical equivalences settle those whose gold is a value, a yes/no or a bare pick).
    for kind, acc in out["by_kind"].items():
        if kind == "gold_in_sentence":
            assert 0.0 < acc < 1.0
        else:
            assert acc == 1.0, kind
    assert (
        out["confusion"]["correct"]["incorrect"]
        == out["n"]
        - sum(sum(row.values()) for k, row in out["confusion"].items() if k != "correct")
        - out["confusion"]["correct"]["correct"]
    )


def test_judge_check_bad_cases(tmp_path: Path) -> None:
    bad = tmp_path / "c.jsonl"
    bad.write_text('{"query": "q", "answer": "a", "prediction": "p", "expected": "maybe"}\n')
    res = run_cli("judge-check", "--cases", str(bad), "--judge", "rules")
    assert res.returncode == 2 and "line 1" in res.stderr and "expected" in res.stderr
    res = run_cli("judge-check", "--judge", "rules")
    assert res.returncode == 2 and "--cases" in res.stderr
    res = run_cli("judge-check", "--cases", str(CASES), "--judge", "rules,local")
    assert res.returncode == 2 and "cannot be combined" in res.stderr


def test_score_a_run_folder(crag_sample: Path, tmp_path: Path) -> None:
    system = Path(__file__).resolve().parent / "scoring_run_system.py"
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        f"name: t\ndata:\n  path: {crag_sample}\npipeline:\n  name: callable\n"
        f"  options:\n    target: {system}:gold_in_sentence\nscoring:\n  judge: null\n",
        encoding="utf-8",
    )
    run_dir = tmp_path / "run"
    mirror = crag_sample.parents[1]
    res = run_cli("run", str(spec), "--out", str(run_dir), "-q", mirror=mirror)
    assert res.returncode == 0, res.stderr
    before = json.loads((run_dir / "results.json").read_text())

    res = run_cli("score", str(run_dir), "--json", mirror=mirror)
    assert res.returncode == 0, res.stderr
    again = json.loads(res.stdout)
    assert again["n"] == before["n"] == 10
    assert again["counts"] == before["counts"]

    res = run_cli("score", str(run_dir), "--judge", "rules", mirror=mirror)
    assert res.returncode == 0, res.stderr
    assert "score" in res.stdout
    samples = [json.loads(x) for x in (run_dir / "samples.jsonl").read_text().splitlines()]
    assert len(samples) == 10
    # The sample's question whose gold is the string "nan" is unscored, never scored.
    unscored = [s for s in samples if s["label"] == "unscored"]
    assert len(unscored) == 1 and "nan" in unscored[0]["unscored_reason"]
    assert {s["rule"] for s in samples if s["label"] != "unscored"} <= {
        "unmatched_rules_only",
        "refusal",
        "false_premise_detected",
        "answer_to_false_premise",
        "exact_match",
        "equivalent_value",
        "yes_no",
        "comparison_option",
    }

    res = run_cli("score", str(tmp_path), mirror=mirror)
    assert res.returncode == 2 and "not a run folder" in res.stderr
    res = run_cli("score", str(run_dir), "--dataset", str(crag_sample), mirror=mirror)
    assert res.returncode == 2 and "not both" in res.stderr
