"""The LLM protocol every backend implements.

Callers (pipelines, judges, NLI) depend only on this module; backends live in
their own modules and are created by name through `ragmeter.llm.load_llm`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol, runtime_checkable

from pydantic import Field

from ragmeter.types import Record, Usage

Role = Literal["system", "user", "assistant", "tool"]


class ChatMessage(Record):
    """One chat message."""

    role: Role
    content: str


class GenerationSettings(Record):
    """Every setting that changes a model's output (and so belongs in a cache key)."""

    max_tokens: int = 256
    temperature: float = 0.0
    top_p: float = 1.0
    stop: list[str] = Field(default_factory=list)
    seed: int | None = None
    json_output: bool = False
    logprobs: bool = False
    """Return the log-probability of each generated token (`Completion.logprobs`)."""

    @property
    def deterministic(self) -> bool:
        """Greedy decoding, or sampling pinned by a seed: safe to cache."""
        return self.temperature == 0.0 or self.seed is not None


class Completion(Record):
    """A generated reply with its cost."""

    text: str
    finish_reason: str | None = None
    usage: Usage = Field(default_factory=Usage)
    latency_s: float = 0.0
    cached: bool = False
    logprobs: list[float] | None = None
    """Log-probability of each generated token, when asked for and the backend gives them."""


class ChoiceProbabilities(Record):
    """Probabilities of a few candidate next words (e.g. "yes" / "no").

    ``method`` says how they were obtained: from the model's logits, from a
    server's ``logprobs``, or, where neither is offered, by parsing a generated
    verdict (a one-hot guess recorded as such).
    """

    probs: dict[str, float]
    method: Literal["logits", "logprobs", "parsed"]
    mass: float | None = None
    """Total probability the model put on the choices before normalising (None when parsed):
    a low mass means the model wanted to say something else."""
    reply: str | None = None
    """The generated verdict, for ``parsed``."""
    usage: Usage = Field(default_factory=Usage)
    cached: bool = False

    def best(self) -> str:
        """The most probable choice."""
        return max(self.probs, key=lambda k: self.probs[k])


@runtime_checkable
class LLM(Protocol):
    """An asynchronous chat model."""

    @property
    def identity(self) -> str:
        """What makes this model's output what it is: weights sha256, or server URL + model."""
        ...

    async def generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        """Generate one reply to ``messages``."""
        ...

    async def choice_probabilities(
        self, messages: Sequence[ChatMessage], choices: Sequence[str]
    ) -> ChoiceProbabilities:
        """Probability that the reply starts with each of ``choices``, normalised over them."""
        ...

    async def aclose(self) -> None:
        """Release connections or model memory."""
        ...
