"""Decompress ``.bz2`` files on several cores, block by block, in order.

A bzip2 stream is a series of independent blocks, each opened by the 48-bit
magic ``0x314159265359`` at any bit offset and followed by its CRC; the stream
ends with ``0x177245385090`` and the combined CRC. Each block, cut out at bit
level and wrapped into a one-block stream of its own, decompresses alone, and
``bz2`` releases the GIL while it works, so threads give real parallelism.

Markers are found by searching the byte patterns of the eight bit shifts of each
magic. A magic-like pattern inside compressed data is possible (about one chance
in 2**48 per bit), and so are corrupt or truncated files: whenever a block does
not decode, or a stream's combined CRC disagrees, the reader falls back to the
standard sequential decoder, skips what it has already delivered, and goes on
(raising exactly what ``bz2.open`` would raise).
"""

from __future__ import annotations

import bz2
import io
import os
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

BLOCK_MAGIC = 0x314159265359
EOS_MAGIC = 0x177245385090
READ_SIZE = 1 << 20


def _patterns(magic: int) -> list[tuple[int, bytes, int, int]]:
    """Per bit shift s: (s, core bytes, offset of the core in a 7-byte window, window mask)."""
    out = []
    for s in range(8):
        window = magic << (56 - 48 - s)  # the magic at bit s of a 56-bit window
        raw = window.to_bytes(7, "big")
        mask = ((1 << 48) - 1) << (56 - 48 - s)
        first = 0 if s == 0 else 1  # bytes wholly covered by the magic
        out.append((s, raw[first : first + 5], first, mask))
    return out


_BLOCK = _patterns(BLOCK_MAGIC)
_EOS = _patterns(EOS_MAGIC)


def find_markers(buf: bytes, start: int, stop: int) -> list[tuple[int, bool]]:
    """Bit offsets (relative to ``buf``) of block (True) and end (False) magics whose
    7-byte window begins in ``[start, stop)``; ``buf`` must extend 7 bytes past ``stop``."""
    found: list[tuple[int, bool]] = []
    for table, is_block in ((_BLOCK, True), (_EOS, False)):
        magic = BLOCK_MAGIC if is_block else EOS_MAGIC
        for s, core, first, mask in table:
            pos = buf.find(core, start + first)
            while pos != -1:
                w = pos - first
                if w >= stop:
                    break
                window = int.from_bytes(buf[w : w + 7], "big")
                if (window & mask) >> (56 - 48 - s) == magic:
                    found.append((w * 8 + s, is_block))
                pos = buf.find(core, pos + 1)
    found.sort()
    return found


def _bits(buf: bytes, start: int, end: int) -> int:
    """The bits ``[start, end)`` of ``buf`` as an integer."""
    b0, b1 = start // 8, (end + 7) // 8
    value = int.from_bytes(buf[b0:b1], "big") >> (b1 * 8 - end)
    return value & ((1 << (end - start)) - 1)


def decode_block(block: int, nbits: int, crc: int) -> bytes:
    """Decompress one block (its bits from the block magic on) as a one-block stream."""
    stream = int.from_bytes(b"BZh9", "big")
    stream = (stream << nbits) | block
    stream = (stream << 48) | EOS_MAGIC
    stream = (stream << 32) | crc
    total = 32 + nbits + 80
    pad = -total % 8
    return bz2.decompress((stream << pad).to_bytes((total + pad) // 8, "big"))


class _Fallback(Exception):
    """The parallel path cannot go on: decode sequentially instead."""


def _rotl1(x: int) -> int:
    return ((x << 1) | (x >> 31)) & 0xFFFFFFFF


def _is_header(data: bytes) -> bool:
    return len(data) == 4 and data[:3] == b"BZh" and 0x31 <= data[3] <= 0x39


def _blocks(path: Path) -> Iterator[tuple[int, int, int]]:
    """Yield each block as (bits, bit count, block CRC), in order; check the file's layout.

    Every stream must start with ``BZh1``..``BZh9`` right where the previous one
    ended, its markers must follow each other, its combined CRC must match, and the
    file must end exactly after a stream. Anything else raises `_Fallback`.
    """
    buf = b""
    base = 0  # absolute bit offset of buf[0]
    scanned = 0  # absolute byte offset up to which windows were searched
    pending: int | None = None  # absolute bit offset of the open block's magic
    stream_start = 0  # absolute byte offset of the current (or next) stream header
    expect_at: int | None = 32  # where the next marker must be, right after a header
    combined = 0
    eof = False
    with open(path, "rb") as f:
        while not eof:
            data = f.read(READ_SIZE)
            eof = not data
            buf += data
            byte0 = base // 8
            stop = byte0 + len(buf) - 7 if not eof else byte0 + len(buf)
            rel_start, rel_stop = scanned - byte0, stop - byte0
            if rel_stop <= rel_start:
                continue
            padded = buf + b"\0" * 7 if eof else buf
            markers = find_markers(padded, rel_start, rel_stop)
            scanned = stop
            for rel_bit, is_block in markers:
                bit = base + rel_bit
                if expect_at is not None:
                    if bit != expect_at:
                        raise _Fallback
                    h = stream_start - byte0
                    if not _is_header(buf[h : h + 4]):
                        raise _Fallback
                    expect_at = None
                if pending is not None:
                    lo = pending - base
                    nbits = bit - pending
                    if nbits < 80:
                        raise _Fallback
                    crc = _bits(buf, lo + 48, lo + 80)
                    combined = _rotl1(combined) ^ crc
                    yield _bits(buf, lo, lo + nbits), nbits, crc
                    pending = None
                if is_block:
                    pending = bit
                    continue
                rel = bit - base
                if rel + 80 > len(buf) * 8 or _bits(buf, rel + 48, rel + 80) != combined:
                    raise _Fallback
                combined = 0
                stream_start = (bit + 80 + 7) // 8
                expect_at = (stream_start + 4) * 8
            # Keep what an open block, the next stream's header or an unscanned window needs.
            keep = [scanned * 8]
            if pending is not None:
                keep.append(pending)
            if expect_at is not None:
                keep.append(stream_start * 8)
            drop = (min(keep) - base) // 8
            if drop > 0:
                buf = buf[drop:]
                base += drop * 8
    size = base // 8 + len(buf)
    if pending is not None or expect_at is None or stream_start != size or size == 0:
        raise _Fallback  # truncated, trailing data, or not bzip2 at all


def iter_decompressed(path: str | Path, workers: int | None = None) -> Iterator[bytes]:
    """Yield the decompressed content of a ``.bz2`` file in order, decoding blocks in parallel.

    Behaves like reading ``bz2.open(path)`` to the end, errors included.
    """
    p = Path(path)
    n = workers or max(1, min(8, len(os.sched_getaffinity(0))))
    delivered = 0
    if n > 1:
        inflight: deque[Future[bytes]] = deque()
        pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="ragmeter-bz2")
        try:
            try:
                for block, nbits, crc in _blocks(p):
                    inflight.append(pool.submit(decode_block, block, nbits, crc))
                    # n blocks decoding and one ready: enough to keep n cores busy.
                    while len(inflight) > n + 1:
                        out = inflight.popleft().result()
                        delivered += len(out)
                        yield out
                while inflight:
                    out = inflight.popleft().result()
                    delivered += len(out)
                    yield out
                return
            except (_Fallback, OSError, ValueError, EOFError):
                pass
        finally:
            for fut in inflight:
                fut.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
    # Sequential path (one core, or the parallel path gave up): skip what was delivered.
    with bz2.open(p, "rb") as f:
        skip = delivered
        while skip:
            got = f.read(min(skip, READ_SIZE))
            if not got:
                return
            skip -= len(got)
        while chunk := f.read1(READ_SIZE):
            yield chunk


class ParallelBZ2File(io.RawIOBase):
    """A read-only binary stream over `iter_decompressed`."""

    def __init__(self, path: str | Path, workers: int | None = None) -> None:
        super().__init__()
        self._it = iter_decompressed(path, workers)
        self._buf = b""
        self._pos = 0

    def readable(self) -> bool:
        """Always True."""
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        """Copy the next decompressed bytes into ``buffer``."""
        while self._pos >= len(self._buf):
            nxt = next(self._it, None)
            if nxt is None:
                return 0
            self._buf, self._pos = nxt, 0
        n = min(len(buffer), len(self._buf) - self._pos)
        buffer[:n] = self._buf[self._pos : self._pos + n]
        self._pos += n
        return n

    def read1(self, size: int = -1) -> bytes:
        """The rest of the current decompressed block (at most ``size`` bytes)."""
        while self._pos >= len(self._buf):
            nxt = next(self._it, None)
            if nxt is None:
                return b""
            self._buf, self._pos = nxt, 0
        end = len(self._buf) if size < 0 else min(len(self._buf), self._pos + size)
        out = self._buf[self._pos : end]
        self._pos = end
        return out

    def close(self) -> None:
        """Stop the decoder threads."""
        close = getattr(self._it, "close", None)
        if close is not None:
            close()
        super().close()
