"""Natural-language inference: the probability that a premise entails a claim.

Any `ragmeter.llm.LLM` becomes an entailment classifier: it is asked whether a
statement is fully supported by a source text and the probabilities of its
next word being "yes" or "no" are read (`LLM.choice_probabilities`). By
default that is the local model in process; any OpenAI-compatible server works
too (``openai:MODEL@URL``).

Cost matters on a CPU, so:

- the prompt (``data/nli_prompt.json``) puts the premise first and the claim
  last, and a batch is evaluated grouped by premise, so an in-process model
  reuses the premise's key-value cache for every claim about it;
- identical (premise, claim) pairs are computed once per `NLI` object, and a
  persistent response cache can sit under the LLM (``load_nli(cache=...)``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ragmeter.errors import ConfigError
from ragmeter.llm.batch import map_bounded
from ragmeter.llm.protocol import LLM, ChatMessage
from ragmeter.types import Record

__all__ = [
    "DEFAULT_MAX_PREMISE_CHARS",
    "NLI",
    "NLIPrompt",
    "NLIStats",
    "default_prompt",
    "load_nli",
]

_DATA = Path(__file__).resolve().parent / "data"
DEFAULT_MAX_PREMISE_CHARS = 12_000
"""About 3,000 tokens: long enough for five ALCE passages, short of an 8k context."""
_YES, _NO = "yes", "no"


class NLIPrompt(Record):
    """The classifier prompt: a system message and a user template with {premise} and {claim}."""

    system: str
    user: str

    def messages(self, premise: str, claim: str) -> list[ChatMessage]:
        """The chat for one (premise, claim) pair."""
        # str.replace, not str.format: premises hold braces often enough.
        text = self.user.replace("{premise}", premise).replace("{claim}", claim)
        return [
            ChatMessage(role="system", content=self.system),
            ChatMessage(role="user", content=text),
        ]

    @classmethod
    def from_file(cls, path: str | Path) -> NLIPrompt:
        """Read a prompt file (JSON with ``system`` and ``user``)."""
        p = Path(path)
        try:
            raw = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ConfigError(f"cannot read NLI prompt {p}: {exc}") from exc
        prompt = cls.model_validate(raw)
        for slot in ("{premise}", "{claim}"):
            if slot not in prompt.user:
                raise ConfigError(f"NLI prompt {p}: the user template lacks {slot}")
        return prompt


@lru_cache(maxsize=1)
def default_prompt() -> NLIPrompt:
    """The built-in prompt (``scoring/data/nli_prompt.json``)."""
    return NLIPrompt.from_file(_DATA / "nli_prompt.json")


@dataclass
class NLIStats:
    """What an `NLI` object has done: pairs asked, model calls made, premises cut short."""

    pairs: int = 0
    model_calls: int = 0
    cached_calls: int = 0
    """Model calls answered by the persistent response cache."""
    truncated_premises: int = 0
    prompt_tokens: int = 0
    methods: dict[str, int] = field(default_factory=dict)


class NLI:
    """Entailment probabilities from an LLM used as a yes/no classifier.

    ``threshold`` turns a probability into a verdict (`entails`). Premises
    longer than ``max_premise_chars`` are cut (and counted in `stats`).
    """

    def __init__(
        self,
        llm: LLM,
        *,
        prompt: NLIPrompt | None = None,
        threshold: float = 0.5,
        concurrency: int = 4,
        max_premise_chars: int = DEFAULT_MAX_PREMISE_CHARS,
    ):
        if not 0.0 < threshold < 1.0:
            raise ConfigError(f"NLI threshold must be strictly between 0 and 1, got {threshold}")
        if max_premise_chars < 100:
            raise ConfigError(f"max_premise_chars must be at least 100, got {max_premise_chars}")
        self.llm = llm
        self.prompt = prompt or default_prompt()
        self.threshold = threshold
        self.concurrency = concurrency
        self.max_premise_chars = max_premise_chars
        self.stats = NLIStats()
        self._memo: dict[tuple[str, str], float] = {}

    @property
    def identity(self) -> str:
        """The model identity: part of any cache key built on these probabilities."""
        return self.llm.identity

    def entails(self, probability: float) -> bool:
        """The verdict for a probability: entailed when at least the threshold."""
        return probability >= self.threshold

    def _premise(self, premise: str) -> str:
        text = premise.strip()
        if len(text) > self.max_premise_chars:
            self.stats.truncated_premises += 1
            text = text[: self.max_premise_chars]
        return text

    async def _one(self, pair: tuple[str, str]) -> float:
        premise, claim = pair
        result = await self.llm.choice_probabilities(
            self.prompt.messages(premise, claim), [_YES, _NO]
        )
        self.stats.model_calls += 1
        self.stats.cached_calls += int(result.cached)
        self.stats.prompt_tokens += result.usage.prompt_tokens
        self.stats.methods[result.method] = self.stats.methods.get(result.method, 0) + 1
        return float(result.probs[_YES])

    async def probabilities(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """P(premise entails claim) for each (premise, claim) pair, in input order.

        An empty claim is entailed by anything (probability 1); a non-empty
        claim is not entailed by an empty premise (probability 0). Neither
        calls the model.
        """
        self.stats.pairs += len(pairs)
        keys: list[tuple[str, str]] = []
        todo: dict[tuple[str, str], None] = {}
        for premise, claim in pairs:
            key = (self._premise(premise), " ".join(claim.split()))
            keys.append(key)
            if key in self._memo or key in todo:
                continue
            if not key[1]:
                self._memo[key] = 1.0
            elif not key[0]:
                self._memo[key] = 0.0
            else:
                todo[key] = None
        # Grouped by premise (stable), so consecutive prompts share their longest prefix.
        order = sorted(todo, key=lambda k: k[0])
        if order:
            probs = await map_bounded(self._one, order, self.concurrency)
            self._memo.update(zip(order, probs, strict=True))
        return [self._memo[k] for k in keys]

    async def probability(self, premise: str, claim: str) -> float:
        """P(premise entails claim) for one pair."""
        return (await self.probabilities([(premise, claim)]))[0]

    async def aclose(self) -> None:
        """Release the underlying model."""
        await self.llm.aclose()


def load_nli(
    spec: str = "local",
    *,
    cache: Any = True,
    threshold: float = 0.5,
    concurrency: int = 4,
    prompt_file: str | Path | None = None,
    **options: Any,
) -> NLI:
    """An `NLI` over the model named by ``spec`` (see `ragmeter.llm.load_llm`).

    ``cache`` is passed to `load_llm`: True for the user response cache, a path,
    or False. ``options`` go to the backend (e.g. ``n_ctx``).
    """
    from ragmeter.llm import load_llm

    llm = load_llm(spec, cache=cache, **options)
    prompt = NLIPrompt.from_file(prompt_file) if prompt_file is not None else None
    return NLI(llm, prompt=prompt, threshold=threshold, concurrency=concurrency)
