"""Fixtures of the KG tests: the fixture KG made from the real recorded calls, a live server."""

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


def free_port() -> int:
    """A port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def kg_server(safe_kg: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``ragmeter kg serve`` on the converted fixture, in a subprocess on a free loopback port."""
    port = free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # A file, not a pipe: nobody reads the pipe while tests run, and a full pipe would block.
    log = tmp_path_factory.mktemp("kg_server") / "stderr.txt"
    stderr = log.open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ragmeter",
            "kg",
            "serve",
            "--data",
            str(safe_kg),
            "--port",
            str(port),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"kg serve exited with {proc.returncode}: {log.read_text()}")
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
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        stderr.close()
    # No request of any test may have crashed a handler.
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
