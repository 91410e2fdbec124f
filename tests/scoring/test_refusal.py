"""The refusal detector on real phrasings, hedged answers, and the phrase file format."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragmeter.errors import DataError
from ragmeter.scoring.phrases import PhraseSet
from ragmeter.scoring.refusal import (
    RefusalDetector,
    covers_only_topics,
    default_detector,
    is_refusal,
    match_refusal,
    refusal_phrase,
)

REFUSALS = [
    "TextAsk: Sorry, no answer found. Try other words, or text HELP.",
    "I don't see anything about LNC's first dividend in the documents provided.",
    "Not answerable from the documents.",
    # A refine step's remark that its earlier draft stands, with no draft left in the reply.
    "The original answer remains relevant and accurate.",
    # An active-retrieval model's report that its lookups found nothing.
    "Neither search turned up the director of Live in Paris.",
    "The searches didn't turn up a 2022 attendance figure.",
    # Vendors' fixed declines: a knowledge-base service's and an index's empty retrieval.
    "Sorry, I am unable to assist you with this request.",
    "Empty Response",
    "Not in retrieved pages (only the Feb 27 close).",
    "The answer you are looking for is not found in the knowledge base!",
    "A summary could not be generated for your search query. Here are some search results.",
    "No results could be found. Try rephrasing the search query.",
    "UPDATE CONTEXT",
    "[no text returned: RECITATION]",
    "NOT ENOUGH INFO",
    "No source states how many goals Rennes scored in their last Ligue 1 match.",
    # What the sources mention instead, beside the decline, is no answer offered.
    "The context does not give a total, but it mentions examples such as Russian Ark.",
    "Not stated — the pages cover the club's history but not its founding date.",
    # An apology before "but" is no answer the decline qualifies.
    "I apologize, but I couldn't find any information about the director in the documents.",
    "I'm so sorry but I can't find it.",
    "I don't know",
    "i don’t know.",
    "I DO NOT KNOW!",
    "I'm not sure.",
    "I am not sure about that.",
    "I cannot find any information about this.",
    "Sorry, I couldn't find any information on the 2024 release.",
    "I couldn't see today's chart in what I searched.",
    "Sources are silent on this.",
    "Agent stopped due to iteration limit or time limit.",
    "No grounded answer: none of the retrieved pages mention a novel by him.",
    "No clear answer found.",
    "Not stated.",
    "0 results",
    "No answer is available.",
    "There is not enough information to answer.",
    "The provided references do not contain any information about his height.",
    "Based on the documents, the answer cannot be determined.",
    "I'm unable to answer that question.",
    "I do not have real-time data about stock prices.",
    "Unknown",
    "N/A",
    "not sure",
    "I don't know the answer, you could check the league website.",
    "I don't have a current quote for NBSTW; check a live finance source.",
    "I don't have that data; check the historical prices on a finance site.",
    "It was preseason. I couldn't confirm the opponent that night.",
    "The provided sources do not contain this information.",
    "The context doesn't provide the release date.",
    "Not sure - what I found doesn't settle this.",
    "I'm sorry, I don't have this week's intraday data for TBMC, so I can't average it.",
    "I don't have yesterday's closing price for ATXG; your broker will have it.",
    "No data found.",
    "I'm not aware of any other title.",  # nothing before it: it answers nothing
    "I'm not familiar with a movie called Prelude 31; which film do you mean?",
    "I can't reliably name such a company; proxy statements list board meetings.",
    "The documents do not give BEPC's closing price for 27/02/2024.",
    "My searches didn't turn up a reliable count of 1994 family films.",
    "No reliable result for KRKR's trading volume on the last trading day.",
    "The documents don't say how many mystery films were released in 2020.",
    "I couldn't reliably confirm the score of their last match; check the league's site.",
    "It pays monthly, so there were twelve; I can't list the exact dates reliably.",
    "null",
    "No results.",
    # Sources said to be silent, in combinations no phrase lists.
    "The provided context does not clearly state who was the first actress to play one.",
    "The provided context does not identify which Nasdaq 100 company has the highest ROE.",
    "The retrieved pages don't name the director.",
    # Saying it cannot do what was asked, or has no data for it, guessing nothing.
    "I don't have closing-price data for UPST for February 27, so I can't give the figure.",
    "This needs intraday data I don't have. I can't tell you which Dow stock did best.",
    "I can't compute the average daily high without those prices.",
    # A chatty product's ways of saying it: "pull up", "dig up", "... handy", "..., sorry!".
    "Sorry, I can't pull up a live quote for that ticker right now! Try the Markets tab.",
    "Hmm, I couldn't dig up who directed that special, sorry!",
    "I don't have the club's latest fixture date handy. The Sports tab will show it!",
    "I don't have the sector's total payout for last year, sorry!",
    # A report's ways: "get" a figure, "today's opening print".
    "I couldn't get a reliable quote for GDTC for today. Please check Nasdaq.",
    "I don't have today's opening print.",
    # A grounded model's ways: its "references" are silent, or the figure is not available.
    "According to the sources, the director is not listed; the references do not name one.",
    "According to the sources, today's opening price for WIRE is not available.",
    "There is no closing price available for SFWL for the most recent Friday.",
    "The data for that day is unavailable.",
    "n/a – the UFC doesn't publicly disclose fighter pay for those bouts.",
    "Unclear. The retrieved reports cover its February fixtures but not its last game.",
    "No data. The retrieved pages show only the latest quote, not daily volumes.",
    "I don't have CEL-SCI's (CVM) opening price for last Friday.",
    "I don't see a Thunder game on October 13, 2022 in the provided records.",
    # What was asked said to be beyond reach, in the passive.
    "The purses were not disclosed, so his average earnings can't be determined.",
    # A knowledge-graph lookup that found nothing, in a database's words.
    "no result",
    "lookup failed",
    "No results found.",
    "no candidate above threshold",
    # A date or a volume said to be missing, after a one-word opener.
    "Honestly, I don't have the date of Barrick's first dividend payment.",
    "Honestly, I don't have the volume for CCLDO on the last trading day.",
    "no result (juan_gris died: 1927-05-11; wolf_vostell born: 1932-10-14)",
    # A search that came back empty; pages that do not settle it, and no guess.
    "No supporting passage found.",
    "No relevant documents were retrieved for this question.",
    "The retrieved pages don't settle this, so I won't guess.",
    # Sources said, each of them, to be silent.
    "None of the sources I retrieved give a date of birth for Lloyd A. Simandl.",
    "None of the documents mention the 2024 capacity.",
    "Not in the pages. None of the five pages give box office figures for *Abscond*.",
    # What the sources hold instead, named as not being what was asked.
    "None of the five pages give a technology-sector total for 2022. The nearest is global "
    "venture funding of about $445 billion across all sectors (`pages/2.html:1`).",
    "Not in the pages. `pages/3.html:214` gives only global M&A of about $2.5 trillion.",
    "None of the pages mention a premiere date; `pages/1.html:1` gives only the year, 2001.",
    "The provided text only gives the previous close, $13.46.",
    # The question's own year, denied after "but", is no answer.
    "I can't confirm that; the pages I found mention a 1998 album but list no 2001 release.",
]

ANSWERS = [
    "Paris",
    "The Beatles released it in 1969.",
    "unknown pleasures",  # a title containing a whole-only word
    "null and void",  # whole-only words inside a longer answer
    "Yes. It kept that title; I couldn't find a different original one.",  # a verdict first
    "None: I couldn't find any animated film from those years with both of them.",
    "My searches turned up Paris.",
    # The nearest thing named with no decline, or after an answer, is no decline.
    "The closest example is Alaska's Permanent Fund Dividend.",
    "It was 2001. The nearest rival film came out in 2002.",
    "It only has three seasons.",
    # Not knowing of another, after the answer, says there is none.
    "The Ant Bully was released under its original title. I'm not aware of a different one.",
    "Not found in stores until 2019; it was released online in 2018.",
    # Silent sources after an answer, about another one: there is none.
    "Dead Innocent was released under that title, and my sources don't show an earlier one.",
    "It was released as Level 16, and none of the sources I retrieved mention an earlier title.",
    "He does not say it in the interview; he sings it.",  # a person, not the sources
    "Not Sure If It's Love is a song by the band",  # a title, not a refusal
    "I'm not sure, but I think it is 42.",
    # A rough figure beside "I can't give the exact one" is a guess for the rules to judge.
    "I don't have exact data; it typically trades about 2-4 million shares a day.",
    "I can't give live returns, but Boeing has likely done worst.",
    "I don't have the newest quote handy; it was trading around $35 last week.",
    "42, but I'm not sure.",
    "Firestarter was the first, though the context does not state this directly.",
    # What the sources are said to suggest or mention, after the decline, is offered anyway.
    "The context does not explicitly state a count, but it suggests that Streep has more.",
    "I don't know exactly, but it was probably around 1990.",
    "I won't guess the exact figure, but it's about 40.",
    "I can't confirm that, but it is not 2001; it was 1999.",
    # Availability of a thing, not of the data asked for.
    "The iPhone 15 is not available in India.",
    "No price data is available for today, but it closed at $230 yesterday.",
    "invalid question",
    "",
    "   ",
]


@pytest.mark.parametrize("text", REFUSALS)
def test_refusals(text: str) -> None:
    assert is_refusal(text), text
    assert refusal_phrase(text)


@pytest.mark.parametrize("text", ANSWERS)
def test_answers(text: str) -> None:
    assert not is_refusal(text), (text, refusal_phrase(text))


def test_match_reports_whole() -> None:
    m = match_refusal("Unknown.")
    assert m is not None and m.whole and m.phrase == "unknown"
    m = match_refusal("Sorry, I don't know who that is.")
    assert m is not None and not m.whole and m.phrase == "i dont know"


def test_a_brief_declines_in_its_own_words() -> None:
    assert is_refusal("No retrieved authority addresses the number of home losses in 2023.")
    assert is_refusal("No document states the opening price of KVAC on that Friday.")
    assert not is_refusal("No authority on the subject disputes that it is 1926.")


def test_a_reply_with_its_spaces_deleted_declines_as_the_phrase() -> None:
    m = match_refusal("Idon'tknow")
    assert m is not None and m.whole and m.phrase == "i dont know"
    assert is_refusal("IDONOTKNOW.")
    # Only a whole reply, and only a phrase of more than one word, is read so.
    assert not is_refusal("Idon'tknowhim")
    assert not is_refusal("Brazil")


def test_a_reply_that_only_says_what_its_sources_cover_declines() -> None:
    m = match_refusal("The text covers the cast of the film and its release by October Films.")
    assert m is not None and m.whole
    assert covers_only_topics("The documents cover the series. They discuss its ratings.")
    assert not covers_only_topics("The documents cover the series. It premiered in 2022.")
    assert not is_refusal("Paris is the capital.")


def test_a_fallback_that_could_not_put_an_answer_together_declines() -> None:
    assert is_refusal(
        "I couldn't put together an answer in time, but this passage looks relevant:\n\n"
        '"Historical Prices Date Open High Low Close Feb 23, 2024 2.17 2.31…"'
    )


def test_a_whole_reply_cut_inside_a_phrases_last_word_declines() -> None:
    m = match_refusal("I don't kno")
    assert m is not None and m.whole and m.phrase == "i dont know"
    # Too little of a phrase, or an answer that only starts like one, is no decline.
    assert not is_refusal("I do")
    assert not is_refusal("I don't")
    assert not is_refusal("Not available in stores until 2024")


def test_sources_said_to_say_otherwise_than_the_question_correct_it() -> None:
    # The sources are not silent: they say something else than the question's claim.
    assert not is_refusal(
        "The documents do not say that the Harriers ever won the cup; they say the club lost"
        " both of its finals."
    )
    assert not is_refusal(
        "The context doesn't say that Mara Quist is retired; according to it, she signed a"
        " new contract in 2023."
    )
    assert not is_refusal(
        "The sources don't say that the album went gold; Document 2 says it sold 80,000 copies."
    )
    # Silent sources, with nothing said in their place, decline.
    assert is_refusal("The documents do not say that the film had another title.")
    assert is_refusal("The documents don't say. They say nothing on its budget.")


def test_builtin_set_is_curated() -> None:
    phrases = default_detector().phrases.phrases
    assert len(phrases) > 100
    assert len(set(phrases)) == len(phrases)


def test_custom_file(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("# comment\nkeine Ahnung\n=weiss nicht\n", encoding="utf-8")
    det = RefusalDetector.from_file(path)
    assert det.match("Ich habe KEINE Ahnung.") is not None
    assert det.match("weiß nicht") is not None
    assert det.match("ich weiss nicht warum") is None
    with pytest.raises(DataError, match=r"nope\.txt"):
        PhraseSet.from_file(tmp_path / "nope.txt")
