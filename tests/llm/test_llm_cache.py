"""The SQLite response cache: hits, misses, key sensitivity, concurrent writers."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pytest

from ragmeter.llm import ChatMessage, GenerationSettings, load_llm
from ragmeter.llm.cache import CachedLLM, ResponseCache, choices_key, generate_key
from ragmeter.llm.openai_compat import OpenAICompatLLM
from ragmeter.llm.protocol import ChoiceProbabilities, Completion
from ragmeter.types import Usage

MESSAGES = [ChatMessage(role="user", content="What is the capital of France?")]


class CountingLLM:
    """An in-process fake that counts calls and returns a different text each time."""

    def __init__(self, identity: str = "fake:counting") -> None:
        self._identity = identity
        self.calls = 0

    @property
    def identity(self) -> str:
        return self._identity

    async def generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        self.calls += 1
        return Completion(
            text=f"reply {self.calls}",
            finish_reason="stop",
            usage=Usage(prompt_tokens=7, completion_tokens=2),
            latency_s=0.5,
        )

    async def choice_probabilities(
        self, messages: Sequence[ChatMessage], choices: Sequence[str]
    ) -> ChoiceProbabilities:
        self.calls += 1
        return ChoiceProbabilities(probs={c: 1 / len(choices) for c in choices}, method="logits")

    async def aclose(self) -> None:
        return None


def test_hits_and_misses(tmp_path: Path) -> None:
    inner = CountingLLM()
    llm = CachedLLM(inner, ResponseCache(tmp_path / "c.sqlite3"))
    greedy = GenerationSettings(max_tokens=16)

    async def run() -> list[Completion]:
        return [await llm.generate(MESSAGES, greedy) for _ in range(3)]

    first, second, third = asyncio.run(run())
    assert inner.calls == 1
    assert not first.cached and second.cached and third.cached
    assert second.text == first.text == "reply 1"
    assert second.usage == first.usage and second.latency_s == first.latency_s

    stats = llm.cache.stats()
    assert stats.entries == 1 and stats.hits == 2
    assert stats.by_operation == {"generate": 1}
    assert stats.by_model == {"fake:counting": 1}


def test_choice_probabilities_are_cached(tmp_path: Path) -> None:
    inner = CountingLLM()
    llm = CachedLLM(inner, ResponseCache(tmp_path / "c.sqlite3"))

    async def run() -> tuple[ChoiceProbabilities, ChoiceProbabilities, ChoiceProbabilities]:
        a = await llm.choice_probabilities(MESSAGES, ["yes", "no"])
        b = await llm.choice_probabilities(MESSAGES, ["yes", "no"])
        c = await llm.choice_probabilities(MESSAGES, ["no", "yes"])
        return a, b, c

    a, b, c = asyncio.run(run())
    assert not a.cached and b.cached and not c.cached
    assert inner.calls == 2


def test_unseeded_sampling_is_never_cached(tmp_path: Path) -> None:
    inner = CountingLLM()
    llm = CachedLLM(inner, ResponseCache(tmp_path / "c.sqlite3"))
    sampled = GenerationSettings(temperature=0.8)
    seeded = GenerationSettings(temperature=0.8, seed=11)

    async def run() -> list[Completion]:
        return [
            await llm.generate(MESSAGES, sampled),
            await llm.generate(MESSAGES, sampled),
            await llm.generate(MESSAGES, seeded),
            await llm.generate(MESSAGES, seeded),
        ]

    out = asyncio.run(run())
    assert [c.cached for c in out] == [False, False, False, True]
    assert [c.text for c in out] == ["reply 1", "reply 2", "reply 3", "reply 3"]
    assert llm.cache.stats().entries == 1


@pytest.mark.parametrize(
    "change",
    [
        {"max_tokens": 17},
        {"temperature": 0.5, "seed": 1},
        {"top_p": 0.9},
        {"stop": ["\n"]},
        {"seed": 5},
        {"json_output": True},
    ],
)
def test_key_covers_every_output_setting(change: dict[str, object]) -> None:
    base = GenerationSettings(max_tokens=16)
    changed = base.model_copy(update=change)
    assert generate_key("m", MESSAGES, base) != generate_key("m", MESSAGES, changed)


def test_key_covers_model_and_messages_but_not_transport() -> None:
    s = GenerationSettings()
    other = [ChatMessage(role="user", content="What is the capital of Spain?")]
    system = [ChatMessage(role="system", content="Be brief."), *MESSAGES]
    assert generate_key("a", MESSAGES, s) != generate_key("b", MESSAGES, s)
    assert generate_key("a", MESSAGES, s) != generate_key("a", other, s)
    assert generate_key("a", MESSAGES, s) != generate_key("a", system, s)
    assert generate_key("a", MESSAGES, s) == generate_key("a", list(MESSAGES), s)
    assert choices_key("a", MESSAGES, ["yes", "no"]) != choices_key("a", MESSAGES, ["no", "yes"])
    # Timeouts, retries and concurrency change how a reply is fetched, not what it says.
    fast = OpenAICompatLLM("m", "http://127.0.0.1:9/v1", timeout_s=1, max_retries=0, concurrency=1)
    slow = OpenAICompatLLM("m", "http://127.0.0.1:9/v1/", timeout_s=99, max_retries=9)
    assert fast.identity == slow.identity
    assert fast.identity != OpenAICompatLLM("m2", "http://127.0.0.1:9/v1").identity
    assert fast.identity != OpenAICompatLLM("m", "http://127.0.0.2:9/v1").identity


def test_load_llm_cache_option_and_clear(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    llm = load_llm("openai:m@http://127.0.0.1:9/v1", cache=path)
    assert isinstance(llm, CachedLLM) and llm.cache.path == path
    store = ResponseCache(path)
    store.put("k1", "generate", "x", "{}")
    store.put("k2", "generate", "y", "{}")
    assert store.clear("x") == 1
    assert store.stats().by_model == {"y": 1}
    assert store.clear() == 1
    assert store.stats().entries == 0


_WRITER = textwrap.dedent(
    """
    import sys
    from ragmeter.llm.cache import ResponseCache
    cache = ResponseCache(sys.argv[1])
    worker = sys.argv[2]
    for i in range(int(sys.argv[3])):
        cache.put(f"{worker}-{i}", "generate", f"w{worker}", '{"text": "x"}')
        # Everyone also writes and reads a shared key, to collide on purpose.
        cache.put(f"shared-{i}", "generate", "shared", '{"text": "%s"}' % worker)
        assert cache.get(f"{worker}-{i}") is not None
    print("ok", worker)
    """
)


def test_concurrent_writers_in_several_processes(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    per_worker = 150
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(path), str(w), str(per_worker)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for w in range(4)
    ]
    for w, p in enumerate(procs):
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert out.strip() == f"ok {w}"
    stats = ResponseCache(path).stats()
    assert stats.entries == 4 * per_worker + per_worker
    assert stats.by_model["shared"] == per_worker
    assert all(stats.by_model[f"w{w}"] == per_worker for w in range(4))
    assert stats.hits == 4 * per_worker
    mode = ResponseCache(path)._conn().execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
