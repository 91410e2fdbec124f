"""Fixtures shared by the scoring tests."""

from __future__ import annotations

import pytest

from ragmeter.scoring.crag.truncate import Truncator


@pytest.fixture(scope="session")
def truncator(mirror_file) -> Truncator:  # type: ignore[no-untyped-def]
    """CRAG's 75-token cut with the real tokenizer from the data mirror."""
    return Truncator(mirror_file("crag/tokenizer/tokenizer.json"))
