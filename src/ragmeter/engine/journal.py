"""The run folder: ``header.json`` and the ``samples.jsonl`` journal.

Each line of the journal is a `RunRecord`: the scoring layer's `ScoredSample`
(label, rule, judge votes and rationales) plus what the run adds (the full
`Answer` with retrieved chunks and citations, per-stage latency and tokens,
and an error or a missing reason). A record is appended and flushed as soon as
its question is finished, so a killed run loses only questions in flight. On
reading, a torn last line (the process died mid-write) is dropped and, when
resuming, cut from the file; a broken line anywhere else is a data error.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import orjson
from pydantic import Field, ValidationError

from ragmeter.config import RunSpec
from ragmeter.errors import ConfigError, DataError
from ragmeter.scoring.crag.records import ScoredSample
from ragmeter.types import Answer, Label, Record, StageTiming

HEADER = "header.json"
JOURNAL = "samples.jsonl"
RESULTS = "results.json"


class RunRecord(ScoredSample):
    """One finished question of a run (a line of ``samples.jsonl``)."""

    index: int
    """Position of the question in the run's selection (records are appended as they finish)."""
    query_time: str | None = None
    """When the question was asked (CRAG questions are time-sensitive)."""
    answer: Answer | None = None
    """The pipeline's full answer; None when it failed or ran over its time budget."""
    raw_label: Label | None = None
    """When the pipeline abstained below its confidence threshold: the label its raw answer
    (``answer.extras["raw_answer"]``) would have got."""
    error: str | None = None
    """Why the pipeline failed on this question (the question then counts as missing)."""
    missing_reason: str | None = None
    """Why there is no prediction: ``time budget ...`` or ``error: ...``."""
    seconds: float = 0.0
    """Wall-clock seconds from the start of the question to its scored record."""
    active_seconds: float = 0.0
    """Seconds counted against the time budget (queueing for a busy backend excluded)."""
    stages: dict[str, StageTiming] = Field(default_factory=dict)
    """Per stage (extraction, retrieval, generation, judging...) seconds and tokens."""
    worker: str | None = None
    """Which executor worker produced the record."""
    trust: dict[str, Any] | None = None
    """Trust-Score ingredients (``ragmeter.scoring.attribution.trust.TrustItem``), for runs
    of the ``trust`` scorer."""

    def comparable(self) -> dict[str, Any]:
        """The record without what varies between identical runs (timings, worker, cache hits)."""
        data = self.model_dump(mode="json", exclude={"seconds", "active_seconds", "worker"})
        data.pop("stages", None)
        if data.get("answer"):
            data["answer"].pop("stages", None)
        for vote in data.get("votes", []):
            for check in vote.get("checks", []):
                check.pop("cached", None)
        return data


class DataFingerprint(Record):
    """Which questions a run used."""

    format: str
    path: str
    bytes: int
    sha256: str
    """sha256 of the data file."""
    selected: int
    """How many questions the selection holds."""
    selection_sha256: str
    """sha256 of the selected question ids, in order."""
    limit: int | None = None
    sample: int | None = None
    seed: int = 0


class RunHeader(Record):
    """``header.json``: everything needed to know what a run was."""

    ragmeter_version: str
    created: str
    spec: dict[str, Any]
    spec_hash: str
    spec_source: str
    versions: dict[str, str]
    data: DataFingerprint
    models: dict[str, str] = Field(default_factory=dict)
    """Role (``answer``, ``judge``...) to model identity (weights hash or server + model)."""
    executor: str = "local"


def write_json_atomic(path: Path, data: bytes) -> None:
    """Write a file through a temporary name so readers never see half of it."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(path)


def write_header(folder: Path, header: RunHeader) -> None:
    """Write ``header.json``."""
    write_json_atomic(
        folder / HEADER, orjson.dumps(header.model_dump(mode="json"), option=orjson.OPT_INDENT_2)
    )


def read_spec(folder: Path) -> RunSpec:
    """The run spec a run folder was made with (from its ``header.json``)."""
    return RunSpec.model_validate(read_header(folder).spec)


def read_header(folder: Path) -> RunHeader:
    """Read ``header.json`` of a run folder."""
    path = folder / HEADER
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{folder} is not a run folder (no {HEADER})") from None
    try:
        return RunHeader.model_validate_json(raw)
    except ValidationError as exc:
        raise DataError(f"not a run header: {exc.errors()[0]['msg']}", path=path) from None


def _parse_lines(path: Path, tolerate_torn_tail: bool) -> tuple[list[RunRecord], int]:
    """Records of a journal and the byte length of its intact part.

    A last line that does not parse is torn (the process died while writing it): it is
    dropped when ``tolerate_torn_tail``. A last line that parses but lacks its newline is
    a complete record and is kept.
    """
    records: list[RunRecord] = []
    good_end = 0
    data = path.read_bytes()
    pos = 0
    line_no = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        end = len(data) if nl < 0 else nl + 1
        raw = data[pos:end]
        line_no += 1
        if raw.strip():
            try:
                records.append(RunRecord.model_validate_json(raw))
            except ValidationError as exc:
                if nl < 0 and tolerate_torn_tail:
                    return records, good_end
                raise DataError(
                    f"not a run record: {exc.errors()[0]['msg']}", path=path, line=line_no
                ) from None
        good_end = end
        pos = end
    return records, good_end


def read_journal(folder: Path, tolerate_torn_tail: bool = True) -> list[RunRecord]:
    """All finished records of a run folder, in journal order."""
    path = folder / JOURNAL
    if not path.exists():
        return []
    records, _ = _parse_lines(path, tolerate_torn_tail)
    return records


def iter_journal(folder: Path) -> Iterator[RunRecord]:
    """Stream the records of a run folder (a torn last line is skipped)."""
    yield from read_journal(folder)


class Journal:
    """The append-only ``samples.jsonl`` of a run being written."""

    def __init__(self, folder: Path):
        self.path = folder / JOURNAL
        self._file: IO[bytes] | None = None

    def recover(self) -> list[RunRecord]:
        """Read what a previous process wrote, cutting a torn last line from the file."""
        if not self.path.exists():
            return []
        records, good_end = _parse_lines(self.path, tolerate_torn_tail=True)
        with open(self.path, "r+b") as f:
            f.truncate(good_end)
            if good_end > 0:
                f.seek(good_end - 1)
                if f.read(1) != b"\n":
                    # A complete last record whose newline was never written.
                    f.write(b"\n")
        return records

    def rewrite(self, records: Iterable[RunRecord]) -> None:
        """Replace the journal with ``records`` (used to drop failed records before a retry)."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "wb") as f:
            for r in records:
                f.write(orjson.dumps(r.model_dump(mode="json")) + b"\n")
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(self.path)

    def open(self) -> None:
        """Open for appending."""
        self._file = open(self.path, "ab")  # noqa: SIM115 - held open for the whole run

    def append(self, record: RunRecord) -> None:
        """Append one record and flush it to the operating system."""
        if self._file is None:
            raise RuntimeError("journal is not open")
        self._file.write(orjson.dumps(record.model_dump(mode="json")) + b"\n")
        self._file.flush()

    def close(self) -> None:
        """Flush to disk and close."""
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None
