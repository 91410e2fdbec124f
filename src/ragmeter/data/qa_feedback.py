"""qa-feedback (ASQA answers with human feedback) as `Question` records, all six file kinds.

- ``train``, ``train_1k``, ``dev``, ``test``: ``question``, ``answer`` (a list of long
  reference answers, taken as aliases of one required answer), ``passages``
  (``wikipage`` + ``content``) and ``text`` (the model input, kept in extras).
- ``train_feedback``, ``dev_feedback``: ``question``, ``passages`` as
  ``[title, sentence, ...]``, ``gold``, ``prediction 1`` … ``prediction 4``, human
  ``feedback`` on prediction 1 (error spans with character offsets, missing-info
  marks, a corrected prediction) and six pairwise ``preference`` values.

Rows have no id; the id is ``<kind>-<position in file>`` (0-based), stable for the
official files and their prefixes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ragmeter.data.jsonl import SkipLog, handle_bad_row, iter_json_records
from ragmeter.errors import DataError
from ragmeter.types import ErrorSpan, Labels, MissingInfo, Passage, QAFeedback, Question

KINDS = ("train_feedback", "dev_feedback", "train_1k", "train", "dev", "test")
_KIND = re.compile(r"(?<![a-z])(" + "|".join(KINDS) + r")(?![a-z0-9])")


def kind_of(path: str | Path) -> str | None:
    """The qa-feedback file kind from a file name (``train_1k``, ``dev_feedback``…), or None."""
    m = _KIND.search(Path(path).name.lower())
    return m.group(1) if m else None


def is_feedback_row(row: Any) -> bool:
    """True for a row of a ``*_feedback`` file."""
    return isinstance(row, dict) and "prediction 1" in row and "feedback" in row


def is_plain_row(row: Any) -> bool:
    """True for a row of a ``train``/``dev``/``test`` qa-feedback file."""
    if not isinstance(row, dict) or not {"question", "answer", "passages"} <= row.keys():
        return False
    passages = row["passages"]
    return isinstance(passages, list) and all(
        isinstance(p, dict) and "wikipage" in p for p in passages
    )


def _str(row: dict[str, Any], field: str) -> str:
    value = row.get(field)
    if not isinstance(value, str):
        raise ValueError(f"missing required field: {field} (a string)")
    return value


def _plain(row: dict[str, Any], qid: str, kind: str | None) -> Question:
    answers = row["answer"]
    if isinstance(answers, str):
        answers = [answers]
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        raise ValueError("'answer' must be a list of strings")
    passages = []
    for p in row["passages"]:
        content, title = p.get("content", ""), p.get("wikipage", "")
        if not isinstance(content, str) or not isinstance(title, str):
            raise ValueError("a passage's 'content' and 'wikipage' must be strings")
        passages.append(Passage(title=title, text=content))
    extras = {k: v for k, v in row.items() if k not in ("question", "answer", "passages")}
    return Question(
        id=qid,
        dataset="qa_feedback",
        query=_str(row, "question"),
        answers=[answers] if answers else [],
        labels=Labels(split=kind),
        passages=passages,
        extras=extras,
    )


def _int_list(value: Any, field: str) -> list[int]:
    if isinstance(value, int):
        return [value]
    if not isinstance(value, list) or not all(isinstance(x, int) for x in value):
        raise ValueError(f"'{field}' must be an integer or a list of integers")
    return list(value)


def _feedback(row: dict[str, Any], qid: str, kind: str | None) -> Question:
    passages: list[Passage] = []
    sentences: list[list[str]] = []
    for p in row.get("passages") or []:
        if not isinstance(p, list) or not p or not all(isinstance(x, str) for x in p):
            raise ValueError("a passage must be a list [title, sentence, ...] of strings")
        passages.append(Passage(title=p[0], text=" ".join(p[1:])))
        sentences.append(list(p[1:]))
    predictions = []
    n = 1
    while f"prediction {n}" in row:
        predictions.append(_str(row, f"prediction {n}"))
        n += 1
    fb = row["feedback"]
    if not isinstance(fb, dict):
        raise ValueError("'feedback' must be an object")
    spans = []
    for e in fb.get("errors") or []:
        if not isinstance(e, dict) or not {"error type", "start", "end"} <= e.keys():
            raise ValueError("an error span needs 'error type', 'start' and 'end'")
        start, end = e["start"], e["end"]
        if not isinstance(start, int) or not isinstance(end, int) or not 0 <= start <= end:
            raise ValueError(f"an error span needs 0 <= start <= end, got {start!r}..{end!r}")
        spans.append(
            ErrorSpan(
                error_type=str(e["error type"]),
                start=start,
                end=end,
                explanation=str(e.get("explanation") or ""),
            )
        )
    missing = []
    for m in fb.get("missing-info") or []:
        if not isinstance(m, dict):
            raise ValueError("a missing-info mark must be an object")
        ids = _int_list(m["sentence_id"], "sentence_id") if "sentence_id" in m else []
        pid = m.get("passage_id")
        if pid is not None and not isinstance(pid, int):
            raise ValueError("'passage_id' must be an integer")
        missing.append(
            MissingInfo(
                error_type=str(m.get("error type") or ""),
                passage_id=pid,
                sentence_id=ids[0] if len(ids) == 1 else None,
                sentence_ids=ids,
                explanation=str(m.get("explanation") or ""),
            )
        )
    corrected = fb.get("corrected-prediction")
    if corrected is not None and not isinstance(corrected, str):
        raise ValueError("'corrected-prediction' must be a string")
    preferences = _int_list(row.get("preference") or [], "preference")
    if preferences and (len(preferences) != 6 or any(p not in (0, 1, 2) for p in preferences)):
        raise ValueError("'preference' must hold six values among 0, 1, 2")
    gold = _str(row, "gold")
    known = {"question", "passages", "gold", "feedback", "preference"}
    extras: dict[str, Any] = {
        k: v for k, v in row.items() if k not in known and not k.startswith("prediction ")
    }
    extras["passage_sentences"] = sentences
    return Question(
        id=qid,
        dataset="qa_feedback",
        query=_str(row, "question"),
        answers=[[gold]],
        labels=Labels(split=kind),
        passages=passages,
        feedback=QAFeedback(
            predictions=predictions,
            error_spans=spans,
            missing_info=missing,
            corrected_prediction=corrected,
            preferences=preferences,
        ),
        extras=extras,
    )


def qa_feedback_row_to_question(row: Any, index: int, kind: str | None = None) -> Question:
    """Convert one parsed qa-feedback row (any kind) to a `Question`; ValueError if malformed."""
    qid = f"{kind or 'qa_feedback'}-{index}"
    if is_feedback_row(row):
        return _feedback(row, qid, kind)
    if is_plain_row(row):
        return _plain(row, qid, kind)
    if not isinstance(row, dict):
        raise ValueError(f"a row must be a JSON object, got {type(row).__name__}")
    raise ValueError(
        "not a qa-feedback row: expected 'question', 'answer', 'passages' "
        "or 'question', 'gold', 'prediction 1', 'feedback'"
    )


def read_qa_feedback(
    path: str | Path, kind: str | None = None, skips: SkipLog | None = None
) -> Iterator[Question]:
    """Stream questions from a qa-feedback file of any kind (the kind comes from its name)."""
    name = kind or kind_of(path)
    for index, (line_no, row) in enumerate(iter_json_records(path, skips)):
        try:
            yield qa_feedback_row_to_question(row, index, name)
        except (ValueError, TypeError, KeyError) as exc:
            handle_bad_row(DataError(str(exc), path=path, line=line_no), skips)
