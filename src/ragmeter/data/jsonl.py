"""Open plain or compressed files and stream JSON lines with their line numbers."""

from __future__ import annotations

import bz2
import gzip
import lzma
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, cast

import orjson

from ragmeter.errors import DataError


def open_binary(path: str | Path) -> IO[bytes]:
    """Open ``path`` for reading bytes, decompressing ``.bz2``, ``.gz`` and ``.xz`` by suffix."""
    p = Path(path)
    try:
        if p.suffix == ".bz2":
            return bz2.open(p, "rb")
        if p.suffix == ".gz":
            return cast(IO[bytes], gzip.open(p, "rb"))
        if p.suffix == ".xz":
            return lzma.open(p, "rb")
        return open(p, "rb")
    except OSError as exc:
        raise DataError(f"cannot open: {exc.strerror or exc}", path=p) from None


_DECOMPRESSION_ERRORS = (OSError, EOFError, lzma.LZMAError, gzip.BadGzipFile)


def iter_json_lines(stream: IO[bytes], source: str | Path) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, parsed_object)`` for each non-blank line of ``stream``.

    A broken line or a truncated stream raises `DataError` naming ``source`` and the line.
    """
    line_no = 0
    while True:
        try:
            raw = stream.readline()
        except _DECOMPRESSION_ERRORS as exc:
            raise DataError(
                f"stream ends or breaks after line {line_no} ({exc})", path=source, line=line_no + 1
            ) from None
        if not raw:
            return
        line_no += 1
        if not raw.strip():
            continue
        try:
            yield line_no, orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            hint = "" if raw.endswith(b"\n") else " (the file may be truncated)"
            raise DataError(f"invalid JSON: {exc}{hint}", path=source, line=line_no) from None
