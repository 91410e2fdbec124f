"""Diagnosis categories on hand-made records, and summaries that add up."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from ragmeter.diagnosis.categories import CATEGORIES, categorize
from ragmeter.diagnosis.diagnose import answer_found, diagnose, is_false_premise
from ragmeter.diagnosis.store import read_diagnoses, summarize_diagnoses, write_diagnoses
from ragmeter.engine.journal import RunRecord
from ragmeter.llm.protocol import ChatMessage, ChoiceProbabilities, Completion, GenerationSettings
from ragmeter.scoring.attribution.nli import NLI
from ragmeter.types import Answer, Labels, Passage, Question, RetrievedChunk


class SupportLLM:
    """Says "yes" when the stated answer appears in the source (a stand-in for the NLI model)."""

    identity = "fake:support"

    async def generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        raise AssertionError("diagnosis only classifies")

    async def choice_probabilities(
        self, messages: Sequence[ChatMessage], choices: Sequence[str]
    ) -> ChoiceProbabilities:
        source, _, statement = messages[-1].content.partition("Statement:")
        answer = statement.split("\n")[0].rsplit("is:", 1)[-1].strip().lower()
        yes = 1.0 if answer and answer in source.lower() else 0.0
        return ChoiceProbabilities(probs={"yes": yes, "no": 1.0 - yes}, method="parsed")

    async def aclose(self) -> None:
        pass


@pytest.mark.parametrize(
    ("label", "premise", "evidence", "pages", "supported", "expected"),
    [
        ("correct", False, True, True, True, "correct_grounded"),
        ("correct", False, True, True, False, "correct_unsupported"),
        ("correct", False, None, None, None, "correct_unsupported"),
        ("correct", True, None, None, None, "correct_grounded"),
        ("incorrect", False, True, True, False, "generation_error"),
        ("incorrect", False, False, True, False, "retrieval_miss"),
        ("incorrect", False, False, False, None, "should_have_abstained"),
        ("incorrect", False, None, None, None, "should_have_abstained"),
        ("incorrect", True, None, None, True, "false_premise_accepted"),
        ("missing", False, True, True, None, "over_cautious"),
        ("missing", False, False, True, None, "right_to_abstain"),
        ("missing", True, None, None, None, "right_to_abstain"),
    ],
)
def test_each_category(
    label: str,
    premise: bool,
    evidence: bool | None,
    pages: bool | None,
    supported: bool | None,
    expected: str,
) -> None:
    got = categorize(
        label,  # type: ignore[arg-type]
        false_premise=premise,
        answer_in_evidence=evidence,
        answer_in_pages=pages,
        supported=supported,
    )
    assert got == expected and got in CATEGORIES


def test_unscored_questions_have_no_category() -> None:
    with pytest.raises(ValueError):
        categorize(
            "unscored",
            false_premise=False,
            answer_in_evidence=None,
            answer_in_pages=None,
            supported=None,
        )


def _question(
    i: int, gold: str, passages: list[str], qtype: str = "simple", domain: str = "movie"
) -> Question:
    return Question(
        id=str(i),
        dataset="crag",
        query=f"question {i} about the film?",
        answers=[[gold]],
        labels=Labels(domain=domain, question_type=qtype),
        passages=[Passage(text=t) for t in passages],
    )


def _record(q: Question, label: str, text: str | None, chunks: list[str]) -> RunRecord:
    answer = None
    if text is not None:
        answer = Answer(
            text=text,
            retrieved=[
                RetrievedChunk(chunk_id=f"c{k}", text=c, score=1.0) for k, c in enumerate(chunks)
            ],
        )
    return RunRecord(
        id=q.id,
        index=int(q.id),
        prediction=text,
        truncated_prediction=text,
        label=label,  # type: ignore[arg-type]
        labels=q.labels,
        answer=answer,
    )


def test_answer_matching_and_false_premise_detection() -> None:
    q = _question(1, "Steven Spielberg", [])
    assert answer_found(q, ["It was directed by steven spielberg in 1993."]) is True
    assert answer_found(q, ["It was directed by Spielberg."]) is False
    assert answer_found(_question(2, "yes", []), ["yes it is"]) is None
    assert is_false_premise(_question(3, "invalid question", []))
    assert is_false_premise(_question(4, "x", [], qtype="false_premise"))


def test_diagnose_fills_signals_and_the_summary_adds_up(tmp_path: Path) -> None:
    llm = SupportLLM()
    gold_page = "The film was directed by Jane Doe in 1999."
    other = "The film premiered at a festival."
    cases = [
        (_question(1, "Jane Doe", [gold_page]), "correct", "Jane Doe", [gold_page]),
        (_question(2, "Jane Doe", [gold_page]), "incorrect", "John Roe", [gold_page]),
        (_question(3, "Jane Doe", [gold_page, other]), "incorrect", "John Roe", [other]),
        (_question(4, "Jane Doe", [other]), "incorrect", "John Roe", [other]),
        (_question(5, "Jane Doe", [gold_page]), "missing", "I don't know", [gold_page]),
        (_question(6, "Jane Doe", [other], domain="music"), "missing", "I don't know", [other]),
        (
            _question(7, "invalid question", [other], qtype="false_premise"),
            "incorrect",
            "1999",
            [other],
        ),
        (_question(8, "Jane Doe", [gold_page], domain="music"), "missing", None, []),
    ]
    items = [(q, _record(q, label, text, chunks)) for q, label, text, chunks in cases]
    nli = NLI(llm, concurrency=1)
    got = asyncio.run(diagnose(items, nli))
    assert [d.category for d in got] == [
        "correct_grounded",
        "generation_error",
        "retrieval_miss",
        "should_have_abstained",
        "over_cautious",
        "right_to_abstain",
        "false_premise_accepted",
        "right_to_abstain",
    ]
    assert got[0].supported is True and got[1].supported is False and got[4].supported is None
    assert got[7].note == "no answer" and got[7].answer_in_pages is True

    write_diagnoses(tmp_path, got, nli.identity)
    stored = read_diagnoses(tmp_path)
    assert stored is not None and stored[0] == "fake:support" and stored[1] == got
    summary = summarize_diagnoses(stored, [r for _, r in items])
    assert summary.n == 8
    assert sum(c.count for c in summary.overall.categories.values()) == 8
    for name, values in summary.slices.items():
        assert sum(t.n for t in values.values()) == 8, name
        for table in values.values():
            assert sum(c.count for c in table.categories.values()) == table.n
    # Points: 1 correct (+1), 4 incorrect (-1 each) over 8 questions.
    assert sum(c.score_points for c in summary.overall.categories.values()) == pytest.approx(-3 / 8)
    assert summary.overall.categories["generation_error"].score_points == pytest.approx(-1 / 8)
    assert summary.overall.categories["generation_error"].points_short == pytest.approx(2 / 8)
    assert summary.slices["domain"]["music"].n == 2
