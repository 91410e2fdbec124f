"""Reading run folders: what a report accepts, and the clear errors for what it does not."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest
from report_fixtures import make_records, write_run

from ragmeter.errors import ConfigError, DataError
from ragmeter.report import load_run, load_runs


def test_reads_a_run_folder(run_a: Path) -> None:
    run = load_run(run_a)
    assert run.name == "rag-bm25"
    assert len(run.samples) == run.results.n == 120
    assert [s.index for s in run.samples] == list(range(120))
    assert run.header is not None and run.header.data is not None
    assert run.header.data.selected == 120
    assert set(run.results.slices) >= {"domain", "question_type", "static_or_dynamic"}
    assert "asqa" in run.results.extra_blocks["trust"]
    first = run.samples[0]
    assert first.answer is not None and len(first.answer.retrieved) == 5
    assert "generation" in first.all_stages


def test_journal_order_is_restored(tmp_path: Path) -> None:
    # The engine appends records as questions finish, not in selection order.
    records = make_records(10, seed=4)
    folder = write_run(tmp_path / "r", list(reversed(records)))
    assert [s.index for s in load_run(folder).samples] == list(range(10))


def test_a_folder_without_results_says_how_to_fix_it(tmp_path: Path, run_a: Path) -> None:
    folder = tmp_path / "unscored"
    folder.mkdir()
    shutil.copy(run_a / "samples.jsonl", folder / "samples.jsonl")
    with pytest.raises(ConfigError, match=r"no results\.json.*ragmeter score"):
        load_run(folder)
    with pytest.raises(ConfigError, match="not a directory"):
        load_run(tmp_path / "nowhere")


def test_a_broken_line_names_file_and_line(tmp_path: Path, run_a: Path) -> None:
    folder = tmp_path / "broken"
    shutil.copytree(run_a, folder)
    lines = (folder / "samples.jsonl").read_bytes().split(b"\n")
    lines[4] = b'{"id": "x", "label": "maybe"}'
    (folder / "samples.jsonl").write_bytes(b"\n".join(lines))
    with pytest.raises(DataError) as err:
        load_run(folder)
    assert err.value.line == 5
    assert "samples.jsonl" in str(err.value)


def test_a_torn_last_line_is_dropped(tmp_path: Path, run_a: Path) -> None:
    folder = tmp_path / "torn"
    shutil.copytree(run_a, folder)
    with open(folder / "samples.jsonl", "ab") as f:
        f.write(b'{"id": "half", "label": "corr')
    assert len(load_run(folder).samples) == 120


def test_unknown_fields_are_ignored_but_bad_results_are_errors(tmp_path: Path, run_a: Path) -> None:
    folder = tmp_path / "newer"
    shutil.copytree(run_a, folder)
    results = orjson.loads((folder / "results.json").read_bytes())
    results["a_field_from_the_future"] = [1, 2]
    (folder / "results.json").write_bytes(orjson.dumps(results))
    assert load_run(folder).results.n == 120
    results["n"] = "many"
    (folder / "results.json").write_bytes(orjson.dumps(results))
    with pytest.raises(DataError, match=r"results\.json.*n"):
        load_run(folder)
    (folder / "results.json").write_bytes(b"{not json")
    with pytest.raises(DataError, match="not JSON"):
        load_run(folder)


def test_a_scored_only_folder_has_no_header(tmp_path: Path, run_a: Path) -> None:
    folder = tmp_path / "scored-only"
    shutil.copytree(run_a, folder)
    (folder / "header.json").unlink()
    run = load_run(folder)
    assert run.header is None
    assert run.name == "scored-only"


def test_colliding_names_get_their_folder(tmp_path: Path, run_a: Path) -> None:
    shutil.copytree(run_a, tmp_path / "again")
    names = [r.name for r in load_runs([run_a, tmp_path / "again"])]
    assert names == [f"rag-bm25 ({run_a.name})", "rag-bm25 (again)"]
    with pytest.raises(ConfigError):
        load_runs([])
