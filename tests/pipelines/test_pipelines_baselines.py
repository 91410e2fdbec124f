"""The baseline pipelines: prompts, citations, KG calls, and real runs with a small model."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from ragmeter.config import ConcurrencySpec, parse_run_spec
from ragmeter.data.crag import read_crag
from ragmeter.engine.journal import read_journal
from ragmeter.engine.resources import EngineResources
from ragmeter.engine.runner import prepare, run
from ragmeter.llm.protocol import (
    ChatMessage,
    ChoiceProbabilities,
    Completion,
    GenerationSettings,
)
from ragmeter.pipelines.baselines import (
    RagKgOptions,
    RagKgPipeline,
    clean_answer,
    is_refusal,
    parse_citations,
)
from ragmeter.pipelines.prompts import load_prompt
from ragmeter.types import Usage

SMOL = "llamacpp:smollm2-135m-instruct"


def test_clean_answer_and_refusal() -> None:
    assert clean_answer("\n Answer: Paris\nBecause it is.") == "Paris"
    assert is_refusal("I don't know.") and is_refusal("i do not know")
    assert not is_refusal("I don't know who, but Paris")


def test_citations_per_sentence_are_zero_based_and_checked() -> None:
    text = "Paris is the capital [1][3]. It is large [2]. Cited nowhere [9]! Last one"
    sentences, cites = parse_citations(text, n_documents=3)
    assert sentences == [
        "Paris is the capital [1][3].",
        "It is large [2].",
        "Cited nowhere [9]!",
        "Last one",
    ]
    assert cites == [[0, 2], [1], [], []]


def test_prompts_put_the_query_time_in() -> None:
    for name in ("llm_only", "rag", "rag_kg"):
        msgs = load_prompt(name).messages(
            query="who won?", query_time="03/05/2024, 23:18:31 PT", context="[1] x", kg="(none)"
        )
        assert "03/05/2024, 23:18:31 PT" in msgs[1].content and "who won?" in msgs[1].content


class ScriptedLLM:
    """Replies with fixed text: a fast stand-in for the KG-call path (real model runs below)."""

    def __init__(self, reply: str, choice: str):
        self.reply = reply
        self.choice = choice
        self.calls: list[Sequence[ChatMessage]] = []

    @property
    def identity(self) -> str:
        return "scripted"

    async def generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        self.calls.append(messages)
        return Completion(text=self.reply, usage=Usage(prompt_tokens=10, completion_tokens=5))

    async def choice_probabilities(
        self, messages: Sequence[ChatMessage], choices: Sequence[str]
    ) -> ChoiceProbabilities:
        return ChoiceProbabilities(
            probs={c: float(c == self.choice) for c in choices}, method="parsed"
        )

    async def aclose(self) -> None:
        return None


@pytest.mark.server
def test_rag_kg_calls_the_real_kg_server(
    crag_sample: Path, pipeline_kg_server: str, text_cache_dir: Path
) -> None:
    reply = (
        '{"calls": [{"name": "finance_get_eps", "arguments": {"query": "META"}}, '
        '{"name": "finance_get_eps", "arguments": {"query": "NOSUCHTICKER"}}, '
        '{"name": "no_such_tool", "arguments": {}}]}'
    )
    llm = ScriptedLLM(reply, "finance")
    resources = EngineResources(
        answer_llm="scripted",
        generation=GenerationSettings(max_tokens=16),
        concurrency=ConcurrencySpec(),
        loader=lambda spec: llm,
    )
    question = next(read_crag(crag_sample))
    pipeline = RagKgPipeline(RagKgOptions(kg_url=pipeline_kg_server, max_calls=3), resources)

    async def go():  # type: ignore[no-untyped-def]
        try:
            return await pipeline.answer(question)
        finally:
            await pipeline.aclose()

    answer = asyncio.run(go())
    calls = answer.extras["kg_calls"]
    assert answer.extras["kg_domain"] == "finance"
    assert calls[0].get("result_chars", 0) > 0 and "error" not in calls[0]
    # An unknown ticker finds nothing (the official API answers null); a bad call is logged.
    assert calls[1].get("result_chars") == len("null")
    assert "no_such_tool" in calls[2]["error"]
    # The answering prompt holds the KG result and the retrieved passages.
    final = llm.calls[-1][1].content
    assert "finance_get_eps" in final and "[1]" in final
    assert answer.retrieved and {"kg", "extraction", "retrieval", "generation"} <= set(
        answer.stages
    )


def _run(text: str, out: Path, sets: list[str]):  # type: ignore[no-untyped-def]
    return run(prepare(parse_run_spec(text, "spec.yaml", sets), out))


@pytest.mark.model
def test_rag_with_a_real_model(crag_sample: Path, tmp_path: Path, text_cache_dir: Path) -> None:
    text = f"""\
name: rag-smol
data:
  path: {crag_sample}
pipeline:
  name: rag
  options:
    top_k: 3
llm: {SMOL}
llm_options:
  n_threads: 1
budget:
  time_per_question_s: 600
generation:
  max_tokens: 24
scoring:
  judge: {SMOL}
cache: false
"""
    results = _run(text, tmp_path / "run", ["data.limit=2"])
    records = read_journal(tmp_path / "run")
    assert len(records) == 2 and results.n == 2
    for r in records:
        assert r.error is None and r.answer is not None
        assert len(r.answer.retrieved) == 3
        scores = [c.score for c in r.answer.retrieved]
        assert scores == sorted(scores, reverse=True)
        gen = r.stages["generation"]
        assert gen.usage.prompt_tokens > 0 and gen.usage.completion_tokens > 0
        assert {"extraction", "retrieval", "judging"} <= set(r.stages)
        assert r.label in ("correct", "incorrect", "missing", "unscored")


@pytest.mark.model
def test_llm_only_with_a_real_model(crag_validation: Path, tmp_path: Path) -> None:
    text = f"""\
name: closed-book
data:
  path: {crag_validation}
pipeline:
  name: llm_only
llm: {SMOL}
llm_options:
  n_threads: 1
budget:
  time_per_question_s: 600
generation:
  max_tokens: 16
scoring:
  judge: null
cache: false
"""
    _run(text, tmp_path / "run", ["data.limit=2"])
    records = read_journal(tmp_path / "run")
    assert len(records) == 2
    assert all(r.answer and r.stages["generation"].usage.completion_tokens > 0 for r in records)


@pytest.mark.model
@pytest.mark.server
def test_rag_kg_with_a_real_model(
    crag_sample: Path, tmp_path: Path, pipeline_kg_server: str, text_cache_dir: Path
) -> None:
    text = f"""\
name: kg-smol
data:
  path: {crag_sample}
pipeline:
  name: rag_kg
  options:
    kg_url: {pipeline_kg_server}
    top_k: 2
llm: {SMOL}
llm_options:
  n_threads: 1
budget:
  time_per_question_s: 600
generation:
  max_tokens: 16
scoring:
  judge: null
cache: false
"""
    _run(text, tmp_path / "run", ["data.limit=2"])
    for r in read_journal(tmp_path / "run"):
        assert r.error is None and r.answer is not None
        assert r.answer.extras["kg_domain"] in ("finance", "sports", "music", "movie", "open")
        assert isinstance(r.answer.extras["kg_calls"], list)
        assert r.stages["kg"].usage.prompt_tokens > 0


@pytest.mark.model
def test_cited_with_a_real_model(mirror_file, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    demos = mirror_file("alce/demos/asqa_default.json")
    text = f"""\
name: cited-smol
data:
  path: {demos}
  format: alce
pipeline:
  name: cited
  options:
    max_documents: 3
llm: {SMOL}
llm_options:
  n_threads: 1
budget:
  time_per_question_s: 600
generation:
  max_tokens: 48
scoring:
  scorer: trust
  judge: {SMOL}
cache: false
"""
    result = _run(text, tmp_path / "run", ["data.limit=2"])
    records = read_journal(tmp_path / "run")
    assert len(records) == 2 and result.n == 2
    for r in records:
        assert r.answer is not None and r.trust is not None
        assert r.answer.extras["documents_shown"] == 3
        assert len(r.answer.citations) == len(r.answer.extras["sentences"])
    assert (tmp_path / "run" / "results.json").exists()


def test_stage_usage_counts_only_computed_tokens() -> None:
    """A reply from the response cache adds its time but no tokens to the stage."""
    from ragmeter.llm.protocol import Completion
    from ragmeter.pipelines.base import StageClock
    from ragmeter.types import Usage

    clock = StageClock()
    spent = Usage(prompt_tokens=600, completion_tokens=5)
    clock.add_completion("generation", Completion(text="a", usage=spent))
    clock.add_completion("generation", Completion(text="b", usage=spent, cached=True))
    clock.add_usage("kg", spent, cached=True)
    assert clock.stages["generation"].usage == spent
    assert clock.stages["kg"].usage == Usage()
