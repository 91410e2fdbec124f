"""What a pipeline printed around its answer: console output before it, a hypothetical
passage written to search with."""

from __future__ import annotations

import pytest
from test_crag_scorer import rules_label

from ragmeter.scoring.crag.console import without_console_noise
from ragmeter.scoring.crag.hypothetical import read_hypothetical
from ragmeter.scoring.crag.parser_errors import without_parser_frame
from ragmeter.scoring.crag.scorer import CragScorer
from ragmeter.scoring.crag.truncate import Truncator


@pytest.fixture(scope="module")
def scorer(truncator: Truncator) -> CragScorer:
    return CragScorer([], truncator=truncator)


_BARS = (
    "Loading checkpoint shards: 100%|██████████| 4/4 [00:03<00:00,  1.44it/s]\n"
    "Batches: 100%|██████████| 1/1 [00:00<00:00, 28.15it/s]\n"
)
_WARNINGS = (
    "The attention mask and the pad token id were not set. As a consequence, you may observe "
    "unexpected behavior. Please pass your input's `attention_mask` to obtain reliable results.\n"
    "Setting `pad_token_id` to `eos_token_id`:128001 for open-end generation.\n"
)


def test_console_lines_before_the_reply_are_read_away() -> None:
    assert without_console_noise(_BARS + _WARNINGS + "Lyon hosted it.") == "Lyon hosted it."
    warning = (
        "/venv/lib/python3.11/site-packages/transformers/utils.py:1510: UserWarning: slow\n"
        "  warnings.warn(\nParis"
    )
    assert without_console_noise(warning) == "Paris"
    # A bar the cut stopped part-way, and nothing after it.
    assert without_console_noise("Batches:  50%|█████     ") == ""
    # A log a reply was rebuilt from keeps its lines; prose with a percentage stays.
    assert without_console_noise("INFO:__main__:Paris") == "INFO:__main__:Paris"
    assert without_console_noise("It rose 12%|15% on the day") == "It rose 12%|15% on the day"
    assert without_console_noise("Paris\n" + _BARS) == "Paris\n" + _BARS


def test_a_cut_that_holds_only_console_output_gives_no_answer(scorer: CragScorer) -> None:
    reply = _BARS + _WARNINGS + "Lyon hosted the final."
    assert rules_label(scorer, "lyon", reply) == ("missing", "answer_past_cut")
    setting = _WARNINGS.splitlines()[1]
    assert rules_label(scorer, "lyon", setting + "\nLyon.") == ("correct", "exact_match")


def test_a_hypothetical_passage_is_offered_not_stated() -> None:
    passage = "Hypothetical passage: The Shard stands 309.6 metres tall."
    cut = read_hypothetical(passage)
    assert cut is not None and cut.hypothetical and cut.text.startswith("The Shard")
    answered = read_hypothetical(passage + "\n\nAnswer: The Shard, 310 metres.")
    assert answered is not None and not answered.hypothetical
    assert answered.text == "The Shard, 310 metres."
    # An answer line the cut stopped at its label leaves the passage.
    bare = read_hypothetical(passage + "\n\nAnswer:")
    assert bare is not None and bare.hypothetical
    assert read_hypothetical("The hypothetical passage says 4.") is None


def test_a_fact_only_in_a_hypothetical_passage_is_a_hedge(scorer: CragScorer) -> None:
    query = "how tall is the shard?"
    passage = "Hypothetical passage: The Shard stands 309.6 metres tall."
    assert rules_label(scorer, "309.6 meters", passage, query) == ("incorrect", "hedge")
    # The answer line is the reply's answer, right or wrong.
    right = passage + "\n\nAnswer: It is 309.6 meters tall."
    assert rules_label(scorer, "309.6 meters", right, query)[0] == "correct"
    wrong = passage + "\n\nAnswer: It is 306 meters tall."
    assert rules_label(scorer, "309.6 meters", wrong, query) == ("incorrect", "different_value")


def test_a_framework_error_or_an_agent_stopped_at_its_limit_answers_nothing(
    scorer: CragScorer,
) -> None:
    for reply in (
        "Generation failed: guardrailViolation",
        "Generation failed: exceededContextWindowSize",
        "Max turns (6) exceeded",
        # A script's encoding error, written where the reply it could not write would be.
        "'charmap' codec can't encode character '\\u2011' in position 83: character maps to"
        " <undefined>",
        "'charmap' codec can't encode characters in position 12-13: character maps to <undefined>",
    ):
        assert rules_label(scorer, "lapulapu", reply) == ("missing", "refusal")
    # str() of the KeyError a pipeline's missing "answer" field raised.
    assert rules_label(scorer, "lapulapu", "'answer'") == ("missing", "refusal")
    assert rules_label(scorer, "yes", "'Yes'", "is it?")[0] == "correct"
    # Only the error itself: a reply that goes on is read as a reply.
    assert rules_label(scorer, "lapulapu", "Generation failed: it was Lapulapu") != (
        "missing",
        "refusal",
    )


_TROUBLESHOOTING = (
    "\nFor troubleshooting, visit: https://python.langchain.com/docs/troubleshooting/errors/"
    "OUTPUT_PARSING_FAILURE"
)


def test_an_output_parsers_failure_message_is_read_for_the_output_inside_it(
    scorer: CragScorer,
) -> None:
    inside = '{\n  "reasoning": "Page 2 gives the date.",\n  "answer": "June 4, 1998"\n}'
    assert without_parser_frame(f"Invalid json output: {inside}{_TROUBLESHOOTING}") == inside
    # The cut may drop the troubleshooting line; the opening alone shows the frame.
    assert without_parser_frame(f"Invalid json output: {inside}") == inside
    assert without_parser_frame("The output was invalid json output.") == (
        "The output was invalid json output."
    )
    answered = f"Invalid json output: Here is the JSON:\n\n{inside}{_TROUBLESHOOTING}"
    assert rules_label(scorer, "june 4, 1998", answered, "when was it?")[0] == "correct"
    declined = (
        'Invalid json output: {\n  "reasoning": "No page gives it.",\n  "answer": "I don\'t'
        f' know"\n}}{_TROUBLESHOOTING}'
    )
    assert rules_label(scorer, "june 4, 1998", declined, "when was it?") == ("missing", "refusal")
