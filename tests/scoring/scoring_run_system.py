"""A user system for the run-folder scoring test, loaded by file path as a user's code is."""

from __future__ import annotations

from ragmeter.types import Question


def gold_in_sentence(q: Question) -> str:
    """The gold answer inside a sentence: rules leave it to a judge."""
    return f"The answer is {q.answer}."
