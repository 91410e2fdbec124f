"""NLI: prompt, batching, memo and edge cases with a fake; entailment with the real model."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from scoring_fakes import WordOverlapLLM

from live_servers import start_llama_server, stop_process
from ragmeter.errors import ConfigError
from ragmeter.scoring.attribution.nli import NLI, NLIPrompt, default_prompt, load_nli


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def test_prompt_puts_premise_before_claim_and_keeps_braces() -> None:
    msgs = default_prompt().messages("A {braced} source.", "A claim.")
    assert msgs[0].role == "system" and msgs[1].role == "user"
    user = msgs[1].content
    assert "A {braced} source." in user
    assert user.index("A {braced} source.") < user.index("A claim.")


def test_probabilities_keep_order_dedupe_and_group_by_premise() -> None:
    llm = WordOverlapLLM()
    nli = NLI(llm)
    pairs = [
        ("beta source text", "beta text"),
        ("alpha source", "alpha"),
        ("beta source text", "gamma"),
        ("alpha source", "alpha"),  # duplicate: computed once
    ]
    probs = run(nli.probabilities(pairs))
    assert probs[0] == pytest.approx(0.99)
    assert probs[1] == pytest.approx(0.99)
    assert probs[2] == pytest.approx(0.01)
    assert probs[3] == probs[1]
    assert len(llm.calls) == 3
    # Calls are grouped by premise so a local model can reuse the premise's KV cache.
    premises = [c.split('"""')[1] for c in llm.calls]
    assert premises == sorted(premises)
    assert nli.stats.pairs == 4 and nli.stats.model_calls == 3
    # A second batch reuses the memo.
    run(nli.probabilities(pairs[:2]))
    assert len(llm.calls) == 3


def test_empty_claim_and_empty_premise_do_not_call_the_model() -> None:
    llm = WordOverlapLLM()
    nli = NLI(llm)
    assert run(nli.probabilities([("source", "  "), ("", "claim")])) == [1.0, 0.0]
    assert llm.calls == []


def test_long_premises_are_cut_and_counted() -> None:
    llm = WordOverlapLLM()
    nli = NLI(llm, max_premise_chars=200)
    run(nli.probability("word " * 100, "word"))
    assert nli.stats.truncated_premises == 1
    assert len(llm.calls[0].split('"""')[1].strip()) <= 200


def test_bad_settings_and_prompt_files_are_user_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError):
        NLI(WordOverlapLLM(), threshold=1.0)
    bad = tmp_path / "p.json"
    bad.write_text('{"system": "s", "user": "no slots"}', encoding="utf-8")
    with pytest.raises(ConfigError, match="premise"):
        NLIPrompt.from_file(bad)
    with pytest.raises(ConfigError):
        NLIPrompt.from_file(tmp_path / "missing.json")


@pytest.mark.model
def test_local_model_separates_entailed_from_unsupported_claims(tmp_path) -> None:  # type: ignore[no-untyped-def]
    premise = (
        "Bloom is the second studio album by Australian singer Troye Sivan, released on "
        "31 August 2018 through EMI Australia and Capitol Records."
    )
    entailed = ["Bloom was released in 2018.", "Troye Sivan is Australian."]
    not_entailed = ["Bloom was released in 2015.", "Bloom is Troye Sivan's first album."]

    async def go() -> list[float]:
        nli = load_nli("local", cache=tmp_path / "cache.sqlite")
        try:
            return await nli.probabilities([(premise, c) for c in entailed + not_entailed])
        finally:
            await nli.aclose()

    probs = run(go())
    assert all(p > 0.5 for p in probs[:2]), probs
    assert all(p < 0.5 for p in probs[2:]), probs


@pytest.mark.server
@pytest.mark.model
def test_nli_through_an_openai_compatible_server(tmp_path: Path) -> None:
    """The alternative backend: a real llama.cpp server on loopback (SmolLM2: plumbing only)."""
    from ragmeter.llm.weights import install

    model = install("smollm2-135m-instruct")
    proc, base = start_llama_server(model, "smollm2", tmp_path / "server.log")

    async def go() -> list[float]:
        nli = load_nli(f"openai:smollm2@{base}", cache=False)
        try:
            return await nli.probabilities(
                [("Paris is in France.", "Paris is in France."), ("Paris is in France.", "Cats.")]
            )
        finally:
            assert nli.stats.model_calls == 2
            assert set(nli.stats.methods) <= {"logprobs", "parsed"}
            await nli.aclose()

    try:
        probs = run(go())
    finally:
        stop_process(proc, timeout=20)
    assert all(0.0 <= p <= 1.0 for p in probs)
