"""A PHP array printed with ``print_r``, read into its fields.

A PHP service that decodes its model's JSON and dumps it with ``print_r`` submits::

    Array
    (
        [answer] => New York
        [docs] => Array
            (
                [0] => 1
            )

        [sure] => 1
        [note] =>
    )

Strings print without quotes, true as ``1``, false and null as nothing. A nested array with
keys 0, 1, 2 ... is a list. The 75-token cut may stop the dump part-way: the entries written
in full are kept.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["print_r_fields"]

_OPENING = re.compile(r"\s*Array\s*\n\s*\(\s*\n")
_ENTRY = re.compile(r"^\s*\[(?P<key>[^\]\n]+)\] =>(?: (?P<value>.*))?$")
_CLOSE = re.compile(r"^\s*\)\s*$")
_OPEN = re.compile(r"^\s*\(\s*$")


def _array(lines: list[str], at: int) -> tuple[Any, int, bool]:
    """The array whose entries begin at line ``at`` (after its "("), the line after its ")",
    and whether it closed before the lines ran out."""
    entries: dict[str, Any] = {}
    while at < len(lines):
        line = lines[at]
        if _CLOSE.match(line):
            return _as_list(entries), at + 1, True
        entry = _ENTRY.match(line)
        if entry is None:
            if line.strip():
                raise ValueError(line)
            at += 1
            continue
        value = (entry.group("value") or "").strip()
        key = entry.group("key")
        at += 1
        if value == "Array" and at < len(lines) and _OPEN.match(lines[at]):
            nested, at, closed = _array(lines, at + 1)
            entries[key] = nested
            if not closed:
                return _as_list(entries), at, False
        elif value == "Array" and at >= len(lines):
            break  # cut before the nested array opened
        else:
            entries[key] = value or None
    return _as_list(entries), at, False


def _as_list(entries: dict[str, Any]) -> Any:
    keys = list(entries)
    if keys and keys == [str(i) for i in range(len(keys))]:
        return list(entries.values())
    return entries if keys else []


def print_r_fields(text: str, *, cut_off: bool) -> dict[str, Any] | None:
    """The fields of a ``print_r`` dump (true as "1", false and null as None), else None.
    ``cut_off``: the 75-token cut fell in it, so its last entry may be cut short."""
    opening = _OPENING.match(text)
    if opening is None:
        return None
    lines = text[opening.end() :].split("\n")
    if cut_off and lines:
        lines = lines[:-1]  # the last line may end part-way
    try:
        found, at, closed = _array(lines, 0)
    except ValueError:
        return None
    if closed and any(line.strip() for line in lines[at:]):
        return None  # prose after the dump
    if not isinstance(found, dict):
        return {"answer": found or None}
    return {str(k).lower(): v for k, v in found.items()}
