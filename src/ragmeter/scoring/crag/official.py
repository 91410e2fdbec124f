"""Counting as the official CRAG evaluation script does, for comparison with published numbers.

The KDD Cup 2024 starter kit's evaluation labels a prediction (cut to 75 Llama-2
tokens) in three steps:

1. **missing** only when the lower-cased prediction contains ``i don't know``;
2. **correct** when the lower-cased, trimmed prediction equals the lower-cased gold answer;
3. otherwise an LLM judge decides correct or incorrect.

ragmeter's default counting differs on purpose: it recognises many more refusals
("I cannot find...", "no information..."), normalises before the exact match
(punctuation, articles, number words), tries the alternative answers, and settles
invalid-premise questions by rule. Here step 3 uses the configured judges, and
against the gold answer only, as the script did. Two things are kept from ragmeter's
counting because the script's behaviour there is a defect, not a convention: an empty
or ``nan`` gold is unscored, and the manipulation screen runs before the judge.
"""

from __future__ import annotations

from ragmeter.scoring.crag.records import ScoredSample
from ragmeter.scoring.crag.scorer import (
    STORED_PREDICTION_CHARS,
    CragScorer,
    manipulation_sample,
    unusable_gold,
)
from ragmeter.types import Question

__all__ = ["COUNTINGS", "OFFICIAL_NOTE", "OfficialCountingScorer", "official_rule"]

COUNTINGS = ("ragmeter", "official")
"""The countings ``ragmeter score --counting`` offers."""

OFFICIAL_NOTE = (
    'counting: official (missing only when the prediction contains "i don\'t know", '
    "then lower-cased exact match with the gold answer, then the judge); other refusals "
    "count as answers"
)

_IDK = "i don't know"


def _fold(text: str) -> str:
    # The script compares lower-cased text; curly apostrophes are folded so that the
    # typographic "I don’t know" counts as the plain one.
    return text.replace("\u2019", "'").strip().lower()


def official_rule(prediction: str, gold: str) -> str | None:
    """``missing`` / ``correct`` when a step of the script settles it, else None (judge)."""
    cut = _fold(prediction)
    if _IDK in cut:
        return "missing"
    if cut == _fold(gold):
        return "correct"
    return None


class OfficialCountingScorer(CragScorer):
    """A `CragScorer` whose labels follow the official script's three steps."""

    judges_read_declines = False
    """The script's judge says correct or incorrect; only "i don't know" is missing."""

    async def score(self, question: Question, prediction: str | None) -> ScoredSample:
        """Label one prediction the official way (None = no prediction: missing)."""
        gold = question.answers[0][0] if question.answers and question.answers[0] else ""
        answers = [str(a) for group in question.answers[:1] for a in group]
        base = {"id": question.id, "query": question.query, "answers": answers}
        if prediction is None:
            return ScoredSample(
                **base,
                labels=question.labels,
                prediction=None,
                truncated_prediction=None,
                label="missing",
                rule="no_prediction",
            )
        cut, truncated = self.truncator.cut(prediction)
        common = {
            **base,
            "labels": question.labels,
            "prediction": prediction[:STORED_PREDICTION_CHARS],
            "prediction_chars": len(prediction),
            "truncated_prediction": cut,
            "truncated": truncated,
        }
        bad_gold = unusable_gold(answers)
        if bad_gold is not None:
            return ScoredSample(**common, label="unscored", unscored_reason=bad_gold)
        # The script had no screen; a judge without one can be talked into "correct", so
        # the manipulation screen runs in this counting too (it only ever lowers a label).
        flagged = manipulation_sample(cut, common)
        if flagged is not None:
            return flagged
        settled = official_rule(cut, gold)
        if settled == "missing":
            return ScoredSample(**common, label="missing", rule="refusal", rule_detail=_IDK)
        if settled == "correct":
            return ScoredSample(**common, label="correct", rule="exact_match", rule_detail=gold)
        if self.rules_only:
            return ScoredSample(
                **common, label="incorrect", rule="unmatched_rules_only", approximate=True
            )
        return await self._judged(question, [gold], cut, common)
