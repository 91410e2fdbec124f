"""Streaming JSON Lines and JSON arrays: chunk boundaries, line numbers, broken input."""

from __future__ import annotations

import bz2
import io
import json
import random
from pathlib import Path

import pytest
from helpers_data import write_file
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmeter.data.jsonl import (
    SkipLog,
    iter_json_lines,
    iter_json_records,
    iter_lines,
    iter_raw_array,
    prefetch_chunks,
    sniff_layout,
)
from ragmeter.errors import DataError

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.text(alphabet=st.sampled_from('ab"\\[]{},: \n\té'), max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet='k"\\[}', max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=80, deadline=None)
@given(values=st.lists(JSON_VALUES, max_size=6), size=st.integers(1, 9), indent=st.booleans())
def test_array_scanner_cuts_elements_at_any_chunk_size(
    values: list[object], size: int, indent: bool
) -> None:
    raw = json.dumps(values, indent=1 if indent else None, ensure_ascii=False).encode()
    chunks = iter([raw[i : i + size] for i in range(0, len(raw), size)])
    out = [json.loads(r) for _, r in iter_raw_array(chunks, "x.json")]
    assert out == values


def test_array_elements_carry_their_line_numbers(tmp_path: Path) -> None:
    p = tmp_path / "a.json"
    p.write_text('[\n  {"a": 1},\n\n  {"b": "x\\ny"},\n  3\n]\n')
    assert [line for line, _ in iter_json_records(p)] == [2, 4, 5]
    assert sniff_layout(p) == "array"


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.bz2", ".jsonl.gz", ".jsonl.xz"])
def test_json_lines_in_every_compression(tmp_path: Path, suffix: str) -> None:
    rows = [{"i": i, "text": "x" * (i * 1000)} for i in range(50)]
    data = b"".join(json.dumps(r).encode() + b"\n" for r in rows) + b"\n"
    p = write_file(tmp_path / f"rows{suffix}", data)
    got = list(iter_json_records(p))
    assert [r for _, r in got] == rows
    assert got[-1][0] == 50


def test_lines_longer_than_a_chunk_are_joined_once() -> None:
    long = b"y" * 50
    chunks = iter([b"a\n" + long[:10], long[10:30], long[30:] + b"\nb", b"\n", b"c"])
    assert list(iter_lines(chunks)) == [b"a\n", long + b"\n", b"b\n", b"c"]


def test_broken_line_names_file_and_line(tmp_path: Path) -> None:
    p = tmp_path / "bad.jsonl"
    p.write_text('{"a": 1}\n{"a": 2}\n{"a": \n{"a": 4}\n')
    with pytest.raises(DataError) as err:
        list(iter_json_records(p))
    assert err.value.line == 3
    assert "bad.jsonl, line 3" in str(err.value)


def test_skip_mode_reports_which_lines(tmp_path: Path) -> None:
    p = tmp_path / "bad.jsonl"
    p.write_text('{"a": 1}\nnot json\n{"a": 3}\n[1,\n')
    skips = SkipLog()
    assert [r["a"] for _, r in iter_json_records(p, skips)] == [1, 3]
    assert [r.line for r in skips.rows] == [2, 4]
    assert "skipped 2 bad row(s)" in skips.summary() and "line 2, line 4" in skips.summary()


def test_truncated_bz2_stream_is_a_data_error(tmp_path: Path) -> None:
    # Varied text over several bz2 blocks, so the first blocks decode before the cut.
    rng = random.Random(0)
    rows = [{"i": i, "pad": rng.randbytes(500).hex()} for i in range(400)]
    data = b"".join(json.dumps(r).encode() + b"\n" for r in rows)
    blob = bz2.compress(data, 1)  # 100 kB blocks
    p = tmp_path / "cut.jsonl.bz2"
    p.write_bytes(blob[: len(blob) // 2])
    with pytest.raises(DataError) as err:
        list(iter_json_records(p))
    assert err.value.path == str(p)
    assert err.value.line is not None and err.value.line > 1
    skips = SkipLog()
    got = list(iter_json_records(p, skips))
    assert len(got) >= 1 and len(skips) == 1


def test_truncated_json_array_is_a_data_error(tmp_path: Path) -> None:
    p = tmp_path / "cut.json"
    p.write_text('[{"a": 1},\n {"a": 2},\n {"a": "unfinished')
    with pytest.raises(DataError, match="not closed") as err:
        list(iter_json_records(p))
    assert err.value.line == 3


def test_read_ahead_thread_hands_errors_to_the_reader() -> None:
    class Exploding(io.RawIOBase):
        def __init__(self) -> None:
            self.calls = 0

        def readable(self) -> bool:
            return True

        def read(self, n: int = -1) -> bytes:
            self.calls += 1
            if self.calls > 2:
                raise EOFError("compressed file ended before the end-of-stream marker")
            return b'{"a": 1}\n'

    skips = SkipLog()
    rows = list(iter_json_lines(Exploding(), "x.jsonl.bz2", skips, read_ahead=True))  # type: ignore[arg-type]
    assert [r for _, r in rows] == [{"a": 1}, {"a": 1}]
    assert "ends or breaks" in skips.rows[0].reason


def test_read_ahead_stops_when_the_reader_stops() -> None:
    stream = io.BytesIO(b"x" * (10 << 20))
    gen = prefetch_chunks(stream, size=1 << 16, depth=2)
    assert next(gen) == b"x" * (1 << 16)
    gen.close()  # must join the thread without reading the rest
    assert stream.tell() < (10 << 20)
