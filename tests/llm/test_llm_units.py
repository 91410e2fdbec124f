"""Fast unit tests of the LLM layer's pure parts: specs, choices, Retry-After, batch helpers."""

from __future__ import annotations

import asyncio
import email.utils
from collections.abc import Sequence

import pytest

from ragmeter.errors import BackendError, ConfigError, UnknownComponentError
from ragmeter.llm import ChatMessage, GenerationSettings, generate_many, map_bounded, parse_spec
from ragmeter.llm.catalog import DEFAULT_MODEL, catalog, get_model_spec
from ragmeter.llm.choices import (
    VerdictParseError,
    check_choices,
    normalise,
    parse_verdict,
    variants,
)
from ragmeter.llm.openai_compat import _masses, retry_after_seconds
from ragmeter.llm.protocol import ChoiceProbabilities, Completion


def test_parse_spec_kinds() -> None:
    assert parse_spec("local") == ("local", None)
    assert parse_spec("llamacpp:smollm2-135m-instruct") == ("llamacpp", "smollm2-135m-instruct")
    assert parse_spec("openai:qwen2.5:1.5b@http://127.0.0.1:11434/v1") == (
        "openai",
        "qwen2.5:1.5b@http://127.0.0.1:11434/v1",
    )
    assert parse_spec("/models/x.gguf") == ("llamacpp", "/models/x.gguf")
    assert parse_spec(DEFAULT_MODEL) == ("llamacpp", DEFAULT_MODEL)


def test_parse_spec_unknown_kind_suggests() -> None:
    with pytest.raises(UnknownComponentError, match="did you mean 'openai'"):
        parse_spec("opena:gpt@http://x")
    with pytest.raises(ConfigError):
        parse_spec("  ")


def test_load_llm_rejects_unknown_options() -> None:
    from ragmeter.llm import load_llm

    with pytest.raises(ConfigError, match="unknown option"):
        load_llm("openai:m@http://127.0.0.1:9/v1", temprature=0.3)
    with pytest.raises(ConfigError, match="needs a model"):
        load_llm("openai:")


def test_catalog_entries_are_complete() -> None:
    models = catalog()
    assert DEFAULT_MODEL in models and "smollm2-135m-instruct" in models
    for spec in models.values():
        assert spec.wheels and spec.urls
    with pytest.raises(UnknownComponentError, match="did you mean"):
        get_model_spec("smollm2-135m")


def test_choice_helpers() -> None:
    assert variants("yes") == ["yes", "Yes", "YES"]
    assert check_choices([" yes", "no "]) == ["yes", "no"]
    with pytest.raises(ConfigError):
        check_choices(["yes"])
    with pytest.raises(ConfigError):
        check_choices(["Yes", "yes"])
    probs, mass = normalise({"yes": 0.3, "no": 0.1})
    assert probs == pytest.approx({"yes": 0.75, "no": 0.25}) and mass == pytest.approx(0.4)
    with pytest.raises(BackendError):
        normalise({"yes": 0.0, "no": 0.0})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Yes.", "yes"),
        ("no, it does not", "no"),
        ("The answer is: NO", "no"),
        ("not enough information here", "not enough information"),
    ],
)
def test_parse_verdict(text: str, expected: str) -> None:
    assert parse_verdict(text, ["yes", "no", "not enough information"]) == expected


def test_parse_verdict_refuses_to_guess() -> None:
    with pytest.raises(VerdictParseError):
        parse_verdict("Maybe.", ["yes", "no"])
    with pytest.raises(VerdictParseError):
        parse_verdict("It could be yes or no.", ["yes", "no"])


def test_logprob_masses_count_spellings_and_prefixes() -> None:
    top = [("Yes", -0.1), (" yes", -3.0), ("No", -2.5), ("part", -4.0), ("The", -5.0)]
    raw = _masses(top, ["yes", "no", "partially"])
    assert raw["yes"] == pytest.approx(2.718281828**-0.1 + 2.718281828**-3.0)
    assert raw["no"] == pytest.approx(2.718281828**-2.5)
    assert raw["partially"] == pytest.approx(2.718281828**-4.0)


def test_retry_after_parsing() -> None:
    assert retry_after_seconds("3") == 3.0
    assert retry_after_seconds("0.5") == 0.5
    assert retry_after_seconds(None) is None
    assert retry_after_seconds("soon") is None
    date = email.utils.formatdate(1_000_010.0, usegmt=True)
    assert retry_after_seconds(date, now=1_000_000.0) == pytest.approx(10.0)
    assert retry_after_seconds(email.utils.formatdate(5.0, usegmt=True), now=100.0) == 0.0


def test_settings_determinism() -> None:
    assert GenerationSettings().deterministic
    assert GenerationSettings(temperature=0.7, seed=3).deterministic
    assert not GenerationSettings(temperature=0.7).deterministic
    assert ChoiceProbabilities(probs={"a": 0.2, "b": 0.8}, method="logits").best() == "b"


class _EchoLLM:
    """An in-process fake for the batch helpers: replies with the last message, slowly."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.max_in_flight = 0

    @property
    def identity(self) -> str:
        return "fake:echo"

    async def generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        await asyncio.sleep(0.01)
        self.in_flight -= 1
        if messages[-1].content == "boom":
            raise BackendError("boom")
        return Completion(text=messages[-1].content)

    async def choice_probabilities(
        self, messages: Sequence[ChatMessage], choices: Sequence[str]
    ) -> ChoiceProbabilities:
        raise NotImplementedError

    async def aclose(self) -> None:
        return None


def test_generate_many_keeps_order_and_bounds_concurrency() -> None:
    fake = _EchoLLM()
    convs = [[ChatMessage(role="user", content=str(i))] for i in range(12)]
    out = asyncio.run(generate_many(fake, convs, GenerationSettings(), concurrency=3))
    assert [c.text for c in out] == [str(i) for i in range(12)]
    assert fake.max_in_flight == 3


def test_map_bounded_raises_first_failure() -> None:
    fake = _EchoLLM()
    convs = [[ChatMessage(role="user", content=t)] for t in ("a", "boom", "c")]
    with pytest.raises(BackendError, match="boom"):
        asyncio.run(generate_many(fake, convs, GenerationSettings(), concurrency=2))
    with pytest.raises(ConfigError):
        asyncio.run(map_bounded(asyncio.sleep, [0.0], 0))
