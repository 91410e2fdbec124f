"""A live mock KG server for tests: ``ragmeter kg serve`` in a subprocess on loopback."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest


def free_port() -> int:
    """A port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving_kg(data: Path, log: Path) -> Iterator[str]:
    """Serve the KG folder ``data``; yield the base URL; stop the server on exit.

    The server's stderr goes to the file ``log`` (a pipe nobody reads while tests run
    would fill and block it); the test fails if the server dies or never answers.
    """
    port = free_port()
    cmd = [sys.executable, "-m", "ragmeter", "kg", "serve", "--data", str(data)]
    cmd += ["--port", str(port)]
    with log.open("wb") as stderr:
        proc = subprocess.Popen(
            cmd,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
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
