"""The per-question labels of a scored folder, as a gate needs them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import orjson

from ragmeter.errors import ConfigError, DataError

__all__ = ["LABEL_VALUES", "ScoredRun", "read_scored_run"]

LABEL_VALUES: dict[str, dict[str, float]] = {
    "score": {"correct": 1.0, "missing": 0.0, "incorrect": -1.0},
    "accuracy": {"correct": 1.0, "missing": 0.0, "incorrect": 0.0},
    "hallucination": {"correct": 0.0, "missing": 0.0, "incorrect": 1.0},
    "missing": {"correct": 0.0, "missing": 1.0, "incorrect": 0.0},
}
"""Each metric as the mean of a per-question value; unscored questions have none."""


@dataclass(frozen=True)
class ScoredRun:
    """A folder's name and its scored questions' labels, by question id."""

    folder: Path
    name: str
    labels: dict[str, str]
    """Question id to label (correct, incorrect, missing); unscored questions are left out."""
    unscored: int

    def values(self, metric: str, ids: list[str] | None = None) -> npt.NDArray[np.float64]:
        """The per-question values of ``metric`` (for ``ids``, in that order, or all)."""
        table = LABEL_VALUES[metric]
        keys = ids if ids is not None else list(self.labels)
        return np.array([table[self.labels[k]] for k in keys], dtype=np.float64)


def _name(folder: Path) -> str:
    header = folder / "header.json"
    if header.is_file():
        try:
            spec = orjson.loads(header.read_bytes()).get("spec", {})
            if isinstance(spec, dict) and spec.get("name"):
                return str(spec["name"])
        except (orjson.JSONDecodeError, AttributeError):
            pass
    return folder.resolve().name


def read_scored_run(folder: str | Path) -> ScoredRun:
    """Read ``samples.jsonl`` of a CRAG run or score folder; bad lines name file and line."""
    path = Path(folder)
    results = path / "results.json"
    samples = path / "samples.jsonl"
    if not path.is_dir() or not results.is_file() or not samples.is_file():
        raise ConfigError(
            f"{path} is not a scored run folder (needs results.json and samples.jsonl)"
        )
    try:
        head = orjson.loads(results.read_bytes())
    except orjson.JSONDecodeError as exc:
        raise DataError(f"not JSON: {exc}", path=results) from None
    if not isinstance(head, dict) or "hallucination" not in head:
        raise ConfigError(f"{path}: a gate checks CRAG results (score, hallucination...)")
    labels: dict[str, str] = {}
    unscored = 0
    data = samples.read_bytes()
    lines = data.split(b"\n")
    for line_no, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            row = orjson.loads(raw)
        except orjson.JSONDecodeError:
            if line_no == len(lines):  # a torn last line of a killed run, as the engine reads it
                break
            raise DataError("not JSON", path=samples, line=line_no) from None
        if not isinstance(row, dict) or not isinstance(row.get("id"), str):
            raise DataError("a sample needs a string 'id'", path=samples, line=line_no)
        label = row.get("label")
        if label == "unscored":
            unscored += 1
            continue
        if label not in LABEL_VALUES["score"]:
            raise DataError(f"unknown label {label!r}", path=samples, line=line_no)
        if row["id"] in labels:
            raise DataError(f"duplicate id '{row['id']}'", path=samples, line=line_no)
        labels[row["id"]] = label
    return ScoredRun(path, _name(path), labels, unscored)
