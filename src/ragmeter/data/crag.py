"""CRAG rows (every release, task 1&2 files and the task 3 archive) as `Question` records.

Releases differ: v3/v4 name alternative answers ``alternative_answers`` and
store them as a JSON string; later ones name them ``alt_ans`` and store a list.
v5 adds ``popularity``. Answers such as "nan" are kept exactly as given.
"""

from __future__ import annotations

import bz2
import gzip
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, cast

import orjson

from ragmeter.data.archive import iter_tar_members
from ragmeter.data.jsonl import (
    SkipLog,
    handle_bad_row,
    iter_json_lines,
    iter_json_records,
)
from ragmeter.errors import DataError
from ragmeter.types import AnswerType, Labels, Question, WebPage

REQUIRED_FIELDS = ("interaction_id", "query", "answer")


def answer_type_of(answer: str) -> AnswerType:
    """CRAG's answer type: ``invalid`` for "invalid question", ``no_answer`` for "i don't know"."""
    a = answer.strip().lower()
    if a == "invalid question":
        return "invalid"
    if a == "i don't know":
        return "no_answer"
    return "valid"


def is_crag_row(row: Any) -> bool:
    """True when ``row`` looks like a CRAG question row."""
    return isinstance(row, dict) and all(f in row for f in REQUIRED_FIELDS)


def _alternatives(row: dict[str, Any]) -> list[str]:
    if "alt_ans" in row and row["alt_ans"] is not None:
        alts = row["alt_ans"]
    elif "alternative_answers" in row and row["alternative_answers"] is not None:
        alts = row["alternative_answers"]
        if isinstance(alts, str):
            try:
                alts = orjson.loads(alts) if alts.strip() else []
            except orjson.JSONDecodeError:
                raise ValueError("'alternative_answers' is a string but not a JSON list") from None
    else:
        alts = []
    if not isinstance(alts, list):
        raise ValueError(f"alternative answers must be a list, got {type(alts).__name__}")
    return [str(a) for a in alts]


def _page(result: Any, with_html: bool) -> WebPage:
    if not isinstance(result, dict):
        raise ValueError(f"a search result must be an object, got {type(result).__name__}")
    html = result.get("page_result") or ""
    if not isinstance(html, str):
        raise ValueError("page_result must be a string")
    return WebPage(
        name=str(result.get("page_name") or ""),
        url=str(result.get("page_url") or ""),
        snippet=str(result.get("page_snippet") or ""),
        html=html if with_html else None,
        html_bytes=len(html.encode("utf-8")) if html else 0,
        last_modified=str(result.get("page_last_modified") or ""),
    )


def _optional_str(row: dict[str, Any], field: str) -> str | None:
    value = row.get(field)
    if value is None or isinstance(value, str):
        return value
    raise ValueError(f"'{field}' must be a string, got {type(value).__name__}")


def crag_row_to_question(row: Any, with_html: bool = True, dataset: str = "crag") -> Question:
    """Convert one parsed CRAG row to a `Question`; raises ValueError on a malformed row."""
    if not isinstance(row, dict):
        raise ValueError(f"a row must be a JSON object, got {type(row).__name__}")
    missing = [f for f in REQUIRED_FIELDS if f not in row]
    if missing:
        raise ValueError(f"missing required field(s): {', '.join(missing)}")
    answer = row["answer"]
    if isinstance(answer, int | float) and not isinstance(answer, bool):
        answer = str(answer)  # real rows hold numbers where strings are expected
    if not isinstance(answer, str):
        raise ValueError(f"'answer' must be a string, got {type(answer).__name__}")
    query = row["query"]
    if not isinstance(query, str):
        raise ValueError(f"'query' must be a string, got {type(query).__name__}")
    results = row.get("search_results") or []
    if not isinstance(results, list):
        raise ValueError("'search_results' must be a list")
    pages = [_page(r, with_html) for r in results]
    split = row.get("split")
    if split is not None and not isinstance(split, (int, str)):
        raise ValueError(f"'split' must be an integer, got {type(split).__name__}")
    labels = Labels(
        domain=_optional_str(row, "domain"),
        question_type=_optional_str(row, "question_type"),
        static_or_dynamic=_optional_str(row, "static_or_dynamic"),
        popularity=_optional_str(row, "popularity") or None,
        split=split,
        answer_type=answer_type_of(answer),
    )
    return Question(
        id=str(row["interaction_id"]),
        dataset=dataset,
        query=query,
        query_time=_optional_str(row, "query_time"),
        answers=[[answer, *_alternatives(row)]],
        labels=labels,
        pages=pages,
    )


def read_crag(
    path: str | Path,
    with_html: bool = True,
    dataset: str = "crag",
    skips: SkipLog | None = None,
) -> Iterator[Question]:
    """Stream CRAG task 1&2 rows from a ``.jsonl`` (optionally compressed) or JSON array file.

    Memory stays flat: one row is parsed at a time. With ``with_html=False``
    page HTML is dropped right after parsing, keeping only its size. A bad row
    raises `DataError` (file and line), or is recorded in ``skips``.
    """
    for line_no, row in iter_json_records(path, skips):
        try:
            yield crag_row_to_question(row, with_html=with_html, dataset=dataset)
        except (ValueError, TypeError) as exc:
            handle_bad_row(DataError(str(exc), path=path, line=line_no), skips)


def _member_stream(name: str, stream: IO[bytes]) -> IO[bytes]:
    if name.endswith(".bz2"):
        return bz2.BZ2File(stream)
    if name.endswith(".gz"):
        return cast(IO[bytes], gzip.GzipFile(fileobj=stream))
    return stream


def read_crag_task3(
    path: str | Path,
    with_html: bool = True,
    dataset: str = "crag_task3",
    skips: SkipLog | None = None,
) -> Iterator[Question]:
    """Stream CRAG task 3 rows straight out of its (possibly split) ``tar.bz2`` archive.

    ``path`` is the archive, any of its ``.partN`` files, or the unsplit name when
    only parts exist. The parts are read in order as one stream; no joined copy is
    written. Errors name the archive member and its line (``archive!member``).
    """
    for name, stream in iter_tar_members(path):
        source = f"{path}!{name}"
        inner = _member_stream(name, stream)
        for line_no, row in iter_json_lines(inner, source, skips, read_ahead=True):
            try:
                yield crag_row_to_question(row, with_html=with_html, dataset=dataset)
            except (ValueError, TypeError) as exc:
                handle_bad_row(DataError(str(exc), path=source, line=line_no), skips)
