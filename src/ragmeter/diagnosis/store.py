"""Per-question diagnoses on disk (``diagnosis.jsonl`` in a run folder) and their summary."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import orjson

from ragmeter.diagnosis.categories import CATEGORIES, SCORE_OF_LABEL
from ragmeter.diagnosis.records import (
    CategoryCount,
    CategoryTable,
    DiagnosisSummary,
    SampleDiagnosis,
)
from ragmeter.errors import DataError

DIAGNOSIS_FILE = "diagnosis.jsonl"
_NLI_KEY = "nli"


def write_diagnoses(folder: Path, diagnoses: Iterable[SampleDiagnosis], nli: str) -> Path:
    """Write ``diagnosis.jsonl`` (a first line names the NLI model), replacing it atomically."""
    path = folder / DIAGNOSIS_FILE
    tmp = path.with_suffix(".jsonl.tmp")
    with tmp.open("wb") as f:
        f.write(orjson.dumps({_NLI_KEY: nli}) + b"\n")
        for d in diagnoses:
            f.write(d.model_dump_json().encode() + b"\n")
    tmp.replace(path)
    return path


def read_diagnoses(folder: Path) -> tuple[str, list[SampleDiagnosis]] | None:
    """The NLI model and the diagnoses of a run folder; None when it has none."""
    path = folder / DIAGNOSIS_FILE
    if not path.exists():
        return None
    nli = ""
    out = []
    with path.open("rb") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                data = orjson.loads(line)
                if number == 1 and isinstance(data, dict) and set(data) == {_NLI_KEY}:
                    nli = str(data[_NLI_KEY])
                    continue
                out.append(SampleDiagnosis.model_validate(data))
            except (orjson.JSONDecodeError, ValueError) as exc:
                raise DataError(f"{path}:{number}: not a diagnosis record: {exc}") from None
    return nli, out


def _table(diagnoses: Sequence[SampleDiagnosis]) -> CategoryTable:
    n = len(diagnoses)
    table = CategoryTable(n=n, categories={c: CategoryCount() for c in CATEGORIES})
    for d in diagnoses:
        entry = table.categories[d.category]
        entry.count += 1
        entry.score_points += SCORE_OF_LABEL[d.label]
        entry.points_short += 1 - SCORE_OF_LABEL[d.label]
    for entry in table.categories.values():
        entry.share = entry.count / n if n else 0.0
        entry.score_points = entry.score_points / n if n else 0.0
        entry.points_short = entry.points_short / n if n else 0.0
    return table


def _share(values: Iterable[bool | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def summarize_diagnoses(
    stored: tuple[str, list[SampleDiagnosis]], records: Sequence[Any]
) -> DiagnosisSummary:
    """Overall and per-slice category tables of the diagnosed questions.

    ``records`` (the run's scored records) give each question's slices; the
    diagnosis of a question whose record is gone or unscored is left out.
    """
    nli, diagnoses = stored
    slices_of = {r.id: r.labels.as_slices() for r in records if r.label != "unscored"}
    kept = [d for d in diagnoses if d.id in slices_of]
    groups: dict[str, dict[str, list[SampleDiagnosis]]] = {}
    for d in kept:
        for name, value in slices_of[d.id].items():
            if name in ("split", "answer_type"):
                continue
            groups.setdefault(name, {}).setdefault(value, []).append(d)
    return DiagnosisSummary(
        n=len(kept),
        overall=_table(kept),
        slices={
            name: {value: _table(ds) for value, ds in sorted(values.items())}
            for name, values in sorted(groups.items())
        },
        answer_in_pages=_share(d.answer_in_pages for d in kept),
        answer_in_evidence=_share(d.answer_in_evidence for d in kept),
        supported=_share(d.supported for d in kept),
        nli=nli,
        descriptions=dict(CATEGORIES),
    )
