"""Make the data-test helpers importable; share the sample rows read once."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ragmeter.data.crag import read_crag
from ragmeter.types import Question

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def sample_questions(crag_sample: Path) -> list[Question]:
    """The 10 sample rows with their HTML, read once per test session (15 MB of pages)."""
    return list(read_crag(crag_sample))
