"""Fixtures of the KG tests: the fixture KG made from the real recorded calls, a live server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from live_servers import serving_kg
from ragmeter.kg.convert import convert_kg
from ragmeter.kg.fixture import RecordedCall, build_fixture, load_recorded_calls

EXAMPLES = "crag/kg/api_examples.json"
COMPANIES = "crag/kg/finance/company_name.dict"


@pytest.fixture(scope="session")
def recorded_calls(mirror_file: Any) -> list[RecordedCall]:
    """The 40 real calls of the official API with their responses."""
    return load_recorded_calls(mirror_file(EXAMPLES))


@pytest.fixture(scope="session")
def official_kg(mirror_file: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture KG in the official formats (pickles included)."""
    out = tmp_path_factory.mktemp("kg_official")
    build_fixture(out, examples=mirror_file(EXAMPLES), companies=mirror_file(COMPANIES))
    return out


@pytest.fixture(scope="session")
def safe_kg(official_kg: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture KG after ``kg convert --trust-pickle`` into a separate folder."""
    dest = tmp_path_factory.mktemp("kg_safe")
    convert_kg(official_kg, dest, trust_pickle=True)
    return dest


@pytest.fixture(scope="session")
def kg_server(safe_kg: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``ragmeter kg serve`` on the converted fixture, in a subprocess on a free loopback port."""
    log = tmp_path_factory.mktemp("kg_server") / "stderr.txt"
    with serving_kg(safe_kg, log) as url:
        yield url
    # No request of any test may have crashed a handler.
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
