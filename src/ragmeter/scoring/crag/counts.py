"""Counts said in words: a schedule for a count per year ("quarterly" is 4), and "never" for
a count of none.

To "what was the dividend frequency in 2023?" a gold of "4" is answered by "quarterly"; to
"how many times has she won?" a gold of "she has never won, though nominated seven times" is
answered by "0", "Zero." or "She has never won it." The gold's other figures ("seven") count
something else and are no answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ragmeter.scoring.crag.rules import RuleOutcome
from ragmeter.scoring.crag.values import find_values
from ragmeter.scoring.normalize import FUNCTION_WORDS, normalize_answer, opening_sentence, tokens

__all__ = ["bare_count", "counts_none", "frequency_outcome", "says_zero", "zero_outcome"]

_FREQUENCY_ASK = re.compile(r"\b(?:frequency|how often|how many times)\b", re.IGNORECASE)
# How often a schedule pays or happens in a year; "semi-annually" before "annually".
_PER_YEAR = (
    (re.compile(r"\b(?:semi-?annual(?:ly)?|bi-?annual(?:ly)?|twice a year)\b", re.I), 2),
    (re.compile(r"\bquarterly\b", re.I), 4),
    (re.compile(r"\bmonthly\b", re.I), 12),
    (re.compile(r"\bweekly\b", re.I), 52),
    (re.compile(r"\b(?:annual(?:ly)?|yearly|once a year)\b", re.I), 1),
)


def frequency_outcome(query: str, answers: Sequence[str], prediction: str) -> RuleOutcome | None:
    """A count per year as the gold ("4") against a schedule named in words ("quarterly"),
    to a question after a frequency; None when the prediction gives a figure of its own
    (the value rule reads it) or names no schedule, or several."""
    if not _FREQUENCY_ASK.search(query) or not answers:
        return None
    gold = find_values(answers[0])
    if len(gold) != 1 or gold[0].kind != "number" or gold[0].is_year_like:
        return None
    if normalize_answer(answers[0]) != normalize_answer(gold[0].text):
        return None  # a sentence gold: its figure may count something else
    if any(not v.is_year_like for v in find_values(prediction)):
        return None
    rest, counts = prediction, set()
    for pattern, per_year in _PER_YEAR:
        if pattern.search(rest):
            counts.add(per_year)
            rest = pattern.sub(" ", rest)
    if len(counts) != 1:
        return None
    said = counts.pop()
    if said == gold[0].amount:
        return RuleOutcome("correct", "frequency", f"{said} a year = {gold[0].text}")
    return RuleOutcome("incorrect", "frequency", f"{said} a year ≠ {gold[0].text}")


_NONE = re.compile(r"\b(?:never|not|no|none|zero|nobody|neither)\b|n't\b", re.IGNORECASE)
# The clause a gold opens with carries its answer; "though nominated seven times" does not.
_CLAUSE_END = re.compile(r"[,;:]|\b(?:though|although|but|despite|while|however|yet)\b", re.I)
_SOME = re.compile(r"\b(?:once|twice|thrice|several|many|multiple|few)\b", re.IGNORECASE)
# Words of a "how many times" question that every clause about counts may share.
_COUNT_WORDS = frozenset(
    ["how", "many", "much", "number", "times", "time", "count", "she", "he", "they", "you"]
)
_BARE = frozenset(
    ["zero", "none", "never", "no", "times", "time", "once", "twice", "thrice", "so", "far", "yet"]
)


def counts_none(gold: str) -> bool:
    """True when a gold's opening clause says the count asked for is none ("she has never
    won", "there are no such companies"): its answer is 0."""
    return _NONE.search(_CLAUSE_END.split(gold, maxsplit=1)[0]) is not None


def says_zero(prediction: str, question: str) -> bool:
    """True when a prediction's opening sentence says the count asked for is none and gives
    no other count of it: "0 times.", "Zero.", "Nominated 7 times but never won." (the
    nominations are not what was asked), not "No, she has won it twice" nor "She was
    nominated for Song of the Year 7 times" to "how many times has she won Song of the Year?".
    A clause is about the count asked when it shares a word with the question."""
    asked = set(tokens(question)) - FUNCTION_WORDS - _COUNT_WORDS
    # "by the 60th Grammy Awards": a figure the question itself holds counts nothing.
    echoed = {v.amount for v in find_values(question)}
    first = opening_sentence(prediction)
    zero = some = False
    for clause in _CLAUSE_END.split(first):
        words = tokens(clause)
        if not words:
            continue
        counts = [
            v.amount for v in find_values(clause) if not v.is_year_like and v.amount not in echoed
        ]
        # "Zero", "0 times", "None": a clause that is only a count answers the question.
        bare = all(w in _BARE or w.isdigit() for w in words)
        about = bare or bool(asked & set(words))
        if counts and all(c == 0 for c in counts):
            zero = zero or about
        elif counts or _SOME.search(clause):
            some = some or about
        elif _NONE.search(clause):
            zero = zero or about
    return zero and not some


def bare_count(prediction: str) -> bool:
    """True for a prediction that is only a count ("3", "2 times", "Three."): it can be read
    against a count of none without a model."""
    values = [v for v in find_values(prediction) if not v.is_year_like]
    rest = set(tokens(prediction)) - {"times", "time"}
    return len(values) == 1 and len(rest) <= len(tokens(values[0].text))


_NUMBER_ASK = re.compile(r"\bhow\s+many\b|\bnumber\s+of\b", re.IGNORECASE)
_ZERO_GOLDS = frozenset(["0", "zero", "none"])
# Words that count none: "hadn't won any", "None!", "never", "no Grammys"; "The Weeknd is not
# a group" denies a kind, not a count.
_COUNTS_NONE = re.compile(
    r"\b(?:none|zero|never|nobody|no\s+\w+|(?:not|n't)\s+(?:\w+\s+){0,3}?(?:any|a\s+single))\b"
    r"|n't\s+(?:\w+\s+){0,3}?(?:any|a\s+single)\b",
    re.IGNORECASE,
)


def zero_outcome(query: str, answers: Sequence[str], prediction: str) -> RuleOutcome | None:
    """To "how many ...?" with a gold of 0, a reply whose opening says the count is none
    ("She had not won any Grammys by the 60th Awards. Her first came in 2019."): correct,
    whatever later sentences count; None otherwise (the value rule reads any count given)."""
    if not answers or normalize_answer(answers[0]) not in _ZERO_GOLDS:
        return None
    if not _NUMBER_ASK.search(query) or not says_zero(prediction, query):
        return None
    if not _COUNTS_NONE.search(opening_sentence(prediction)):
        return None
    return RuleOutcome("correct", "equivalent_value", "none, as the gold's 0")
