"""The extracted-text cache: a second run over the same pages parses nothing."""

from __future__ import annotations

from pathlib import Path

from ragmeter.data.crag import read_crag
from ragmeter.text.cache import BlobCache, TextCache, default_cache_dir
from ragmeter.text.extract import extract_page, html_hash


def test_second_run_parses_nothing(crag_sample: Path, tmp_path: Path) -> None:
    questions = list(read_crag(crag_sample, with_html=True))[:3]
    db = tmp_path / "text.sqlite3"
    first = TextCache(db)
    out1 = [first.extract_pages(q.pages) for q in questions]
    pages = [p for q in questions for p in q.pages]
    distinct = {html_hash(p.html) for p in pages if p.html}
    assert first.parsed == len(distinct) < len(pages)  # duplicated pages are parsed once
    first.store.close()

    second = TextCache(db)  # a new process would see the same file
    out2 = [second.extract_pages(q.pages) for q in questions]
    assert second.parsed == 0
    assert second.hits == sum(1 for p in pages if p.html)
    assert out1 == out2
    # Cached results equal fresh extraction, with the page's own name and URL.
    fresh = extract_page(questions[0].pages[2])
    cached = out2[0][2]
    assert cached.text == fresh.text and cached.url == questions[0].pages[2].url
    assert cached.html_hash == html_hash(questions[0].pages[2].html or "")


def test_blob_cache_and_default_folder(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    store = BlobCache(default_cache_dir() / "x.sqlite3")
    store.put_many([("a", b"1"), ("b", b"2")])
    assert store.get_many(["a", "b", "z"]) == {"a": b"1", "b": b"2"}
    assert len(store) == 2 and store.get("z") is None
