"""Content-addressed caches on disk: extracted page text (here) and embeddings (retrieval).

Both live in one SQLite file per kind under the user cache folder
(``RAGMETER_CACHE_DIR``, else ``$XDG_CACHE_HOME/ragmeter`` or
``~/.cache/ragmeter``). Keys are content hashes plus the version of whatever
produced the value, so a changed page, extractor or model never reads a stale
entry, and the same page seen under two URLs is parsed once.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

import orjson

from ragmeter.text.extract import (
    EXTRACTOR_VERSION,
    ExtractedPage,
    ExtractLimits,
    extract_html,
    html_hash,
)
from ragmeter.types import WebPage

__all__ = ["BlobCache", "TextCache", "default_cache_dir"]


def default_cache_dir() -> Path:
    """``RAGMETER_CACHE_DIR``, else the platform's per-user cache folder + ``ragmeter``."""
    env = os.environ.get("RAGMETER_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "ragmeter" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "ragmeter"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "ragmeter"


class BlobCache:
    """A key → bytes store in one SQLite file, safe across threads and processes.

    ``path=None`` keeps everything in memory (for one run, or tests).
    """

    def __init__(self, path: str | Path | None):
        self.path = Path(path) if path is not None else None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            str(self.path) if self.path is not None else ":memory:",
            timeout=60,
            check_same_thread=False,
            isolation_level=None,
        )
        if self.path is not None:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS blobs (key TEXT PRIMARY KEY, value BLOB)")

    def get_many(self, keys: Sequence[str]) -> dict[str, bytes]:
        """The stored values of those ``keys`` that are present."""
        out: dict[str, bytes] = {}
        with self._lock:
            for i in range(0, len(keys), 500):
                part = list(keys[i : i + 500])
                marks = ",".join("?" * len(part))
                rows = self._db.execute(
                    f"SELECT key, value FROM blobs WHERE key IN ({marks})", part
                ).fetchall()
                out.update((k, bytes(v)) for k, v in rows)
        return out

    def get(self, key: str) -> bytes | None:
        """The value stored under ``key``, or None."""
        return self.get_many([key]).get(key)

    def put_many(self, items: Iterable[tuple[str, bytes]]) -> None:
        """Store values (one transaction)."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.executemany("INSERT OR REPLACE INTO blobs VALUES (?, ?)", items)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def __len__(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT COUNT(*) FROM blobs").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()


_PAGE_FIELDS = ("title", "text", "empty_reason", "truncated", "html_chars", "lines")


class TextCache:
    """Extracted page text keyed by the page's HTML hash, extractor version and limits.

    ``parsed`` counts pages actually parsed and ``hits`` pages served from the
    cache, so callers (and tests) can check that a second run parses nothing.
    """

    def __init__(self, path: str | Path | None = None, limits: ExtractLimits | None = None):
        self.store = BlobCache(path)
        self.limits = limits or ExtractLimits()
        self._suffix = (
            f":{EXTRACTOR_VERSION}:{self.limits.max_html_chars}:{self.limits.max_text_chars}"
        )
        self.parsed = 0
        self.hits = 0

    @classmethod
    def default(cls) -> TextCache:
        """The per-user cache file ``<cache dir>/text.sqlite3``."""
        return cls(default_cache_dir() / "text.sqlite3")

    def extract_pages(self, pages: Sequence[WebPage]) -> list[ExtractedPage]:
        """Extracted text of each page, parsing only pages not seen before."""
        hashes = [html_hash(p.html) if p.html else "" for p in pages]
        keys = [h + self._suffix for h in hashes]
        found = self.store.get_many([k for k, h in zip(keys, hashes, strict=True) if h])
        out: list[ExtractedPage] = []
        new: dict[str, bytes] = {}
        for page, digest, key in zip(pages, hashes, keys, strict=True):
            meta = {"name": page.name, "url": page.url, "last_modified": page.last_modified}
            blob = found.get(key) or new.get(key)
            if blob is not None:
                self.hits += 1
                out.append(ExtractedPage(**meta, html_hash=digest, **orjson.loads(blob)))
                continue
            result = extract_html(page.html, limits=self.limits, **meta)
            if digest:
                self.parsed += 1
                result = result.model_copy(update={"html_hash": digest})
                new[key] = orjson.dumps(result.model_dump(include=set(_PAGE_FIELDS)))
            out.append(result)
        if new:
            self.store.put_many(new.items())
        return out
