"""Prediction files as people already have them, matched to the questions of a data set.

Three shapes are read:

- ragmeter's JSONL, ``{"id": ..., "prediction": ...}`` per line (``interaction_id`` may
  stand for ``id``);
- the official CRAG starter kit's ``predictions.json``: one object of parallel lists
  ``queries``, ``ground_truths`` and ``predictions`` (optionally ``query_times``), no ids;
- a JSONL (or JSON list) of ``{"query": ..., "prediction": ...}`` rows, optionally with
  ``query_time`` and ``ground_truth``.

Rows without an id are matched to questions by their normalised query text (case,
Unicode form, apostrophes and white space folded). When several questions share a
text, the row's query time decides, then its ground truth; a row still left with
several candidates is *ambiguous*, a row with none *unmatched*, a second row for an
already matched question a *duplicate*. None of these is scored (its question counts
as missing, as any question without a prediction) and each is reported by position.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragmeter.data.jsonl import iter_json_lines, open_binary
from ragmeter.errors import DataError
from ragmeter.types import Question

__all__ = [
    "MatchedPredictions",
    "match_prediction_rows",
    "normalise_query",
    "read_predictions_file",
]

_ID_KEYS = ("id", "interaction_id")
_SHOWN_POSITIONS = 20


def normalise_query(text: str) -> str:
    """A query as compared across files: NFKC, case-folded, straight apostrophes, one space."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    folded = folded.replace("\u2019", "'").replace("\u2018", "'")
    return " ".join(folded.split())


def _norm_time(text: str) -> str:
    return " ".join(text.split()).casefold()


@dataclass
class MatchedPredictions:
    """Predictions by question id, and the rows that could not be placed (by position)."""

    source: str
    by_id: dict[str, str | None] = field(default_factory=dict)
    by_query: int = 0
    """How many predictions were placed by query text (0: every row had an id)."""
    unmatched: list[int] = field(default_factory=list)
    """Positions of rows whose query matches no question."""
    ambiguous: list[int] = field(default_factory=list)
    """Positions of rows whose query matches several questions that nothing tells apart."""
    duplicates: list[int] = field(default_factory=list)
    """Positions of rows for a question an earlier row already answered."""
    unit: str = "row"
    """What a position counts: ``line`` in a JSONL file, ``row`` in a list."""

    def _positions(self, positions: list[int]) -> str:
        shown = ", ".join(str(p) for p in positions[:_SHOWN_POSITIONS])
        extra = len(positions) - _SHOWN_POSITIONS
        more = f" and {extra} more" if extra > 0 else ""
        plural = "s" if len(positions) > 1 else ""
        return f"{self.unit}{plural} {shown}{more}"

    def warnings(self) -> list[str]:
        """One sentence per kind of row that was not scored, naming the positions."""
        out = []
        if self.unmatched:
            out.append(
                f"{self.source}: {len(self.unmatched)} prediction(s) match no question by query "
                f"text ({self._positions(self.unmatched)})"
            )
        if self.ambiguous:
            out.append(
                f"{self.source}: {len(self.ambiguous)} prediction(s) match several questions with "
                f"the same text; give query_time to tell them apart "
                f"({self._positions(self.ambiguous)})"
            )
        if self.duplicates:
            out.append(
                f"{self.source}: {len(self.duplicates)} prediction(s) answer a question an earlier "
                f"row already answered; the first was kept ({self._positions(self.duplicates)})"
            )
        return out


class _Index:
    """Questions by id and by normalised query text."""

    def __init__(self, questions: Sequence[Question]):
        self.ids = {q.id for q in questions}
        self.by_text: dict[str, list[Question]] = {}
        for q in questions:
            self.by_text.setdefault(normalise_query(q.query), []).append(q)

    def find(self, query: str, query_time: str | None, ground_truth: str | None) -> list[Question]:
        """The questions a query row may be: narrowed by query time, then by ground truth."""
        candidates = self.by_text.get(normalise_query(query), [])
        if len(candidates) > 1 and query_time:
            same = [
                q for q in candidates if _norm_time(q.query_time or "") == _norm_time(query_time)
            ]
            candidates = same or candidates
        if len(candidates) > 1 and ground_truth:
            gold = normalise_query(ground_truth)
            same = [
                q for q in candidates if q.answer is not None and normalise_query(q.answer) == gold
            ]
            candidates = same or candidates
        return candidates


@dataclass(frozen=True)
class _Where:
    """Where a row sits, for errors: a file line, or a position in a list."""

    source: str
    unit: str
    pos: int

    def error(self, message: str) -> DataError:
        if self.unit == "line":
            return DataError(message, path=self.source, line=self.pos)
        return DataError(f"{self.unit} {self.pos}: {message}", path=self.source)


def _text(value: Any, key: str, where: _Where) -> str | None:
    if isinstance(value, list):
        # The starter kit's ground truth may be a list of answers; the first is the gold.
        value = value[0] if value else None
    if value is None:
        return None
    if not isinstance(value, str):
        raise where.error(f"'{key}' must be a string, got {type(value).__name__}")
    return value


def _prediction(row: dict[str, Any], where: _Where) -> str | None:
    if "prediction" not in row:
        raise where.error("missing 'prediction'")
    value = row["prediction"]
    if value is not None and not isinstance(value, str):
        raise where.error(f"'prediction' must be a string or null, got {type(value).__name__}")
    return value


def _row_id(row: dict[str, Any], where: _Where) -> str | None:
    for key in _ID_KEYS:
        if key in row:
            value = row[key]
            if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
                return str(value)
            raise where.error(f"'{key}' must be a non-empty string")
    return None


def match_prediction_rows(
    rows: Sequence[Any],
    questions: Sequence[Question],
    source: str,
    *,
    positions: Sequence[int] | None = None,
    unit: str = "row",
) -> MatchedPredictions:
    """Place each row (``{id, prediction}`` or ``{query, prediction}``) on a question.

    A row with an id keeps it (an id that is no question is reported by the scorer as
    unknown); a duplicate id is an error, as in any id file. ``positions`` are what
    reports name (line numbers of a JSONL file; 1, 2, ... otherwise).
    """
    index = _Index(questions)
    out = MatchedPredictions(source=source, unit=unit)
    where_of = list(positions) if positions is not None else list(range(1, len(rows) + 1))
    placed_at: dict[str, int] = {}
    for pos, row in zip(where_of, rows, strict=True):
        where = _Where(source, unit, pos)
        if not isinstance(row, dict):
            raise where.error("each prediction must be a JSON object")
        prediction = _prediction(row, where)
        qid = _row_id(row, where)
        if qid is not None:
            if qid in placed_at:
                raise where.error(f"duplicate id '{qid}' (first at {unit} {placed_at[qid]})")
        else:
            query = _text(row.get("query"), "query", where)
            if query is None:
                raise where.error("needs 'id' (or 'interaction_id') or 'query'")
            candidates = index.find(
                query,
                _text(row.get("query_time"), "query_time", where),
                _text(row.get("ground_truth"), "ground_truth", where),
            )
            if not candidates:
                out.unmatched.append(pos)
                continue
            if len(candidates) > 1:
                out.ambiguous.append(pos)
                continue
            qid = candidates[0].id
            if qid in placed_at:
                out.duplicates.append(pos)
                continue
            out.by_query += 1
        placed_at[qid] = pos
        out.by_id[qid] = prediction
    return out


def _starter_kit_rows(data: dict[str, Any], path: str) -> list[dict[str, Any]]:
    """The parallel lists of the starter kit's ``predictions.json`` as rows."""
    columns = {
        "query": ("queries", "query"),
        "prediction": ("predictions", "prediction"),
        "ground_truth": ("ground_truths", "ground_truth"),
        "query_time": ("query_times", "query_time"),
        "id": ("interaction_ids", "interaction_id", "ids"),
    }
    lists: dict[str, list[Any]] = {}
    for field_name, keys in columns.items():
        for key in keys:
            if key in data:
                value = data[key]
                if not isinstance(value, list):
                    raise DataError(f"'{key}' must be a list", path=path)
                lists[field_name] = value
                break
    if "prediction" not in lists or ("query" not in lists and "id" not in lists):
        raise DataError(
            "expected the starter kit's object of lists 'queries' and 'predictions' "
            "(optionally 'ground_truths', 'query_times')",
            path=path,
        )
    n = len(lists["prediction"])
    for name, values in lists.items():
        if len(values) != n:
            raise DataError(
                f"'{columns[name][0]}' has {len(values)} items but 'predictions' has {n}",
                path=path,
            )
    return [{name: values[i] for name, values in lists.items()} for i in range(n)]


def _read_json(path: Path) -> Any | None:
    """The file parsed as one JSON document, or None when it is JSON Lines."""
    with open_binary(path) as stream:
        raw = stream.read()
    text = raw.decode("utf-8", errors="replace").lstrip()
    if not text.startswith(("{", "[")):
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        # Several objects, one per line: JSON Lines.
        return None


def read_predictions_file(path: str | Path, questions: Sequence[Question]) -> MatchedPredictions:
    """Read predictions in any of the three shapes and place them on ``questions``."""
    p = Path(path)
    if not p.is_file():
        raise DataError("no such predictions file", path=p)
    data = _read_json(p)
    if isinstance(data, dict) and "prediction" in data and "predictions" not in data:
        data = None  # a JSONL file of one row
    if isinstance(data, dict):
        rows = _starter_kit_rows(data, str(p))
        return match_prediction_rows(rows, questions, str(p))
    if isinstance(data, list):
        return match_prediction_rows(data, questions, str(p))
    lines: list[int] = []
    rows = []
    with open_binary(p) as stream:
        for line, obj in iter_json_lines(stream, p):
            lines.append(line)
            rows.append(obj)
    return match_prediction_rows(rows, questions, str(p), positions=lines, unit="line")
