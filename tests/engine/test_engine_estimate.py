"""``ragmeter run --dry-run``: tokens from the real prompts, timed calls, prices; no writes."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from cli_helpers import run_cli
from ragmeter.config import parse_run_spec
from ragmeter.engine.estimate import estimate_run, estimate_table
from ragmeter.llm.protocol import ChatMessage, ChoiceProbabilities, Completion, GenerationSettings
from ragmeter.types import Usage

REPO = Path(__file__).resolve().parents[2]
USERDEFS = REPO / "tests" / "engine" / "engine_userdefs.py"


class CountingLLM:
    """A fake model with a tokenizer (one token per word) that answers in three tokens."""

    identity = "fake:counting"

    def __init__(self) -> None:
        self.generated = 0

    def prompt_tokens(self, messages: Sequence[ChatMessage]) -> list[int]:
        return [0] * sum(len(m.content.split()) + 4 for m in messages)

    async def generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        self.generated += 1
        usage = Usage(prompt_tokens=len(self.prompt_tokens(messages)), completion_tokens=3)
        return Completion(text="paris is it", usage=usage)

    async def choice_probabilities(
        self, messages: Sequence[ChatMessage], choices: Sequence[str]
    ) -> ChoiceProbabilities:
        raise NotImplementedError

    async def aclose(self) -> None:
        return None


def _spec(data: Path, pipeline: str = "name: llm_only") -> str:
    return f"""\
name: est
data: {{path: {data}}}
pipeline:
  {pipeline}
scoring: {{judge: null}}
prices:
  answer: {{input: 2.0, output: 10.0}}
"""


def test_estimate_multiplies_the_sample_by_the_selection(crag_sample: Path, tmp_path: Path) -> None:
    llm = CountingLLM()
    loaded = parse_run_spec(_spec(crag_sample), str(tmp_path / "spec.yaml"))
    estimate = estimate_run(loaded, prompt_sample=4, timed=2, loader=lambda spec: llm)
    assert estimate.questions == 10 and estimate.prompt_sample == 4 and estimate.timed == 2
    assert estimate.tokenizer == "model"
    assert llm.generated == 2  # only the timed questions computed anything
    per_question = estimate.per_question["answering"]
    assert per_question.completion_tokens == 3
    answering = estimate.usage.stages["answering"]
    assert answering.prompt_tokens == 10 * per_question.prompt_tokens
    assert answering.completion_tokens == 30
    assert answering.cost == pytest.approx((answering.prompt_tokens * 2 + 30 * 10) / 1e6)
    assert estimate.usage.currency == "USD"
    assert estimate.wall_seconds is not None and estimate.parallel == 1
    assert "counted with the model's tokenizer" in estimate_table(estimate)
    assert list(tmp_path.iterdir()) == []


def test_without_a_tokenizer_the_timed_counts_are_used(crag_sample: Path, tmp_path: Path) -> None:
    class NoTokenizer(CountingLLM):
        prompt_tokens = None  # type: ignore[assignment]

        async def generate(
            self, messages: Sequence[ChatMessage], settings: GenerationSettings
        ) -> Completion:
            return Completion(text="x", usage=Usage(prompt_tokens=500, completion_tokens=2))

    loaded = parse_run_spec(_spec(crag_sample), "spec.yaml")
    estimate = estimate_run(loaded, prompt_sample=3, timed=1, loader=lambda spec: NoTokenizer())
    assert estimate.tokenizer == "measured"
    assert estimate.usage.stages["answering"].prompt_tokens == 5000
    none = estimate_run(loaded, prompt_sample=3, timed=0, loader=lambda spec: NoTokenizer())
    assert none.tokenizer == "approximate" and none.wall_seconds is None


def test_dry_run_command_writes_nothing(crag_sample: Path, tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        _spec(crag_sample, f"name: callable\n  options: {{target: '{USERDEFS}:gold_answer'}}")
    )
    before = sorted(os.listdir(tmp_path))
    result = run_cli("run", str(spec), "--dry-run", "--dry-run-calls", "2")
    assert result.returncode == 0, result.stderr
    assert "10 questions selected; nothing was written" in result.stdout
    assert "none sent through ragmeter" in result.stdout
    assert sorted(os.listdir(tmp_path)) == before
    missing_out = run_cli("run", str(spec))
    assert missing_out.returncode == 2 and "needs --out" in missing_out.stderr
