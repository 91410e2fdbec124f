"""The questions of a run: find the data file, read it, select, fingerprint.

Selection streams the file: ``--sample N`` first reads only the ids (one pass,
page HTML dropped), draws N positions with a seeded generator, then streams
those questions in file order. The same spec always selects the same questions,
which is what makes ``--resume`` and the Ray executor agree with a local run.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable, Iterator
from pathlib import Path

from ragmeter.config import DataSpec
from ragmeter.data.crag import read_crag
from ragmeter.engine.journal import DataFingerprint
from ragmeter.errors import ConfigError
from ragmeter.registry import Registry
from ragmeter.types import Question

Reader = Callable[[Path, bool], Iterator[Question]]
"""A reader: ``(path, with_html) -> questions``."""

READERS: Registry[Reader] = Registry("readers")
"""Data formats a run spec can name in ``data.format``."""


def _crag(path: Path, with_html: bool) -> Iterator[Question]:
    return read_crag(path, with_html=with_html)


READERS.register("crag", _crag)


def mirror_dirs() -> list[Path]:
    """Folders of the data mirror (``RAGMETER_DATA_MIRROR``, separated by the path separator)."""
    env = os.environ.get("RAGMETER_DATA_MIRROR", "")
    return [Path(p) for p in env.split(os.pathsep) if p]


def resolve_data_path(path: str, base: Path | None = None) -> Path:
    """The data file of a spec: as given, beside the spec file, or in the data mirror."""
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
        "folder that holds it, or fetch it with `ragmeter data fetch`"
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
