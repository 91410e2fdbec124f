"""Overhead of ragmeter's OpenAI-compatible backend against calling the server directly.

Starts ``python -m llama_cpp.server`` with SmolLM2 on a free loopback port and
sends the same greedy chat requests two ways, interleaved so that drift in the
server's speed hits both alike:

- direct: what a user writes first, one ``httpx.AsyncClient`` POST and ``.json()``;
- ragmeter: ``OpenAICompatLLM.generate`` (pydantic messages in, a ``Completion``
  out, retries armed, concurrency limit, usage accounting).

The figures are the ratio of median latencies and the median of the per-round
ratios (each round sends the same request both ways back to back), target at
most 1.05. A second phase repeats the comparison against a loopback server that
answers a fixed completion at once, which isolates the client-side cost per call
(the worst case for the ratio: no model time to hide it).

    .venv/bin/python benchmarks/llm_http_overhead.py [--requests 40] [--max-tokens 16]

The last line printed is JSON with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time

import httpx

from llm_servers import free_port, start_python_server, stop, wait_ready
from ragmeter.llm import GenerationSettings, user
from ragmeter.llm.openai_compat import OpenAICompatLLM
from ragmeter.llm.weights import install


async def measure(base: str, requests: int, max_tokens: int, warmup: int = 2) -> dict[str, float]:
    """Latency of both ways, interleaved request by request (order alternating)."""
    settings = GenerationSettings(max_tokens=max_tokens)
    ours = OpenAICompatLLM("smollm2", base)
    direct = httpx.AsyncClient(base_url=base, timeout=120)
    prompts = [f"Write one sentence about the number {i}." for i in range(requests + warmup)]
    t_ours: list[float] = []
    t_direct: list[float] = []
    try:
        for i, prompt in enumerate(prompts):
            messages = user(prompt)
            payload = {
                "model": "smollm2",
                "messages": [m.model_dump() for m in messages],
                "max_tokens": max_tokens,
                "temperature": 0.0,
                "top_p": 1.0,
            }
            order = ("ours", "direct") if i % 2 == 0 else ("direct", "ours")
            for way in order:
                start = time.perf_counter()
                if way == "ours":
                    text = (await ours.generate(messages, settings)).text
                else:
                    resp = await direct.post("/chat/completions", json=payload)
                    resp.raise_for_status()
                    text = resp.json()["choices"][0]["message"]["content"]
                elapsed = time.perf_counter() - start
                if i >= warmup:  # warm connections and the server's prompt cache first
                    (t_ours if way == "ours" else t_direct).append(elapsed)
                assert text is not None
    finally:
        await ours.aclose()
        await direct.aclose()
    return {
        "median_direct_s": statistics.median(t_direct),
        "median_ragmeter_s": statistics.median(t_ours),
        "paired_median_ratio": statistics.median(
            o / d for o, d in zip(t_ours, t_direct, strict=True)
        ),
    }


_INSTANT_SERVER = """
import http.server, json, sys
body = json.dumps({"id": "x", "object": "chat.completion", "model": "m", "choices": [
    {"index": 0, "message": {"role": "assistant", "content": "Paris is the capital."},
     "finish_reason": "stop"}], "usage": {"prompt_tokens": 20, "completion_tokens": 6}}).encode()
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    def log_message(self, *a): pass
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers()
        self.wfile.write(b"{}")
    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
"""


def start_instant_server() -> tuple[subprocess.Popen[bytes], str]:
    """A loopback server (own process) answering every chat request at once, same reply."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", _INSTANT_SERVER, str(port)])
    base = f"http://127.0.0.1:{port}/v1"
    wait_ready(proc, base)
    return proc, base


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--max-tokens", type=int, default=16)
    parser.add_argument("--instant-requests", type=int, default=300)
    args = parser.parse_args()
    model = install("smollm2-135m-instruct")
    proc, base = start_python_server(model, "smollm2", n_ctx=2048)
    try:
        real = asyncio.run(measure(base, args.requests, args.max_tokens))
    finally:
        stop(proc)
    proc, base = start_instant_server()
    try:
        instant = asyncio.run(measure(base, args.instant_requests, args.max_tokens, warmup=20))
    finally:
        stop(proc)
    ratio = real["median_ragmeter_s"] / real["median_direct_s"]
    per_call_us = (instant["median_ragmeter_s"] - instant["median_direct_s"]) * 1e6
    print(f"llama_cpp.server, SmolLM2-135M, {args.max_tokens} tokens/reply:")
    print(f"  direct httpx median {real['median_direct_s'] * 1000:8.1f} ms")
    print(f"  ragmeter     median {real['median_ragmeter_s'] * 1000:8.1f} ms")
    print(f"  ratio of medians {ratio:.3f}, median paired ratio {real['paired_median_ratio']:.3f}")
    print("instant loopback server (client cost only):")
    print(f"  direct httpx median {instant['median_direct_s'] * 1e6:8.0f} us")
    print(f"  ragmeter     median {instant['median_ragmeter_s'] * 1e6:8.0f} us")
    print(f"  ragmeter adds {per_call_us:.0f} us per call")
    result = {
        "benchmark": "llm_http_overhead",
        "requests": args.requests,
        "max_tokens": args.max_tokens,
        **{f"llama_server_{k}": round(v, 5) for k, v in real.items()},
        "overhead_ratio": round(ratio, 4),
        **{f"instant_{k}": round(v, 6) for k, v in instant.items()},
        "instant_added_us_per_call": round(per_call_us, 1),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
