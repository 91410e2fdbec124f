"""A reply that answers once per source, on labelled lines, read as the answer it stands by.

A pipeline that probes two sources and submits both results writes one line each: "Pages:
Russia\\nMemory: Russia", "Pages: not stated\\nMemory: around 1987", "Pages: Undefeated\\n
Memory: Searching for Sugar Man". Read as a person reads it: the lines that agree give one
answer, a line that found nothing leaves the other's answer, and two different answers offer
alternatives (a hedge by the rubric), whichever of them is right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["SourceLines", "read_source_lines"]

_GROUNDED = r"pages|documents|docs|context|retrieved|retrieval|search|web|sources"
_UNGROUNDED = r"memory|parametric|model|knowledge|prior"
_LINE = re.compile(
    rf"[ \t]*(?P<label>{_GROUNDED}|{_UNGROUNDED})[ \t]*:[ \t]*(?P<value>.*?)\s*", re.IGNORECASE
)
_NOTHING = re.compile(
    r"(?:not (?:stated|known|found|given|available|in (?:the )?(?:pages|documents|context))"
    r"|unknown|none found|no answer|n/?a|nothing found|-+|—)\.?",
    re.IGNORECASE,
)
_PARENTHETICAL = re.compile(r"\s*\([^()]*(?:\([^()]*\)[^()]*)*\)")
_ITEM_BREAK = re.compile(r",\s*(?:and\s+)?|\s+and\s+|;\s*")
_ROUGHLY = re.compile(r"\b(?:about|around|approximately|roughly|nearly|some)\s+", re.IGNORECASE)


@dataclass(frozen=True)
class SourceLines:
    """What the labelled lines answer."""

    answer: str
    """The answer stood by ("" when no line found one)."""
    other: str | None
    """A second, different answer another line gives, if any."""
    other_label: str | None
    """The label of that line, as written."""


def read_source_lines(text: str) -> SourceLines | None:
    """The answer of a reply written as two labelled lines, one grounded source and one not
    ("Pages: X" and "Memory: Y", in either order); None for any other text."""
    lines = [line for line in text.strip().split("\n") if line.strip()]
    if len(lines) != 2:
        return None
    found = [_LINE.fullmatch(line) for line in lines]
    if any(m is None for m in found):
        return None
    labels = [m.group("label") for m in found if m]
    grounded = [re.fullmatch(_GROUNDED, label, re.IGNORECASE) is not None for label in labels]
    if grounded[0] == grounded[1]:
        return None
    said = [
        (m.group("label"), m.group("value"))
        for m in found
        if m and not _NOTHING.fullmatch(m.group("value"))
    ]
    if not said:
        return SourceLines("", None, None)
    (_, first), *rest = said
    if not rest or _agree(first, rest[0][1]):
        return SourceLines(first, None, None)
    return SourceLines(first, rest[0][1], rest[0][0])


def _agree(one: str, other: str) -> bool:
    """True when two lines give the same answer: the same words (or list items, in any
    order) once their parenthetical detail and "about" are set aside, the same figures in the
    same order, or a figure the less precise one rounds to."""
    plain = [_ROUGHLY.sub("", _PARENTHETICAL.sub("", s)).strip(" .").lower() for s in (one, other)]
    items = [frozenset(i.strip() for i in _ITEM_BREAK.split(s) if i.strip()) for s in plain]
    # A list in another order is the same list.
    if items[0] == items[1] or _same_figure(plain[0], plain[1]):
        return True
    # "23 touchdowns to 5 interceptions" and "23 to 5": the same figures, fewer words.
    figures = [re.findall(r"\d+(?:\.\d+)?", s.replace(",", "")) for s in plain]
    return bool(figures[0]) and figures[0] == figures[1]


def _same_figure(one: str, other: str) -> bool:
    numbers = [re.findall(r"-?\d+(?:\.\d+)?", s.replace(",", "")) for s in (one, other)]
    if len(numbers[0]) != 1 or len(numbers[1]) != 1:
        return False
    units = [re.sub(r"-?\d+(?:\.\d+)?", "", s.replace(",", "")).strip() for s in (one, other)]
    if units[0] != units[1]:
        return False
    a, b = (float(n[0]) for n in numbers)
    # "18.9 °C" and "19 °C": the whole number is the tenth rounded.
    places = min(len(n[0].partition(".")[2]) for n in numbers)
    return abs(a - b) <= 0.5 * 10.0**-places
