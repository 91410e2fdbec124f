"""Opening a domain's files: converted twins first, a clear error otherwise."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

from ragmeter.errors import DataError
from ragmeter.kg.errors import KGDataError
from ragmeter.kg.formats import FrameFile, KVFile, frame_path, kv_path, read_frame

T = TypeVar("T")


def _unconverted(official: Path, root: Path) -> KGDataError:
    return KGDataError(
        "holds pickled data, which the server never loads; convert it once with "
        f"`ragmeter kg convert --trust-pickle {root} DEST` and serve DEST",
        official,
    )


def open_kv(root: Path, stem: str, official_suffix: str) -> KVFile:
    """The kv twin of ``stem``; explains what to do when only the pickled original exists."""
    safe = kv_path(root, stem)
    if safe.is_file():
        try:
            return KVFile(safe)
        except DataError as exc:
            raise KGDataError(exc.reason, safe) from exc
    official = root / (stem + official_suffix)
    if official.is_file():
        raise _unconverted(official, root)
    raise KGDataError("file not found (nor the official file it is converted from)", safe)


def open_frame(root: Path, stem: str, official_suffix: str) -> FrameFile:
    """The frame twin of ``stem``; explains what to do when only the pickle exists."""
    safe = frame_path(root, stem)
    if safe.is_file():
        try:
            return read_frame(safe)
        except DataError as exc:
            raise KGDataError(exc.reason, safe) from exc
    official = root / (stem + official_suffix)
    if official.is_file():
        raise _unconverted(official, root)
    raise KGDataError("file not found (nor the official file it is converted from)", safe)


def require_file(path: Path) -> Path:
    """``path`` if it is a file, else a `KGDataError` naming it."""
    if not path.is_file():
        raise KGDataError("file not found", path)
    return path


class Lazy(Generic[T]):
    """A value built on first use, once, even when many threads ask at the same time."""

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self._value: T | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        """Whether the value has been built."""
        return self._value is not None

    def get(self) -> T:
        """Build the value if needed (a failure is raised again on the next call)."""
        value = self._value
        if value is not None:
            return value
        with self._lock:
            if self._value is None:
                self._value = self._build()
            return self._value
