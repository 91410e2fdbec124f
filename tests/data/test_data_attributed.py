"""Trust-Score / ALCE files and all six qa-feedback kinds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_data import write_file

from ragmeter.data.alce import answers_present, normalize_answer, read_alce
from ragmeter.data.formats import detect_format, read_questions
from ragmeter.data.qa_feedback import kind_of, read_qa_feedback
from ragmeter.errors import DataError

TRUST_ROWS = [
    {
        "question": "Who has the highest goals in world football?",
        "answers": [["Daei", "Ali Daei"], ["Bican", "Josef Bican"]],
        "docs": [
            {
                "title": "A",
                "text": "Ali Daei scored 109.",
                "answers_found": [1, 0],
                "rec_score": 0.5,
            },
            {"title": "B", "text": "Nothing here.", "answers_found": [0, 0], "rec_score": 0.0},
        ],
    }
]

ALCE_ROWS = [
    {
        "question": "When did the US break away from England?",
        "answer": "The US declared independence on July 2, 1776.",
        "qa_pairs": [
            {"short_answers": ["July 2, 1776"]},
            {"short_answers": ["1783", "Sept. 1783"]},
        ],
        "sample_id": "-123",
        "docs": [
            {"title": "T", "text": "Independence was declared July 2, 1776.", "score": 1.2},
            {"title": "U", "text": "The treaty was signed in 1783.", "score": 0.8},
        ],
    },
    {
        "question": "Why is the sky blue?",
        "claims": ["Rayleigh scattering favours short wavelengths."],
        "docs": [{"title": "S", "text": "Rayleigh scattering."}],
    },
]


def test_normalised_presence() -> None:
    assert normalize_answer("The  U.S.A., an Example!") == "usa example"
    assert answers_present([["Ali Daei"], ["Bican"], ["the Daei"]], "ali daei's record") == [
        0,
        0,
        0,
    ]
    assert answers_present([["Ali Daei"], ["Bican"]], "Record: Ali Daei, 109 goals") == [1, 0]


def test_trust_score_rows_keep_shipped_fields(tmp_path: Path) -> None:
    p = write_file(tmp_path / "asqa_eval_top100_calibrated.json", json.dumps(TRUST_ROWS).encode())
    assert detect_format(p) == "alce"
    (q,) = list(read_questions(p))
    assert q.dataset == "asqa" and q.id == "asqa-0"
    assert q.answers == [["Daei", "Ali Daei"], ["Bican", "Josef Bican"]]
    assert [d.answers_found for d in q.passages] == [[1, 0], [0, 0]]
    assert [d.rec_score for d in q.passages] == [0.5, 0.0]
    assert not any(d.answers_found_computed for d in q.passages)


def test_alce_rows_compute_answers_found_and_keep_extras(tmp_path: Path) -> None:
    p = write_file(
        tmp_path / "asqa_eval_gtr_top100.jsonl.gz",
        b"\n".join(json.dumps(r).encode() for r in ALCE_ROWS),
    )
    first, second = list(read_alce(p))
    assert first.id == "-123"
    assert first.answers == [["July 2, 1776"], ["1783", "Sept. 1783"]]
    assert [d.answers_found for d in first.passages] == [[1, 0], [0, 1]]
    assert all(d.answers_found_computed and d.rec_score is None for d in first.passages)
    assert first.extras["answer"].startswith("The US declared")
    assert first.extras["doc_extras"] == [{"score": 1.2}, {"score": 0.8}]
    # Claims are not short aliases: presence would be meaningless, so nothing is computed.
    assert second.answers == [["Rayleigh scattering favours short wavelengths."]]
    assert second.passages[0].answers_found is None


def test_answers_found_length_must_match(tmp_path: Path) -> None:
    rows = json.loads(json.dumps(TRUST_ROWS))
    rows[0]["docs"][1]["answers_found"] = [0]
    p = write_file(tmp_path / "qampari.json", json.dumps(rows, indent=1).encode())
    with pytest.raises(DataError, match="1 entries for 2 answers") as err:
        list(read_alce(p))
    assert err.value.line == 2


@pytest.mark.parametrize("name", ["asqa", "qampari", "eli5"])
def test_real_alce_demos(mirror_file, name: str) -> None:  # type: ignore[no-untyped-def]
    p = mirror_file(f"alce/demos/{name}_default.json")
    qs = list(read_questions(p))
    assert len(qs) == 4 and all(q.dataset == name for q in qs)
    assert all(len(q.passages) == 5 and q.passages[0].title and q.passages[0].text for q in qs)
    assert all("[1]" in q.extras["answer"] or "[2]" in q.extras["answer"] for q in qs)


KINDS = ["train", "train_1k", "train_feedback", "dev", "dev_feedback", "test"]


@pytest.mark.parametrize("kind", KINDS)
def test_real_qa_feedback_files(mirror_file, kind: str) -> None:  # type: ignore[no-untyped-def]
    p = mirror_file(f"qa_feedback/{kind}_first100.json")
    assert kind_of(p) == kind
    assert detect_format(p) == "qa_feedback"
    qs = list(read_qa_feedback(p))
    assert len(qs) == 100
    assert [q.id for q in qs[:2]] == [f"{kind}-0", f"{kind}-1"]
    assert all(q.labels.split == kind and q.query for q in qs)
    assert all(q.answers and all(q.answers[0]) for q in qs)
    if kind.endswith("_feedback"):
        for q in qs:
            fb = q.feedback
            assert fb is not None and len(fb.predictions) == 4
            assert len(fb.preferences) == 6 and set(fb.preferences) <= {0, 1, 2}
            for span in fb.error_spans:
                assert 0 <= span.start <= span.end <= len(fb.predictions[0])
            sentences = q.extras["passage_sentences"]
            assert len(sentences) == len(q.passages)
            for m in fb.missing_info:
                assert m.sentence_ids and m.passage_id is not None
                assert 1 <= m.passage_id <= len(q.passages)
        types = {s.error_type for q in qs for s in q.feedback.error_spans}  # type: ignore[union-attr]
        assert types <= {"Irrelevant", "Wrong-Grounding", "Unverifiable", "Redundant", "Incoherent"}
        assert any(q.feedback and q.feedback.missing_info for q in qs)
    else:
        assert all(q.feedback is None and "text" in q.extras for q in qs)
        assert sum(len(q.passages) for q in qs) > 100
        if kind == "test":
            assert all(len(q.answers[0]) == 2 for q in qs)


def test_bad_qa_feedback_span(tmp_path: Path, mirror_file) -> None:  # type: ignore[no-untyped-def]
    rows = json.loads(mirror_file("qa_feedback/dev_feedback_first100.json").read_text())[:3]
    rows[2]["feedback"]["errors"][0]["start"] = -4
    p = write_file(tmp_path / "dev_feedback.json", json.dumps(rows, indent=2).encode())
    with pytest.raises(DataError, match="0 <= start <= end"):
        list(read_qa_feedback(p))
