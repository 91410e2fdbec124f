"""ALCE metrics: sentences, citations, STR-EM/HIT, QAMPARI, ROUGE-L, claim recall, citations."""

from __future__ import annotations

import asyncio
import re

import pytest
from scoring_fakes import AllWordsLLM

from ragmeter.data.alce import read_alce
from ragmeter.scoring.attribution.alce import (
    answer_length,
    citation_quality,
    cited_sentences,
    claim_recall,
    lcs_length,
    qampari_scores,
    remove_citations,
    rouge_l,
    rouge_n,
    score_alce,
    split_sentences,
    str_em,
    str_hit,
)
from ragmeter.scoring.attribution.nli import NLI, load_nli
from ragmeter.types import Passage, Question

DOCS = [
    Passage(title="France", text="Paris is the capital of France."),
    Passage(title="Germany", text="Berlin is the capital of Germany."),
    Passage(title="Tower", text="The Eiffel tower is in Paris."),
]


def test_sentences_keep_offsets_abbreviations_and_trailing_citations() -> None:
    text = "J. K. Rowling lived in the U.S. in 1997. It sold well [1][2]. Then more. [3] Done"
    sents = split_sentences(text)
    assert [s.text for s in sents] == [
        "J. K. Rowling lived in the U.S. in 1997.",
        "It sold well [1][2].",
        "Then more. [3]",
        "Done",
    ]
    assert all(text[s.start : s.end] == s.text for s in sents)


def test_citations_parse_forms_and_flag_documents_that_do_not_exist() -> None:
    sents = cited_sentences("A [1][3]. B [2, 3]. C [7]. D [0].", n_docs=3)
    assert [s.citations for s in sents] == [[0, 2], [1, 2], [], []]
    assert [s.bad_citations for s in sents] == [[], [], [7], [0]]
    assert [s.claim for s in sents] == ["A.", "B.", "C.", "D."]
    assert remove_citations("Paris [1], France [2].") == "Paris, France."
    given = cited_sentences("First. Second.", 3, citations=[[0], [1, 2]])
    assert [s.citations for s in given] == [[0], [1, 2]]
    q = cited_sentences("Marazan [1], On the Beach [3].", 3, qampari_question="Books?")
    assert [s.claim for s in q] == ["Books? Marazan", "Books? On the Beach"]


def test_str_em_and_hit_match_whole_normalised_words() -> None:
    answers = [["Mawsynram"], ["Cherrapunji", "Sohra"], ["1861"]]
    text = "The record is held by Mawsynram [1]; sohra held it in 18610."
    assert str_em(answers, text) == pytest.approx(2 / 3)
    assert str_hit(answers, text) == 0.0
    assert str_hit(answers, text + " In 1861 too.") == 1.0
    with pytest.raises(ValueError):
        str_em([], text)


def test_qampari_precision_recall_and_recall_5() -> None:
    answers = [[f"book {i}"] for i in range(8)] + [["On the Beach", "Beach"]]
    s = qampari_scores(answers, "Book 1 [1], book 2, The beach, unknown title.")
    assert s.n_predicted == 4
    assert s.precision == pytest.approx(3 / 4)
    assert s.recall == pytest.approx(3 / 9)
    assert s.recall_5 == pytest.approx(3 / 5)
    assert s.f1_5 == pytest.approx(2 * 0.75 * 0.6 / 1.35)
    assert qampari_scores(answers, "").precision == 0.0


def test_rouge_l_and_length() -> None:
    assert lcs_length(["a", "b", "c", "d"], ["a", "c", "d", "e"]) == 3
    # LCS 3 of 4 prediction tokens and 4 reference tokens.
    assert rouge_l("a b c d [1]", ["x y", "a c d e"]) == pytest.approx(0.75)
    assert rouge_l("", "a b") == 0.0
    assert answer_length("One two [1] three.") == 3
    # Clipped unigrams: "a" counts once against one "a" in the reference.
    assert rouge_n("a a b", "a b c d", 1) == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))
    assert rouge_n("a b", ["c d", "a b"], 2) == pytest.approx(1.0)


def test_citation_recall_and_precision_follow_alce() -> None:
    text = (
        "Paris is the capital of France [1][2]. "  # supported; [2] irrelevant
        "Berlin is the capital of Germany. "  # no citation
        "The Eiffel tower is in Paris [5]. "  # cites a document that does not exist
        "Berlin capital Germany Paris France [1][2]."  # needs both: both precise
    )
    q = asyncio.run(citation_quality(NLI(AllWordsLLM()), text, DOCS))
    assert q.n_sentences == 4 and q.n_supported == 2
    assert q.recall == pytest.approx(0.5)
    assert q.n_citations == 5 and q.n_precise == 3
    assert q.precision == pytest.approx(0.6)
    assert q.sentences_without_citations == 1 and q.bad_citations == 1
    empty = asyncio.run(citation_quality(NLI(AllWordsLLM()), "", DOCS))
    assert (empty.recall, empty.precision, empty.n_sentences) == (0.0, 0.0, 0)


def test_claim_recall_counts_entailed_claims() -> None:
    nli = NLI(AllWordsLLM())
    claims = ["Paris is the capital", "Berlin is big"]
    assert asyncio.run(claim_recall(nli, claims, "Paris is the capital [1].")) == 0.5


def test_real_alce_demos_parse_into_cited_sentences(mirror_file) -> None:  # type: ignore[no-untyped-def]
    for name in ("asqa", "qampari", "eli5"):
        questions = list(read_alce(mirror_file(f"alce/demos/{name}_default.json")))
        assert len(questions) == 4
        for q in questions:
            answer = q.extras["answer"]
            qq = q.query if name == "qampari" else None
            sents = cited_sentences(answer, len(q.passages), qampari_question=qq)
            assert sents and all(s.citations and not s.bad_citations for s in sents)


@pytest.mark.model
def test_real_model_citation_quality_on_an_alce_demo(mirror_file, tmp_path) -> None:  # type: ignore[no-untyped-def]
    q = next(iter(read_alce(mirror_file("alce/demos/asqa_default.json"))))

    async def go():  # type: ignore[no-untyped-def]
        nli = load_nli("local", cache=tmp_path / "c.sqlite")
        try:
            good = await citation_quality(nli, q.extras["answer"], q.passages)
            # The same sentences citing a passage about something else.
            wrong = re.sub(r"\[\d+\]", "[5]", q.extras["answer"])
            bad = await citation_quality(nli, wrong, q.passages)
            return good, bad
        finally:
            await nli.aclose()

    good, bad = asyncio.run(go())
    assert good.recall > bad.recall


def test_score_alce_picks_the_metrics_of_each_data_set() -> None:
    nli = NLI(AllWordsLLM())
    asqa = Question(
        id="a",
        dataset="asqa",
        query="Capital?",
        answers=[["Paris"], ["Berlin"]],
        passages=DOCS,
        extras={"annotations": [{"long_answer": "Paris is the capital of France."}]},
    )
    s = asyncio.run(score_alce(asqa, "Paris is the capital of France [1].", nli))
    assert s.str_em == 0.5 and s.str_hit == 0.0 and s.qampari is None
    assert s.rouge_l == pytest.approx(1.0) and s.length == 6
    assert s.citation is not None and s.citation.recall == 1.0
    eli5 = asqa.model_copy(update={"dataset": "eli5", "answers": [["Paris is the capital"]]})
    s = asyncio.run(score_alce(eli5, "Paris is the capital of France [1].", nli))
    assert s.claim_recall == 1.0 and s.str_em is None
    qampari = asqa.model_copy(update={"dataset": "qampari"})
    s = asyncio.run(score_alce(qampari, "Paris [1], Rome [3].", None))
    assert s.qampari is not None and s.qampari.precision == 0.5 and s.citation is None
