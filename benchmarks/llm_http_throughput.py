"""Throughput of the OpenAI-compatible backend at concurrency 1 and 4.

Against llama.cpp's native ``llama-server`` with 4 parallel slots (continuous
batching), ragmeter sends the same set of greedy chat requests with its
concurrency limit at 1, then at 4, and reports requests/s and generated
tokens/s for each. As the reference a user would try first, the same two runs
go to ``python -m llama_cpp.server``, which serves one request at a time.

    .venv/bin/python benchmarks/llm_http_throughput.py [--model qwen2.5-coder-1.5b-instruct-q4km]
        [--requests 16] [--max-tokens 32] [--skip-python-server]

``llama-server`` is built once from the llama.cpp sources of the pinned
llama-cpp-python (see ``llm_servers.py``) unless ``LLAMA_SERVER`` names a binary.
The last line printed is JSON with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

from llm_servers import start_native_server, start_python_server, stop
from ragmeter.llm import GenerationSettings, generate_many, user
from ragmeter.llm.openai_compat import OpenAICompatLLM
from ragmeter.llm.weights import install


async def run_at(base: str, concurrency: int, requests: int, max_tokens: int) -> dict[str, Any]:
    """Send ``requests`` chats with at most ``concurrency`` in flight; rates over wall time."""
    llm = OpenAICompatLLM("bench", base, concurrency=concurrency, timeout_s=600)
    convs = [user(f"Write two sentences about the city number {i}.") for i in range(requests)]
    settings = GenerationSettings(max_tokens=max_tokens)
    try:
        await llm.generate(user("Hello."), GenerationSettings(max_tokens=4))  # warm-up
        start = time.perf_counter()
        replies = await generate_many(llm, convs, settings, concurrency=concurrency)
        wall = time.perf_counter() - start
    finally:
        await llm.aclose()
    tokens = sum(r.usage.completion_tokens for r in replies)
    return {
        "concurrency": concurrency,
        "wall_s": round(wall, 3),
        "requests_per_s": round(requests / wall, 4),
        "completion_tokens": tokens,
        "tokens_per_s": round(tokens / wall, 3),
    }


def main() -> None:
    """Run both servers at concurrency 1 and 4 and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct-q4km")
    parser.add_argument("--requests", type=int, default=16)
    parser.add_argument("--max-tokens", type=int, default=32)
    parser.add_argument("--skip-python-server", action="store_true")
    args = parser.parse_args()
    model = install(args.model)
    results: dict[str, Any] = {"benchmark": "llm_http_throughput", "model": args.model}
    results["requests"] = args.requests
    results["max_tokens"] = args.max_tokens

    proc, base = start_native_server(model, "bench", parallel=4, n_ctx=4096)
    try:
        for c in (1, 4):
            results[f"llama_server_4slots_c{c}"] = asyncio.run(
                run_at(base, c, args.requests, args.max_tokens)
            )
    finally:
        stop(proc)
    if not args.skip_python_server:
        proc, base = start_python_server(model, "bench", n_ctx=4096)
        try:
            for c in (1, 4):
                results[f"llama_cpp_python_server_c{c}"] = asyncio.run(
                    run_at(base, c, args.requests, args.max_tokens)
                )
        finally:
            stop(proc)

    native1 = results["llama_server_4slots_c1"]["tokens_per_s"]
    native4 = results["llama_server_4slots_c4"]["tokens_per_s"]
    results["speedup_c4_over_c1"] = round(native4 / native1, 3)
    for key, value in results.items():
        if isinstance(value, dict):
            print(
                f"{key:<32} {value['requests_per_s']:7.3f} req/s "
                f"{value['tokens_per_s']:8.2f} tok/s  ({value['wall_s']:.1f}s)"
            )
    print(f"llama-server 4 slots: concurrency 4 / 1 = {results['speedup_c4_over_c1']:.2f}x")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
