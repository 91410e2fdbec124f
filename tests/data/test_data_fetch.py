"""Fetching: mirrors first, then a real download from a loopback HTTP server with resume."""

from __future__ import annotations

import hashlib
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragmeter.data.fetch import CatalogFile, download, fetch, fetch_file, load_catalog
from ragmeter.errors import ConfigError, DataError, UserError

PAYLOAD = bytes(range(256)) * 4096  # 1 MiB
SHA = hashlib.sha256(PAYLOAD).hexdigest()


class _Server(http.server.ThreadingHTTPServer):
    payload = PAYLOAD
    cut_first_at: int | None = None  # send only this many bytes on the first full request
    requests: list[str | None]


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: object) -> None:
        """Keep test output quiet."""

    def do_GET(self) -> None:
        srv = self.server
        rng = self.headers.get("Range")
        srv.requests.append(rng)
        if self.path != "/file.bin":
            self.send_error(404)
            return
        data = srv.payload
        start = int(rng.split("=")[1].split("-")[0]) if rng else 0
        if start >= len(data):
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{len(data)}")
            self.end_headers()
            return
        body = data[start:]
        self.send_response(206 if rng else 200)
        if rng:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if srv.cut_first_at is not None and not rng:
            # Drop the connection part-way, as a flaky network does.
            self.wfile.write(body[: srv.cut_first_at])
            self.wfile.flush()
            srv.cut_first_at = None
            self.close_connection = True
            self.connection.shutdown(2)
            return
        self.wfile.write(body)


@pytest.fixture
def server() -> Iterator[_Server]:
    srv = _Server(("127.0.0.1", 0), _Handler)
    srv.requests = []
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()


def _url(srv: _Server, path: str = "/file.bin") -> str:
    return f"http://127.0.0.1:{srv.server_address[1]}{path}"


@pytest.mark.server
def test_download_resumes_after_a_dropped_connection(server: _Server, tmp_path: Path) -> None:
    server.cut_first_at = 300_000
    f = CatalogFile(filename="file.bin", url=_url(server), size=len(PAYLOAD), sha256=SHA)
    got = download(f, tmp_path / "file.bin", backoff=0.0)
    assert got.read_bytes() == PAYLOAD
    assert server.requests[0] is None
    assert server.requests[1] is not None and server.requests[1].startswith("bytes=")
    assert int(server.requests[1][6:-1]) > 0
    assert not (tmp_path / "file.bin.part").exists()


@pytest.mark.server
def test_download_resumes_a_partial_file_from_an_earlier_run(
    server: _Server, tmp_path: Path
) -> None:
    (tmp_path / "file.bin.part").write_bytes(PAYLOAD[:123_456])
    f = CatalogFile(filename="file.bin", url=_url(server), size=len(PAYLOAD), sha256=SHA)
    assert download(f, tmp_path / "file.bin").read_bytes() == PAYLOAD
    assert server.requests == ["bytes=123456-"]


@pytest.mark.server
def test_checksum_mismatch_removes_the_download(server: _Server, tmp_path: Path) -> None:
    f = CatalogFile(filename="file.bin", url=_url(server), size=len(PAYLOAD), sha256="0" * 64)
    with pytest.raises(DataError, match=r"sha256 mismatch.*the download was removed"):
        download(f, tmp_path / "file.bin")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.server
def test_http_error_is_a_user_error(server: _Server, tmp_path: Path) -> None:
    f = CatalogFile(filename="x.bin", url=_url(server, "/missing.bin"))
    with pytest.raises(DataError, match="HTTP 404"):
        download(f, tmp_path / "x.bin")


@pytest.mark.server
def test_fetch_prefers_the_mirror(
    server: _Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mirror_a, mirror_b = tmp_path / "a", tmp_path / "b"
    (mirror_b / "sets").mkdir(parents=True)
    (mirror_b / "sets" / "file.bin").write_bytes(PAYLOAD)
    mirror_a.mkdir()
    (mirror_a / "file.bin").write_bytes(b"wrong size")  # skipped: size differs from the catalog
    monkeypatch.setenv("RAGMETER_DATA_MIRROR", f"{mirror_a}:{mirror_b}")
    f = CatalogFile(
        filename="file.bin",
        url=_url(server),
        size=len(PAYLOAD),
        sha256=SHA,
        mirror_paths=["sets/file.bin"],
    )
    assert fetch_file(f).path == str(mirror_b / "sets" / "file.bin")
    linked = fetch_file(f, dest=tmp_path / "dest", verify=True)
    assert linked.source == "mirror" and Path(linked.path).is_symlink()
    copied = fetch_file(f, dest=tmp_path / "copy", copy=True)
    assert not Path(copied.path).is_symlink() and Path(copied.path).read_bytes() == PAYLOAD
    assert server.requests == []
    monkeypatch.setenv("RAGMETER_DATA_MIRROR", str(tmp_path / "empty"))
    fetched = fetch_file(f, dest=tmp_path / "dl")
    assert fetched.source == "download" and server.requests == [None]
    assert fetch_file(f, dest=tmp_path / "dl").source == "present"


def test_catalog_facts_and_extra_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = load_catalog()
    t12 = catalog["crag_task_1_and_2_v4"].files[0]
    assert t12.size == 739_384_484 and t12.sha256 and len(t12.sha256) == 64
    assert [f.filename for f in catalog["crag_task_3_v4"].files] == [
        f"crag_task_3_dev_v4.tar.bz2.part{i}" for i in range(1, 5)
    ]
    subs = [n for n in catalog if n.startswith("crag_subsample_")]
    assert len(subs) == 5
    assert all("_subsample_" in catalog[n].files[0].filename for n in subs)
    assert {
        f"qa_feedback_{k}"
        for k in ("train", "train_1k", "train_feedback", "dev", "dev_feedback", "test")
    } <= set(catalog)
    assert {f"trust_score_{d}" for d in ("asqa", "qampari", "eli5", "expertqa")} <= set(catalog)
    extra = tmp_path / "extra.json"
    extra.write_text(
        json.dumps(
            {"entries": [{"name": "mine", "description": "d", "files": [{"filename": "a"}]}]}
        )
    )
    monkeypatch.setenv("RAGMETER_CATALOG", str(extra))
    assert "mine" in load_catalog()
    extra.write_text(json.dumps({"entries": [{"name": "mine"}]}))
    with pytest.raises(ConfigError, match="invalid catalog"):
        load_catalog()


def test_unknown_name_suggests(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAGMETER_CATALOG", raising=False)
    with pytest.raises(UserError, match="did you mean crag_subsample_1"):
        fetch("crag_subsample1")


def test_real_mirror_file_matches_its_checksum(
    mirror_file, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    p = mirror_file("crag/kg/finance/company_name.dict")
    monkeypatch.setenv("RAGMETER_DATA_MIRROR", str(p.parents[3]))
    (got,) = fetch("crag_kg_finance_names", verify=True)
    assert got.source == "mirror" and Path(got.path) == p
