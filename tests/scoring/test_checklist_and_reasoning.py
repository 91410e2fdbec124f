"""A Markdown task list of checks over a verdict line, and DeepSeek-R1's untagged reasoning
saved in place of its reply: both often cut by the 75-token limit before their answer."""

from __future__ import annotations

import pytest
from test_crag_scorer import rules_label

from ragmeter.scoring.crag.checklist import CheckedReply, read_checklist
from ragmeter.scoring.crag.scorer import CragScorer
from ragmeter.scoring.crag.truncate import Truncator
from ragmeter.scoring.crag.working import working_and_reply

_CHECKS = (
    "- [x] Subject found: Document 2 (canal trust notice)\n"
    "- [{value}] Value stated: {stated}\n"
    "- [ ] Corroborated: single source\n"
    "- [x] No conflict: none found"
)


def _checks(stated: str, ticked: bool = True) -> str:
    return _CHECKS.format(value="x" if ticked else " ", stated=stated)


@pytest.fixture(scope="module")
def scorer(truncator: Truncator) -> CragScorer:
    return CragScorer([], truncator=truncator)


def test_the_verdict_line_is_the_reply() -> None:
    stated = '"reopened to road traffic on Thursday 21 July"'
    verified = _checks(stated) + "\n\n**Verified:** July 21, 2022"
    assert read_checklist(verified, cut_off=False) == CheckedReply("July 21, 2022", False, "")
    partly = _checks(stated) + "\n\n**Partly verified:** 1,699 stores"
    assert read_checklist(partly, cut_off=False) == CheckedReply("1,699 stores", False, "")
    declined = _checks("no document gives it", False) + "\n\n**Not verified:** no document gives it"
    assert read_checklist(declined, cut_off=False) == CheckedReply(
        "", False, "no document gives it"
    )
    premise = _checks(stated) + "\n\n**Premise false:** shortlisted in 2021, never won"
    assert read_checklist(premise, cut_off=False) == CheckedReply(
        "shortlisted in 2021, never won", True, ""
    )


def test_cut_before_the_verdict_the_value_check_is_what_the_text_states() -> None:
    ticked = _checks('"reopened on 21 July 2022"') + "\n\n**Verif"
    assert read_checklist(ticked, cut_off=True) == CheckedReply(
        '"reopened on 21 July 2022"', False, ""
    )
    empty = _checks("no document gives the 2022 attendance", False) + "\n- [x] No"
    assert read_checklist(empty, cut_off=True) == CheckedReply(
        "", False, "no document gives the 2022 attendance"
    )
    worked = _checks("no document gives the 2023 total; 1,652 + 47 = 1,699", False)
    assert read_checklist(worked, cut_off=True) == CheckedReply("1,699", False, "")
    premise = "- [x] Subject found: Document 3\n- [ ] Premise holds: they were only shortlisted"
    assert read_checklist(premise, cut_off=True) == CheckedReply(
        "they were only shortlisted", True, ""
    )


def test_other_text_is_no_checklist() -> None:
    assert read_checklist("- [x] Done: yes", cut_off=False) is None
    assert read_checklist("- [x] A: 1\n- [x] B: 2\nSo the answer is 3.", cut_off=False) is None
    assert read_checklist("- Paris\n- Lyon", cut_off=False) is None


_SHORT = "- [x] Subject found: Document 2\n- [{}] Value stated: {}\n\n**{}:** {}"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (_SHORT.format("x", "21 July", "Verified", "July 21, 2022"), "correct"),
        (_SHORT.format("x", "22 July", "Verified", "July 22, 2022"), "incorrect"),
        (_SHORT.format(" ", "no document gives it", "Not verified", "none"), "missing"),
    ],
)
def test_checklist_replies_are_scored_by_their_verdict(
    scorer: CragScorer, reply: str, expected: str
) -> None:
    assert rules_label(scorer, "7/21/22", reply, "when did the bridge reopen?")[0] == expected


_THINKING = (
    "Okay, let's see. The user is asking when the Carnforth Quay swing bridge reopened. "
    "Document 2 is a canal trust notice that says it"
)


def test_untagged_reasoning_cut_off_is_working_without_a_reply() -> None:
    assert working_and_reply(_THINKING, cut_off=True) == (_THINKING, "")
    # Whole, it is a reply that ends on its conclusion, judged as such.
    assert working_and_reply(_THINKING + " reopened. So the answer is 2022.", cut_off=False) is None
    assert working_and_reply("Okay. The bridge reopened in 2022.", cut_off=True) is None


def test_untagged_reasoning_cut_before_its_conclusion_gives_no_answer(
    scorer: CragScorer,
) -> None:
    long = (
        "Alright, so I need to figure out how many points DeAndre Jordan scored from free "
        "throws on October 19, 2013. That date is in the preseason, since the 2013-14 regular "
        "season started on October 29. Document 1 is his season game log, but it only covers "
        "the regular season and the playoffs, so I'll need another source for this game."
    )
    assert rules_label(scorer, "3", long, "how many free-throw points?") == (
        "missing",
        "answer_past_cut",
    )
