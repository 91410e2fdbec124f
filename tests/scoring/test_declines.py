"""Replies that only decline, told from declines that point out a false premise."""

from __future__ import annotations

import pytest

from ragmeter.scoring.crag.declines import only_declines


@pytest.mark.parametrize(
    "reply",
    [
        "I could not find any information about Brad Pitt having a hidden pet rabbit.",
        "I could not find that Eric Till directed a Gatsby, so I cannot confirm that comparison.",
        "The documents do not say who the Denver Nuggets played on 11/01/2023.",
        "Sorry, I don't have a current price-to-earnings ratio for DiDi.",
        "I'm sorry, I couldn't find match reports for Girona, so I can't give you a goal total."
        " A site like ESPN should have the latest results.",
        "Hmm, I couldn't dig up who directed that special, sorry! The title page should list it.",
        "I couldn't find their results from last week, so I can't total the goals. \u26bd The"
        " league app will show the scores!",
    ],
)
def test_a_decline_that_denies_nothing_only_declines(reply: str) -> None:
    assert only_declines(reply)


@pytest.mark.parametrize(
    "reply",
    [
        "I couldn't find any animated film with both of them, so the answer appears to be zero.",
        "The sources do not mention a hidden pet rabbit; the premise appears to be incorrect.",
        "I couldn't find a Rayo match; there wasn't one.",
        # Facts first, then the decline: it says why.
        "DiDi was delisted from the NYSE, so I don't know its current P/E ratio.",
        # Two sentences: what follows is the judges' to read.
        "I'm not aware of any announced comedy starring him. His upcoming projects are sequels.",
        'I\'m not aware of him writing a song called "Christmas Tree." He has six albums.',
        "Paris is the capital.",
        "I couldn't find that film. It should have been released in 2019, but it never was.",
        # A clause of its own after the decline says what is so instead.
        "The context does not mention them ever changing their name; the band has performed"
        " as Fall Out Boy since forming in 2001.",
    ],
)
def test_a_decline_that_goes_on_or_denies_is_more(reply: str) -> None:
    assert not only_declines(reply)
