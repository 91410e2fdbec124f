"""Reading what ``ragmeter score`` is given: a data set, predictions, human labels.

Every malformed input is a `DataError` naming the file and line: a broken JSON
line, a prediction that is not a string, a duplicate id, a question without a
gold answer. Outcomes that are not errors (empty predictions, questions with
no prediction, predictions for unknown ids) are counted and reported by the
scorer instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ragmeter.data.crag import crag_row_to_question
from ragmeter.data.jsonl import iter_json_lines, open_binary
from ragmeter.errors import DataError
from ragmeter.scoring.crag.records import HumanLabel, HumanLabelRow
from ragmeter.types import Question

__all__ = ["Predictions", "read_dataset", "read_human_labels", "read_predictions"]

_ID_KEYS = ("id", "interaction_id")


@dataclass
class Predictions:
    """Predictions by question id (None = the line gave ``null``), with where each came from."""

    path: str
    by_id: dict[str, str | None] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


def _row_id(obj: dict[str, Any], path: str | Path, line: int) -> str:
    for key in _ID_KEYS:
        if key in obj:
            value = obj[key]
            if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
                return str(value)
            raise DataError(f"'{key}' must be a non-empty string", path=path, line=line)
    raise DataError("missing 'id' (or 'interaction_id')", path=path, line=line)


def read_predictions(path: str | Path) -> Predictions:
    """Read a predictions JSONL: ``{"id": ..., "prediction": "..."}`` per line.

    ``interaction_id`` may stand for ``id``. ``prediction: null`` means the
    system gave no prediction (counted as missing). A duplicate id, a missing
    or non-string prediction, or a broken line is an error naming the line.
    """
    preds = Predictions(path=str(path))
    with open_binary(path) as stream:
        for line, obj in iter_json_lines(stream, path):
            if not isinstance(obj, dict):
                raise DataError("each line must be a JSON object", path=path, line=line)
            qid = _row_id(obj, path, line)
            if "prediction" not in obj:
                raise DataError("missing 'prediction'", path=path, line=line)
            value = obj["prediction"]
            if value is not None and not isinstance(value, str):
                raise DataError(
                    f"'prediction' must be a string or null, got {type(value).__name__}",
                    path=path,
                    line=line,
                )
            if qid in preds.by_id:
                raise DataError(
                    f"duplicate id '{qid}' (first at line {preds.lines[qid]})", path=path, line=line
                )
            preds.by_id[qid] = value
            preds.lines[qid] = line
    return preds


def _iter_dataset(path: str | Path) -> Iterator[tuple[int, Question]]:
    with open_binary(path) as stream:
        for line, row in iter_json_lines(stream, path):
            try:
                q = crag_row_to_question(row, with_html=False)
            except (ValueError, TypeError) as exc:
                raise DataError(str(exc), path=path, line=line) from None
            yield line, q


def read_dataset(path: str | Path) -> list[Question]:
    """The questions of a CRAG file, without page contents, checked for scoring.

    Every question must have a non-empty gold answer and a unique id.
    """
    questions: list[Question] = []
    seen: dict[str, int] = {}
    for line, q in _iter_dataset(path):
        if not q.answer or not q.answer.strip():
            raise DataError(
                f"question '{q.id}' has no gold answer: a data set without answers cannot be "
                "scored",
                path=path,
                line=line,
            )
        if q.id in seen:
            raise DataError(
                f"duplicate question id '{q.id}' (first at line {seen[q.id]})", path=path, line=line
            )
        seen[q.id] = line
        questions.append(q.model_copy(update={"pages": []}))
    if not questions:
        raise DataError("the data set holds no questions", path=path)
    return questions


def read_human_labels(path: str | Path) -> dict[str, HumanLabel]:
    """Human labels, perfect / acceptable / missing / incorrect (JSONL ``id``, ``label``)."""
    labels: dict[str, HumanLabel] = {}
    with open_binary(path) as stream:
        for line, obj in iter_json_lines(stream, path):
            if isinstance(obj, dict) and "id" not in obj and "interaction_id" in obj:
                obj = {("id" if k == "interaction_id" else k): v for k, v in obj.items()}
            if isinstance(obj, dict) and isinstance(obj.get("label"), str):
                obj = {**obj, "label": obj["label"].strip().lower()}
            try:
                row = HumanLabelRow.model_validate(obj)
            except ValidationError as exc:
                err = exc.errors()[0]
                where = ".".join(str(p) for p in err["loc"]) or "row"
                raise DataError(
                    f"bad label ({where}: {err['msg']})", path=path, line=line
                ) from None
            if row.id in labels:
                raise DataError(f"duplicate id '{row.id}'", path=path, line=line)
            labels[row.id] = row.label
    return labels
