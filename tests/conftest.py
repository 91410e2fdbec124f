"""Shared test fixtures: where the real benchmark data lives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def mirror_dirs() -> list[Path]:
    """The data mirror folders: RAGMETER_DATA_MIRROR, else ../shared/data beside the checkout."""
    env = os.environ.get("RAGMETER_DATA_MIRROR")
    if env:
        return [Path(p) for p in env.split(os.pathsep) if p]
    return [REPO.parent / "shared" / "data"]


def find_mirror_file(relative: str) -> Path | None:
    """The first mirror copy of ``relative`` (e.g. ``crag/crag_sample_10_with_pages.jsonl.bz2``)."""
    for d in mirror_dirs():
        p = d / relative
        if p.exists():
            return p
    return None


@pytest.fixture(scope="session")
def mirror_file():  # type: ignore[no-untyped-def]
    """Return a function giving a real data file from the mirror, skipping when absent."""

    def get(relative: str) -> Path:
        p = find_mirror_file(relative)
        if p is None:
            pytest.skip(f"real data file {relative} not found in the data mirror {mirror_dirs()}")
        return p

    return get


@pytest.fixture(scope="session")
def crag_sample(mirror_file) -> Path:  # type: ignore[no-untyped-def]
    """The 10 CRAG rows with 5 HTML pages each."""
    return mirror_file("crag/crag_sample_10_with_pages.jsonl.bz2")  # type: ignore[no-any-return]


@pytest.fixture(scope="session")
def crag_validation(mirror_file) -> Path:  # type: ignore[no-untyped-def]
    """The 1,371 CRAG v3 validation questions (no pages)."""
    return mirror_file("crag/crag_questions_v3_validation.jsonl")  # type: ignore[no-any-return]
