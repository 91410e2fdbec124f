"""The rule path, in the order the issue fixes."""

from __future__ import annotations

import pytest

from ragmeter.scoring.crag.rules import Rules, final_answer, is_invalid_gold

RULES = Rules()


@pytest.mark.parametrize(
    ("prediction", "answers", "label", "rule"),
    [
        ("", ["paris"], "missing", "empty_prediction"),
        ("   \n", ["paris"], "missing", "empty_prediction"),
        # Not a word or a figure in it.
        ("-", ["paris"], "missing", "empty_prediction"),
        ("?", ["paris"], "missing", "empty_prediction"),
        ("\U0001f937", ["paris"], "missing", "empty_prediction"),
        # An empty reply after a CSV round trip through pandas.
        ("nan", ["paris"], "missing", "empty_prediction"),
        (" NaN ", ["paris"], "missing", "empty_prediction"),
        # Python's None printed for a reply never received; the word, where the gold is none.
        ("None", ["paris"], "missing", "empty_prediction"),
        ("None", ["none"], "correct", "exact_match"),
        # One function word alone, as a spell-corrector leaves "No": garbled, no answer.
        ("To", ["no"], "missing", "empty_prediction"),
        ("Of.", ["paris"], "missing", "empty_prediction"),
        ("I don't know.", ["paris"], "missing", "refusal"),
        ("I don't know.", ["invalid question"], "missing", "refusal"),
        ("Paris.", ["paris"], "correct", "exact_match"),
        ("THE Beatles", ["beatles"], "correct", "exact_match"),
        ("two", ["2"], "correct", "exact_match"),
        ("1,200", ["one thousand two hundred"], "correct", "exact_match"),
        ("wall-e", ["walle", "wall-e"], "correct", "alias_match"),
        # A closing aside is detail; the name before it is the answer.
        ("Alexander Albon (Red Bull Racing).", ["alex albon"], "correct", "name_match"),
        ("invalid question", ["invalid question"], "correct", "exact_match"),
        (
            "The question has a false premise.",
            ["invalid question"],
            "correct",
            "false_premise_detected",
        ),
        # A gold that also accepts "invalid question" accepts a premise pointed out.
        (
            "The question has a false premise.",
            ["none of the days", "invalid question"],
            "correct",
            "false_premise_detected",
        ),
        (
            "The question has a false premise.",
            ["none of the days"],
            "incorrect",
            "false_premise_claim_on_valid_question",
        ),
        # A gold that corrects the premise says the question was not valid as asked.
        (
            "invalid question",
            ["actually, walmart has the highest revenue earning over $640 billion."],
            "correct",
            "false_premise_detected",
        ),
        (
            "This rests on a shaky premise: I'm not aware of any such five companies.",
            ["invalid question"],
            "correct",
            "false_premise_detected",
        ),
        (
            "Neither. She won her first Wimbledon title at 20.",
            ["invalid question"],
            "correct",
            "false_premise_detected",
        ),
        ("The premise is false.", ["paris"], "incorrect", "false_premise_claim_on_valid_question"),
        (
            "The premise is false.",
            ["no country for old men"],
            "incorrect",
            "false_premise_claim_on_valid_question",
        ),
        ("Paris", ["invalid question"], "incorrect", "answer_to_false_premise"),
        ("No.", ["invalid question"], "incorrect", "yes_no"),
    ],
)
def test_rule_outcomes(prediction: str, answers: list[str], label: str, rule: str) -> None:
    out = RULES.apply(prediction, answers)
    assert out is not None
    assert (out.label, out.rule) == (label, rule)


def test_a_function_word_in_capitals_or_as_the_gold_is_left_to_the_judges() -> None:
    assert RULES.apply("TO", ["toronto"]) is None
    assert RULES.apply("The", ["paris"]) is None  # a reply cut after "Answer: The"
    out = RULES.apply("Or", ["or"])
    assert out is not None and out.label == "correct"


def test_a_premise_flag_beside_a_correction_the_gold_makes_is_left_to_the_judges() -> None:
    gold = ["no, robert downey jr's iron man and chris evans' captain america"]
    said = "The premise is false. Chris Evans is best known as Captain America."
    assert RULES.apply(said, gold) is None
    # A bare flag says nothing instead; a bare "no" gold answers a valid question.
    bare = RULES.apply("invalid question", gold)
    assert bare is not None and bare.rule == "false_premise_claim_on_valid_question"
    flagged = RULES.apply(said, ["no"])
    assert flagged is not None and flagged.rule == "false_premise_claim_on_valid_question"


def test_undecided_goes_to_judge() -> None:
    assert RULES.apply("The capital of France is Paris.", ["paris"]) is None
    assert RULES.apply("3", ["2"]) is None


def test_details_name_what_matched() -> None:
    out = RULES.apply("Sorry, I cannot find any information.", ["x"])
    assert out is not None and out.detail == "i cannot find"
    out = RULES.apply("Wall-E!", ["wall-e", "walle"])
    assert out is not None and out.rule == "exact_match" and out.detail == "wall-e"
    out = RULES.apply("walle", ["wall-e", "walle"])
    assert out is not None and out.rule == "alias_match" and out.detail == "walle"


def test_refusal_can_be_skipped() -> None:
    assert RULES.apply("I'm not sure", ["x"], check_refusal=False) is None


def test_no_answers_is_an_error() -> None:
    with pytest.raises(ValueError, match="gold"):
        RULES.apply("x", [])


def test_invalid_gold() -> None:
    assert is_invalid_gold(["Invalid question."])
    assert not is_invalid_gold(["paris"])
    assert not is_invalid_gold([])


def test_the_answer_a_reasoning_ends_with() -> None:
    assert final_answer("Step 1: 1980. Step 2: 2024. Answer: 44") == "44"
    assert final_answer("Y is younger, so X is older. Final answer: X.") == "X."
    assert final_answer("The 2008 ceremony was for 2007. So the answer is Taxi.") == "Taxi."
    assert final_answer("No reasoning here, just Paris.") is None
    # A verifier's draft, its check and its final line: the final line is the answer.
    checked = "Draft: 12,000 shares\nCheck: Does it match? — no, none listed\nFinal: cannot verify"
    assert final_answer(checked) == "cannot verify"
    assert final_answer("The final: Arsenal won 2-1.") is None
    assert final_answer('> "...the tunnel opened in May 1994..."\nSo: 1994.') == "1994."
    given = "Given: founded 1987\nFind: age in 2024\nResult: 2024 - 1987 = 37 years"
    assert final_answer(given) == "2024 - 1987 = 37 years"
    # A closing "which makes it" / "which puts him at" clause states the result.
    held = "118 floors above ground plus 5 below, which puts it at 123 floors in total."
    assert final_answer(held) == "123 floors in total."
    assert final_answer(
        "Best Actor went to the Darkest Hour lead, which makes it Gary Oldman."
    ) == ("Gary Oldman.")
    # RAFT's answer line after its chain of thought.
    raft = "##begin_quote## It reopened on 4 June 2019. ##end_quote## So.\n\n<ANSWER>: June 4, 2019"
    assert final_answer(raft) == "June 4, 2019"
    # An answer that points back at the reasoning leaves the reasoning to be read.
    assert final_answer("They are Mangum, Koster and Spillane. Answer: those three.") is None
    assert final_answer("A and B. Answer: all of them") is None
    assert final_answer("A and B both won. Answer: Both teams") == "Both teams"
    assert final_answer("Answer: " + "word " * 40) is None  # more than a short answer
    # A Markdown answer line over bullets of detail: the line is the answer.
    said = "**Answer:** Eminem\n- The Monster Tour (2014)\n- Named after their single"
    assert final_answer(said) == "Eminem"
    assert final_answer("**Answer:** They are:\n- A\n- B") == "They are:\n- A\n- B"
    assert final_answer("Answer:\n- A\n- B\n- C") == "- A\n- B\n- C"
    # "Therefore, X." closing a reasoning; a "therefore" inside a sentence closes nothing.
    assert final_answer("The Alamo is in San Antonio. Therefore, San Antonio.") == "San Antonio."
    assert final_answer("It was therefore, a hit") is None
    # A chain of hops ends with its answer after the double arrow; a hop left open ("?")
    # answers nothing, whatever the brackets after it say.
    assert final_answer("Glass Tide \u2192 The Verans \u2192 formed 2009 \u21d2 2009") == "2009"
    assert final_answer("\u21d2 Oslo") == "Oslo"
    assert final_answer("Red Harbor \u2192 Mae Olsen \u2192 ? (birth year not found)") == "?"
    assert final_answer("Paris \u2192 capital of France") is None
    # A few-shot template's "Q:" line restates the question; "A:" answers it.
    assert final_answer("Q: Height of Mount Keller?\nA: approx. 4,210 m.") == "approx. 4,210 m."
    assert final_answer("Plan A: take the train.") is None
    # A headline answer before its context.
    said = "Short answer: Two times. Longer answer: She was on the list in 2022 and 2023."
    assert final_answer(said) == "Two times."
    assert final_answer("Two times. Longer answer: in 2022 and 2023.") == "Two times."
    assert final_answer("Short answer: unclear.") == "unclear."
    assert final_answer("The long answer: it is complicated.") == "it is complicated."
