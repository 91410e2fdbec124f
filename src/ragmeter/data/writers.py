"""Writers that never leave a half-written file under its final name.

Every writer writes to a temporary file beside the target and renames it into
place only after the last byte is flushed and synced; on any error the
temporary file is removed. Compression follows the target's suffix.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import lzma
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, cast

import orjson
from pydantic import BaseModel

from ragmeter.errors import DataError, MissingExtraError
from ragmeter.types import Question


@contextlib.contextmanager
def atomic_binary(path: str | Path) -> Iterator[IO[bytes]]:
    """Open a temporary file beside ``path`` for writing bytes; rename it to ``path`` on success.

    The stream compresses by the target's suffix (``.bz2``, ``.gz``, ``.xz``).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    tmp = Path(tmp_name)
    raw = os.fdopen(fd, "wb")
    stream: IO[bytes]
    try:
        if target.suffix == ".bz2":
            stream = cast(IO[bytes], bz2.BZ2File(raw, "wb"))
        elif target.suffix == ".gz":
            stream = cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="wb", filename=""))
        elif target.suffix == ".xz":
            stream = cast(IO[bytes], lzma.LZMAFile(raw, "wb"))  # noqa: SIM115
        else:
            stream = raw
        yield stream
        if stream is not raw:
            stream.close()
        raw.flush()
        os.fsync(raw.fileno())
        raw.close()
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(Exception):
            raw.close()
        tmp.unlink(missing_ok=True)
        raise


def _dump(record: BaseModel | dict[str, Any]) -> bytes:
    if isinstance(record, BaseModel):
        return record.model_dump_json().encode("utf-8")
    return orjson.dumps(record)


def write_jsonl(path: str | Path, records: Iterable[BaseModel | dict[str, Any]]) -> int:
    """Write records as JSON Lines, atomically; returns the number of rows written."""
    n = 0
    with atomic_binary(path) as out:
        for record in records:
            out.write(_dump(record))
            out.write(b"\n")
            n += 1
    return n


def write_raw_records(path: str | Path, records: Iterable[bytes], layout: str) -> int:
    """Write serialised JSON records as JSON Lines (``lines``) or a JSON array (``array``)."""
    n = 0
    with atomic_binary(path) as out:
        if layout == "array":
            out.write(b"[")
        for raw in records:
            body = raw.strip()
            if layout == "array":
                out.write(b"\n" if n == 0 else b",\n")
                out.write(body)
            else:
                out.write(body)
                out.write(b"\n")
            n += 1
        if layout == "array":
            out.write(b"\n]\n")
    return n


# --- Parquet ---------------------------------------------------------------------------


def _require_pyarrow() -> Any:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingExtraError("parquet", "writing Parquet") from None
    return pa, pq


def question_schema() -> Any:
    """The Arrow schema of an exported `Question` (set-specific extras as a JSON string)."""
    pa, _ = _require_pyarrow()
    page = pa.struct(
        [
            ("name", pa.string()),
            ("url", pa.string()),
            ("snippet", pa.string()),
            ("html", pa.string()),
            ("html_bytes", pa.int64()),
            ("last_modified", pa.string()),
        ]
    )
    passage = pa.struct(
        [
            ("title", pa.string()),
            ("text", pa.string()),
            ("answers_found", pa.list_(pa.int8())),
            ("rec_score", pa.float64()),
            ("answers_found_computed", pa.bool_()),
        ]
    )
    feedback = pa.struct(
        [
            ("predictions", pa.list_(pa.string())),
            (
                "error_spans",
                pa.list_(
                    pa.struct(
                        [
                            ("error_type", pa.string()),
                            ("start", pa.int64()),
                            ("end", pa.int64()),
                            ("explanation", pa.string()),
                        ]
                    )
                ),
            ),
            (
                "missing_info",
                pa.list_(
                    pa.struct(
                        [
                            ("error_type", pa.string()),
                            ("passage_id", pa.int64()),
                            ("sentence_id", pa.int64()),
                            ("explanation", pa.string()),
                            ("sentence_ids", pa.list_(pa.int64())),
                        ]
                    )
                ),
            ),
            ("corrected_prediction", pa.string()),
            ("preferences", pa.list_(pa.int8())),
        ]
    )
    labels = pa.struct(
        [
            ("domain", pa.string()),
            ("question_type", pa.string()),
            ("static_or_dynamic", pa.string()),
            ("popularity", pa.string()),
            ("split", pa.string()),
            ("answer_type", pa.string()),
        ]
    )
    return pa.schema(
        [
            ("id", pa.string()),
            ("dataset", pa.string()),
            ("query", pa.string()),
            ("query_time", pa.string()),
            ("answers", pa.list_(pa.list_(pa.string()))),
            ("labels", labels),
            ("pages", pa.list_(page)),
            ("passages", pa.list_(passage)),
            ("feedback", feedback),
            ("extras_json", pa.string()),
        ]
    )


def _question_row(q: Question) -> dict[str, Any]:
    row = q.model_dump(exclude={"extras"})
    split = row["labels"]["split"]
    # `split` is an int in CRAG and a name in qa-feedback: one string column holds both.
    row["labels"]["split"] = None if split is None else str(split)
    row["extras_json"] = orjson.dumps(q.extras).decode("utf-8") if q.extras else None
    return row


def write_parquet(
    path: str | Path, questions: Iterable[Question], batch_bytes: int = 64 << 20
) -> int:
    """Write questions to Parquet, atomically, in row groups of about ``batch_bytes`` of text.

    Needs the ``parquet`` extra (pyarrow); raises `MissingExtraError` without it.
    """
    pa, pq = _require_pyarrow()
    schema = question_schema()
    n = 0
    with atomic_binary(Path(path)) as out:
        writer = pq.ParquetWriter(out, schema, compression="zstd")
        try:
            batch: list[dict[str, Any]] = []
            size = 0
            for q in questions:
                batch.append(_question_row(q))
                size += (
                    len(q.query)
                    + sum(p.html_bytes for p in q.pages)
                    + sum(len(p.text) for p in q.passages)
                )
                n += 1
                if size >= batch_bytes or len(batch) >= 10_000:
                    writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                    batch, size = [], 0
            if batch:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
        finally:
            writer.close()
    return n


EXPORT_FORMATS = ("jsonl", "parquet")


def export_questions(
    path: str | Path, questions: Iterable[Question], fmt: str | None = None
) -> int:
    """Export questions to JSON Lines or Parquet (from ``fmt`` or the file name)."""
    p = Path(path)
    if fmt is None:
        fmt = "parquet" if p.suffix == ".parquet" else "jsonl"
    if fmt == "parquet":
        return write_parquet(p, questions)
    if fmt == "jsonl":
        return write_jsonl(p, questions)
    raise DataError(f"unknown export format {fmt!r}: use one of {', '.join(EXPORT_FORMATS)}")
