"""Typed values read out of an answer: dates, amounts of money, percentages and numbers.

What mechanics can prove is settled before any model: "July 20, 1974" and
"7/20/74" are one date, "$50m", "$50 million" and "50,000,000 dollars" one
amount, "third" and "3rd" one number. Each value keeps how precisely it was
written (``102 million`` is precise to a million, ``310.17`` to a cent), so
that two values can be compared after rounding to the coarser of the two.

The reader is deliberately conservative: a letter scale ("m", "bn", "k") counts
after a currency sign, and without one only as a capital glued to its number ("52.5M
viewers", "3.4K") or an unmistakable "bn"/"mn"; "151m" stays a length. A bare four-digit
number is a number (it may be a year), and a day/month order is read the US way unless
the first part cannot be a month.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Literal

from ragmeter.scoring.normalize import NUMBER_WORDS, ORDINAL_WORDS

__all__ = [
    "Value",
    "ValueKind",
    "find_values",
    "same_value",
    "surely_different",
    "with_implied_year",
]

ValueKind = Literal["date", "money", "percent", "number"]

_MONTHS: dict[str, int] = {}
for _i, _names in enumerate(
    [
        ("january", "jan"),
        ("february", "feb"),
        ("march", "mar"),
        ("april", "apr"),
        ("may",),
        ("june", "jun"),
        ("july", "jul"),
        ("august", "aug"),
        ("september", "sep", "sept"),
        ("october", "oct"),
        ("november", "nov"),
        ("december", "dec"),
    ]
):
    for _n in _names:
        _MONTHS[_n] = _i + 1

_WORD_NUMBERS = {**NUMBER_WORDS, **ORDINAL_WORDS}
_SCALE_WORDS = {
    "thousand": Decimal(10**3),
    "million": Decimal(10**6),
    "billion": Decimal(10**9),
    "trillion": Decimal(10**12),
}
# Letter scales only after a currency sign: "151 m" is a length, "$151m" an amount.
_SCALE_LETTERS = {
    "k": Decimal(10**3),
    "m": Decimal(10**6),
    "mm": Decimal(10**6),
    "mn": Decimal(10**6),
    "mil": Decimal(10**6),
    "mln": Decimal(10**6),
    "bln": Decimal(10**9),
    "b": Decimal(10**9),
    "bn": Decimal(10**9),
    "bil": Decimal(10**9),
    "t": Decimal(10**12),
    "tn": Decimal(10**12),
    "tr": Decimal(10**12),
}
_CURRENCY_SIGNS = {"$": "usd", "us$": "usd", "usd": "usd", "€": "eur", "eur": "eur", "£": "gbp"}
_CURRENCY_WORDS = {
    "dollar": "usd",
    "dollars": "usd",
    "usd": "usd",
    "euro": "eur",
    "euros": "eur",
    "eur": "eur",
    "pound sterling": "gbp",
    "pounds sterling": "gbp",
}
# Units that name the same thing; an amount in one unit equals one in the other.
_UNIT_ALIASES = {
    "ft": "foot",
    "feet": "foot",
    "foot": "foot",
    "m": "metre",
    "meter": "metre",
    "meters": "metre",
    "metre": "metre",
    "metres": "metre",
    "km": "kilometre",
    "kilometer": "kilometre",
    "kilometers": "kilometre",
    "kilometres": "kilometre",
    "mi": "mile",
    "mile": "mile",
    "miles": "mile",
    "kg": "kilogram",
    "kilogram": "kilogram",
    "kilograms": "kilogram",
    "m²": "square metre",
    "m^2": "square metre",
    "sq m": "square metre",
    "square meter": "square metre",
    "square meters": "square metre",
    "square metre": "square metre",
    "square metres": "square metre",
    "ft²": "square foot",
    "sq ft": "square foot",
    "sq. ft": "square foot",
    "square foot": "square foot",
    "square feet": "square foot",
    "km²": "square kilometre",
    "sq km": "square kilometre",
    "square kilometers": "square kilometre",
    "square kilometres": "square kilometre",
    "sq mi": "square mile",
    "square mile": "square mile",
    "square miles": "square mile",
    "g": "gram",
    "gram": "gram",
    "grams": "gram",
    "mg": "milligram",
    "milligram": "milligram",
    "milligrams": "milligram",
    "lb": "pound",
    "lbs": "pound",
    "year": "year",
    "years": "year",
    "yr": "year",
    "yrs": "year",
    "month": "month",
    "months": "month",
    "week": "week",
    "weeks": "week",
    "day": "day",
    "days": "day",
    "hour": "hour",
    "hours": "hour",
    "hr": "hour",
    "hrs": "hour",
    "minute": "minute",
    "minutes": "minute",
    "min": "minute",
    "mins": "minute",
    "second": "second",
    "seconds": "second",
    "sec": "second",
    "secs": "second",
    "decade": "decade",
    "decades": "decade",
    "century": "century",
    "centuries": "century",
}

_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+"
_MONTH_RE = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december"
    r"|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
)
_ORD = r"(?:st|nd|rd|th)?"

_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_SLASH_DATE = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})\b")
_MONTH_DAY_YEAR = re.compile(
    rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}}){_ORD}(?:,\s*|\s+)(\d{{4}})\b", re.IGNORECASE
)
_DAY_MONTH_YEAR = re.compile(
    rf"\b(\d{{1,2}}){_ORD}\s+(?:of\s+)?({_MONTH_RE})\.?,?\s+(\d{{4}})\b", re.IGNORECASE
)
# "10-Mar-24", "10-MAR-2024": a spreadsheet's or database's day-month-year (DD-MON-YY).
_DAY_MON_YEAR_JOINED = re.compile(
    rf"\b(\d{{1,2}})([-/])({_MONTH_RE})\2(\d{{4}}|\d{{2}})\b(?![-/]\d)", re.IGNORECASE
)
_MONTH_YEAR = re.compile(rf"\b({_MONTH_RE})\.?,?\s+(?:of\s+)?(\d{{4}})\b", re.IGNORECASE)
_MONTH_DAY = re.compile(rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}}){_ORD}\b(?!\s*,?\s*\d)", re.IGNORECASE)
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}}){_ORD}\s+(?:of\s+)?({_MONTH_RE})\b", re.IGNORECASE)
_DAY_RANGE = re.compile(
    rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}}){_ORD}\s*[-\u2013\u2014]\s*(\d{{1,2}}){_ORD}"
    rf"(?:,?\s+(\d{{4}}))?\b",
    re.IGNORECASE,
)
# "the 2022-23 season": the "23" is the next year, not a count.
_SEASON = re.compile(r"\b((?:19|20)\d{2})\s*[-\u2013/]\s*(\d{2})\b(?![-/.]?\d)")

# "FY2022", "FY 2023": a fiscal year. "10-K", "8-Ks", "20-F": the name of a filing, no count.
_FISCAL_YEAR = re.compile(r"\bFY\s?((?:19|20)\d{2})\b", re.IGNORECASE)
_FILING_FORM = re.compile(r"\b(?:10-[KQ]|8-K|20-F|40-F|6-K|S-[14]|DEF\s14A)s?\b", re.IGNORECASE)

_SIGN = r"(?:us\$|\$|€|£|usd|eur)"
_MONEY_PREFIX = re.compile(
    rf"(?<![\w$])({_SIGN})\s?({_NUM})(?:\s?(thousand|million|billion|trillion)\b"
    rf"|\s?(k|mm|mn|mil|bn|bil|tn|tr|m|b|t)\b)?",
    re.IGNORECASE,
)
_MONEY_SUFFIX = re.compile(
    rf"(?<![\w.])(?<![A-Za-z]-)({_NUM})\s?(thousand|million|billion|trillion)?\s?"
    r"(us dollars|dollars|dollar|usd|euros|euro|eur|pounds sterling|pound sterling)\b",
    re.IGNORECASE,
)
_PERCENT = re.compile(
    rf"(?<![\w.])(?<![A-Za-z]-)(-?(?:{_NUM}))\s?"
    r"(%|percent\b|per cent\b|pct\b|percentage points?\b)",
    re.IGNORECASE,
)
_SCALED = re.compile(
    rf"(?<![\w.])(?<![A-Za-z]-)({_NUM})\s?(thousand|million|billion|trillion)\b", re.IGNORECASE
)
# "52.5M viewers", "$60.9B" without its sign, "3.4K followers": a compact count. Only a
# capital letter glued to the number, or "bn"/"mn"; a lowercase "m" is a length ("100m").
_SCALED_LETTER = re.compile(
    rf"(?<![\w.])(?<![A-Za-z]-)({_NUM})(?:(K|M|B|T)|(bn|mn|mln|bln))(?!\w)",
)
# A unit may be glued to its number ("1,776ft", "42km"); other letters make a code ("3D").
_GLUED_UNIT = r"(?=(?:ft|km|cm|mm|kg|lbs?|mi|mph|oz|gb|mb|tb|(?-i:g|mg))\b)"
_PLAIN = re.compile(
    rf"(?<![\w.])(?<![A-Za-z]-)(-?(?:{_NUM}))(st|nd|rd|th)?(?:(?![\w])|{_GLUED_UNIT})",
    re.IGNORECASE,
)
_WORD_NUMBER = re.compile(r"\b(" + "|".join(_WORD_NUMBERS) + r")\b", re.IGNORECASE)
# "about a dozen toys" is 12 and "half a dozen" 6; "dozens" counts no number.
_DOZEN = re.compile(r"\b(?:(half)\s+)?an?\s+dozen\b(?!s)", re.IGNORECASE)
# "1,122 m²", "1122 square meters", "12,077 sq ft": an area's unit is two words or a square.
_UNIT_AFTER = re.compile(r"\s?((?:square|sq\.?)\s+[a-z]+|[a-z]+\s?(?:²|\^2)|[a-z]+)", re.IGNORECASE)

_QUALIFIERS = re.compile(
    r"\b(over|more than|greater than|at least|under|less than|fewer than|at most|nearly|almost"
    r"|about|approximately|approx|around|roughly|some|up to|above|below|in excess of|upwards of"
    r"|close to|just over|just under|estimated)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Value:
    """A value found in a text: its kind, amount (or date parts), precision and place."""

    kind: ValueKind
    start: int
    end: int
    text: str
    amount: Decimal | None = None
    """The amount of money, percentage or number (dates: None)."""
    precision: Decimal = Decimal(1)
    """The place value of the last digit written (``102 million``: 1,000,000; ``3.25``: 0.01)."""
    unit: str | None = None
    """Currency code for money; a canonical unit for numbers ("foot", "year"); else None."""
    year: int | None = None
    month: int | None = None
    day: int | None = None
    two_digit_year: bool = False
    qualifier: str | None = None
    """The word before the value that makes it inexact ("over", "about", "at least"...)."""

    @property
    def qualified(self) -> bool:
        """Not an exact statement of the value."""
        return self.qualifier is not None

    @property
    def bound(self) -> bool:
        """A bound ("over 2 million", "at least 3"), not an approximation ("about 2 million")."""
        return self.qualifier is not None and self.qualifier not in _APPROXIMATE

    @property
    def is_year_like(self) -> bool:
        """A whole number that may be a year (1000-2100, no unit, no thousands separator:
        "1,560 words" is a count)."""
        return (
            self.kind == "number"
            and "," not in self.text
            and self.amount is not None
            and self.unit is None
            and self.amount == self.amount.to_integral_value()
            and 1000 <= self.amount <= 2100
        )


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def _precision(text: str, scale: Decimal = Decimal(1)) -> Decimal:
    digits = text.replace(",", "").lstrip("-")
    if "." in digits:
        return Decimal(1).scaleb(-len(digits.split(".", 1)[1])) * scale
    return scale


def _year(text: str) -> tuple[int, bool]:
    y = int(text)
    if len(text) == 2:
        return y, True
    return y, False


_APPROXIMATE = frozenset(
    {"about", "approximately", "approx", "around", "roughly", "some", "close to", "estimated"}
)


# "140-plus goals", "140+ goals": a lower bound written after the figure.
_PLUS_AFTER = re.compile(r"(?:\+|-plus\b|\s+plus\b(?!\s*\d))", re.IGNORECASE)


def _qualified(text: str, start: int, end: int) -> str | None:
    # A bound after the figure outweighs a word of approximation before it: "roughly 10+"
    # claims more than ten.
    if _PLUS_AFTER.match(text, end):
        return "over"
    before = text[max(0, start - 24) : start]
    m = list(_QUALIFIERS.finditer(before))
    if m and before[m[-1].end() :].strip(" $€£~") == "":
        return " ".join(m[-1].group(0).lower().split())
    if before.rstrip(" $€£").endswith(("~", "≈")):
        return "approximately"  # "~13%", "≈ $4.2 billion"
    return None


def _free(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    return all(end <= s or start >= e for s, e in taken)


def _month_number(name: str) -> int | None:
    return _MONTHS.get(name.lower().rstrip("."))


def _dates(text: str, taken: list[tuple[int, int]]) -> list[Value]:
    out: list[Value] = []

    def add(m: re.Match[str], year: str | None, month: int | None, day: str | None) -> None:
        if month is None or not 1 <= month <= 12:
            return
        d = int(day) if day is not None else None
        if d is not None and not 1 <= d <= 31:
            return
        y, two = _year(year) if year is not None else (None, False)
        if not _free(taken, m.start(), m.end()):
            return
        taken.append((m.start(), m.end()))
        out.append(
            Value(
                "date",
                m.start(),
                m.end(),
                m.group(0),
                year=y,
                month=month,
                day=d,
                two_digit_year=two,
            )
        )

    for m in _DAY_RANGE.finditer(text):
        # "Feb 1-7, 2024": both ends are days of that month, not a day and a count.
        month = _month_number(m.group(1))
        if month is None or not _free(taken, m.start(), m.end()):
            continue
        y, two = _year(m.group(4)) if m.group(4) else (None, False)
        for group in (2, 3):
            d = int(m.group(group))
            if 1 <= d <= 31:
                start = m.start(group) if group == 3 else m.start()
                end = m.end() if group == 3 else m.end(group)
                out.append(
                    Value(
                        "date",
                        start,
                        end,
                        text[start:end],
                        year=y,
                        month=month,
                        day=d,
                        two_digit_year=two,
                    )
                )
        taken.append((m.start(), m.end()))
    for m in _ISO_DATE.finditer(text):
        add(m, m.group(1), int(m.group(2)), m.group(3))
    for m in _SLASH_DATE.finditer(text):
        a, b = int(m.group(1)), int(m.group(2))
        if a <= 12:
            add(m, m.group(3), a, m.group(2))
        elif b <= 12:
            add(m, m.group(3), b, m.group(1))
    for m in _DAY_MON_YEAR_JOINED.finditer(text):
        add(m, m.group(4), _month_number(m.group(3)), m.group(1))
    for m in _MONTH_DAY_YEAR.finditer(text):
        add(m, m.group(3), _month_number(m.group(1)), m.group(2))
    for m in _DAY_MONTH_YEAR.finditer(text):
        add(m, m.group(3), _month_number(m.group(2)), m.group(1))
    for m in _MONTH_YEAR.finditer(text):
        add(m, m.group(2), _month_number(m.group(1)), None)
    for m in _MONTH_DAY.finditer(text):
        # "may 5" is a date, but "may" alone is a verb: only with a day number.
        add(m, None, _month_number(m.group(1)), m.group(2))
    for m in _DAY_MONTH.finditer(text):
        if m.group(2).lower() == "may" and not m.group(0)[-1].isalpha():
            continue
        add(m, None, _month_number(m.group(2)), m.group(1))
    return out


def _unit_after(text: str, end: int) -> str | None:
    m = _UNIT_AFTER.match(text, end)
    if m is None:
        return None
    return _UNIT_ALIASES.get(re.sub(r"\s+", " ", m.group(1).lower()))


def _amount_matches(text: str) -> list[tuple[re.Match[str], ValueKind, str, Decimal, str | None]]:
    """(match, kind, digits as written, scale, unit) of every written amount, in the order
    the readers claim text: money first, then percentages, scaled and plain numbers."""
    out: list[tuple[re.Match[str], ValueKind, str, Decimal, str | None]] = []
    for m in _MONEY_PREFIX.finditer(text):
        scale = Decimal(1)
        if m.group(3):
            scale = _SCALE_WORDS[m.group(3).lower()]
        elif m.group(4):
            scale = _SCALE_LETTERS[m.group(4).lower()]
        out.append((m, "money", m.group(2), scale, _CURRENCY_SIGNS[m.group(1).lower()]))
    for m in _MONEY_SUFFIX.finditer(text):
        scale = _SCALE_WORDS[m.group(2).lower()] if m.group(2) else Decimal(1)
        word = m.group(3).lower().replace("us dollars", "dollars")
        out.append((m, "money", m.group(1), scale, _CURRENCY_WORDS.get(word, "usd")))
    for m in _PERCENT.finditer(text):
        out.append((m, "percent", m.group(1), Decimal(1), None))
    for m in _SCALED.finditer(text):
        unit = _unit_after(text, m.end())
        out.append((m, "number", m.group(1), _SCALE_WORDS[m.group(2).lower()], unit))
    for m in _SCALED_LETTER.finditer(text):
        letter = (m.group(2) or m.group(3)).lower()
        out.append((m, "number", m.group(1), _SCALE_LETTERS[letter], _unit_after(text, m.end())))
    for m in _PLAIN.finditer(text):
        out.append((m, "number", m.group(1), Decimal(1), _unit_after(text, m.end())))
    return out


def find_values(text: str) -> list[Value]:
    """Every value in ``text``, in order of position (dates, money, percentages, numbers)."""
    taken: list[tuple[int, int]] = []
    found = _dates(text, taken)
    taken.extend((m.start(), m.end()) for m in _FILING_FORM.finditer(text))
    for m in _FISCAL_YEAR.finditer(text):
        if _free(taken, m.start(), m.end()):
            taken.append((m.start(), m.end()))
            found.append(
                Value("number", m.start(1), m.end(1), m.group(1), amount=Decimal(m.group(1)))
            )
    for m in _SEASON.finditer(text):
        first = int(m.group(1))
        if (first + 1) % 100 != int(m.group(2)) or not _free(taken, m.start(), m.end()):
            continue
        taken.append((m.start(), m.end()))
        for year, start, end in ((first, m.start(1), m.end(1)), (first + 1, m.start(2), m.end(2))):
            found.append(Value("number", start, end, text[start:end], amount=Decimal(year)))

    def claim(m: re.Match[str], value: Value) -> None:
        if _free(taken, m.start(), m.end()):
            taken.append((m.start(), m.end()))
            found.append(value)

    for m, kind, digits, scale, unit in _amount_matches(text):
        amount = _decimal(digits)
        if amount is None:
            continue
        value = Value(
            kind,
            m.start(),
            m.end(),
            m.group(0),
            amount=amount * scale,
            precision=_precision(digits, scale),
            unit=unit,
            qualifier=_qualified(text, m.start(), m.end()),
        )
        claim(m, value)
    for m in _DOZEN.finditer(text):
        value = Value(
            "number",
            m.start(),
            m.end(),
            m.group(0),
            amount=Decimal(6 if m.group(1) else 12),
            unit=_unit_after(text, m.end()),
            qualifier=_qualified(text, m.start(), m.end()),
        )
        claim(m, value)
    for m in _WORD_NUMBER.finditer(text):
        word = m.group(1).lower()
        # "one" is as often a pronoun ("the one who...") as a number: only before a unit.
        if word == "one" and _unit_after(text, m.end()) is None:
            continue
        value = Value(
            "number",
            m.start(),
            m.end(),
            m.group(0),
            amount=Decimal(_WORD_NUMBERS[word]),
            unit=_unit_after(text, m.end()),
            qualifier=_qualified(text, m.start(), m.end()),
        )
        claim(m, value)
    found.sort(key=lambda v: v.start)
    return found


def _round(amount: Decimal, step: Decimal) -> Decimal:
    # Half up, as people round: 35.25 to one decimal is 35.3.
    return (amount / step).to_integral_value(rounding=ROUND_HALF_UP) * step


_RELATIVE_TOLERANCE = Decimal("0.015")
"""Rounding may change a value by at most 1.5%: 618.23 ft is 618 ft; 2.2 is not 2.24."""


def _amounts_equal(a: Value, b: Value) -> bool:
    """``b`` states ``a``'s amount: equal, ``b`` rounding to ``a`` at ``a``'s coarser
    precision (4.3 for 4), ``a`` halfway between two steps of ``b``'s precision and ``b``
    either one, or both the same at the coarser precision and close."""
    assert a.amount is not None and b.amount is not None
    if a.amount == b.amount:
        return True
    if a.precision > b.precision and _round(b.amount, a.precision) == a.amount:
        return True
    step = max(a.precision, b.precision)
    # 62.5 said as 62: a figure halfway between two steps rounds either way (half up, half
    # to even), and neither way is a different figure.
    halfway = abs(a.amount - b.amount) * 2 == step and b.precision == step
    if not halfway and _round(a.amount, step) != _round(b.amount, step):
        return False
    big = max(abs(a.amount), abs(b.amount))
    return big > 0 and abs(a.amount - b.amount) / big <= _RELATIVE_TOLERANCE


def _dates_equal(gold: Value, pred: Value) -> bool:
    """Every part the gold states is stated alike by the prediction."""
    for g, p in ((gold.month, pred.month), (gold.day, pred.day)):
        if g is not None and g != p:
            return False
    if gold.year is not None:
        if pred.year is None:
            return False
        if gold.two_digit_year or pred.two_digit_year:
            return gold.year % 100 == pred.year % 100
        return gold.year == pred.year
    return True


def comparable(gold: Value, pred: Value) -> bool:
    """True when the two values state the same kind of thing (so they can be compared)."""
    if gold.kind == "date" or pred.kind == "date":
        if gold.kind == "date" and pred.kind == "date":
            return True
        # A year against a full date: compare the year.
        return (gold.kind == "number" and gold.is_year_like) or (
            pred.kind == "number" and pred.is_year_like
        )
    kinds = {gold.kind, pred.kind}
    if kinds <= {"money", "number"}:
        if gold.kind == "money" and pred.kind == "money":
            return gold.unit == pred.unit
        return gold.unit is None or pred.unit is None or gold.unit == pred.unit
    if kinds == {"percent"}:
        return True
    if kinds == {"percent", "number"}:
        number = gold if gold.kind == "number" else pred
        return number.unit is None
    return False


def same_value(gold: Value, pred: Value) -> bool:
    """True when ``pred`` states ``gold``'s value (rounding to the coarser precision allowed)."""
    if not comparable(gold, pred):
        return False
    if gold.kind == "date" and pred.kind == "date":
        return _dates_equal(gold, pred)
    if gold.kind == "date" or pred.kind == "date":
        date, number = (gold, pred) if gold.kind == "date" else (pred, gold)
        # Only a bare year can stand for a date, and only for a date that is just a year.
        if date.month is not None and gold is date:
            return False
        return date.year is not None and number.amount == date.year
    if gold.unit is not None and pred.unit is not None and gold.unit != pred.unit:
        return False
    return _amounts_equal(gold, pred)


def surely_different(gold: Value, pred: Value) -> bool:
    """True when the two values are comparable and no reading makes them the same.

    Not the negation of `same_value`: amounts that differ only by a scale the
    prediction left out (3.2 against 3.2 billion), values in other units,
    and dates missing the gold's year are not proven different.
    """
    if not comparable(gold, pred) or same_value(gold, pred):
        return False
    if gold.kind == "date" and pred.kind == "date":
        for g, p in ((gold.year, pred.year), (gold.month, pred.month), (gold.day, pred.day)):
            if g is None or p is None or g == p:
                continue
            two_digit = g == gold.year and (gold.two_digit_year or pred.two_digit_year)
            if two_digit and g % 100 == p % 100:
                continue
            return True
        return False
    if gold.kind == "date" or pred.kind == "date":
        date, number = (gold, pred) if gold.kind == "date" else (pred, gold)
        return date.year is not None and number.amount != date.year and date.month is None
    if gold.unit is not None and pred.unit is not None and gold.unit != pred.unit:
        return False
    assert gold.amount is not None and pred.amount is not None
    if gold.amount == 0 or pred.amount == 0:
        return gold.amount != pred.amount
    ratio = abs(gold.amount / pred.amount)
    # A missing or different scale word (3.2 against 3.2 billion) is not proof.
    for power in range(3, 13, 3):
        k = Decimal(10) ** power
        if ratio in (k, 1 / k):
            return False
    step = max(gold.precision, pred.precision)
    return _round(gold.amount, step) != _round(pred.amount, step)


def with_implied_year(said: str, reply: str, answers: Sequence[str]) -> str:
    """``said`` with the gold's year after a date that leaves it out but gives the gold's
    month and day ("on Sunday, March 17" against "2024-03-17"), when nowhere in ``reply``
    (the whole reply ``said`` is part of) is another year: the year is taken as read, as a
    reader takes "June 28" after "born on June 28, 1926". Any other date is left alone."""
    golds = [v for v in find_values(answers[0]) if v.kind == "date"] if answers else []
    if len(golds) != 1 or golds[0].year is None or None in (golds[0].month, golds[0].day):
        return said
    gold, gold_year = golds[0], golds[0].year
    found = find_values(reply)
    years = {v.year for v in found if v.kind == "date" and v.year is not None}
    years |= {int(v.amount) for v in found if v.is_year_like and v.amount is not None}
    if gold.two_digit_year:
        # "6/28/26": the reply's own year of that century, when it gives one.
        same = {y for y in years if y % 100 == gold_year % 100}
        if len(same) != 1 or len(years) != 1:
            return said
        year = same.pop()
    elif years - {gold_year}:
        return said
    else:
        year = gold_year
    for value in reversed(find_values(said)):
        if (
            value.kind == "date"
            and value.year is None
            and (value.month, value.day) == (gold.month, gold.day)
            # "born on July 10, 19": the cut fell in the year it was writing.
            and not _YEAR_CUT_SHORT.match(said, value.end)
        ):
            said = f"{said[: value.end]}, {year}{said[value.end :]}"
    return said


_YEAR_CUT_SHORT = re.compile(r",?\s*\d{1,3}\s*$")
