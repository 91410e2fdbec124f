"""The block-parallel bz2 decoder gives exactly what `bz2.open` gives, errors included."""

from __future__ import annotations

import bz2
import random
from pathlib import Path

import pytest

from ragmeter.data.bz2par import BLOCK_MAGIC, ParallelBZ2File, find_markers, iter_decompressed

RNG = random.Random(3)
# Level 1 makes 100 kB blocks, so a small text spans several blocks.
TEXT = b"".join(RNG.randbytes(RNG.randint(1, 100)).hex().encode() + b"\n" for _ in range(4000))
COMPRESSED = bz2.compress(TEXT, 1)


def _reference(p: Path) -> tuple[bytes | None, type | None]:
    try:
        return bz2.open(p).read(), None
    except Exception as exc:
        return None, type(exc)


def _ours(p: Path, workers: int) -> tuple[bytes | None, type | None]:
    try:
        return b"".join(iter_decompressed(p, workers)), None
    except Exception as exc:
        return None, type(exc)


def _corrupt(data: bytes) -> bytes:
    b = bytearray(data)
    b[len(b) // 3] ^= 0xFF
    return bytes(b)


CASES = {
    "several blocks": COMPRESSED,
    "one big block": bz2.compress(TEXT, 9),
    "one small block": bz2.compress(b"hello\n"),
    "empty stream": bz2.compress(b""),
    "two streams": COMPRESSED + bz2.compress(TEXT[:5000], 3),
    "long runs": bz2.compress(b"a" * 1_000_000 + TEXT[:1000], 1),
    "truncated": COMPRESSED[: len(COMPRESSED) // 2],
    "corrupt": _corrupt(COMPRESSED),
    "trailing garbage": COMPRESSED + b"garbage!",
    "not bzip2": b"plain text, not compressed\n" * 50,
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("workers", [1, 3])
def test_same_bytes_or_same_error_as_bz2(tmp_path: Path, case: str, workers: int) -> None:
    p = tmp_path / "x.bz2"
    p.write_bytes(CASES[case])
    assert _ours(p, workers) == _reference(p)


def test_truncated_file_delivers_its_good_blocks_before_the_error(tmp_path: Path) -> None:
    p = tmp_path / "cut.bz2"
    p.write_bytes(CASES["truncated"])
    got = b""
    with pytest.raises(EOFError):
        for chunk in iter_decompressed(p, 2):
            got += chunk
    assert len(got) > 100_000 and TEXT.startswith(got)


def test_markers_found_at_every_bit_shift() -> None:
    for shift in range(8):
        value = (BLOCK_MAGIC << (64 - 48 - shift)).to_bytes(8, "big") + b"\0" * 8
        assert find_markers(value, 0, 8) == [(shift, True)]


def test_stream_interface(tmp_path: Path) -> None:
    p = tmp_path / "x.bz2"
    p.write_bytes(COMPRESSED)
    f = ParallelBZ2File(p, workers=2)
    head = f.read1(10)
    assert head == TEXT[:10]
    rest = b""
    while chunk := f.read1(1 << 16):
        rest += chunk
    f.close()
    assert head + rest == TEXT
