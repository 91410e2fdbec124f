"""An in-process scripted LLM for fast unit tests of the judge path.

The real local model is exercised by the tests marked ``model``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ragmeter.errors import BackendError
from ragmeter.llm.protocol import ChatMessage, ChoiceProbabilities, Completion, GenerationSettings


class ScriptedLLM:
    """Replies ``reply(last_user_message, settings)``; a reply ``"!fail"`` raises BackendError."""

    def __init__(self, reply: Callable[[str, GenerationSettings], str], name: str = "scripted"):
        self.reply = reply
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
        text = self.reply(messages[-1].content, GenerationSettings())
        probs = {c: (1.0 if c == text else 0.0) for c in choices}
        return ChoiceProbabilities(probs=probs, method="parsed")

    async def aclose(self) -> None:
        self.closed = True


def field(user: str, name: str) -> str:
    """A field of the judge's user message (``Predicted answer: ...``)."""
    for line in user.splitlines():
        if line.startswith(name + ":"):
            return line.split(":", 1)[1].strip()
    raise KeyError(name)
