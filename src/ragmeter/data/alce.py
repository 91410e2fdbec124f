"""Trust-Score and ALCE attributed-QA files (ASQA, QAMPARI, ELI5, ExpertQA) as `Question`s.

A row holds ``question``, ``answers`` (a list of alias lists) and ``docs`` (each
with ``title``, ``text`` and, in Trust-Score files, ``answers_found`` and
``rec_score``). ALCE's own files carry the short answers in ``qa_pairs`` (ASQA)
or claims (ELI5) instead, plus fields such as ``answer``, ``sample_id`` or
``annotations``: those are kept in ``Question.extras``.

When a document has no ``answers_found`` and the answers are alias lists (not
claims), it is computed by normalised string presence and the passage says so
(``answers_found_computed``). ``rec_score`` is never invented.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ragmeter.data.jsonl import SkipLog, handle_bad_row, iter_json_records
from ragmeter.errors import DataError
from ragmeter.types import Passage, Question

DATASETS = ("asqa", "qampari", "eli5", "expertqa")
_DOC_FIELDS = {"title", "text", "answers_found", "rec_score"}
_ROW_FIELDS = {"question", "answers", "docs"}
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans("", "", string.punctuation)


def normalize_answer(text: str) -> str:
    """Lower-case, drop punctuation and English articles, collapse white space."""
    text = text.lower().translate(_PUNCT)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def answers_present(answers: list[list[str]], text: str) -> list[int]:
    """Per required answer, 1 when any of its aliases occurs in ``text`` (normalised), else 0."""
    norm = f" {normalize_answer(text)} "
    found = []
    for aliases in answers:
        hit = any(
            (n := normalize_answer(a)) and f" {n} " in norm for a in aliases if isinstance(a, str)
        )
        found.append(1 if hit else 0)
    return found


def dataset_of(path: str | Path) -> str:
    """The attributed-QA set a file belongs to, from its name (``alce`` when unclear)."""
    name = Path(path).name.lower()
    for d in DATASETS:
        if d in name:
            return d
    return "alce"


def _answers(row: dict[str, Any]) -> tuple[list[list[str]], bool]:
    """The required answers as alias lists, and whether they are short aliases (not claims)."""
    if "answers" in row and row["answers"] is not None:
        raw = row["answers"]
        if not isinstance(raw, list):
            raise ValueError(f"'answers' must be a list, got {type(raw).__name__}")
        out: list[list[str]] = []
        for a in raw:
            if isinstance(a, str):
                out.append([a])
            elif isinstance(a, list) and all(isinstance(x, str) for x in a):
                out.append(list(a))
            else:
                raise ValueError("each answer must be a string or a list of strings")
        return out, True
    if isinstance(row.get("qa_pairs"), list):
        out = []
        for pair in row["qa_pairs"]:
            shorts = pair.get("short_answers") if isinstance(pair, dict) else None
            if not isinstance(shorts, list):
                raise ValueError("each qa_pair must hold a 'short_answers' list")
            out.append([str(s) for s in shorts])
        return out, True
    if isinstance(row.get("claims"), list):
        return [[str(c)] for c in row["claims"]], False
    return [], False


def _passage(doc: Any, answers: list[list[str]], short: bool) -> tuple[Passage, dict[str, Any]]:
    if not isinstance(doc, dict):
        raise ValueError(f"a doc must be an object, got {type(doc).__name__}")
    title = doc.get("title") or ""
    text = doc.get("text") or ""
    if not isinstance(title, str) or not isinstance(text, str):
        raise ValueError("a doc's 'title' and 'text' must be strings")
    found = doc.get("answers_found")
    computed = False
    if found is not None:
        if not isinstance(found, list) or not all(isinstance(x, (int, bool)) for x in found):
            raise ValueError("'answers_found' must be a list of 0/1")
        if answers and len(found) != len(answers):
            raise ValueError(f"'answers_found' has {len(found)} entries for {len(answers)} answers")
        found = [int(x) for x in found]
    elif short and answers:
        found = answers_present(answers, text)
        computed = True
    rec = doc.get("rec_score")
    if rec is not None and not isinstance(rec, (int, float)):
        raise ValueError("'rec_score' must be a number")
    extra = {k: v for k, v in doc.items() if k not in _DOC_FIELDS}
    passage = Passage(
        title=title,
        text=text,
        answers_found=found,
        rec_score=float(rec) if rec is not None else None,
        answers_found_computed=computed,
    )
    return passage, extra


def alce_row_to_question(row: Any, index: int, dataset: str = "alce") -> Question:
    """Convert one parsed Trust-Score / ALCE row to a `Question`; raises ValueError if malformed."""
    if not isinstance(row, dict):
        raise ValueError(f"a row must be a JSON object, got {type(row).__name__}")
    query = row.get("question")
    if not isinstance(query, str):
        raise ValueError("missing required field: question (a string)")
    answers, short = _answers(row)
    docs = row.get("docs") or []
    if not isinstance(docs, list):
        raise ValueError("'docs' must be a list")
    passages: list[Passage] = []
    doc_extras: list[dict[str, Any]] = []
    for doc in docs:
        passage, extra = _passage(doc, answers, short)
        passages.append(passage)
        doc_extras.append(extra)
    extras = {k: v for k, v in row.items() if k not in _ROW_FIELDS}
    if any(doc_extras):
        extras["doc_extras"] = doc_extras
    qid = row.get("sample_id") or row.get("id") or f"{dataset}-{index}"
    return Question(
        id=str(qid),
        dataset=dataset,
        query=query,
        answers=answers,
        passages=passages,
        extras=extras,
    )


def read_alce(
    path: str | Path, dataset: str | None = None, skips: SkipLog | None = None
) -> Iterator[Question]:
    """Stream questions from a Trust-Score / ALCE file (JSON array or JSON Lines).

    An ALCE demonstration file (one object with ``demos``) yields its worked examples.
    """
    name = dataset or dataset_of(path)
    index = 0
    for line_no, row in iter_json_records(path, skips):
        rows = (
            row["demos"] if isinstance(row, dict) and isinstance(row.get("demos"), list) else [row]
        )
        for item in rows:
            try:
                yield alce_row_to_question(item, index, dataset=name)
            except (ValueError, TypeError) as exc:
                handle_bad_row(DataError(str(exc), path=path, line=line_no), skips)
            index += 1
