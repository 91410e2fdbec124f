"""A game's final score given as a pair: "106-95" or "Knicks 106, Cavaliers 95" to "what
was the final score of the Cavaliers' game?", whose gold is one side ("95").

CRAG's sports golds often give only the asked team's points; real answers give the whole
score. A pair that holds the gold's figure states it; a pair without it is another score.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragmeter.scoring.crag.rules import RuleOutcome
from ragmeter.scoring.normalize import normalize_answer

__all__ = ["score_outcome", "score_pairs"]

_SCORE_ASK = re.compile(r"\bscores?\b", re.IGNORECASE)
# "106-95", "106–95", "106 to 95"; a date ("2023-04-26") or a range of years is no score.
_DASHED = re.compile(r"(?<![\d/.-])(\d{1,3})\s*(?:[-–—]|\s+to\s+)\s*(\d{1,3})(?![\d/]|[.-]\d)")
# "Knicks 106, Cavaliers 95": two teams, each with its points.
_NAMED = re.compile(r"\b[A-Za-z][\w.']*\s+(\d{1,3}),\s+[A-Za-z][\w.']*\s+(\d{1,3})\b")
_BARE_NUMBER = re.compile(r"\d{1,3}")


def score_pairs(prediction: str) -> list[tuple[int, int]]:
    """The score pairs a prediction states ("106-95" → (106, 95))."""
    return [
        (int(m.group(1)), int(m.group(2)))
        for pattern in (_DASHED, _NAMED)
        for m in pattern.finditer(prediction)
    ]


def score_outcome(query: str, answers: Sequence[str], prediction: str) -> RuleOutcome | None:
    """To a question after a score whose gold is one side's points, a stated score that holds
    them (correct) or does not (incorrect); None when the prediction states no score pair."""
    if not answers or not _SCORE_ASK.search(query):
        return None
    gold = normalize_answer(answers[0])
    if not _BARE_NUMBER.fullmatch(gold):
        return None
    pairs = score_pairs(prediction)
    if not pairs:
        return None
    points = int(gold)
    if any(points in pair for pair in pairs):
        return RuleOutcome("correct", "score", f"{gold} is one side of the score stated")
    shown = ", ".join(f"{a}-{b}" for a, b in pairs)
    return RuleOutcome("incorrect", "score", f"{shown} holds no {gold}")
