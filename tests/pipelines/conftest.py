"""Fixtures of the pipeline tests: a live mock KG server on the fixture KG built from real calls."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ragmeter", "kg", "serve", "--data", str(safe), "--port", str(port)],
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"kg serve exited with {proc.returncode}: {err}")
            try:
                if httpx.get(url + "/", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("kg serve did not answer within 60 s")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def text_cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache folder (extracted text, embeddings) for one test."""
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"
