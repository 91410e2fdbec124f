"""The diagnosis categories: one per scored question, from its label and three signals."""

from __future__ import annotations

from typing import Literal

from ragmeter.types import Label

Category = Literal[
    "correct_grounded",
    "correct_unsupported",
    "generation_error",
    "retrieval_miss",
    "should_have_abstained",
    "false_premise_accepted",
    "over_cautious",
    "right_to_abstain",
]

CATEGORIES: dict[Category, str] = {
    "correct_grounded": "correct, and supported by the evidence it used",
    "correct_unsupported": "correct, but not supported by the evidence it used",
    "generation_error": "wrong, although the evidence it used held the answer",
    "retrieval_miss": "wrong; the answer was in the pages, not in the evidence it used",
    "should_have_abstained": "wrong, and the pages did not hold the answer",
    "false_premise_accepted": "answered a false-premise question as if the premise held",
    "over_cautious": "no answer, although the evidence it used held the answer",
    "right_to_abstain": "no answer, and the evidence it used did not hold one",
}
"""Every category with what it means, in the order reports show them."""

SCORE_OF_LABEL = {"correct": 1, "incorrect": -1, "missing": 0}


def categorize(
    label: Label,
    *,
    false_premise: bool,
    answer_in_evidence: bool | None,
    answer_in_pages: bool | None,
    supported: bool | None,
) -> Category:
    """The category of a scored question.

    Unknown signals (None: an answer text cannot attest, such as yes/no, or no pages)
    count as "not found" / "not supported", so a question is never credited with
    evidence nobody saw. A false-premise question rightly rejected needs no span of
    evidence: it counts as grounded.
    """
    if label == "unscored":
        raise ValueError("unscored questions have no diagnosis")
    if label == "correct":
        if false_premise or supported:
            return "correct_grounded"
        return "correct_unsupported"
    if label == "incorrect":
        if false_premise:
            return "false_premise_accepted"
        if answer_in_evidence:
            return "generation_error"
        if answer_in_pages:
            return "retrieval_miss"
        return "should_have_abstained"
    if answer_in_evidence and not false_premise:
        return "over_cautious"
    return "right_to_abstain"
