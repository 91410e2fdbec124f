"""Conclusions the 75-token cut falls before."""

from __future__ import annotations

import pytest

from ragmeter.scoring.crag.unfinished import (
    answer_line_begun,
    conclusion_cut_off,
    notes_cut_off,
    quotes_cut_off,
    steps_cut_off,
    stops_at_lead_in,
)


@pytest.mark.parametrize(
    "cut",
    [
        "MGM ~$8.45B, One Medical ~$3.9B. That makes an average of",
        "it had reached roughly $2.1 trillion, a gain of about",
        "Two films a year for six years, so the total is",
        "$191.8M + $162.8M + $245.9M = $",
    ],
)
def test_an_open_conclusion_is_cut_off(cut: str) -> None:
    assert conclusion_cut_off(cut)


@pytest.mark.parametrize(
    "cut",
    [
        "It won 11. So the answer is 11.",
        "Market cap moves with the share price every day, so",  # a bare "so" follows answers
        "Rhode Island covers 1,545 square miles, which makes it the second most",
        "The total is $5",
        "That gives a trailing P/E of roughly 105-110. Answer:",  # the working gave it
        "",
    ],
)
def test_a_finished_or_other_ending_is_not(cut: str) -> None:
    assert not conclusion_cut_off(cut)


SELF_ASK = (
    "Are follow up questions needed here: Yes.\n"
    "Follow up: Who performed it at Woodstock?\n"
    "Intermediate answer: Jimi Hendrix.\n"
)


def test_a_chain_of_follow_ups_cut_before_its_final_answer() -> None:
    assert steps_cut_off(SELF_ASK + "Follow up: When was he born?\nInter")
    assert steps_cut_off(SELF_ASK + "So the final answer is")
    assert not steps_cut_off(SELF_ASK + "So the final answer is: Jimi Hendrix.")
    assert not steps_cut_off("Step 1: Apple went public in 1980. Step 2:")  # no follow-ups


def test_a_reply_stopped_at_its_lead_in() -> None:
    assert stops_at_lead_in("The founding members of Pale Antler were:")
    assert stops_at_lead_in("To find the total, we need to add the quarterly dividends:")
    assert not stops_at_lead_in("The members are:\n- Jeff Mangum")
    assert not stops_at_lead_in("Answer: 1887")


def test_reading_notes_cut_before_their_answer_line() -> None:
    notes = "Note 1: The 73rd Academy Awards gave Best Visual Effects to Gladiator.\nNote 2: Not"
    assert notes_cut_off(notes)
    assert not notes_cut_off(notes + " relevant.\nNote 3: Same.\nAnswer: Gladiator")
    assert not notes_cut_off(notes + "\nAnswer (from background knowledge): 1887")
    assert not notes_cut_off("Gladiator won it. Note: the ceremony was in 2001.")
    evidence = "Evidence (newest first):\n- [2024-02] doc 1 (quote page): FHTX 6.41\n- [2024"
    assert notes_cut_off(evidence)
    assert not notes_cut_off(evidence + "-01] doc 4: news\nAnswer: It last traded at $6.41.")
    assert not notes_cut_off("Evidence: it rained all week.")


def test_notes_cut_a_few_words_into_their_answer_line() -> None:
    notes = (
        "Evidence (newest first):\n- [undated] doc 1 (film database): Director: Steven Spielberg"
    )
    assert answer_line_begun(notes + "\nAnswer: Jurassic Park was directed")
    assert answer_line_begun(notes + "\nAnswer: Expedia (")
    # A clause of the reply ended, or no reply began: the cut is read as it stands.
    assert not answer_line_begun(notes + "\nAnswer: Steven Spielberg, in 1993, from a novel")
    assert not answer_line_begun(notes + "\nAnswer:")
    assert not answer_line_begun("Answer: Jurassic Park was directed")


def test_a_raft_reasoning_cut_among_its_quotes() -> None:
    quoted = "To find it, we look in the context: ##begin_quote## Close 310.62 Feb 27 ##end_quote##"
    assert quotes_cut_off(quoted)
    assert not quotes_cut_off(quoted + " So.\n\n<ANSWER>: $310.62")
    # An answer from memory is said in its own words, and read as any.
    assert not quotes_cut_off(quoted + " but based on general knowledge, it closed at 322.90")
    assert not quotes_cut_off("To find it, we look in the context.")
