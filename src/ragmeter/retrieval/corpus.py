"""A persistent corpus index over every page of a data set (CRAG's "search all pages" option).

Layout of an index folder::

    manifest.json      builder, parameters, corpus hash, data fingerprint, library versions
    vectors.faiss      FAISS inner-product index of normalised chunk embeddings (cosine)
    bm25/              bm25s index of the same chunks
    chunks.jsonl       one chunk per line, in vector order; chunk_offsets.npy locates lines
    pages.jsonl        one indexed document per line (URL, name, last-modified, HTML hash)

The manifest is written last: a folder without one is an unfinished build.
Building streams the data set and checkpoints every ``checkpoint_pages`` new
documents into ``.build/`` (embedded shards plus a state file), so an
interrupted build resumes where its last checkpoint left off. Identical pages
(same HTML hash) and identical chunks (same text hash) are indexed once.

Opening an index checks the manifest and refuses a mismatch: another builder
or format, other parameters than the caller expects, another data file, or
library versions whose on-disk formats may differ.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, Literal

import numpy as np
import orjson
from numpy.typing import NDArray
from pydantic import Field, ValidationError

from ragmeter.errors import ConfigError, DataError, MissingExtraError
from ragmeter.retrieval.base import Hit
from ragmeter.retrieval.bm25 import BM25Params, bm25_index, bm25_tokenize
from ragmeter.retrieval.dense import Embedder
from ragmeter.retrieval.hybrid import RRF_K, rrf_fuse
from ragmeter.text.cache import TextCache
from ragmeter.text.chunk import Chunk, ChunkParams, chunk_text
from ragmeter.text.extract import EXTRACTOR_VERSION
from ragmeter.types import Question, Record

__all__ = [
    "BUILDER",
    "FORMAT_VERSION",
    "BuildProgress",
    "CorpusIndex",
    "DataFingerprint",
    "IndexParams",
    "Manifest",
    "build_corpus_index",
    "data_fingerprint",
]

BUILDER = "ragmeter.retrieval.corpus"
FORMAT_VERSION = 1
_VERSIONED = ("ragmeter", "faiss-cpu", "bm25s", "sentence-transformers", "resiliparse", "numpy")
# Libraries whose file formats the index depends on: a different major.minor refuses the load.
_FORMAT_LIBRARIES = ("faiss-cpu", "bm25s")


class IndexParams(Record):
    """Everything that changes what an index contains."""

    chunk: ChunkParams = Field(default_factory=ChunkParams)
    bm25: BM25Params = Field(default_factory=BM25Params)
    embedding_model: str = ""
    """Embedder identity (model + sequence length); filled from the embedder at build time."""
    vector_store: Literal["faiss-flat-ip"] = "faiss-flat-ip"
    extractor: str = EXTRACTOR_VERSION


class DataFingerprint(Record):
    """A cheap identity of a data file: name, size and the hash of its first MiB."""

    name: str
    size: int
    head_sha256: str


def data_fingerprint(path: str | Path) -> DataFingerprint:
    """Fingerprint ``path`` (a file; for a folder or split archive, its first file)."""
    p = Path(path)
    if not p.exists():
        raise DataError("file not found", path=p)
    with open(p, "rb") as f:
        head = f.read(1 << 20)
    return DataFingerprint(
        name=p.name, size=p.stat().st_size, head_sha256=hashlib.sha256(head).hexdigest()
    )


class Manifest(Record):
    """What an index folder holds and how it was made."""

    builder: str = BUILDER
    format_version: int = FORMAT_VERSION
    params: IndexParams
    data: DataFingerprint
    corpus_hash: str
    """SHA-256 over the HTML (or passage) hashes of the indexed documents, in index order."""
    rows: int
    documents: int
    empty_documents: int
    chunks: int
    versions: dict[str, str]
    created: str


class BuildProgress(Record):
    """Where a build is (reported after every data row)."""

    rows: int
    documents: int
    chunks: int
    shards: int
    resumed_from_row: int = 0
    seconds: float = 0.0
    finished: bool = False


class _State(Record):
    params: IndexParams
    data: DataFingerprint
    rows_done: int = 0
    shards: int = 0
    empty_documents: int = 0


def library_versions() -> dict[str, str]:
    """Installed versions of the libraries an index depends on."""
    out = {}
    for name in _VERSIONED:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "absent"
    return out


def _major_minor(v: str) -> str:
    return ".".join(v.split(".")[:2])


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _faiss() -> Any:
    try:
        import faiss
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise MissingExtraError("retrieval", "the corpus index") from exc
    return faiss


@dataclass
class _Doc:
    url: str
    name: str
    last_modified: str
    content_hash: str
    text: str


def _documents(question: Question, cache: TextCache) -> Iterator[_Doc]:
    if question.pages:
        for page in cache.extract_pages(question.pages):
            yield _Doc(page.url, page.name, page.last_modified, page.html_hash, page.text)
    for passage in question.passages:
        text = f"{passage.title}\n{passage.text}" if passage.title else passage.text
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        yield _Doc("", passage.title, "", digest, text)


class _Shards:
    """The ``.build`` folder: embedded shards of chunks and documents, plus the state file."""

    def __init__(self, folder: Path):
        self.folder = folder

    def state_path(self) -> Path:
        return self.folder / "state.json"

    def read_state(self) -> _State | None:
        p = self.state_path()
        if not p.exists():
            return None
        try:
            return _State.model_validate_json(p.read_bytes())
        except ValidationError:
            return None

    def write_state(self, state: _State) -> None:
        _atomic_write(self.state_path(), state.model_dump_json(indent=2).encode())

    def paths(self, i: int) -> tuple[Path, Path, Path]:
        stem = self.folder / f"shard-{i:05d}"
        return (
            stem.with_suffix(".npy"),
            stem.with_suffix(".chunks.jsonl"),
            stem.with_suffix(".docs.jsonl"),
        )

    def write(
        self, i: int, vectors: NDArray[np.float32], chunks: list[Chunk], docs: list[_Doc]
    ) -> None:
        vec_path, chunk_path, doc_path = self.paths(i)
        tmp = vec_path.with_name(vec_path.name + ".tmp")
        with open(tmp, "wb") as f:
            np.save(f, vectors)
        os.replace(tmp, vec_path)
        _atomic_write(chunk_path, b"".join(orjson.dumps(c.model_dump()) + b"\n" for c in chunks))
        _atomic_write(
            doc_path,
            b"".join(
                orjson.dumps(
                    {
                        "url": d.url,
                        "name": d.name,
                        "last_modified": d.last_modified,
                        "content_hash": d.content_hash,
                        "empty": not d.text,
                    }
                )
                + b"\n"
                for d in docs
            ),
        )

    def read_ids(self, n: int) -> tuple[set[str], set[str], int]:
        """Content hashes of documents and ids of chunks already in the first ``n`` shards."""
        doc_hashes: set[str] = set()
        chunk_ids: set[str] = set()
        n_docs = 0
        for i in range(n):
            _, chunk_path, doc_path = self.paths(i)
            for line in doc_path.read_bytes().splitlines():
                doc_hashes.add(orjson.loads(line)["content_hash"])
                n_docs += 1
            for line in chunk_path.read_bytes().splitlines():
                chunk_ids.add(orjson.loads(line)["chunk_id"])
        return doc_hashes, chunk_ids, n_docs


def build_corpus_index(
    questions: Callable[[], Iterator[Question]],
    data: DataFingerprint,
    out: str | Path,
    *,
    params: IndexParams | None = None,
    embedder: Embedder | None = None,
    text_cache: TextCache | None = None,
    checkpoint_docs: int = 64,
    limit: int | None = None,
    progress: Callable[[BuildProgress], None] | None = None,
    force: bool = False,
) -> Manifest:
    """Build (or resume building) a corpus index of every page or passage of a data set.

    ``questions`` opens a fresh stream of the data set's questions; ``data``
    fingerprints the file they come from. ``limit`` indexes only the first rows.
    """
    out = Path(out)
    embedder = embedder or Embedder()
    params = (params or IndexParams()).model_copy(update={"embedding_model": embedder.identity})
    cache = text_cache if text_cache is not None else TextCache.default()
    manifest_path = out / "manifest.json"
    if manifest_path.exists():
        if not force:
            existing = Manifest.model_validate_json(manifest_path.read_bytes())
            if existing.params == params and existing.data == data:
                return existing
            raise ConfigError(
                f"{out} already holds an index built with other settings or data; "
                "pass --force to rebuild it"
            )
        manifest_path.unlink()
    shards = _Shards(out / ".build")
    state = shards.read_state()
    if state is not None and (force or state.params != params or state.data != data):
        shutil.rmtree(shards.folder)
        state = None
    shards.folder.mkdir(parents=True, exist_ok=True)
    if state is None:
        state = _State(params=params, data=data)
        shards.write_state(state)
    seen_docs, seen_chunks, n_docs = shards.read_ids(state.shards)
    n_chunks = len(seen_chunks)
    resumed_from = state.rows_done
    started = time.monotonic()

    buf_chunks: list[Chunk] = []
    buf_docs: list[_Doc] = []

    def flush() -> None:
        if not buf_docs:
            return
        vectors = embedder.embed_chunks(buf_chunks) if buf_chunks else np.zeros((0, 0), np.float32)
        shards.write(state.shards, vectors, buf_chunks, buf_docs)
        state.shards += 1
        buf_chunks.clear()
        buf_docs.clear()

    def report(finished: bool = False) -> None:
        if progress is not None:
            progress(
                BuildProgress(
                    rows=state.rows_done,
                    documents=n_docs,
                    chunks=n_chunks,
                    shards=state.shards,
                    resumed_from_row=resumed_from,
                    seconds=time.monotonic() - started,
                    finished=finished,
                )
            )

    report()
    for row, question in enumerate(questions()):
        if limit is not None and row >= limit:
            break
        if row < state.rows_done:
            continue
        for doc in _documents(question, cache):
            if not doc.content_hash or doc.content_hash in seen_docs:
                continue
            seen_docs.add(doc.content_hash)
            if not doc.text:
                state.empty_documents += 1
            for c in chunk_text(
                doc.text, params.chunk, doc_index=n_docs, source=doc.url or doc.name
            ):
                if c.chunk_id not in seen_chunks:
                    seen_chunks.add(c.chunk_id)
                    buf_chunks.append(c)
                    n_chunks += 1
            buf_docs.append(doc)
            n_docs += 1
        if len(buf_docs) >= checkpoint_docs:
            flush()
            state.rows_done = row + 1
            shards.write_state(state)
        else:
            state.rows_done = row + 1
            if not buf_docs:
                shards.write_state(state)
        report()
    flush()
    shards.write_state(state)
    manifest = _finalize(out, shards, state, data)
    shutil.rmtree(shards.folder)
    report(finished=True)
    return manifest


def _finalize(out: Path, shards: _Shards, state: _State, data: DataFingerprint) -> Manifest:
    faiss = _faiss()
    vectors: list[NDArray[np.float32]] = []
    chunk_lines: list[bytes] = []
    doc_lines: list[bytes] = []
    for i in range(state.shards):
        vec_path, chunk_path, doc_path = shards.paths(i)
        arr = np.load(vec_path)
        if arr.size:
            vectors.append(arr.astype(np.float32, copy=False))
        chunk_lines.extend(chunk_path.read_bytes().splitlines())
        doc_lines.extend(doc_path.read_bytes().splitlines())
    dim = vectors[0].shape[1] if vectors else 0
    matrix = np.vstack(vectors) if vectors else np.zeros((0, max(dim, 1)), np.float32)
    if len(matrix) != len(chunk_lines):
        raise RuntimeError(
            f"{len(matrix)} vectors for {len(chunk_lines)} chunks in {shards.folder}"
        )
    index = faiss.IndexFlatIP(matrix.shape[1])
    if len(matrix):
        index.add(np.ascontiguousarray(matrix))
    faiss.write_index(index, str(out / "vectors.faiss"))

    offsets = np.zeros(len(chunk_lines) + 1, dtype=np.int64)
    with open(out / "chunks.jsonl", "wb") as f:
        for i, line in enumerate(chunk_lines):
            f.write(line + b"\n")
            offsets[i + 1] = offsets[i] + len(line) + 1
    np.save(out / "chunk_offsets.npy", offsets)
    _atomic_write(out / "pages.jsonl", b"".join(line + b"\n" for line in doc_lines))

    texts = [orjson.loads(line)["text"] for line in chunk_lines]
    bm25_dir = out / "bm25"
    if bm25_dir.exists():
        shutil.rmtree(bm25_dir)
    if texts:
        bm25 = bm25_index(bm25_tokenize(texts, state.params.bm25), state.params.bm25)
        bm25.save(str(bm25_dir), show_progress=False)

    corpus = hashlib.sha256()
    for line in doc_lines:
        corpus.update(orjson.loads(line)["content_hash"].encode() + b"\n")
    manifest = Manifest(
        params=state.params,
        data=data,
        corpus_hash=corpus.hexdigest(),
        rows=state.rows_done,
        documents=len(doc_lines),
        empty_documents=state.empty_documents,
        chunks=len(chunk_lines),
        versions=library_versions(),
        created=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    _atomic_write(out / "manifest.json", manifest.model_dump_json(indent=2).encode())
    return manifest


class CorpusIndex:
    """A built corpus index, opened for search (BM25, dense or hybrid)."""

    def __init__(self, folder: Path, manifest: Manifest, embedder: Embedder | None):
        self.folder = folder
        self.manifest = manifest
        self._embedder = embedder
        self._faiss_index: Any = None
        self._bm25: Any = None
        self._offsets = np.load(folder / "chunk_offsets.npy")
        self._chunks_file = open(folder / "chunks.jsonl", "rb")  # noqa: SIM115 (kept open)

    @classmethod
    def open(
        cls,
        folder: str | Path,
        *,
        expect: IndexParams | None = None,
        data: DataFingerprint | None = None,
        embedder: Embedder | None = None,
    ) -> CorpusIndex:
        """Open an index, refusing it when the manifest does not match (see module doc)."""
        folder = Path(folder)
        path = folder / "manifest.json"
        if not path.exists():
            hint = (
                " (an unfinished build is there: rerun 'ragmeter index build' to resume it)"
                if (folder / ".build").exists()
                else ""
            )
            raise ConfigError(f"{folder} is not a ragmeter index: no manifest.json{hint}")
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"{path}: unreadable manifest ({exc})") from None
        if raw.get("builder") != BUILDER or raw.get("format_version") != FORMAT_VERSION:
            raise ConfigError(
                f"{path}: built by {raw.get('builder')!r} format {raw.get('format_version')!r}, "
                f"this version reads {BUILDER!r} format {FORMAT_VERSION}"
            )
        try:
            manifest = Manifest.model_validate(raw)
        except ValidationError as exc:
            raise ConfigError(f"{path}: invalid manifest: {exc.errors()[0]['msg']}") from None
        installed = library_versions()
        for lib in _FORMAT_LIBRARIES:
            built = manifest.versions.get(lib, "absent")
            if _major_minor(built) != _major_minor(installed[lib]):
                raise ConfigError(
                    f"{folder}: built with {lib} {built}, installed {installed[lib]}; "
                    "rebuild the index with this installation"
                )
        if expect is not None:
            diffs = _differences(manifest.params.model_dump(), expect.model_dump())
            if diffs:
                raise ConfigError(f"{folder}: index parameters differ: {'; '.join(diffs)}")
        if data is not None and data != manifest.data:
            raise ConfigError(
                f"{folder}: built from {manifest.data.name} ({manifest.data.size:,} bytes), "
                f"not from {data.name} ({data.size:,} bytes)"
            )
        if embedder is not None and embedder.identity != manifest.params.embedding_model:
            raise ConfigError(
                f"{folder}: built with embeddings {manifest.params.embedding_model!r}, "
                f"asked for {embedder.identity!r}"
            )
        return cls(folder, manifest, embedder)

    def close(self) -> None:
        """Release the open chunk file."""
        self._chunks_file.close()

    def __len__(self) -> int:
        return self.manifest.chunks

    def chunk(self, i: int) -> Chunk:
        """The ``i``-th chunk (vector order)."""
        a, b = int(self._offsets[i]), int(self._offsets[i + 1])
        self._chunks_file.seek(a)
        return Chunk.model_validate(orjson.loads(self._chunks_file.read(b - a)))

    def embedder(self) -> Embedder:
        """The embedder matching this index (created on first dense search)."""
        if self._embedder is None:
            self._embedder = Embedder(_model_of(self.manifest.params.embedding_model))
            if self._embedder.identity != self.manifest.params.embedding_model:
                raise ConfigError(
                    f"{self.folder}: built with embeddings {self.manifest.params.embedding_model!r}"
                    f", which this installation resolves to {self._embedder.identity!r}"
                )
        return self._embedder

    def _ranked_bm25(self, query: str, k: int) -> list[tuple[int, float]]:
        if not len(self):
            return []
        if self._bm25 is None:
            import bm25s

            self._bm25 = bm25s.BM25.load(str(self.folder / "bm25"), show_progress=False)
        q = bm25_tokenize([query], self.manifest.params.bm25)[0]
        vocab = self._bm25.vocab_dict
        q = [t for t in q if t in vocab]
        if not q:
            return []
        docs, scores = self._bm25.retrieve([q], k=min(k, len(self)), show_progress=False)
        return [(int(d), float(s)) for d, s in zip(docs[0], scores[0], strict=True) if s > 0]

    def _ranked_dense(self, query: str, k: int) -> list[tuple[int, float]]:
        if not len(self):
            return []
        if self._faiss_index is None:
            self._faiss_index = _faiss().read_index(str(self.folder / "vectors.faiss"))
        q = self.embedder().embed_query(query).reshape(1, -1)
        scores, ids = self._faiss_index.search(q, min(k, len(self)))
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0], strict=True) if i >= 0]

    def search(self, query: str, k: int, mode: str = "hybrid", candidates: int = 50) -> list[Hit]:
        """The ``k`` best chunks of the whole corpus for ``query``."""
        if mode == "bm25":
            ranked = self._ranked_bm25(query, k)
        elif mode == "dense":
            ranked = self._ranked_dense(query, k)
        elif mode == "hybrid":
            depth = max(k, candidates)
            lexical = self._ranked_bm25(query, depth)
            semantic = self._ranked_dense(query, depth)
            fused = rrf_fuse(
                [[str(i) for i, _ in lexical], [str(i) for i, _ in semantic]], rrf_k=RRF_K
            )
            ranked = sorted(((int(i), s) for i, s in fused.items()), key=lambda x: (-x[1], x[0]))
            ranked = ranked[:k]
        else:
            raise ConfigError(f"unknown search mode {mode!r}: use bm25, dense or hybrid")
        return [Hit(self.chunk(i), s) for i, s in ranked]


def _model_of(identity: str) -> str | None:
    """The model argument that reproduces an embedder identity (``name@seq_len``)."""
    name = identity.rsplit("@", 1)[0]
    return None if name.startswith("local:") else name


def _differences(built: dict[str, Any], expected: dict[str, Any], prefix: str = "") -> list[str]:
    out = []
    for key in sorted(set(built) | set(expected)):
        a, b = built.get(key), expected.get(key)
        if isinstance(a, dict) and isinstance(b, dict):
            out += _differences(a, b, prefix + key + ".")
        elif a != b and not (key == "embedding_model" and not b):
            out.append(f"{prefix}{key}: index has {a!r}, expected {b!r}")
    return out


def load_manifest(folder: str | Path) -> Manifest:
    """Read an index's manifest without opening the index."""
    path = Path(folder) / "manifest.json"
    try:
        return Manifest.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        raise ConfigError(f"{folder} is not a ragmeter index: no manifest.json") from None
    except ValidationError as exc:
        raise ConfigError(f"{path}: invalid manifest: {exc.errors()[0]['msg']}") from None
