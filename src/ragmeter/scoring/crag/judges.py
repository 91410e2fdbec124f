"""Build judges from a spec: ``rules``, ``local``, ``openai:MODEL@BASE_URL``, or several.

``rules`` means no judge (rules only, approximate). Any other spec is a
comma-separated list of LLM specs (`ragmeter.llm.load_llm`); several judges
vote by majority. Judges share the persistent response cache by default, so
re-scoring replays verdicts (with their rationales) without calling a model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragmeter.errors import ConfigError
from ragmeter.llm.protocol import LLM
from ragmeter.scoring.crag.judge import JudgePrompt, LLMJudge

__all__ = ["RULES", "JudgePanel", "build_judges", "parse_judge_spec"]

RULES = "rules"


def parse_judge_spec(spec: str) -> list[str]:
    """The LLM specs of a judge spec; empty for ``rules``."""
    parts = [p.strip() for p in spec.split(",")]
    if not spec.strip() or any(not p for p in parts):
        raise ConfigError(f"empty judge in '{spec}' (try 'rules', 'local' or 'openai:MODEL@URL')")
    if RULES in parts:
        if len(parts) > 1:
            raise ConfigError("'rules' means no judge and cannot be combined with LLM judges")
        return []
    return parts


@dataclass
class JudgePanel:
    """The judges of a spec and the LLMs behind them (to close when done)."""

    spec: str
    judges: list[LLMJudge] = field(default_factory=list)
    llms: list[LLM] = field(default_factory=list)

    @property
    def identities(self) -> list[str]:
        """The identity of each judge (model + prompt fingerprint)."""
        return [j.identity for j in self.judges]

    async def aclose(self) -> None:
        """Release every model or connection."""
        for llm in self.llms:
            await llm.aclose()


def build_judges(
    spec: str,
    *,
    cache: bool | str | Path | Any = True,
    prompt: JudgePrompt | None = None,
    retries: int = 2,
    **llm_options: Any,
) -> JudgePanel:
    """Create the judges of ``spec``; ``cache`` is passed to `ragmeter.llm.load_llm`."""
    from ragmeter.llm.factory import load_llm

    panel = JudgePanel(spec=spec)
    prompt = prompt or JudgePrompt.builtin()
    for part in parse_judge_spec(spec):
        llm = load_llm(part, cache=cache, **llm_options)
        panel.llms.append(llm)
        panel.judges.append(LLMJudge(llm, part, prompt, retries=retries))
    return panel
