"""Real servers for tests, in subprocesses on loopback: the mock KG API and llama.cpp."""

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


def stop_process(proc: subprocess.Popen[bytes], timeout: float = 15) -> None:
    """Ask ``proc`` to end, wait up to ``timeout`` seconds, then kill it."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def start_llama_server(
    model: Path, alias: str, log: Path, *extra: str
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``python -m llama_cpp.server`` on a free loopback port; wait until it answers.

    Its output goes to ``log`` (a pipe nobody reads would fill up and block the server).
    """
    port = free_port()
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(model)]
    cmd += ["--model_alias", alias, "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--n_ctx", "2048", "--n_threads", "2", "--verbose", "false", *extra]
    with log.open("wb") as out:
        env = {"OMP_WAIT_POLICY": "PASSIVE", **os.environ}  # as the in-process backend does
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"llama_cpp.server exited with {proc.returncode}: {tail}")
        try:
            if httpx.get(f"{base}/models", timeout=2).status_code == 200:
                return proc, base
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    stop_process(proc, timeout=0)
    raise RuntimeError(f"llama_cpp.server did not answer within 300 s; log: {log}")


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
            stop_process(proc)
