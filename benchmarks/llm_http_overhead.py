"""Overhead of ragmeter's OpenAI-compatible backend against calling the server directly.

Starts ``python -m llama_cpp.server`` with SmolLM2 on a free loopback port and
sends the same greedy chat requests two ways, interleaved so that drift in the
server's speed hits both alike:

- direct: what a user writes first, one ``httpx.AsyncClient`` POST and ``.json()``;
- ragmeter: ``OpenAICompatLLM.generate`` (pydantic messages in, a ``Completion``
  out, retries armed, concurrency limit, usage accounting).

The figure is the ratio of median latencies (target: at most 1.05).

    .venv/bin/python benchmarks/llm_http_overhead.py [--requests 40] [--max-tokens 16]

The last line printed is JSON with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

import httpx

from llm_servers import start_python_server, stop
from ragmeter.llm import GenerationSettings, user
from ragmeter.llm.openai_compat import OpenAICompatLLM
from ragmeter.llm.weights import install


async def measure(base: str, requests: int, max_tokens: int) -> dict[str, float]:
    """Median and mean latency of both ways, interleaved request by request."""
    settings = GenerationSettings(max_tokens=max_tokens)
    ours = OpenAICompatLLM("smollm2", base)
    direct = httpx.AsyncClient(base_url=base, timeout=120)
    prompts = [f"Write one sentence about the number {i}." for i in range(requests)]
    t_ours: list[float] = []
    t_direct: list[float] = []
    try:
        for i, prompt in enumerate(prompts + prompts[:2]):
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
                    reply = await ours.generate(messages, settings)
                    text = reply.text
                else:
                    resp = await direct.post("/chat/completions", json=payload)
                    resp.raise_for_status()
                    text = resp.json()["choices"][0]["message"]["content"]
                elapsed = time.perf_counter() - start
                if i >= 2:  # the first two rounds warm connections and the server's cache
                    (t_ours if way == "ours" else t_direct).append(elapsed)
                assert text is not None
    finally:
        await ours.aclose()
        await direct.aclose()
    return {
        "median_direct_s": statistics.median(t_direct),
        "median_ragmeter_s": statistics.median(t_ours),
        "mean_direct_s": statistics.fmean(t_direct),
        "mean_ragmeter_s": statistics.fmean(t_ours),
    }


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--max-tokens", type=int, default=16)
    args = parser.parse_args()
    model = install("smollm2-135m-instruct")
    proc, base = start_python_server(model, "smollm2", n_ctx=2048)
    try:
        figures = asyncio.run(measure(base, args.requests, args.max_tokens))
    finally:
        stop(proc)
    ratio = figures["median_ragmeter_s"] / figures["median_direct_s"]
    print(f"server: python -m llama_cpp.server, SmolLM2-135M, {args.max_tokens} tokens/reply")
    print(f"direct httpx   median {figures['median_direct_s'] * 1000:8.1f} ms")
    print(f"ragmeter       median {figures['median_ragmeter_s'] * 1000:8.1f} ms")
    print(f"overhead ratio {ratio:.3f} (target <= 1.05)")
    result = {
        "benchmark": "llm_http_overhead",
        "requests": args.requests,
        "max_tokens": args.max_tokens,
        **{k: round(v, 5) for k, v in figures.items()},
        "overhead_ratio": round(ratio, 4),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
