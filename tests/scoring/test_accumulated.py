"""LlamaIndex's ``accumulate`` replies: one response per chunk, declines set aside."""

from __future__ import annotations

import pytest
from test_crag_scorer import rules_label

from ragmeter.scoring.crag.accumulated import accumulated_answers
from ragmeter.scoring.crag.scorer import CragScorer
from ragmeter.scoring.crag.truncate import Truncator

_LINE = "\n---------------------\n"


def test_the_answering_responses_are_kept_and_the_declines_set_aside() -> None:
    reply = _LINE.join(
        [
            "Response 1: Parkland was written and directed by Peter Landesman.",
            "Response 2: The context does not provide information about the director.",
            "Response 3: The context says it premiered in 2013, but it does not say who "
            "directed it.",
            "Response 4: Empty Response",
        ]
    )
    assert accumulated_answers(reply) == ["Parkland was written and directed by Peter Landesman."]
    # Cut after a hyphen line, or inside the next label.
    assert accumulated_answers("Response 1: Peter Landesman." + _LINE + "Resp") == [
        "Peter Landesman."
    ]
    assert accumulated_answers("Peter Landesman directed it.") is None


@pytest.fixture(scope="module")
def scorer(truncator: Truncator) -> CragScorer:
    return CragScorer([], truncator=truncator)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Response 1: Peter Landesman." + _LINE + "Response 2: The context does not provide "
         "information about the director of Parkland.", "correct"),
        ("Response 1: The context does not provide information about the director." + _LINE
         + "Response 2: The context does not mention who directed it.", "missing"),
    ],
)  # fmt: skip
def test_an_accumulated_reply_declines_only_when_no_response_answers(
    scorer: CragScorer, reply: str, expected: str
) -> None:
    assert rules_label(scorer, "peter landesman", reply, "who directed parkland?")[0] == expected
