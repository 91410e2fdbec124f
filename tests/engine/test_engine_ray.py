"""The Ray executor (local Ray, 2 CPUs) writes the same journal and results as the local one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragmeter.config import parse_run_spec
from ragmeter.engine.journal import read_header, read_journal
from ragmeter.engine.runner import prepare, run

SMOL = "llamacpp:smollm2-135m-instruct"


@pytest.mark.model
@pytest.mark.slow
def test_ray_two_cpus_equals_local(
    crag_sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("ray")
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    text = f"""\
name: ray-equality
data:
  path: {crag_sample}
  limit: 4
pipeline:
  name: rag
  options:
    top_k: 2
llm: {SMOL}
llm_options:
  n_threads: 1
generation:
  max_tokens: 16
scoring:
  judge: null
cache: false
budget:
  # Generous: an overrun on a busy machine would make the runs differ for the wrong reason.
  time_per_question_s: 600
executor:
  num_cpus: 2
  workers: 2
  batch_size: 1
"""
    local = run(prepare(parse_run_spec(text, "spec.yaml"), tmp_path / "local"))
    remote = run(
        prepare(parse_run_spec(text, "spec.yaml", ["executor.kind=ray"]), tmp_path / "ray")
    )
    a = sorted((r.comparable() for r in read_journal(tmp_path / "local")), key=lambda d: d["index"])
    b = sorted((r.comparable() for r in read_journal(tmp_path / "ray")), key=lambda d: d["index"])
    assert len(a) == 4 and a == b
    assert all(d["answer"]["text"] for d in a)
    assert local == remote
    workers = {r.worker for r in read_journal(tmp_path / "ray")}
    assert workers == {"ray-0", "ray-1"}
    assert read_header(tmp_path / "ray").executor == "ray"
    assert json.loads((tmp_path / "ray" / "results.json").read_text()) == json.loads(
        (tmp_path / "local" / "results.json").read_text()
    )
