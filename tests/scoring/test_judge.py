"""The judge path with an in-process scripted LLM: parsing, retries, unscored, voting."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from scoring_fakes import ScriptedLLM, field

from ragmeter.errors import DataError
from ragmeter.llm.protocol import GenerationSettings
from ragmeter.scoring.crag.judge import (
    JudgePrompt,
    LLMJudge,
    LLMRefusalConfirmer,
    decide,
    judge_against_golds,
    judge_notes,
    parse_verdict,
)
from ragmeter.scoring.crag.records import JudgeVote


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ('{"verdict": "correct", "rationale": "same"}', "correct"),
        ('Sure! {"verdict": "Incorrect", "rationale": "differs"} done', "incorrect"),
        ('```json\n{"label": "correct"}\n```', "correct"),
        ('{"correct": false}', "incorrect"),
        ("Correct.", "correct"),
        ("incorrect", "incorrect"),
        ("The prediction is wrong.", "incorrect"),
        ("This is not correct.", "incorrect"),
        ("", None),
        ("maybe", None),
        ("correct or incorrect, hard to say", None),
        ('{"verdict": "unsure"}', None),
    ],
)
def test_parse_verdict(reply: str, verdict: str | None) -> None:
    assert parse_verdict(reply)[0] == verdict


def test_parse_keeps_rationale() -> None:
    assert parse_verdict('{"verdict": "correct", "rationale": "same fact"}') == (
        "correct",
        "same fact",
    )


def test_prompt_is_data() -> None:
    p = JudgePrompt.builtin()
    assert p.examples and {e.verdict for e in p.examples} == {"correct", "incorrect"}
    msgs = p.messages("q?", "gold", "pred")
    assert msgs[0].role == "system" and msgs[-1].role == "user"
    assert "True answer: gold" in msgs[-1].content
    assert len(msgs) == 2 + 2 * len(p.examples)
    assert len(p.fingerprint) == 12


def test_prompt_files_errors(tmp_path: Path) -> None:
    (tmp_path / "p.txt").write_text("judge well", encoding="utf-8")
    (tmp_path / "e.jsonl").write_text('{"question": "q"}\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"e\.jsonl, line 1"):
        JudgePrompt.from_files(tmp_path / "p.txt", tmp_path / "e.jsonl")
    (tmp_path / "empty.txt").write_text("  ", encoding="utf-8")
    with pytest.raises(DataError, match="empty"):
        JudgePrompt.from_files(tmp_path / "empty.txt", tmp_path / "e.jsonl")


def test_retry_then_verdict() -> None:
    replies = iter(["hmm", '{"verdict": "correct", "rationale": "ok"}'])
    llm = ScriptedLLM(lambda u, s: next(replies))
    check = asyncio.run(LLMJudge(llm, "fake").check("q", "g", "p"))
    assert check.verdict == "correct" and check.attempts == 2 and check.rationale == "ok"
    # The retry carries a reminder.
    assert "Answer only with JSON" in llm.calls[1][0]


def test_retries_exhausted_is_unscored_with_reason() -> None:
    llm = ScriptedLLM(lambda u, s: "no idea what to say" if s.temperature == 0 else "still lost")
    check = asyncio.run(LLMJudge(llm, "fake", retries=2).check("q", "g", "p"))
    assert check.verdict is None and check.attempts == 3
    assert check.error is not None and "unparseable" in check.error
    # Last attempt samples with a pinned seed, so it may differ and stays cacheable.
    assert llm.calls[-1][1] == GenerationSettings(max_tokens=80, temperature=0.7, seed=2)


def test_backend_failure_is_retried_then_unscored() -> None:
    llm = ScriptedLLM(lambda u, s: "!fail")
    check = asyncio.run(LLMJudge(llm, "fake", retries=1).check("q", "g", "p"))
    assert check.verdict is None and check.attempts == 2
    assert check.error is not None and "server said no" in check.error


def test_golds_in_turn_stop_at_first_correct() -> None:
    def reply(user: str, s: GenerationSettings) -> str:
        ok = field(user, "True answer") == "alias"
        return '{"verdict": "%s"}' % ("correct" if ok else "incorrect")

    llm = ScriptedLLM(reply)
    judge = LLMJudge(llm, "fake")
    vote = asyncio.run(judge_against_golds(judge, "q", ["gold", "alias", "other"], "p"))
    assert vote.verdict == "correct" and [c.gold for c in vote.checks] == ["gold", "alias"]
    vote = asyncio.run(judge_against_golds(judge, "q", ["gold", "other"], "p"))
    assert vote.verdict == "incorrect" and len(vote.checks) == 2


def test_failed_check_without_correct_is_unscored() -> None:
    def reply(user: str, s: GenerationSettings) -> str:
        return "!fail" if field(user, "True answer") == "b" else '{"verdict": "incorrect"}'

    vote = asyncio.run(judge_against_golds(LLMJudge(ScriptedLLM(reply), "f"), "q", ["a", "b"], "p"))
    assert vote.verdict is None and vote.error is not None


def _vote(verdict: str | None) -> JudgeVote:
    return JudgeVote(judge="j", verdict=verdict, error=None if verdict else "boom")  # type: ignore[arg-type]


def test_majority_and_agreement() -> None:
    d = decide([_vote("correct"), _vote("correct"), _vote("incorrect")])
    assert d.verdict == "correct" and d.agreement == pytest.approx(2 / 3)
    d = decide([_vote("correct"), _vote("incorrect")])
    assert d.verdict is None and d.reason is not None and "tied" in d.reason
    d = decide([_vote(None), _vote(None)])
    assert d.verdict is None and d.reason == "boom" and d.agreement == 0.0
    d = decide([_vote("incorrect"), _vote(None), _vote("incorrect")])
    assert d.verdict == "incorrect" and d.agreement == pytest.approx(2 / 3)
    with pytest.raises(ValueError):
        decide([])


def test_refusal_confirmer() -> None:
    confirm = LLMRefusalConfirmer(ScriptedLLM(lambda u, s: "no" if "probably" in u else "yes"))
    assert asyncio.run(confirm("q", "I don't know."))
    assert not asyncio.run(confirm("q", "Not sure, probably 42"))
    assert confirm.overruled == 1


@pytest.mark.parametrize(
    ("gold", "prediction", "expected"),
    [
        ("david fincher", "Short answer: David Fincher.", ["word for word"]),
        ("2.92", "2.93", ["the true answer has 2.92; the prediction has 2.93"]),
        ("philadelphia 76ers", "philadelphia 78ers", ["has 76; the prediction has 78"]),
        ("12 albums", "twelve albums", ["word for word", "Every number"]),
        ("$1,500", "1500 dollars", ["Every number"]),
        ("salesforce", "apple", []),
        ("3 titles", "none", ["the prediction has none"]),
        ("2024-02-13, 2024-02-14", "2024-3-13, 2024-02-14", ["Numbers differ"]),
        ("march 3, 1998", "The album came out on 1998-03-03.", ["Every number"]),
    ],
)
def test_judge_notes(gold: str, prediction: str, expected: list[str]) -> None:
    notes = " ".join(judge_notes(gold, prediction))
    for part in expected:
        assert part in notes
    if not expected:
        assert notes == ""
    msg = JudgePrompt.builtin().messages("q", gold, prediction)[-1].content
    assert ("Checks:" in msg) == bool(expected)
