"""The HTTP server of the mock KG API (FastAPI): the official 38 POST endpoints, health and docs.

Every answer is ``{"result": ...}``, as in the official API; an unknown entity
gives the official empty answer (mostly ``null``). A request the API cannot
take gets a 4xx answer with a ``message``: 422 for invalid JSON or fields, 413
for a body over the limit, 404/405 for other paths and methods. Missing or
unconverted data gives 503 with the reason. The server binds to 127.0.0.1
unless told otherwise and never unpickles anything.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ragmeter import __version__
from ragmeter.kg.endpoints import (
    ENDPOINTS,
    BillboardAttribute,
    Endpoint,
    GameIds,
    IntQuery,
    RankDate,
    SportsDate,
    TextQuery,
)
from ragmeter.kg.errors import KGDataError, KGInputError
from ragmeter.kg.graph import KnowledgeGraph
from ragmeter.kg.payload import result_body

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_BODY_BYTES = 64 * 1024
HEALTH_MESSAGE = "The CRAG API service is running"

log = logging.getLogger("ragmeter.kg.server")


def _json(status: int, content: Any) -> Response:
    return Response(orjson.dumps(content), status_code=status, media_type="application/json")


class BodyLimit:
    """Refuses request bodies over ``max_bytes`` with 413, before the app reads them.

    The body is read here (it is small by construction) and handed on in one piece,
    so a chunked upload without a length is bounded too.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = _json(413, {"message": f"request body over {self.max_bytes} bytes"})
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                if not value.isdigit():
                    await _json(400, {"message": "invalid Content-Length"})(scope, receive, send)
                    return
                if int(value) > self.max_bytes:
                    await too_large(scope, receive, send)
                    return
        chunks: list[bytes] = []
        size = 0
        first: Message | None = None
        while True:
            message = await receive()
            if message["type"] != "http.request":
                first = message  # a disconnect: pass it on as is
                break
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                await too_large(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                if first is not None:
                    return first
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _validation_message(errors: Sequence[Any]) -> str:
    parts = []
    for err in errors:
        loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body") or "body"
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def _route(graph: KnowledgeGraph, ep: Endpoint) -> Callable[..., Awaitable[Response]]:
    """A route function whose annotation tells FastAPI which body to validate."""

    async def answer(body: Any) -> Response:
        if graph.loaded(ep.store):
            # Answering from a loaded store takes micro- to milliseconds: a hop to a worker
            # thread would cost more CPU than it saves (the GIL serialises the work anyway).
            result = graph.call(ep.name, body)
        else:
            # The first call loads the domain, which may take long: keep the loop free meanwhile.
            result = await run_in_threadpool(graph.call, ep.name, body)
        return Response(result_body(result), media_type="application/json")

    if ep.body is None:

        async def no_body() -> Response:
            return await answer(None)

        return no_body
    if ep.body is TextQuery:

        async def text(body: TextQuery) -> Response:
            return await answer(body)

        return text
    if ep.body is IntQuery:

        async def integer(body: IntQuery) -> Response:
            return await answer(body)

        return integer
    if ep.body is RankDate:

        async def rank_date(body: RankDate) -> Response:
            return await answer(body)

        return rank_date
    if ep.body is BillboardAttribute:

        async def attribute(body: BillboardAttribute) -> Response:
            return await answer(body)

        return attribute
    if ep.body is SportsDate:

        async def sports(body: SportsDate) -> Response:
            return await answer(body)

        return sports
    if ep.body is GameIds:

        async def games(body: GameIds) -> Response:
            return await answer(body)

        return games
    raise TypeError(f"no route for body {ep.body!r}")


def create_app(
    data_dir: Path, *, max_body_bytes: int = DEFAULT_MAX_BODY_BYTES, preload: bool = False
) -> FastAPI:
    """The FastAPI application serving the KG under ``data_dir``."""
    graph = KnowledgeGraph(data_dir)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if preload:
            for name, reason in (await run_in_threadpool(graph.preload)).items():
                if reason is not None:
                    log.warning("%s data not available: %s", name, reason)
        yield

    app = FastAPI(
        title="CRAG mock knowledge-graph API (ragmeter)",
        description="The CRAG benchmark's mock KG API: open, movie, finance, music and sports.",
        version=__version__,
        lifespan=lifespan,
    )
    app.state.graph = graph

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> Response:
        errors = [
            {
                "loc": list(e.get("loc", ())),
                "msg": str(e.get("msg", "")),
                "type": str(e.get("type", "")),
            }
            for e in exc.errors()
        ]
        return _json(422, {"message": _validation_message(errors), "detail": errors})

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> Response:
        response = _json(exc.status_code, {"message": str(exc.detail), "detail": exc.detail})
        response.headers.update(exc.headers or {})
        return response

    @app.exception_handler(KGInputError)
    async def refused(_: Request, exc: KGInputError) -> Response:
        return _json(422, {"message": str(exc), "detail": []})

    @app.exception_handler(KGDataError)
    async def unavailable(_: Request, exc: KGDataError) -> Response:
        return _json(503, {"message": str(exc)})

    @app.get("/")
    def health() -> dict[str, Any]:
        """Health check: the service is up; which domains are loaded."""
        return {"message": HEALTH_MESSAGE, "stores": graph.status()}

    for ep in ENDPOINTS:
        app.add_api_route(
            ep.path,
            _route(graph, ep),
            methods=["POST"],
            name=ep.name,
            summary=ep.name,
            description=ep.description,
            response_class=Response,
            responses={200: {"description": 'JSON object {"result": ...}'}},
        )
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    return app


def serve(
    data_dir: Path,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    preload: bool = False,
    log_level: str = "warning",
) -> None:
    """Run the server until interrupted."""
    import uvicorn

    app = create_app(data_dir, max_body_bytes=max_body_bytes, preload=preload)
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=False)


class BackgroundServer:
    """The KG server in a background thread on a loopback port (0: any free port).

    For tests and notebooks: ``with BackgroundServer(path) as srv: KGClient(srv.url)``.
    """

    def __init__(
        self,
        data_dir: Path,
        *,
        host: str = DEFAULT_HOST,
        port: int = 0,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        preload: bool = False,
        start_timeout_s: float = 30.0,
    ) -> None:
        self.data_dir = data_dir
        self.host = host
        self.port = port
        self.max_body_bytes = max_body_bytes
        self.preload = preload
        self.start_timeout_s = start_timeout_s
        self.url = ""
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> str:
        """Start serving; returns the base URL once the server accepts connections."""
        import uvicorn

        app = create_app(self.data_dir, max_body_bytes=self.max_body_bytes, preload=self.preload)
        config = uvicorn.Config(
            app, host=self.host, port=self.port, log_level="warning", access_log=False
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="kg-server", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + self.start_timeout_s
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the KG server did not start on {self.host}:{self.port}")
            time.sleep(0.02)
        port = self._server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://{self.host}:{port}"
        return self.url

    def stop(self) -> None:
        """Ask the server to finish its requests and stop, then wait for it."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=15)
        self._server = None
        self._thread = None

    def __enter__(self) -> BackgroundServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
