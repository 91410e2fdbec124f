"""Shared by the LLM benchmarks: start llama.cpp servers on loopback.

Two servers are used:

- llama-cpp-python's own ``python -m llama_cpp.server`` (extra ``dev``): it serves
  one request at a time;
- llama.cpp's native ``llama-server`` with parallel slots. No package ships it for
  this platform, so `native_server_binary` compiles it once from the llama.cpp
  sources vendored in the pinned llama-cpp-python sdist (fetched with ``pip
  download``) and keeps it in the user cache folder; ``LLAMA_SERVER`` names an
  existing binary instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import httpx

from ragmeter.llm.paths import user_cache_dir

LLAMA_CPP_PYTHON = "llama-cpp-python==0.3.36"
# Same reason as the Makefile: AMX kernels crash on VMs that advertise AMX without enabling it.
AMX_OFF = "-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"


# Both servers run with passive OpenMP waits, like ragmeter's in-process backend.
_ENV = {"OMP_WAIT_POLICY": "PASSIVE", **os.environ}


def free_port() -> int:
    """A loopback TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(proc: subprocess.Popen[bytes], base: str, timeout_s: float = 300) -> None:
    """Wait until ``GET {base}/models`` answers 200, or fail with the server's exit."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode} before answering")
        try:
            if httpx.get(f"{base}/models", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.25)
    proc.kill()
    raise SystemExit(f"server at {base} did not answer within {timeout_s:.0f}s")


def start_python_server(
    model: Path, alias: str, n_ctx: int = 4096, threads: int = 2
) -> tuple[subprocess.Popen[bytes], str]:
    """``python -m llama_cpp.server`` on a free loopback port; returns (process, base URL)."""
    port = free_port()
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--model_alias"]
    cmd += [alias, "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx)]
    cmd += ["--n_threads", str(threads), "--n_threads_batch", str(threads)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_ENV)
    base = f"http://127.0.0.1:{port}/v1"
    wait_ready(proc, base)
    return proc, base


def native_server_binary() -> Path:
    """The ``llama-server`` binary: ``LLAMA_SERVER``, else built once into the user cache."""
    env = os.environ.get("LLAMA_SERVER")
    if env:
        return Path(env)
    target = user_cache_dir() / "bin" / "llama-server-0.3.36"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        work = Path(tmp)
        print(f"building llama-server into {target} (several minutes, once)", file=sys.stderr)
        pip = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"]
        subprocess.run([*pip, "--quiet", "-d", str(work), LLAMA_CPP_PYTHON], check=True)
        sdist = next(work.glob("llama_cpp_python-*.tar.gz"))
        with tarfile.open(sdist) as tar:
            tar.extractall(work, filter="data")
        src = next(work.glob("llama_cpp_python-*")) / "vendor" / "llama.cpp"
        build = work / "build"
        flags = [
            "-DCMAKE_BUILD_TYPE=Release",
            "-DBUILD_SHARED_LIBS=OFF",
            "-DLLAMA_BUILD_SERVER=ON",
            "-DLLAMA_BUILD_TESTS=OFF",
            "-DLLAMA_BUILD_EXAMPLES=OFF",
            "-DLLAMA_USE_PREBUILT_UI=OFF",
            "-DLLAMA_OPENSSL=OFF",
            f"-DCMAKE_C_FLAGS={AMX_OFF}",
            f"-DCMAKE_CXX_FLAGS={AMX_OFF}",
        ]
        subprocess.run(["cmake", "-S", str(src), "-B", str(build), *flags], check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.run(
            ["cmake", "--build", str(build), "--target", "llama-server", "-j", jobs], check=True
        )
        shutil.copy2(build / "bin" / "llama-server", target)
    return target


def start_native_server(
    model: Path, alias: str, parallel: int, n_ctx: int = 4096, threads: int = 2
) -> tuple[subprocess.Popen[bytes], str]:
    """llama.cpp's ``llama-server`` with ``parallel`` slots sharing ``n_ctx``."""
    port = free_port()
    cmd = [str(native_server_binary()), "-m", str(model), "--alias", alias]
    cmd += ["--host", "127.0.0.1", "--port", str(port), "-c", str(n_ctx), "-np", str(parallel)]
    cmd += ["-t", str(threads), "-tb", str(threads), "--no-webui"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_ENV)
    base = f"http://127.0.0.1:{port}/v1"
    wait_ready(proc, base)
    return proc, base


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Terminate a server started here."""
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
