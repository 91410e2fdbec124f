"""The persistent corpus index: build, manifest checks, search, resume after a killed build."""

from __future__ import annotations

import bz2
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ragmeter.data.formats import read_questions
from ragmeter.errors import ConfigError
from ragmeter.retrieval.corpus import (
    CorpusIndex,
    IndexParams,
    Manifest,
    build_corpus_index,
    data_fingerprint,
)
from ragmeter.retrieval.dense import Embedder
from ragmeter.text.cache import TextCache
from ragmeter.text.chunk import ChunkParams

pytestmark = pytest.mark.model

# Three real sample rows with small pages (about 180 chunks in all).
ROWS = (8, 6, 4)


@pytest.fixture(scope="module")
def small_data(crag_sample: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    with bz2.open(crag_sample, "rb") as f:
        lines = f.read().splitlines()
    path = tmp_path_factory.mktemp("data") / "crag_small.jsonl"
    path.write_bytes(b"\n".join(lines[i] for i in ROWS) + b"\n")
    return path


@pytest.fixture(scope="module")
def built(small_data: Path, embedder: Embedder, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    out = tmp_path_factory.mktemp("index")
    seen = []
    manifest = build_corpus_index(
        lambda: read_questions(small_data),
        data_fingerprint(small_data),
        out,
        embedder=embedder,
        text_cache=TextCache(None),
        checkpoint_docs=3,
        progress=seen.append,
    )
    return out, manifest, seen


def test_build_writes_a_complete_index(built) -> None:  # type: ignore[no-untyped-def]
    out, manifest, seen = built
    assert isinstance(manifest, Manifest)
    assert manifest.rows == 3 and manifest.documents >= 8 and manifest.chunks > 50
    assert manifest.params.embedding_model == "sentence-transformers/all-MiniLM-L6-v2@256"
    assert {"faiss-cpu", "bm25s", "sentence-transformers"} <= set(manifest.versions)
    assert len(manifest.corpus_hash) == 64
    assert not (out / ".build").exists()
    for name in ("manifest.json", "vectors.faiss", "chunks.jsonl", "pages.jsonl", "bm25"):
        assert (out / name).exists()
    # 8 distinct documents checkpointed every 3 or more (at row ends).
    assert seen[-1].finished and seen[-1].shards == 2 and seen[-1].rows == 3
    assert [p.rows for p in seen] == [0, 1, 2, 3, 3]


def test_search_modes(built, embedder: Embedder, small_data: Path) -> None:  # type: ignore[no-untyped-def]
    out, manifest, _ = built
    index = CorpusIndex.open(out, embedder=embedder, data=data_fingerprint(small_data))
    try:
        assert len(index) == manifest.chunks
        query = "how many times has rory mcilroy won the masters tournament?"
        for mode in ("bm25", "dense", "hybrid"):
            hits = index.search(query, 5, mode=mode)
            assert len(hits) == 5, mode
            assert any("McIlroy" in h.chunk.text for h in hits[:3]), mode
            assert all(h.chunk.source.startswith("http") for h in hits)
        with pytest.raises(ConfigError, match="unknown search mode"):
            index.search(query, 5, mode="fuzzy")
    finally:
        index.close()


def test_mismatched_loads_are_refused(built, tmp_path: Path, crag_sample: Path) -> None:  # type: ignore[no-untyped-def]
    out, _, _ = built
    other = IndexParams(chunk=ChunkParams(max_tokens=128))
    with pytest.raises(ConfigError, match=r"chunk\.max_tokens: index has 96, expected 128"):
        CorpusIndex.open(out, expect=other)
    with pytest.raises(ConfigError, match="not from crag_sample_10"):
        CorpusIndex.open(out, data=data_fingerprint(crag_sample))
    # A manifest from another library version or builder is refused.
    copy = tmp_path / "copy"
    copy.mkdir()
    for f in out.iterdir():
        if f.is_file():
            (copy / f.name).write_bytes(f.read_bytes())
    raw = json.loads((out / "manifest.json").read_text())
    raw["versions"]["bm25s"] = "0.1.0"
    (copy / "manifest.json").write_text(json.dumps(raw))
    with pytest.raises(ConfigError, match=r"built with bm25s 0\.1\.0"):
        CorpusIndex.open(copy)
    raw["builder"] = "someone.else"
    (copy / "manifest.json").write_text(json.dumps(raw))
    with pytest.raises(ConfigError, match=r"built by 'someone\.else'"):
        CorpusIndex.open(copy)
    (copy / "manifest.json").unlink()
    (copy / ".build").mkdir()
    with pytest.raises(ConfigError, match="unfinished build"):
        CorpusIndex.open(copy)


def _cli(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "ragmeter", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_killed_build_resumes(built, small_data: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _, manifest, _ = built
    out = tmp_path / "index"
    env = {**os.environ, "RAGMETER_CACHE_DIR": str(tmp_path / "cache"), "HF_HUB_OFFLINE": "1"}
    args = ("index", "build", str(small_data), "--out", str(out), "--checkpoint", "1")
    proc = _cli(*args, env=env)
    state = out / ".build" / "state.json"
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and proc.poll() is None:
        if state.exists() and json.loads(state.read_text())["shards"] >= 1:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the build finished before it could be interrupted"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    kept = json.loads(state.read_text())
    assert 1 <= kept["rows_done"] < 3 and not (out / "manifest.json").exists()

    again = _cli(*args, "--json", env=env)
    stdout, stderr = again.communicate(timeout=600)
    assert again.returncode == 0, stderr
    assert f"resuming after row {kept['rows_done']}" in stderr
    resumed = Manifest.model_validate_json(stdout)
    assert resumed.corpus_hash == manifest.corpus_hash
    assert (resumed.documents, resumed.chunks) == (manifest.documents, manifest.chunks)
    assert not (out / ".build").exists()
