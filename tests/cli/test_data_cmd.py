"""``ragmeter data``: the commands as a user runs them (real process, real files)."""

from __future__ import annotations

import bz2
import hashlib
import http.server
import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest


def ragmeter(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ragmeter", "data", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
    )


def test_info_json_on_validation(crag_validation: Path) -> None:
    r = ragmeter("info", str(crag_validation), "--json")
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    assert info["format"] == "crag" and info["rows"] == 1371
    assert info["by"]["domain"] == {
        "finance": 335,
        "movie": 302,
        "open": 274,
        "sports": 266,
        "music": 194,
    }
    assert info["by"]["answer_type"] == {"valid": 1200, "invalid": 156, "no_answer": 15}
    assert sum(info["domain_x_question_type"]["music"].values()) == 194
    assert set(info["by"]) >= {"question_type", "static_or_dynamic"}


def test_info_text_on_the_sample(crag_sample: Path) -> None:
    r = ragmeter("info", str(crag_sample))
    assert r.returncode == 0, r.stderr
    assert "rows     10" in r.stdout
    assert "domain x question_type" in r.stdout
    assert "pages per row: mean 5.0" in r.stdout and "HTML bytes per row" in r.stdout


def test_bad_rows_exit_2_or_are_skipped(tmp_path: Path) -> None:
    p = tmp_path / "bad.jsonl.bz2"
    good = {"interaction_id": "a", "query": "q?", "answer": "yes", "domain": "music"}
    lines = [
        json.dumps(good),
        json.dumps({**good, "interaction_id": "b"}),
        '{"interaction_id": "c"',
    ]
    p.write_bytes(bz2.compress(("\n".join(lines) + "\n" + json.dumps(good) + "\n").encode()))
    r = ragmeter("info", str(p))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and f"{p}, line 3: invalid JSON" in r.stderr
    r = ragmeter("info", str(p), "--json", "--on-error", "skip")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["rows"] == 3
    assert "skipped 1 bad row(s)" in r.stderr and "line 3" in r.stderr


def test_truncated_bz2_exits_2(tmp_path: Path) -> None:
    p = tmp_path / "cut.jsonl.bz2"
    rng = random.Random(0)
    rows = [
        {"interaction_id": str(i), "query": rng.randbytes(400).hex(), "answer": "a"}
        for i in range(500)
    ]
    data = bz2.compress(b"".join(json.dumps(r).encode() + b"\n" for r in rows), 1)
    p.write_bytes(data[: len(data) // 2])
    r = ragmeter("info", str(p))
    assert r.returncode == 2
    assert "cut.jsonl.bz2, line " in r.stderr and "stream ends or breaks" in r.stderr


def test_subsample_and_export(tmp_path: Path, crag_validation: Path) -> None:
    r = ragmeter(
        "subsample",
        str(crag_validation),
        "--parts",
        "3",
        "--seed",
        "4",
        "--out",
        str(tmp_path),
        "--json",
    )
    assert r.returncode == 0, r.stderr
    parts = json.loads(r.stdout)["parts"]
    assert [p["rows"] for p in parts] == [457, 457, 457]
    out = tmp_path / "part1.parquet"
    r = ragmeter("export", parts[0]["path"], "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"wrote 457 rows to {out}"


class _Handler(http.server.BaseHTTPRequestHandler):
    body = b"hello ragmeter\n" * 1000

    def log_message(self, *args: object) -> None:
        """Quiet."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)


@pytest.mark.server
def test_list_and_fetch_download(tmp_path: Path) -> None:
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        catalog = tmp_path / "catalog.json"
        entry = {
            "name": "greeting",
            "description": "a test file",
            "files": [
                {
                    "filename": "sub/greeting.txt",
                    "url": f"http://127.0.0.1:{srv.server_address[1]}/g",
                    "size": len(_Handler.body),
                    "sha256": hashlib.sha256(_Handler.body).hexdigest(),
                }
            ],
        }
        catalog.write_text(json.dumps({"entries": [entry]}))
        env = {"RAGMETER_CATALOG": str(catalog), "RAGMETER_DATA_MIRROR": str(tmp_path / "none")}
        r = ragmeter("list", env=env)
        assert r.returncode == 0 and "crag_task_3_v4" in r.stdout and "greeting" in r.stdout
        r = ragmeter("fetch", "greeting", "--dest", str(tmp_path / "d"), env=env)
        assert r.returncode == 0, r.stderr
        assert r.stdout == f"{tmp_path / 'd' / 'sub' / 'greeting.txt'}\tdownload\n"
        assert (tmp_path / "d" / "sub" / "greeting.txt").read_bytes() == _Handler.body
        entry["files"][0]["sha256"] = "f" * 64  # type: ignore[index]
        catalog.write_text(json.dumps({"entries": [entry]}))
        r = ragmeter("fetch", "greeting", "--dest", str(tmp_path / "e"), env=env)
        assert r.returncode == 2 and "sha256 mismatch" in r.stderr
    finally:
        srv.shutdown()
        srv.server_close()
