"""CRAG task 1&2 rows (every release) as `Question` records.

Releases differ: v3/v4 name alternative answers ``alternative_answers`` and
store them as a JSON string; later ones name them ``alt_ans`` and store a list.
v5 adds ``popularity``. Answers such as "nan" are kept exactly as given.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from ragmeter.data.jsonl import iter_json_lines, open_binary
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


def _alternatives(row: dict[str, Any]) -> list[str]:
    if "alt_ans" in row and row["alt_ans"] is not None:
        alts = row["alt_ans"]
    elif "alternative_answers" in row and row["alternative_answers"] is not None:
        alts = row["alternative_answers"]
        if isinstance(alts, str):
            alts = orjson.loads(alts) if alts.strip() else []
    else:
        alts = []
    if not isinstance(alts, list):
        raise ValueError(f"alternative answers must be a list, got {type(alts).__name__}")
    return [str(a) for a in alts]


def _page(result: dict[str, Any], with_html: bool) -> WebPage:
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


def crag_row_to_question(row: Any, with_html: bool = True, dataset: str = "crag") -> Question:
    """Convert one parsed CRAG row to a `Question`; raises ValueError on a malformed row."""
    if not isinstance(row, dict):
        raise ValueError(f"a row must be a JSON object, got {type(row).__name__}")
    missing = [f for f in REQUIRED_FIELDS if f not in row]
    if missing:
        raise ValueError(f"missing required field(s): {', '.join(missing)}")
    answer = row["answer"]
    if not isinstance(answer, str):
        raise ValueError(f"'answer' must be a string, got {type(answer).__name__}")
    query = row["query"]
    if not isinstance(query, str):
        raise ValueError(f"'query' must be a string, got {type(query).__name__}")
    results = row.get("search_results") or []
    if not isinstance(results, list):
        raise ValueError("'search_results' must be a list")
    pages = [_page(r, with_html) for r in results]
    popularity = row.get("popularity")
    labels = Labels(
        domain=row.get("domain"),
        question_type=row.get("question_type"),
        static_or_dynamic=row.get("static_or_dynamic"),
        popularity=popularity or None,
        split=row.get("split"),
        answer_type=answer_type_of(answer),
    )
    return Question(
        id=str(row["interaction_id"]),
        dataset=dataset,
        query=query,
        query_time=row.get("query_time"),
        answers=[[answer, *_alternatives(row)]],
        labels=labels,
        pages=pages,
    )


def read_crag(
    path: str | Path, with_html: bool = True, dataset: str = "crag"
) -> Iterator[Question]:
    """Stream CRAG task 1&2 rows from a ``.jsonl`` (optionally compressed) file.

    Memory stays flat: one row is parsed at a time. With ``with_html=False``
    page HTML is dropped right after parsing, keeping only its size.
    """
    with open_binary(path) as stream:
        for line_no, row in iter_json_lines(stream, path):
            try:
                yield crag_row_to_question(row, with_html=with_html, dataset=dataset)
            except (ValueError, TypeError) as exc:
                raise DataError(str(exc), path=path, line=line_no) from None
