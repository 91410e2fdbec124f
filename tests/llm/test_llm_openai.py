"""The HTTP backend against a real llama.cpp server, directly and through a fault proxy."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
from helpers_llm import FaultProxy

from live_servers import free_port
from ragmeter.errors import BackendError
from ragmeter.llm import ChatMessage, GenerationSettings, load_llm, user
from ragmeter.llm.openai_compat import HTTPBackendError, OpenAICompatLLM

pytestmark = [pytest.mark.server, pytest.mark.model]

QUESTION = user("What is the capital of France?", system="Answer in a few words.")
SHORT = GenerationSettings(max_tokens=8)


def _llm(url: str, **options: object) -> OpenAICompatLLM:
    quick = {"backoff_base_s": 0.05, "backoff_max_s": 0.2, **options}
    return OpenAICompatLLM("smollm2", url, **quick)  # type: ignore[arg-type]


def test_generate_records_text_usage_and_finish(llama_server: str) -> None:
    async def run() -> None:
        llm = load_llm(f"openai:smollm2@{llama_server}")
        try:
            reply = await llm.generate(QUESTION, GenerationSettings(max_tokens=32))
            assert reply.text.strip()
            assert reply.usage.prompt_tokens > 5 and reply.usage.completion_tokens > 0
            assert reply.finish_reason in ("stop", "length")
            cut = await llm.generate(QUESTION, GenerationSettings(max_tokens=2))
            assert cut.finish_reason == "length" and cut.usage.completion_tokens <= 2
            assert isinstance(llm, OpenAICompatLLM)
            assert llm.usage.completion_tokens == (
                reply.usage.completion_tokens + cut.usage.completion_tokens
            )
        finally:
            await llm.aclose()

    asyncio.run(run())


def test_choice_probabilities_from_server_logprobs(llama_server: str) -> None:
    async def run() -> None:
        llm = _llm(llama_server)
        try:
            got = await llm.choice_probabilities(
                user("Is Paris in France? Answer yes or no."), ["yes", "no"]
            )
            assert got.method == "logprobs"
            assert sum(got.probs.values()) == pytest.approx(1.0)
            assert got.mass is not None and 0.0 < got.mass <= 1.0
        finally:
            await llm.aclose()

    asyncio.run(run())


def test_json_output_is_valid_json(llama_server: str) -> None:
    async def run() -> None:
        llm = _llm(llama_server)
        try:
            reply = await llm.generate(
                user('Give a JSON object with the key "city" for the capital of France.'),
                GenerationSettings(max_tokens=160, json_output=True),
            )
            assert reply.finish_reason == "stop", reply.text
            assert isinstance(json.loads(reply.text), dict)
        finally:
            await llm.aclose()

    asyncio.run(run())


def _ask(proxy: FaultProxy, llm: OpenAICompatLLM) -> str:
    async def run() -> str:
        try:
            return (await llm.generate(QUESTION, SHORT)).text
        finally:
            await llm.aclose()

    return asyncio.run(run())


def test_retries_server_errors_then_succeeds(fault_proxy: FaultProxy) -> None:
    fault_proxy.faults.extend(["500", "500"])
    llm = _llm(fault_proxy.url)
    assert _ask(fault_proxy, llm).strip()
    assert llm.retries == 2 and fault_proxy.requests == 3


def test_honours_retry_after(fault_proxy: FaultProxy) -> None:
    fault_proxy.faults.append("429:1")
    llm = _llm(fault_proxy.url)
    assert _ask(fault_proxy, llm).strip()
    assert llm.retries == 1 and fault_proxy.requests == 2
    # The backend waited at least as long as the server asked (a lower bound, never flaky).
    assert fault_proxy.arrivals[1] - fault_proxy.arrivals[0] >= 1.0


def test_stall_past_timeout_is_retried(fault_proxy: FaultProxy) -> None:
    fault_proxy.faults.append("stall")
    # The retry goes to the real server: its timeout must cover a real (possibly slow) reply.
    llm = _llm(fault_proxy.url, timeout_s=10)
    assert _ask(fault_proxy, llm).strip()
    assert llm.retries == 1 and fault_proxy.requests == 2


def test_dropped_connections_are_retried(fault_proxy: FaultProxy) -> None:
    fault_proxy.faults.extend(["drop", "drop"])
    llm = _llm(fault_proxy.url)
    assert _ask(fault_proxy, llm).strip()
    assert llm.retries == 2 and fault_proxy.requests == 3


def test_gives_up_with_the_server_message_once_retries_are_spent(
    fault_proxy: FaultProxy,
) -> None:
    fault_proxy.faults.extend(["500"] * 10)
    llm = _llm(fault_proxy.url, max_retries=3)
    with pytest.raises(HTTPBackendError, match=r"after 4 attempts: HTTP 500: injected 500"):
        _ask(fault_proxy, llm)
    assert fault_proxy.requests == 4


def test_retry_after_beyond_the_budget_fails_at_once(fault_proxy: FaultProxy) -> None:
    fault_proxy.faults.append("429:30")
    llm = _llm(fault_proxy.url, retry_budget_s=5)
    with pytest.raises(HTTPBackendError, match="retry budget of 5s") as info:
        _ask(fault_proxy, llm)
    assert "HTTP 429: injected 429:30" in str(info.value)
    assert fault_proxy.requests == 1


def test_a_server_that_always_stalls_fails_and_never_hangs(fault_proxy: FaultProxy) -> None:
    fault_proxy.faults.extend(["stall"] * 3)
    llm = _llm(fault_proxy.url, timeout_s=0.5, max_retries=2)
    with pytest.raises(HTTPBackendError, match=r"after 3 attempts: no reply within 0.5s"):
        _ask(fault_proxy, llm)
    assert fault_proxy.requests == 3


def test_client_errors_are_not_retried(fault_proxy: FaultProxy) -> None:
    fault_proxy.faults.append("400")
    llm = _llm(fault_proxy.url)
    with pytest.raises(HTTPBackendError, match="HTTP 400: injected 400") as info:
        _ask(fault_proxy, llm)
    assert info.value.status == 400 and info.value.server_message == "injected 400"
    assert llm.retries == 0 and fault_proxy.requests == 1


def test_concurrency_limit_holds(fault_proxy: FaultProxy) -> None:
    llm = _llm(fault_proxy.url, concurrency=2)

    async def run() -> list[str]:
        try:
            convs = [user(f"Say the number {i}.") for i in range(6)]
            replies = await asyncio.gather(*(llm.generate(c, SHORT) for c in convs))
            return [r.text for r in replies]
        finally:
            await llm.aclose()

    assert len(asyncio.run(run())) == 6
    assert fault_proxy.requests == 6 and fault_proxy.max_in_flight <= 2


def test_without_logprobs_the_verdict_is_parsed_and_recorded(fault_proxy: FaultProxy) -> None:
    fault_proxy.reject_logprobs = True
    llm = _llm(fault_proxy.url)
    question = [
        ChatMessage(role="system", content="Reply with one word: yes or no."),
        ChatMessage(role="user", content="Is water wet?"),
    ]

    async def run() -> None:
        try:
            for _ in range(2):
                try:
                    got = await llm.choice_probabilities(question, ["yes", "no"])
                except BackendError as exc:  # a reply naming neither word is an error, not a guess
                    assert "names none of the choices" in str(exc)
                    continue
                assert got.method == "parsed" and got.reply is not None
                assert sorted(got.probs.values()) == [0.0, 1.0]
        finally:
            await llm.aclose()

    asyncio.run(run())
    # Asked once with logprobs, refused, then never again: the backend remembers.
    asked = [bool(b.get("logprobs")) for b in fault_proxy.bodies]
    assert asked == [True, False, False]


def test_cli_llm_ask_against_the_server(llama_server: str) -> None:
    ragmeter = [sys.executable, "-m", "ragmeter", "llm", "ask"]
    done = subprocess.run(
        [*ragmeter, "--backend", f"openai:smollm2@{llama_server}", "--max-tokens", "8", "Hello"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    assert "prompt +" in done.stderr and "completion tokens" in done.stderr

    dead = f"openai:smollm2@http://127.0.0.1:{free_port()}/v1"
    failed = subprocess.run(
        [*ragmeter, "--backend", dead, "--max-retries", "1", "Hello"],
        capture_output=True,
        text=True,
    )
    assert failed.returncode == 1
    lines = failed.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "connection failed" in lines[0]
