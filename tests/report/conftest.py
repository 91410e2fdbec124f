"""Run folders shared by the report tests (built once per session from real records)."""

from __future__ import annotations

from pathlib import Path

import pytest
from report_fixtures import PAYLOADS, make_records, write_run

TRUST = {
    "asqa": {
        "trust": {"value": 0.524, "ci_low": 0.481, "ci_high": 0.566},
        "grounded_refusals_f1": {"value": 0.61, "ci_low": 0.55, "ci_high": 0.66},
        "answer_correctness": 0.43,
        "dataset": "asqa",
    }
}


@pytest.fixture(scope="session")
def run_a(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 120-question run with a Trust-Score block."""
    folder = tmp_path_factory.mktemp("runs") / "a"
    return write_run(folder, make_records(120, seed=1), name="rag-bm25", trust=TRUST)


@pytest.fixture(scope="session")
def run_b(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same 120 questions answered by a stronger system."""
    folder = tmp_path_factory.mktemp("runs") / "b"
    return write_run(folder, make_records(120, seed=2, skill=0.6), name="rag-hybrid")


@pytest.fixture(scope="session")
def payload_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run whose every text field (queries, predictions, pages, names) carries script."""
    folder = tmp_path_factory.mktemp("runs") / "payload"
    trust = {"trust_score": {"trust": 0.5, "dataset": PAYLOADS[0]}}
    return write_run(folder, make_records(60, seed=3, payload=True), name=PAYLOADS[1], trust=trust)
