"""Open plain or compressed files and stream JSON records with their line numbers.

Two layouts are read record by record, never whole:
- JSON Lines (one object per line, ``.jsonl`` and compressed variants);
- a JSON array (``.json``), cut into elements by a small scanner that tracks
  strings and nesting, so a 100 MB Trust-Score file costs one element of memory.

Decompression runs off the main thread (``bz2``, ``zlib`` and ``lzma`` release
the GIL): ``.bz2`` blocks decode in parallel (`ragmeter.data.bz2par`), ``.gz``
and ``.xz`` read ahead in one thread, so parsing overlaps with decompression.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import queue
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, cast

import orjson

from ragmeter.data.bz2par import ParallelBZ2File
from ragmeter.errors import DataError
from ragmeter.types import Record

COMPRESSED_SUFFIXES = (".bz2", ".gz", ".xz")
CHUNK_SIZE = 1 << 20


class SkippedRow(Record):
    """One row left out under ``--on-error skip``: where it was and why."""

    source: str
    line: int | None
    reason: str


class SkipLog:
    """Collects the rows skipped under ``--on-error skip``.

    Readers take ``skips=None`` to raise on the first bad row, or a `SkipLog`
    to record the bad row and go on.
    """

    def __init__(self) -> None:
        self.rows: list[SkippedRow] = []

    def __len__(self) -> int:
        return len(self.rows)

    def record(self, error: DataError) -> None:
        """Remember a bad row from the `DataError` that describes it."""
        self.rows.append(SkippedRow(source=error.path or "", line=error.line, reason=error.reason))

    def summary(self, limit: int = 20) -> str:
        """One line: how many rows were skipped, and which lines (the first ``limit``)."""
        if not self.rows:
            return "skipped 0 bad rows"
        shown = ", ".join(
            f"line {r.line}" if r.line is not None else "(no line)" for r in self.rows[:limit]
        )
        more = f" and {len(self.rows) - limit} more" if len(self.rows) > limit else ""
        first = self.rows[0]
        return (
            f"skipped {len(self.rows)} bad row(s) in {first.source}: {shown}{more} "
            f"(first: {first.reason})"
        )


def handle_bad_row(error: DataError, skips: SkipLog | None) -> None:
    """Raise ``error``, or record it in ``skips`` when the caller asked to skip bad rows."""
    if skips is None:
        raise error
    skips.record(error)


def compression_of(path: str | Path) -> str | None:
    """The compression implied by a file name (``bz2``, ``gz``, ``xz``), or None."""
    suffix = Path(path).suffix
    return suffix[1:] if suffix in COMPRESSED_SUFFIXES else None


def open_binary(path: str | Path) -> IO[bytes]:
    """Open ``path`` for reading bytes, decompressing ``.bz2``, ``.gz`` and ``.xz`` by suffix."""
    p = Path(path)
    try:
        if p.suffix == ".bz2":
            if not p.is_file():
                raise FileNotFoundError(2, "No such file or directory")
            # Blocks decode in parallel threads; output is identical to bz2.open's.
            return io.BufferedReader(ParallelBZ2File(p), buffer_size=CHUNK_SIZE)
        if p.suffix == ".gz":
            return cast(IO[bytes], gzip.open(p, "rb"))
        if p.suffix == ".xz":
            return lzma.open(p, "rb")
        return open(p, "rb")
    except OSError as exc:
        raise DataError(f"cannot open: {exc.strerror or exc}", path=p) from None


_DECOMPRESSION_ERRORS = (OSError, EOFError, lzma.LZMAError, gzip.BadGzipFile)


class StreamBroken(Exception):
    """The byte stream ended early or could not be decompressed."""


def iter_chunks(stream: IO[bytes], size: int = CHUNK_SIZE) -> Iterator[bytes]:
    """Read ``stream`` in chunks; a decompression failure becomes `StreamBroken`.

    ``read1`` (one decompression step) is preferred over ``read``, so the rows
    decoded before a break are delivered before the break is reported.
    """
    read = getattr(stream, "read1", stream.read)
    while True:
        try:
            chunk = read(size)
        except _DECOMPRESSION_ERRORS as exc:
            raise StreamBroken(str(exc)) from None
        if not chunk:
            return
        yield chunk


_DONE = object()


def prefetch_chunks(stream: IO[bytes], size: int = CHUNK_SIZE, depth: int = 4) -> Iterator[bytes]:
    """Like `iter_chunks`, but read ahead in a thread so decompression overlaps parsing.

    At most ``depth`` chunks wait in memory. Closing the generator stops the thread
    before returning, so the caller may close ``stream`` right after.
    """
    q: queue.Queue[object] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(item: object) -> bool:
        while not stop.is_set():
            try:
                q.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def work() -> None:
        try:
            for chunk in iter_chunks(stream, size):
                if not put(chunk):
                    return
        except BaseException as exc:  # handed to the consumer, which re-raises it
            put(exc)
            return
        put(_DONE)

    thread = threading.Thread(target=work, name="ragmeter-read-ahead", daemon=True)
    thread.start()
    try:
        while True:
            item = q.get()
            if item is _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            yield cast(bytes, item)
    finally:
        stop.set()
        thread.join()


def chunks_of(stream: IO[bytes], read_ahead: bool) -> Iterator[bytes]:
    """Chunks of ``stream``, read ahead in a thread when decompression is the bottleneck."""
    return prefetch_chunks(stream) if read_ahead else iter_chunks(stream)


def iter_lines(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """Split chunks into lines (with their newline), joining a long line's pieces once."""
    pending: list[bytes] = []
    for chunk in chunks:
        start = 0
        end = chunk.find(b"\n")
        while end != -1:
            if pending:
                pending.append(chunk[start : end + 1])
                yield b"".join(pending)
                pending = []
            else:
                yield chunk[start : end + 1]
            start = end + 1
            end = chunk.find(b"\n", start)
        if start < len(chunk):
            pending.append(chunk[start:] if start else chunk)
    if pending:
        yield b"".join(pending)


def _parse(raw: bytes, source: str | Path, line_no: int) -> Any:
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        hint = "" if raw.endswith((b"\n", b"}", b"]")) else " (the file may be truncated)"
        raise DataError(f"invalid JSON: {exc}{hint}", path=source, line=line_no) from None


def iter_raw_lines(
    chunks: Iterator[bytes], source: str | Path, skips: SkipLog | None = None
) -> Iterator[tuple[int, bytes]]:
    """Yield ``(line_number, raw_line)`` for each non-blank line of a JSON Lines stream."""
    line_no = 0
    try:
        for raw in iter_lines(chunks):
            line_no += 1
            if raw.strip():
                yield line_no, raw
    except StreamBroken as exc:
        handle_bad_row(
            DataError(
                f"stream ends or breaks after line {line_no} ({exc})", path=source, line=line_no + 1
            ),
            skips,
        )


def iter_json_lines(
    stream: IO[bytes],
    source: str | Path,
    skips: SkipLog | None = None,
    read_ahead: bool | None = None,
) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, parsed_object)`` for each non-blank line of ``stream``.

    A broken line or a truncated stream raises `DataError` naming ``source`` and the
    line, or is recorded in ``skips`` (a broken stream ends the iteration there).
    ``read_ahead`` reads in a thread; by default only for decompressing streams.
    """
    if read_ahead is None:
        read_ahead = not isinstance(stream, (io.BufferedReader, io.BytesIO, io.FileIO))
    chunks = chunks_of(stream, read_ahead)
    try:
        yield from _parsed(iter_raw_lines(chunks, source, skips), source, skips)
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()


def _parsed(
    raws: Iterator[tuple[int, bytes]], source: str | Path, skips: SkipLog | None
) -> Iterator[tuple[int, Any]]:
    for line_no, raw in raws:
        try:
            obj = _parse(raw, source, line_no)
        except DataError as exc:
            handle_bad_row(exc, skips)
            continue
        yield line_no, obj


# --- JSON arrays -----------------------------------------------------------------------

_TOKEN = re.compile(rb'["\\{}\[\]]')
_NON_SPACE = re.compile(rb"[^ \t\r\n]")
_VALUE_START = re.compile(rb"[^ \t\r\n,]")
_SCALAR_END = re.compile(rb"[ \t\r\n,\]]")


class _ArrayScanner:
    """Cuts a JSON array, arriving in chunks, into the raw bytes of its elements.

    It tracks only what decides where an element ends: string quotes, escapes
    and bracket depth. orjson then parses each element and reports real errors.
    """

    def __init__(self, source: str | Path) -> None:
        self.source = source
        self.state = "start"  # start -> between -> (element) -> between ... -> end
        self.depth = 0
        self.in_string = False
        self.skip_next = False
        self.kind = ""  # the element being read: "container", "string" or "scalar"
        self.pieces: list[bytes] = []
        self.element_line = 0
        self.lines_before = 0  # newlines in all earlier chunks
        self.escape_pending = False
        self._start = 0

    def feed(self, chunk: bytes) -> Iterator[tuple[int, bytes]]:
        """Yield ``(line, raw_element)`` for every element that ends in ``chunk``."""
        pos = 0
        n = len(chunk)
        while pos < n:
            if self.state == "start":
                m = _NON_SPACE.search(chunk, pos)
                if m is None:
                    break
                if chunk[m.start()] != ord("["):
                    raise DataError(
                        "expected a JSON array ('[') at the top level",
                        path=self.source,
                        line=self._line(chunk, m.start()),
                    )
                self.state = "between"
                pos = m.start() + 1
            elif self.state == "between":
                m = _VALUE_START.search(chunk, pos)
                if m is None:
                    break
                pos = m.start()
                c = chunk[pos]
                if c == ord("]"):
                    self.state = "end"
                    pos += 1
                    continue
                self.element_line = self._line(chunk, pos)
                self.state = "element"
                self.pieces = []
                if c in (ord("{"), ord("[")):
                    self.kind, self.depth = "container", 0
                elif c == ord('"'):
                    self.kind, self.depth = "string", 0
                else:
                    self.kind = "scalar"
                self._start = pos
            elif self.state == "element":
                end = self._scan(chunk, pos)
                if end is None:
                    self.pieces.append(chunk[self._start :])
                    self._start = 0
                    break
                self.pieces.append(chunk[self._start : end])
                raw = b"".join(self.pieces)
                self.pieces = []
                self.state = "between"
                pos = end
                yield self.element_line, raw
            else:  # "end": only whitespace may follow
                m = _NON_SPACE.search(chunk, pos)
                if m is not None:
                    raise DataError(
                        "unexpected data after the end of the JSON array",
                        path=self.source,
                        line=self._line(chunk, m.start()),
                    )
                break
        self.lines_before += chunk.count(b"\n")
        self._start = 0

    def _line(self, chunk: bytes, pos: int) -> int:
        return self.lines_before + chunk.count(b"\n", 0, pos) + 1

    def _scan(self, chunk: bytes, pos: int) -> int | None:
        """Where the current element ends in ``chunk`` (exclusive), or None if it goes on."""
        if self.kind == "scalar":
            m = _SCALAR_END.search(chunk, pos)
            return m.start() if m is not None else None
        # An escape at the very end of the last chunk escapes this chunk's first byte.
        skip_at = 0 if self.escape_pending else -1
        self.escape_pending = False
        for m in _TOKEN.finditer(chunk, pos):
            i = m.start()
            if i == skip_at:
                continue
            c = chunk[i]
            if self.in_string:
                if c == 0x5C:  # backslash: the next byte is escaped
                    if i + 1 == len(chunk):
                        self.escape_pending = True
                    else:
                        skip_at = i + 1
                elif c == 0x22:
                    self.in_string = False
                    if self.kind == "string":
                        return i + 1
                continue
            if c == 0x22:
                self.in_string = True
            elif c in (0x7B, 0x5B):
                self.depth += 1
            elif c in (0x7D, 0x5D):
                self.depth -= 1
                if self.depth == 0:
                    return i + 1
        return None

    def finish(self) -> None:
        """Raise if the array did not end properly."""
        if self.state == "start":
            raise DataError("the file is empty: expected a JSON array", path=self.source)
        if self.state != "end":
            line = self.element_line if self.state == "element" else self.lines_before + 1
            raise DataError(
                "the JSON array is not closed (the file may be truncated)",
                path=self.source,
                line=line,
            )


def iter_raw_array(
    chunks: Iterator[bytes], source: str | Path, skips: SkipLog | None = None
) -> Iterator[tuple[int, bytes]]:
    """Yield ``(line, raw_element)`` for each element of a top-level JSON array."""
    scanner = _ArrayScanner(source)
    try:
        for chunk in chunks:
            yield from scanner.feed(chunk)
        scanner.finish()
    except StreamBroken as exc:
        handle_bad_row(
            DataError(f"stream ends or breaks ({exc})", path=source, line=scanner.element_line),
            skips,
        )
    except DataError as exc:
        # The array's structure is broken: nothing after this point can be trusted.
        handle_bad_row(exc, skips)


# --- Both layouts ------------------------------------------------------------------------


def _first_byte(chunk: bytes) -> int | None:
    m = _NON_SPACE.search(chunk)
    return chunk[m.start()] if m is not None else None


def sniff_layout(path: str | Path) -> str:
    """``"array"`` when the file holds one JSON array, ``"object"`` for a single
    multi-line JSON object, else ``"lines"`` (JSON Lines)."""
    pieces: list[bytes] = []
    # The head needs one bz2 block: the sequential decoder, unlike the parallel one,
    # decodes no more than that.
    if Path(path).suffix == ".bz2" and Path(path).is_file():
        opened: IO[bytes] = bz2.open(path, "rb")  # noqa: SIM115 (closed by the with below)
    else:
        opened = open_binary(path)
    with opened as stream:
        # Small reads, so a stream that breaks early still shows its first bytes; the
        # break itself is reported, with its line, by the reader that follows.
        try:
            while sum(map(len, pieces)) < (1 << 16) and (piece := stream.read(4096)):
                pieces.append(piece)
        except _DECOMPRESSION_ERRORS as exc:
            if not pieces:
                raise DataError(f"cannot decompress: {exc}", path=path, line=1) from None
    head = b"".join(pieces)
    first = _first_byte(head)
    if first == ord("["):
        return "array"
    if first == ord("{"):
        # A JSON Lines file holds a whole object on its first line.
        line = head.split(b"\n", 1)[0]
        try:
            orjson.loads(line)
            return "lines"
        except orjson.JSONDecodeError:
            if b"\n" in head or len(head) < (1 << 16):
                return "object"
            return "lines"
    return "lines"


def iter_raw_records(
    path: str | Path, skips: SkipLog | None = None, layout: str | None = None
) -> Iterator[tuple[int, bytes]]:
    """Yield ``(line, raw_json)`` per record of a JSON Lines file or a JSON array file."""
    layout = layout or sniff_layout(path)
    with open_binary(path) as stream:
        # .bz2 already decodes on worker threads (bz2par); .gz and .xz read ahead in one.
        chunks = chunks_of(stream, compression_of(path) in ("gz", "xz"))
        try:
            if layout == "array":
                yield from iter_raw_array(chunks, path, skips)
            elif layout == "object":
                yield 1, b"".join(chunks)
            else:
                yield from iter_raw_lines(chunks, path, skips)
        except StreamBroken as exc:
            handle_bad_row(DataError(f"stream ends or breaks ({exc})", path=path), skips)
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()


def iter_json_records(
    path: str | Path, skips: SkipLog | None = None, layout: str | None = None
) -> Iterator[tuple[int, Any]]:
    """Yield ``(line, parsed_record)`` for each record of a JSON Lines or JSON array file."""
    yield from _parsed(iter_raw_records(path, skips, layout), path, skips)
