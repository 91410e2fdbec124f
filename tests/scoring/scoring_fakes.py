"""An in-process scripted LLM for fast unit tests of the judge path.

The real local model is exercised by the tests marked ``model``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ragmeter.errors import BackendError
from ragmeter.llm.protocol import ChatMessage, ChoiceProbabilities, Completion, GenerationSettings

ANSWERED_QUESTION = "Does the reply give an answer to the question?"
"""How the judge asks whether a reply answers at all (after no gold was found in it)."""


class ScriptedLLM:
    """Replies ``reply(last_user_message, settings)``; a reply ``"!fail"`` raises BackendError.

    The judge's question whether a reply answers at all goes to ``answered`` instead, which
    says yes unless a test gives its own: most scripts are about the gold."""

    def __init__(
        self,
        reply: Callable[[str, GenerationSettings], str],
        name: str = "scripted",
        *,
        answered: Callable[[str], str] = lambda user: "yes",
    ):
        self.reply = reply
        self.answered = answered
        self.name = name
        self.calls: list[tuple[str, GenerationSettings]] = []
        self.closed = False

    @property
    def identity(self) -> str:
        return f"fake:{self.name}"

    async def generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        user = messages[-1].content
        self.calls.append((user, settings))
        text = self.reply(user, settings)
        if text == "!fail":
            raise BackendError("server said no")
        return Completion(text=text)

    async def choice_probabilities(
        self, messages: Sequence[ChatMessage], choices: Sequence[str]
    ) -> ChoiceProbabilities:
        user = messages[-1].content
        self.calls.append((user, GenerationSettings(max_tokens=1)))
        if ANSWERED_QUESTION in user:
            text = self.answered(user)
        else:
            text = self.reply(user, GenerationSettings())
        if text == "!fail" or text not in choices:
            # As a backend whose one-word reply names no choice (VerdictParseError).
            raise BackendError(f"server said no: {text!r}")
        probs = {c: (1.0 if c == text else 0.0) for c in choices}
        return ChoiceProbabilities(probs=probs, method="parsed", reply=text)

    async def aclose(self) -> None:
        self.closed = True


_QUOTED = re.compile(r"<<(QUOTE-[0-9A-F]+)>>\n(.*)\n<<END-\1>>", re.DOTALL)


def field(user: str, name: str) -> str:
    """A field of the judge's user message (``True answer``...); ``Predicted answer`` is the
    text quoted between the boundary markers."""
    if name == "Predicted answer":
        m = _QUOTED.search(user)
        if m is None:
            raise KeyError(name)
        return m.group(2)
    for line in user.splitlines():
        if line.startswith(name + ":"):
            return line.split(":", 1)[1].strip()
    raise KeyError(name)


class WordOverlapLLM:
    """Fake NLI classifier: P(yes) is the share of the statement's words found in the source.

    The NLI prompt puts the source between triple quotes and the claim after ``Statement:``.
    """

    identity = "fake:word-overlap"

    def __init__(self) -> None:
        self.calls: list[str] = []

    def p_yes(self, words: list[str], source: set[str]) -> float:
        """Probability of "yes" for a claim's words against the source's words."""
        return min(max(sum(w in source for w in words) / len(words), 0.01), 0.99)

    async def generate(
        self, messages: Sequence[ChatMessage], settings: GenerationSettings
    ) -> Completion:
        raise NotImplementedError("the NLI never generates")

    async def choice_probabilities(
        self, messages: Sequence[ChatMessage], choices: Sequence[str]
    ) -> ChoiceProbabilities:
        text = messages[-1].content
        self.calls.append(text)
        source = set(re.findall(r"\w+", text.split('"""')[1].lower()))
        claim = re.search(r"Statement: (.*)", text)
        assert claim is not None
        p = self.p_yes(re.findall(r"\w+", claim.group(1).lower()), source)
        return ChoiceProbabilities(probs={"yes": p, "no": 1 - p}, method="logits")

    async def aclose(self) -> None:
        return None


class AllWordsLLM(WordOverlapLLM):
    """Fake NLI classifier: "yes" exactly when every word of the statement is in the source."""

    identity = "fake:all-words"

    def p_yes(self, words: list[str], source: set[str]) -> float:
        return 0.99 if all(w in source for w in words) else 0.01
