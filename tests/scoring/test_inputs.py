"""Bad input: clear errors with file and line, or counted outcomes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragmeter.errors import DataError
from ragmeter.scoring.crag.inputs import read_dataset, read_human_labels, read_predictions


def write(p: Path, *lines: str) -> Path:
    p.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return p


def test_predictions_ok(tmp_path: Path) -> None:
    p = write(
        tmp_path / "p.jsonl",
        '{"id": "a", "prediction": "x"}',
        "",
        '{"interaction_id": "b", "prediction": null}',
        '{"id": 7, "prediction": ""}',
    )
    preds = read_predictions(p)
    assert preds.by_id == {"a": "x", "b": None, "7": ""}
    assert preds.lines == {"a": 1, "b": 3, "7": 4}


@pytest.mark.parametrize(
    ("lines", "message", "line"),
    [
        (
            ['{"id": "a", "prediction": "x"}', '{"id": "a", "prediction": "y"}'],
            "duplicate id 'a'",
            2,
        ),
        (['{"id": "a", "prediction": "x"}', '{"id": "b", "prediction": '], "invalid JSON", 2),
        (['{"id": "a"}'], "missing 'prediction'", 1),
        (['{"prediction": "x"}'], "missing 'id'", 1),
        (['{"id": "a", "prediction": 3}'], "must be a string", 1),
        (['["a", "x"]'], "JSON object", 1),
        (['{"id": "", "prediction": "x"}'], "non-empty", 1),
    ],
)
def test_predictions_errors(tmp_path: Path, lines: list[str], message: str, line: int) -> None:
    p = write(tmp_path / "p.jsonl", *lines)
    with pytest.raises(DataError, match=message) as info:
        read_predictions(p)
    assert info.value.line == line and info.value.path == str(p)


def row(qid: str, answer: object = "paris") -> str:
    r: dict[str, object] = {"interaction_id": qid, "query": "q?", "domain": "open"}
    if answer is not None:
        r["answer"] = answer
    return json.dumps(r)


def test_dataset_errors(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no gold answer") as info:
        read_dataset(write(tmp_path / "d.jsonl", row("a"), row("b", "  ")))
    assert info.value.line == 2
    with pytest.raises(DataError, match="answer") as info:
        read_dataset(write(tmp_path / "d.jsonl", row("a", None)))
    assert info.value.line == 1
    with pytest.raises(DataError, match="duplicate question id 'a'"):
        read_dataset(write(tmp_path / "d.jsonl", row("a"), row("a")))
    with pytest.raises(DataError, match="no questions"):
        read_dataset(write(tmp_path / "d.jsonl", ""))


def test_real_validation_set(crag_validation: Path) -> None:
    qs = read_dataset(crag_validation)
    assert len(qs) == 1371 and all(q.answer for q in qs)
    assert {q.labels.answer_type for q in qs} == {"valid", "invalid", "no_answer"}


def test_human_labels(tmp_path: Path) -> None:
    p = write(
        tmp_path / "h.jsonl",
        '{"id": "a", "label": "Perfect"}',
        '{"interaction_id": "b", "label": "missing"}',
    )
    assert read_human_labels(p) == {"a": "perfect", "b": "missing"}
    bad = write(tmp_path / "bad.jsonl", '{"id": "a", "label": "great"}')
    with pytest.raises(DataError, match="line 1"):
        read_human_labels(bad)
