"""Helpers of the LLM tests: a fault-injecting proxy (servers come from `live_servers`)."""

from __future__ import annotations

import http.server
import json
import socket
import threading
import time
from collections import deque
from typing import Any

import httpx


class FaultProxy:
    """An HTTP proxy on loopback that injects planned faults, then forwards to ``upstream``.

    Each request takes the next entry of ``faults``: ``"500"``, ``"400"``,
    ``"429:SECONDS"`` (with ``Retry-After``), ``"stall"`` (read the request, never
    answer), ``"drop"`` (close the connection without a reply). With no entry
    left it forwards. ``reject_logprobs`` answers 400 to requests asking for them.
    """

    def __init__(self, upstream: str):
        self.upstream = upstream.rstrip("/")
        self.faults: deque[str] = deque()
        self.reject_logprobs = False
        self.bodies: list[dict[str, Any]] = []
        self.arrivals: list[float] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        self._release = threading.Event()
        self._client = httpx.Client(timeout=120)
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                return None

            def do_POST(self) -> None:
                proxy._handle(self)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def requests(self) -> int:
        """Requests received so far."""
        return len(self.arrivals)

    def _reply(
        self,
        h: http.server.BaseHTTPRequestHandler,
        status: int,
        body: bytes,
        headers: dict[str, str] | None = None,
    ) -> None:
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.end_headers()
        h.wfile.write(body)

    def _handle(self, h: http.server.BaseHTTPRequestHandler) -> None:
        raw = h.rfile.read(int(h.headers.get("Content-Length", "0")))
        body = json.loads(raw or b"{}")
        with self._lock:
            self.arrivals.append(time.monotonic())
            self.bodies.append(body)
            fault = self.faults.popleft() if self.faults else None
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            error = json.dumps({"error": {"message": f"injected {fault}"}}).encode()
            if fault == "drop":
                h.close_connection = True
                h.connection.shutdown(socket.SHUT_RDWR)
            elif fault == "stall":
                self._release.wait(60)
                h.close_connection = True
            elif fault in ("500", "400"):
                self._reply(h, int(fault), error)
            elif fault is not None and fault.startswith("429:"):
                self._reply(h, 429, error, {"Retry-After": fault.split(":", 1)[1]})
            elif self.reject_logprobs and body.get("logprobs"):
                msg = {"error": {"message": "logprobs are not supported here"}}
                self._reply(h, 400, json.dumps(msg).encode())
            else:
                resp = self._client.post(
                    self.upstream + h.path.removeprefix("/v1"),
                    content=raw,
                    headers={"Content-Type": "application/json"},
                )
                self._reply(h, resp.status_code, resp.content)
        finally:
            with self._lock:
                self.in_flight -= 1

    def close(self) -> None:
        """Release stalled requests and stop serving."""
        self._release.set()
        self.server.shutdown()
        self.server.server_close()
        self._client.close()
