"""Fixtures of the LLM tests: the test models, a real llama.cpp server, a fault proxy."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers_llm import FaultProxy

from live_servers import start_llama_server, stop_process
from ragmeter.llm.weights import install

SMOL = "smollm2-135m-instruct"
QWEN = "qwen2.5-coder-1.5b-instruct-q4km"


@pytest.fixture(scope="session")
def smol_path() -> Path:
    """The SmolLM2 GGUF (``make test`` installs it before pytest runs)."""
    return install(SMOL)


@pytest.fixture(scope="session")
def qwen_path() -> Path:
    """The Qwen 1.5B GGUF (``make test`` installs it before pytest runs)."""
    return install(QWEN)


@pytest.fixture(scope="session")
def llama_server(smol_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real llama.cpp OpenAI-compatible server serving SmolLM2; yields its base URL."""
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    proc, base = start_llama_server(smol_path, "smollm2", log)
    try:
        yield base
    finally:
        stop_process(proc, timeout=20)


@pytest.fixture()
def fault_proxy(llama_server: str) -> Iterator[FaultProxy]:
    """A fresh fault proxy in front of the shared llama.cpp server."""
    proxy = FaultProxy(llama_server)
    try:
        yield proxy
    finally:
        proxy.close()
