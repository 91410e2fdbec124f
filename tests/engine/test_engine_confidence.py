"""Confidence from users' systems through every adapter, and the abstention block of a run."""

from __future__ import annotations

import http.server
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragmeter.config import parse_run_spec
from ragmeter.engine.journal import read_journal
from ragmeter.engine.runner import prepare, run

REPO = Path(__file__).resolve().parents[2]
USERDEFS = REPO / "tests" / "engine" / "engine_userdefs.py"


def _run(text: str, out: Path) -> dict:  # type: ignore[type-arg]
    run(prepare(parse_run_spec(text, "spec.yaml"), out))
    return json.loads((out / "results.json").read_text())


def test_callable_confidence_reaches_the_record_and_the_abstention_block(
    crag_sample: Path, tmp_path: Path
) -> None:
    results = _run(
        f"""\
name: conf
data: {{path: {crag_sample}}}
pipeline: {{name: callable, options: {{target: "{USERDEFS}:confident_snippet"}}}}
scoring: {{judge: null}}
""",
        tmp_path / "run",
    )
    records = read_journal(tmp_path / "run")
    assert {r.answer.confidence for r in records if r.answer} <= {0.9, 0.1}
    block = results["abstention"]
    assert block["with_confidence"] == sum(
        1 for r in records if r.label in ("correct", "incorrect")
    )
    right = [r for r in records if r.answer and r.answer.confidence == 0.9]
    wrong = [r for r in records if r.answer and r.answer.confidence == 0.1]
    # The sample has both kinds, so the ranking is measured, not skipped.
    assert right and wrong and any(r.label == "correct" for r in right)
    assert block["auroc"] > 0.5
    # Abstaining on everything scores 0; the curve ends there.
    assert block["curve"][-1]["coverage"] == 0.0 and block["curve"][-1]["score"] == 0.0


def test_official_class_may_return_confidences(crag_sample: Path, tmp_path: Path) -> None:
    _run(
        f"""\
name: conf-class
data: {{path: {crag_sample}}}
pipeline: {{name: crag_class, options: {{target: "{USERDEFS}:ConfidentOfficialModel"}}}}
scoring: {{judge: null}}
""",
        tmp_path / "run",
    )
    records = read_journal(tmp_path / "run")
    assert len(records) == 10
    assert all(
        r.answer and r.answer.confidence == 0.25 and r.prediction == "Atlantis" for r in records
    )


class _ConfidentHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        reply = json.dumps({"answer": f"about {body['query'][:10]}", "confidence": 0.625}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def confident_endpoint() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _ConfidentHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/answer"
    server.shutdown()


def test_http_endpoint_confidence_is_passed_through(
    crag_sample: Path, tmp_path: Path, confident_endpoint: str
) -> None:
    results = _run(
        f"""\
name: conf-http
data: {{path: {crag_sample}, with_html: false}}
pipeline: {{name: http, options: {{url: "{confident_endpoint}", include_pages: false}}}}
scoring: {{judge: null}}
""",
        tmp_path / "run",
    )
    records = read_journal(tmp_path / "run")
    assert all(r.answer and r.answer.confidence == 0.625 for r in records)
    assert results["abstention"]["n"] == 9  # the nan-gold question is unscored


def test_out_of_range_confidence_is_an_error_on_the_record(
    crag_sample: Path, tmp_path: Path
) -> None:
    userdefs = tmp_path / "bad.py"
    userdefs.write_text("def answer(q):\n    return {'answer': 'x', 'confidence': 1.5}\n")
    _run(
        f"""\
name: bad-conf
data: {{path: {crag_sample}}}
pipeline: {{name: callable, options: {{target: "{userdefs}:answer"}}}}
scoring: {{judge: null}}
budget: {{max_errors: 20}}
""",
        tmp_path / "run",
    )
    records = read_journal(tmp_path / "run")
    assert all(r.error and "confidence" in r.error for r in records)


def test_calibrate_cli_prints_and_writes_the_threshold(crag_sample: Path, tmp_path: Path) -> None:
    _run(
        f"""\
name: conf
data: {{path: {crag_sample}}}
pipeline: {{name: callable, options: {{target: "{USERDEFS}:confident_snippet"}}}}
scoring: {{judge: null}}
""",
        tmp_path / "run",
    )
    spec = tmp_path / "calibrated.yaml"
    cmd = [sys.executable, "-m", "ragmeter", "calibrate", str(tmp_path / "run"), "--folds", "2"]
    done = subprocess.run([*cmd, "--write-spec", str(spec)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "cross-validated" in done.stdout and "threshold: abstain below" in done.stdout
    written = parse_run_spec(spec.read_text(), str(spec)).spec
    assert isinstance(written.pipeline.options["abstain_below"], float)
    # Written again into the same file, only the value line changes.
    before = spec.read_text()
    again = subprocess.run([*cmd, "--write-spec", str(spec)], capture_output=True, text=True)
    assert again.returncode == 0 and spec.read_text() == before
    bad = subprocess.run([*cmd, "--signal", "nope"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0
