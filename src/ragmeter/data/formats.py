"""Tell which benchmark format a file holds, and read any of them as `Question`s.

Formats: ``crag`` (task 1&2 rows, any release, including the subsample files),
``crag_task3`` (the task 3 ``tar.bz2`` archive, whole or in parts), ``alce``
(Trust-Score and ALCE files), ``qa_feedback`` (all six kinds), ``questions``
(ragmeter's own JSON Lines export) and ``predictions``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from ragmeter.data.alce import alce_row_to_question, dataset_of, read_alce
from ragmeter.data.crag import crag_row_to_question, is_crag_row, read_crag, read_crag_task3
from ragmeter.data.jsonl import SkipLog, handle_bad_row, iter_json_records
from ragmeter.data.predictions import is_prediction_row
from ragmeter.data.qa_feedback import (
    is_feedback_row,
    is_plain_row,
    kind_of,
    qa_feedback_row_to_question,
    read_qa_feedback,
)
from ragmeter.errors import DataError
from ragmeter.types import Question

Format = Literal["crag", "crag_task3", "alce", "qa_feedback", "questions", "predictions"]
FORMATS: tuple[str, ...] = ("crag", "crag_task3", "alce", "qa_feedback", "questions", "predictions")

_ARCHIVE = re.compile(r"\.tar(\.bz2|\.gz|\.xz)?(\.part\d+)?$")


def format_of_row(row: Any) -> Format | None:
    """The format a parsed record belongs to, or None when it matches none."""
    if not isinstance(row, dict):
        return None
    if is_crag_row(row):
        return "crag"
    if is_feedback_row(row) or is_plain_row(row):
        return "qa_feedback"
    if is_prediction_row(row):
        return "predictions"
    if {"id", "dataset", "query"} <= row.keys():
        return "questions"
    if "question" in row and ({"answers", "docs", "qa_pairs", "claims"} & row.keys()):
        return "alce"
    if isinstance(row.get("demos"), list):
        return "alce"
    return None


def is_archive(path: str | Path) -> bool:
    """True for a tar archive name, whole or split (``x.tar.bz2.part1``)."""
    return bool(_ARCHIVE.search(Path(path).name))


def detect_format(path: str | Path) -> Format:
    """Detect a file's format from its name and its first record."""
    p = Path(path)
    if is_archive(p):
        return "crag_task3"
    if not p.exists():
        raise DataError("file not found", path=p)
    skipped = SkipLog()  # a broken first row should not hide the format of the next
    for line_no, row in iter_json_records(p, skips=skipped):
        fmt = format_of_row(row)
        if fmt is None:
            keys = ", ".join(sorted(row)[:8]) if isinstance(row, dict) else type(row).__name__
            raise DataError(
                f"cannot tell the data format from this record (fields: {keys})", p, line_no
            )
        return fmt
    if skipped.rows:
        first = skipped.rows[0]
        raise DataError(first.reason, path=first.source, line=first.line)
    raise DataError("no records found: cannot tell the data format", path=p)


def read_exported(path: str | Path, skips: SkipLog | None = None) -> Iterator[Question]:
    """Stream ragmeter's own exported questions (one `Question` as JSON per line)."""
    for line_no, row in iter_json_records(path, skips):
        try:
            yield Question.model_validate(row)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(x) for x in first["loc"])
            handle_bad_row(
                DataError(f"bad question: {where}: {first['msg']}", path, line_no), skips
            )


def read_questions(
    path: str | Path,
    fmt: str | None = None,
    with_html: bool = True,
    skips: SkipLog | None = None,
) -> Iterator[Question]:
    """Stream `Question`s from any supported file; the format is detected unless given."""
    fmt = fmt or detect_format(path)
    if fmt == "crag":
        return read_crag(path, with_html=with_html, skips=skips)
    if fmt == "crag_task3":
        return read_crag_task3(path, with_html=with_html, skips=skips)
    if fmt == "alce":
        return read_alce(path, skips=skips)
    if fmt == "qa_feedback":
        return read_qa_feedback(path, skips=skips)
    if fmt == "questions":
        return read_exported(path, skips=skips)
    if fmt == "predictions":
        raise DataError("this is a predictions file, not a data set of questions", path=path)
    raise DataError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}", path=path)


RowConverter = Callable[[Any, int], Question]


def row_converter(path: str | Path, fmt: str) -> RowConverter:
    """A function turning one parsed record (and its position) into a `Question` without HTML.

    Raises `DataError` for formats whose records are not one question each
    (archives, predictions).
    """
    if fmt == "crag":
        return lambda row, _i: crag_row_to_question(row, with_html=False)
    if fmt == "alce":
        dataset = dataset_of(path)
        return lambda row, i: alce_row_to_question(row, i, dataset)
    if fmt == "qa_feedback":
        kind = kind_of(path)
        return lambda row, i: qa_feedback_row_to_question(row, i, kind)
    if fmt == "questions":
        return lambda row, _i: Question.model_validate(row)
    raise DataError(f"this needs a file of one question per record, not {fmt!r}", path=path)
