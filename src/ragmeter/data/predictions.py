"""Prediction files: JSON Lines rows ``{"id": ..., "prediction": ...}``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ragmeter.data.jsonl import SkipLog, handle_bad_row, iter_json_records
from ragmeter.data.writers import write_jsonl
from ragmeter.errors import DataError
from ragmeter.types import Record


class Prediction(Record):
    """One system answer to one question, by question id."""

    id: str
    prediction: str


def is_prediction_row(row: Any) -> bool:
    """True when ``row`` has exactly the fields of a prediction."""
    return isinstance(row, dict) and set(row) == {"id", "prediction"}


def read_predictions(path: str | Path, skips: SkipLog | None = None) -> Iterator[Prediction]:
    """Stream predictions; a row without a string ``id`` and ``prediction`` is a `DataError`."""
    for line_no, row in iter_json_records(path, skips):
        try:
            yield Prediction.model_validate(row)
        except ValidationError as exc:
            reason = "; ".join(
                f"{'.'.join(str(x) for x in e['loc']) or 'row'}: {e['msg']}" for e in exc.errors()
            )
            handle_bad_row(DataError(f"bad prediction: {reason}", path=path, line=line_no), skips)


def write_predictions(path: str | Path, predictions: Iterable[Prediction | tuple[str, str]]) -> int:
    """Write predictions as JSON Lines, atomically; returns the number of rows written."""
    rows = (
        p if isinstance(p, Prediction) else Prediction(id=p[0], prediction=p[1])
        for p in predictions
    )
    return write_jsonl(path, rows)
