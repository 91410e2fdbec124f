"""A light concurrent load on the live server (the full one is benchmarks/kg_load.py)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from ragmeter.kg.client import KGClient
from ragmeter.kg.fixture import RecordedCall
from ragmeter.kg.server import BackgroundServer

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from kg_load import recorded_requests, run_load

pytestmark = pytest.mark.server


def test_concurrent_clients_get_no_errors(
    kg_server: str, recorded_calls: list[RecordedCall]
) -> None:
    requests = recorded_requests(recorded_calls)
    report = asyncio.run(run_load(kg_server, requests, clients=10, total=400))
    assert report.errors == 0
    assert report.requests == 400
    assert report.p50_ms > 0 and report.p99_ms >= report.p50_ms


def test_background_server_in_a_thread(safe_kg: Path) -> None:
    with BackgroundServer(safe_kg) as server:
        assert server.url.startswith("http://127.0.0.1:")
        with KGClient(server.url) as client:
            assert client.finance_get_company_name("Apple") == [
                "Apple Inc. Common Stock",
                "Apple Hospitality REIT Inc. Common Shares",
            ]
            assert client.health()["stores"]["finance"] == "loaded"
