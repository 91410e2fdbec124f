"""LLM backends behind one protocol (see `ragmeter.llm.protocol`).

``load_llm("local")`` gives the in-process default model; ``load_llm("openai:MODEL@URL")``
any OpenAI-compatible server. Heavy backends are imported only when used.
"""

from ragmeter.llm.batch import choice_probabilities_many, generate_many, map_bounded, user
from ragmeter.llm.factory import LLM_BACKENDS, load_llm, parse_spec
from ragmeter.llm.protocol import (
    LLM,
    ChatMessage,
    ChoiceProbabilities,
    Completion,
    GenerationSettings,
)

__all__ = [
    "LLM",
    "LLM_BACKENDS",
    "ChatMessage",
    "ChoiceProbabilities",
    "Completion",
    "GenerationSettings",
    "choice_probabilities_many",
    "generate_many",
    "load_llm",
    "map_bounded",
    "parse_spec",
    "user",
]
