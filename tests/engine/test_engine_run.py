"""Runs with fast in-process systems: journal, resume, budgets, adapters, selection."""

from __future__ import annotations

import http.server
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragmeter.config import parse_run_spec
from ragmeter.engine.journal import Journal, read_header, read_journal
from ragmeter.engine.runner import ErrorBudgetExceeded, prepare, run
from ragmeter.errors import ConfigError

REPO = Path(__file__).resolve().parents[2]
USERDEFS = REPO / "tests" / "engine" / "engine_userdefs.py"


def spec_text(data: Path, target: str, extra: str = "") -> str:
    return f"""\
name: t
data:
  path: {data}
pipeline:
  name: callable
  options:
    target: {USERDEFS}:{target}
scoring:
  judge: null
{extra}"""


def run_spec(text: str, out: Path, sets: list[str] | None = None, resume: bool = False):  # type: ignore[no-untyped-def]
    plan = prepare(parse_run_spec(text, "spec.yaml", sets), out, resume=resume)
    return run(plan)


def test_run_writes_header_journal_results(crag_sample: Path, tmp_path: Path) -> None:
    results = run_spec(spec_text(crag_sample, "gold_answer"), tmp_path / "run")
    header = read_header(tmp_path / "run")
    records = read_journal(tmp_path / "run")
    assert header.data.selected == 10 and len(header.data.sha256) == 64
    assert header.spec["pipeline"]["name"] == "callable" and len(header.spec_hash) == 64
    assert "python" in header.versions
    assert sorted(r.index for r in records) == list(range(10))
    assert len({r.id for r in records}) == 10
    scored = [r for r in records if r.label != "unscored"]
    assert len(scored) == 9  # the gold of one sample question is the string "nan"
    assert all(r.label == "correct" and r.rule == "exact_match" for r in scored)
    assert all(r.answer is not None and "judging" in r.stages for r in records)
    assert results.n == 10 and results.accuracy.value == 1.0
    saved = json.loads((tmp_path / "run" / "results.json").read_text())
    assert saved["accuracy"]["value"] == 1.0 and saved["n"] == 10


def test_existing_folder_needs_resume_and_same_spec(crag_sample: Path, tmp_path: Path) -> None:
    text = spec_text(crag_sample, "gold_answer")
    run_spec(text, tmp_path / "run", ["data.limit=3"])
    with pytest.raises(ConfigError, match="already holds a run"):
        run_spec(text, tmp_path / "run", ["data.limit=3"])
    with pytest.raises(ConfigError, match="different spec"):
        run_spec(text, tmp_path / "run", ["data.limit=4"], resume=True)
    # Resuming a finished run answers nothing again and gives the same results.
    again = run_spec(text, tmp_path / "run", ["data.limit=3"], resume=True)
    assert again.n == 3 and len(read_journal(tmp_path / "run")) == 3


def test_limit_and_seeded_sample_are_deterministic(crag_sample: Path, tmp_path: Path) -> None:
    text = spec_text(crag_sample, "gold_answer")
    run_spec(text, tmp_path / "a", ["data.sample=4", "data.seed=7"])
    run_spec(text, tmp_path / "b", ["data.sample=4", "data.seed=7"])
    run_spec(text, tmp_path / "c", ["data.sample=4", "data.seed=8"])
    ids = [sorted(r.id for r in read_journal(tmp_path / x)) for x in "abc"]
    assert len(ids[0]) == 4 and ids[0] == ids[1] and ids[0] != ids[2]
    run_spec(text, tmp_path / "d", ["data.limit=2"])
    assert len(read_journal(tmp_path / "d")) == 2


def test_time_budget_overrun_is_missing_with_reason(crag_sample: Path, tmp_path: Path) -> None:
    text = spec_text(crag_sample, "never_finishes", "budget:\n  time_per_question_s: 0.3\n")
    results = run_spec(text, tmp_path / "run", ["data.limit=2"])
    records = read_journal(tmp_path / "run")
    assert len(records) == 2
    for r in records:
        assert r.label == "missing" and r.rule == "no_prediction" and r.prediction is None
        assert r.missing_reason is not None and "time budget exceeded" in r.missing_reason
        assert r.error is None and r.answer is None
    assert results.missing.value == 1.0


def test_errors_are_recorded_and_counted(crag_sample: Path, tmp_path: Path) -> None:
    text = spec_text(crag_sample, "fails_on_comparisons")
    results = run_spec(text, tmp_path / "run")
    records = read_journal(tmp_path / "run")
    failed = [r for r in records if r.error]
    assert failed and all("RuntimeError: cannot compare" in (r.error or "") for r in failed)
    # A failed question is missing, unless its gold cannot be scored at all ("nan": unscored).
    assert all(r.label in ("missing", "unscored") for r in failed)
    assert all(r.labels.question_type == "comparison" for r in failed)
    assert results.counts.missing + results.counts.unscored >= len(failed)


class _FlakyHandler(http.server.BaseHTTPRequestHandler):
    """Answers the first ``ok`` requests, then fails with HTTP 503."""

    ok = 3
    seen = 0
    lock = threading.Lock()

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with self.lock:
            type(self).seen += 1
            healthy = type(self).seen <= type(self).ok
        if healthy:
            data = json.dumps({"answer": body["query"][:20]}).encode()
            self.send_response(200)
        else:
            data = b"backend down"
            self.send_response(503)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        return


@pytest.fixture
def flaky_server() -> Iterator[str]:
    _FlakyHandler.seen = 0
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _FlakyHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/answer"
    server.shutdown()
    server.server_close()


@pytest.mark.server
def test_failing_backend_stops_at_error_budget(
    crag_sample: Path, tmp_path: Path, flaky_server: str
) -> None:
    text = f"""\
name: t
data:
  path: {crag_sample}
pipeline:
  name: http
  options:
    url: {flaky_server}
    retries: 0
scoring:
  judge: null
budget:
  max_errors: 2
concurrency:
  questions: 1
"""
    with pytest.raises(ErrorBudgetExceeded, match="3 questions failed, over the error budget of 2"):
        run_spec(text, tmp_path / "run")
    records = read_journal(tmp_path / "run")
    ok = [r for r in records if r.error is None]
    failed = [r for r in records if r.error is not None]
    assert len(ok) == 3 and len(failed) == 3
    assert all(r.answer is not None and r.prediction for r in ok)
    assert all("HTTP 503" in (r.error or "") for r in failed)
    # The results of the finished records are written even though the run stopped.
    assert json.loads((tmp_path / "run" / "results.json").read_text())["n"] == 6


def test_official_participant_class_end_to_end(crag_sample: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        f"""\
name: official
data:
  path: {crag_sample}
pipeline:
  name: crag_class
  options:
    target: {USERDEFS}:OfficialModel
    kwargs: {{refuse_every: 2}}
scoring:
  judge: null
"""
    )
    result = subprocess.run(
        [sys.executable, "-m", "ragmeter", "run", str(spec), "--out", str(out), "-q"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "accuracy" in result.stdout and f"run folder: {out}" in result.stdout
    records = read_journal(out)
    assert len(records) == 10
    refused = [r for r in records if r.rule == "refusal"]
    assert refused and all(r.label == "missing" for r in refused)
    answered = [r for r in records if r.rule != "refusal"]
    assert all(r.prediction and r.answer for r in answered)


def test_torn_last_line_is_cut_on_resume(crag_sample: Path, tmp_path: Path) -> None:
    text = spec_text(crag_sample, "gold_answer")
    out = tmp_path / "run"
    full = run_spec(text, out)
    lines = (out / "samples.jsonl").read_bytes().splitlines(keepends=True)
    # Keep 4 records and half of the fifth, as if the process died mid-write.
    (out / "samples.jsonl").write_bytes(b"".join(lines[:4]) + lines[4][: len(lines[4]) // 2])
    assert len(read_journal(out)) == 4
    assert len(Journal(out).recover()) == 4
    resumed = run_spec(text, out, resume=True)
    records = read_journal(out)
    assert len(records) == 10 and len({r.id for r in records}) == 10
    assert resumed == full


def _journal_lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def test_resume_after_sigkill_equals_uninterrupted(crag_sample: Path, tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(spec_text(crag_sample, "slow_first_snippet", "concurrency:\n  questions: 2\n"))
    env = {**os.environ, "RAGMETER_TEST_DELAY": "0.4"}
    killed = tmp_path / "killed"
    cmd = [sys.executable, "-m", "ragmeter", "run", str(spec), "--out", str(killed), "-q"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    journal = killed / "samples.jsonl"
    while _journal_lines(journal) < 3 and proc.poll() is None:
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    before = len(read_journal(killed))
    assert 3 <= before < 10
    resumed = subprocess.run(
        [*cmd, "--resume"], env=env, capture_output=True, text=True, check=False
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"{before} of 10 questions already done" in resumed.stderr
    straight = tmp_path / "straight"
    done = subprocess.run(
        [sys.executable, "-m", "ragmeter", "run", str(spec), "--out", str(straight), "-q"],
        env={**env, "RAGMETER_TEST_DELAY": "0"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    a = sorted((r.comparable() for r in read_journal(killed)), key=lambda d: d["index"])
    b = sorted((r.comparable() for r in read_journal(straight)), key=lambda d: d["index"])
    assert len(a) == 10 and a == b
    assert (killed / "results.json").read_text() == (straight / "results.json").read_text()


def test_rescore_from_the_journal_gives_the_same_results(crag_sample: Path, tmp_path: Path) -> None:
    from ragmeter.engine.rescore import rescore_folder

    out = tmp_path / "run"
    run_spec(spec_text(crag_sample, "first_snippet"), out, ["data.limit=4"])
    saved = (out / "results.json").read_text()
    before = [r.comparable() for r in read_journal(out)]
    # results.json is the scorer's results plus the run's tokens and cost per stage.
    written = json.loads(saved)
    assert written.pop("usage")["total"]["prompt_tokens"] == 0
    assert rescore_folder(out).model_dump() == written
    assert (out / "results.json").read_text() == saved
    # Labelling again (rules only) keeps every record and its answer.
    rescore_folder(out, judge="rules")
    after = [r.comparable() for r in read_journal(out)]
    assert sorted(after, key=lambda d: d["index"]) == sorted(before, key=lambda d: d["index"])


def test_progress_counts_running_accuracy_and_failures(crag_sample: Path, tmp_path: Path) -> None:
    from ragmeter.engine.progress import RunStats

    run_spec(spec_text(crag_sample, "fails_on_comparisons"), tmp_path / "run", ["data.limit=6"])
    records = read_journal(tmp_path / "run")
    stats = RunStats(records[:2])
    stats.add(records[2:])
    n_failed = sum(1 for r in records if r.error)
    n_correct = sum(1 for r in records if r.label == "correct")
    assert stats.correct == n_correct and stats.errors == n_failed
    text = stats.summary()
    assert f"acc {100 * n_correct / 6:.1f}%" in text
    if n_failed:
        assert f"{n_failed} error" in text
    new = records[2:]
    assert stats.prompt_tokens == sum(s.usage.prompt_tokens for r in new for s in r.stages.values())
    assert stats.tokens == sum(s.usage.completion_tokens for r in new for s in r.stages.values())
    assert " tok/s" in text and "in " in text and "out " in text


def test_resume_retry_errors_answers_failed_questions_again(
    crag_sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = spec_text(crag_sample, "fails_on_comparisons")
    out = tmp_path / "run"
    run_spec(text, out)
    failed = {r.id for r in read_journal(out) if r.error}
    assert failed
    monkeypatch.setenv("RAGMETER_TEST_FIXED", "1")
    plan = prepare(parse_run_spec(text, "spec.yaml"), out, resume=True, retry_errors=True)
    assert {r.id for r in plan.done}.isdisjoint(failed)
    results = run(plan)
    records = read_journal(out)
    assert len(records) == 10 and len({r.id for r in records}) == 10
    assert not any(r.error for r in records) and results.accuracy.value == 1.0
