"""A persistent response cache (SQLite in WAL mode) that wraps any backend.

The key is the sha256 of a canonical JSON document holding the operation
(``generate`` or ``choices``), the model identity (weights sha256, or server
URL + model name, which also names the backend kind), the messages and every
setting that changes the output. Timeouts, retries and concurrency are not in
it: they change how a reply is obtained, not what it says. Sampled calls
without a seed are never cached: a second call is supposed to differ.

Several processes may read and write one cache file at once: WAL mode lets
readers go on while one writer commits, and a busy timeout makes writers wait
their turn instead of failing.
"""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson
from pydantic import Field

from ragmeter.errors import BackendError
from ragmeter.llm.paths import response_cache_path
from ragmeter.llm.protocol import (
    LLM,
    ChatMessage,
    ChoiceProbabilities,
    Completion,
    GenerationSettings,
)
from ragmeter.types import Record

KEY_VERSION = 1
"""Bumped when what a backend returns for the same key changes meaning."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    op TEXT NOT NULL,
    identity TEXT NOT NULL,
    value TEXT NOT NULL,
    created_at REAL NOT NULL,
    hits INTEGER NOT NULL DEFAULT 0
)
"""


class CacheStats(Record):
    """What ``ragmeter cache stats`` shows."""

    path: str
    entries: int
    hits: int
    """Times a stored reply was served instead of calling the model."""
    size_bytes: int
    by_operation: dict[str, int] = Field(default_factory=dict)
    by_model: dict[str, int] = Field(default_factory=dict)


def cache_key(op: str, identity: str, payload: dict[str, Any]) -> str:
    """The sha256 key of one call (canonical JSON: sorted keys, no whitespace)."""
    doc = {"v": KEY_VERSION, "op": op, "model": identity, **payload}
    return hashlib.sha256(orjson.dumps(doc, option=orjson.OPT_SORT_KEYS)).hexdigest()


def generate_key(
    identity: str, messages: Sequence[ChatMessage], settings: GenerationSettings
) -> str:
    """The key of a ``generate`` call."""
    return cache_key(
        "generate",
        identity,
        {
            "messages": [m.model_dump(mode="json") for m in messages],
            # Keys written before token log-probabilities existed stay valid.
            "settings": settings.model_dump(
                mode="json", exclude=None if settings.logprobs else {"logprobs"}
            ),
        },
    )


def choices_key(identity: str, messages: Sequence[ChatMessage], choices: Sequence[str]) -> str:
    """The key of a ``choice_probabilities`` call."""
    return cache_key(
        "choices",
        identity,
        {"messages": [m.model_dump(mode="json") for m in messages], "choices": list(choices)},
    )


class ResponseCache:
    """Replies stored by key in one SQLite file (one connection per thread)."""

    def __init__(self, path: str | Path | None = None, *, busy_timeout_s: float = 60.0):
        self.path = Path(path) if path is not None else response_cache_path()
        self.busy_timeout_s = busy_timeout_s
        self._local = threading.local()

    def __repr__(self) -> str:
        return f"ResponseCache({str(self.path)!r})"

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            return conn
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(
                self.path, timeout=self.busy_timeout_s, isolation_level=None, check_same_thread=True
            )
            conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_s * 1000)}")
            # Switching to WAL needs a moment of exclusive access; wait it out like a writer.
            deadline = time.monotonic() + self.busy_timeout_s
            while True:
                try:
                    conn.execute("PRAGMA journal_mode = WAL")
                    break
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) or time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise BackendError(f"cannot open the response cache {self.path}: {exc}") from exc
        self._local.conn = conn
        return conn

    def get(self, key: str) -> str | None:
        """The stored value for ``key`` (counting the hit), or None."""
        conn = self._conn()
        row = conn.execute("SELECT value FROM responses WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        conn.execute("UPDATE responses SET hits = hits + 1 WHERE key = ?", (key,))
        return str(row[0])

    def put(self, key: str, op: str, identity: str, value: str) -> None:
        """Store ``value`` under ``key`` (a concurrent writer of the same key wins harmlessly)."""
        self._conn().execute(
            "INSERT OR REPLACE INTO responses (key, op, identity, value, created_at, hits) "
            "VALUES (?, ?, ?, ?, ?, 0)",
            (key, op, identity, value, time.time()),
        )

    def stats(self) -> CacheStats:
        """Counts per operation and model, hits and size on disk."""
        conn = self._conn()
        entries, hits = conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(hits), 0) FROM responses"
        ).fetchone()
        by_op = dict(conn.execute("SELECT op, COUNT(*) FROM responses GROUP BY op").fetchall())
        by_model = dict(
            conn.execute("SELECT identity, COUNT(*) FROM responses GROUP BY identity").fetchall()
        )
        size = sum(
            p.stat().st_size
            for p in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm"))
            if p.exists()
        )
        return CacheStats(
            path=str(self.path),
            entries=int(entries),
            hits=int(hits),
            size_bytes=size,
            by_operation={str(k): int(v) for k, v in by_op.items()},
            by_model={str(k): int(v) for k, v in by_model.items()},
        )

    def clear(self, model: str | None = None) -> int:
        """Delete every entry (or those of one model identity); the number deleted."""
        conn = self._conn()
        if model is None:
            cur = conn.execute("DELETE FROM responses")
        else:
            cur = conn.execute("DELETE FROM responses WHERE identity = ?", (model,))
        deleted = cur.rowcount
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        if model is None:
            conn.execute("VACUUM")
        return int(deleted)

    def close(self) -> None:
        """Close this thread's connection."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


class CachedLLM:
    """Any `LLM` with its deterministic calls answered from a `ResponseCache`.

    A reply served from the cache has ``cached=True`` and keeps the usage and
    latency of the call that produced it (what it cost once).
    """

    def __init__(self, inner: LLM, cache: ResponseCache):
        self.inner = inner
        self.cache = cache

    def __repr__(self) -> str:
        return f"CachedLLM({self.inner!r}, {self.cache!r})"

    @property
    def identity(self) -> str:
        """The wrapped backend's identity."""
        return self.inner.identity

    async def generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        """A stored reply for greedy or seeded calls; a fresh one otherwise."""
        if not settings.deterministic:
            return await self.inner.generate(messages, settings)
        identity = self.inner.identity
        key = generate_key(identity, messages, settings)
        hit = await asyncio.to_thread(self.cache.get, key)
        if hit is not None:
            return Completion.model_validate_json(hit).model_copy(update={"cached": True})
        completion = await self.inner.generate(messages, settings)
        value = completion.model_copy(update={"cached": False}).model_dump_json()
        await asyncio.to_thread(self.cache.put, key, "generate", identity, value)
        return completion

    async def choice_probabilities(
        self, messages: Sequence[ChatMessage], choices: Sequence[str]
    ) -> ChoiceProbabilities:
        """Stored probabilities when the same question was asked of the same model."""
        identity = self.inner.identity
        key = choices_key(identity, messages, choices)
        hit = await asyncio.to_thread(self.cache.get, key)
        if hit is not None:
            return ChoiceProbabilities.model_validate_json(hit).model_copy(update={"cached": True})
        result = await self.inner.choice_probabilities(messages, choices)
        value = result.model_copy(update={"cached": False}).model_dump_json()
        await asyncio.to_thread(self.cache.put, key, "choices", identity, value)
        return result

    async def aclose(self) -> None:
        """Close the wrapped backend (the cache file stays)."""
        await self.inner.aclose()
