"""Trust-Score: per-question ingredients, bad input, and the aggregate formulas with intervals."""

from __future__ import annotations

import asyncio

import pytest
from scoring_fakes import AllWordsLLM

from ragmeter.scoring.attribution.alce import CitationQuality
from ragmeter.scoring.attribution.nli import NLI
from ragmeter.scoring.attribution.trust import (
    TrustItem,
    aggregate_trust,
    score_trust_item,
    trust_by_dataset,
)
from ragmeter.types import Passage, Question


def nli() -> NLI:
    return NLI(AllWordsLLM())


def asqa(answers_found: list[list[int] | None]) -> Question:
    texts = ["Paris is the capital of France.", "Lyon is a city in France.", "Rome is in Italy."]
    return Question(
        id="q",
        dataset="asqa",
        query="Which French cities?",
        answers=[["Paris"], ["Lyon"], ["Marseille"]],
        passages=[
            Passage(title=f"Doc {i}", text=t, answers_found=f)
            for i, (t, f) in enumerate(zip(texts, answers_found, strict=True))
        ],
    )


def test_answered_answerable_question_is_calibrated_to_supported_answers() -> None:
    q = asqa([[1, 0, 0], [0, 1, 0], [0, 0, 0]])
    item = asyncio.run(score_trust_item(q, "Paris is the capital of France [1].", nli()))
    assert item.answerable and not item.refused
    assert item.n_supported_answers == 2
    # Paris found, Lyon missed; Marseille is in no document so it does not count.
    assert item.correctness == pytest.approx(0.5)
    assert item.citation is not None and item.citation.recall == 1.0
    assert item.issues == []


def test_refusals_empty_outputs_and_missing_answers_found_are_counted() -> None:
    q = asqa([[0, 0, 0], [0, 0, 0], [0, 0, 0]])
    refused = asyncio.run(score_trust_item(q, "I don't know the answer.", nli()))
    assert refused.refused and refused.answerable is False
    assert refused.correctness is None and refused.citation is None
    empty = asyncio.run(score_trust_item(q, "   ", nli()))
    assert empty.refused and "empty_output" in empty.issues
    # No answers_found on any document: short answers are looked up in the text.
    unknown = asqa([None, None, None])
    item = asyncio.run(score_trust_item(unknown, "Lyon [2] and Paris [9].", nli()))
    assert "no_answers_found" in item.issues and item.answerable
    assert "bad_citations" in item.issues
    assert item.correctness == pytest.approx(1.0)


def test_claims_without_answers_found_use_nli_and_qampari_uses_f1_5() -> None:
    eli5 = Question(
        id="e",
        dataset="eli5",
        query="Why?",
        answers=[["Paris is the capital of France"], ["Rome is big"]],
        passages=[Passage(title="F", text="Paris is the capital of France.")],
    )
    item = asyncio.run(
        score_trust_item(eli5, "Paris is the capital of France [1]. It is old.", nli())
    )
    assert "answers_found_by_nli" in item.issues
    assert item.n_supported_answers == 1 and item.correctness == 1.0
    assert "no_citations" in item.issues
    qampari = Question(
        id="m",
        dataset="qampari",
        query="French cities",
        answers=[["Paris"], ["Lyon"]],
        passages=[
            Passage(title="F", text="Paris and Lyon are French cities.", answers_found=[1, 1])
        ],
    )
    item = asyncio.run(score_trust_item(qampari, "Paris [1], Nice [1].", nli()))
    # precision 1/2, recall-5 1/2 -> F1 1/2
    assert item.correctness == pytest.approx(0.5)


def _item(
    i: int, refused: bool, answerable: bool | None, correct: float | None, cit: float | None
) -> TrustItem:
    citation = None
    if cit is not None:
        citation = CitationQuality(
            n_sentences=1,
            n_supported=int(cit),
            n_citations=1,
            n_precise=int(cit),
            sentences_without_citations=0,
            bad_citations=0,
            recall=cit,
            precision=cit,
        )
    return TrustItem(
        id=str(i),
        dataset="asqa",
        refused=refused,
        answerable=answerable,
        n_answers=1,
        n_supported_answers=int(bool(answerable)),
        correctness=correct,
        citation=citation,
    )


def test_aggregate_matches_hand_computed_trust_score() -> None:
    items = [
        _item(1, False, True, 1.0, 1.0),
        _item(2, True, True, None, None),
        _item(3, True, False, None, None),
        _item(4, False, False, None, 0.0),
    ]
    r = aggregate_trust(items, n_resamples=200)
    assert r.n == 4 and r.n_answered == 2 and r.n_answerable == 2
    assert r.refusal_recall.value == pytest.approx(0.5)
    assert r.refusal_precision.value == pytest.approx(0.5)
    assert r.answer_f1.value == pytest.approx(0.5)
    assert r.grounded_refusals.value == pytest.approx(0.5)
    assert r.correctness_precision.value == pytest.approx(0.5)
    assert r.correctness_recall.value == pytest.approx(0.5)
    assert r.answer_correctness.value == pytest.approx(0.5)
    assert r.grounded_citations.value == pytest.approx(0.5)
    assert r.trust.value == pytest.approx(0.5)
    for est in (r.trust, r.grounded_refusals, r.answer_correctness):
        assert est.ci_low is not None and est.ci_high is not None
        assert est.ci_low <= est.value <= est.ci_high  # type: ignore[operator]


def test_unknown_answerability_is_left_out_and_counted() -> None:
    items = [
        _item(1, False, True, 1.0, 1.0),
        _item(2, True, False, None, None),
        _item(3, False, None, None, 1.0),
    ]
    items[2].issues.append("no_answers_found")
    r = aggregate_trust(items, n_resamples=50)
    assert r.n_unknown_answerability == 1 and r.issues == {"no_answers_found": 1}
    assert r.grounded_refusals.value == pytest.approx(1.0)
    assert r.grounded_citations.value == pytest.approx(1.0)
    by = trust_by_dataset(items, n_resamples=50)
    assert list(by) == ["asqa"]
    with pytest.raises(ValueError):
        aggregate_trust([])


def test_attributed_qa_refusals_are_recognised() -> None:
    from ragmeter.scoring.attribution.trust import is_attributed_refusal

    assert is_attributed_refusal(
        "I apologize, but I couldn't find an answer to your question in the search results."
    )
    assert is_attributed_refusal("The provided documents do not contain this information.")
    assert is_attributed_refusal("I don't know.")
    assert not is_attributed_refusal("Paris is the capital of France [1].")
    assert not is_attributed_refusal("I could not find an answer, but I think it is Paris.")
