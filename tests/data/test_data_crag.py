"""CRAG rows of every release, real and generated, and the task 3 archive in parts."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest
from helpers_data import crag_row, dumps_lines, task3_archive, write_file

from ragmeter.data.archive import find_parts
from ragmeter.data.crag import answer_type_of, read_crag, read_crag_task3
from ragmeter.data.formats import detect_format, read_questions
from ragmeter.data.jsonl import SkipLog
from ragmeter.errors import DataError
from ragmeter.types import Question


def test_real_sample_rows_with_pages(sample_questions: list[Question]) -> None:
    qs = sample_questions
    assert len(qs) == 10
    assert all(len(q.pages) == 5 for q in qs)
    assert all(
        p.html is not None and p.html_bytes == len(p.html.encode()) for q in qs for p in q.pages
    )
    assert sum(1 for q in qs for p in q.pages if not p.html) == 3  # empty pages are real, kept
    assert sum(p.html_bytes for q in qs for p in q.pages) > 10_000_000
    nan = [q for q in qs if q.answer == "nan"]
    assert len(nan) == 1 and nan[0].answers == [["nan"]]  # kept as given, not a float


def test_real_sample_without_html_keeps_sizes(
    crag_sample: Path, sample_questions: list[Question]
) -> None:
    with_html = [p.html_bytes for q in sample_questions for p in q.pages]
    without = list(read_crag(crag_sample, with_html=False))
    assert all(p.html is None for q in without for p in q.pages)
    assert [p.html_bytes for q in without for p in q.pages] == with_html


def test_real_validation_distributions(crag_validation: Path) -> None:
    qs = list(read_crag(crag_validation))
    assert len(qs) == 1371
    assert Counter(q.labels.domain for q in qs) == {
        "finance": 335,
        "movie": 302,
        "open": 274,
        "sports": 266,
        "music": 194,
    }
    assert Counter(q.labels.answer_type for q in qs) == {
        "valid": 1200,
        "invalid": 156,
        "no_answer": 15,
    }
    assert {q.labels.split for q in qs} == {0}
    assert len({q.id for q in qs}) == 1371


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ("invalid question", "invalid"),
        ("Invalid Question ", "invalid"),
        ("i don't know", "no_answer"),
        ("I don't know", "no_answer"),
        ("nan", "valid"),
        ("i don't know the answer", "valid"),
    ],
)
def test_answer_type(answer: str, kind: str) -> None:
    assert answer_type_of(answer) == kind


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.bz2", ".jsonl.gz", ".json"])
@pytest.mark.parametrize("release", ["v4", "v5"])
def test_generated_releases_in_every_container(tmp_path: Path, suffix: str, release: str) -> None:
    rows = [crag_row(i, release) for i in range(8)]
    data = json.dumps(rows).encode() if suffix == ".json" else dumps_lines(rows)
    p = write_file(tmp_path / f"crag{suffix}", data)
    assert detect_format(p) == "crag"
    qs = list(read_questions(p))
    assert [q.id for q in qs] == [f"q{i}" for i in range(8)]
    assert qs[1].answers == [["invalid question", "alt 1"]]
    assert qs[1].labels.answer_type == "invalid" and qs[2].labels.answer_type == "no_answer"
    assert qs[3].answer == "nan"
    if release == "v5":
        assert [q.labels.popularity for q in qs[:4]] == ["head", "torso", "tail", None]
    else:
        assert all(q.labels.popularity is None for q in qs)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.pop("answer"), "missing required field(s): answer"),
        (lambda r: r.update(answer=["a", "b"]), "'answer' must be a string"),
        (lambda r: r.update(alternative_answers="[oops"), "not a JSON list"),
        (lambda r: r.update(search_results={"a": 1}), "'search_results' must be a list"),
        (lambda r: r.update(domain=["finance"]), "'domain' must be a string"),
    ],
)
def test_bad_row_names_file_and_line(tmp_path: Path, mutate: object, message: str) -> None:
    rows = [crag_row(i) for i in range(5)]
    mutate(rows[3])  # type: ignore[operator]
    p = write_file(tmp_path / "bad.jsonl", dumps_lines(rows))
    with pytest.raises(DataError) as err:
        list(read_crag(p))
    assert err.value.line == 4 and message in str(err.value)
    skips = SkipLog()
    assert [q.id for q in read_crag(p, skips=skips)] == ["q0", "q1", "q2", "q4"]
    assert [r.line for r in skips.rows] == [4]


def test_task3_archive_read_across_parts(tmp_path: Path) -> None:
    parts = task3_archive(tmp_path, rows_per_member=[4, 3, 5], parts=4)
    before = sorted(os.listdir(tmp_path))
    for given in (parts[0], parts[2], tmp_path / "crag_task_3_dev_v4.tar.bz2"):
        qs = list(read_crag_task3(given))
        assert [q.id for q in qs] == [f"q{i}" for i in range(12)]
        assert all(len(q.pages) == 3 and q.pages[0].html for q in qs)
    assert detect_format(parts[0]) == "crag_task3"
    assert len(list(read_questions(parts[1], with_html=False))) == 12
    assert sorted(os.listdir(tmp_path)) == before  # no joined copy was written


def test_task3_missing_part_is_reported(tmp_path: Path) -> None:
    parts = task3_archive(tmp_path, rows_per_member=[2, 2], parts=3)
    parts[1].unlink()
    with pytest.raises(DataError, match=r"missing part\(s\) \[2\]"):
        find_parts(parts[0])


def test_task3_bad_row_names_member_and_line(tmp_path: Path) -> None:
    import io
    import tarfile

    rows = dumps_lines([crag_row(0), crag_row(1)]) + b'{"interaction_id": "x"}\n'
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:bz2") as tar:
        info = tarfile.TarInfo("t3/part_0.jsonl")
        info.size = len(rows)
        tar.addfile(info, io.BytesIO(rows))
    (tmp_path / "t3.tar.bz2.part1").write_bytes(buf.getvalue())
    with pytest.raises(DataError) as err:
        list(read_crag_task3(tmp_path / "t3.tar.bz2.part1"))
    assert "!t3/part_0.jsonl, line 3" in str(err.value)


def test_format_detection_reports_a_broken_only_row(tmp_path: Path) -> None:
    p = tmp_path / "one.jsonl"
    p.write_text('{"interaction_id": "a", "query')
    with pytest.raises(DataError, match="invalid JSON") as err:
        detect_format(p)
    assert err.value.line == 1
    p.write_text('{"what": 1}\n')
    with pytest.raises(DataError, match=r"cannot tell the data format.*fields: what"):
        detect_format(p)


def test_numbers_where_strings_are_expected_are_read_as_strings(tmp_path: Path) -> None:
    row = {"interaction_id": "q1", "query": "how many?", "answer": 3, "alt_ans": [0, 2.5]}
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    (q,) = list(read_crag(path))
    assert q.answers == [["3", "0", "2.5"]]
