"""Fixtures of the pipeline tests: a live mock KG server on the fixture KG built from real calls."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from live_servers import serving_kg


@pytest.fixture(scope="session")
def pipeline_kg_server(mirror_file: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``ragmeter kg serve`` over the fixture KG (from the 40 recorded official calls)."""
    from ragmeter.kg.convert import convert_kg
    from ragmeter.kg.fixture import build_fixture

    official = tmp_path_factory.mktemp("pl_kg_official")
    build_fixture(
        official,
        examples=mirror_file("crag/kg/api_examples.json"),
        companies=mirror_file("crag/kg/finance/company_name.dict"),
    )
    safe = tmp_path_factory.mktemp("pl_kg_safe")
    convert_kg(official, safe, trust_pickle=True)
    with serving_kg(safe, tmp_path_factory.mktemp("pl_kg_log") / "stderr.txt") as url:
        yield url


@pytest.fixture
def text_cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache folder (extracted text, embeddings) for one test."""
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"
