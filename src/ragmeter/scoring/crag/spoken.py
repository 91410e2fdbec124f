"""Numbers written as they are spoken, in digits: "nineteen ninety-five" is 1995, "thirty-two"
is 32, "one hundred six to ninety-five" is "106 to 95", "one point one million" is "1.1
million", "July tenth" is "July 10".

Answers meant to be read aloud (voice assistants, text-to-speech front ends) spell their
figures out. A lone number word ("one of the best", "Fast Five") is left as it is: only a
run of two or more number words, a hyphenated one ("thirty-two"), or an ordinal after a
month is rewritten, so a figure is never read into ordinary words.
"""

from __future__ import annotations

import re

__all__ = ["spoken_numbers_as_digits"]

_UNIT_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
    " fifteen sixteen seventeen eighteen nineteen"
)
_TEN_WORDS = "twenty thirty forty fifty sixty seventy eighty ninety"
_UNITS = {w: i for i, w in enumerate(_UNIT_WORDS.split())}
_TENS = {w: 10 * (i + 2) for i, w in enumerate(_TEN_WORDS.split())}
_SCALES = {"thousand": 1_000, "million": 1_000_000, "billion": 10**9, "trillion": 10**12}
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
}  # fmt: skip
_NUMBER_WORDS = set(_UNITS) | set(_TENS) | set(_SCALES) | {"hundred"}
_WORD = r"(?:" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")"
# A run of number words: "nineteen ninety-five", "two hundred and three million", "one point
# one"; hyphens join tens and units.
_RUN = re.compile(
    rf"\b{_WORD}(?:-{_WORD})?(?:(?:\s+and\s+|\s+|\s*-\s*){_WORD}(?:-{_WORD})?)*"
    rf"(?:\s+point(?:\s+{_WORD})+)?\b",
    re.IGNORECASE,
)
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_DAY = rf"(?:(?:twenty|thirty)-)?(?:{'|'.join(_ORDINALS)})"
_ORDINAL_DAY = re.compile(
    rf"\b(?P<month>{_MONTHS})\.?\s+(?:the\s+)?(?P<day>{_DAY})\b", re.IGNORECASE
)
# "the tenth of March": the day before its month, as British speakers say a date.
_DAY_OF_MONTH = re.compile(
    rf"\b(?:the\s+)?(?P<day>{_DAY})\s+of\s+(?P<month>{_MONTHS})\b", re.IGNORECASE
)
# "and" joins the parts of one number only after a hundred or a scale ("one hundred and five",
# "two thousand and eight"); "fifty-six and twenty-six" is two numbers (a 56-26 record).
_TWO_NUMBERS = re.compile(r"(?<!hundred)(?<!thousand)(?<!million)(?<!billion)\s+and\s+", re.I)
# "one hundred eighty-nine dollars and eighty cents": the cents said after the dollars.
_DOLLARS_AND_CENTS = re.compile(
    rf"\b(?P<dollars>\d[\d,]*)\s+dollars?,?\s+and\s+(?P<cents>\d{{1,2}}|{_WORD}(?:-{_WORD})?)"
    r"\s+cents?\b",
    re.IGNORECASE,
)


def _ordinal(said: str) -> int:
    return sum(_TENS[p] if p in _TENS else _ORDINALS[p] for p in said.lower().split("-"))


def _cardinal(words: list[str]) -> int | None:
    """The number a run of cardinal words states, or None when it is not one number."""
    total, current, last = 0, 0, ""
    for w in words:
        if w in _UNITS:
            if last in _UNITS or (last in _TENS and _UNITS[w] >= 10):
                return None  # "five six", "twenty twelve": two numbers, not one
            current += _UNITS[w]
        elif w in _TENS:
            if last in _UNITS or last in _TENS:
                return None
            current += _TENS[w]
        elif w == "hundred":
            if current == 0 or current >= 100:
                return None
            current *= 100
        elif w in _SCALES:
            if current == 0:
                return None
            total += current * _SCALES[w]
            current = 0
        last = w
    return total + current


def _pair(words: list[str]) -> int | None:
    """A number read as two-digit pairs, as years are spoken: "nineteen ninety-five" is 1995,
    "twenty ten" is 2010; None when the words are not two such pairs."""
    for cut in range(1, len(words)):
        head, tail = _cardinal(words[:cut]), _cardinal(words[cut:])
        if head is not None and tail is not None and 10 <= head <= 99 and 10 <= tail <= 99:
            return head * 100 + tail
    return None


def _digits(run: str) -> str | None:
    scale = ""
    said = run.lower().split()
    if len(said) > 1 and said[-1] in ("million", "billion", "trillion"):
        # "two hundred two million": kept as "202 million", the precision it was said with.
        scale, run = f" {said[-1]}", run.rsplit(maxsplit=1)[0]
    whole, _, fraction = run.lower().partition(" point ")
    words = [w for w in re.split(r"[\s-]+", whole) if w and w != "and"]
    decimals = [w for w in fraction.split() if w]
    if decimals:
        if any(w not in _UNITS or _UNITS[w] > 9 for w in decimals):
            return None
        head = _cardinal(words)
        if head is None:
            return None
        return f"{head}." + "".join(str(_UNITS[w]) for w in decimals) + scale
    value = _cardinal(words)
    if value is None:
        value = _pair(words) if not scale else None
    return None if value is None else f"{value}{scale}"


def spoken_numbers_as_digits(text: str) -> str:
    """``text`` with its spoken figures in digits ("in nineteen ninety-five" -> "in 1995")."""

    def day(m: re.Match[str]) -> str:
        return f"{m.group('month')} {_ordinal(m.group('day'))}"

    def day_first(m: re.Match[str]) -> str:
        return f"{_ordinal(m.group('day'))} {m.group('month')}"

    def one_number(run: str) -> str:
        if len(re.split(r"[\s-]+", run.strip())) < 2:
            return run  # a lone number word stays a word
        digits = _digits(run)
        return run if digits is None else digits

    def number(m: re.Match[str]) -> str:
        parts = _TWO_NUMBERS.split(m.group(0))
        joiners = _TWO_NUMBERS.findall(m.group(0))
        out = one_number(parts[0])
        for joiner, part in zip(joiners, parts[1:], strict=True):
            out += joiner + one_number(part)
        return out

    def cents(m: re.Match[str]) -> str:
        said = m.group("cents").lower()
        value = int(said) if said.isdigit() else _cardinal(re.split(r"-", said))
        if value is None or value >= 100:
            return m.group(0)
        return f"${m.group('dollars')}.{value:02d}"

    text = _DAY_OF_MONTH.sub(day_first, _ORDINAL_DAY.sub(day, text))
    return _DOLLARS_AND_CENTS.sub(cents, _RUN.sub(number, text))
