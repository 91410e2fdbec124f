"""The in-process llama.cpp backend with real models: SmolLM2 for plumbing, Qwen for answers."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ragmeter.llm import ChatMessage, GenerationSettings, load_llm, user
from ragmeter.llm.cache import CachedLLM, ResponseCache
from ragmeter.llm.llamacpp import ContextLengthError, LlamaCppLLM, loaded_models

pytestmark = pytest.mark.model

SMOL = "llamacpp:smollm2-135m-instruct"
SMOL_SHA = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

PASSAGE = (
    "The Varnholt Bridge crosses the river Emsel in the town of Kirrendorf. It was designed "
    "by the engineer Adela Murn and opened to traffic in 1911. Its central span is 86 metres "
    "long, and it was painted green in 1958."
)


def test_smollm2_generation_plumbing(smol_path: Path) -> None:
    async def run() -> None:
        llm = load_llm(SMOL)
        try:
            assert llm.identity == f"llamacpp:sha256:{SMOL_SHA}"
            reply = await llm.generate(user("Name a colour."), GenerationSettings(max_tokens=12))
            assert reply.text.strip()
            assert reply.usage.prompt_tokens > 5 and 0 < reply.usage.completion_tokens <= 12
            assert reply.finish_reason in ("stop", "length") and reply.latency_s > 0

            cut = await llm.generate(user("Count to fifty."), GenerationSettings(max_tokens=3))
            assert cut.finish_reason == "length" and cut.usage.completion_tokens == 3

            stopped = await llm.generate(
                user("Count from 1 to 10, separated by commas."),
                GenerationSettings(max_tokens=40, stop=["5"]),
            )
            assert "5" not in stopped.text and "6" not in stopped.text

            as_json = await llm.generate(
                user('Give a JSON object with the key "city" for the capital of France.'),
                GenerationSettings(max_tokens=160, json_output=True),
            )
            assert as_json.finish_reason == "stop", as_json.text
            assert isinstance(json.loads(as_json.text), dict)

            seeded = GenerationSettings(max_tokens=12, temperature=0.9, seed=1234)
            story = user("Start a story about a fox.")
            a = await llm.generate(story, seeded)
            b = await llm.generate(story, seeded)
            assert a.text == b.text
        finally:
            await llm.aclose()

    asyncio.run(run())


def test_smollm2_choice_probabilities_from_logits(smol_path: Path) -> None:
    async def run() -> None:
        llm = load_llm(SMOL)
        try:
            got = await llm.choice_probabilities(
                user("Is the sky blue on a clear day? Answer yes or no."), ["yes", "no"]
            )
            assert got.method == "logits"
            assert set(got.probs) == {"yes", "no"}
            assert sum(got.probs.values()) == pytest.approx(1.0)
            assert got.mass is not None and 0.0 < got.mass <= 1.0
            assert got.usage.prompt_tokens > 5
            # A choice the tokenizer splits into several tokens still gets its probability.
            three = await llm.choice_probabilities(
                user("Which fits best: yes, no or unverifiable?"), ["yes", "no", "unverifiable"]
            )
            assert sum(three.probs.values()) == pytest.approx(1.0)
            assert three.probs["unverifiable"] > 0.0
            # The same question again gives the same numbers (prefix reuse must not change them).
            again = await llm.choice_probabilities(
                user("Is the sky blue on a clear day? Answer yes or no."), ["yes", "no"]
            )
            assert again.probs == pytest.approx(got.probs, abs=1e-6)
        finally:
            await llm.aclose()

    asyncio.run(run())


def test_one_shared_model_safe_under_concurrent_callers(smol_path: Path) -> None:
    async def run() -> None:
        before = loaded_models()
        first = load_llm(SMOL)
        second = load_llm(SMOL)
        try:
            assert loaded_models() == before + 1  # the same settings share one loaded model
            prompts = [user(f"Write the word number {i}.") for i in range(4)]
            greedy = GenerationSettings(max_tokens=8)
            alone = [await first.generate(p, greedy) for p in prompts]
            together = await asyncio.gather(
                *(llm.generate(p, greedy) for llm in (first, second) for p in prompts),
                first.choice_probabilities(user("Is ice cold?"), ["yes", "no"]),
            )
            texts = [c.text for c in together[:8]]  # type: ignore[union-attr]
            assert texts == [c.text for c in alone] * 2
        finally:
            await first.aclose()
            await second.aclose()
        assert loaded_models() == before

    asyncio.run(run())


def test_prompt_longer_than_the_context_is_a_clear_error(smol_path: Path) -> None:
    async def run() -> None:
        llm = LlamaCppLLM("smollm2-135m-instruct", n_ctx=128)
        try:
            long = user("word " * 400)
            with pytest.raises(ContextLengthError):
                await llm.generate(long, GenerationSettings(max_tokens=4))
            with pytest.raises(ContextLengthError):
                await llm.choice_probabilities(long, ["yes", "no"])
        finally:
            await llm.aclose()

    asyncio.run(run())


def test_cached_real_model_replies(smol_path: Path, tmp_path: Path) -> None:
    async def run() -> None:
        llm = load_llm(SMOL, cache=ResponseCache(tmp_path / "c.sqlite3"))
        assert isinstance(llm, CachedLLM)
        try:
            q = user("Name a fruit.")
            first = await llm.generate(q, GenerationSettings(max_tokens=8))
            second = await llm.generate(q, GenerationSettings(max_tokens=8))
            assert not first.cached and second.cached and first.text == second.text
            p1 = await llm.choice_probabilities(q, ["apple", "pear"])
            p2 = await llm.choice_probabilities(q, ["apple", "pear"])
            assert p2.cached and p1.probs == p2.probs
            assert llm.cache.stats().by_model == {f"llamacpp:sha256:{SMOL_SHA}": 2}
        finally:
            await llm.aclose()

    asyncio.run(run())


def test_cli_llm_ask_in_process(smol_path: Path) -> None:
    ask = [sys.executable, "-m", "ragmeter", "llm", "ask", "--model", "smollm2-135m-instruct"]
    done = subprocess.run(
        [*ask, "--max-tokens", "6", "Say hello."],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    assert f"llamacpp:sha256:{SMOL_SHA}" in done.stderr
    choices = subprocess.run(
        [*ask, "--choices", "yes,no", "Is fire hot?"],
        capture_output=True,
        text=True,
    )
    assert choices.returncode == 0, choices.stderr
    words = {line.split("\t")[0] for line in choices.stdout.strip().splitlines()}
    assert words == {"yes", "no"} and "[logits" in choices.stderr


def test_qwen_answers_from_the_passage(qwen_path: Path) -> None:
    async def run() -> None:
        llm = load_llm("local")
        try:
            assert llm.identity.startswith("llamacpp:sha256:cc324af070c2ecbf")
            question = user(
                f"Passage: {PASSAGE}\n\nUsing only the passage, answer briefly: "
                "who designed the Varnholt Bridge?",
                system="You answer questions from the given passage.",
            )
            reply = await llm.generate(question, GenerationSettings(max_tokens=24))
            assert "Adela Murn" in reply.text

            def claim(text: str) -> list[ChatMessage]:
                return user(
                    f"Passage: {PASSAGE}\n\nClaim: {text}\n\n"
                    "Does the passage support the claim? Answer yes or no."
                )

            supported = await llm.choice_probabilities(
                claim("The bridge opened in 1911."), ["yes", "no"]
            )
            refuted = await llm.choice_probabilities(
                claim("The bridge was painted red in 1958."), ["yes", "no"]
            )
            assert supported.method == "logits" and supported.best() == "yes"
            assert refuted.best() == "no"
        finally:
            await llm.aclose()

    asyncio.run(run())


def test_prefix_states_skip_a_shared_start_between_other_prompts(smol_path: Path) -> None:
    """A judge-like prompt read again after other prompts reuses its saved start."""
    fixed = "You grade answers against a gold answer. " + " ".join(
        f"Example {i}: the answer Paris to the question about the capital of France is correct."
        for i in range(25)
    )

    def judge(i: int) -> list[ChatMessage]:
        return [
            ChatMessage(role="system", content=fixed),
            *user(f"Question {i}: what is {i} plus {i}? Predicted answer: {2 * i}. Correct?"),
        ]

    def other(i: int) -> list[ChatMessage]:
        return user(f"Say one word about the number {i}. " + "Some filler words here. " * 60)

    async def run(llm: LlamaCppLLM, capacity: int) -> list[tuple[str, float]]:
        store = llm._model.prefix
        store.capacity_bytes = capacity
        llm._model.llama.reset()
        out = []
        for i in range(3):
            reply = await llm.generate(judge(i), GenerationSettings(max_tokens=6))
            await llm.generate(other(i), GenerationSettings(max_tokens=4))
            probs = await llm.choice_probabilities(judge(i), ["yes", "no"])
            out.append((reply.text, probs.probs["yes"]))
        return out

    async def main() -> None:
        llm = LlamaCppLLM("smollm2-135m-instruct", prefix_cache_mb=256)
        try:
            store = llm._model.prefix
            assert len(llm.prompt_tokens(judge(0))) > store.min_tokens
            without = await run(llm, 0)
            assert store.restored == 0 and len(store) == 0
            with_states = await run(llm, 256 << 20)
            # Each verdict after an unrelated prompt starts from a saved state (a generation
            # right after a verdict needs none: the context still holds the shared start).
            assert store.restored == 3 and store.tokens_saved > 3 * 200
            assert 0 < store.size_bytes <= 256 << 20
            assert [t for t, _ in with_states] == [t for t, _ in without]
            for (_, p_on), (_, p_off) in zip(with_states, without, strict=True):
                assert p_on == pytest.approx(p_off, abs=0.02)
            # A state larger than the whole budget is not kept.
            store.capacity_bytes, held = 1024, len(store)
            await llm.generate(judge(9), GenerationSettings(max_tokens=2))
            assert len(store) == held
        finally:
            await llm.aclose()

    asyncio.run(main())


def test_answer_token_logprobs_match_the_server(smol_path: Path, llama_server: str) -> None:
    """In-process log-probabilities of a greedy reply agree with llama.cpp's server's."""

    async def run() -> None:
        local = load_llm(SMOL)
        remote = load_llm(f"openai:smollm2@{llama_server}")
        settings = GenerationSettings(max_tokens=8, logprobs=True)
        question = user("What is the capital of France? Answer in one word.")
        try:
            mine = await local.generate(question, settings)
            theirs = await remote.generate(question, settings)
            plain = await local.generate(question, GenerationSettings(max_tokens=8))
        finally:
            await local.aclose()
            await remote.aclose()
        assert plain.logprobs is None and plain.text == mine.text
        assert mine.logprobs and all(lp <= 1e-6 for lp in mine.logprobs)
        assert theirs.logprobs is not None and theirs.text == mine.text
        # The same weights and greedy decoding: the same tokens, about the same numbers.
        assert len(theirs.logprobs) == len(mine.logprobs)
        assert mine.logprobs == pytest.approx(theirs.logprobs, abs=0.05)

    asyncio.run(run())
