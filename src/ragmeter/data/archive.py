"""Read archives shipped in parts (``x.tar.bz2.part1`` … ``partN``) without joining them.

CRAG task 3 comes as four parts of one ``tar.bz2`` (about 7.7 GB). `MultiPartFile`
chains the parts into one readable stream and `iter_tar_members` feeds it to
`tarfile` in stream mode (``r|*``), so nothing is written to disk and memory
holds one member's current chunk.
"""

from __future__ import annotations

import io
import re
import tarfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from ragmeter.errors import DataError

_PART = re.compile(r"^(?P<stem>.+)\.part(?P<n>\d+)$")


class MultiPartFile(io.RawIOBase):
    """A read-only stream over several files, as if they were one file joined in order."""

    def __init__(self, paths: Sequence[str | Path]) -> None:
        super().__init__()
        if not paths:
            raise DataError("no archive parts given")
        self.paths = [Path(p) for p in paths]
        for p in self.paths:
            if not p.is_file():
                raise DataError("archive part not found", path=p)
        self._index = 0
        self._current: io.BufferedReader | None = self._open(0)

    def _open(self, index: int) -> io.BufferedReader | None:
        # Parts are opened one at a time and closed at their end, hence no `with`.
        if index >= len(self.paths):
            return None
        return open(self.paths[index], "rb")

    def readable(self) -> bool:
        """Always True: this stream is read-only."""
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        """Fill ``buffer`` from the current part, moving to the next part at its end."""
        while self._current is not None:
            n = self._current.readinto(buffer)
            if n:
                return n
            self._current.close()
            self._index += 1
            self._current = self._open(self._index)
        return 0

    def close(self) -> None:
        """Close the part being read."""
        if self._current is not None:
            self._current.close()
            self._current = None
        super().close()

    @property
    def part(self) -> Path:
        """The part being read (for error messages)."""
        return self.paths[min(self._index, len(self.paths) - 1)]


def find_parts(path: str | Path) -> list[Path]:
    """All parts of a split file, in numeric order, given any one part or the unsplit name.

    ``x.tar.bz2.part2`` or ``x.tar.bz2`` (when only parts exist) both give
    ``[x.tar.bz2.part1, …]``; a plain file gives ``[path]``. Numbering may start at 0 or 1
    but must have no gaps.
    """
    p = Path(path)
    m = _PART.match(p.name)
    stem = m.group("stem") if m else p.name
    if m is None and p.exists():
        return [p]
    parts: list[tuple[int, Path]] = []
    for candidate in p.parent.glob(f"{glob_escape(stem)}.part*"):
        cm = _PART.match(candidate.name)
        if cm and cm.group("stem") == stem:
            parts.append((int(cm.group("n")), candidate))
    if not parts:
        raise DataError("file not found (and no .partN files beside it)", path=p)
    parts.sort()
    numbers = [n for n, _ in parts]
    expected = list(range(numbers[0], numbers[0] + len(numbers)))
    if numbers != expected or numbers[0] not in (0, 1):
        missing = sorted(
            set(range(numbers[0] if numbers[0] in (0, 1) else 1, numbers[-1] + 1)) - set(numbers)
        )
        raise DataError(f"archive parts are not complete: missing part(s) {missing}", path=p)
    return [q for _, q in parts]


def glob_escape(text: str) -> str:
    """Escape glob metacharacters in a file name."""
    return re.sub(r"([*?\[\]])", r"[\1]", text)


def open_parts(path: str | Path) -> io.BufferedReader:
    """A buffered stream over all parts of ``path`` (or over ``path`` itself)."""
    return io.BufferedReader(MultiPartFile(find_parts(path)), buffer_size=1 << 20)


def iter_tar_members(
    path: str | Path, suffixes: tuple[str, ...] = (".jsonl", ".jsonl.bz2", ".jsonl.gz", ".json")
) -> Iterator[tuple[str, IO[bytes]]]:
    """Yield ``(member_name, stream)`` for each regular member ending in ``suffixes``.

    The archive is read in one pass (stream mode), so each stream is valid only
    until the next member is requested. Compression is detected from the data.
    """
    raw = open_parts(path)
    try:
        with tarfile.open(fileobj=raw, mode="r|*") as tar:
            for member in tar:
                if not member.isfile() or not member.name.endswith(suffixes):
                    continue
                stream = tar.extractfile(member)
                if stream is None:
                    continue
                yield member.name, stream
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise DataError(f"cannot read the archive: {exc}", path=path) from None
    finally:
        raw.close()
