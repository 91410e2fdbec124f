"""Prompt templates kept as YAML data files beside the pipelines (``prompts/NAME.yaml``).

A template has a ``system`` and a ``user`` text with ``{placeholders}``; users
may point a pipeline at their own file with the same two keys.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from ragmeter.config import load_yaml_strict, validate_model
from ragmeter.errors import ConfigError
from ragmeter.llm.protocol import ChatMessage


class PromptTemplate(BaseModel):
    """A chat prompt: a system message and a user message template."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    system: str
    user: str

    def messages(self, **values: Any) -> list[ChatMessage]:
        """The chat messages with ``values`` filled in."""
        try:
            return [
                ChatMessage(role="system", content=self.system.format(**values).strip()),
                ChatMessage(role="user", content=self.user.format(**values).strip()),
            ]
        except KeyError as exc:
            raise ConfigError(f"prompt template needs a value for {exc}") from None


@lru_cache(maxsize=32)
def _builtin(name: str) -> PromptTemplate:
    path = resources.files("ragmeter.pipelines").joinpath("prompts", f"{name}.yaml")
    source = f"ragmeter/pipelines/prompts/{name}.yaml"
    return validate_model(PromptTemplate, load_yaml_strict(path.read_text("utf-8"), source), source)


def load_prompt(name: str, override: str | None = None) -> PromptTemplate:
    """The built-in prompt ``name``, or the YAML file ``override`` when given."""
    if override is None:
        return _builtin(name)
    p = Path(override)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read prompt: {exc.strerror}") from None
    return validate_model(PromptTemplate, load_yaml_strict(text, str(p)), str(p))
