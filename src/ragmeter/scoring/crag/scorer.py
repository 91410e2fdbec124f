"""The CRAG scorer: truncation, rules, then judges, one `ScoredSample` per question.

Usable on its own from Python::

    scorer = CragScorer(judges=[LLMJudge(llm, "local")], truncator=load_truncator())
    sample = await scorer.score(question, "Paris")

With no judges the scorer is rules-only: anything the rules leave open counts
incorrect and is flagged ``approximate``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Sequence

from ragmeter.scoring.crag.judge import Judge, decide, judge_against_golds
from ragmeter.scoring.crag.records import ScoredSample
from ragmeter.scoring.crag.rules import Rules
from ragmeter.scoring.crag.truncate import Truncator
from ragmeter.types import Question

__all__ = ["STORED_PREDICTION_CHARS", "CragScorer", "RefusalConfirmer"]

STORED_PREDICTION_CHARS = 10_000
"""A scored sample stores at most this much of an enormous prediction (it scores far less)."""

RefusalConfirmer = Callable[[str, str], Awaitable[bool]]
"""``(query, prediction) -> still a refusal?``: an optional LLM check of a phrase match."""


class CragScorer:
    """Scores predictions against CRAG questions, in the order the issue fixes."""

    def __init__(
        self,
        judges: Sequence[Judge] = (),
        *,
        truncator: Truncator,
        rules: Rules | None = None,
        confirm_refusal: RefusalConfirmer | None = None,
        concurrency: int = 4,
    ):
        self.judges = list(judges)
        self.truncator = truncator
        self.rules = rules or Rules()
        self.confirm_refusal = confirm_refusal
        self.concurrency = max(1, concurrency)

    @property
    def rules_only(self) -> bool:
        """True when no judge is configured (labels of unmatched predictions are approximate)."""
        return not self.judges

    async def score(self, question: Question, prediction: str | None) -> ScoredSample:
        """Label one prediction (None = the question got no prediction) with its explanation."""
        answers = [a for group in question.answers[:1] for a in group]
        base = {
            "id": question.id,
            "query": question.query,
            "answers": answers,
            "labels": question.labels,
        }
        if prediction is None:
            return ScoredSample(
                **base,
                prediction=None,
                truncated_prediction=None,
                label="missing",
                rule="no_prediction",
            )
        cut, truncated = self.truncator.cut(prediction)
        common = {
            **base,
            "prediction": prediction[:STORED_PREDICTION_CHARS],
            "prediction_chars": len(prediction),
            "truncated_prediction": cut,
            "truncated": truncated,
        }
        if not answers:
            return ScoredSample(
                **common, label="unscored", unscored_reason="the question has no gold answer"
            )
        outcome = self.rules.apply(cut, answers)
        if (
            outcome is not None
            and outcome.rule == "refusal"
            and self.confirm_refusal is not None
            and not await self.confirm_refusal(question.query, cut)
        ):
            # The LLM says the phrase match is not a refusal: judge it as an answer.
            outcome = self.rules.apply(cut, answers, check_refusal=False)
        if outcome is not None:
            return ScoredSample(
                **common, label=outcome.label, rule=outcome.rule, rule_detail=outcome.detail
            )
        if self.rules_only:
            return ScoredSample(
                **common, label="incorrect", rule="unmatched_rules_only", approximate=True
            )
        votes = [
            await judge_against_golds(judge, question.query, answers, cut) for judge in self.judges
        ]
        decision = decide(votes)
        if decision.verdict is None:
            return ScoredSample(
                **common,
                label="unscored",
                votes=votes,
                agreement=decision.agreement,
                unscored_reason=decision.reason,
            )
        return ScoredSample(
            **common, label=decision.verdict, votes=votes, agreement=decision.agreement
        )

    async def score_all(
        self,
        items: Iterable[tuple[Question, str | None]],
        on_done: Callable[[ScoredSample], None] | None = None,
    ) -> list[ScoredSample]:
        """Score many predictions concurrently (bounded), keeping the input order."""
        sem = asyncio.Semaphore(self.concurrency)

        async def one(q: Question, p: str | None) -> ScoredSample:
            async with sem:
                s = await self.score(q, p)
            if on_done is not None:
                on_done(s)
            return s

        return list(await asyncio.gather(*(one(q, p) for q, p in items)))
