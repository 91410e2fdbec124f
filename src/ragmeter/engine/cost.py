"""Tokens and money per stage of a run: answering, judging, NLI.

A record's stages say what the models computed for it (replies from the response
cache count nothing). The pipeline's own stages (extraction, retrieval, kg,
generation...) add up to *answering*; the scorer's ``judging`` stage is the CRAG
judge, or for the ``trust`` scorer the NLI model. Each role is priced with the
spec's ``prices`` (per million tokens) when it has one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import Field

from ragmeter.config import PricesSpec, TokenPrice
from ragmeter.scoring.crag.records import ScoredSample
from ragmeter.types import Record, StageTiming, Usage

__all__ = [
    "ROLE_OF_STAGE",
    "STAGES",
    "USAGE_KEY",
    "RunUsage",
    "StageUsage",
    "price_usage",
    "read_usage",
    "run_usage",
    "usage_table",
]

USAGE_KEY = "usage"
"""The key of the usage block in ``results.json``."""

STAGES = ("answering", "judging", "nli")
"""The stages a run's cost is reported by, in order."""

ROLE_OF_STAGE = {"answering": "answer", "judging": "judge", "nli": "nli"}
"""Which ``prices`` role pays for each stage."""

_SCORER_STAGE = "judging"
"""The name the engine gives the scorer's stage on every record."""


class StageUsage(Record):
    """Tokens of one stage over a run, and their cost when the stage's role has a price."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = None

    @property
    def tokens(self) -> int:
        """Prompt and completion tokens together."""
        return self.prompt_tokens + self.completion_tokens


class RunUsage(Record):
    """The ``usage`` block of ``results.json``: tokens and cost per stage, and their total."""

    stages: dict[str, StageUsage] = Field(default_factory=dict)
    total: StageUsage = Field(default_factory=StageUsage)
    currency: str | None = None
    """The unit of every ``cost`` (None when nothing is priced)."""
    prices: dict[str, TokenPrice] = Field(default_factory=dict)
    """The prices used, per role, per million tokens."""


def price_usage(usage: Usage, price: TokenPrice | None) -> float | None:
    """The cost of ``usage`` at ``price`` per million tokens (None without a price)."""
    if price is None:
        return None
    return (usage.prompt_tokens * price.input + usage.completion_tokens * price.output) / 1e6


def _price(prices: PricesSpec | None, role: str) -> TokenPrice | None:
    if prices is None:
        return None
    value = getattr(prices, role)
    return value if isinstance(value, TokenPrice) else None


def summarise(
    per_stage: Mapping[str, Usage], prices: PricesSpec | None, stages: Iterable[str] = STAGES
) -> RunUsage:
    """Price each stage's usage and add up the total (stages without tokens are left out)."""
    out: dict[str, StageUsage] = {}
    for stage in stages:
        usage = per_stage.get(stage)
        if usage is None or (usage.prompt_tokens == 0 and usage.completion_tokens == 0):
            continue
        out[stage] = StageUsage(
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            cost=price_usage(usage, _price(prices, ROLE_OF_STAGE[stage])),
        )
    costs = [s.cost for s in out.values() if s.cost is not None]
    priced = {r: p for r in ROLE_OF_STAGE.values() if (p := _price(prices, r)) is not None}
    return RunUsage(
        stages=out,
        total=StageUsage(
            prompt_tokens=sum(s.prompt_tokens for s in out.values()),
            completion_tokens=sum(s.completion_tokens for s in out.values()),
            cost=sum(costs) if costs else None,
        ),
        currency=prices.currency if prices is not None and priced else None,
        prices=priced,
    )


def record_stage_usage(stages: Mapping[str, StageTiming], scorer: str = "crag") -> dict[str, Usage]:
    """One record's tokens by cost stage: the pipeline's stages are answering."""
    scoring_stage = "nli" if scorer == "trust" else "judging"
    out: dict[str, Usage] = {}
    for name, timing in stages.items():
        stage = scoring_stage if name == _SCORER_STAGE else "answering"
        out[stage] = out.get(stage, Usage()) + timing.usage
    return out


def run_usage(records: Iterable[ScoredSample], scorer: str, prices: PricesSpec | None) -> RunUsage:
    """Tokens and cost per stage over a run's records (records without stages add nothing)."""
    totals: dict[str, Usage] = {}
    for record in records:
        stages = getattr(record, "stages", None)
        if not stages:
            continue
        for stage, usage in record_stage_usage(stages, scorer).items():
            totals[stage] = totals.get(stage, Usage()) + usage
    return summarise(totals, prices)


def _money(value: float | None, currency: str | None) -> str:
    if value is None:
        return "—"
    unit = "$" if currency == "USD" else f"{currency} " if currency else ""
    return f"{unit}{value:,.4f}"


def usage_table(usage: RunUsage, title: str = "tokens and cost per stage") -> str:
    """A small text table: prompt and completion tokens, and cost, per stage and in total."""
    rows = [(name, s) for name, s in usage.stages.items()] + [("total", usage.total)]
    lines = [f"{title}:", f"  {'stage':<10} {'prompt':>12} {'completion':>12} {'cost':>12}"]
    for name, s in rows:
        lines.append(
            f"  {name:<10} {s.prompt_tokens:>12,} {s.completion_tokens:>12,} "
            f"{_money(s.cost, usage.currency):>12}"
        )
    if not usage.prices:
        lines.append("  (no prices in the spec: add prices: {answer: {input: .., output: ..}})")
    return "\n".join(lines)


def read_usage(results: Mapping[str, object]) -> RunUsage | None:
    """The usage block of a parsed ``results.json`` (None for folders written before it)."""
    block = results.get(USAGE_KEY)
    return RunUsage.model_validate(block) if isinstance(block, dict) else None
