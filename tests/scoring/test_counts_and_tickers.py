"""Counts said in words (schedules, "never"), score pairs, and tickers read as the companies they
name."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from scoring_fakes import ScriptedLLM

from ragmeter.scoring.crag.counts import (
    bare_count,
    counts_none,
    frequency_outcome,
    says_zero,
    zero_outcome,
)
from ragmeter.scoring.crag.judge import LLMJudge
from ragmeter.scoring.crag.scores import score_outcome, score_pairs
from ragmeter.scoring.crag.tickers import (
    TABLE,
    build_ticker_table,
    company_words,
    spell_out_tickers,
    ticker_names,
    tickers_beside_names,
)

FREQUENCY = "what was the dividend distribution frequency for utah medical products in 2023?"


@pytest.mark.parametrize(
    ("pred", "label"),
    [
        ("quarterly", "correct"),
        ("Utah Medical Products paid dividends quarterly in 2023.", "correct"),
        ("It pays semi-annually.", "incorrect"),  # "annually" inside is not a second schedule
        ("monthly", "incorrect"),
    ],
)
def test_a_schedule_is_a_count_per_year(pred: str, label: str) -> None:
    out = frequency_outcome(FREQUENCY, ["4"], pred)
    assert out is not None and out.label == label and out.rule == "frequency"


def test_schedules_left_to_other_rules() -> None:
    assert frequency_outcome(FREQUENCY, ["4"], "Monthly or quarterly.") is None  # two
    assert frequency_outcome(FREQUENCY, ["4"], "Quarterly, 4 payments of $0.29.") is None
    assert frequency_outcome("what did it pay?", ["4"], "quarterly") is None  # no frequency
    # A sentence gold's figure may count something else.
    assert frequency_outcome(FREQUENCY, ["it paid 4 times, $1.18 in all"], "quarterly") is None


def test_a_gold_that_says_never_counts_none() -> None:
    assert counts_none("she has never won it, though she has been nominated seven times.")
    assert counts_none("there are no companies with a ratio over 200%")
    assert not counts_none("she has won it twice, though she was not nominated in 2020.")
    q = "how many times has she won song of the year?"
    for zero in [
        "0",
        "0 times.",
        "**Zero.** She was nominated seven times.",
        "She has never won the Grammy. She was nominated 7 times.",
        "Nominated 7 times, but she never won it.",
    ]:
        assert says_zero(zero, q), zero
    for some in [
        "3",
        "Once.",
        "No, she has won it twice.",
        "She was nominated for Song of the Year 7 times.",
        "She has won it 3 times, never losing at the ceremony.",
    ]:
        assert not says_zero(some, q), some
    assert bare_count("3") and bare_count("2 times.") and not bare_count("Nominated 7 times.")


def test_a_zero_gold_met_by_a_reply_that_counts_none() -> None:
    q = "how many grammies did ariana grande won until 60th grammy (2017)?"
    said = "She had not won any Grammys by the 60th Grammy Awards. Her first came in 2019."
    out = zero_outcome(q, ["0"], said)  # the question's own "60th" counts nothing
    assert out is not None and out.label == "correct"
    assert zero_outcome(q, ["0"], "She had won two by then.") is None  # the value rule's
    # Denying a kind is no count of none: "not a group" to "how many people are in it?"
    weeknd = "The Weeknd is not a group. It is the stage name of a single person."
    assert zero_outcome("how many people are in the weeknd?", ["0"], weeknd) is None
    assert zero_outcome(q, ["1"], said) is None


def test_the_judge_reads_a_count_of_none_without_the_golds_other_figures() -> None:
    gold = "taylor swift has never won song of the year, though she has been nominated seven times."
    q = "how many times has taylor swift won a grammy award for song of the year?"
    llm = ScriptedLLM(lambda u, s: "yes")  # a judge model that would say yes to anything
    judge = LLMJudge(llm, "f")
    right = asyncio.run(judge.check(q, gold, "She has never won it; she was nominated 7 times."))
    assert right.verdict == "correct" and right.key_answer == "0" and llm.calls == []
    three = asyncio.run(judge.check(q, gold, "3 times"))
    assert three.verdict == "incorrect" and "different_value" in (three.rationale or "")
    # Anything else is the model's, told that the count is 0.
    llm = ScriptedLLM(lambda u, s: "yes" if "true answer: 0" in u else "no")
    asyncio.run(LLMJudge(llm, "f").check(q, gold, "Nominated for Song of the Year seven times."))
    assert llm.calls


def test_tickers_are_spelt_out_only_for_the_golds_companies() -> None:
    gold = ["amgen inc., honeywell international inc., salesforce, inc."]
    assert spell_out_tickers("AMGN; HON; CRM", gold) == (
        "amgen; honeywell international; salesforce"
    )
    assert spell_out_tickers("BA", ["boeing"]) == "boeing"
    assert spell_out_tickers("GOOGL", ["alphabet"]) == "alphabet"
    assert spell_out_tickers("NVDA", ["nvidia corporation"]) == "nvidia"
    # Another company's ticker, a word in capitals, the gold's own ticker: left alone.
    assert spell_out_tickers("MSFT", ["apple"]) == "MSFT"
    assert spell_out_tickers("PHI", ["philadelphia 76ers"]) == "PHI"
    assert spell_out_tickers("AAPL", ["aapl"]) == "AAPL"
    assert spell_out_tickers("U.S. and NBA", ["boeing"]) == "U.S. and NBA"
    assert company_words("Boeing Company (The)") == ["boeing"]


def test_the_shipped_table_is_the_graphs_company_list() -> None:
    names = ticker_names()
    assert names["AAPL"] == "Apple Inc." and names["BA"] == "Boeing Company (The)"
    assert not any("Warrant" in n for n in names.values())
    mirror = os.environ.get("RAGMETER_DATA_MIRROR")
    source = Path(mirror or "/nonexistent") / "crag" / "kg" / "finance" / "company_name.dict"
    if not source.exists():
        pytest.skip("the data mirror's company list is not here to rebuild the table from")
    shipped = Path(__file__).parents[2] / "src/ragmeter/scoring/crag/data" / TABLE
    assert build_ticker_table(source) == shipped.read_text(encoding="utf-8")


def test_a_score_pair_holds_the_one_side_the_gold_gives() -> None:
    q = "what was the final score of cavaliers's game on 2023-04-26?"
    for said in ["The Cavaliers lost to the Knicks 106-95.", "Knicks 106, Cavaliers 95.", "106–95"]:
        out = score_outcome(q, ["95"], said)
        assert out is not None and (out.label, out.rule) == ("correct", "score"), said
    other = score_outcome(q, ["95"], "They won 10-1.")
    assert other is not None and other.label == "incorrect"
    # No pair, a date, or a question after something else: not this rule's.
    assert score_pairs("It was played on 2023-04-26.") == []
    assert score_outcome(q, ["95"], "95 points.") is None
    assert score_outcome("how many points did they win by?", ["11"], "106-95") is None


def test_a_company_named_in_words_is_read_with_the_ticker_the_gold_and_question_give() -> None:
    query = "which company is more actively traded this week, siri or aca?"
    said = "Sirius XM is more actively traded than Arcosa this week."
    assert tickers_beside_names(said, ["siri"], query) == (
        "Sirius XM (SIRI) is more actively traded than Arcosa (ACA) this week."
    )
    # After the name's legal form; a first word alone names a company only when long.
    allot = "The company with larger market cap is Allot Ltd."
    assert tickers_beside_names(allot, ["allt"], "mfd or allt?").endswith("Allot Ltd. (ALLT)")
    # A gold that is no ticker changes nothing, though a word of it is one ("ALEX").
    assert tickers_beside_names("Alexander Albon", ["alex albon"], "who?") == "Alexander Albon"
    # Nor does a prediction that gives the ticker itself.
    assert tickers_beside_names("SIRI, i.e. Sirius XM", ["siri"], query) == ("SIRI, i.e. Sirius XM")
