"""Replies that only decline, told from declines that point out a false premise."""

from __future__ import annotations

import pytest

from ragmeter.scoring.crag.declines import (
    answered_from_memory,
    asks_which_is_meant,
    names_what_is_asked,
    only_declines,
    opens_with_absence,
    speaks_only_of_itself,
    states_absence,
)
from ragmeter.scoring.refusal import is_refusal


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
        # What its sources lack is its decline again, no denial of the world's.
        "Can't tell from what I retrieved: no pages name an upcoming Vin Diesel action comedy.",
        "No grounded answer: none of the retrieved pages mention a novel by Chris Brown.",
        # An apology as a sentence of its own only excuses the decline.
        "Sorry. I cannot find the answer based on the context.",
        # What the sources hold instead, named by topic, is no word on the premise.
        "The documents don't include the name of a Kardashian game show; they only contain a"
        " comment thread and a newsletter sign-up form.",
        "The documents do not mention a fashion line by her. They cover her haircare brand.",
        # A visual reader's page images are its sources.
        "The images do not show Nantes' opponent for this week; they show the Ligue 1"
        " standings table and a cookie consent banner.",
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
        # What the sources say is so is a fact, not a topic.
        "The documents do not say that the Clippers won; they say the team never reached the"
        " Finals.",
        "The images do not show a P/E ratio for UZF; they show that it is a listing of notes.",
    ],
)
def test_a_decline_that_goes_on_or_denies_is_more(reply: str) -> None:
    assert not only_declines(reply)


FULHAM = "is fulham playing a premier league game today?"


@pytest.mark.parametrize(
    "reply",
    [
        # Phrasings the phrase list does not hold: the test below shows it.
        "Nothing in my retrieved sources settles it.",
        "The search came back without a supporting page, sorry.",
        "My references are silent on a Fulham game today, so no answer from me.",
        "Retrieved context insufficient; answer withheld.",
        "I can't verify a Premier League game for Fulham today.",
    ],
)
def test_a_reply_only_about_its_own_search_declines(reply: str) -> None:
    assert speaks_only_of_itself(FULHAM, reply)


@pytest.mark.parametrize(
    "reply",
    [
        "The answer is not in the knowledge base.",
        "The database returned no match.",
        # "director" is the question's "directed".
        "None of the retrieved web results mention the director.",
        "I lack the data to say.",
        "Sorry, nothing relevant turned up.",
        "No supporting sentence found.",  # an answer-sentence selector's
        # A pipeline's own words for stopping short of an answer.
        "No grounded answer: none of the retrieved pages mention the director.",
        "Agent stopped due to iteration limit or time limit.",
        "Query timed out; no answer.",
    ],
)
def test_a_reply_only_about_its_tools_declines(reply: str) -> None:
    assert speaks_only_of_itself("who directed the film inception?", reply)


def test_a_word_of_its_own_beside_the_questions_is_content() -> None:
    assert not speaks_only_of_itself("who directed the film inception?", "No director is credited.")


def test_the_declines_above_are_new_to_the_phrase_list() -> None:
    assert not is_refusal("Nothing in my retrieved sources settles it.")
    assert not is_refusal("Retrieved context insufficient; answer withheld.")


@pytest.mark.parametrize(
    "reply",
    [
        # A fact made of the question's words and a negation.
        "Fulham is not playing a Premier League game today.",
        "No.",
        "From what I can tell, no.",
        "No, the pages I found say Fulham plays tomorrow.",
        # A name or a figure the question lacks is content.
        "I can't confirm a game today; the pages I found show Sheffield United next.",
        "No source confirms it, but the match is on March 30.",
        # Doubt without a decline is for the hedge rules.
        "Sources confirm Fulham plays today.",
        # A count of the question's thing is an answer, in words or figures.
        "The total number of Premier League games Fulham plays today is 1.",
        "",
    ],
)
def test_a_reply_with_content_of_its_own_is_no_bare_decline(reply: str) -> None:
    assert not speaks_only_of_itself(FULHAM, reply)


def test_a_decline_may_name_what_is_asked() -> None:
    assert names_what_is_asked(FULHAM, "I found no Fulham game.")
    assert not names_what_is_asked(FULHAM, "No supporting passage found.")


@pytest.mark.parametrize(
    ("reply", "asks"),
    [
        ("Do you mean the 2023 remake or the 1998 original?", True),
        ('Which "Save Me" do you mean - the Queen song or the BTS single?', True),
        ("Could you clarify which season you mean?", True),
        ("Which artist are you asking about? Several have a song by that name.", True),
        # An answer first, or a statement with a question after it, answers.
        ("Reservation Dogs. Do you mean season 3?", False),
        ("It doesn't look like they played yesterday; did you mean their last match?", False),
        ("Which one is older? Paris, by far.", False),
    ],
)
def test_a_reply_that_opens_by_asking_back(reply: str, asks: bool) -> None:
    assert asks_which_is_meant(reply) is asks


def test_an_answer_from_memory_is_read_without_the_decline_before_it() -> None:
    said = (
        "The context does not directly mention his birth date; based on general knowledge, "
        "he was born in 1948."
    )
    assert answered_from_memory(said) == "he was born in 1948."
    silent = "The context does not mention the store count, but from general knowledge, about 30."
    assert answered_from_memory(silent) == "about 30."
    # A decline with no answer after it stays a decline.
    assert answered_from_memory("The context does not say.") == "The context does not say."


@pytest.mark.parametrize(
    ("reply", "absent"),
    [
        ("BLUF: We are unable to assess X; available reporting does not address it.", True),
        ("[Search(a b)] [Search(c)] Neither search turned up the number.", True),
        ("status: NOT_FOUND", True),
        ("Empty DataFrame\nColumns: [ticker, volume]\nIndex: []", True),
        ("ReadTimeout: timed out", True),
        ("I couldn\u2019t find that in the provided pages.", True),
        # What the sources hold, said in place of the fact asked.
        ("Context: The text covers the cast of the film and its release by October Films.", True),
        # An answer first, whatever its later sentences deny.
        ("It is Away. Sources do not always agree, so I compared them.", False),
        ("Allt, and I'm sure of it.", False),
        ("The Nets played the 76ers.\nNo later game is listed.", False),
    ],
)
def test_a_decline_says_up_front_that_something_is_missing(reply: str, absent: bool) -> None:
    assert opens_with_absence(reply) is absent


@pytest.mark.parametrize(
    ("reply", "absent"),
    [
        ('"answer": null,\n  "caveat": "no document gives the 2022 attendance"\n}', True),
        (
            "Here is my thought process:\nDocument 1 covers 2021.\n\nHere is my response:\n"
            "I'm sorry, but the documents don't say.",
            True,
        ),
        ("It is Away. Sources do not always agree, so I compared them.", True),
        ("It is Away, as every source agrees.", False),
        ("The Nets played the 76ers on March 3.", False),
    ],
)
def test_a_decline_may_say_later_that_something_is_missing(reply: str, absent: bool) -> None:
    assert states_absence(reply) is absent


@pytest.mark.parametrize(
    ("reply", "read"),
    [
        ("I couldn't find this in the documents, but it is Walmart.", "it is Walmart."),
        ("The sources do not state it; the answer is A, B, C, D, E and F.",
         "the answer is A, B, C, D, E and F."),
        ("Not stated in the retrieved pages. From memory: Real Madrid.", "Real Madrid."),
        # Context after a decline, a remark, and a yes/no answer's own "No" stay as they are.
        ("No reliable current figure for BURU. It's a micro-cap, likely well under $20M in cap.",
         None),
        ("I couldn't find any record of her. It's possible the name is spelled differently.",
         None),
        ("No, it's an American film (English)", None),
    ],
)  # fmt: skip
def test_a_short_answer_after_a_decline_is_what_the_reply_gives(
    reply: str, read: str | None
) -> None:
    assert answered_from_memory(reply) == (read or reply)
