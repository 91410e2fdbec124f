"""``ragmeter retrieval-eval`` and ``ragmeter index``: the commands as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def ragmeter(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ragmeter", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "RAGMETER_CACHE_DIR": str(cache), "HF_HUB_OFFLINE": "1"},
    )


def test_retrieval_eval_json_shape(crag_sample: Path, tmp_path: Path) -> None:
    args = ("retrieval-eval", "--dataset", str(crag_sample), "--retriever", "bm25", "-k", "5,10,20")
    r = ragmeter(*args, "--json", cache=tmp_path)
    assert r.returncode == 0, r.stderr
    body = json.loads(r.stdout)
    assert list(body) == ["n", "recall_at_k", "mrr", "slices"]
    assert body["n"] == 9  # one of the 10 sample answers is "yes": not matchable in text
    assert list(body["recall_at_k"]) == ["5", "10", "20"]
    r5, r10, r20 = body["recall_at_k"].values()
    assert 0 < r5 <= r10 <= r20 <= 1 and 0 < body["mrr"] <= 1
    assert sum(s["n"] for s in body["slices"]["domain"].values()) == 9
    assert set(body["slices"]["domain"]["finance"]) == {"n", "recall_at_k", "mrr"}
    assert "1 of 10 questions have answers that text cannot attest" in r.stderr
    # The second run reads every page's text from the cache and gives the same figures.
    again = ragmeter(*args, "--json", cache=tmp_path)
    assert json.loads(again.stdout) == body
    table = ragmeter(*args, cache=tmp_path)
    assert table.returncode == 0 and table.stdout.splitlines()[1].startswith("all")


def test_user_errors_exit_2(crag_sample: Path, tmp_path: Path) -> None:
    r = ragmeter("retrieval-eval", "--dataset", str(crag_sample), "-k", "5,x", cache=tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("error: -k must be comma-separated")
    r = ragmeter(
        "retrieval-eval", "--dataset", str(crag_sample), "--retriever", "bm52", cache=tmp_path
    )
    assert r.returncode == 2 and "did you mean 'bm25'" in r.stderr
    r = ragmeter("index", "info", str(tmp_path), cache=tmp_path)
    assert r.returncode == 2 and "not a ragmeter index" in r.stderr
