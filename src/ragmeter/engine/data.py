"""The questions of a run: find the data file, read it, select, fingerprint.

Selection streams the file: ``--sample N`` first reads only the ids (one pass,
page HTML dropped), draws N positions with a seeded generator, then streams
those questions in file order. The same spec always selects the same questions,
which is what makes ``--resume`` and the Ray executor agree with a local run.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator
from pathlib import Path

from ragmeter.config import DataSpec, RunSpec
from ragmeter.data.fetch import default_dest, fetch, find_in_mirrors, load_catalog, mirror_dirs
from ragmeter.data.formats import read_questions
from ragmeter.engine.journal import DataFingerprint, RunRecord, read_journal
from ragmeter.errors import ConfigError
from ragmeter.registry import Registry
from ragmeter.types import Question

Reader = Callable[[Path, bool], Iterator[Question]]
"""A reader: ``(path, with_html) -> questions``."""

READERS: Registry[Reader] = Registry("readers")
"""Data formats a run spec can name in ``data.format`` (``auto`` detects the format)."""


def _reader(fmt: str | None) -> Reader:
    def read(path: Path, with_html: bool) -> Iterator[Question]:
        return read_questions(path, fmt, with_html=with_html)

    return read


for _fmt in ("crag", "crag_task3", "alce", "qa_feedback", "questions"):
    READERS.register(_fmt, _reader(_fmt))
READERS.register("auto", _reader(None))

CATALOG_PREFIX = "catalog:"


def find_catalog_file(name: str) -> Path | None:
    """The first file of catalog data set ``name`` when a mirror or an earlier fetch has it."""
    entry = load_catalog().get(name)
    if entry is None:
        fetch(name)  # raises the unknown-name error with close names
        return None
    first = entry.files[0]
    found = find_in_mirrors(first)
    if found is None:
        local = default_dest() / first.filename
        found = local if local.is_file() else None
    return found


def resolve_data_path(path: str, base: Path | None = None, download: bool = True) -> Path | None:
    """The data file of a spec.

    ``catalog:NAME`` is a data set of the catalog (`ragmeter data list`), found in the data
    mirror or downloaded (None without ``download`` when it is not here yet); anything else
    is a path, taken as given, beside the spec file, or inside a data mirror folder.
    """
    if path.startswith(CATALOG_PREFIX):
        name = path[len(CATALOG_PREFIX) :]
        found = find_catalog_file(name)
        if found is not None or not download:
            return found
        return Path(fetch(name)[0].path)
    p = Path(path).expanduser()
    candidates = [p]
    if base is not None and not p.is_absolute():
        candidates.append(base / p)
    if not p.is_absolute():
        candidates.extend(d / p for d in mirror_dirs())
    for c in candidates:
        if c.is_file():
            return c
    looked = ", ".join(str(c) for c in candidates)
    raise ConfigError(
        f"data file '{path}' not found (looked in: {looked}); set RAGMETER_DATA_MIRROR to the "
        "folder that holds it, or name a catalog data set (data.path: catalog:NAME)"
    )


def file_sha256(path: Path) -> str:
    """sha256 of a file, read in blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
    return h.hexdigest()


class Selection:
    """The questions a data spec selects, streamed, with their fingerprint.

    One pass without HTML collects the ids (all a sample draw and the fingerprint
    need); iterating streams the selected questions in a second pass.
    """

    def __init__(self, spec: DataSpec, path: Path, with_html: bool):
        self.spec = spec
        self.path = path
        self.with_html = with_html
        self.reader = READERS.get(spec.format)
        ids = [q.id for q in self.reader(path, False)]
        positions: list[int] = list(range(len(ids)))
        if spec.sample is not None and spec.sample < len(ids):
            positions = sorted(random.Random(spec.seed).sample(range(len(ids)), spec.sample))
        chosen = list(positions)[: spec.limit] if spec.limit is not None else list(positions)
        self._positions = set(chosen)
        self._last = chosen[-1] if chosen else -1
        self.ids = [ids[p] for p in chosen]

    def __len__(self) -> int:
        return len(self.ids)

    def __iter__(self) -> Iterator[tuple[int, Question]]:
        """``(index, question)`` in file order; ``index`` counts selected questions."""
        index = 0
        for pos, q in enumerate(self.reader(self.path, self.with_html)):
            if pos > self._last:
                return
            if pos in self._positions:
                yield index, q
                index += 1

    def fingerprint(self) -> DataFingerprint:
        """The data file's hash and the hash of the selected ids."""
        ids = hashlib.sha256()
        for qid in self.ids:
            ids.update(qid.encode() + b"\n")
        return DataFingerprint(
            format=self.spec.format,
            path=str(self.path),
            bytes=self.path.stat().st_size,
            sha256=file_sha256(self.path),
            selected=len(self.ids),
            selection_sha256=ids.hexdigest(),
            limit=self.spec.limit,
            sample=self.spec.sample,
            seed=self.spec.seed,
        )


def finished_run_inputs(
    folder: Path, spec: RunSpec, with_html: bool
) -> tuple[list[RunRecord], Selection]:
    """A finished run's records and its questions, read again to score or diagnose them."""
    records = read_journal(folder)
    if not records:
        raise ConfigError(f"{folder}: the journal holds no records")
    path = resolve_data_path(spec.data.path, download=False)
    if path is None:
        raise ConfigError(f"{folder}: the run's data ({spec.data.path}) is not here")
    return records, Selection(spec.data, path, with_html=with_html)
