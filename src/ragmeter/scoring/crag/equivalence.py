"""What mechanics can prove about a prediction before any model reads it.

- Values: when the gold is a value (a date, an amount, a percentage, a number,
  or a list of them), the prediction's values of the same kind are compared
  with it, formats and rounding allowed (`ragmeter.scoring.crag.values`).
  Proven the same → correct; proven different → incorrect; anything in
  between (other numbers around, "over"/"about", a missing scale) → left to
  the judge.
- Yes/no: a yes/no gold against a prediction that starts with yes or no.
- Comparison: a short prediction that names exactly one of the question's two
  options, against the option the gold names.

Every outcome records what it matched, so a reader sees why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ragmeter.scoring.crag.options import comparison_options, first_named, named_options
from ragmeter.scoring.crag.rules import RuleOutcome
from ragmeter.scoring.crag.values import (
    Value,
    comparable,
    find_values,
    same_value,
    surely_different,
)
from ragmeter.scoring.normalize import normalize_answer, tokens

__all__ = [
    "GoldValues",
    "comparison_outcome",
    "gold_option",
    "gold_values",
    "settle",
    "value_outcome",
    "yes_no_outcome",
]

# Words a value-like gold may hold beside its values: units, currencies, counted things.
_FILLER = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "is",
        "was",
        "it",
        "its",
        "approximately",
        "about",
        "around",
        "roughly",
        "per",
        "share",
        "shares",
        "game",
        "games",
        "points",
        "point",
        "pts",
        "years",
        "year",
        "yrs",
        "old",
        "months",
        "month",
        "weeks",
        "week",
        "days",
        "day",
        "hours",
        "hour",
        "minutes",
        "minute",
        "seconds",
        "second",
        "usd",
        "dollars",
        "dollar",
        "us",
        "eur",
        "euros",
        "euro",
        "gbp",
        "total",
        "and",
        "or",
        "to",
        "as",
        "for",
        "by",
        "with",
        "each",
        "miles",
        "mile",
        "feet",
        "foot",
        "ft",
        "km",
        "kilometers",
        "kilometres",
        "meters",
        "metres",
        "m",
        "kg",
        "kilograms",
        "lbs",
        "pounds",
        "degrees",
        "celsius",
        "fahrenheit",
        "percent",
        "people",
        "copies",
        "units",
        "times",
        "wins",
        "goals",
        "runs",
        "titles",
        "episodes",
        "votes",
    ]
)
_MAX_FILLER_WORDS = 0
_SHORT_ANSWER_WORDS = 6


@dataclass(frozen=True)
class GoldValues:
    """The values a value-like gold consists of."""

    gold: str
    values: tuple[Value, ...]


def gold_values(gold: str) -> GoldValues | None:
    """The gold's values when the gold is essentially a value (or a list of values), else None.

    "$50 million", "7/20/74", "618 ft", "12.5%", "2023-01-24, 2023-04-25" are
    values; "4 3-point attempts per game" or "seinfeld season 9" are not.
    """
    values = find_values(gold)
    if not values:
        return None
    rest = gold
    for v in reversed(values):
        rest = rest[: v.start] + " " + rest[v.end :]
    left = [t for t in tokens(rest) if t not in _FILLER]
    if len(left) > _MAX_FILLER_WORDS:
        return None
    kinds = {"date" if v.kind == "date" or v.is_year_like else v.kind for v in values}
    if len(values) > 1 and len(kinds) > 1:
        return None
    return GoldValues(gold, tuple(values))


def _verdict_for_single(g: Value, pred_values: list[Value], all_pred: list[Value]) -> str | None:
    same = [v for v in pred_values if same_value(g, v)]
    if same and len(same) == len(pred_values):
        # A bare count is easily stated by accident ("2 seasons" for "2 titles"):
        # proven only when the prediction holds no other number at all.
        bare_count = g.kind == "number" and not g.is_year_like
        if bare_count and any(v not in same for v in all_pred):
            return None
        return "correct"
    if not same and all(surely_different(g, v) for v in pred_values):
        return "incorrect"
    return None


def _verdict_for_set(gv: Sequence[Value], pred_values: list[Value]) -> str | None:
    unmatched = list(pred_values)
    missing = 0
    for g in gv:
        hit = next((v for v in unmatched if same_value(g, v)), None)
        if hit is None:
            missing += 1
        else:
            unmatched.remove(hit)
    if missing == 0 and not unmatched:
        return "correct"
    if missing and unmatched:
        return "incorrect"
    # Only missing items (a partial list) or only extra items: CRAG's rubric says incorrect,
    # but an extra "value" may be context (a year); let the judge read it.
    return None


def _echoes(value: Value, query: str) -> bool:
    """True when the value repeats a value of the question ("in 2020", "in season 3")."""
    return any(
        (q.amount is not None and q.amount == value.amount and q.kind == value.kind)
        or (q.kind == "date" and value.kind == "date" and q.text.lower() == value.text.lower())
        for q in find_values(query)
    )


def value_outcome(answers: Sequence[str], prediction: str, query: str = "") -> RuleOutcome | None:
    """Correct when a value-like gold (or alias) is proven stated; incorrect when every gold is
    value-like and proven contradicted; None otherwise.

    Values that only repeat the question's own values are context, not answers.
    """
    gold_amounts = {v.amount for a in answers for v in find_values(a)}
    pred_all = [
        v for v in find_values(prediction) if v.amount in gold_amounts or not _echoes(v, query)
    ]
    if not pred_all:
        return None
    verdicts: list[str | None] = []
    for gold in answers:
        gv = gold_values(gold)
        if gv is None:
            verdicts.append(None)
            continue
        relevant = [v for v in pred_all if any(comparable(g, v) for g in gv.values)]
        if not relevant or any(v.qualified for v in (*gv.values, *relevant)):
            verdicts.append(None)
            continue
        if len(gv.values) == 1:
            verdict = _verdict_for_single(gv.values[0], relevant, pred_all)
        else:
            verdict = _verdict_for_set(gv.values, relevant)
        if verdict == "correct":
            shown = ", ".join(v.text for v in relevant)
            return RuleOutcome("correct", "equivalent_value", f"{shown} = {gold}")
        verdicts.append(verdict)
    if verdicts and all(v == "incorrect" for v in verdicts):
        shown = ", ".join(v.text for v in pred_all)
        return RuleOutcome("incorrect", "different_value", f"{shown} ≠ {' | '.join(answers)}")
    return None


_YES_NO = {"yes": "yes", "no": "no", "true": "yes", "false": "no"}


def yes_no_outcome(answers: Sequence[str], prediction: str) -> RuleOutcome | None:
    """A yes/no gold against a prediction that opens with yes or no."""
    gold = _YES_NO.get(normalize_answer(answers[0])) if answers else None
    if gold is None:
        return None
    words = tokens(prediction)
    if not words or words[0] not in ("yes", "no"):
        return None
    said = words[0]
    if said == gold:
        return RuleOutcome("correct", "yes_no", f"{said} = {gold}")
    return RuleOutcome("incorrect", "yes_no", f"{said} ≠ {gold}")


def gold_option(query: str, answers: Sequence[str]) -> str | None:
    """The option of a comparison question that the gold names (None when unclear)."""
    options = comparison_options(query)
    if options is None or not answers:
        return None
    first, second = named_options(options, answers[0])
    if first and not second:
        return options.first
    if second and not first:
        return options.second
    if first and second:
        # A sentence gold names both ("a has more hits than b"): it leads with its answer.
        return options.first if first_named(options, answers[0]) == 0 else options.second
    return None


def comparison_outcome(query: str, answers: Sequence[str], prediction: str) -> RuleOutcome | None:
    """A short prediction naming exactly one option of a comparison, against the gold's option."""
    options = comparison_options(query)
    if options is None or not answers:
        return None
    picked = gold_option(query, answers)
    if picked is None:
        return None
    first, second = named_options(options, prediction)
    if first == second:
        return None
    named = options.first if first else options.second
    own = set(options.first_words if first else options.second_words)
    extra = [t for t in tokens(prediction) if t not in own and t not in _FILLER]
    # Only a bare pick ("Tom Brady.", "The answer is Tom Brady") is settled here: in a
    # sentence, naming one option may mean the other ("X has fewer than ...").
    if len(extra) > 3 or len(tokens(prediction)) > len(own) + _SHORT_ANSWER_WORDS:
        return None
    if named == picked:
        return RuleOutcome("correct", "comparison_option", f"{named} = {picked}")
    return RuleOutcome("incorrect", "comparison_option", f"{named} ≠ {picked}")


def settle(query: str, answers: Sequence[str], prediction: str) -> RuleOutcome | None:
    """The first mechanical outcome that applies (yes/no, comparison pick, values), or None."""
    return (
        yes_no_outcome(answers, prediction)
        or comparison_outcome(query, answers, prediction)
        or value_outcome(answers, prediction, query)
    )
