"""qa-feedback checks: pairwise agreement, sentence labels, baselines on the real files, the CLI."""

from __future__ import annotations

import asyncio
import json

import pytest
from scoring_fakes import AllWordsLLM
from typer.testing import CliRunner

from ragmeter.cli.main import app
from ragmeter.data.qa_feedback import read_qa_feedback
from ragmeter.scoring.attribution.alce import split_sentences
from ragmeter.scoring.attribution.nli import NLI, load_nli
from ragmeter.scoring.meta.feedback import (
    PREFERENCE_METRICS,
    SPAN_DETECTORS,
    check_preferences,
    check_spans,
    evidence,
    pair_agreement,
    sentence_labels,
)
from ragmeter.types import ErrorSpan, Passage, QAFeedback, Question

DEV = "qa_feedback/dev_feedback_first100.json"


def test_pair_agreement_skips_human_ties_and_halves_metric_ties() -> None:
    scores = [3.0, 2.0, 2.0, 1.0]
    # 1v2 first preferred (agree), 1v3 tie (skipped), 1v4 second preferred (disagree),
    # 2v3 first preferred (metric tie: half), 2v4 second (disagree), 3v4 first (agree)
    assert pair_agreement(scores, [1, 0, 2, 1, 2, 1]) == [1.0, 0.0, 0.5, 0.0, 1.0]


def test_sentence_labels_need_a_real_share_of_the_sentence() -> None:
    text = "First sentence is fine. Second one is wrong here. Third."
    sents = split_sentences(text)
    wrong = text.index("Second")
    labels = sentence_labels(text, sents, [(wrong, wrong + 20), (0, 3), (500, 600)])
    assert labels == [False, True, False]


def _toy() -> Question:
    passages = [Passage(title="Bloom", text="Bloom was released in 2018. It has ten songs.")]
    preds = [
        "Bloom was released in 2018.",
        "Bloom was released in 2018. It has ten songs.",
        "Bloom was released in 1999.",
        "",
    ]
    bad = preds[0].index("in 2018")
    return Question(
        id="t",
        dataset="qa_feedback",
        query="When was Bloom released?",
        answers=[["Bloom was released in 2018. It has ten songs."]],
        passages=passages,
        feedback=QAFeedback(
            predictions=preds,
            error_spans=[ErrorSpan(error_type="Unverifiable", start=bad, end=len(preds[0]))],
            preferences=[2, 1, 1, 1, 1, 1],
        ),
    )


def test_nli_metrics_and_detectors_run_on_a_toy_question() -> None:
    nli = NLI(AllWordsLLM())
    q = _toy()
    for name in PREFERENCE_METRICS.names():
        scores = asyncio.run(PREFERENCE_METRICS.get(name).fn(q, q.feedback.predictions, nli))  # type: ignore[union-attr]
        assert len(scores) == 4, name
    gold_recall = asyncio.run(
        PREFERENCE_METRICS.get("nli-gold-recall").fn(q, q.feedback.predictions, nli)  # type: ignore[union-attr]
    )
    assert gold_recall[1] > gold_recall[0] > gold_recall[2]
    result = asyncio.run(check_preferences([q], "nli-gold-recall", nli))
    assert result.n_pairs == 6 and result.agreement == pytest.approx(1.0)
    assert evidence(q, "Bloom has ten songs", k=1) == "Title: Bloom\nIt has ten songs."
    for name in SPAN_DETECTORS.names():
        flags = asyncio.run(
            SPAN_DETECTORS.get(name).fn(q, split_sentences("Bloom has 99 songs."), nli)
        )
        assert flags == [True], name


def test_questions_without_usable_feedback_are_skipped_and_counted() -> None:
    q = _toy()
    short = q.model_copy(update={"feedback": QAFeedback(predictions=["a", "b"])})
    none = q.model_copy(update={"feedback": None})
    result = asyncio.run(check_preferences([q, short, none], "length"))
    assert result.n_questions == 1
    assert result.skipped == {"fewer_than_4_predictions": 1, "no_feedback": 1}
    with pytest.raises(ValueError):
        asyncio.run(check_preferences([none], "length"))


def test_real_file_baselines_and_lexical_spans(mirror_file) -> None:  # type: ignore[no-untyped-def]
    questions = list(read_qa_feedback(mirror_file(DEV)))
    pref = asyncio.run(check_preferences(questions, "rougeL"))
    assert pref.n_questions == 100 and pref.n_pairs == 556
    assert pref.baselines["rougeL"] == pref.agreement
    assert 0.5 < pref.agreement < 0.7
    spans = asyncio.run(check_spans(questions, "lexical"))
    assert spans.n_sentences > 300 and 0 < spans.n_unsupported < spans.n_sentences
    assert spans.scores == spans.baseline
    assert spans.scores.f1 > 0.3


def test_cli_json_and_errors(mirror_file, tmp_path) -> None:  # type: ignore[no-untyped-def]
    runner = CliRunner()
    path = str(mirror_file(DEV))
    res = runner.invoke(
        app, ["judge-check", "preferences", "--data", path, "--metric", "length", "--json"]
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert set(out) >= {"n_pairs", "agreement", "baselines"}
    assert set(out["baselines"]) == {"rougeL", "length"}
    assert out["agreement"] == out["baselines"]["length"]
    res = runner.invoke(
        app,
        ["judge-check", "spans", "--data", path, "--detector", "lexical", "--json", "--limit", "5"],
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["baseline"]["name"] == "lexical"
    res = runner.invoke(app, ["judge-check", "preferences", "--data", str(tmp_path / "no.json")])
    assert res.exit_code != 0


@pytest.mark.model
def test_default_metric_and_detector_with_the_local_model(mirror_file, tmp_path) -> None:  # type: ignore[no-untyped-def]
    questions = list(read_qa_feedback(mirror_file(DEV)))[:2]

    async def go():  # type: ignore[no-untyped-def]
        nli = load_nli("local", cache=tmp_path / "c.sqlite")
        try:
            pref = await check_preferences(questions, "default", nli)
            spans = await check_spans(questions, "default", nli)
            return pref, spans
        finally:
            await nli.aclose()

    pref, spans = asyncio.run(go())
    assert pref.n_questions == 2 and 0.0 <= pref.agreement <= 1.0
    assert spans.n_questions == 2 and spans.n_sentences >= 2
