"""Prediction files as the CRAG starter kit and most CRAG projects write them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import run_cli
from ragmeter.errors import DataError
from ragmeter.scoring.crag.prediction_files import (
    match_prediction_rows,
    normalise_query,
    read_predictions_file,
)
from ragmeter.types import Question


@pytest.fixture(scope="module")
def validation_rows(crag_validation: Path) -> list[dict[str, object]]:
    lines = crag_validation.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[:60]]


def _prediction(i: int, row: dict[str, object]) -> str:
    # A mix the rules settle: gold in other case, refusals, and wrong answers.
    return [str(row["answer"]).upper(), "I don't know", "certainly not that"][i % 3]


def _score(dataset: Path, predictions: Path, out: Path) -> dict[str, object]:
    res = run_cli(
        "score",
        "--dataset",
        str(dataset),
        "--predictions",
        str(predictions),
        "--judge",
        "rules",
        "--out",
        str(out),
    )
    assert res.returncode == 0, res.stderr
    return json.loads((out / "results.json").read_text())  # type: ignore[no-any-return]


def _labels(folder: Path) -> dict[str, str]:
    rows = [json.loads(x) for x in (folder / "samples.jsonl").read_text().splitlines()]
    return {r["id"]: r["label"] for r in rows}


def test_starter_kit_file_scores_as_the_same_predictions_with_ids(
    validation_rows: list[dict[str, object]], tmp_path: Path
) -> None:
    dataset = tmp_path / "questions.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in validation_rows))
    preds = [_prediction(i, r) for i, r in enumerate(validation_rows)]
    with_ids = tmp_path / "ids.jsonl"
    with_ids.write_text(
        "".join(
            json.dumps({"id": r["interaction_id"], "prediction": p}) + "\n"
            for r, p in zip(validation_rows, preds, strict=True)
        )
    )
    # The starter kit's shape: parallel lists, no ids; its queries as the data set has them.
    starter = tmp_path / "predictions.json"
    starter.write_text(
        json.dumps(
            {
                "queries": [r["query"] for r in validation_rows],
                "ground_truths": [r["answer"] for r in validation_rows],
                "predictions": preds,
            }
        )
    )
    # A JSONL of {query, prediction}, with the text typed differently and the rows reversed.
    by_query = tmp_path / "by_query.jsonl"
    by_query.write_text(
        "".join(
            json.dumps({"query": "  " + str(r["query"]).upper() + " ", "prediction": p}) + "\n"
            for r, p in reversed(list(zip(validation_rows, preds, strict=True)))
        )
    )
    reference = _score(dataset, with_ids, tmp_path / "a")
    for name, path in (("b", starter), ("c", by_query)):
        got = _score(dataset, path, tmp_path / name)
        for key in ("n", "counts", "accuracy", "hallucination", "missing", "score", "slices"):
            assert got[key] == reference[key], key
        assert _labels(tmp_path / name) == _labels(tmp_path / "a")
        assert got["warnings"] == reference["warnings"]
    counts = reference["counts"]
    assert isinstance(counts, dict)
    assert counts["missing"] == 20 and counts["correct"] >= 19 and counts["unscored"] == 0


def _q(qid: str, query: str, answer: str, when: str | None = None) -> Question:
    return Question(id=qid, dataset="t", query=query, answers=[[answer]], query_time=when)


QUESTIONS = [
    _q("a", "Who wrote Dune?", "frank herbert"),
    _q("b", "What is the price of AAPL today?", "180", "03/01/2024, 10:00:00 PT"),
    _q("c", "what is the price of aapl today?", "175", "03/02/2024, 10:00:00 PT"),
    _q("d", "Which team won?", "lakers", "03/05/2024, 10:00:00 PT"),
    _q("e", "which team won?", "celtics", "03/05/2024, 10:00:00 PT"),
]


def test_repeated_texts_are_told_apart_by_query_time_then_reported() -> None:
    rows = [
        {"query": "who wrote dune?", "prediction": "Frank Herbert"},
        {
            "query": "What is the price of AAPL today?",
            "query_time": "03/02/2024, 10:00:00 PT",
            "prediction": "175",
        },
        {"query": "What is the price of AAPL today?", "prediction": "180"},  # ambiguous
        {"query": "Which team won?", "ground_truth": "celtics", "prediction": "celtics"},
        {"query": "Which team won?", "prediction": "lakers"},  # same time: ambiguous
        {"query": "Who wrote Emma?", "prediction": "austen"},  # unmatched
        {"query": "Who  wrote  DUNE?", "prediction": "herbert"},  # duplicate of row 1
    ]
    matched = match_prediction_rows(rows, QUESTIONS, "preds.json")
    assert matched.by_id == {"a": "Frank Herbert", "c": "175", "e": "celtics"}
    assert matched.ambiguous == [3, 5]
    assert matched.unmatched == [6]
    assert matched.duplicates == [7]
    notes = " | ".join(matched.warnings())
    assert "rows 3, 5" in notes and "row 6" in notes and "row 7" in notes
    assert "query_time" in notes


def test_jsonl_positions_are_line_numbers_and_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(
        '{"query": "who wrote dune?", "prediction": "x"}\n\n{"query": "nope", "prediction": "y"}\n'
    )
    matched = read_predictions_file(path, QUESTIONS)
    assert matched.by_id == {"a": "x"} and matched.unmatched == [3]
    assert "line 3" in matched.warnings()[0]
    path.write_text(
        '{"query": "who wrote dune?", "prediction": "x"}\n{"query": "q", "prediction": 3}\n'
    )
    with pytest.raises(DataError, match=r"p.jsonl, line 2: 'prediction' must be a string"):
        read_predictions_file(path, QUESTIONS)


def test_starter_kit_lists_of_different_lengths_are_an_error(tmp_path: Path) -> None:
    path = tmp_path / "predictions.json"
    path.write_text(json.dumps({"queries": ["a", "b"], "predictions": ["x"]}))
    with pytest.raises(DataError, match="'queries' has 2 items but 'predictions' has 1"):
        read_predictions_file(path, QUESTIONS)
    path.write_text(json.dumps({"answers": []}))
    with pytest.raises(DataError, match="starter kit"):
        read_predictions_file(path, QUESTIONS)


def test_unplaced_rows_are_reported_by_the_command(tmp_path: Path) -> None:
    dataset = tmp_path / "q.jsonl"
    dataset.write_text(
        "".join(
            json.dumps(
                {
                    "interaction_id": q.id,
                    "query": q.query,
                    "answer": q.answers[0][0],
                    "query_time": q.query_time or "",
                }
            )
            + "\n"
            for q in QUESTIONS
        )
    )
    preds = tmp_path / "predictions.json"
    preds.write_text(
        json.dumps({"queries": ["Who wrote Dune?", "Who wrote Emma?"], "predictions": ["f", "g"]})
    )
    out = tmp_path / "out"
    res = run_cli(
        "score",
        "--dataset",
        str(dataset),
        "--predictions",
        str(preds),
        "--judge",
        "rules",
        "--out",
        str(out),
    )
    assert res.returncode == 0, res.stderr
    assert "match no question by query text (row 2)" in res.stderr
    results = json.loads((out / "results.json").read_text())
    assert any("row 2" in w for w in results["warnings"])
    assert results["counts"]["missing"] == 4  # questions without a placed prediction


def test_normalise_query_folds_case_space_and_apostrophes() -> None:
    assert normalise_query("  What\u2019s  THE\tscore? ") == "what's the score?"
