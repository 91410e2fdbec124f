"""Figures written the way continental European locales write them, in the form the rules
read: "5,33" is 5.33, "1.234,56" is 1,234.56, "1 560" is 1,560, "2,5 mrd" is "2.5 billion",
and "10/03/2024" is 10 March 2024 where the writer dates day first. So are the Indian
numbering system's: "60 crore" is 600 million, "12.4 lakh" 1.24 million, "12,40,512"
1,240,512.

CRAG's golds write figures the US way. An answer from a system built for European users
states the same fact with a decimal comma, dots or spaces between thousands and the day
before the month; read as US figures, "4,6" would be the two numbers 4 and 6. Only forms
that cannot be a US figure are rewritten: a comma before one or two digits (a US thousands
group has three), a space or dot between digit groups of three, "mrd"/"mln". A slash date
whose parts could be either day or month ("10/03/2024") is read day first only when the
reply shows no month-first date of its own and the day-first reading is the date the gold
gives while the month-first one is not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from ragmeter.scoring.crag.values import find_values

__all__ = ["locale_figures_as_us"]

# "1.234,56": dots between thousands, a comma before the decimals.
_DOTS_AND_COMMA = re.compile(r"(?<![\d.,])(\d{1,3}(?:\.\d{3})+),(\d+)(?![\d,.])")
# "1.234.567": two or more dot groups cannot be a US decimal.
_DOT_GROUPS = re.compile(r"(?<![\d.,])\d{1,3}(?:\.\d{3}){2,}(?![\d,]|\.\d)")
# "1.234" alone is a US decimal too; it is a thousands group only in a reply that already
# writes decimal commas.
_ONE_DOT_GROUP = re.compile(r"(?<![\d.,])\d{1,3}\.\d{3}(?![\d,]|\.\d)")
# "5,33", "0,20", "42,3 %": a comma before one or two digits (a US group has three), not a
# run of numbers ("1,2,3") and not a leading zero's group ("0,125" is left as it is).
_DECIMAL_COMMA = re.compile(r"(?<![\d.,])(\d+),(\d{1,2})(?![\d])(?!,\d)")
# "1 560", "3 377 USD", "2 000 000": groups of three after a space. Not before a hyphen or
# another figure ("12 100-meter races").
_SPACE_GROUPS = re.compile(r"(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d-]|[.,]\d)")
_SCALE_WORDS = re.compile(r"(?<=\d)(\s?)(mrd|mld|bln|mln|mio)\b\.?", re.IGNORECASE)
_SCALES = {"mrd": "billion", "mld": "billion", "bln": "billion", "mln": "million", "mio": "million"}
# "12,40,512", "6,00,00,000": Indian digit grouping, twos above the last three (a US group
# has three digits, so no US figure has a group of two).
_INDIAN_GROUPS = re.compile(r"(?<![\d.,])\d{1,2}(?:,\d{2})+,\d{3}(?![\d,])")
# "60 crore", "12.4 lakh", "$120 crore", "45 lakhs": 10 million and 100,000.
_INDIAN_SCALE = re.compile(
    r"(?<![\d.,])(\d+(?:\.\d+)?)\s?(crores?|cr|lakhs?|lacs?)\b", re.IGNORECASE
)
_INDIAN_SCALES = {"c": Decimal(10**7), "l": Decimal(10**5)}
_SLASH_DATE = re.compile(r"(?<![\d/.])(\d{1,2})([/.])(\d{1,2})\2(\d{4})(?![\d/])")
_MONTH_NAMES = (
    "January February March April May June July August September October November December"
)
_MONTHS = _MONTH_NAMES.split()


def locale_figures_as_us(prediction: str, answers: Sequence[str]) -> str:
    """``prediction`` with its European-format figures and dates written as CRAG's golds
    write them; unchanged when it has none."""
    text = _INDIAN_GROUPS.sub(lambda m: f"{int(m.group(0).replace(',', '')):,}", prediction)
    text = _INDIAN_SCALE.sub(_indian_scaled, text)
    text = _DOTS_AND_COMMA.sub(lambda m: f"{m.group(1).replace('.', ',')}.{m.group(2)}", text)
    text = _DOT_GROUPS.sub(lambda m: m.group(0).replace(".", ","), text)
    if _DECIMAL_COMMA.search(text):
        text = _ONE_DOT_GROUP.sub(lambda m: m.group(0).replace(".", ","), text)
        text = _DECIMAL_COMMA.sub(r"\1.\2", text)
    # US thousands commas, not bare digits: "1,560 words" is a count, "1560" may be a year.
    text = _SPACE_GROUPS.sub(lambda m: re.sub(r"[ \u00a0\u202f]", ",", m.group(0)), text)
    text = _SCALE_WORDS.sub(lambda m: " " + _SCALES[m.group(2).lower()], text)
    return _day_first_dates(text, answers)


def _indian_scaled(m: re.Match[str]) -> str:
    """ "60 crore" as "600 million": the amount in the scale words the golds use."""
    amount = Decimal(m.group(1)) * _INDIAN_SCALES[m.group(2)[0].lower()]
    for scale, word in ((Decimal(10**9), "billion"), (Decimal(10**6), "million")):
        if amount >= scale:
            return f"{format((amount / scale).normalize(), 'f')} {word}"
    return f"{int(amount):,}" if amount == amount.to_integral_value() else str(amount)


def _day_first_dates(text: str, answers: Sequence[str]) -> str:
    dates = list(_SLASH_DATE.finditer(text))
    if not dates or any(int(m.group(3)) > 12 for m in dates):
        # No slash date, or the reply writes the month first ("03/26/2024"): left as it is.
        return text
    gold = {
        (v.year, v.month, v.day)
        for a in answers
        for v in find_values(a)
        if v.kind == "date" and v.day is not None
    }
    if not gold:
        return text

    def read(m: re.Match[str]) -> str:
        day, month, year = int(m.group(1)), int(m.group(3)), int(m.group(4))
        if not (day <= 12 and month <= 12 and day != month):
            return m.group(0)  # not ambiguous: the rules read it already
        if (year, month, day) in gold and (year, day, month) not in gold:
            return f"{day} {_MONTHS[month - 1]} {year}"
        return m.group(0)

    return _SLASH_DATE.sub(read, text)
