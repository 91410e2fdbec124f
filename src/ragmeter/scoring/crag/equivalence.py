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

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from ragmeter.scoring.crag.counts import frequency_outcome, zero_outcome
from ragmeter.scoring.crag.declines import asked_word, crude_stem
from ragmeter.scoring.crag.names import CODES, acronym_of, is_place, same_name
from ragmeter.scoring.crag.options import (
    comparison_options,
    denies_before_naming,
    first_named,
    named_options,
    same_word,
)
from ragmeter.scoring.crag.rules import RuleOutcome, is_invalid_gold
from ragmeter.scoring.crag.scores import score_outcome
from ragmeter.scoring.crag.screen import states_doubt
from ragmeter.scoring.crag.values import (
    Value,
    comparable,
    find_values,
    same_value,
    surely_different,
)
from ragmeter.scoring.normalize import (
    FUNCTION_WORDS,
    NUMBER_WORDS,
    ORDINAL_WORDS,
    answer_sentence,
    normalize_answer,
    tokens,
)

__all__ = [
    "COUNT_WORDS",
    "GoldValues",
    "affirmation_outcome",
    "answered_figures",
    "asks_for_score",
    "clipped_gold_outcome",
    "code_outcome",
    "comparison_outcome",
    "corrects_question",
    "defined_genus",
    "denies",
    "gold_option",
    "gold_values",
    "guessed_values",
    "list_outcome",
    "long_list",
    "named_before_figure",
    "negates_question",
    "only_figure",
    "only_part_of_the_date",
    "opening_outcome",
    "partner_named",
    "picks_neither_alone",
    "place_before_country",
    "plain_list",
    "restated_with_gold",
    "restates_question",
    "says_none",
    "says_tied",
    "settle",
    "split_items",
    "stated_list",
    "stated_value",
    "unknown_outcome",
    "value_outcome",
    "verdict_agreed",
    "yes_no_gold",
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
        "square",
        "sq",
        "grams",
        "g",
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
_CONTRAST_OPENING = re.compile(
    r"^\W*(?:compared\s+(?:to|with)|unlike|while|whereas|although|though|despite|between"
    r"|in\s+contrast|relative\s+to|against|versus|vs\.?|neither|both|actually|no\b|not\b)",
    re.IGNORECASE,
)


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


_LOOSE_TOLERANCE = Decimal("0.02")
"""An approximate figure ("about $416") further than 2% from the gold cannot be the gold."""


def _different(g: Value, v: Value) -> bool:
    if not v.qualified:
        return surely_different(g, v)
    if _within_bound(v, g):
        return False  # "well under $1" does not contradict $0.55 (nor states it)
    if g.amount is None or v.amount is None or not comparable(g, v) or not g.amount:
        return False
    if g.unit is not None and v.unit is not None and g.unit != v.unit:
        return False
    return abs(v.amount - g.amount) / abs(g.amount) > _LOOSE_TOLERANCE


def _only_the_year(g: Value, pred_values: list[Value]) -> bool:
    """True when the prediction gives only the year of a gold that is a full date ("1935"
    for 1935-11-30): less than was asked. A gold on January 1 may be a year alone stored as
    a date (CRAG's knowledge graph does so), so it is left out."""
    if g.kind != "date" or g.month is None or g.day is None or (g.month, g.day) == (1, 1):
        return False
    return all(
        (v.is_year_like and v.amount == g.year) or (v.kind == "date" and v.month is None)
        for v in pred_values
    )


def _verdict_for_single(g: Value, pred_values: list[Value], all_pred: list[Value]) -> str | None:
    if _only_the_year(g, pred_values):
        return "incorrect"
    # "over 2 million" does not state 2 million; "about $1.2 trillion" states $1.189 trillion;
    # "approximately 16" states 15.52 at the precision it gives.
    same = [v for v in pred_values if (same_value(g, v) or _rounded_to_whole(g, v)) and not v.bound]
    firsts = [v for v in all_pred if not v.is_year_like]
    if same and firsts and firsts[0] is same[0] and g.kind == "number" and not g.is_year_like:
        # A count the answer leads with: "89 points (lost 94-89 to Denver)", "Ten films: ...".
        return "correct"
    if same and len(same) == len(pred_values):
        # A bare count is easily stated by accident ("2 seasons" for "2 titles"):
        # proven only when the prediction holds no other number at all.
        bare_count = g.kind == "number" and not g.is_year_like
        if bare_count and any(v not in same for v in all_pred):
            return None
        return "correct"
    if not same and all(_different(g, v) for v in pred_values):
        return "incorrect"
    if (
        not same
        and any(v.bound for v in pred_values)
        and all(v.bound or _different(g, v) for v in pred_values)
    ):
        return None
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
    if missing:
        # A part of the gold's values ("1929" for "1929-1941"): CRAG's rubric says incorrect.
        return "incorrect"
    # Only extra values: the rubric says incorrect too, but an extra "value" may be context
    # (a year); let the judge read it.
    return None


_ROUGH_GOLD_ROOM = Decimal("0.1")
"""How far from a rough gold ("~13%") a figure may be and still be the judge's to weigh."""


def _far_from_rough(golds: Sequence[Value], pred_values: Sequence[Value]) -> bool:
    """True unless a gold is rough and a figure lies within its room: exact golds are
    contradicted by any different figure."""
    for g in golds:
        if not g.qualified or g.amount is None:
            continue
        room = abs(g.amount) * _ROUGH_GOLD_ROOM
        if any(v.amount is not None and abs(v.amount - g.amount) <= room for v in pred_values):
            return False
    return True


def _echoes(value: Value, query: str) -> bool:
    """True when the value repeats a value of the question ("in 2020", "in season 3")."""
    return any(
        (q.amount is not None and q.amount == value.amount and q.kind == value.kind)
        or (q.kind == "date" and value.kind == "date" and q.text.lower() == value.text.lower())
        for q in find_values(query)
    )


_WORD_BEFORE = re.compile(r"([A-Za-z]+)\s+$")


def _named_in_gold(text: str, value: Value, gold: str) -> bool:
    """True when the value stands after the same word in the gold ("Rush Hour 2" against "73
    stunt doubles in rush hour 2"): part of a name the gold writes too, not a figure."""
    before = _WORD_BEFORE.search(text[: value.start])
    if before is None:
        return False
    named = f"{before.group(1)} {value.text}".lower()
    return re.search(rf"(?<!\w){re.escape(named)}(?!\w)", gold.lower()) is not None


_WORK_LABEL = re.compile(r"[\w*_'\"”’]\s*\($")


def _labels_a_work(prediction: str, value: Value) -> bool:
    """True when the value is a year in brackets right after a name ("Skyfall (2012)",
    "*American Beauty* (1999)")."""
    return (
        value.is_year_like
        and prediction[value.end : value.end + 1] == ")"
        and _WORK_LABEL.search(prediction[max(0, value.start - 3) : value.start]) is not None
    )


def answered_figures(prediction: str, query: str) -> list[Value]:
    """The figures a prediction states that the question did not ("six studio albums")."""
    return [v for v in find_values(prediction) if not _echoes(v, query)]


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
        dated = any(g.kind == "date" or g.is_year_like for g in gv.values)
        # A year in the answer ("revenue for 2021-2023 was $519.5 billion") is context
        # unless the gold itself is a date or a year.
        relevant = [
            v
            for v in pred_all
            if any(comparable(g, v) for g in gv.values) and (dated or not v.is_year_like)
        ]
        if len(gv.values) == 1 and gv.values[0].kind == "date" and gv.values[0].day is not None:
            # "born on August 1, 1965 ... known for American Beauty (1999)": a year in
            # brackets after a title labels the work; it is not a second date for the day asked.
            relevant = [v for v in relevant if not _labels_a_work(prediction, v)]
        # "over 4,000 miles" is a claim about a bound: a gold like that is the judge's.
        if not relevant or any(v.bound for v in gv.values):
            verdicts.append(None)
            continue
        measured = _measured_figure(prediction, query, relevant)
        if (
            len(gv.values) == 1
            and measured is not None
            and not measured.bound
            and same_value(gv.values[0], measured)
        ):
            # "564 yards in 16 games, an average of about 35.3 per game" to "how many yards
            # did he average?": the figure named as what was asked is the answer.
            return RuleOutcome(
                "correct", "equivalent_value", f"{measured.text} = {gold} (the figure asked)"
            )
        if len(gv.values) == 1:
            verdict = _verdict_for_single(gv.values[0], relevant, pred_all)
        else:
            verdict = _verdict_for_set(gv.values, relevant)
        if verdict == "correct":
            shown = ", ".join(v.text for v in relevant)
            return RuleOutcome("correct", "equivalent_value", f"{shown} = {gold}")
        if verdict == "incorrect" and not _far_from_rough(gv.values, relevant):
            # "~13% of the year" allows some room, and how much is the judge's to weigh:
            # 13.5% may be it, 25% is not.
            verdict = None
        verdicts.append(verdict)
    proven = verdicts and all(v == "incorrect" for v in verdicts)
    if proven and not _count_in_words(answers, prediction):
        shown = ", ".join(v.text for v in pred_all)
        return RuleOutcome("incorrect", "different_value", f"{shown} ≠ {' | '.join(answers)}")
    return None


# What a question may ask a figure of, and how an answer names it before the figure: "an
# average of about 35.3", "the total comes to $1.2 billion".
_MEASURES = frozenset(["average", "mean", "total", "sum", "combined", "difference", "gain"])
_NAMED_MEASURE = re.compile(
    rf"\b(?P<measure>{'|'.join(sorted(_MEASURES))})\b(?:\s+[\w-]+){{0,3}}?\s+"
    r"(?:of|is|was|comes\s+to|works\s+out\s+to|=|:)\s+(?:(?:about|roughly|around|approximately"
    r"|nearly|some|~)\s*)?$",
    re.IGNORECASE,
)
_MEASURE_REACH = 60


def _measured_figure(prediction: str, query: str, values: Sequence[Value]) -> Value | None:
    """The one figure the prediction names as the measure the question asks for ("an
    average of 35.3" to "how many yards did he average?"), or None."""
    asked = _MEASURES & set(tokens(query))
    named = [
        v
        for v in values
        if (m := _NAMED_MEASURE.search(prediction[max(0, v.start - _MEASURE_REACH) : v.start]))
        and m.group("measure").lower() in asked
    ]
    return named[0] if len(named) == 1 else None


# Words that state a small count without a digit or a number word ("a single minaret").
COUNT_WORDS = {"single": 1, "once": 1, "twice": 2, "thrice": 3, "pair": 2, "both": 2}
_SMALL_COUNT = 20


def _count_in_words(answers: Sequence[str], prediction: str) -> bool:
    """True when the prediction states a gold's small count in words ("one gold medal",
    "a single minaret", "twice"), which `find_values` leaves out (too often not a count:
    "one of the tallest"): its other figures then prove nothing wrong."""
    counts = {
        int(v.amount)
        for a in answers
        for v in find_values(a)
        if v.kind == "number"
        and v.amount is not None
        and not v.is_year_like
        and v.amount == v.amount.to_integral_value()
        and 0 < v.amount <= _SMALL_COUNT
    }
    if not counts:
        return False
    words = tokens(prediction)
    said = {int(w) for w in words if w.isdigit()}
    said |= {COUNT_WORDS[w] for w in words if w in COUNT_WORDS}
    return bool(counts & said)


_GENERAL = re.compile(
    # "Most boards meet 5-10 times a year": what is usual, opening its sentence.
    # "(only general board-meeting averages, ≈8/yr)": what is usual, said as such.
    r"\b(?:usually|typically|normally|generally|general|averages|on\s+average|in\s+general)\b"
    r"|^\W*most\s",
    re.I,
)


# Clauses: a comma before a figure ("January 5, 2024") ends none.
# No split before a digit: "Oct. 2, 2022" is one date, not a sentence ending in "Oct".
_CLAUSES = re.compile(
    r"[.;!?]\s+(?!\d)|,\s+(?!\d)|\s+(?:but|so|although|though|however)\s+", re.IGNORECASE
)
# Narrower than `denies`: "rather", "actually" or "premise" do not make a clause a decline.
_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|can'?t|don'?t|doesn'?t|isn'?t|won'?t)\b|n't\b", re.IGNORECASE
)

# "None of the sources give its closes for January 2 to 5" declines those days, too.
_DECLINING_CLAUSE = re.compile(_NEGATION.pattern + r"|\bnone\b", re.IGNORECASE)

_SEASON_START = re.compile(r"\b(?:19|20)\d\d\s*[-\u2013/]\s*$")
_SEASON_END = re.compile(r"\s*[-\u2013/]\s*\d\d\b(?![-\u2013/]?\d)")
# "the 1-month chart", "its 52-week range": a figure joined to a word qualifies the noun.
_COMPOUND_MODIFIER = re.compile(r"-[A-Za-z]")


_SENTENCE_GOLD_WORDS = 4


def guessed_values(answers: Sequence[str], prediction: str, query: str = "") -> list[Value]:
    """The figures of the kind of the value-like gold that a prediction which declines ("I
    don't have live data") still states ("it was trading around $140"): CRAG's rubric
    judges such a guess. A figure in a sentence about what is usual ("it typically trades
    10-20 million shares") is context, and a bound ("well under $1") no figure: neither is a
    guess. A sentence gold is read for its one figure ("radiohead has released 51 music
    videos": "I could not find an exact count; roughly 40" guesses)."""
    if not answers:
        return []
    gv = gold_values(answers[0])
    if gv is None and len(tokens(answers[0])) >= _SENTENCE_GOLD_WORDS:
        figure = only_figure(answers[0], query)
        gv = gold_values(figure) if figure else None
    if gv is None:
        return []
    out: list[Value] = []
    dated = any(g.kind == "date" or g.is_year_like for g in gv.values)
    for sentence in _SENTENCE_END.split(prediction):
        if _GENERAL.search(sentence):
            continue
        for clause in _CLAUSES.split(sentence):
            # "I don't have data for January 2-5, 2024": a figure in the declining clause
            # itself only says what is not known.
            if _DECLINING_CLAUSE.search(clause):
                continue
            for v in find_values(clause):
                if (v.is_year_like and not dated) or _echoes(v, query) or v.bound:
                    continue
                if _named_in_gold(clause, v, answers[0]):
                    continue  # "Rush Hour 2", as the gold names the film: a title's number
                if _SEASON_START.search(clause[: v.start]) or _SEASON_END.match(clause, v.end):
                    continue  # "the 2022-23 season" names a season; it counts nothing
                if _COMPOUND_MODIFIER.match(clause, v.end):
                    continue
                if any(comparable(g, v) and _same_kind(g, v) for g in gv.values):
                    out.append(v)
    return out


def only_part_of_the_date(answers: Sequence[str], prediction: str) -> bool:
    """True when the gold is a day and the prediction dates it only by its year or month,
    the gold's ("premiered in 2007, though I don't know the exact date" for 6/22/07)."""
    gold = find_values(answers[0]) if answers else []
    if len(gold) != 1 or gold[0].kind != "date" or gold[0].day is None or gold[0].year is None:
        return False
    dates = [v for v in find_values(prediction) if v.kind == "date" or v.is_year_like]
    if not dates or any(v.kind == "date" and v.day is not None for v in dates):
        return False
    return all(_year_of(gold[0], v) for v in dates)


def _year_of(gold: Value, v: Value) -> bool:
    year = v.year if v.kind == "date" else int(v.amount or 0)
    if year is None or gold.year is None:
        return False
    return year % 100 == gold.year if gold.two_digit_year else year == gold.year


def _same_kind(g: Value, v: Value) -> bool:
    # A share is no guess of a volume: "(the 8.75% Series B)" against 1,800 shares.
    return g.kind == v.kind or {g.kind, v.kind} <= {"money", "number"}


_YES_NO = {"yes": "yes", "no": "no", "true": "yes", "false": "no"}
# How a reply opens with its yes or no, chatty ones too ("Nope! It didn't ...").
_SAID_YES_NO = {"yes": "yes", "yep": "yes", "yup": "yes", "yeah": "yes", "no": "no", "nope": "no"}


# "yes, rogan is estimated at $120 million while ...": a sentence gold that gives its verdict
# first.
_VERDICT_FIRST = re.compile(r"^\s*(yes|no)\s*[,.;:!]\s*\S", re.IGNORECASE)


def yes_no_gold(answers: Sequence[str]) -> str | None:
    """ "yes" or "no" when the gold is one of them (or "true" / "false") or opens with one
    ("yes, ..."), else None."""
    if not answers:
        return None
    opening = _VERDICT_FIRST.match(answers[0])
    return _YES_NO.get(opening.group(1).lower() if opening else normalize_answer(answers[0]))


def yes_no_outcome(answers: Sequence[str], prediction: str) -> RuleOutcome | None:
    """A yes/no gold against a prediction that opens with yes or no; a bare "yes" or "no"
    to a question whose gold is something else."""
    gold = yes_no_gold(answers)
    if gold is None:
        bare = normalize_answer(prediction)
        if bare in _YES_NO and not any(normalize_answer(a) in _YES_NO for a in answers):
            return RuleOutcome("incorrect", "yes_no", f"{bare} to a question answered otherwise")
        return None
    said = _opening_verdict(prediction)
    if said is None:
        return None
    if said != gold:
        return RuleOutcome("incorrect", "yes_no", f"{said} ≠ {gold}")
    if _VERDICT_FIRST.match(answers[0]) and normalize_answer(prediction) not in _YES_NO:
        return None  # what follows the yes is read against what follows the gold's
    return RuleOutcome("correct", "yes_no", f"{said} = {gold}")


# "Based on the provided context, yes, Klaus was ...", "So no, Houston did not ...", "It
# depends which film you mean, but yes, ...": the verdict after a lead-in of the opening
# sentence, set off as a clause of its own.
_LED_VERDICT = re.compile(
    r"^[^.?!\n]{0,100}?(?:,|:|\banswer is|\bso|\bbut)\s+(yes|no|yep|nope)\s*[,.;:!\u2014\u2013]",
    re.IGNORECASE,
)


def _opening_verdict(prediction: str) -> str | None:
    """ "yes" or "no" when the prediction opens with one ("Nope! ..."), gives one after a
    lead-in ("Based on the sources, yes, ..."), or is a bare "True" or "False", else None."""
    words = tokens(prediction)
    if words in (["true"], ["false"]):
        return _YES_NO[words[0]]
    if words and words[0] in _SAID_YES_NO:
        return _SAID_YES_NO[words[0]]
    led = _LED_VERDICT.match(prediction)
    return _SAID_YES_NO[led.group(1).lower()] if led else None


def verdict_agreed(answers: Sequence[str], prediction: str) -> bool:
    """True when a gold that opens with its yes or no ("yes, nba regulation time runs ...")
    is answered with the same one first."""
    gold = yes_no_gold(answers)
    return (
        gold is not None
        and bool(answers and _VERDICT_FIRST.match(answers[0]))
        and _opening_verdict(prediction) == gold
    )


# A gold opening "both interstellar and inception have won" picks neither option.
_NO_SINGLE_PICK = frozenset(["both", "neither", "tied", "tie", "equal", "equally", "same"])


def picks_neither_alone(answer: str) -> bool:
    """True when an answer to a comparison opens by picking no single option ("both have
    won", "they are tied", "neither")."""
    return bool(_NO_SINGLE_PICK & set(tokens(answer)[:3]))


_TIED = frozenset(["tied", "tie", "equal", "equally", "same"])
_TIE_REACH = 8


def says_tied(answer: str, query: str = "") -> bool:
    """True when an answer opens by calling the two options alike: "They're tied", "equal (1
    each)", "Both have won" (a "both" beside a "neither" is no tie: "neither won, both lost"),
    or "Neither" to a question of which has more (or less) of something."""
    words = tokens(answer)
    opening = set(words[:_TIE_REACH])
    if words[:1] == ["neither"] and (_MORE | _LESS) & set(tokens(query)):
        return True
    return bool(_TIED & opening) or ("both" in opening and "neither" not in opening)


def gold_option(query: str, answers: Sequence[str]) -> str | None:
    """The option of a comparison question that the gold names (None when unclear)."""
    options = comparison_options(query)
    if options is None or not answers or picks_neither_alone(answers[0]):
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


_MORE = frozenset(
    [
        "more",
        "most",
        "higher",
        "highest",
        "larger",
        "largest",
        "bigger",
        "biggest",
        "older",
        "oldest",
        "longer",
        "longest",
        "better",
        "best",
        "greater",
        "greatest",
        "taller",
        "tallest",
        "heavier",
        "richer",
        "earlier",
        "first",
        "faster",
    ]
)
_LESS = frozenset(
    [
        "fewer",
        "fewest",
        "less",
        "least",
        "lower",
        "lowest",
        "smaller",
        "smallest",
        "younger",
        "youngest",
        "shorter",
        "shortest",
        "worse",
        "worst",
        "lighter",
        "poorer",
        "later",
        "last",
        "slower",
    ]
)


_FIGURE_BOUND = re.compile(
    r"\b(?:more|less|fewer|greater|lower|higher)\s+than\s+(?=[$\u20ac\u00a3~]?\d|about|around"
    r"|roughly|nearly|almost)",
    re.IGNORECASE,
)


def _reversed_comparison(query: str, prediction: str) -> bool:
    """The prediction compares the other way round ("who has more" / "X has fewer")."""
    q = set(tokens(query))
    # Words the question already holds are no direction of the answer's ("to end last year"),
    # and "more than 200 members" is a figure's bound, not a direction.
    p = set(tokens(_FIGURE_BOUND.sub(" ", prediction))) - q
    return bool((q & _MORE and p & _LESS) or (q & _LESS and p & _MORE))


# A title line over a reply that sets the options against each other ("### Music of Dune
# (1984) vs. Dune (2021)", read plainly as a sentence of its own).
_TITLE_LINE = re.compile(r"\s*(?P<title>[^\n]*\b(?:vs\.?|versus)\s[^\n]*)\n")


def comparison_outcome(query: str, answers: Sequence[str], prediction: str) -> RuleOutcome | None:
    """A short prediction naming exactly one option of a comparison, against the gold's option."""
    options = comparison_options(query)
    if options is None or not answers:
        return None
    picked = gold_option(query, answers)
    if picked is None:
        return None
    title = _TITLE_LINE.match(prediction)
    if title is not None and all(named_options(options, title.group("title"))):
        # "### Music of Dune (1984) vs. Dune (2021)": a heading over the reply names both
        # options as the question did; the reply chooses below it.
        prediction = prediction[title.end() :]
    first, second = named_options(options, prediction)
    if not first and not second:
        return None
    if first != second:
        named = options.first if first else options.second
        own = set(options.first_words if first else options.second_words)
        extra = [t for t in tokens(prediction) if t not in own and t not in _FILLER]
        if len(extra) <= 3 and len(tokens(prediction)) <= len(own) + _SHORT_ANSWER_WORDS:
            # A bare pick: "Tom Brady.", "The answer is Tom Brady".
            if named == picked:
                return RuleOutcome("correct", "comparison_option", f"{named} = {picked}")
            return RuleOutcome("incorrect", "comparison_option", f"{named} ≠ {picked}")
    # In a sentence, answers lead with the option they choose ("Coca-Cola has the higher
    # yield, 3.2% against 2.4% for P&G"): on real answers the option named first was the
    # one chosen every time. A sentence that opens with a contrast is left to the judge.
    if (
        _CONTRAST_OPENING.match(prediction)
        or _reversed_comparison(query, prediction)
        or denies_before_naming(options, prediction)
    ):
        return None
    lead = first_named(options, prediction)
    concluded = _CONCLUSION.search(prediction)
    if concluded is not None:
        # "Inside Out cost $175 million, Finding Dory $200 million. So Finding Dory had the
        # bigger budget.": a reasoning chooses in its conclusion, not its first sentence.
        first, second = named_options(options, concluded.group("rest"))
        if (first and second) or _reversed_comparison(query, concluded.group("rest")):
            return None
        if first or second:
            lead = 0 if first else 1
    if lead is None:
        return None
    named = options.first if lead == 0 else options.second
    if named != picked:
        return RuleOutcome("incorrect", "comparison_option", f"leads with {named} ≠ {picked}")
    wrong = contradicted_values(answers[0], prediction, query=query)
    if wrong:
        # The right option with the gold's own figures changed ("0.21" for the gold's 0.29).
        shown = ", ".join(v.text for v in wrong)
        return RuleOutcome("incorrect", "different_value", f"leads with {named}, but {shown}")
    return RuleOutcome("correct", "comparison_option", f"leads with {named} = {picked}")


# "So X had the bigger budget.", "..., one more than Batman, which makes it The Iron Lady.":
# the last sentence's conclusion, opened by a connective or a closing "which makes" clause.
_CONCLUSION = re.compile(
    r"(?:(?:^|[.!?]\s+)(?:so|therefore|thus|hence|overall|in short)\b,?"
    r"|,\s+which\s+(?:makes|puts|leaves)\b)\s+(?P<rest>[^.!?]+)[.!?]?\s*$",
    re.IGNORECASE,
)


_SCORE_QUESTION = frozenset(["score", "scores", "scored", "scoring", "scoreline"])


def asks_for_score(query: str) -> bool:
    """True when the question asks for a game's score ("what was the scoring total ...")."""
    return bool(_SCORE_QUESTION & set(tokens(query)))


def contradicted_values(
    gold: str, prediction: str, *, years: bool = False, score: bool = False, query: str = ""
) -> list[Value]:
    """The prediction's figures that restate one of the gold's figures wrongly.

    A figure counts when the gold has figures of its kind and scale (within a factor of
    two, years and ranks like "No. 1" left out) and it matches none of them: "0.21"
    against a gold with 0.29 and 0.24. Figures the gold says nothing about are extra
    detail, and an approximate figure within 10% of the gold's stands. ``years``: years
    count too (a sentence gold's "1999 movie" restated as "2009 movie"). ``score``: the
    question asks for a score, so the figure paired with the gold's ("lost 106-95" for 95) is
    the other side's, not a wrong restatement (elsewhere such a pair is a range). ``query``:
    the counts that only repeat the question's ("in all four categories", "the Hot 100") are
    not the answer's, in the gold or the prediction. An ordinal word ("his first marriage")
    restates no count.
    """
    gold_all = _gold_figures(gold, years)
    echoed = {g.amount for g in gold_all if _echoed_count(g, query)}
    gold_vals = [g for g in gold_all if g.amount not in echoed]
    pred_vals = find_values(prediction)
    if not any(_ordinal(g) for g in gold_vals):
        pred_vals = [v for v in pred_vals if not _ordinal(v)]
    # The prediction's own "500" for "how many stocks does the S&P 500 hold?" is its answer;
    # only a count the gold repeats from the question too is left out.
    pred_vals = [v for v in pred_vals if not (_echoed_count(v, query) and v.amount in echoed)]
    if _leads_with_gold_figures(gold_vals, pred_vals, prediction):
        # The answer states the gold's figures first: what follows is detail about
        # something else ("34 titles (17 each)", "seven, six of them with the Patriots").
        return []
    out = []
    for v in pred_vals:
        if v.amount is None or (v.is_year_like and not years) or v.amount == 0:
            continue
        if _RANK.search(prediction[: v.start]):
            continue
        peers = _peers(gold_vals, v)
        if not peers or any(same_value(g, v) for g in peers):
            continue
        if v.qualified and any(_rounded_to_whole(g, v) for g in peers):
            continue  # "approximately 16" for 15.52
        if any(_within_bound(v, g) or _meets_gold_bound(g, v) for g in peers):
            continue  # "well over 20" does not contradict 27, nor "about ten" a gold's "over 5"
        if score and _paired_with_gold(v, pred_vals, gold_vals, prediction):
            continue  # "lost 106-95" for a gold of 95: the other side's figure
        if all(_different(g, v) for g in peers):
            out.append(v)
    return out


_WHOLE_TOLERANCE = Decimal("0.05")


def _rounded_to_whole(g: Value, v: Value) -> bool:
    """True when ``v`` is a whole number the gold's fraction rounds to (16 for 15.52); a
    rough figure otherwise restates the gold wrongly ("about $202 million" for $192 million:
    of 80 real answers with such a figure, careful graders labeled 67 incorrect)."""
    if g.amount is None or v.amount is None or g.amount == g.amount.to_integral_value():
        return False
    # "around $2" for $2.16 is 7% off: a small figure's whole number is no rounding of it.
    near = abs(v.amount - g.amount) <= abs(g.amount) * _WHOLE_TOLERANCE
    return v.amount == v.amount.to_integral_value() and abs(v.amount - g.amount) < 0.5 and near


_LOWER_BOUNDS = frozenset(
    ["over", "more than", "greater than", "at least", "above", "in excess of", "upwards of"]
)
_UPPER_BOUNDS = frozenset(["under", "less than", "fewer than", "at most", "below", "up to"])


def _meets(bound: Value, figure: Value) -> bool:
    """True when ``bound`` is a bound ("over 20", "under $1") that ``figure`` meets."""
    if bound.amount is None or figure.amount is None:
        return False
    if bound.qualifier in _LOWER_BOUNDS:
        return figure.amount > bound.amount
    if bound.qualifier in _UPPER_BOUNDS:
        return figure.amount < bound.amount
    return False


def _within_bound(v: Value, g: Value) -> bool:
    """True when ``v`` is a bound ("over 20") the gold's exact figure ``g`` satisfies."""
    return not g.qualified and _meets(v, g)


def _meets_gold_bound(g: Value, v: Value) -> bool:
    """True when the gold's figure ``g`` is a bound ("over 5 years") that ``v`` meets."""
    return not v.bound and _meets(g, v)


_RANK = re.compile(r"(?:\bno\.|#|\bnumber|\bnum\.)\s*$", re.IGNORECASE)
_RANGE_JOIN = re.compile(r"^\s*(?:to|-|\u2013|\u2014|or|and)\s*$", re.IGNORECASE)


def _joined(v: Value, w: Value, prediction: str) -> bool:
    """True when two figures are joined as a range, pair or score ("2 to 3", "106-95")."""
    between = prediction[v.end : w.start] if w.start >= v.end else prediction[w.end : v.start]
    return w is not v and _RANGE_JOIN.match(between) is not None


def _in_range(v: Value, pred_vals: Sequence[Value], prediction: str) -> bool:
    """True when ``v`` is one end of a range or a pair of alternatives ("2 to 3", "10-11")."""
    return any(_joined(v, w, prediction) for w in pred_vals)


def _paired_with_gold(
    v: Value, pred_vals: Sequence[Value], gold_vals: Sequence[Value], prediction: str
) -> bool:
    """True when ``v`` is joined (by a dash, "to"...) to a figure that states a gold figure."""
    return any(
        _joined(v, w, prediction) and any(same_value(g, w) for g in gold_vals) for w in pred_vals
    )


def _leads_with_gold_figures(
    gold_vals: Sequence[Value], pred_vals: Sequence[Value], prediction: str
) -> bool:
    """True when every gold figure is stated rightly, not as the end of a range, and the first
    figure that could restate one of them does (later figures are then detail)."""
    if not gold_vals:
        return False
    right = [v for v in pred_vals if any(same_value(g, v) for g in gold_vals)]
    if any(_in_range(v, pred_vals, prediction) for v in right):
        return False
    if not all(any(same_value(g, v) for v in right) for g in gold_vals):
        return False
    first = next((v for v in pred_vals if _peers(gold_vals, v)), None)
    return first is not None and first in right


def _echoed_count(v: Value, query: str) -> bool:
    # "all four categories", "the Hot 100": the question's own counts. A year it names stays
    # a figure to restate ("the 1999 film" restated as "a 2009 movie" is wrong).
    return bool(query) and v.kind != "date" and not v.is_year_like and _echoes(v, query)


def _ordinal(v: Value) -> bool:
    return v.text.lower() in ORDINAL_WORDS or bool(re.search(r"\d(?:st|nd|rd|th)$", v.text))


def _gold_figures(gold: str, years: bool) -> list[Value]:
    return [v for v in find_values(gold) if v.amount is not None and (years or not v.is_year_like)]


def _peers(gold_vals: Sequence[Value], v: Value) -> list[Value]:
    """The gold figures ``v`` could be restating: same kind, within a factor of two."""
    if v.amount is None:
        return []
    return [
        g
        for g in gold_vals
        if comparable(g, v)
        # A share is restated as a share: "89 mg" does not restate "107% of the daily value".
        and (g.kind == "percent") == (v.kind == "percent")
        and g.amount
        and Decimal("0.5") <= abs(v.amount / g.amount) <= 2
    ]


def stated_beside(
    gold: str, prediction: str, wrong: Sequence[Value], *, years: bool = False
) -> bool:
    """True when every gold figure the ``wrong`` figures could restate is also stated rightly
    in the prediction: the wrong ones may then be about something else ("released in 2023
    ... retired in 2022"), not a proof of error (nor of being right)."""
    gold_vals = _gold_figures(gold, years)
    pred_vals = find_values(prediction)
    return all(
        any(same_value(g, w) for w in pred_vals) for v in wrong for g in _peers(gold_vals, v)
    )


def states_a_gold_figure(gold: str, prediction: str) -> bool:
    """True when the prediction states at least one of the gold's figures rightly."""
    pred_vals = find_values(prediction)
    return any(same_value(g, w) for g in _gold_figures(gold, True) for w in pred_vals)


_UNKNOWN_GOLDS = frozenset(["i dont know", "i do not know"])


def unknown_outcome(answers: Sequence[str], prediction: str) -> RuleOutcome | None:
    """Missing for a prediction that states no figure to a question whose gold is "i don't
    know" (CRAG's figure questions nobody has data for: "what is the p/e ratio of wldsw?"):
    "a warrant has no P/E ratio" gives no answer, as a refusal gives none."""
    if not answers or normalize_answer(answers[0]) not in _UNKNOWN_GOLDS:
        return None
    if any(not v.is_year_like for v in find_values(prediction)):
        return None
    return RuleOutcome("missing", "refusal", "no figure for a question nobody can answer")


def settle(
    query: str, answers: Sequence[str], prediction: str, *, list_gold: bool = False
) -> RuleOutcome | None:
    """The first mechanical outcome that applies (yes/no, comparison pick, values, and for a
    list gold its items), or None."""
    return (
        unknown_outcome(answers, prediction)
        or yes_no_outcome(answers, prediction)
        or code_outcome(answers, prediction)
        or comparison_outcome(query, answers, prediction)
        or frequency_outcome(query, answers, prediction)
        or zero_outcome(query, answers, prediction)
        or score_outcome(query, answers, prediction)
        or value_outcome(answers, prediction, query)
        or (list_outcome(answers, prediction, query) if list_gold else None)
    )


# Words that make an opening name one candidate among others, or a reported one ("usually
# credited as the first talkie", "widely considered").
_QUALIFIED_OPENING = re.compile(
    r"\b(?:usually|generally|typically|often|commonly|widely|reportedly|considered|credited"
    r"|called|known\s+as|among)\b",
    re.IGNORECASE,
)
_OPENING_NAME_WORDS = (2, 4)


# The words of a yes/no question that ask, not what is asked about.
_ASKING = frozenset(
    [
        *("is", "was", "are", "were", "did", "does", "do", "has", "have", "had", "can"),
        *("could", "will", "would", "should", "how", "what", "which", "that", "this"),
        *("there", "it", "its", "ever"),
    ]
)
_AFFIRMED_WORDS = 3
# Words that make an opening something other than a plain statement that it is so.
_UNPLAIN = re.compile(
    r"\b(?:if|whether|unless|although|though|except|only|maybe|perhaps|probably|likely"
    r"|possibly|believe|think|seems?|appears?|may|might|reportedly|depends|but)\b|\?",
    re.IGNORECASE,
)


def affirmation_outcome(query: str, answers: Sequence[str], prediction: str) -> RuleOutcome | None:
    """A yes/no question answered by stating that it is so: "The movie was officially named
    'In Darkness' at first." to "is in darkness how that movie was officially named at
    first?" says yes. The opening sentence must hold every word the question asks about
    (three or more), deny nothing, and make no condition, doubt or contrast of it."""
    gold = yes_no_gold(answers)
    if gold is None or normalize_answer(answers[0]) not in _YES_NO:
        return None
    if comparison_options(query) is not None:
        return None
    first = answer_sentence(prediction)
    if _DENIAL.search(first) or _UNPLAIN.search(first):
        return None
    asked = {crude_stem(w) for w in tokens(query) if w not in FUNCTION_WORDS and w not in _ASKING}
    if len(asked) < _AFFIRMED_WORDS:
        return None
    said = {crude_stem(w) for w in tokens(first)}
    if not asked <= said:
        return None
    if gold == "yes":
        return RuleOutcome("correct", "yes_no", "states what the question asks: yes = yes")
    return RuleOutcome("incorrect", "yes_no", "states what the question asks: yes ≠ no")


def _gold_name(query: str, answers: Sequence[str]) -> list[str] | None:
    """The gold's words when it is a name of two to four words with no figure, to a question
    that offers no options and is no yes/no or false-premise question; else None."""
    if not answers or comparison_options(query) is not None:
        return None
    gold = tokens(answers[0])
    low, high = _OPENING_NAME_WORDS
    if not low <= len(gold) <= high or any(any(c.isdigit() for c in t) for t in gold):
        return None
    if yes_no_gold(answers) is not None or is_invalid_gold(answers):
        return None
    return gold


def opening_outcome(query: str, answers: Sequence[str], prediction: str) -> RuleOutcome | None:
    """Correct when a sentence opens with the gold name as its subject ("Lynn Shelton
    directed Your Sister's Sister." to "who directed it?"): a name of two to four words, no
    figure, to a question that offers no options, in a reply that denies, doubts and
    qualifies nothing and adds no second name beside it ("Lynn Shelton and Mark Duplass")."""
    gold = _gold_name(query, answers)
    if gold is None:
        return None
    said = tokens(prediction)
    if said[: len(gold)] != gold or len(said) <= len(gold) + 1:
        return None
    if said[len(gold)] in {"and", "or", "nor", "plus", "with"}:
        return None
    # The clause the name opens goes on as a sentence: "Lynn Shelton, Mark Duplass" or
    # "Lynn Shelton / Mark Duplass" may list more names.
    if len(tokens(re.split(r"[,;/&]", prediction, maxsplit=1)[0])) <= len(gold):
        return None
    if denies(prediction) or states_doubt(prediction) or _QUALIFIED_OPENING.search(prediction):
        return None
    return RuleOutcome("correct", "opens_with_gold", answers[0])


# "Parkland (2013)": a year or a short figure in brackets dates or counts; it names nothing.
_FIGURE_ASIDE = re.compile(r"\s*\(\s*[\d\s,.–-]{1,12}\)")


def restated_with_gold(query: str, answers: Sequence[str], prediction: str) -> RuleOutcome | None:
    """Correct when a one-sentence reply is the question restated around the gold name and
    nothing else ("Parkland (2013) was directed by Peter Landesman." to "who is the director
    of parkland?"): a name of two to four words, every other word the question's (or a
    function word, or a year in brackets), denying, doubting and qualifying nothing."""
    gold = _gold_name(query, answers)
    if gold is None:
        return None
    plain = _FIGURE_ASIDE.sub("", prediction).strip()
    if len([p for p in _SENTENCE_END.split(plain) if p.strip()]) != 1 or "\n" in plain:
        return None
    said = tokens(plain)
    at = next((i for i in range(len(said)) if said[i : i + len(gold)] == gold), None)
    if at is None:
        return None
    rest = said[:at] + said[at + len(gold) :]
    asked = {crude_stem(w) for w in tokens(query)}
    if not rest or not all(w in FUNCTION_WORDS or asked_word(w, asked) for w in rest):
        return None
    if denies(prediction) or states_doubt(prediction) or _UNPLAIN.search(plain):
        return None
    return RuleOutcome("correct", "opens_with_gold", f"the question restated around {answers[0]}")


# A column of fixed width keeps a reply's first characters: "O.J.: Made in Americ" (20).
_CLIPPED_REPLY_CHARS = (12, 40)
_CLIPPED_WORD_CHARS = 3


def clipped_gold_outcome(answers: Sequence[str], prediction: str) -> RuleOutcome | None:
    """Correct when a short reply is a one-item gold's opening words, cut inside a word as a
    database column of fixed width cuts what is stored in it ("Common Threads: Stor" for
    "Common Threads: Stories from the Quilt"): two whole words or more, then the cut one
    kept to three letters or more, twelve characters in all or more. A list gold is left to
    the list rules, which count what the cut lost."""
    plain = prediction.strip()
    shortest, longest = _CLIPPED_REPLY_CHARS
    if not shortest <= len(plain) <= longest or "\n" in plain or not plain[-1:].isalnum():
        return None
    said = tokens(plain)
    if len(said) < 3 or len(said[-1]) < _CLIPPED_WORD_CHARS:
        return None
    for gold in answers:
        words = tokens(gold)
        if len(split_items(gold)) != 1 or len(words) < len(said):
            continue
        cut = words[len(said) - 1]
        if words[: len(said) - 1] == said[:-1] and cut != said[-1] and cut.startswith(said[-1]):
            return RuleOutcome("correct", "clipped_gold", f"{gold} cut after {len(plain)} chars")
    return None


# "&" joins words of one title or name ("Fast & Furious 6", "Simon & Garfunkel"): no split.
# " + " joins items like "plus" ("Point guard + Center"); between figures it is a sum.
# " | " and " / " join them as a fragment printer does ("Court | Evert | Graf").
_ITEM_SPLIT = re.compile(
    r"\s*(?:[,;\n]|\band\b|\bplus\b|(?<=[^\d\s])\s\+\s(?=[^\d\s])|\s[|/]\s|\(?\d+[.)]\s)\s*",
    re.IGNORECASE,
)
# "(1) Coco Gauff (2) Jessica Pegula": numbers in brackets that number a list's items.
_BRACKETED_NUMBER = re.compile(r"(?:^|\s)\(\d{1,2}\)\s")
# "... Best New Artist went to A, B and C": an award's list is led in by where it went.
_LEAD_IN = re.compile(
    r"^.{0,160}?\b(?:are|were|is|was|include|includes|included|including|went\s+to|namely,?"
    r"|:)\s+",
    re.IGNORECASE,
)
_LEAD_COLON = re.compile(r"^[^,\n]{0,80}?:\s+")
# "... includes five films, namely A, B and C": after the verb's lead-in, the count it names.
_LEAD_NAMELY = re.compile(r"^[^\n]{0,80}?\bnamely,?\s+", re.IGNORECASE)
_PARENS = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_ITEM_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "and",
        "or",
        "in",
        "on",
        "at",
        "to",
        "for",
        "with",
        "by",
        "from",
        "his",
        "her",
        "their",
        "its",
        "twins",
        "twin",
        "also",
        "both",
        "as",
        "well",
    ]
)
_SENTENCE_WORDS = frozenset(["is", "are", "was", "were", "has", "have", "had", "will", "would"])
_MAX_ITEM_WORDS = 6
_LIST_AND = re.compile(r"^\s*(?:and|&)\s+", re.IGNORECASE)
_MAX_LIST_WORDS = 80
"""A gold list may be long (fifteen boxers' names); a sentence gold is told apart by its verbs."""


_SENTENCE_END = re.compile(r"(?<=[\w)\"'\u201d\u2019][\w)\"'\u201d\u2019])\.\s+(?=[A-Z\"\u201c])")
_CLAUSE_AFTER_SEMICOLON = re.compile(r";\s+(?=[^;]*\b(?:is|are|was|were|has|have|had)\b)")
# "China, the United States and India; in 2022, China generated about 8,849 TWh": a clause
# set in a year.
_YEAR_CLAUSE = re.compile(
    r";\s+(?:in|as of|by|since|during|through)\s+(?:\S+\s+){0,2}?(?:19|20)\d\d\b", re.IGNORECASE
)


def _before_year_clause(body: str) -> str:
    """``body`` up to a clause set in a year after a semicolon, when a list comes before it
    (one may as well follow it: "It is the last four; in 2023 it was A, B, C and D")."""
    m = _YEAR_CLAUSE.search(body)
    if m is None or len(split_items(body[: m.start()])) < 2:
        return body
    return body[: m.start()]


_BULLET = re.compile(r"^[ \t]*[-\u2022*][ \t]+(?P<line>.+)$", re.MULTILINE)
# What follows an item's name on its line: "Jeff Mangum: vocals", "Whole Foods (2017)".
_ITEM_DETAIL = re.compile(r":\s|\s[\u2013\u2014-]\s|\s\(")


# "are: - Queen of Me (2023)\n- Now (2017) - Up! (2002)": a bulleted list whose line breaks
# a rewrap (textwrap.fill) turned into spaces. A list's lead-in ends its line; a dash right
# after its colon says the lines were run together, and each " - " after it opens an item.
_FLATTENED_LIST = re.compile(r":[ \t]+-\s+(?=\S)")
_RUN_ON_BULLET = re.compile(r"\s+-\s+(?=\S)")


def _unflattened(text: str) -> str:
    """``text`` with a run-together bulleted list back on one line per item."""
    m = _FLATTENED_LIST.search(text)
    if m is None:
        return text
    items = _RUN_ON_BULLET.sub("\n- ", text[m.end() :])
    return f"{text[: m.start()]}:\n- {items}"


def _bullet_items(text: str) -> list[str] | None:
    """The names a bulleted list gives, one line each up to its detail ("- Jeff Mangum:
    vocals, guitar" -> "Jeff Mangum"; "- A, B and C: 3 each" -> "A, B and C"); None when the
    text holds fewer than two bullets."""
    lines = [_before_relative(m.group("line")) for m in _BULLET.finditer(_unflattened(text))]
    if len(lines) < 2:
        return None
    heads = [_ITEM_DETAIL.split(line, maxsplit=1) for line in lines]
    shared = Counter(parts[0].strip().lower() for parts in heads if len(parts) == 2)
    return [
        # "- The Divergent Series: Insurgent", "- The Divergent Series: Allegiant": a head
        # that several lines share is the series' name, and "- 59th: Chance the Rapper" is a
        # slot's label; what follows names the item.
        _ITEM_DETAIL.split(parts[1], maxsplit=1)[0]
        if len(parts) == 2 and (shared[parts[0].strip().lower()] >= 2 or _slot_label(parts[0]))
        else parts[0]
        for parts in heads
    ]


_SLOT_WORDS = frozenset(
    [
        *("season", "week", "round", "game", "part", "volume", "vol", "episode", "day"),
        *("no", "number", "quarter", "edition", "ceremony", "grammys", "grammy", "oscars"),
        *("awards", "academy", "annual", "year", "film", "films", "for", "in"),
    ]
)


def _slot_label(head: str) -> bool:
    """True when a bullet's head only labels a slot ("59th", "2019", "Season 2", "81st
    Academy Awards") rather than naming the item."""
    words = tokens(_PARENS.sub(" ", head))
    figures = [w for w in words if re.fullmatch(r"\d+(?:st|nd|rd|th)?", w)]
    return (
        bool(figures) and len(words) <= 4 and all(w in _SLOT_WORDS or w in figures for w in words)
    )


# ", which replaced ExxonMobil, Pfizer and Raytheon": what a relative clause goes on to
# list is its own detail, not more items of the answer.
_RELATIVE = re.compile(
    r",\s*(?:which|who|whom|whose|whereas|while|although|though|replacing)\b[^\n]*",
    re.IGNORECASE,
)


def _before_relative(text: str) -> str:
    """``text`` up to a relative clause that follows a comma."""
    return _RELATIVE.sub("", text, count=1)


# The verbs that make the words before a colon a lead-in ("The films are: ...").
_LEAD_VERB = re.compile(
    r"\b(?:are|were|is|was|include|includes|included|including|have|has|had)\b", re.IGNORECASE
)


def _strip_lead_in(body: str) -> str:
    """``body`` without the lead-in before its list ("Here are the films: a, b" -> "a, b"),
    unless the words before a colon are themselves items ("shrek 2, puss in boots: the last
    wish", "assassin and detective knight: independence")."""
    for lead in (_LEAD_IN, _LEAD_NAMELY, _LEAD_COLON):
        m = lead.match(body)
        if m is None:
            continue
        lead_text = body[: m.end()].rstrip()
        head = lead_text.rstrip(":")
        listed = [p for p in _ITEM_SPLIT.split(head) if p.strip()]
        if (
            lead_text.endswith(":")
            # "As of today, eight: a, b, ...": a count before the colon announces the list.
            and not _is_count(listed[-1] if listed else "")
            and not _LEAD_VERB.search(head)
            and len(listed) >= 2
            and all(len(tokens(p)) <= _MAX_ITEM_WORDS - 1 for p in listed)
        ):
            continue
        body = body[m.end() :]
    return body


def _is_count(piece: str) -> bool:
    words = tokens(piece)
    return len(words) == 1 and (words[0].isdigit() or words[0] in NUMBER_WORDS)


def _items(text: str, *, strip_lead_in: bool) -> list[tuple[str, ...]]:
    """The items of a list, each as its distinctive words in order."""
    bullets = _bullet_items(text)
    if bullets is not None:
        # A bulleted list: its lines are the items, whatever sentences surround them.
        return _item_words([p for line in bullets for p in _ITEM_SPLIT.split(line)])
    body = text.split("\n\n")[0]
    # The first sentence only; "1. Maddox 2. Pax" is one numbered list, not three sentences.
    body = _SENTENCE_END.split(body)[0]
    # "...; the featherweight title has been vacant since 2023": a new clause, not an item.
    body = _before_year_clause(_CLAUSE_AFTER_SEMICOLON.split(body)[0])
    body = _before_relative(_PARENS.sub(" ", _BRACKETED_NUMBER.sub("\n", body)))
    if strip_lead_in:
        # "... includes five films: a, b, c": the lead-in runs to its colon.
        body = _strip_lead_in(body)
    return _item_words(_ITEM_SPLIT.split(body))


def split_items(text: str) -> list[str]:
    """The pieces of ``text`` between a list's separators (commas, semicolons, "and", "plus",
    numbering), blank ones dropped."""
    return [p for p in _ITEM_SPLIT.split(text) if p.strip()]


def _item_words(pieces: list[str]) -> list[tuple[str, ...]]:
    parts: list[str] = []
    for part in (p.strip(" .-*•") for p in pieces):
        # "salesforce, inc." is one item: a company's legal suffix joins the item before it.
        if parts and part.lower().rstrip(".") in _LEGAL_SUFFIXES:
            parts[-1] += f" {part}"
        elif parts and _CAST_CLAUSE.match(part):
            # "Officer Michaels, played by Seth Rogen": the role and its actor are one item.
            parts[-1] += f" {part}"
        elif part and not (
            _TIME_ASIDE.match(part) or _SOURCE_ASIDE.match(part) or (parts and _CLAUSE.match(part))
        ):
            # ", who joined the club in 2022" comments on an item; it is not one.
            parts.append(part)
    items = (tuple(dict.fromkeys(t for t in tokens(p) if t not in _ITEM_STOP)) for p in parts)
    return [i for i in items if i]


_CAST_CLAUSE = re.compile(r"(?:played|voiced|portrayed)\s+by\b", re.IGNORECASE)
_CLAUSE = re.compile(
    r"(?:who|which|that|while|whereas|although|though|but|including|with|after|before|as"
    r"|she|he|they|it)\b",
    re.IGNORECASE,
)
# "According to the context, a, b and c": where the list was read, not an item of it.
_SOURCE_ASIDE = re.compile(
    r"^(?:according\s+to|based\s+on|going\s+by|per|from)\s+(?:\S+\s+){0,3}?(?:context|documents?"
    r"|sources?|passages?|snippets?|search\s+results|results|data|information|records|filings?"
    r"|articles?|text|excerpts?|reports?)$",
    re.IGNORECASE,
)
# "..., Philadelphia 76ers and, since January 2024, the Milwaukee Bucks": a time aside.
_TIME_ASIDE = re.compile(
    r"^(?:since|until|till|as of|through)\s+(?:\S+\s+){0,3}?(?:19|20)\d{2}$", re.IGNORECASE
)
_LEGAL_SUFFIXES = frozenset(
    [
        "inc",
        "ltd",
        "llc",
        "corp",
        "corporation",
        "co",
        "plc",
        "lp",
        "sa",
        "ag",
        "nv",
        "se",
        "limited",
        "incorporated",
    ]
)


def _gold_items(gold: str) -> list[tuple[str, ...]] | None:
    words = tokens(gold)
    if len(words) > _MAX_LIST_WORDS or (_SENTENCE_WORDS & set(words) and not _short_parts(gold)):
        return None
    items = _items(gold, strip_lead_in=False)
    if len(items) < 2 or any(len(i) > _MAX_ITEM_WORDS for i in items):
        return None
    if len(items) == 2 and is_place(" ".join(items[1])) and not is_place(" ".join(items[0])):
        return None  # "los angeles, usa" is one place; "nevada, oregon" are two
    return items


def _short_parts(gold: str) -> bool:
    # "good will hunting, argo, and gone baby gone": three short parts between commas are
    # a list even when a title holds a verb ("will").
    parts = [_LIST_AND.sub("", p) for p in gold.split(",")]
    return len(parts) >= 3 and all(1 <= len(tokens(p)) <= 4 for p in parts)


def list_outcome(answers: Sequence[str], prediction: str, query: str = "") -> RuleOutcome | None:
    """A list gold against a list answer: the same items, or an item missing or added.

    Items are matched by their distinctive words ("maddox" for "maddox chivan jolie-pitt";
    words every gold item shares, like a family name, tell nothing). Only a prediction
    that is itself a list is settled, or one gold item alone to a ``query`` after several
    ("who were ...?" against three or more); anything else is the judge's.
    """
    gold = _gold_items(answers[0]) if answers else None
    if gold is None:
        return None
    pred = _items(prediction, strip_lead_in=True)
    if not pred or any(len(i) > _MAX_ITEM_WORDS + 2 for i in pred):
        # "A, B, C and D have each won all four": the list is the sentence's subject.
        subject = _listed_subject(prediction, query)
        if subject is None:
            return None
        pred = _items(subject, strip_lead_in=False)
    common = set.intersection(*(set(g) for g in gold))
    gold_keys = [set(g) - common or set(g) for g in gold]
    if len(pred) == 1:
        # "Chance the Rapper" to "who were awarded ...?": one of three winners, the others
        # left out. One item to a question after one ("name a film of hers"), or against a
        # two-part gold that may be one description ("an engineered pond, fed by the pripyat
        # river"), is the judge's to read.
        asks_several = bool(_PLURAL_ASK & set(tokens(query)))
        named = (
            asks_several and len(gold) >= 3 and len(tokens(prediction)) <= _MAX_ITEM_WORDS
        ) and any(_names_item(g, gold[i], pred[0]) for i, g in enumerate(gold_keys))
        if not named:
            return None
        return RuleOutcome("incorrect", "list_items", f"{len(gold) - 1} gold item(s) missing")
    matched: set[int] = set()
    extra = 0
    for item in pred:
        found = [i for i, g in enumerate(gold_keys) if _names_item(g, gold[i], item)]
        hits = [i for i in found if i not in matched]
        if hits:
            matched.add(hits[0])
        elif not found:
            extra += 1
    missing = len(gold) - len(matched)
    if not missing and not extra:
        return RuleOutcome("correct", "list_items", f"the {len(gold)} gold items, none added")
    detail = f"{missing} gold item(s) missing, {extra} item(s) added"
    return RuleOutcome("incorrect", "list_items", detail)


def _names_item(gold_key: set[str], gold_item: tuple[str, ...], item: tuple[str, ...]) -> bool:
    """A gold item's distinctive words in a listed item: a shared word (a long word misspelt
    at its end counts: "supremecy"), one the acronym of the other ("wba" for "World
    Boxing Association"), or the same name otherwise ("usa" for "united states")."""
    if any(same_word(g, w) for g in gold_key for w in item):
        return True
    if len(gold_key) == 1 and len(item) >= 2 and next(iter(gold_key)) == acronym_of(list(item)):
        return True
    return same_name(" ".join(gold_item), " ".join(item))


_LIST_LEAD_IN = re.compile(r"^.{0,160}?(?:\b(?:are|were|is|was)\s|:\s*)", re.IGNORECASE)


# An item that opens like a clause ("directed by william wyler", "starring charlton heston",
# "won 11 awards") comments on the answer: the text is a sentence, not a list.
_CLAUSE_ITEM = re.compile(
    r"^\W*(?:directed|written|produced|released|created|founded|starring|featuring|including"
    r"|won|by|who|which|that|with)\b",
    re.IGNORECASE,
)


_VALUE_LEAD_IN = re.compile(r"^.{0,160}?\b(?:is|are|was|were)\s+", re.IGNORECASE)
_QUOTED = re.compile(r"[\"\u201c]([^\"\u201d]+)[\"\u201d]")
_TITLE_JOINS = re.compile(r"\band\b|&|:|,")


# "roy emerson, rod laver, ... and serena williams have all won ...": the list leads.
_LIST_BEFORE_VERB = re.compile(
    r"^(?P<body>[^.;:!?]{0,300}?)\s+(?:have|has|had|are|were|all|both|each)\b", re.IGNORECASE
)


def stated_list(gold: str, query: str = "") -> str | None:
    """The list a sentence gold states after its lead-in, or before its verb, when it is one
    of three items or more ("the movies in the franchise are "a", "b" and "c"" -> "a", "b"
    and "c"; "a, b and c have all won ..." -> "a, b and c"), or of two to a question after
    more than one thing ("what are the 2 longest rivers?"), else None.

    "Including" is no lead-in here: what follows it is only part of the answer. A gold that
    is itself a list, or whose "items" read as clauses, has none.
    """
    if long_list(gold):
        return None
    shortest = 2 if _PLURAL_ASK & set(tokens(query)) else 3
    after = _LIST_LEAD_IN.match(gold)
    if after is not None:
        body = gold[after.end() :].strip().rstrip(".").strip()
        if _is_stated_list(body, shortest):
            return body
    return _names_before_verb(gold, shortest)


def _names_before_verb(sentence: str, shortest: int) -> str | None:
    """The list of names ``sentence`` opens with, before its verb ("a, b and c have all won
    ..." -> "a, b and c"), when it is a stated list of ``shortest`` items or more."""
    before = _LIST_BEFORE_VERB.match(sentence)
    if before is None or any(ch.isdigit() for ch in before.group("body")):
        # Only names lead a sentence as its list: "in 2019, 2020 and 2021 the team" is none.
        return None
    body = before.group("body").strip()
    return body if _is_stated_list(body, shortest) else None


def _listed_subject(prediction: str, query: str) -> str | None:
    """The list of names a reply's first sentence opens with, before its verb ("A, B, C and
    D have each won all four" -> "A, B, C and D"), as `stated_list` reads a gold's."""
    first = _SENTENCE_END.split(prediction.strip().split("\n\n")[0])[0]
    return _names_before_verb(first, 2 if _PLURAL_ASK & set(tokens(query)) else 3)


def _is_stated_list(body: str, shortest: int) -> bool:
    if any(_TITLE_JOINS.search(q) for q in _QUOTED.findall(body)):
        return False  # "fast and furious: tokyo drift": the list cannot be split on its words
    parts = [p for p in _ITEM_SPLIT.split(body) if p.strip()]
    if any(_CLAUSE_ITEM.match(p) for p in parts[1:]):
        return False
    items = _gold_items(body)
    return items is not None and len(items) >= shortest


_NONE_SAID = re.compile(_NEGATION.pattern + r"|\b(?:none|zero)\b", re.IGNORECASE)


def says_none(gold: str) -> bool:
    """True when a gold says "never", "no", "not" or "none": its figures may not be the
    count asked for ("has never won, though nominated seven times")."""
    return _NONE_SAID.search(gold) is not None


def only_figure(gold: str, query: str) -> str | None:
    """The one exact figure of a sentence gold that is not a year or a figure of the question
    ("titanic has won 11 awards." -> "11"), else None. A gold that says "never" or "no"
    ("has never won, though nominated seven times") answers with none: its figure is
    about something else."""
    if says_none(gold):
        return None
    figures = [
        v
        for v in find_values(gold)
        if v.amount is not None and not v.is_year_like and not _echoes(v, query)
    ]
    if len(figures) > 1:
        figures = _qualified_by_question(gold, query, figures)
    if len(figures) != 1 or figures[0].qualified:
        return None
    return figures[0].text


_CLAUSE_END = re.compile(r"[,.;:()]")
_QUALIFIER_WORDS = 6
# One shared word may be the question's own noun ("1 & the number itself" to "what is a
# prime number?"); a qualifier repeats two ("two with rita wilson").
_QUALIFIER_SHARED = 2


def _qualified_by_question(gold: str, query: str, figures: list[Value]) -> list[Value]:
    """Of a gold's figures, the one whose words after it (up to the next figure or the end of
    its clause) repeat most of the question's ("four children total, two with rita wilson"
    to "how many does he have with rita wilson?": two); all of them when none stands out
    ("7 books and 8 movies" to "how many books and movies?")."""
    asked = set(tokens(query)) - FUNCTION_WORDS

    def shared(v: Value) -> int:
        following = [w.start for w in figures if w.start > v.start]
        rest = _CLAUSE_END.split(gold[v.end : min(following, default=len(gold))], maxsplit=1)[0]
        return len(asked & set(tokens(rest)[:_QUALIFIER_WORDS]))

    counts = [shared(v) for v in figures]
    best = max(counts)
    if best < _QUALIFIER_SHARED or counts.count(best) > 1:
        return figures
    return [figures[counts.index(best)]]


_PLURAL_ASK = frozenset(["are", "were"])


def plain_list(text: str, query: str = "") -> bool:
    """True when ``text`` is a bare list of names: two or more short items between commas,
    no figure ("lenny kravitz, lisa bonet"; not "take care, released in 2011"), or two names
    joined by "and" answering a question after more than one ("who are ...")."""
    parts = [_LIST_AND.sub("", p) for p in text.split(",") if p.strip()]
    if len(parts) == 1 and _PLURAL_ASK & set(tokens(query)):
        # "frenkie de jong and robert lewandowski" to "who are the highest paid players?";
        # a title with "and" ("pride and prejudice") answers a question after one thing.
        parts = re.split(r"\s+and\s+", text.strip(), flags=re.IGNORECASE)
    return (
        len(parts) >= 2
        # A figure of its own is no name; a digit inside a name is ("san francisco 49ers").
        and not any(t.isdigit() for t in tokens(text))
        and all(1 <= len(tokens(p)) <= 4 for p in parts)
        and _gold_items(text) is not None
    )


def stated_value(gold: str) -> str | None:
    """The value a sentence gold states after its verb ("netflix stock closing price is
    561.32" -> "561.32"), when all that follows the verb is a value, else None."""
    m = _VALUE_LEAD_IN.match(gold)
    if m is None:
        return None
    body = gold[m.end() :].strip().rstrip(".").strip()
    return body if body and gold_values(body) is not None else None


_NAME_THEN_FIGURE = re.compile(r"^(?P<name>[^,\d$%]+?),\s*(?P<figure>.+)$")


def named_before_figure(gold: str) -> str | None:
    """The name a gold gives before the figure that backs it ("new york, $105,226" ->
    "new york"), else None: to a question after the name, the figure is detail."""
    m = _NAME_THEN_FIGURE.match(gold.strip())
    if m is None or gold_values(m.group("figure")) is None:
        return None
    name = m.group("name").strip()
    return name if 1 <= len(tokens(name)) <= 4 else None


# "rihanna and eminem co-headlined the monster tour": a pair that did something together.
_PAIR_OPENING = re.compile(
    r"^(?P<a>[^,;]+?)\s+(?:and|&)\s+(?P<b>[^,;]+?)\s+(?=co-?\w+|\w+ed\b|were\b|are\b|have\b)",
    re.IGNORECASE,
)
_PARTNER_MAX_WORDS = 4


def partner_named(gold: str, question: str) -> str | None:
    """The partner a gold names beside the one the question asks about ("who did rihanna
    co-headline a tour with?" - "rihanna and eminem co-headlined ..." -> "eminem"), else
    None."""
    asked = set(tokens(question))
    m = _PAIR_OPENING.match(gold.strip())
    if "with" not in asked or m is None:
        return None
    a, b = tokens(m.group("a")), tokens(m.group("b"))
    if not a or not set(a) <= asked or not 1 <= len(b) <= _PARTNER_MAX_WORDS or set(b) <= asked:
        return None
    return m.group("b").strip()


# "what is a roth ira?" - "a roth ira is an individual retirement account to which ...": a
# definition names the kind of thing first, then what sets it apart.
_DEFINITION_QUESTION = re.compile(
    r"^\s*what\s+(?:is|are)\s+(?:an?\s+|the\s+)?(?P<term>[^?]+?)\s*\??\s*$"
)
_GENUS = re.compile(
    r"\s+(?:is|are)\s+(?:an?\s+|the\s+)?(?P<genus>[a-z][a-z -]*?)"
    r"(?=\s+(?:that|which|who|whose|where|to\s+which|in\s+which|used|with|for|of)\b|[,;.(]|$)"
)
_GENUS_WORDS = (2, 4)


def defined_genus(gold: str, question: str) -> str | None:
    """The kind of thing a definition gold says its term is ("individual retirement account"
    from "a roth ira is an individual retirement account to which you contribute ..."), to
    a question that asks what the term is; None otherwise (or for a figure)."""
    q = _DEFINITION_QUESTION.match(question.lower())
    if q is None:
        return None
    term = tokens(q.group("term"))
    m = _GENUS.search(gold.lower())
    if m is None or not term or not set(term) <= set(tokens(gold[: m.start()])):
        return None
    genus = m.group("genus").strip()
    low, high = _GENUS_WORDS
    if not low <= len(tokens(genus)) <= high or set(tokens(genus)) <= set(term):
        return None
    return genus


# Codes and names of countries among CRAG's codes (not its languages or results).
_COUNTRY_CODES = "us usa uk gb es fr de it pt jp kr cn ru ca au mx in br"
_COUNTRIES = frozenset(name for code in _COUNTRY_CODES.split() for name in (code, *CODES[code]))
_PLACE_THEN_COUNTRY = re.compile(r"^(?P<place>[^,\d]+?),\s*(?P<country>[a-z .]+?)\.?$")


def place_before_country(gold: str) -> str | None:
    """The place a gold names before its country ("los angeles, usa" -> "los angeles"): the
    country only says where the place is. None for any other gold."""
    m = _PLACE_THEN_COUNTRY.match(gold.strip().lower())
    if m is None or " ".join(tokens(m.group("country"))) not in _COUNTRIES:
        return None
    place = m.group("place").strip()
    return place if 1 <= len(tokens(place)) <= 4 else None


def long_list(text: str) -> bool:
    """True when ``text`` is a list of three items or more ("a, b and c")."""
    items = _gold_items(text)
    return items is not None and len(items) >= 3


_NEITHER_WIN_NOR_LOSS = re.compile(r"\bneither (?:a )?(?:win|won) nor (?:a )?(?:loss|lost)\b")


def code_outcome(answers: Sequence[str], prediction: str) -> RuleOutcome | None:
    """A gold that is a short code ("en", "es", "w") against a prediction naming it in words.

    Correct when the prediction names the code's meaning and no other code's meaning of the
    same table ("English" for "en", "Strasbourg lost" for "l"); otherwise the judge decides.
    """
    gold = normalize_answer(answers[0]) if answers else ""
    names = CODES.get(gold)
    if names is None:
        return None
    results = gold in ("w", "l", "d")
    text = " ".join(tokens(prediction))
    if results:
        # "neither won nor lost", "neither a win nor a loss": a draw in the words of the others.
        text = _NEITHER_WIN_NOR_LOSS.sub("draw", text)
    said = {n for n in names if f" {n} " in f" {text} "}
    if not said:
        return None
    rivals = [
        k
        for k, v in CODES.items()
        if k != gold
        and (k in ("w", "l", "d")) == results
        and not v & names
        and any(f" {n} " in f" {text} " for n in v)
    ]
    if rivals:
        return None
    return RuleOutcome("correct", "code_match", f"{sorted(said)[0]} = {gold}")


_QUESTION_STOP = FUNCTION_WORDS | frozenset(
    ["answer", "as", "how", "question", "when", "where", "why"]
)


def restates_question(query: str, prediction: str) -> bool:
    """True when the prediction only repeats the question: it gives no answer (missing).

    "The company with the highest EPS growth is the company with the highest EPS growth":
    no content word that is not the question's, and no figure of its own.
    """
    asked = set(tokens(query))
    words = [w for w in tokens(prediction) if w not in _QUESTION_STOP and len(w) > 2]
    # A short reply made of the question's words may be a pick among options it names
    # ("Washington Crossing the Delaware"): only a long restatement is no answer.
    if len(words) < 5:
        return False
    if any(w not in asked for w in words):
        return False  # a word of its own may be the answer ("the capital is paris")
    asked_values = {v.amount for v in find_values(query)}
    return all(v.amount in asked_values for v in find_values(prediction) if v.amount is not None)


_DENIAL = re.compile(
    r"\b(?:not|never|no|none|nobody|nothing|neither|nor|false|incorrect|wrong|invalid|untrue"
    r"|mistaken|misconception|doesn'?t|isn'?t|wasn'?t|hasn'?t|haven'?t|didn'?t|aren'?t|weren'?t"
    r"|won'?t|can'?t|cannot|without|zero|premise|actually|rather|instead|alive)\b|n't\b",
    re.IGNORECASE,
)


_OPENS_YES_NO = re.compile(r"^\W*(?:yes|yep|yup|yeah|no|nope)\b", re.IGNORECASE)


def corrects_question(query: str, prediction: str) -> bool:
    """True when a prediction opens by saying the question's own claim is not so: a denial
    in its first sentence, which shares two words of substance with the question ("Chris
    Pratt wasn't married in 2005", "There's no ASAT in Legally Blonde") or is a few words
    ("They aren't."). A reply opening "No," answers a yes/no question; it corrects nothing."""
    first = answer_sentence(prediction)
    if _OPENS_YES_NO.match(first):
        return False
    if not _NEGATION.search(first):
        return False
    words = tokens(first)
    shared = (set(tokens(query)) - FUNCTION_WORDS) & set(words)
    return len(shared) >= 2 or len(words) <= 4


_NEGATOR_WORDS = "not never isnt arent wasnt werent didnt doesnt dont hasnt havent hadnt"
_NEGATORS = frozenset(_NEGATOR_WORDS.split())
# Words between a negation and what it negates: "not an ASAT", "isn't among the worst",
# "not its first" ("one" is read as "1").
_FILLER_WORDS = (
    "a an the actually really typically generally usually even ever one 1 of among in on at"
    " called named titled known as any quite so that this considered exactly been be"
    " its his her their"
)
_NEGATION_FILLER = frozenset(_FILLER_WORDS.split())
# "could not find the 1987 volume" declines; it negates nothing the question says.
_DECLINE_WORDS = (
    "find know have see say confirm verify locate access tell sure certain aware available able"
)
_DECLINE_VERBS = frozenset(_DECLINE_WORDS.split())


# "what day did beyonce die?" / "Beyoncé is alive": a death the question takes for granted,
# denied by saying the person lives.
_ASKS_A_DEATH = re.compile(r"\b(?:die|died|dies|death|pass(?:ed)?\s+away)\b", re.IGNORECASE)
_ALIVE = re.compile(r"\b(?:is|are)\s+(?:still\s+)?(?:alive|living)\b", re.IGNORECASE)


def negates_question(query: str, prediction: str) -> str | None:
    """The words where a prediction says a claim of the question's own is not so ("took the
    LSAT (not an "ASAT")", "in 2024, not 2022", "generally aren't lazy", "didn't win Best
    Actor", "is alive" to a question after a death): a negation whose next word of substance
    is a word of the question. None when there is none, when the reply opens with a yes or no
    (it answers the question), or when the negation is the question's own ("God's Not Dead",
    "Don't Stop Believing")."""
    if _OPENS_YES_NO.match(prediction):
        return None
    alive = _ALIVE.search(prediction)
    if alive is not None and _ASKS_A_DEATH.search(query):
        return alive.group(0)
    asked = set(tokens(query)) - FUNCTION_WORDS - _DECLINE_VERBS
    query_text = " ".join(tokens(query))
    words = tokens(prediction)
    for i, word in enumerate(words):
        if word not in _NEGATORS:
            continue
        following = [w for w in words[i + 1 : i + 6] if w not in _NEGATION_FILLER][:1]
        # "isn't Disney's top earner" to "... disney film": a possessive is the word it owns.
        if following and (following[0] in asked or _possessed(following[0]) in asked):
            found = f"{word} {following[0]}"
            if f" {word} {words[i + 1]} " not in f" {query_text} ":
                return found
    return None


def _possessed(word: str) -> str:
    """The word a possessive token is made of ("disneys" -> "disney"), else the word."""
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def denies(prediction: str) -> bool:
    """True when the prediction says something is not so (a false premise can only be
    pointed out in words like these); "Chicken." cannot point one out."""
    return _DENIAL.search(prediction) is not None
