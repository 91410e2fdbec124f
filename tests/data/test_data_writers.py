"""Atomic writers, predictions, JSON Lines and Parquet export, stratified subsampling."""

from __future__ import annotations

import bz2
import json
from collections import Counter
from pathlib import Path

import pytest
from helpers_data import crag_row, dumps_lines, write_file

from ragmeter.data.formats import detect_format, read_questions
from ragmeter.data.jsonl import SkipLog
from ragmeter.data.predictions import Prediction, read_predictions, write_predictions
from ragmeter.data.subsample import STRATA, assign_parts, subsample
from ragmeter.data.writers import atomic_binary, export_questions, write_jsonl
from ragmeter.errors import DataError
from ragmeter.types import Question


def test_failed_write_leaves_nothing_under_the_final_name(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl.bz2"

    def rows():  # type: ignore[no-untyped-def]
        yield {"a": 1}
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError):
        write_jsonl(target, rows())
    assert list(tmp_path.iterdir()) == []
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_binary(target) as out:
        out.write(b"new")
        raise RuntimeError("stop")
    assert target.read_bytes() == b"old"


def test_predictions_round_trip(tmp_path: Path) -> None:
    p = tmp_path / "preds.jsonl"
    assert (
        write_predictions(p, [("q1", "paris"), Prediction(id="q2", prediction="i don't know")]) == 2
    )
    assert p.read_text().splitlines()[0] == '{"id":"q1","prediction":"paris"}'
    assert detect_format(p) == "predictions"
    assert [x.id for x in read_predictions(p)] == ["q1", "q2"]
    p.write_text('{"id": "q1", "prediction": "a"}\n{"id": "q2"}\n')
    with pytest.raises(DataError, match="line 2: bad prediction: prediction: Field required"):
        list(read_predictions(p))


def test_export_jsonl_round_trips_every_kind(
    tmp_path: Path,
    sample_questions: list[Question],
    mirror_file,  # type: ignore[no-untyped-def]
) -> None:
    feedback = list(read_questions(mirror_file("qa_feedback/dev_feedback_first100.json")))
    for name, original in (("crag", sample_questions), ("feedback", feedback)):
        out = tmp_path / f"{name}.questions.jsonl.gz"
        assert export_questions(out, original) == len(original)
        assert detect_format(out) == "questions"
        assert list(read_questions(out)) == original


def test_export_parquet(
    tmp_path: Path,
    sample_questions: list[Question],
    mirror_file,  # type: ignore[no-untyped-def]
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    qs = list(sample_questions) + list(
        read_questions(mirror_file("qa_feedback/train_feedback_first100.json"))
    )
    out = tmp_path / "all.parquet"
    assert export_questions(out, qs) == 110
    table = pq.read_table(out)
    assert table.num_rows == 110
    rows = table.to_pylist()
    assert rows[0]["id"] == qs[0].id and rows[0]["answers"] == qs[0].answers
    assert rows[0]["pages"][0]["html"] == qs[0].pages[0].html
    assert rows[0]["labels"]["split"] == "1"
    assert rows[10]["feedback"]["predictions"] == qs[10].feedback.predictions  # type: ignore[union-attr]
    assert (
        json.loads(rows[10]["extras_json"])["passage_sentences"]
        == qs[10].extras["passage_sentences"]
    )


def test_assign_parts_balances_and_is_deterministic() -> None:
    strata = [("a",)] * 7 + [("b",)] * 5 + [("c",)] * 1
    first = assign_parts(strata, 3, seed=1)
    assert first == assign_parts(strata, 3, seed=1)
    assert sorted(Counter(first).values()) == [4, 4, 5]
    for s in ("a", "b"):
        per = Counter(p for p, st in zip(first, strata, strict=True) if st == (s,))
        assert max(per.values()) - min(per.values()) <= 1
    assert any(assign_parts(strata, 3, seed=k) != first for k in range(2, 6))


def test_subsample_real_validation(tmp_path: Path, crag_validation: Path) -> None:
    result = subsample(crag_validation, parts=5, seed=7, out_dir=tmp_path / "a")
    names = [Path(p.path).name for p in result.parts]
    assert names == [f"crag_questions_v3_validation_subsample_{i}.jsonl" for i in range(1, 6)]
    ids: list[str] = []
    whole = Counter(q.labels.domain for q in read_questions(crag_validation))
    for part in result.parts:
        qs = list(read_questions(part.path))
        assert len(qs) == part.rows and part.rows in (274, 275)
        ids += [q.id for q in qs]
        for domain, n in Counter(q.labels.domain for q in qs).items():
            # each part keeps the whole set's proportions, to within the strata's rounding
            assert abs(n - whole[domain] / 5) <= 12
        assert set(part.by) == set(STRATA)
    assert sorted(ids) == sorted(q.id for q in read_questions(crag_validation))
    again = subsample(crag_validation, parts=5, seed=7, out_dir=tmp_path / "b")
    for x, y in zip(result.parts, again.parts, strict=True):
        assert Path(x.path).read_bytes() == Path(y.path).read_bytes()


def test_subsample_keeps_format_and_skips_bad_rows(tmp_path: Path) -> None:
    rows = [crag_row(i) for i in range(30)]
    data = dumps_lines(rows).replace(b'"interaction_id": "q5"', b'"interaction_id": 5, "x": [')
    src = write_file(tmp_path / "in.jsonl.bz2", data)
    with pytest.raises(DataError, match="line 6"):
        subsample(src, parts=3, seed=0, out_dir=tmp_path / "out")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    skips = SkipLog()
    result = subsample(src, parts=3, seed=0, out_dir=tmp_path / "out", skips=skips)
    assert [r.line for r in skips.rows] == [6]
    assert sum(p.rows for p in result.parts) == 29
    for part in result.parts:
        assert part.path.endswith(".jsonl.bz2")
        bz2.decompress(Path(part.path).read_bytes())  # a real bz2 file
    json_src = write_file(tmp_path / "in.json", json.dumps(rows, indent=1).encode())
    result = subsample(json_src, parts=2, seed=0, out_dir=tmp_path / "json")
    assert sum(len(json.loads(Path(p.path).read_text())) for p in result.parts) == 30
