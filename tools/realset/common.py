"""Paths and small readers shared by the scripts that grow the real-answer set."""

from __future__ import annotations

import bz2
import json
import os
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
DATASET = REPO / "src/ragmeter/scoring/meta/data/crag_real_answers.jsonl"
BATCHES = Path(__file__).resolve().parent / "batches"
MIRROR = Path(os.environ.get("RAGMETER_DATA_MIRROR", REPO.parent / "shared/data"))
QUESTIONS = MIRROR / "crag/crag_questions_v3_validation.jsonl"
SAMPLE_WITH_PAGES = MIRROR / "crag/crag_sample_10_with_pages.jsonl.bz2"
TOKENIZER = MIRROR / "crag/tokenizer/tokenizer.json"


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every JSON object of a JSON-lines file, blank lines skipped."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    """Write rows as JSON lines (UTF-8, one object per line)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def questions_by_id() -> dict[str, dict[str, Any]]:
    """The CRAG v3 validation questions (and the sample with pages) keyed by interaction id."""
    rows = {row["interaction_id"]: row for row in read_jsonl(QUESTIONS)}
    with bz2.open(SAMPLE_WITH_PAGES, "rt", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            row.pop("search_results", None)
            rows.setdefault(row["interaction_id"], row)
    return rows
