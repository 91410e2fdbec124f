"""Load test of the mock KG server on loopback: p50/p99 latency and errors under concurrency.

Builds the fixture KG from the real recorded calls (data mirror), converts it,
and serves it twice, one after the other, each in its own process:

* ``ragmeter``: our server (`ragmeter kg serve`): thread-pool handlers, answers
  sent as stored JSON or encoded once with orjson;
* ``plain_fastapi``: the same stores behind the plain FastAPI pattern the official
  mock API uses (``async def`` handlers returning dicts, FastAPI's default encoder).

Each run replays the 40 recorded calls round-robin from N concurrent clients
(one keep-alive connection each) until the request budget is spent. Bounded in
count and time, loopback only. The last line of output is JSON.

    python benchmarks/kg_load.py [--clients 50] [--requests 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import numpy as np

from ragmeter.kg.endpoints import BY_NAME
from ragmeter.kg.fixture import RecordedCall, find_in_mirror, load_recorded_calls

TIME_LIMIT_S = 900.0


@dataclass
class LoadReport:
    """What one load run measured."""

    clients: int
    requests: int
    errors: int
    seconds: float
    throughput_rps: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    statuses: dict[str, int] = field(default_factory=dict)
    server_cpu_ms_per_request: float | None = None
    """CPU time the server process spent per request: unlike latency, not inflated when other
    programs share the machine's cores."""


def recorded_requests(calls: list[RecordedCall]) -> list[tuple[str, dict[str, Any] | None]]:
    """(path, body) of every recorded call, as the official client would send it."""
    out = []
    for call in calls:
        ep = BY_NAME[call.function]
        body = None
        if ep.body is not None:
            fields = list(ep.body.model_fields)
            body = dict.fromkeys(fields)
            body.update(zip(fields, call.args, strict=False))
        out.append((ep.path, body))
    return out


class Connection:
    """A minimal keep-alive HTTP/1.1 client: the load generator must cost far less CPU than
    the server it measures (httpx spends more per request than our server does)."""

    def __init__(self, url: str) -> None:
        parsed = urlparse(url)
        self.host = parsed.hostname or "127.0.0.1"
        self.port = parsed.port or 80
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        """Send one POST and read the whole answer; returns (status, body)."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        self.writer.write(head.encode("ascii") + body)
        header = await self.reader.readuntil(b"\r\n\r\n")
        lines = header.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        fields = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
        fields = {k.lower(): v for k, v in fields.items()}
        if "content-length" in fields:
            data = await self.reader.readexactly(int(fields["content-length"]))
        else:  # chunked
            parts = []
            while size := int((await self.reader.readuntil(b"\r\n")).strip(), 16):
                parts.append(await self.reader.readexactly(size))
                await self.reader.readexactly(2)
            await self.reader.readexactly(2)
            data = b"".join(parts)
        if fields.get("connection", "").lower() == "close":
            await self.close()
        return status, data

    async def close(self) -> None:
        """Close the connection (a later post opens a new one)."""
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None


async def run_load(
    url: str, requests: list[tuple[str, dict[str, Any] | None]], *, clients: int, total: int
) -> LoadReport:
    """Send ``total`` requests from ``clients`` concurrent connections; measure each."""
    latencies: list[float] = []
    statuses: dict[str, int] = {}
    errors = 0
    next_index = 0
    encoded = [
        (path, b"" if body is None else json.dumps(body).encode()) for path, body in requests
    ]

    async def worker() -> None:
        nonlocal errors, next_index
        conn = Connection(url)
        try:
            while next_index < total:
                path, body = encoded[next_index % len(encoded)]
                next_index += 1
                start = time.perf_counter()
                try:
                    status, data = await conn.post(path, body)
                    ok, key = status == 200 and data.startswith(b'{"result":'), str(status)
                except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                    ok, key = False, type(exc).__name__
                    await conn.close()
                latencies.append(time.perf_counter() - start)
                statuses[key] = statuses.get(key, 0) + 1
                errors += not ok
        finally:
            await conn.close()

    began = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*(worker() for _ in range(clients))), TIME_LIMIT_S)
    seconds = time.perf_counter() - began
    ms = np.array(latencies) * 1000
    return LoadReport(
        clients=clients,
        requests=len(latencies),
        errors=errors,
        seconds=round(seconds, 3),
        throughput_rps=round(len(latencies) / seconds, 1),
        p50_ms=round(float(np.percentile(ms, 50)), 2),
        p90_ms=round(float(np.percentile(ms, 90)), 2),
        p99_ms=round(float(np.percentile(ms, 99)), 2),
        max_ms=round(float(ms.max()), 2),
        statuses=statuses,
    )


def serve_plain_fastapi(data: Path, port: int) -> None:
    """The comparison server: same stores, official-style async handlers returning dicts."""
    import uvicorn
    from fastapi import FastAPI
    from pydantic import BaseModel

    from ragmeter.kg.endpoints import ENDPOINTS
    from ragmeter.kg.graph import KnowledgeGraph
    from ragmeter.kg.payload import plain

    graph = KnowledgeGraph(data)
    graph.preload()
    app = FastAPI()

    def add(name: str, path: str, model: type[BaseModel] | None) -> None:
        if model is None:

            async def no_body() -> dict[str, Any]:
                return {"result": plain(graph.call(name, None))}

            app.post(path)(no_body)
            return

        async def handler(body: Any) -> dict[str, Any]:
            return {"result": plain(graph.call(name, body))}

        handler.__annotations__["body"] = model
        app.post(path)(handler)

    for ep in ENDPOINTS:
        add(ep.name, ep.path, ep.body)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)


def process_cpu_s(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux /proc), or None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    """A port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(cmd: list[str], url: str) -> subprocess.Popen[bytes]:
    """Start a server process and wait until ``GET /`` answers."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited early: {' '.join(cmd)}")
        try:
            httpx.get(url + "/", timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("server did not start")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Terminate a server process we started."""
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def main() -> None:
    """Run both servers under the same load and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--serve-plain", nargs=2, metavar=("DATA", "PORT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_plain:
        serve_plain_fastapi(Path(args.serve_plain[0]), int(args.serve_plain[1]))
        return

    from ragmeter.kg.convert import convert_kg
    from ragmeter.kg.fixture import EXAMPLES_RELATIVE, build_fixture

    examples = find_in_mirror(EXAMPLES_RELATIVE)
    if examples is None:
        raise SystemExit(
            "set RAGMETER_DATA_MIRROR to the data mirror (needs crag/kg/api_examples.json)"
        )
    calls = load_recorded_calls(examples)
    requests = recorded_requests(calls)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        build_fixture(Path(tmp) / "official")
        convert_kg(Path(tmp) / "official", Path(tmp) / "kg", trust_pickle=True)
        data = str(Path(tmp) / "kg")
        variants = {
            "ragmeter": [
                sys.executable,
                "-m",
                "ragmeter",
                "kg",
                "serve",
                "--data",
                data,
                "--preload",
            ],
            "plain_fastapi": [sys.executable, os.path.abspath(__file__), "--serve-plain", data],
        }
        for name, cmd in variants.items():
            port = free_port()
            cmd = [*cmd, "--port", str(port)] if name == "ragmeter" else [*cmd, str(port)]
            url = f"http://127.0.0.1:{port}"
            proc = start(cmd, url)
            try:
                # Warm up: every domain loaded and every answer path taken once.
                asyncio.run(run_load(url, requests, clients=4, total=2 * len(requests)))
                cpu_before = process_cpu_s(proc.pid)
                report = asyncio.run(
                    run_load(url, requests, clients=args.clients, total=args.requests)
                )
                cpu_after = process_cpu_s(proc.pid)
                if cpu_before is not None and cpu_after is not None:
                    per_request = (cpu_after - cpu_before) * 1000 / report.requests
                    report.server_cpu_ms_per_request = round(per_request, 3)
            finally:
                stop(proc)
            results[name] = asdict(report)
            print(f"{name:14} {report}", flush=True)
    print(
        json.dumps(
            {"benchmark": "kg_load", "clients": args.clients, "requests": args.requests, **results}
        )
    )


if __name__ == "__main__":
    main()
