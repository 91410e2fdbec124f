"""Replies laid out as a Toulmin argument: "Data:", "Warrant:", "Rebuttal:", "Qualifier:",
"Claim:" lines, often cut before the claim."""

from __future__ import annotations

import pytest
from test_crag_scorer import rules_label

from ragmeter.scoring.crag.scorer import CragScorer
from ragmeter.scoring.crag.toulmin import ToulminArgument, read_toulmin
from ragmeter.scoring.crag.truncate import Truncator


@pytest.fixture(scope="module")
def scorer(truncator: Truncator) -> CragScorer:
    return CragScorer([], truncator=truncator)


def _argument(data: str, qualifier: str = "certainly", claim: str = "") -> str:
    lines = [
        f"Data: {data}",
        "Warrant: A quote page's close field records the last session's closing price.",
        "Rebuttal: None in the documents.",
        f"Qualifier: {qualifier}",
    ]
    return "\n".join([*lines, f"Claim: {claim}"] if claim else lines)


def test_the_claim_is_the_answer_and_the_qualifier_its_certainty() -> None:
    whole = _argument("Document 1 lists the close as $24.24.", claim="It closed at $24.24.")
    assert read_toulmin(whole, cut_off=False) == ToulminArgument("It closed at $24.24.", "", "")
    doubted = _argument("Document 1 lists $24.24.", "very likely", "It closed at $24.24.")
    assert read_toulmin(doubted, cut_off=False) == ToulminArgument(
        "It closed at $24.24.", "", "very likely"
    )
    undetermined = _argument("Document 1 gives the 52-week range.", "not determinable", "N/A")
    assert read_toulmin(undetermined, cut_off=False) == ToulminArgument(
        "", "Document 1 gives the 52-week range.", ""
    )


def test_cut_before_the_claim_the_data_is_what_the_text_states() -> None:
    cut = "Data: Document 1, a quote page, lists BEPC's previous close as $25.61.\nWarrant: A"
    assert read_toulmin(cut, cut_off=True) == ToulminArgument(
        "Document 1, a quote page, lists BEPC's previous close as $25.61.", "", ""
    )
    # The cut fell inside the next label, or in the claim's first words.
    assert read_toulmin("Data: Document 1 lists $25.61.\nQual", cut_off=True) is not None
    part_way = _argument("Document 1 lists $25.61.", claim="It closed at")
    assert read_toulmin(part_way, cut_off=True) == ToulminArgument(
        "Document 1 lists $25.61. It closed at", "", ""
    )


def test_other_text_is_no_argument() -> None:
    assert read_toulmin("Data: $25.61", cut_off=False) is None
    assert read_toulmin("Claim: X\nData: Y", cut_off=False) is None
    assert read_toulmin("Data: Y\nAnswer: X", cut_off=False) is None
    assert read_toulmin("Data: Y\nData: Z", cut_off=False) is None
    assert read_toulmin("The data: Y\nClaim: X", cut_off=False) is None
    assert read_toulmin("Dat", cut_off=True) is None  # no labelled line before the cut


@pytest.mark.parametrize(
    ("gold", "reply", "expected"),
    [
        # The claim, stood by and doubted.
        ("$24.24", _argument("Document 1 lists $24.24.", claim="It closed at $24.24."), "correct"),
        ("$24.24", _argument("Document 1 lists $24.24.", "possibly", "$24.24."), "incorrect"),
        # Cut before the claim: the figure the data reports, right or wrong.
        ("$24.24", "Data: Document 1, a quote page, lists the close as $24.24.\nWarr", "correct"),
        ("$24.24", "Data: Document 1, a quote page, lists the close as $25.61.\nWarr", "incorrect"),
        # Data saying what the documents lack declines, whatever figures it names first.
        (
            "$2.66",
            "Data: Document 1 gives KNDI's latest price and 52-week range, and Document 3 covers "
            "its quarterly results, but none gives daily opening prices for last week.\n"
            "Warrant: A claim needs a source that states it.\nRebuttal: Not",
            "missing",
        ),
        (
            "$2,724,500",
            "Data: Document 2 covers his two bouts in 2022 and 2023, but no document gives his "
            "purse for either fight.\nWarrant: A claim",
            "missing",
        ),
        ("$7.16", _argument("Document 3 gives the previous close.", "not determinable"), "missing"),
    ],
)
def test_toulmin_replies_are_scored_by_what_they_argue(
    scorer: CragScorer, gold: str, reply: str, expected: str
) -> None:
    assert rules_label(scorer, gold, reply, "what was the price?")[0] == expected
