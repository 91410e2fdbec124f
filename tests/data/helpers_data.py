"""Generators of small benchmark files in every format, for the data-layer tests."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import tarfile
from pathlib import Path
from typing import Any

DOMAINS = ("finance", "movie", "music", "sports", "open")
TYPES = ("simple", "comparison", "multi-hop", "set")
DYNAMISM = ("static", "slow-changing", "fast-changing", "real-time")


def crag_row(i: int, release: str = "v4", pages: int = 2) -> dict[str, Any]:
    """A CRAG task 1&2 row; ``release`` v4 stores alternative answers as a JSON string."""
    answer = ["yes", "invalid question", "i don't know", "nan"][i % 4]
    row: dict[str, Any] = {
        "interaction_id": f"q{i}",
        "query_time": "03/01/2024, 10:00:00 PT",
        "domain": DOMAINS[i % 5],
        "question_type": TYPES[i % 4],
        "static_or_dynamic": DYNAMISM[(i // 3) % 4],
        "query": f"question number {i}?",
        "answer": answer,
        "split": i % 2,
        "search_results": [
            {
                "page_name": f"page {j}",
                "page_url": f"https://example.org/{i}/{j}",
                "page_snippet": "snippet",
                "page_result": f"<html><body>row {i} page {j} é</body></html>",
                "page_last_modified": "",
            }
            for j in range(pages)
        ],
    }
    if release == "v4":
        row["alternative_answers"] = json.dumps([f"alt {i}"])
    else:
        row["alt_ans"] = [f"alt {i}"]
        row["popularity"] = ["head", "torso", "tail", ""][i % 4]
    return row


def dumps_lines(rows: list[Any]) -> bytes:
    """Rows as JSON Lines bytes."""
    return b"".join(json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in rows)


def write_file(path: Path, data: bytes) -> Path:
    """Write ``data`` compressed by the suffix of ``path``."""
    if path.suffix == ".bz2":
        data = bz2.compress(data)
    elif path.suffix == ".gz":
        data = gzip.compress(data)
    elif path.suffix == ".xz":
        data = lzma.compress(data)
    path.write_bytes(data)
    return path


def task3_archive(tmp: Path, rows_per_member: list[int], parts: int) -> list[Path]:
    """A CRAG task 3 style ``tar.bz2`` of JSONL members, split into ``parts`` files."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:bz2") as tar:
        start = 0
        for m, n in enumerate(rows_per_member):
            payload = dumps_lines([crag_row(start + k, "v5", pages=3) for k in range(n)])
            start += n
            name = f"crag_task_3_dev_v4/crag_task_3_dev_v4_{m}.jsonl"
            if m % 2:
                payload, name = bz2.compress(payload), name + ".bz2"
            info = tarfile.TarInfo(name)
            info.size = len(payload)
            tar.addfile(info, io.BytesIO(payload))
        readme = b"not data"
        info = tarfile.TarInfo("crag_task_3_dev_v4/README.txt")
        info.size = len(readme)
        tar.addfile(info, io.BytesIO(readme))
    blob = buf.getvalue()
    cut = [len(blob) * k // parts for k in range(parts + 1)]
    paths = []
    for k in range(parts):
        p = tmp / f"crag_task_3_dev_v4.tar.bz2.part{k + 1}"
        p.write_bytes(blob[cut[k] : cut[k + 1]])
        paths.append(p)
    return paths
