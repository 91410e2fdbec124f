"""The catalog of known benchmark files, and fetching them: mirrors first, then download.

``catalog.json`` (beside this module) lists each entry's files with upstream
URL, size and sha256 where known (CRAG's sizes and checksums are those of its
Git LFS objects). ``RAGMETER_CATALOG`` may name an extra catalog file in the
same shape, whose entries add to or replace the built-in ones.

Fetching a file looks in the mirror folders first (``RAGMETER_DATA_MIRROR``,
colon-separated); only then does it download, resuming a partial download with
an HTTP Range request and checking size and sha256 before the file takes its
final name.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from importlib import resources
from pathlib import Path

import httpx
from pydantic import Field, ValidationError

from ragmeter.errors import ConfigError, DataError, UserError
from ragmeter.types import Record

CHUNK = 1 << 20


class CatalogFile(Record):
    """One file of a catalog entry."""

    filename: str
    """Relative path under the destination folder (may hold a sub-folder)."""
    url: str | None = None
    size: int | None = None
    sha256: str | None = None
    mirror_paths: list[str] = Field(default_factory=list)
    """Where the file sits inside a mirror folder, besides ``filename`` itself."""


class CatalogEntry(Record):
    """A named data set: one or more files."""

    name: str
    description: str
    licence: str = ""
    files: list[CatalogFile]

    @property
    def total_size(self) -> int | None:
        """The sum of the file sizes, or None when any size is unknown."""
        sizes = [f.size for f in self.files]
        return None if any(s is None for s in sizes) else sum(s or 0 for s in sizes)


class Catalog(Record):
    """The on-disk shape of a catalog file."""

    entries: list[CatalogEntry]


class FetchedFile(Record):
    """Where one file of an entry ended up, and how it got there."""

    path: str
    source: str
    """``mirror``, ``download`` or ``present`` (already at the destination)."""


def _parse_catalog(text: str, origin: str) -> list[CatalogEntry]:
    try:
        return Catalog.model_validate_json(text).entries
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise ConfigError(f"{origin}: invalid catalog at {where}: {first['msg']}") from None


def load_catalog() -> dict[str, CatalogEntry]:
    """The built-in catalog plus the entries of ``RAGMETER_CATALOG`` when set."""
    text = resources.files("ragmeter.data").joinpath("catalog.json").read_text("utf-8")
    entries = {e.name: e for e in _parse_catalog(text, "built-in catalog")}
    extra = os.environ.get("RAGMETER_CATALOG")
    if extra:
        p = Path(extra)
        if not p.is_file():
            raise ConfigError(f"RAGMETER_CATALOG names a missing file: {p}")
        entries.update({e.name: e for e in _parse_catalog(p.read_text("utf-8"), str(p))})
    return entries


def mirror_dirs() -> list[Path]:
    """The mirror folders named by ``RAGMETER_DATA_MIRROR`` (colon-separated), in order."""
    value = os.environ.get("RAGMETER_DATA_MIRROR", "")
    return [Path(p) for p in value.split(os.pathsep) if p]


def default_dest() -> Path:
    """Where downloads go without ``--dest``: ``RAGMETER_DATA_DIR`` or the user cache."""
    env = os.environ.get("RAGMETER_DATA_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ragmeter" / "data"


def find_in_mirrors(file: CatalogFile, mirrors: list[Path] | None = None) -> Path | None:
    """The first mirror copy of ``file`` whose size matches (when the size is known)."""
    for d in mirror_dirs() if mirrors is None else mirrors:
        for rel in [*file.mirror_paths, file.filename, Path(file.filename).name]:
            p = d / rel
            if p.is_file() and (file.size is None or p.stat().st_size == file.size):
                return p
    return None


def sha256_of(path: Path) -> str:
    """The hex sha256 of a file, read in chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(CHUNK):
            h.update(chunk)
    return h.hexdigest()


def _check(path: Path, file: CatalogFile) -> None:
    if file.size is not None and path.stat().st_size != file.size:
        raise DataError(f"size is {path.stat().st_size:,} bytes, expected {file.size:,}", path)
    if file.sha256 is not None:
        got = sha256_of(path)
        if got != file.sha256.lower():
            raise DataError(f"sha256 mismatch: expected {file.sha256}, got {got}", path)


def download(
    file: CatalogFile,
    target: Path,
    client: httpx.Client | None = None,
    retries: int = 5,
    backoff: float = 0.5,
) -> Path:
    """Download ``file.url`` to ``target``, resuming ``target.part`` with HTTP Range requests.

    A broken connection is retried (``retries`` times) from where it stopped. The
    file takes its final name only after its size and sha256 match; on a mismatch
    the partial file is removed and `DataError` is raised.
    """
    if not file.url:
        raise DataError("not in any mirror, and no public download URL is known", target)
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    own = client is None
    http = client or httpx.Client(follow_redirects=True, timeout=httpx.Timeout(60.0))
    last_error: Exception | None = None
    try:
        for attempt in range(retries + 1):
            if attempt:
                time.sleep(backoff * attempt)
            offset = part.stat().st_size if part.exists() else 0
            if file.size is not None and offset > file.size:
                part.unlink()
                offset = 0
            if file.size is not None and offset == file.size:
                break
            headers = {"Range": f"bytes={offset}-"} if offset else {}
            try:
                with http.stream("GET", file.url, headers=headers) as r:
                    if r.status_code == 416 and offset:
                        # Nothing left to send: the part may already be whole.
                        total = r.headers.get("content-range", "").rpartition("/")[2]
                        if total.isdigit() and int(total) == offset:
                            break
                        part.unlink()
                        continue
                    if r.status_code >= 400:
                        raise DataError(f"download failed: HTTP {r.status_code} from {file.url}")
                    mode = "ab"
                    if offset and r.status_code != 206:
                        mode = "wb"  # the server ignored the Range header: start over
                    with open(part, mode) as out:
                        # Network-sized pieces: what arrived is on disk if the link drops.
                        for chunk in r.iter_bytes():
                            out.write(chunk)
                if file.size is None or part.stat().st_size == file.size:
                    break
            except httpx.TransportError as exc:
                last_error = exc
                continue
        else:
            have = part.stat().st_size if part.exists() else 0
            raise DataError(
                f"download failed after {retries + 1} attempts: {last_error}; "
                f"run the command again to resume from {have:,} bytes",
                target,
            )
    finally:
        if own:
            http.close()
    try:
        _check(part, file)
    except DataError as exc:
        part.unlink(missing_ok=True)
        raise DataError(f"{exc.reason}; the download was removed", target) from None
    os.replace(part, target)
    return target


def fetch_file(
    file: CatalogFile,
    dest: Path | None = None,
    copy: bool = False,
    verify: bool = False,
    client: httpx.Client | None = None,
) -> FetchedFile:
    """Make one file available: from a mirror (linked or copied into ``dest``) or downloaded.

    Without ``dest`` a mirror copy is used where it is; downloads go to `default_dest`.
    ``verify`` also checks the sha256 of a mirror copy (sizes are always checked).
    """
    mirror = find_in_mirrors(file)
    if mirror is not None:
        if verify:
            _check(mirror, file)
        if dest is None:
            return FetchedFile(path=str(mirror), source="mirror")
        target = dest / file.filename
        if target.exists() or target.is_symlink():
            if target.resolve() == mirror.resolve():
                return FetchedFile(path=str(target), source="present")
            target.unlink()
        target.parent.mkdir(parents=True, exist_ok=True)
        if copy:
            tmp = target.with_name(f".{target.name}.tmp")
            shutil.copyfile(mirror, tmp)
            os.replace(tmp, target)
        else:
            target.symlink_to(mirror.resolve())
        return FetchedFile(path=str(target), source="mirror")
    target = (dest or default_dest()) / file.filename
    if target.is_file():
        try:
            if file.size is not None and target.stat().st_size != file.size:
                raise DataError("size differs from the catalog", target)
            if verify:
                _check(target, file)
            return FetchedFile(path=str(target), source="present")
        except DataError:
            target.unlink()
    download(file, target, client=client)
    return FetchedFile(path=str(target), source="download")


def fetch(
    name: str,
    dest: Path | None = None,
    copy: bool = False,
    verify: bool = False,
    client: httpx.Client | None = None,
) -> list[FetchedFile]:
    """Fetch every file of catalog entry ``name``; unknown names suggest close ones."""
    catalog = load_catalog()
    entry = catalog.get(name)
    if entry is None:
        import difflib

        close = difflib.get_close_matches(name, list(catalog), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else "; see `ragmeter data list`"
        raise UserError(f"unknown data set {name!r}{hint}")
    return [fetch_file(f, dest, copy=copy, verify=verify, client=client) for f in entry.files]
