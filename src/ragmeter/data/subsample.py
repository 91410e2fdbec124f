"""Stratified split of a data set into K parts, as the CRAG subsample card describes.

Strata are the combinations of ``answer_type``, ``domain``, ``question_type`` and
``static_or_dynamic``. Within each stratum the rows are shuffled with the seed and
dealt to the parts in turn; the dealing starts where the previous stratum
stopped, so part sizes differ by at most one and every part keeps the whole
set's proportions. Every row lands in exactly one part. Rows are copied byte for
byte (two passes over the input, constant memory apart from one index per row),
so each part is in the input's own format and compression.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter, defaultdict
from pathlib import Path

from ragmeter.data.formats import detect_format, row_converter
from ragmeter.data.jsonl import (
    SkipLog,
    _parse,
    handle_bad_row,
    iter_raw_records,
    sniff_layout,
)
from ragmeter.data.writers import atomic_binary
from ragmeter.errors import DataError
from ragmeter.types import Question, Record

STRATA = ("answer_type", "domain", "question_type", "static_or_dynamic")
_DATA_SUFFIXES = (".jsonl", ".json", ".bz2", ".gz", ".xz")


class SubsamplePart(Record):
    """One written part: where, how many rows, and its counts per stratum label."""

    path: str
    rows: int
    by: dict[str, dict[str, int]]


class SubsampleResult(Record):
    """What ``ragmeter data subsample`` wrote."""

    source: str
    seed: int
    parts: list[SubsamplePart]
    strata: int


def stratum_of(q: Question) -> tuple[str, ...]:
    """The stratum key of a question (missing labels count as their own value)."""
    labels = q.labels.model_dump()
    return tuple(str(labels.get(k)) for k in STRATA)


def assign_parts(strata: list[tuple[str, ...]], parts: int, seed: int) -> list[int]:
    """The part (0-based) of each row, given each row's stratum; deterministic for a seed."""
    if parts < 1:
        raise DataError(f"--parts must be at least 1, got {parts}")
    members: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i, s in enumerate(strata):
        members[s].append(i)
    rng = random.Random(seed)
    assignment = [0] * len(strata)
    offset = 0
    for key in sorted(members):
        rows = members[key]
        rng.shuffle(rows)
        for j, i in enumerate(rows):
            assignment[i] = (offset + j) % parts
        offset = (offset + len(rows)) % parts
    return assignment


def part_names(path: str | Path, parts: int) -> list[str]:
    """Output names ``<stem>_subsample_<i><suffixes>`` for i = 1..parts."""
    name = Path(path).name
    stem, suffixes = name, ""
    while Path(stem).suffix in _DATA_SUFFIXES:
        suffixes = Path(stem).suffix + suffixes
        stem = stem[: -len(Path(stem).suffix)]
    return [f"{stem}_subsample_{i}{suffixes}" for i in range(1, parts + 1)]


def subsample(
    path: str | Path,
    parts: int,
    seed: int,
    out_dir: str | Path,
    fmt: str | None = None,
    skips: SkipLog | None = None,
) -> SubsampleResult:
    """Split ``path`` into ``parts`` stratified files in ``out_dir``; bad rows raise or skip."""
    fmt = fmt or detect_format(path)
    convert = row_converter(path, fmt)
    layout = sniff_layout(path)
    if layout == "object":
        raise DataError("subsample needs JSON Lines or a JSON array, not a single object", path)
    # Pass 1: each good record's stratum, by its position among raw records.
    keep: dict[int, int] = {}  # raw record ordinal -> position among kept rows
    strata: list[tuple[str, ...]] = []
    for ordinal, (line_no, raw) in enumerate(iter_raw_records(path, skips, layout)):
        try:
            q = convert(_parse(raw, path, line_no), ordinal)
        except DataError as exc:
            handle_bad_row(exc, skips)
            continue
        except (ValueError, TypeError) as exc:
            handle_bad_row(DataError(str(exc), path=path, line=line_no), skips)
            continue
        keep[ordinal] = len(strata)
        strata.append(stratum_of(q))
    if not strata:
        raise DataError("no rows to split", path=path)
    assignment = assign_parts(strata, parts, seed)
    # Pass 2: copy each kept record, byte for byte, into its part.
    out = Path(out_dir)
    names = [out / n for n in part_names(path, parts)]
    if Path(path).resolve() in {n.resolve() for n in names}:
        raise DataError("an output part would overwrite the input", path=path)
    counts = [0] * parts
    by: list[dict[str, Counter[str]]] = [{k: Counter() for k in STRATA} for _ in range(parts)]
    with contextlib.ExitStack() as stack:
        streams = [stack.enter_context(atomic_binary(n)) for n in names]
        if layout == "array":
            for s in streams:
                s.write(b"[")
        for ordinal, (_line, raw) in enumerate(iter_raw_records(path, SkipLog(), layout)):
            pos = keep.get(ordinal)
            if pos is None:
                continue
            k = assignment[pos]
            body = raw.strip()
            if layout == "array":
                streams[k].write(b"\n" if counts[k] == 0 else b",\n")
                streams[k].write(body)
            else:
                streams[k].write(body + b"\n")
            counts[k] += 1
            for label, value in zip(STRATA, strata[pos], strict=True):
                by[k][label][value] += 1
        if layout == "array":
            for s in streams:
                s.write(b"\n]\n")
    if sum(counts) != len(strata):
        raise DataError(
            f"the file changed while it was split ({sum(counts)} of {len(strata)} rows written)",
            path=path,
        )
    return SubsampleResult(
        source=str(path),
        seed=seed,
        strata=len(set(strata)),
        parts=[
            SubsamplePart(
                path=str(n),
                rows=c,
                by={label: dict(sorted(cnt.items())) for label, cnt in b.items()},
            )
            for n, c, b in zip(names, counts, by, strict=True)
        ],
    )
