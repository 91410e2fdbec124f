"""A confidence stated beside an answer: read, removed from the answer, and judged by the bar."""

from __future__ import annotations

import asyncio

import pytest
from test_crag_scorer import q

from ragmeter.scoring.crag.confidence import SURE, read_confidence
from ragmeter.scoring.crag.scorer import CragScorer
from ragmeter.scoring.crag.truncate import Truncator
from ragmeter.scoring.refusal import match_refusal


@pytest.mark.parametrize(
    ("text", "values", "plain"),
    [
        ("Answer: No. Confidence: 0.72. Basis: the title never changed.", (0.72,),
         "Answer: No. Basis: the title never changed."),
        ("The Ant Bully (confidence: medium)", (0.6,), "The Ant Bully"),
        ("[conf 0.38] Rennes scored 2 goals.", (0.38,), "Rennes scored 2 goals."),
        ("Selena Gomez - confidence 97%", (0.97,), "Selena Gomez"),
        ("Yes (0.66).", (0.66,), "Yes."),
        ("X (confidence level: very high)", (0.95,), "X"),
        ("Top answer: Boeing (52%). Runner-up: 3M (21%).", (0.52, 0.21),
         "Top answer: Boeing. Runner-up: 3M."),
        ("No answer: confidence 0.19 is under the 0.40 cutoff.", (0.19,), "No answer."),
        # A template's own line, between the answer and its source.
        ("Answer: Taylor Swift\nConfidence: medium\nSource: Billboard", (0.6,),
         "Answer: Taylor Swift\n\nSource: Billboard"),
        # Estimative language: the confidence said inside the sentence.
        ("BLUF: We assess with moderate confidence that Ana Ruiz won.", (0.6,),
         "BLUF: We assess that Ana Ruiz won."),
        ("It is Lyon, with a high degree of confidence.", (0.9,), "It is Lyon."),
    ],
)  # fmt: skip
def test_stated_confidence_is_read_and_removed(
    text: str, values: tuple[float, ...], plain: str
) -> None:
    found = read_confidence(text)
    assert found is not None
    assert (found.values, found.text) == (values, plain)


@pytest.mark.parametrize(
    "text",
    [
        "Toy Story (100%), Toy Story 2 (100%) and Toy Story 3 (98%).",  # ratings, not confidence
        "I can't answer that with confidence.",
        "He finished runner-up at Augusta in 1986.",
        "Revenue rose 12% to $4.1 billion.",
    ],
)
def test_figures_that_are_no_confidence(text: str) -> None:
    assert read_confidence(text) is None


def test_the_bar_and_runner_ups() -> None:
    def unsure(text: str) -> bool:
        found = read_confidence(text)
        assert found is not None
        return found.unsure

    assert not unsure(f"Paris (confidence {SURE})")
    assert not unsure("Paris (confidence: high)")
    assert unsure("Paris (confidence 0.79)")
    assert unsure("Paris - confidence 41%")
    assert unsure("Paris (confidence: low)")
    # Both candidates are offered, whatever the first one's confidence.
    assert unsure("Most likely Paris (0.85); alternatively Lyon (0.10).")


def test_an_abstention_says_so_first() -> None:
    assert match_refusal("Abstained: this needs live market data for 2024-02-28.") is not None
    assert match_refusal("Confidence below threshold - no answer returned.") is not None
    assert match_refusal("Three members abstained from the vote.") is None
    # A best guess after the abstention is an answer, for the hedge rules to judge.
    assert match_refusal("Abstained. Best guess: X-Men (2000).") is None


@pytest.fixture(scope="module")
def scorer(mirror_file) -> CragScorer:  # type: ignore[no-untyped-def]
    return CragScorer([], truncator=Truncator(mirror_file("crag/tokenizer/tokenizer.json")))


def test_a_sure_answer_is_judged_without_its_confidence(scorer: CragScorer) -> None:
    s = asyncio.run(scorer.score(q("selena gomez"), "Selena Gomez - confidence 97%"))
    assert (s.label, s.rule) == ("correct", "exact_match"), s
    s = asyncio.run(scorer.score(q("yes"), "Answer: Yes. Confidence: 0.93."))
    assert (s.label, s.rule) == ("correct", "exact_match"), s


def test_an_unsure_answer_is_a_hedge_even_when_right(scorer: CragScorer) -> None:
    s = asyncio.run(scorer.score(q("ezna sands"), "Ezna Sands (confidence 0.6)."))
    assert (s.label, s.rule, s.rule_detail) == ("incorrect", "hedge", "(confidence 0.6)"), s
    s = asyncio.run(scorer.score(q("boeing"), "Top answer: Boeing (52%). Runner-up: 3M (21%)."))
    assert (s.label, s.rule) == ("incorrect", "hedge"), s
    s = asyncio.run(scorer.score(q("2"), "Abstained (0.24). Best guess: 2."))
    assert (s.label, s.rule) == ("incorrect", "hedge"), s
    template = "Answer: Taylor Swift\nConfidence: medium\nSource: Taylor Swift - Billboard"
    s = asyncio.run(scorer.score(q("taylor swift"), template))
    assert (s.label, s.rule, s.rule_detail) == ("incorrect", "hedge", "Confidence: medium"), s
    s = asyncio.run(scorer.score(q("taylor swift"), template.replace("medium", "high")))
    assert (s.label, s.rule) == ("correct", "exact_match"), s


def test_an_abstention_below_the_bar_is_missing(scorer: CragScorer) -> None:
    for reply in (
        "Confidence below threshold (0.28) - no answer returned.",
        "No answer: confidence 0.19 is under the 0.40 cutoff.",
    ):
        s = asyncio.run(scorer.score(q("3", query="how many points did he score?"), reply))
        assert (s.label, s.rule) == ("missing", "refusal"), (reply, s)


def test_no_figure_to_an_unanswerable_question_is_missing_however_unsure(
    scorer: CragScorer,
) -> None:
    reply = "Premise check failed: PMTU is a senior note, which has no P/E ratio (confidence 0.55)."
    s = asyncio.run(scorer.score(q("i don't know", query="what is the p/e ratio of pmtu"), reply))
    assert (s.label, s.rule) == ("missing", "refusal"), s
